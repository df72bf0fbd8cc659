/* spec §6: Uint8List and the four typed lists (count, padding, little-endian elements). */
#include "test_support.h"

/* §6.1–§6.6: every golden typed-list vector (the empty ones with their padding included). */
static void s06_golden_typed_list_vectors(void **state)
{
    (void)state;
    ts_run_vectors("s06.");
}

static void s06_accessors_read_elements_independent_of_host_alignment(void **state)
{
    (void)state;
    ts_buf_t b = ts_hex("0c0200 0a02 000000 0100000000000080 feffffffffffffff");
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smc_decode_opts_t alias = {SMC_ALIAS_INPUT, 0};
    smc_value_t *v = NULL;
    assert_int_equal(smc_decode(b.data, b.len, &alias, &arena, &v, NULL), SMC_OK);
    const smc_array_t *a = &v->list.items[1].array;
    assert_int_equal(a->count, 2);
    assert_ptr_equal(a->data, b.data + 8); /* aliased: zero-copy view into the input */
    assert_true(smc_i64s_at(a, 0) == INT64_MIN + 1);
    assert_true(smc_i64s_at(a, 1) == -2);
    ts_buf_free(&b);
    smc_arena_free(&arena);
}

static void s06_truncated_typed_lists(void **state)
{
    (void)state;
    /* GLib decode-error inputs (wire-format-notes §3.5), truncated at the input length. */
    const char *inputs[] = {
        "08",
        "0805",
        "080500",
        "080500010203",
        "09",
        "09050000",
        "0905000000",
        "090500000000ffffffff02000000fdffffff040000",
        "0a",
        "0a05000000000000",
        "0a0500000000000000",
        "0a050000000000000000000000000000ffffffffffffffff0200000000000000fdffffffffffffff040000",
        "0e",
        "0e050000",
        "0e05000000",
        "0e05000000000000000000bf0000803e000000becdcccc",
        "0b",
        "0b05000000000000",
        "0b0500000000000000",
        "0b050000000000000000000000000000000000000000e0bf000000000000d03f000000000000c0bf9a999999",
    };
    for (size_t i = 0; i < sizeof inputs / sizeof inputs[0]; i++) {
        ts_buf_t b = ts_hex(inputs[i]);
        ts_assert_decode_error_bytes(b.data, b.len, 0, SMC_ERR_TRUNCATED, b.len, __FILE__,
                                     __LINE__);
        ts_buf_free(&b);
    }
}

/* §3.2, §6.2–§6.5: the public width helper agrees with the generated table of
 * spec/wire-types.json, and the encoder lays out three elements of each typed list with that
 * width after the padding of that alignment (tag, count, padding, elements). */
static void s06_typed_list_width_matches_the_wire_types_table(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    static const uint8_t zeros[3 * 8] = {0};
    size_t typed_lists = 0;
#define S06_CHECK_TYPE(type, tag, tag_last, word, title, element_width, alignment)                 \
    assert_int_equal(smc_typed_list_width(type), element_width);                                   \
    if (element_width > 0) {                                                                       \
        typed_lists++;                                                                             \
        smc_value_t *v = smc_value_make_array_le(&arena, type, zeros, 3);                          \
        assert_non_null(v);                                                                        \
        uint8_t out[64];                                                                           \
        size_t n = 0;                                                                              \
        assert_int_equal(smc_encode(v, out, sizeof out, &n, NULL), SMC_OK);                        \
        size_t header = 2; /* the tag and a one-byte count */                                      \
        size_t padded = (header + alignment - 1) / alignment * alignment;                          \
        assert_int_equal(out[0], tag);                                                             \
        assert_int_equal(n, padded + 3 * element_width);                                           \
    }
    SMC_WIRE_TYPES(S06_CHECK_TYPE)
#undef S06_CHECK_TYPE
    assert_int_equal(typed_lists, 4); /* Int32List, Int64List, Float64List, Float32List */
    smc_arena_free(&arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s06_golden_typed_list_vectors),
        cmocka_unit_test(s06_accessors_read_elements_independent_of_host_alignment),
        cmocka_unit_test(s06_truncated_typed_lists),
        cmocka_unit_test(s06_typed_list_width_matches_the_wire_types_table),
    };
    return cmocka_run_group_tests(tests, ts_golden_setup, ts_golden_teardown);
}
