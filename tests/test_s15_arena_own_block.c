/*
 * spec §15.3 / security model P3, P6: the arena's own block (smc_value.h, issue #33). A
 * growing arena without a caller block takes its first SMC_ARENA_OWN_BLOCK bytes from inside
 * itself, so a small message never reaches the allocator; a larger one still decodes, its
 * allocator bytes still within smc_decode_bound(len), and a failure still gives back every
 * byte (own block and allocator blocks alike). An arena with neither a caller block nor an
 * allocator still has no memory at all.
 */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

/* A message: a list of `n` int32 values (tag 3), each 5 bytes on the wire and one node. */
static uint8_t *list_of_i32(size_t n, size_t *len)
{
    size_t head = n < 254 ? 2 : n <= 0xffff ? 4 : 6;
    uint8_t *b = malloc(head + 5 * n);
    assert_non_null(b);
    size_t k = 0;
    b[k++] = 0x0c;
    if (n < 254) {
        b[k++] = (uint8_t)n;
    } else if (n <= 0xffff) {
        b[k++] = 0xfe;
        b[k++] = (uint8_t)n;
        b[k++] = (uint8_t)(n >> 8);
    } else {
        b[k++] = 0xff;
        for (int i = 0; i < 4; i++) {
            b[k++] = (uint8_t)(n >> (8 * i));
        }
    }
    for (size_t i = 0; i < n; i++) {
        b[k++] = 0x03;
        b[k++] = (uint8_t)i;
        b[k++] = (uint8_t)(i >> 8);
        b[k++] = (uint8_t)(i >> 16);
        b[k++] = 0;
    }
    *len = k;
    return b;
}

/* Arena bytes the decode of a list of n int32 takes: the root and n item nodes. */
static size_t list_used(size_t n)
{
    return (n + 1) * sizeof(smc_value_t);
}

static bool inside(const smc_arena_t *arena, const void *p)
{
    const uint8_t *b = (const uint8_t *)arena->own;
    return (const uint8_t *)p >= b && (const uint8_t *)p < b + sizeof arena->own;
}

/* The decoded list holds 0, 1, ..., n-1. */
static void assert_list(const smc_value_t *v, size_t n)
{
    assert_non_null(v);
    assert_int_equal(v->type, SMC_TYPE_LIST);
    assert_int_equal(v->list.count, n);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(v->list.items[i].type, SMC_TYPE_I32);
        assert_int_equal(v->list.items[i].i32, (int32_t)i);
    }
}

/* The largest list whose decode fits the own block, and the smallest that does not. */
static size_t largest_fitting(void)
{
    return SMC_ARENA_OWN_BLOCK / sizeof(smc_value_t) - 1;
}

static void own_block_small_message_takes_nothing_from_the_allocator(void **state)
{
    (void)state;
    size_t n = largest_fitting(), len;
    assert_true(list_used(n) <= SMC_ARENA_OWN_BLOCK);
    uint8_t *data = list_of_i32(n, &len);
    ts_alloc_t counter;
    ts_alloc_init(&counter);
    smc_allocator_t al = ts_alloc_allocator(&counter);
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, &al);
    for (int round = 0; round < 3; round++) { /* the own block is reused after each reset */
        smc_value_t *v = NULL;
        assert_int_equal(smc_decode(data, len, NULL, &arena, &v, NULL), SMC_OK);
        assert_list(v, n);
        assert_true(inside(&arena, v));
        assert_true(inside(&arena, &v->list.items[n - 1]));
        assert_int_equal(smc_arena_used(&arena), list_used(n));
        assert_int_equal(counter.attempts, 0);
        smc_arena_reset(&arena);
        assert_int_equal(smc_arena_used(&arena), 0);
    }
    smc_arena_free(&arena);
    free(data);
}

/* One node more than the own block holds: the allocator gives the rest, within the bound. */
static void own_block_just_too_small_goes_to_the_allocator_within_the_bound(void **state)
{
    (void)state;
    size_t sizes[] = {largest_fitting() + 1, 1000, 100000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s], len;
        uint8_t *data = list_of_i32(n, &len);
        ts_alloc_t counter;
        ts_alloc_init(&counter);
        counter.has_budget = true;
        counter.budget = smc_decode_bound(len);
        smc_allocator_t al = ts_alloc_allocator(&counter);
        smc_arena_t arena;
        smc_arena_init_allocator(&arena, &al);
        smc_value_t *v = NULL;
        assert_int_equal(smc_decode(data, len, NULL, &arena, &v, NULL), SMC_OK);
        assert_list(v, n);
        assert_true(counter.allocs >= 1);
        assert_true(counter.total_bytes <= smc_decode_bound(len));
        assert_true(smc_arena_used(&arena) <= smc_decode_bound(len));
        smc_arena_free(&arena);
        assert_int_equal(counter.live, 0);
        free(data);
    }
}

/* A failure after the own block is full gives back the own block and every allocator block;
 * the arena then decodes again from its own block. */
