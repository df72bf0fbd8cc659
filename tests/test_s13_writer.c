/* spec §13 canonical encoding through the writer API: size query, sticky errors, counts. */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

static void s13_writer_builds_a_message_with_declared_counts(void **state)
{
    (void)state;
    uint8_t buf[64];
    smc_writer_t w;
    smc_writer_init(&w, buf, sizeof buf);
    smc_writer_begin_map(&w, 2);
    smc_writer_put_str(&w, "a", 1);
    smc_writer_begin_list(&w, 2);
    smc_writer_put_i32(&w, 1);
    smc_writer_put_f64(&w, 1.0);
    smc_writer_end_list(&w);
    smc_writer_put_null(&w);
    smc_writer_begin_custom(&w, 130);
    smc_writer_put_bool(&w, false);
    smc_writer_end_custom(&w);
    smc_writer_end_map(&w);
    size_t n = 0;
    smc_error_t err;
    assert_int_equal(smc_writer_finish(&w, &n, &err), SMC_OK);
    /* 0d02 070161 0c02 0301000000 06 + pad to 16 (tag at 11, pad 12..15) + 8, 00, 82 02 */
    ts_buf_t want = ts_hex("0d02 070161 0c02 0301000000 06 000000 000000000000f03f 00 8202");
    assert_int_equal(n, want.len);
    assert_memory_equal(buf, want.data, n);
    ts_buf_free(&want);
}

static void s13_size_query_reports_exact_size_needed(void **state)
{
    (void)state;
    smc_writer_t w;
    uint8_t small[3];
    smc_writer_init(&w, small, sizeof small);
    smc_writer_put_str(&w, "hello", 5);
    size_t needed = 0;
    smc_error_t err;
    assert_int_equal(smc_writer_finish(&w, &needed, &err), SMC_ERR_BUFFER_FULL);
    assert_int_equal(needed, 7);
    assert_string_equal(smc_status_class(err.status), "buffer_full");
    /* A NULL buffer is a pure size query. */
    smc_writer_init(&w, NULL, 0);
    smc_writer_put_f64s_bits(&w, NULL, 0);
    assert_int_equal(smc_writer_finish(&w, &needed, NULL), SMC_ERR_BUFFER_FULL);
    assert_int_equal(needed, 8); /* 0b 00 + 6 bytes of padding, spec §6.6 */
}

static void s13_writer_origin_shifts_alignment_for_embedding(void **state)
{
    (void)state;
    uint8_t buf[16];
    smc_writer_t w;
    smc_writer_init_at(&w, buf, sizeof buf, 3); /* buf[0] is message offset 3 */
    smc_writer_put_i32s(&w, (const int32_t[]){7}, 1);
    size_t n;
    assert_int_equal(smc_writer_finish(&w, &n, NULL), SMC_OK);
    /* tag at 3, count at 4, padding 5..7, element at 8 */
    ts_buf_t want = ts_hex("0901 000000 07000000");
    assert_int_equal(n, want.len);
    assert_memory_equal(buf, want.data, n);
    ts_buf_free(&want);
}

static void s13_count_mismatches_are_usage_errors(void **state)
{
    (void)state;
    uint8_t buf[32];
    smc_writer_t w;
    size_t n = 99;
    smc_error_t err;

    smc_writer_init(&w, buf, sizeof buf); /* too few */
    smc_writer_begin_list(&w, 2);
    smc_writer_put_null(&w);
    smc_writer_end_list(&w);
    assert_int_equal(smc_writer_finish(&w, &n, &err), SMC_ERR_USAGE);
    assert_int_equal(n, 0);
    assert_string_equal(smc_status_class(err.status), "usage");

    smc_writer_init(&w, buf, sizeof buf); /* too many */
    smc_writer_begin_list(&w, 1);
    smc_writer_put_null(&w);
    smc_writer_put_null(&w);
    assert_int_equal(smc_writer_finish(&w, &n, NULL), SMC_ERR_USAGE);

    smc_writer_init(&w, buf, sizeof buf); /* map counts pairs: 1 pair = 2 values */
    smc_writer_begin_map(&w, 1);
    smc_writer_put_null(&w);
    smc_writer_end_map(&w);
    assert_int_equal(smc_writer_finish(&w, &n, NULL), SMC_ERR_USAGE);

    smc_writer_init(&w, buf, sizeof buf); /* wrong kind closed */
    smc_writer_begin_list(&w, 0);
    smc_writer_end_map(&w);
    assert_int_equal(smc_writer_finish(&w, &n, NULL), SMC_ERR_USAGE);

    smc_writer_init(&w, buf, sizeof buf); /* left open */
    smc_writer_begin_custom(&w, 200);
    smc_writer_put_null(&w);
    assert_int_equal(smc_writer_finish(&w, &n, NULL), SMC_ERR_USAGE);

    smc_writer_init(&w, buf, sizeof buf); /* end without begin */
    smc_writer_end_list(&w);
    assert_int_equal(smc_writer_finish(&w, &n, NULL), SMC_ERR_USAGE);

    smc_writer_init(&w, buf, sizeof buf); /* not a typed list */
    smc_writer_put_array_le(&w, SMC_TYPE_STR, buf, 0);
    assert_int_equal(smc_writer_finish(&w, &n, NULL), SMC_ERR_USAGE);
}

