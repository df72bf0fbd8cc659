/*
 * spec §3: padding counted from the message start (never the memory address), present on
 * decode, zero on encode, also for empty typed lists; strict mode rejects non-zero padding.
 */
#include "test_support.h"

#include <stdio.h>
#include <string.h>

/* Wrap a value (notation `inner`, bytes `inner_hex`) so its tag sits at message offset k:
 * k = 0 top level; k = 1 inside a custom value; k ≥ 2 inside a list after k-2 nulls. */
static void place_at(unsigned k, const char *inner, const char *inner_hex, char *notation,
                     size_t ncap, char *hex, size_t hcap)
{
    if (k == 0) {
        snprintf(notation, ncap, "%s", inner);
        snprintf(hex, hcap, "%s", inner_hex);
    } else if (k == 1) {
        snprintf(notation, ncap, "[\"custom\", 128, %s]", inner);
        snprintf(hex, hcap, "80%s", inner_hex);
    } else {
        char nulls[64] = "", nhex[32] = "";
        for (unsigned i = 0; i < k - 2; i++) {
            strcat(nulls, "[\"null\"], ");
            strcat(nhex, "00");
        }
        snprintf(notation, ncap, "[\"list\", [%s%s]]", nulls, inner);
        snprintf(hex, hcap, "0c%02x%s%s", k - 1, nhex, inner_hex);
    }
}

static void zeros(char *out, size_t n)
{
    out[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        strcat(out, "00");
    }
}

static void s03_2_float64_scalar_at_offsets_0_to_7(void **state)
{
    (void)state;
    for (unsigned k = 0; k < 8; k++) {
        char pad[32], inner_hex[64], notation[256], hex[256];
        zeros(pad, (8 - (k + 1) % 8) % 8);
        snprintf(inner_hex, sizeof inner_hex, "06%s000000000000f03f", pad);
        place_at(k, "[\"f64\", \"3ff0000000000000\"]", inner_hex, notation, sizeof notation, hex,
                 sizeof hex);
        ts_assert_canonical(notation, hex);
    }
}

/* One-element typed list: tag at k, count at k+1, padding from k+2 to `width`. */
static void typed_list_at_offsets(const char *word, unsigned tag, unsigned width,
                                  const char *elem_notation, const char *elem_hex)
{
    for (unsigned k = 0; k < 8; k++) {
        char pad[32], inner[128], inner_hex[96], notation[512], hex[256];
        zeros(pad, (width - (k + 2) % width) % width);
        snprintf(inner, sizeof inner, "[\"%s\", [%s]]", word, elem_notation);
        snprintf(inner_hex, sizeof inner_hex, "%02x01%s%s", tag, pad, elem_hex);
        place_at(k, inner, inner_hex, notation, sizeof notation, hex, sizeof hex);
        ts_assert_canonical(notation, hex);
        /* Empty lists carry the padding too (spec §6.6). */
        snprintf(inner, sizeof inner, "[\"%s\", []]", word);
        snprintf(inner_hex, sizeof inner_hex, "%02x00%s", tag, pad);
        place_at(k, inner, inner_hex, notation, sizeof notation, hex, sizeof hex);
        ts_assert_canonical(notation, hex);
    }
}

static void s03_2_int32list_at_offsets_0_to_7(void **state)
{
    (void)state;
    typed_list_at_offsets("i32s", 0x09, 4, "-2", "feffffff");
}

static void s03_2_float32list_at_offsets_0_to_7(void **state)
{
    (void)state;
    typed_list_at_offsets("f32s", 0x0e, 4, "\"3f800000\"", "0000803f");
}

static void s03_2_int64list_at_offsets_0_to_7(void **state)
{
    (void)state;
    typed_list_at_offsets("i64s", 0x0a, 8, "\"-2\"", "feffffffffffffff");
}

static void s03_2_float64list_at_offsets_0_to_7(void **state)
{
    (void)state;
    typed_list_at_offsets("f64s", 0x0b, 8, "\"7ff0000000000001\"", "010000000000f07f");
}