static void own_block_failure_gives_back_everything(void **state)
{
    (void)state;
    size_t n = 1000, len, small_len;
    uint8_t *data = list_of_i32(n, &len);
    uint8_t *small = list_of_i32(3, &small_len);
    ts_alloc_t counter;
    ts_alloc_init(&counter);
    smc_allocator_t al = ts_alloc_allocator(&counter);
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, &al);
    smc_value_t *v = (smc_value_t *)&arena; /* must be set to NULL */
    smc_error_t err;
    assert_int_equal(smc_decode(data, len - 1, NULL, &arena, &v, &err), SMC_ERR_TRUNCATED);
    assert_null(v);
    smc_error_t want;
    assert_int_equal(smc_validate(data, len - 1, NULL, &want), SMC_ERR_TRUNCATED);
    assert_int_equal(err.offset, want.offset); /* the offset of the reader layer */
    assert_int_equal(smc_arena_used(&arena), 0);
    assert_true(counter.allocs >= 1);
    assert_int_equal(counter.live, 0);
    size_t attempts = counter.attempts;
    assert_int_equal(smc_decode(small, small_len, NULL, &arena, &v, NULL), SMC_OK);
    assert_list(v, 3);
    assert_true(inside(&arena, v));
    assert_int_equal(counter.attempts, attempts);
    smc_arena_free(&arena);
    free(small);
    free(data);
}

/* An allocator that always fails: small messages decode from the own block, larger ones fail
 * with NOMEM and leave the arena as it was. */
static void own_block_with_a_failing_allocator(void **state)
{
    (void)state;
    ts_alloc_t counter;
    ts_alloc_init(&counter);
    counter.fail_at = 1;
    counter.max_size = 1; /* every later request fails too */
    smc_allocator_t al = ts_alloc_allocator(&counter);
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, &al);
    size_t len;
    uint8_t *fits = list_of_i32(largest_fitting(), &len);
    smc_value_t *v = NULL;
    assert_int_equal(smc_decode(fits, len, NULL, &arena, &v, NULL), SMC_OK);
    assert_list(v, largest_fitting());
    assert_int_equal(counter.attempts, 0);
    size_t used = smc_arena_used(&arena);
    free(fits);
    uint8_t *big = list_of_i32(largest_fitting() + 1, &len);
    smc_error_t err;
    assert_int_equal(smc_decode(big, len, NULL, &arena, &v, &err), SMC_ERR_NOMEM);
    assert_null(v);
    assert_true(counter.attempts >= 1);
    assert_int_equal(smc_arena_used(&arena), used); /* the first tree is untouched */
    assert_int_equal(counter.live, 0);
    free(big);
    smc_arena_free(&arena);
}

/* No caller block and no allocator: no memory, as before the own block. */
static void own_block_not_used_without_an_allocator(void **state)
{
    (void)state;
    size_t len;
    uint8_t *data = list_of_i32(1, &len);
    smc_arena_t arena;
    smc_arena_init_buffer(&arena, NULL, 0);
    smc_value_t *v = NULL;
    assert_int_equal(smc_decode(data, len, NULL, &arena, &v, NULL), SMC_ERR_NOMEM);
    assert_null(smc_arena_alloc(&arena, 1));
    smc_arena_free(&arena);
    free(data);
}

/* A caller block comes first and the own block is not used: the caller chose its memory. */
static void own_block_not_used_with_a_caller_block(void **state)
{
    (void)state;
    uint64_t block[64];
    ts_alloc_t counter;
    ts_alloc_init(&counter);
    smc_allocator_t al = ts_alloc_allocator(&counter);
    smc_arena_t arena;
    smc_arena_init(&arena, block, sizeof block, &al);
    void *p = smc_arena_alloc(&arena, sizeof block);
    assert_ptr_equal(p, block);
    void *q = smc_arena_alloc(&arena, 8); /* the caller block is full: the allocator */
    assert_non_null(q);
    assert_false(inside(&arena, q));
    assert_int_equal(counter.allocs, 1);
    smc_arena_free(&arena);
    assert_int_equal(counter.live, 0);
    /* An empty caller block (non-NULL, size 0): the allocator from the first byte. */
    smc_arena_init(&arena, block, 0, &al);
    q = smc_arena_alloc(&arena, 8);
    assert_non_null(q);
    assert_false(inside(&arena, q));
    assert_int_equal(counter.allocs, 2);
    smc_arena_free(&arena);
    assert_int_equal(counter.live, 0);
}

/* Builders (outside a decode call) use the own block first too. */
static void own_block_serves_smc_arena_alloc(void **state)
{
    (void)state;
    ts_alloc_t counter;
    ts_alloc_init(&counter);
    smc_allocator_t al = ts_alloc_allocator(&counter);
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, &al);
    uint8_t *p = smc_arena_alloc(&arena, SMC_ARENA_OWN_BLOCK);
    assert_ptr_equal(p, (uint8_t *)arena.own);
    memset(p, 0xa5, SMC_ARENA_OWN_BLOCK); /* all of it is ours (ASan, valgrind) */
    assert_int_equal(counter.attempts, 0);
    uint8_t *q = smc_arena_alloc(&arena, 1);
    assert_non_null(q);
    assert_false(inside(&arena, q));
    assert_int_equal(counter.allocs, 1);
    smc_arena_free(&arena);
    assert_int_equal(counter.live, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(own_block_small_message_takes_nothing_from_the_allocator),
        cmocka_unit_test(own_block_just_too_small_goes_to_the_allocator_within_the_bound),
        cmocka_unit_test(own_block_failure_gives_back_everything),
        cmocka_unit_test(own_block_with_a_failing_allocator),
        cmocka_unit_test(own_block_not_used_without_an_allocator),
        cmocka_unit_test(own_block_not_used_with_a_caller_block),
        cmocka_unit_test(own_block_serves_smc_arena_alloc),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