static void s13_first_error_is_sticky(void **state)
{
    (void)state;
    uint8_t buf[32];
    smc_writer_t w;
    smc_writer_init(&w, buf, sizeof buf);
    smc_writer_put_null(&w);
    smc_writer_put_largeint(&w, "1", 1);
    size_t at = smc_writer_size(&w);
    smc_writer_put_i32(&w, 5);
    smc_writer_begin_list(&w, 3);
    assert_int_equal(smc_writer_size(&w), at); /* nothing more written */
    smc_error_t err;
    size_t n = 99;
    assert_int_equal(smc_writer_finish(&w, &n, &err), SMC_ERR_NOT_ENCODABLE);
    assert_int_equal(err.offset, 1);
    assert_int_equal(n, 0);
}

static void s13_sizes_above_u32_are_not_encodable_without_reading_bytes(void **state)
{
    (void)state;
    const uint8_t one = 0x61; /* only one readable byte: the writer must not look further */
    size_t huge = (size_t)0xFFFFFFFFu + 1u;
    smc_writer_t w;
    size_t n;
    smc_writer_init(&w, NULL, 0);
    smc_writer_put_str(&w, &one, huge);
    assert_int_equal(smc_writer_finish(&w, &n, NULL), SMC_ERR_NOT_ENCODABLE);
    smc_writer_init(&w, NULL, 0);
    smc_writer_put_u8s(&w, &one, huge);
    assert_int_equal(smc_writer_finish(&w, &n, NULL), SMC_ERR_NOT_ENCODABLE);
    smc_writer_init(&w, NULL, 0);
    smc_writer_put_array_le(&w, SMC_TYPE_I32S, &one, huge);
    assert_int_equal(smc_writer_finish(&w, &n, NULL), SMC_ERR_NOT_ENCODABLE);
    smc_writer_init(&w, NULL, 0);
    smc_writer_begin_list(&w, huge);
    assert_int_equal(smc_writer_finish(&w, &n, NULL), SMC_ERR_NOT_ENCODABLE);
    smc_value_t v;
    memset(&v, 0, sizeof v);
    v.type = SMC_TYPE_MAP;
    v.map.count = huge;
    v.map.entries = &v;
    ts_assert_encode_error(&v, SMC_ERR_NOT_ENCODABLE);
}

static void s13_writer_depth_is_bounded(void **state)
{
    (void)state;
    smc_writer_t w;
    smc_writer_init(&w, NULL, 0);
    for (unsigned i = 0; i < SMC_MAX_DEPTH_LIMIT; i++) {
        smc_writer_begin_list(&w, 1);
    }
    assert_int_equal(smc_writer_status(&w), SMC_OK);
    smc_writer_begin_list(&w, 1);
    assert_int_equal(smc_writer_status(&w), SMC_ERR_DEPTH);
}

/* Every buffer too small by any amount up to this many bytes (then only 1 byte short): the
 * largest golden vectors (70 KB) would otherwise cost billions of encoded bytes. */
#define SHORT_BUFFERS_TRIED 512

static void s13_encode_and_encoded_size_agree_for_every_vector(void **state)
{
    (void)state;
    for (size_t i = 0; i < ts_vector_count; i++) {
        const ts_vector_t *t = &ts_vectors[i];
        if (t->direction != TS_BOTH) {
            continue;
        }
        smc_arena_t arena;
        smc_arena_init_allocator(&arena, NULL);
        smc_value_t *v = ts_notation(&arena, t->notation);
        size_t size = smc_encoded_size(v);
        assert_int_equal(size, t->len);
        uint8_t *buf = malloc(size + 1);
        assert_non_null(buf);
        for (size_t cap = 0; cap < size; cap++) {
            if (cap == SHORT_BUFFERS_TRIED && size > cap + 1) {
                cap = size - 1;
            }
            size_t needed = 0;
            assert_int_equal(smc_encode(v, buf, cap, &needed, NULL), SMC_ERR_BUFFER_FULL);
            assert_int_equal(needed, size);
        }
        free(buf);
        smc_arena_free(&arena);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s13_writer_builds_a_message_with_declared_counts),
        cmocka_unit_test(s13_size_query_reports_exact_size_needed),
        cmocka_unit_test(s13_writer_origin_shifts_alignment_for_embedding),
        cmocka_unit_test(s13_count_mismatches_are_usage_errors),
        cmocka_unit_test(s13_first_error_is_sticky),
        cmocka_unit_test(s13_sizes_above_u32_are_not_encodable_without_reading_bytes),
        cmocka_unit_test(s13_writer_depth_is_bounded),
        cmocka_unit_test(s13_encode_and_encoded_size_agree_for_every_vector),
    };
    return cmocka_run_group_tests(tests, ts_golden_setup, ts_golden_teardown);
}