static void s03_1_method_call_and_envelope_alignment_counts_from_first_byte(void **state)
{
    (void)state;
    /* wire-format-notes §3.6: the double inside is aligned from byte 0 of the buffer. */
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    ts_buf_t call = ts_hex("07016d0600000000000000000000f83f");
    smc_method_call_t mc;
    assert_int_equal(smc_decode_method_call(call.data, call.len, NULL, &arena, &mc, NULL), SMC_OK);
    assert_int_equal(mc.args->type, SMC_TYPE_F64);
    assert_true(mc.args->f64_bits == 0x3ff8000000000000u);
    ts_buf_t env = ts_hex("0006000000000000000000000000f03f");
    smc_envelope_t e;
    assert_int_equal(smc_decode_envelope(env.data, env.len, NULL, &arena, &e, NULL), SMC_OK);
    assert_false(e.is_error);
    assert_true(e.result->f64_bits == 0x3ff0000000000000u);
    ts_buf_free(&call);
    ts_buf_free(&env);
    smc_arena_free(&arena);
}

static void s03_3_nonzero_padding_is_ignored_in_flutter_mode(void **state)
{
    (void)state;
    ts_assert_decodes_to("06ffffffffffffff000000000000f03f", 0, "[\"f64\", \"3ff0000000000000\"]");
    ts_assert_decodes_to("0901aabbfeffffff", 0, "[\"i32s\", [-2]]");
    ts_assert_decodes_to("0a00 010203040506", 0, "[\"i64s\", []]");
    /* C++ writes no padding for an empty list (wire-format-notes §3.6); inside a list the
     * next element's bytes are then taken as padding: [null, i32s[], 7] reads as
     * [null, i32s[], null] + a trailing byte. */
    ts_assert_decode_error("0c030009000307000000", 0, SMC_ERR_TRAILING_BYTES, 9);
}

static void s03_3_nonzero_padding_is_not_canonical_in_strict_mode(void **state)
{
    (void)state;
    ts_assert_decode_error("06000000ff000000000000000000f03f", SMC_MODE_STRICT,
                           SMC_ERR_NONZERO_PADDING, 4);
    ts_assert_decode_error("0901aabbfeffffff", SMC_STRICT_PADDING, SMC_ERR_NONZERO_PADDING, 2);
    ts_assert_decode_error("0901 00bb feffffff", SMC_MODE_STRICT, SMC_ERR_NONZERO_PADDING, 3);
    ts_assert_decode_error("0a00 000000000001", SMC_MODE_STRICT, SMC_ERR_NONZERO_PADDING, 7);
    ts_assert_decode_error("0c030009000307000000", SMC_MODE_STRICT, SMC_ERR_NONZERO_PADDING, 5);
}

static void s03_3_padding_must_be_present(void **state)
{
    (void)state;
    /* C++'s unpadded empty lists (wire-format-notes §3.6) are truncated. */
    ts_assert_decode_error("0e00", 0, SMC_ERR_TRUNCATED, 2);
    ts_assert_decode_error("0c02000900", 0, SMC_ERR_TRUNCATED, 5);
    ts_assert_decode_error("0a00000000", 0, SMC_ERR_TRUNCATED, 5);
    /* Truncation is found before padding content (§14.2 steps 3–4). */
    ts_assert_decode_error("0a01ff", SMC_MODE_STRICT, SMC_ERR_TRUNCATED, 3);
}

static void s03_golden_alignment_vectors_hold_at_every_address(void **state)
{
    (void)state;
    ts_run_vectors("s03.");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s03_2_float64_scalar_at_offsets_0_to_7),
        cmocka_unit_test(s03_2_int32list_at_offsets_0_to_7),
        cmocka_unit_test(s03_2_float32list_at_offsets_0_to_7),
        cmocka_unit_test(s03_2_int64list_at_offsets_0_to_7),
        cmocka_unit_test(s03_2_float64list_at_offsets_0_to_7),
        cmocka_unit_test(s03_1_method_call_and_envelope_alignment_counts_from_first_byte),
        cmocka_unit_test(s03_3_nonzero_padding_is_ignored_in_flutter_mode),
        cmocka_unit_test(s03_3_nonzero_padding_is_not_canonical_in_strict_mode),
        cmocka_unit_test(s03_3_padding_must_be_present),
        cmocka_unit_test(s03_golden_alignment_vectors_hold_at_every_address),
    };
    return cmocka_run_group_tests(tests, ts_golden_setup, ts_golden_teardown);
}
