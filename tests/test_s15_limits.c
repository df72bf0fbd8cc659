/*
 * spec §15 limits: depth (N and N+1, a 100,000-level bomb), length bombs rejected before
 * allocation (§14.3), the smc_decode_bound() promise, and allocation-failure injection.
 */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `levels` nested one-element containers around a null. unit: "0c01" (list), "81" (custom),
 * "0d0100" (map in value position), "0d01" (map in key position; needs closing nulls). */
static ts_buf_t nested(const char *unit, size_t levels, const char *tail_unit)
{
    ts_buf_t u = ts_hex(unit), t = ts_hex(tail_unit);
    ts_buf_t b;
    b.len = u.len * levels + 1 + t.len * levels;
    b.data = malloc(b.len);
    assert_non_null(b.data);
    for (size_t i = 0; i < levels; i++) {
        memcpy(b.data + i * u.len, u.data, u.len);
    }
    b.data[u.len * levels] = 0x00;
    for (size_t i = 0; i < levels; i++) {
        memcpy(b.data + u.len * levels + 1 + i * t.len, t.data, t.len);
    }
    ts_buf_free(&u);
    ts_buf_free(&t);
    return b;
}

static void decode_ok(const ts_buf_t *b, uint32_t max_depth)
{
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smc_decode_opts_t opts = {0, max_depth};
    smc_value_t *v = NULL;
    smc_error_t err;
    assert_int_equal(smc_decode(b->data, b->len, &opts, &arena, &v, &err), SMC_OK);
    assert_int_equal(smc_validate(b->data, b->len, &opts, NULL), SMC_OK);
    /* Re-encode the deepest accepted tree: same bytes. */
    uint8_t *out = malloc(b->len);
    size_t n = 0;
    assert_int_equal(smc_encode(v, out, b->len, &n, NULL), SMC_OK);
    assert_int_equal(n, b->len);
    assert_memory_equal(out, b->data, n);
    free(out);
    smc_arena_free(&arena);
}

static void assert_depth_error(const ts_buf_t *b, uint32_t max_depth, size_t offset)
{
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smc_decode_opts_t opts = {0, max_depth};
    smc_value_t *v = NULL;
    smc_error_t err;
    assert_int_equal(smc_decode(b->data, b->len, &opts, &arena, &v, &err), SMC_ERR_DEPTH);
    assert_int_equal(err.offset, offset);
    assert_int_equal(smc_validate(b->data, b->len, &opts, &err), SMC_ERR_DEPTH);
    assert_int_equal(err.offset, offset);
    assert_string_equal(smc_status_class(SMC_ERR_DEPTH), "depth_limit");
    smc_arena_free(&arena);
}

static void s15_1_depth_limit_at_n_and_n_plus_1_for_lists(void **state)
{
    (void)state;
    const uint32_t limits[] = {1, 2, 64, SMC_DEFAULT_MAX_DEPTH, SMC_MAX_DEPTH_LIMIT};
    for (size_t i = 0; i < sizeof limits / sizeof limits[0]; i++) {
        uint32_t n = limits[i];
        ts_buf_t ok = nested("0c01", n, "");
        decode_ok(&ok, n);
        ts_buf_free(&ok);
        ts_buf_t bad = nested("0c01", n + 1, "");
        assert_depth_error(&bad, n, 2 * (size_t)n); /* the tag of list n+1 */
        ts_buf_free(&bad);
    }
}

static void s15_1_default_depth_is_128(void **state)
{
    (void)state;
    assert_int_equal(SMC_DEFAULT_MAX_DEPTH, 128);
    ts_buf_t ok = nested("0c01", 128, "");
    decode_ok(&ok, 0);
    ts_buf_free(&ok);
    ts_buf_t bad = nested("0c01", 129, "");
    assert_depth_error(&bad, 0, 256);
    ts_buf_free(&bad);
    ts_run_vectors("s15."); /* the golden vectors at the limit, at every address */
}

