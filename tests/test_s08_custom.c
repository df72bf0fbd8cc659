/* spec §8: custom tags 128..255 carry exactly one nested value (Pigeon convention). */
#include "test_support.h"

static void s08_pigeon_derived_vectors(void **state)
{
    (void)state;
    ts_run_vectors("s08.");
    ts_run_vectors("s12."); /* Pigeon requests and replies (spec §12) */
}

static void s08_1_every_custom_tag_decodes_with_one_value(void **state)
{
    (void)state;
    for (unsigned tag = 128; tag <= 255; tag++) {
        uint8_t in[2] = {(uint8_t)tag, 0x01};
        smc_arena_t arena;
        smc_arena_init_allocator(&arena, NULL);
        smc_value_t *v = NULL;
        assert_int_equal(smc_decode(in, 2, NULL, &arena, &v, NULL), SMC_OK);
        assert_int_equal(v->type, SMC_TYPE_CUSTOM);
        assert_int_equal(v->custom_tag, tag);
        assert_int_equal(v->custom.payload->type, SMC_TYPE_BOOL);
        uint8_t out[4];
        size_t n = 0;
        assert_int_equal(smc_encode(v, out, sizeof out, &n, NULL), SMC_OK);
        assert_int_equal(n, 2);
        assert_memory_equal(out, in, 2);
        smc_arena_free(&arena);
    }
}

static void s08_1_custom_without_payload_is_truncated(void **state)
{
    (void)state;
    ts_assert_decode_error("81", 0, SMC_ERR_TRUNCATED, 1);
    ts_assert_decode_error("0c0181", 0, SMC_ERR_TRUNCATED, 3);
}

static void s08_1_custom_tags_are_unknown_when_custom_values_are_disabled(void **state)
{
    (void)state;
    ts_assert_decode_error("8100", SMC_REJECT_CUSTOM, SMC_ERR_UNKNOWN_TAG, 0);
    ts_assert_decode_error("0c0200ff00", SMC_REJECT_CUSTOM, SMC_ERR_UNKNOWN_TAG, 3);
    /* Strict mode alone keeps custom values (spec §1.2 lists them as extensions). */
    ts_assert_decodes_to("8100", SMC_MODE_STRICT, "[\"custom\", 129, [\"null\"]]");
}

static void s08_encoder_rejects_tags_outside_128_255(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smc_value_t *v = smc_value_make_custom(&arena, 127, NULL);
    ts_assert_encode_error(v, SMC_ERR_NOT_ENCODABLE);
    smc_writer_t w;
    uint8_t buf[8];
    smc_writer_init(&w, buf, sizeof buf);
    smc_writer_begin_custom(&w, 256);
    size_t n = 0;
    assert_int_equal(smc_writer_finish(&w, &n, NULL), SMC_ERR_NOT_ENCODABLE);
    smc_arena_free(&arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s08_pigeon_derived_vectors),
        cmocka_unit_test(s08_1_every_custom_tag_decodes_with_one_value),
        cmocka_unit_test(s08_1_custom_without_payload_is_truncated),
        cmocka_unit_test(s08_1_custom_tags_are_unknown_when_custom_values_are_disabled),
        cmocka_unit_test(s08_encoder_rejects_tags_outside_128_255),
    };
    return cmocka_run_group_tests(tests, ts_golden_setup, ts_golden_teardown);
}
