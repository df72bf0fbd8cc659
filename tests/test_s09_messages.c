/* spec §9 (one value per message) and the unknown-tag rule of spec/errors.md §14.1. */
#include "test_support.h"

static void s09_2_empty_message_is_truncated_at_0(void **state)
{
    (void)state;
    ts_assert_decode_error("", SMC_MODE_FLUTTER, SMC_ERR_TRUNCATED, 0);
    ts_assert_decode_error("", SMC_MODE_STRICT, SMC_ERR_TRUNCATED, 0);
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smc_value_t *v = NULL;
    smc_error_t err;
    assert_int_equal(smc_decode(NULL, 0, NULL, &arena, &v, &err), SMC_ERR_TRUNCATED);
    assert_int_equal(err.offset, 0);
    smc_arena_free(&arena);
}

static void s09_1_trailing_bytes_after_the_value(void **state)
{
    (void)state;
    ts_assert_decode_error("0000", SMC_MODE_FLUTTER, SMC_ERR_TRAILING_BYTES, 1);
    ts_assert_decode_error("0301000000ff", SMC_MODE_STRICT, SMC_ERR_TRAILING_BYTES, 5);
    ts_assert_decode_error("0c0001", 0, SMC_ERR_TRAILING_BYTES, 2);
    /* A trailing byte that is itself a bad tag is still trailing_bytes: the message ends
     * with its one value (spec §9.1). */
    ts_assert_decode_error("000f", 0, SMC_ERR_TRAILING_BYTES, 1);
}

static void s09_3_top_level_null_encodes_as_00(void **state)
{
    (void)state;
    ts_assert_canonical("[\"null\"]", "00");
    ts_run_vectors("s09.");
}

static void s14_1_every_reserved_tag_is_unknown(void **state)
{
    (void)state;
    for (unsigned tag = 0x0f; tag <= 0x7f; tag++) {
        uint8_t in[3] = {0x0c, 0x01, (uint8_t)tag};
        ts_assert_decode_error_bytes(in + 2, 1, 0, SMC_ERR_UNKNOWN_TAG, 0, __FILE__, __LINE__);
        ts_assert_decode_error_bytes(in, 3, SMC_MODE_STRICT, SMC_ERR_UNKNOWN_TAG, 2, __FILE__,
                                     __LINE__);
    }
    /* GLib DecodeUnknownType (wire-format-notes §3.5). */
    ts_assert_decode_error("0f", 0, SMC_ERR_UNKNOWN_TAG, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s09_2_empty_message_is_truncated_at_0),
        cmocka_unit_test(s09_1_trailing_bytes_after_the_value),
        cmocka_unit_test(s09_3_top_level_null_encodes_as_00),
        cmocka_unit_test(s14_1_every_reserved_tag_is_unknown),
    };
    return cmocka_run_group_tests(tests, ts_golden_setup, ts_golden_teardown);
}