static void s15_1_maps_and_custom_values_count_as_levels(void **state)
{
    (void)state;
    /* Maps nested in value position: level k's tag at 3(k-1). */
    ts_buf_t ok = nested("0d0100", 10, "");
    decode_ok(&ok, 10);
    ts_buf_free(&ok);
    ts_buf_t bad = nested("0d0100", 11, "");
    assert_depth_error(&bad, 10, 30);
    ts_buf_free(&bad);
    /* Maps nested in key position: each closes with a null value. */
    ok = nested("0d01", 10, "00");
    decode_ok(&ok, 10);
    ts_buf_free(&ok);
    bad = nested("0d01", 11, "00");
    assert_depth_error(&bad, 10, 20);
    ts_buf_free(&bad);
    /* Custom values. */
    ok = nested("81", 10, "");
    decode_ok(&ok, 10);
    ts_buf_free(&ok);
    bad = nested("81", 11, "");
    assert_depth_error(&bad, 10, 10);
    ts_buf_free(&bad);
    /* Depth is checked at the tag, before the count: a too-deep empty list is rejected. */
    ts_buf_t b = ts_hex("0c010c00");
    assert_depth_error(&b, 1, 2);
    ts_buf_free(&b);
    /* Scalars and typed lists never count. */
    b = ts_hex("0c010c0109000000");
    decode_ok(&b, 2);
    ts_buf_free(&b);
}

static void s15_1_a_100000_level_bomb_is_rejected_without_stack_overflow(void **state)
{
    (void)state;
    const char *units[] = {"0c01", "81", "0d0100", "0d01"};
    const size_t widths[] = {2, 1, 3, 2};
    for (size_t i = 0; i < 4; i++) {
        ts_buf_t bomb = nested(units[i], 100000, "");
        assert_depth_error(&bomb, 0, widths[i] * SMC_DEFAULT_MAX_DEPTH);
        assert_depth_error(&bomb, SMC_MAX_DEPTH_LIMIT, widths[i] * SMC_MAX_DEPTH_LIMIT);
        ts_buf_free(&bomb);
    }
}

static void s15_1_depth_options_outside_the_limit_are_usage_errors(void **state)
{
    (void)state;
    uint8_t in[1] = {0};
    smc_decode_opts_t opts = {0, SMC_MAX_DEPTH_LIMIT + 1};
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smc_value_t *v;
    assert_int_equal(smc_decode(in, 1, &opts, &arena, &v, NULL), SMC_ERR_USAGE);
    assert_int_equal(smc_validate(in, 1, &opts, NULL), SMC_ERR_USAGE);
    opts.max_depth = 0;
    opts.flags = 0x80000000u; /* unknown flag */
    assert_int_equal(smc_decode(in, 1, &opts, &arena, &v, NULL), SMC_ERR_USAGE);
    smc_arena_free(&arena);
}

static void s15_encoder_stops_at_the_depth_limit_even_on_a_cycle(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smc_value_t *list = smc_value_make_list(&arena, 1);
    list->list.items[0] = *list; /* shallow copy: items point at itself */
    list->list.items[0].list.items = list->list.items;
    ts_assert_encode_error(list, SMC_ERR_DEPTH);
    smc_arena_free(&arena);
}

/* ---- length bombs (spec §14.3, §15.2) ---- */

static void s15_2_huge_declared_sizes_are_truncated_without_allocating(void **state)
{
    (void)state;
    const char *tags[] = {"07", "05", "08", "09", "0a", "0b", "0e", "0c", "0d"};
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++) {
        for (int nested_in_list = 0; nested_in_list < 2; nested_in_list++) {
            char hex[64];
            snprintf(hex, sizeof hex, "%s%sffffffffff", nested_in_list ? "0c0200" : "", tags[i]);
            ts_buf_t b = ts_hex(hex);
            ts_alloc_t counter;
            ts_alloc_init(&counter);
            smc_allocator_t al = ts_alloc_allocator(&counter);
            smc_arena_t arena;
            smc_arena_init_allocator(&arena, &al);
            smc_value_t *v;
            smc_error_t err;
            assert_int_equal(smc_decode(b.data, b.len, NULL, &arena, &v, &err), SMC_ERR_TRUNCATED);
            assert_int_equal(err.offset, b.len);
            /* Nodes only, within the bound of the 6 or 9 input bytes (P3), never near 4 GiB. */
            assert_true(counter.peak_bytes <= smc_decode_bound(b.len));
            assert_int_equal(counter.live, 0);
            smc_arena_free(&arena);
            /* And in a caller block of decode_bound(len) bytes: truncated, not nomem. */
            uint8_t block[1024];
            assert_true(smc_decode_bound(b.len) <= sizeof block);
            smc_arena_init_buffer(&arena, block, smc_decode_bound(b.len));
            assert_int_equal(smc_decode(b.data, b.len, NULL, &arena, &v, &err), SMC_ERR_TRUNCATED);
            ts_buf_free(&b);
        }
    }
}

