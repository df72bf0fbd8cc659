/*
 * spec/errors.md §14.1: every strict prefix of every valid input is `truncated` at the
 * prefix length (house style rule 13a), for messages, method calls and envelopes; no leak,
 * and the reader agrees (checked inside ts_assert_decode_error_bytes).
 */
#include "test_support.h"

#include <string.h>

/* Vectors longer than this are left out of the sweep (its cost grows with the square of the
 * length); the size-form boundaries they exist for are swept below. */
#define PREFIX_SWEEP_MAX_LEN 1024

static void s14_every_prefix_of_every_valid_vector_is_truncated(void **state)
{
    (void)state;
    size_t checked = 0, left_out = 0;
    for (size_t i = 0; i < ts_vector_count; i++) {
        const ts_vector_t *t = &ts_vectors[i];
        if (t->len > PREFIX_SWEEP_MAX_LEN) {
            left_out++;
            continue;
        }
        uint32_t flags = t->direction == TS_BOTH ? SMC_MODE_STRICT : SMC_MODE_FLUTTER;
        for (size_t k = 0; k < t->len; k++) {
            ts_assert_decode_error_bytes(t->bytes, k, flags, SMC_ERR_TRUNCATED, k, t->id, (int)k);
            ts_assert_decode_error_bytes(t->bytes, k, SMC_MODE_FLUTTER, SMC_ERR_TRUNCATED, k, t->id,
                                         (int)k);
            checked++;
        }
    }
    print_message("%zu prefixes of %zu inputs checked; %zu inputs over %d bytes left out\n",
                  checked, ts_vector_count - left_out, left_out, PREFIX_SWEEP_MAX_LEN);
    assert_true(checked > 10000);
}

static void s14_prefixes_of_large_sized_values_are_truncated(void **state)
{
    (void)state;
    /* Around the size-form boundaries of spec §2.2 (lengths 254 and 65536). */
    ts_buf_t b = ts_hex_repeat("08fefe00", 0x5a, 254, "");
    for (size_t k = 0; k < b.len; k++) {
        ts_assert_decode_error_bytes(b.data, k, 0, SMC_ERR_TRUNCATED, k, __FILE__, __LINE__);
    }
    ts_buf_free(&b);
    b = ts_hex_repeat("0cff00000100", 0x00, 0x10000, "");
    const size_t cuts[] = {0, 1, 2, 5, 6, 7, 1000, 0x10000, 0x10005};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        ts_assert_decode_error_bytes(b.data, cuts[i], 0, SMC_ERR_TRUNCATED, cuts[i], __FILE__,
                                     __LINE__);
    }
    ts_buf_free(&b);
}

static const char *const calls[] = {
    "070568656c6c6f00",
    "070568656c6c6f0705776f726c64",
    "070568656c6c6f0c020705636f756e74032a000000",
    "07016d0600000000000000000000f83f",
};

static void s14_every_prefix_of_a_method_call_is_truncated(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++) {
        ts_buf_t b = ts_hex(calls[i]);
        for (size_t k = 0; k < b.len; k++) {
            smc_method_call_t call;
            smc_error_t err;
            assert_int_equal(smc_decode_method_call(b.data, k, NULL, &arena, &call, &err),
                             SMC_ERR_TRUNCATED);
            assert_int_equal(err.offset, k);
            assert_int_equal(smc_arena_used(&arena), 0);
        }
        ts_buf_free(&b);
    }
    smc_arena_free(&arena);
}

static const char *const envelopes[] = {
    "0000",
    "00070568656c6c6f",
    "000c020705636f756e74032a000000",
    "0006000000000000000000000000f03f",
    "0107000000",
    "0107056572726f7207076d6573736167650c020705636f756e74032a000000",
};

static void s14_every_prefix_of_an_envelope_is_truncated(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    for (size_t i = 0; i < sizeof envelopes / sizeof envelopes[0]; i++) {
        ts_buf_t b = ts_hex(envelopes[i]);
        for (size_t k = 0; k < b.len; k++) {
            smc_envelope_t env;
            smc_error_t err;
            assert_int_equal(smc_decode_envelope(b.data, k, NULL, &arena, &env, &err),
                             SMC_ERR_TRUNCATED);
            assert_int_equal(err.offset, k);
            assert_int_equal(smc_arena_used(&arena), 0);
        }
        ts_buf_free(&b);
    }
    /* With the optional stacktrace, the prefix that ends after the details is itself a
     * complete 3-element error envelope (spec §11.3); every other prefix is truncated. */
    ts_buf_t b = ts_hex("0107056572726f720704626f6f6d0007027374");
    const size_t three_elements = 15;
    for (size_t k = 0; k < b.len; k++) {
        smc_envelope_t env;
        smc_error_t err;
        smc_status_t st = smc_decode_envelope(b.data, k, NULL, &arena, &env, &err);
        if (k == three_elements) {
            assert_int_equal(st, SMC_OK);
            assert_int_equal(env.stacktrace_state, SMC_STACKTRACE_ABSENT);
        } else {
            assert_int_equal(st, SMC_ERR_TRUNCATED);
            assert_int_equal(err.offset, k);
        }
    }
    ts_buf_free(&b);
    smc_arena_free(&arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s14_every_prefix_of_every_valid_vector_is_truncated),
        cmocka_unit_test(s14_prefixes_of_large_sized_values_are_truncated),
        cmocka_unit_test(s14_every_prefix_of_a_method_call_is_truncated),
        cmocka_unit_test(s14_every_prefix_of_an_envelope_is_truncated),
    };
    return cmocka_run_group_tests(tests, ts_golden_setup, ts_golden_teardown);
}
