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

/* ---- the streaming writer and the tree walk make the same checks in the same order ---- */

/* The tree written value by value through the streaming calls (recursion is fine: the trees
 * here are at most SMC_MAX_DEPTH_LIMIT + 1 deep). */
static void stream_value(smc_writer_t *w, const smc_value_t *v)
{
    switch (v->type) {
    case SMC_TYPE_NULL:
        smc_writer_put_null(w);
        return;
    case SMC_TYPE_BOOL:
        smc_writer_put_bool(w, v->boolean);
        return;
    case SMC_TYPE_I32:
        smc_writer_put_i32(w, v->i32);
        return;
    case SMC_TYPE_I64:
        smc_writer_put_i64(w, v->i64);
        return;
    case SMC_TYPE_F64:
        smc_writer_put_f64_bits(w, v->f64_bits);
        return;
    case SMC_TYPE_LARGEINT:
        smc_writer_put_largeint(w, v->bytes.ptr, v->bytes.len);
        return;
    case SMC_TYPE_STR:
        smc_writer_put_str(w, v->bytes.ptr, v->bytes.len);
        return;
    case SMC_TYPE_U8S:
        smc_writer_put_u8s(w, v->bytes.ptr, v->bytes.len);
        return;
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        smc_writer_put_array_le(w, v->type, v->array.data, v->array.count);
        return;
    case SMC_TYPE_LIST:
        smc_writer_begin_list(w, v->list.count);
        for (size_t i = 0; i < v->list.count; i++) {
            stream_value(w, &v->list.items[i]);
        }
        smc_writer_end_list(w);
        return;
    case SMC_TYPE_MAP:
        smc_writer_begin_map(w, v->map.count);
        for (size_t i = 0; i < 2 * v->map.count; i++) {
            stream_value(w, &v->map.entries[i]);
        }
        smc_writer_end_map(w);
        return;
    case SMC_TYPE_CUSTOM:
        smc_writer_begin_custom(w, v->custom_tag);
        stream_value(w, v->custom.payload);
        smc_writer_end_custom(w);
        return;
    }
    smc_writer_put_raw(w, "?", 1); /* not reached: the trees here have known types */
}

/* One value written by the tree walk into tbuf and by the streaming calls into sbuf, both
 * writers with capacity cap (the buffers may be NULL when cap is 0) and origin, at the top
 * level or inside an open list: the two finish with the same status, error offset and size,
 * which is returned in *size. The callers compare the bytes, each as its test needs. */
static smc_status_t write_both_ways(uint8_t *tbuf, uint8_t *sbuf, size_t cap, size_t origin,
                                    int nested, const smc_value_t *v, size_t *size)
{
    smc_writer_t tw, sw;
    smc_writer_init_at(&tw, tbuf, cap, origin);
    smc_writer_init_at(&sw, sbuf, cap, origin);
    if (nested) {
        smc_writer_begin_list(&tw, 1);
        smc_writer_begin_list(&sw, 1);
    }
    smc_writer_put_value(&tw, v);
    stream_value(&sw, v);
    if (nested) {
        smc_writer_end_list(&tw);
        smc_writer_end_list(&sw);
    }
    size_t tn = 7, sn = 9;
    smc_error_t te, se;
    smc_status_t tst = smc_writer_finish(&tw, &tn, &te);
    smc_status_t sst = smc_writer_finish(&sw, &sn, &se);
    assert_int_equal(tst, sst);
    assert_int_equal(te.status, se.status);
    assert_int_equal(te.offset, se.offset);
    assert_int_equal(tn, sn);
    *size = tn;
    return tst;
}

/* Both ways, at the top level and inside an open list (a writer at depth 1 and origin 3),
 * into no buffer, a buffer one byte short and a full one: same status, offset, size, bytes. */