static void s15_2_count_is_checked_against_minimum_bytes(void **state)
{
    (void)state;
    /* A list of 3 needs 3 bytes; 2 remain: truncated at once (the length), before decoding
     * the elements that are there. */
    ts_assert_decode_error("0c030000", 0, SMC_ERR_TRUNCATED, 4);
    /* Int64List of 1 at offset 0 needs 6 padding bytes + 8. */
    ts_assert_decode_error("0a01000000000000000000000000", 0, SMC_ERR_TRUNCATED, 14);
    /* The §14.3 check comes before the strict padding check. */
    ts_assert_decode_error("0a01ff0000000000000000000000", SMC_MODE_STRICT, SMC_ERR_TRUNCATED, 14);
}

/* ---- smc_decode_bound ---- */

static void assert_bound_holds(const uint8_t *data, size_t len, uint32_t flags)
{
    size_t bound = smc_decode_bound(len);
    uint8_t *block = malloc(bound);
    assert_non_null(block);
    smc_arena_t arena;
    smc_arena_init_buffer(&arena, block, bound);
    smc_decode_opts_t opts = {flags, 0};
    smc_value_t *v;
    smc_status_t st = smc_decode(data, len, &opts, &arena, &v, NULL);
    assert_int_not_equal(st, SMC_ERR_NOMEM);
    assert_true(smc_arena_used(&arena) <= bound);
    smc_method_call_t call;
    smc_arena_reset(&arena);
    assert_int_not_equal(smc_decode_method_call(data, len, &opts, &arena, &call, NULL),
                         SMC_ERR_NOMEM);
    smc_envelope_t env;
    smc_arena_reset(&arena);
    assert_int_not_equal(smc_decode_envelope(data, len, &opts, &arena, &env, NULL), SMC_ERR_NOMEM);
    free(block);
}

static void s15_3_decode_bound_formula(void **state)
{
    (void)state;
    assert_int_equal(smc_decode_bound(0), SMC_DECODE_BOUND_FIXED);
    assert_int_equal(smc_decode_bound(10), SMC_DECODE_BOUND_FIXED + 10 * SMC_DECODE_BOUND_PER_BYTE);
    assert_int_equal(smc_decode_bound(SIZE_MAX), SIZE_MAX);
}

static void s15_3_decode_bound_holds_for_every_vector_and_worst_cases(void **state)
{
    (void)state;
    for (size_t i = 0; i < ts_vector_count; i++) {
        assert_bound_holds(ts_vectors[i].bytes, ts_vectors[i].len, 0);
        assert_bound_holds(ts_vectors[i].bytes, ts_vectors[i].len, SMC_ALIAS_INPUT);
    }
    /* Dense inputs: many 1-byte strings, many 1-element typed lists, nested customs, maps of
     * nulls, lists of empty lists. */
    const char *units[] = {"070161", "0801ff", "0c00", "00", "0d00", "8100", "0700"};
    for (size_t u = 0; u < sizeof units / sizeof units[0]; u++) {
        ts_buf_t unit = ts_hex(units[u]);
        size_t count = 3000;
        ts_buf_t b = ts_hex_repeat("0cfeb80b", 0, count * unit.len, "");
        for (size_t i = 0; i < count; i++) {
            memcpy(b.data + 4 + i * unit.len, unit.data, unit.len);
        }
        assert_bound_holds(b.data, b.len, 0);
        ts_buf_free(&b);
        ts_buf_free(&unit);
    }
    ts_buf_t deep = nested("81", 128, "");
    assert_bound_holds(deep.data, deep.len, 0);
    ts_buf_free(&deep);
}

