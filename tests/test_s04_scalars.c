/* spec §4: null, booleans, int32, int64, float64, largeInt. */
#include "test_support.h"

static void s04_1_null_and_bools_match_upstream_vectors(void **state)
{
    (void)state;
    ts_run_vectors("s04.1-");
}

static void s04_2_integer_vectors_are_byte_exact_both_ways(void **state)
{
    (void)state;
    ts_run_vectors("s04.2-");
}

static void s04_2_int32_and_int64_of_same_number_are_different_values(void **state)
{
    (void)state;
    ts_assert_canonical("[\"i64\", \"5\"]", "040500000000000000");
    ts_assert_canonical("[\"i32\", 5]", "0305000000");
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smc_value_t *a = ts_notation(&arena, "[\"i64\", \"5\"]");
    smc_value_t *b = ts_notation(&arena, "[\"i32\", 5]");
    assert_false(smc_value_equal(a, b));
    smc_arena_free(&arena);
}

static void s04_2_int_scalars_are_never_aligned(void **state)
{
    (void)state;
    /* After one byte of prefix the payload starts at offset 2/3 without padding. */
    ts_assert_canonical("[\"list\", [[\"i32\", 1]]]", "0c010301000000");
    ts_assert_canonical("[\"list\", [[\"null\"], [\"i64\", \"1\"]]]", "0c0200040100000000000000");
}

static void s04_3_float64_vectors_keep_bits(void **state)
{
    (void)state;
    ts_run_vectors("s04.3-");
}

static void s04_3_nan_payload_and_negative_zero_survive_roundtrip(void **state)
{
    (void)state;
    ts_assert_canonical("[\"f64\", \"fff0000000000abc\"]", "0600000000000000bc0a00000000f0ff");
    ts_assert_canonical("[\"f64\", \"8000000000000000\"]", "06000000000000000000000000000080");
}

static void s04_4_largeint_is_text_in_flutter_mode(void **state)
{
    (void)state;
    /* spec §4.4: kept verbatim after a UTF-8 check. */
    ts_assert_decodes_to("05032d3166", SMC_MODE_FLUTTER, "[\"largeint\", \"-1f\"]");
    ts_assert_decodes_to("0500", SMC_MODE_FLUTTER, "[\"largeint\", \"\"]");
}

static void s04_4_largeint_is_unknown_tag_in_strict_mode(void **state)
{
    (void)state;
    ts_assert_decode_error("05032d3166", SMC_MODE_STRICT, SMC_ERR_UNKNOWN_TAG, 0);
    ts_assert_decode_error("0c020005032d3166", SMC_MODE_STRICT, SMC_ERR_UNKNOWN_TAG, 3);
    ts_assert_decode_error("05032d3166", SMC_REJECT_LARGEINT, SMC_ERR_UNKNOWN_TAG, 0);
}

static void s04_4_largeint_with_bad_utf8_is_bad_utf8(void **state)
{
    (void)state;
    ts_assert_decode_error("050231ff", SMC_MODE_FLUTTER, SMC_ERR_BAD_UTF8, 3);
}

static void s04_4_largeint_is_never_encoded(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smc_value_t *v = smc_value_make_largeint(&arena, "ff", 2);
    ts_assert_encode_error(v, SMC_ERR_NOT_ENCODABLE);
    smc_arena_free(&arena);
}

static void s04_2_truncated_fixed_width_payloads(void **state)
{
    (void)state;
    /* GLib decode-error inputs (wire-format-notes §3.5): truncated at the input length. */
    ts_assert_decode_error("03", 0, SMC_ERR_TRUNCATED, 1);
    ts_assert_decode_error("0367", 0, SMC_ERR_TRUNCATED, 2);
    ts_assert_decode_error("03674523", 0, SMC_ERR_TRUNCATED, 4);
    ts_assert_decode_error("04", 0, SMC_ERR_TRUNCATED, 1);
    ts_assert_decode_error("04ef", 0, SMC_ERR_TRUNCATED, 2);
    ts_assert_decode_error("04efcdab89674523", 0, SMC_ERR_TRUNCATED, 8);
    ts_assert_decode_error("060000000000000000", 0, SMC_ERR_TRUNCATED, 9);
    ts_assert_decode_error("060000000000000000000000000000", 0, SMC_ERR_TRUNCATED, 15);
}

static void s04_3_float64_padding_must_be_present(void **state)
{
    (void)state;
    ts_assert_decode_error("06", 0, SMC_ERR_TRUNCATED, 1);
    ts_assert_decode_error("06000000", 0, SMC_ERR_TRUNCATED, 4);
    ts_assert_decode_error("06000000000000", SMC_MODE_STRICT, SMC_ERR_TRUNCATED, 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s04_1_null_and_bools_match_upstream_vectors),
        cmocka_unit_test(s04_2_integer_vectors_are_byte_exact_both_ways),
        cmocka_unit_test(s04_2_int32_and_int64_of_same_number_are_different_values),
        cmocka_unit_test(s04_2_int_scalars_are_never_aligned),
        cmocka_unit_test(s04_3_float64_vectors_keep_bits),
        cmocka_unit_test(s04_3_nan_payload_and_negative_zero_survive_roundtrip),
        cmocka_unit_test(s04_4_largeint_is_text_in_flutter_mode),
        cmocka_unit_test(s04_4_largeint_is_unknown_tag_in_strict_mode),
        cmocka_unit_test(s04_4_largeint_with_bad_utf8_is_bad_utf8),
        cmocka_unit_test(s04_4_largeint_is_never_encoded),
        cmocka_unit_test(s04_2_truncated_fixed_width_payloads),
        cmocka_unit_test(s04_3_float64_padding_must_be_present),
    };
    return cmocka_run_group_tests(tests, ts_golden_setup, ts_golden_teardown);
}
