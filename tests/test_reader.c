/* Layer 1 reader: pre-order items, depths, offsets, zero-copy views, agreement with the tree. */
#include "test_support.h"

#include <string.h>

static void reader_yields_items_in_preorder_with_depth_and_offset(void **state)
{
    (void)state;
    /* [1, {"k": 2.0}, custom130(null)] */
    ts_buf_t b = ts_hex("0c03 0301000000 0d01 07016b 06 000000 0000000000000040 8200");
    smc_reader_t r;
    smc_item_t it;
    smc_reader_init(&r, b.data, b.len, NULL);
    const struct {
        smc_type_t type;
        uint32_t depth;
        size_t offset;
    } want[] = {{SMC_TYPE_LIST, 0, 0}, {SMC_TYPE_I32, 1, 2},  {SMC_TYPE_MAP, 1, 7},
                {SMC_TYPE_STR, 2, 9},  {SMC_TYPE_F64, 2, 12}, {SMC_TYPE_CUSTOM, 1, 24},
                {SMC_TYPE_NULL, 2, 25}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_false(i > 0 && smc_reader_value_complete(&r));
        assert_int_equal(smc_reader_next(&r, &it), SMC_OK);
        assert_int_equal(it.type, want[i].type);
        assert_int_equal(it.depth, want[i].depth);
        assert_int_equal(it.offset, want[i].offset);
        if (it.type == SMC_TYPE_STR) {
            assert_ptr_equal(it.bytes.ptr, b.data + 11); /* zero-copy view */
            assert_int_equal(it.bytes.len, 1);
        }
        if (it.type == SMC_TYPE_F64) {
            assert_true(it.f64_bits == 0x4000000000000000u);
        }
        if (it.type == SMC_TYPE_CUSTOM) {
            assert_int_equal(it.custom_tag, 0x82);
        }
    }
    assert_true(smc_reader_value_complete(&r));
    assert_int_equal(smc_reader_offset(&r), b.len);
    assert_int_equal(smc_reader_finish(&r, NULL), SMC_OK);
    ts_buf_free(&b);
}

static void reader_reads_back_to_back_values_and_skips(void **state)
{
    (void)state;
    ts_buf_t b = ts_hex("07016d 0c020c010000 03 05000000");
    smc_reader_t r;
    smc_item_t it;
    smc_reader_init(&r, b.data, b.len, NULL);
    uint8_t tag = 0;
    assert_true(smc_reader_peek_byte(&r, &tag));
    assert_int_equal(tag, 0x07);
    assert_int_equal(smc_reader_next(&r, &it), SMC_OK);
    assert_true(smc_reader_value_complete(&r));
    assert_int_equal(smc_reader_skip_value(&r), SMC_OK); /* the whole list */
    assert_int_equal(smc_reader_offset(&r), 9);
    assert_int_equal(smc_reader_remaining(&r), 5);
    assert_int_equal(smc_reader_next(&r, &it), SMC_OK);
    assert_int_equal(it.i32, 5);
    assert_false(smc_reader_peek_byte(&r, &tag));
    ts_buf_free(&b);
}

static void reader_init_at_counts_alignment_from_the_buffer_start(void **state)
{
    (void)state;
    ts_buf_t b = ts_hex("0006000000000000000000000000f03f");
    smc_reader_t r;
    smc_item_t it;
    smc_reader_init_at(&r, b.data, b.len, 1, NULL);
    assert_int_equal(smc_reader_next(&r, &it), SMC_OK);
    assert_int_equal(it.offset, 1);
    assert_true(it.f64_bits == 0x3ff0000000000000u);
    assert_int_equal(smc_reader_finish(&r, NULL), SMC_OK);
    smc_reader_init_at(&r, b.data, b.len, b.len + 1, NULL);
    assert_int_equal(smc_reader_next(&r, &it), SMC_ERR_USAGE);
    ts_buf_free(&b);
}

static void reader_errors_are_sticky(void **state)
{
    (void)state;
    ts_buf_t b = ts_hex("0c020f00");
    smc_reader_t r;
    smc_item_t it;
    smc_error_t err;
    smc_reader_init(&r, b.data, b.len, NULL);
    assert_int_equal(smc_reader_next(&r, &it), SMC_OK);
    assert_int_equal(smc_reader_next(&r, &it), SMC_ERR_UNKNOWN_TAG);
    assert_int_equal(it.type, SMC_TYPE_NULL); /* zeroed */
    assert_int_equal(smc_reader_next(&r, &it), SMC_ERR_UNKNOWN_TAG);
    assert_int_equal(smc_reader_error(&r, &err), SMC_ERR_UNKNOWN_TAG);
    assert_int_equal(err.offset, 2);
    ts_buf_free(&b);
}

/* Count the nodes of a tree (iteratively, small trees only). */
static size_t count_nodes(const smc_value_t *v)
{
    size_t n = 1;
    if (v->type == SMC_TYPE_LIST) {
        for (size_t i = 0; i < v->list.count; i++) {
            n += count_nodes(&v->list.items[i]);
        }
    } else if (v->type == SMC_TYPE_MAP) {
        for (size_t i = 0; i < 2 * v->map.count; i++) {
            n += count_nodes(&v->map.entries[i]);
        }
    } else if (v->type == SMC_TYPE_CUSTOM) {
        n += count_nodes(v->custom.payload);
    }
    return n;
}