static void s15_3_decode_bound_is_tight_for_a_list_of_nulls(void **state)
{
    (void)state;
    /* One node per input byte is the worst case the formula is built for: a long list of
     * nulls must use most of the bound, or the bound would promise little. */
    ts_buf_t b = ts_hex_repeat("0cfeb80b", 0x00, 3000, "");
    size_t bound = smc_decode_bound(b.len);
    uint8_t *block = malloc(bound);
    assert_non_null(block);
    smc_arena_t arena;
    smc_arena_init_buffer(&arena, block, bound);
    smc_value_t *v;
    assert_int_equal(smc_decode(b.data, b.len, NULL, &arena, &v, NULL), SMC_OK);
    assert_true(smc_arena_used(&arena) * 10 >= bound * 7);
    free(block);
    ts_buf_free(&b);
}

static void s15_3_decode_bound_holds_for_pseudo_random_inputs(void **state)
{
    (void)state;
    /* A fixed xorshift stream biased towards small tags and sizes, so many inputs are valid
     * or nearly so. */
    uint64_t x = 0x9e3779b97f4a7c15u;
    uint8_t buf[96];
    size_t ok = 0;
    for (int round = 0; round < 20000; round++) {
        size_t len = 1 + (size_t)(x % sizeof buf);
        for (size_t i = 0; i < len; i++) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            uint8_t r = (uint8_t)x;
            buf[i] = (r & 0x80) ? (uint8_t)(r % 15) : (uint8_t)(r & 0x3);
        }
        assert_bound_holds(buf, len, round & 1 ? SMC_MODE_STRICT : 0);
        smc_error_t e1, e2;
        smc_arena_t arena;
        smc_arena_init_allocator(&arena, NULL);
        smc_value_t *v;
        smc_decode_opts_t opts = {0, 0};
        smc_status_t s1 = smc_decode(buf, len, &opts, &arena, &v, &e1);
        smc_status_t s2 = smc_validate(buf, len, &opts, &e2);
        assert_int_equal(s1, s2); /* the two layers agree */
        if (s1 != SMC_OK) {
            assert_int_equal(e1.offset, e2.offset);
            assert_true(e1.offset <= len);
        } else {
            ok++;
        }
        smc_arena_free(&arena);
    }
    assert_true(ok > 100);
}

static void s15_3_an_arena_below_the_bound_can_run_out(void **state)
{
    (void)state;
    ts_buf_t b = ts_hex("0c03000000");
    uint8_t block[16];
    smc_arena_t arena;
    smc_arena_init_buffer(&arena, block, sizeof block);
    smc_value_t *v;
    smc_error_t err;
    assert_int_equal(smc_decode(b.data, b.len, NULL, &arena, &v, &err), SMC_ERR_NOMEM);
    assert_int_equal(smc_arena_used(&arena), 0); /* rolled back */
    ts_buf_free(&b);
}

static void s15_3_nested_truncated_counts_do_not_reserve_quadratic_memory(void **state)
{
    (void)state;
    /* 60 nested lists, each declaring about as many elements as bytes remain: every §14.3
     * check passes, yet the input ends early. Reserving node slots per container would cost
     * depth × length nodes; the decoder keeps to smc_decode_bound(len). */
    uint8_t in[120];
    for (size_t i = 0; i < 60; i++) {
        in[2 * i] = 0x0c;
        in[2 * i + 1] = (uint8_t)(sizeof in - 2 * i - 2);
    }
    assert_bound_holds(in, sizeof in, 0);
    ts_assert_decode_error_bytes(in, sizeof in, 0, SMC_ERR_TRUNCATED, sizeof in, __FILE__,
                                 __LINE__);
    /* When the reservation proves the input invalid, the reported error is still the first
     * one in stream order (spec/errors.md §14.2): here an unknown tag before the end. */
    ts_assert_decode_error("0c020c050f00000000", 0, SMC_ERR_UNKNOWN_TAG, 4);
    ts_assert_decode_error("0c020c050702ff0000", 0, SMC_ERR_BAD_UTF8, 6);
}

/* ---- allocation-failure injection (house style rule 13b) ---- */