static void assert_writers_agree(const smc_value_t *v)
{
    for (int nested = 0; nested < 2; nested++) {
        uint8_t tree_buf[4096], stream_buf[4096];
        size_t caps[3] = {0, 0, sizeof tree_buf};
        for (size_t c = 0; c < 3; c++) {
            size_t n;
            uint8_t *tbuf = caps[c] ? tree_buf : NULL, *sbuf = caps[c] ? stream_buf : NULL;
            smc_status_t st = write_both_ways(tbuf, sbuf, caps[c], nested ? 3 : 0, nested, v, &n);
            if (st == SMC_OK) {
                assert_memory_equal(tree_buf, stream_buf, n);
            }
            if (c == 0 && st == SMC_ERR_BUFFER_FULL && n > 1) {
                caps[1] = n - 1; /* next round: one byte short */
            }
        }
    }
}

static void s13_tree_and_streaming_writers_agree_on_every_vector(void **state)
{
    (void)state;
    for (size_t i = 0; i < ts_vector_count; i++) {
        smc_arena_t arena;
        smc_arena_init_allocator(&arena, NULL);
        assert_writers_agree(ts_notation(&arena, ts_vectors[i].notation));
        smc_arena_free(&arena);
    }
}

static void s13_tree_and_streaming_writers_agree_on_every_failure(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    /* One bad value after a float64 (padding before the failure) and a string, at every
     * position of a list, as a map key and value, and inside a custom value. */
    smc_value_t bad[6];
    memset(bad, 0, sizeof bad);
    bad[0] = *smc_value_make_largeint(&arena, "12", 2);
    bad[1] = *smc_value_make_str(&arena, "a\xff", 2); /* ill-formed UTF-8 (spec §5.3) */
    bad[2] = *smc_value_make_custom(&arena, 0x80, NULL);
    bad[2].custom_tag = 0x7f; /* not a custom tag (spec §8.1) */
    bad[3] = *smc_value_make_list(&arena, 1);
    {
        smc_value_t *deep = &bad[3]; /* SMC_MAX_DEPTH_LIMIT + 1 levels */
        for (unsigned i = 1; i <= SMC_MAX_DEPTH_LIMIT; i++) {
            deep->list.items[0] = *smc_value_make_list(&arena, 1);
            deep = &deep->list.items[0];
        }
    }
    bad[4] = *smc_value_make_str(&arena, "ok", 2);
    bad[4].type = SMC_TYPE_LARGEINT;
    bad[5] = *smc_value_make_u8s(&arena, "\xff", 1); /* fine: bytes are not text */
    for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        for (size_t at = 0; at < 4; at++) {
            smc_value_t *list = smc_value_make_list(&arena, 4);
            list->list.items[0] = *smc_value_make_f64(&arena, 1.5);
            list->list.items[1] = *smc_value_make_str(&arena, "xyz", 3);
            list->list.items[2] = *smc_value_make_i32(&arena, 7);
            list->list.items[3] = *smc_value_make_null(&arena);
            list->list.items[at] = bad[b];
            assert_writers_agree(list);
            smc_value_t *map = smc_value_make_map(&arena, 2);
            memcpy(map->map.entries, list->list.items, 4 * sizeof *list->list.items);
            assert_writers_agree(map);
            assert_writers_agree(smc_value_make_custom(&arena, 0x81, list));
        }
        assert_writers_agree(&bad[b]);
    }
    smc_arena_free(&arena);
}

/* Tree walk against the streaming writer at every output size from none to the whole message
 * (and one byte more), at origins 0..7 and inside an open list: same status, offset, size,
 * and the same bytes in the whole buffer and past it (a fast case of the walk writes a value
 * only when all of it fits, and nothing else). */
static void assert_writers_agree_at_every_cap(const smc_value_t *v)
{
    for (size_t origin = 0; origin < 8; origin++) {
        for (int nested = 0; nested < 2; nested++) {
            smc_writer_t qw;
            smc_writer_init_at(&qw, NULL, 0, origin);
            smc_writer_put_value(&qw, v);
            size_t size = smc_writer_size(&qw) + (nested ? 2 : 0);
            uint8_t *tbuf = malloc(size + 17);
            uint8_t *sbuf = malloc(size + 17);
            assert_non_null(tbuf);
            assert_non_null(sbuf);
            for (size_t cap = 0; cap <= size + 1; cap++) {
                memset(tbuf, 0xa5, size + 17);
                memset(sbuf, 0xa5, size + 17);
                size_t n;
                (void)write_both_ways(tbuf, sbuf, cap, origin, nested, v, &n);
                assert_memory_equal(tbuf, sbuf, size + 17);
            }
            free(tbuf);
            free(sbuf);
        }
    }
}

