/*
 * spec §15.3 / security model P3: an arena that grows from an allocator asks it, during one
 * decode of `len` bytes, for at most smc_decode_bound(len) bytes in total, so an allocator
 * with exactly that budget never makes a valid input fail. The constructions are the ones
 * that broke the old block sizing (issue 18): small allocations that open a fresh block just
 * before a large child array that then no longer fits, abandoning the block's tail.
 */
#include "test_support.h"

#include "smct_doc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

/* ---- building inputs ---- */

typedef struct build {
    uint8_t *data;
    size_t len, cap;
} build_t;

static void put(build_t *b, const void *bytes, size_t n)
{
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 64;
        b->data = realloc(b->data, b->cap);
        assert_non_null(b->data);
    }
    memcpy(b->data + b->len, bytes, n);
    b->len += n;
}

static void put_hex(build_t *b, const char *hex)
{
    ts_buf_t h = ts_hex(hex);
    put(b, h.data, h.len);
    ts_buf_free(&h);
}

/* spec §2.2: shortest size form */
static void put_size(build_t *b, size_t n)
{
    uint8_t s[5];
    if (n < 254) {
        s[0] = (uint8_t)n;
        put(b, s, 1);
    } else if (n <= 0xffff) {
        s[0] = 0xfe;
        s[1] = (uint8_t)n;
        s[2] = (uint8_t)(n >> 8);
        put(b, s, 3);
    } else {
        s[0] = 0xff;
        for (int i = 0; i < 4; i++) {
            s[1 + i] = (uint8_t)(n >> (8 * i));
        }
        put(b, s, 5);
    }
}

static void put_nulls_list(build_t *b, size_t n)
{
    put_hex(b, "0c");
    put_size(b, n);
    for (size_t i = 0; i < n; i++) {
        put_hex(b, "00");
    }
}

/* A small value: hex, or "@i32s" / "@f64" for an Int32List of 1 / a float64, whose padding
 * (spec §3.3) depends on where it lands. */
static void put_small(build_t *b, const char *small)
{
    static const uint8_t zeros[8] = {0};
    if (strcmp(small, "@i32s") == 0) {
        put_hex(b, "0901");
        put(b, zeros, (4 - b->len % 4) % 4);
        put_hex(b, "07000000");
    } else if (strcmp(small, "@f64") == 0) {
        put_hex(b, "06");
        put(b, zeros, (8 - b->len % 8) % 8);
        put_hex(b, "000000000000f03f");
    } else {
        put_hex(b, small);
    }
}

/* A container header (list "0c" of 2*pairs, or map "0d" of pairs) whose values alternate
 * `small` (hex) with a list of `n` nulls; `small_first` puts the small value first. */
static build_t alternating(const char *container, size_t pairs, const char *small, size_t n,
                           bool small_first)
{
    build_t b = {NULL, 0, 0};
    put_hex(&b, container);
    put_size(&b, strcmp(container, "0d") == 0 ? pairs : 2 * pairs);
    for (size_t i = 0; i < pairs; i++) {
        if (small_first) {
            put_small(&b, small);
        }
        put_nulls_list(&b, n);
        if (!small_first) {
            put_small(&b, small);
        }
    }
    return b;
}

/* ---- the check ---- */

/* Decode `data` with `entry` through an allocator with a budget of `budget` bytes: must give
 * `want`, take at most smc_decode_bound(len) and the budget, leave the arena empty on failure
 * and give everything back. Returns the allocator total. */
static size_t decode_with_budget_in(const uint8_t *data, size_t len, smc_entry_t entry,
                                    uint32_t flags, smc_status_t want, size_t budget, bool own)
{
    ts_alloc_t counter;
    ts_alloc_init(&counter);
    counter.has_budget = true;
    counter.budget = budget;
    smc_allocator_t al = ts_alloc_allocator(&counter);
    smc_arena_t arena;
    static uint64_t empty; /* an empty caller block: the allocator from the first byte */
    smc_arena_init(&arena, own ? NULL : &empty, 0, &al);
    smc_decode_opts_t opts = {flags, 0};
    smc_error_t err;
    smct_doc_t doc;
    smc_status_t st = smct_doc_decode(data, len, entry, &opts, &arena, &doc, &err);
    if (st != want) {
        fail_msg("%zu-byte input (entry %d, flags %#x): %s at %zu, want %s; allocator total %zu "
                 "of a budget of %zu",
                 len, (int)entry, (unsigned)flags, smc_status_name(st), err.offset,
                 smc_status_name(want), counter.total_bytes, counter.budget);
    }
    assert_true(counter.total_bytes <= smc_decode_bound(len));
    if (st != SMC_OK) {
        assert_int_equal(smc_arena_used(&arena), 0); /* P6: a failed call gives back all */
        assert_int_equal(counter.live, 0);
    }
    smc_arena_free(&arena);
    assert_int_equal(counter.live, 0);
    return counter.total_bytes;
}