static void fail_each_allocation_until_success(const uint8_t *data, size_t len, uint32_t flags,
                                               int entry)
{
    for (size_t nth = 1;; nth++) {
        ts_alloc_t counter;
        ts_alloc_init(&counter);
        counter.fail_at = nth;
        smc_allocator_t al = ts_alloc_allocator(&counter);
        smc_arena_t arena;
        smc_arena_init_allocator(&arena, &al);
        smc_decode_opts_t opts = {flags, 0};
        smc_status_t st;
        if (entry == 0) {
            smc_value_t *v;
            st = smc_decode(data, len, &opts, &arena, &v, NULL);
        } else if (entry == 1) {
            smc_method_call_t c;
            st = smc_decode_method_call(data, len, &opts, &arena, &c, NULL);
        } else {
            smc_envelope_t e;
            st = smc_decode_envelope(data, len, &opts, &arena, &e, NULL);
        }
        if (st == SMC_OK) {
            assert_true(counter.attempts < nth); /* succeeded without reaching the failure */
            smc_arena_free(&arena);
            assert_int_equal(counter.live, 0);
            return;
        }
        assert_int_equal(st, SMC_ERR_NOMEM);
        assert_int_equal(counter.live, 0); /* the failed decode gave everything back */
        smc_arena_free(&arena);
        assert_true(nth < 10000);
    }
}

static void s15_3_allocation_failure_at_every_point_is_nomem_without_leaks(void **state)
{
    (void)state;
    for (size_t i = 0; i < ts_vector_count; i++) {
        fail_each_allocation_until_success(ts_vectors[i].bytes, ts_vectors[i].len, 0, 0);
    }
    /* Big enough for many arena blocks: 3000 strings of 40 bytes in a list, and a large
     * Uint8List that needs a dedicated block. */
    ts_buf_t big = ts_hex_repeat("0cfeb80b", 0, 3000 * 42, "");
    for (size_t i = 0; i < 3000; i++) {
        big.data[4 + i * 42] = 0x07;
        big.data[4 + i * 42 + 1] = 40;
        memset(big.data + 4 + i * 42 + 2, 'x', 40);
    }
    fail_each_allocation_until_success(big.data, big.len, 0, 0);
    ts_buf_free(&big);
    ts_buf_t bytes = ts_hex_repeat("0c0208ff00000100", 0x11, 0x10000, "00");
    fail_each_allocation_until_success(bytes.data, bytes.len, 0, 0);
    ts_buf_free(&bytes);
    ts_buf_t call = ts_hex("070568656c6c6f0c020705636f756e74032a000000");
    fail_each_allocation_until_success(call.data, call.len, 0, 1);
    ts_buf_free(&call);
    ts_buf_t env = ts_hex("0107056572726f720704626f6f6d0007027374");
    fail_each_allocation_until_success(env.data, env.len, 0, 2);
    ts_buf_free(&env);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s15_1_depth_limit_at_n_and_n_plus_1_for_lists),
        cmocka_unit_test(s15_1_default_depth_is_128),
        cmocka_unit_test(s15_1_maps_and_custom_values_count_as_levels),
        cmocka_unit_test(s15_1_a_100000_level_bomb_is_rejected_without_stack_overflow),
        cmocka_unit_test(s15_1_depth_options_outside_the_limit_are_usage_errors),
        cmocka_unit_test(s15_encoder_stops_at_the_depth_limit_even_on_a_cycle),
        cmocka_unit_test(s15_2_huge_declared_sizes_are_truncated_without_allocating),
        cmocka_unit_test(s15_2_count_is_checked_against_minimum_bytes),
        cmocka_unit_test(s15_3_decode_bound_formula),
        cmocka_unit_test(s15_3_decode_bound_holds_for_every_vector_and_worst_cases),
        cmocka_unit_test(s15_3_decode_bound_is_tight_for_a_list_of_nulls),
        cmocka_unit_test(s15_3_decode_bound_holds_for_pseudo_random_inputs),
        cmocka_unit_test(s15_3_an_arena_below_the_bound_can_run_out),
        cmocka_unit_test(s15_3_nested_truncated_counts_do_not_reserve_quadratic_memory),
        cmocka_unit_test(s15_3_allocation_failure_at_every_point_is_nomem_without_leaks),
    };
    return cmocka_run_group_tests(tests, ts_golden_setup, ts_golden_teardown);
}