/* Each item tells where its size field and padding lie (for dumps such as smc inspect). */
static void reader_items_report_size_field_and_padding(void **state)
{
    (void)state;
    static const struct {
        const char *hex;
        smc_type_t type;
        unsigned size_len, pad_len;
    } cases[] = {
        {"00", SMC_TYPE_NULL, 0, 0},
        {"0301000000", SMC_TYPE_I32, 0, 0},
        {"06 00000000000000 000000000000f03f", SMC_TYPE_F64, 0, 7}, /* spec §4.3 */
        {"0702 6869", SMC_TYPE_STR, 1, 0},                          /* spec §2.2 */
        {"07fe0200 6869", SMC_TYPE_STR, 3, 0},                      /* u16 form, non-minimal */
        {"08ff02000000 0102", SMC_TYPE_U8S, 5, 0},                  /* u32 form */
        {"0901 0000 07000000", SMC_TYPE_I32S, 1, 2},                /* spec §6.2 */
        {"0b00 000000000000", SMC_TYPE_F64S, 1, 6},                 /* padding when empty */
        {"0afe0100 00000000 0100000000000000", SMC_TYPE_I64S, 3, 4},
        {"0c01 00", SMC_TYPE_LIST, 1, 0},
        {"0d01 0000", SMC_TYPE_MAP, 1, 0},
        {"80 00", SMC_TYPE_CUSTOM, 0, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ts_buf_t b = ts_hex(cases[i].hex);
        smc_reader_t r;
        smc_item_t it;
        smc_reader_init(&r, b.data, b.len, NULL);
        assert_int_equal(smc_reader_next(&r, &it), SMC_OK);
        assert_int_equal(it.type, cases[i].type);
        assert_int_equal(it.size_len, cases[i].size_len);
        assert_int_equal(it.pad_len, cases[i].pad_len);
        ts_buf_free(&b);
    }
    /* The writer's shortest forms, and the spec's type names beside the notation's. */
    assert_int_equal(smc_size_field_len(253), 1);
    assert_int_equal(smc_size_field_len(254), 3);
    assert_int_equal(smc_size_field_len(0xFFFF), 3);
    assert_int_equal(smc_size_field_len(0x10000), 5);
    assert_string_equal(smc_type_title(SMC_TYPE_F64S), "Float64List");
    assert_string_equal(smc_type_name(SMC_TYPE_F64S), "f64s");
    assert_string_equal(smc_type_title((smc_type_t)99), "?");
}

/* The method-call and envelope grammar the decoders follow, as the tools see it. */
static void reader_element_grammar_matches_the_decoders(void **state)
{
    (void)state;
    size_t n;
    const smc_element_t *e = smc_method_call_elements(&n);
    assert_int_equal(n, 2);
    assert_string_equal(e[0].name, "name");
    assert_int_equal(e[0].wrong_tag, SMC_ERR_BAD_METHOD_NAME);
    e = smc_envelope_elements(1, &n);
    assert_int_equal(n, 4);
    assert_true(e[3].optional && smc_element_allows(e[3].kind, 0x00) &&
                !smc_element_allows(e[3].kind, 0x01));
    assert_null(smc_envelope_elements(2, &n));
    assert_int_equal(n, 0);
    /* The decoder reports the table's status at the wrong tag. */
    ts_buf_t b = ts_hex("01 0701 63 03");
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smc_envelope_t env;
    smc_error_t err;
    e = smc_envelope_elements(1, &n);
    assert_int_equal(smc_decode_envelope(b.data, b.len, NULL, &arena, &env, &err), e[1].wrong_tag);
    assert_int_equal(err.offset, 4);
    smc_arena_free(&arena);
    ts_buf_free(&b);
}

static void reader_and_tree_agree_on_every_vector(void **state)
{
    (void)state;
    for (size_t i = 0; i < ts_vector_count; i++) {
        const ts_vector_t *t = &ts_vectors[i];
        size_t items = 0;
        smc_error_t err;
        assert_int_equal(ts_reader_walk(t->bytes, t->len, 0, &items, &err), SMC_OK);
        smc_arena_t arena;
        smc_arena_init_allocator(&arena, NULL);
        smc_value_t *v = NULL;
        assert_int_equal(smc_decode(t->bytes, t->len, NULL, &arena, &v, NULL), SMC_OK);
        assert_int_equal(items, count_nodes(v));
        smc_arena_free(&arena);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(reader_yields_items_in_preorder_with_depth_and_offset),
        cmocka_unit_test(reader_reads_back_to_back_values_and_skips),
        cmocka_unit_test(reader_init_at_counts_alignment_from_the_buffer_start),
        cmocka_unit_test(reader_errors_are_sticky),
        cmocka_unit_test(reader_items_report_size_field_and_padding),
        cmocka_unit_test(reader_element_grammar_matches_the_decoders),
        cmocka_unit_test(reader_and_tree_agree_on_every_vector),
    };
    return cmocka_run_group_tests(tests, ts_golden_setup, ts_golden_teardown);
}