/* Both kinds of growing arena: with its own block first (smc_arena_init_allocator), and with
 * none, so the budget policy is exercised from the first byte of small inputs too. Returns the
 * allocator total of the second. */
static size_t decode_with_budget(const uint8_t *data, size_t len, smc_entry_t entry, uint32_t flags,
                                 smc_status_t want, size_t budget)
{
    decode_with_budget_in(data, len, entry, flags, want, budget, true);
    return decode_with_budget_in(data, len, entry, flags, want, budget, false);
}

/* The same with a budget of exactly smc_decode_bound(len): must give `want`, never NOMEM. */
static size_t decode_within_budget(const uint8_t *data, size_t len, smc_entry_t entry,
                                   uint32_t flags, smc_status_t want)
{
    return decode_with_budget(data, len, entry, flags, want, smc_decode_bound(len));
}

/* Every entry point and mode on the value `b`: as a message, as the arguments of a method
 * call, as a success envelope's result and as an error envelope's details. Also the input
 * cut one byte short (truncated, never NOMEM). */
static void assert_within_budget_everywhere(build_t *b)
{
    const uint32_t modes[] = {0, SMC_ALIAS_INPUT, SMC_MODE_STRICT};
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        size_t total = decode_within_budget(b->data, b->len, SMC_ENTRY_MESSAGE, modes[m], SMC_OK);
        /* The block sizing wastes little: the used part of these inputs is 24 B/byte. */
        assert_true(total <= smc_decode_bound(b->len));
    }
    decode_within_budget(b->data, b->len - 1, SMC_ENTRY_MESSAGE, 0, SMC_ERR_TRUNCATED);

    build_t call = {NULL, 0, 0};
    put_hex(&call, "0706");
    put(&call, "method", 6);
    put(&call, b->data, b->len);
    decode_within_budget(call.data, call.len, SMC_ENTRY_CALL, 0, SMC_OK);
    free(call.data);

    build_t ok = {NULL, 0, 0};
    put_hex(&ok, "00");
    put(&ok, b->data, b->len);
    decode_within_budget(ok.data, ok.len, SMC_ENTRY_ENVELOPE, 0, SMC_OK);
    free(ok.data);

    build_t error = {NULL, 0, 0};
    put_hex(&error, "010704636f6465070378797a"); /* code "code", message "xyz" */
    put(&error, b->data, b->len);
    put_hex(&error, "07057472616365"); /* stacktrace "trace" */
    decode_within_budget(error.data, error.len, SMC_ENTRY_ENVELOPE, 0, SMC_OK);
    free(error.data);
}

/* The construction of issue 18: a list alternating the custom value `80 00` with a list of
 * 43,690 nulls (each children array 1,048,560 bytes, just under 1 MiB), 24 pairs: 1,048,706
 * bytes. The old arena took 46.5 MB from its allocator for it, 1.39x the bound, and failed
 * with NOMEM under an exact budget. */
static void s15_3_issue18_construction_decodes_within_an_exact_budget(void **state)
{
    (void)state;
    build_t b = alternating("0c", 24, "8000", 43690, true);
    assert_int_equal(b.len, 1048706);
    size_t total = decode_within_budget(b.data, b.len, SMC_ENTRY_MESSAGE, 0, SMC_OK);
    assert_true(total <= smc_decode_bound(b.len));
    /* The tree itself is 24 bytes per input byte; the blocks add little to it. */
    assert_true(total <= 25 * b.len + 4096);
    free(b.data);
    /* Every entry point and mode, on a quarter of it. */
    b = alternating("0c", 6, "8000", 43690, true);
    assert_within_budget_everywhere(&b);
    free(b.data);
}

/* The 4.4 MB variant (100 pairs), which reached 1.47x the bound. */
static void s15_3_issue18_large_variant_decodes_within_an_exact_budget(void **state)
{
    (void)state;
    if (RUNNING_ON_VALGRIND) {
        /* 105 MB of tree under memcheck takes minutes; the plain and ASan runs have it. */
        print_message("skipped under valgrind: the 4.4 MB variant (plain and ASan runs have it)\n");
        skip();
    }
    build_t b = alternating("0c", 100, "8000", 43690, true);
    assert_int_equal(b.len, 4369602);
    size_t total = decode_within_budget(b.data, b.len, SMC_ENTRY_MESSAGE, 0, SMC_OK);
    assert_true(total <= 25 * b.len + 4096);
    free(b.data);
}

