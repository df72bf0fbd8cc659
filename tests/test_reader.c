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
        cmocka_unit_test(reader_and_tree_agree_on_every_vector),
    };
    return cmocka_run_group_tests(tests, ts_golden_setup, ts_golden_teardown);
}