/* Each fast case of the tree walk (writer.c) and the edges where it hands the node to
 * emit_node: strings of 0..34 bytes, ASCII and with a non-ASCII byte (well-formed or not) at
 * each position; typed lists of 0..9 and 253/254 elements; lists and
 * maps at the 1-byte count's limit; float64s at every padding; custom values nested in custom
 * values, and the depth limit reached through custom values (which open no frame there). */
static void s13_tree_walk_fast_cases_agree_with_streaming(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    char text[40];
    for (size_t i = 0; i < sizeof text; i++) {
        text[i] = (char)('a' + i % 26);
    }
    for (size_t len = 0; len <= 34; len++) {
        /* strings after strings (a map's keys and values), before other values, and last */
        smc_value_t *list = smc_value_make_list(&arena, 4);
        list->list.items[0] = *smc_value_make_str(&arena, text, len);
        list->list.items[1] = *smc_value_make_str(&arena, text + 2, len);
        list->list.items[2] = *smc_value_make_f64(&arena, 2.5);
        list->list.items[3] = *smc_value_make_str(&arena, text + 1, len);
        assert_writers_agree_at_every_cap(list);
        /* a non-ASCII byte at every position (each word of the ASCII test alone sees some),
         * ill-formed and as the first byte of a well-formed U+00E9 */
        for (size_t pos = 0; pos < len; pos++) {
            for (int valid = 0; valid < 2; valid++) {
                char s[40];
                memcpy(s, text, sizeof s);
                s[pos] = '\xff';
                if (valid && pos + 1 < len) {
                    s[pos] = '\xc3';
                    s[pos + 1] = '\xa9';
                }
                smc_value_t *l = smc_value_make_list(&arena, 2);
                l->list.items[0] = *smc_value_make_str(&arena, s, len);
                l->list.items[1] = *smc_value_make_i32(&arena, 1);
                assert_writers_agree(l);
            }
        }
    }
    int64_t elems[254];
    for (size_t i = 0; i < 254; i++) {
        elems[i] = (int64_t)(i * 0x0101010101010101u);
    }
    const size_t counts[] = {0, 1, 2, 3, 7, 8, 9, 253, 254};
    const smc_type_t typed[] = {SMC_TYPE_I32S, SMC_TYPE_I64S, SMC_TYPE_F64S, SMC_TYPE_F32S};
    for (size_t t = 0; t < 4; t++) {
        for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
            smc_value_t *list = smc_value_make_list(&arena, 3);
            list->list.items[0] = *smc_value_make_bool(&arena, true);
            list->list.items[1] =
                *smc_value_make_array_le(&arena, typed[t], (const uint8_t *)elems, counts[c]);
            list->list.items[2] = *smc_value_make_i32(&arena, -3);
            assert_writers_agree_at_every_cap(list);
        }
    }
    const size_t sizes[] = {0, 1, 2, 126, 127, 253, 254};
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        smc_value_t *list = smc_value_make_list(&arena, sizes[c]);
        smc_value_t *map = smc_value_make_map(&arena, sizes[c]);
        for (size_t i = 0; i < sizes[c]; i++) {
            list->list.items[i] = *smc_value_make_i64(&arena, (int64_t)i);
            map->map.entries[2 * i] = *smc_value_make_null(&arena);
            map->map.entries[2 * i + 1] = *smc_value_make_bool(&arena, i % 2 == 0);
        }
        assert_writers_agree_at_every_cap(list);
        assert_writers_agree_at_every_cap(map);
    }
    /* LatLng-like records: custom values of a list of two float64s, in a list and nested */
    smc_value_t *recs = smc_value_make_list(&arena, 3);
    for (size_t i = 0; i < 3; i++) {
        smc_value_t *pair = smc_value_make_list(&arena, 2);
        pair->list.items[0] = *smc_value_make_f64(&arena, 1.0 + (double)i);
        pair->list.items[1] = *smc_value_make_f64(&arena, -2.0);
        smc_value_t *c = smc_value_make_custom(&arena, (uint8_t)(0x80 + i), pair);
        recs->list.items[i] = i == 1 ? *smc_value_make_custom(&arena, 0xff, c) : *c;
    }
    assert_writers_agree_at_every_cap(recs);
    /* the depth limit through custom values: chains of SMC_MAX_DEPTH_LIMIT - 1 and
     * SMC_MAX_DEPTH_LIMIT custom values around a list, alone and alternating with lists */
    for (unsigned extra = 0; extra < 3; extra++) {
        for (int mixed = 0; mixed < 2; mixed++) {
            smc_value_t *v = smc_value_make_list(&arena, 1);
            v->list.items[0] = *smc_value_make_str(&arena, "end", 3);
            for (unsigned i = 1; i < SMC_MAX_DEPTH_LIMIT - 1 + extra; i++) {
                if (mixed && i % 3 == 0) {
                    smc_value_t *l = smc_value_make_list(&arena, 2);
                    l->list.items[0] = *v;
                    l->list.items[1] = *smc_value_make_i32(&arena, (int32_t)i);
                    v = l;
                } else {
                    v = smc_value_make_custom(&arena, 0x90, v);
                }
            }
            assert_writers_agree(v);
            smc_writer_t w;
            smc_writer_init(&w, NULL, 0);
            smc_writer_put_value(&w, v);
            assert_int_equal(smc_writer_status(&w), extra < 2 ? SMC_OK : SMC_ERR_DEPTH);
        }
    }
    smc_arena_free(&arena);
}