/* Variants: other small values between the arrays (custom payloads of every kind, copied
 * strings and byte arrays, an int32 typed list and a float64 with their padding, a nested
 * custom value), the small value after the array, and map keys and values. */
static void s15_3_variants_decode_within_an_exact_budget(void **state)
{
    (void)state;
    const char *smalls[] = {"8000",   "810c0100", "82070161", "83080378797a", "@i32s",
                            "808000", "070161",   "0d010000", "@f64",         "8108020000"};
    for (size_t s = 0; s < sizeof smalls / sizeof smalls[0]; s++) {
        for (int first = 0; first < 2; first++) {
            /* 43,691 nulls: one slot more than fits a 1 MiB block with its header. */
            build_t b = alternating("0c", 2, smalls[s], 43691, first != 0);
            decode_within_budget(b.data, b.len, SMC_ENTRY_MESSAGE, first ? 0 : SMC_ALIAS_INPUT,
                                 SMC_OK);
            free(b.data);
        }
        /* Map: small keys, large values; and large keys, small values. */
        for (int first = 0; first < 2; first++) {
            build_t m = alternating("0d", 2, smalls[s], 21845, first != 0);
            decode_within_budget(m.data, m.len, SMC_ENTRY_MESSAGE, 0, SMC_OK);
            free(m.data);
        }
    }
}

/* The variants named in issue 18 at a size where the old block sizing also broke: another
 * custom payload, a string, and small map keys between the arrays (each about 256 KiB). */
static void s15_3_named_variants_decode_within_an_exact_budget(void **state)
{
    (void)state;
    build_t b = alternating("0c", 6, "810c0100", 43690, true);
    decode_within_budget(b.data, b.len, SMC_ENTRY_MESSAGE, 0, SMC_OK);
    free(b.data);
    b = alternating("0c", 6, "070161", 43690, true);
    decode_within_budget(b.data, b.len, SMC_ENTRY_MESSAGE, 0, SMC_OK);
    free(b.data);
    b = alternating("0d", 6, "070161", 43690, true);
    decode_within_budget(b.data, b.len, SMC_ENTRY_MESSAGE, 0, SMC_OK);
    free(b.data);
}

/* Dense inputs of every small length (the budget is then smaller than any fixed first block
 * would be): lists of nulls, nested lists and custom values, and one-byte strings. */
static void s15_3_small_inputs_decode_within_an_exact_budget(void **state)
{
    (void)state;
    for (size_t n = 0; n < 400; n++) {
        build_t b = {NULL, 0, 0};
        put_nulls_list(&b, n);
        decode_within_budget(b.data, b.len, SMC_ENTRY_MESSAGE, 0, SMC_OK);
        free(b.data);

        build_t s = {NULL, 0, 0};
        put_hex(&s, "0c");
        put_size(&s, n);
        for (size_t i = 0; i < n; i++) {
            put_hex(&s, i % 2 ? "070161" : "81070162");
        }
        decode_within_budget(s.data, s.len, SMC_ENTRY_MESSAGE, 0, SMC_OK);
        free(s.data);

        if (n >= 1 && n <= SMC_DEFAULT_MAX_DEPTH) {
            build_t d = {NULL, 0, 0};
            for (size_t i = 0; i < n; i++) {
                put_hex(&d, i % 2 ? "0c01" : "80");
            }
            put_hex(&d, "00");
            decode_within_budget(d.data, d.len, SMC_ENTRY_MESSAGE, 0, SMC_OK);
            free(d.data);
        }
    }
    ts_buf_t one = ts_hex("00");
    decode_within_budget(one.data, one.len, SMC_ENTRY_MESSAGE, 0, SMC_OK);
    ts_buf_free(&one);
}

/* Budgets below the bound may run out (the bound is what is promised, not a floor), and
 * then the call fails with NOMEM and gives everything back. */
static void s15_3_a_budget_far_below_the_bound_fails_cleanly(void **state)
{
    (void)state;
    build_t b = alternating("0c", 4, "8000", 1000, true);
    /* the tree needs 24 B/byte */
    decode_with_budget(b.data, b.len, SMC_ENTRY_MESSAGE, 0, SMC_ERR_NOMEM, 10 * b.len);
    free(b.data);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s15_3_issue18_construction_decodes_within_an_exact_budget),
        cmocka_unit_test(s15_3_issue18_large_variant_decodes_within_an_exact_budget),
        cmocka_unit_test(s15_3_named_variants_decode_within_an_exact_budget),
        cmocka_unit_test(s15_3_variants_decode_within_an_exact_budget),
        cmocka_unit_test(s15_3_small_inputs_decode_within_an_exact_budget),
        cmocka_unit_test(s15_3_a_budget_far_below_the_bound_fails_cleanly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