/* The tree walk (smc_writer_put_value) on trees no decoder makes: a list or map that declares
 * children but has no array is a usage error, a custom value without a payload is not
 * encodable (§8.1), at the top and nested; an empty list without an array is fine. */
static void s13_tree_walk_rejects_inconsistent_trees(void **state)
{
    (void)state;
    uint8_t buf[32];
    size_t n = 0;
    smc_error_t err;
    smc_value_t list = {.type = SMC_TYPE_LIST};
    list.list.count = 2;
    assert_int_equal(smc_encode(&list, buf, sizeof buf, &n, &err), SMC_ERR_USAGE);
    smc_value_t map = {.type = SMC_TYPE_MAP};
    map.map.count = 1;
    assert_int_equal(smc_encode(&map, buf, sizeof buf, &n, &err), SMC_ERR_USAGE);
    smc_value_t custom = {.type = SMC_TYPE_CUSTOM, .custom_tag = 200};
    assert_int_equal(smc_encode(&custom, buf, sizeof buf, &n, &err), SMC_ERR_NOT_ENCODABLE);
    smc_value_t outer = {.type = SMC_TYPE_LIST};
    outer.list.items = &custom;
    outer.list.count = 1;
    assert_int_equal(smc_encode(&outer, buf, sizeof buf, &n, &err), SMC_ERR_NOT_ENCODABLE);
    outer.list.items = &map;
    assert_int_equal(smc_encode(&outer, buf, sizeof buf, &n, &err), SMC_ERR_USAGE);
    smc_value_t empty = {.type = SMC_TYPE_LIST};
    assert_int_equal(smc_encode(&empty, buf, sizeof buf, &n, &err), SMC_OK);
    assert_int_equal(n, 2);
    assert_int_equal(buf[0], 0x0c);
    assert_int_equal(buf[1], 0x00);
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
        cmocka_unit_test(s13_tree_and_streaming_writers_agree_on_every_vector),
        cmocka_unit_test(s13_tree_and_streaming_writers_agree_on_every_failure),
        cmocka_unit_test(s13_tree_walk_rejects_inconsistent_trees),
        cmocka_unit_test(s13_tree_walk_fast_cases_agree_with_streaming),
    };
    return cmocka_run_group_tests(tests, ts_golden_setup, ts_golden_teardown);
}
