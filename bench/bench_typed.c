/*
 * The typed records of bench_typed.h, decoded two ways (from the tree of smc_decode, and item
 * by item with the pull reader) and written with the writer's put calls. Either way every
 * string and array lives in the arena, so the records own their bytes.
 */
#include <string.h>

#include "bench_typed.h"

/* Field numbers of bench_anr_t.present, in wire order. */
enum {
    ANR_A_BOOL,
    ANR_ANOTHER_BOOL,
    ANR_AN_INT,
    ANR_AN_INT64,
    ANR_A_DOUBLE,
    ANR_A_STRING,
    ANR_A_BYTE_ARRAY,
    ANR_A_4BYTE_ARRAY,
    ANR_A_8BYTE_ARRAY,
    ANR_A_FLOAT_ARRAY,
    ANR_A_LIST,
    ANR_A_MAP,
    ANR_AN_ENUM,
    ANR_AN_OBJECT,
    ANR_A_NULLABLE_STRING,
    ANR_AN_EMPTY_STRING,
    ANR_ANOTHER_INT,
    ANR_ANOTHER_INT64,
    ANR_ANOTHER_DOUBLE,
    ANR_ANOTHER_STRING,
    ANR_A_NULLABLE_DOUBLE,
    ANR_THIRD_BOOL,
    ANR_AN_EMPTY_LIST,
    ANR_AN_EMPTY_MAP,
    ANR_ANOTHER_ENUM,
    ANR_ANOTHER_BYTE_ARRAY,
    ANR_ANOTHER_4BYTE_ARRAY,
    ANR_A_NULLABLE_INT,
    ANR_A_SMALL_DOUBLE,
    ANR_AN_EMOJI,
    ANR_NESTED_LISTS
};

bench_shape_t bench_typed_shape(const uint8_t *data, size_t len)
{
    if (len == 0) {
        return BENCH_SHAPE_NONE;
    }
    if (data[0] == BENCH_TAG_ANR) {
        return BENCH_SHAPE_ANR;
    }
    if (data[0] == BENCH_TAG_LATLNG) {
        return BENCH_SHAPE_LATLNG;
    }
    /* A List: tag 12, a size of 1, 3 or 5 bytes (spec §2.2), then the first element's tag. */
    if (data[0] != 0x0c || len < 3) {
        return BENCH_SHAPE_NONE;
    }
    size_t first = data[1] < 254 ? 2 : data[1] == 254 ? 4 : 6;
    if (first >= len) {
        return BENCH_SHAPE_NONE;
    }
    if (data[first] == BENCH_TAG_ANR) {
        return BENCH_SHAPE_ANR_LIST;
    }
    if (data[first] == BENCH_TAG_LATLNG) {
        return BENCH_SHAPE_LATLNG_LIST;
    }
    return BENCH_SHAPE_NONE;
}

/* ---- reading ---- */

typedef struct reader_ctx {
    smc_reader_t r;
    smc_arena_t *arena;
} reader_ctx_t;

static bool next_item(reader_ctx_t *c, smc_item_t *it)
{
    return smc_reader_next(&c->r, it) == SMC_OK;
}

/* `len` bytes of `src` copied into the arena (NULL only when out of memory). */
static void *arena_copy(smc_arena_t *arena, const void *src, size_t len)
{
    void *dst = smc_arena_alloc(arena, len);
    if (dst != NULL && len > 0) {
        memcpy(dst, src, len);
    }
    return dst;
}

static bool copy_bytes(reader_ctx_t *c, const smc_bytes_t *view, smc_bytes_t *out)
{
    out->len = view->len;
    out->ptr = (const uint8_t *)arena_copy(c->arena, view->ptr, view->len);
    return out->ptr != NULL;
}

/* A typed-list view's little-endian element bytes copied into the arena. */
static bool copy_array(reader_ctx_t *c, const smc_array_t *a, size_t width, smc_array_t *out)
{
    out->count = a->count;
    out->data = (const uint8_t *)arena_copy(c->arena, a->data, a->count * width);
    return out->data != NULL;
}

/* Each read_* takes the next item: null leaves the field null, the expected type sets it
 * (and its bit in *present), anything else fails (a wrong type for the schema). */

static bool read_bool(reader_ctx_t *c, uint32_t *present, unsigned field, bool *out)
{
    smc_item_t it;
    if (!next_item(c, &it) || (it.type != SMC_TYPE_NULL && it.type != SMC_TYPE_BOOL)) {
        return false;
    }
    if (it.type == SMC_TYPE_BOOL) {
        *out = it.boolean;
        *present |= 1u << field;
    }
    return true;
}

static bool read_i32(reader_ctx_t *c, uint32_t *present, unsigned field, int32_t *out)
{
    smc_item_t it;
    if (!next_item(c, &it) || (it.type != SMC_TYPE_NULL && it.type != SMC_TYPE_I32)) {
        return false;
    }
    if (it.type == SMC_TYPE_I32) {
        *out = it.i32;
        *present |= 1u << field;
    }
    return true;
}

/* int64, or an int32 widened (Pigeon's int fields accept either width, notes §4.2). */
static bool read_i64(reader_ctx_t *c, uint32_t *present, unsigned field, int64_t *out)
{
    smc_item_t it;
    if (!next_item(c, &it)) {
        return false;
    }
    if (it.type == SMC_TYPE_I64 || it.type == SMC_TYPE_I32) {
        *out = it.type == SMC_TYPE_I64 ? it.i64 : it.i32;
        *present |= 1u << field;
        return true;
    }
    return it.type == SMC_TYPE_NULL;
}

static bool read_f64(reader_ctx_t *c, uint32_t *present, unsigned field, double *out)
{
    smc_item_t it;
    if (!next_item(c, &it) || (it.type != SMC_TYPE_NULL && it.type != SMC_TYPE_F64)) {
        return false;
    }
    if (it.type == SMC_TYPE_F64) {
        *out = smc_f64_from_bits(it.f64_bits);
        *present |= 1u << field;
    }
    return true;
}

/* A string (SMC_TYPE_STR) or a Uint8List (SMC_TYPE_U8S), per `type`. */
static bool read_bytes(reader_ctx_t *c, smc_type_t type, uint32_t *present, unsigned field,
                       smc_bytes_t *out)
{
    smc_item_t it;
    if (!next_item(c, &it) || (it.type != SMC_TYPE_NULL && it.type != type)) {
        return false;
    }
    if (it.type == SMC_TYPE_NULL) {
        return true;
    }
    *present |= 1u << field;
    return copy_bytes(c, &it.bytes, out);
}

/* A typed list of `type` (I32S, I64S, F64S) with elements of `width` bytes. */
static bool read_array(reader_ctx_t *c, smc_type_t type, size_t width, uint32_t *present,
                       unsigned field, smc_array_t *out)
{
    smc_item_t it;
    if (!next_item(c, &it) || (it.type != SMC_TYPE_NULL && it.type != type)) {
        return false;
    }
    if (it.type == SMC_TYPE_NULL) {
        return true;
    }
    *present |= 1u << field;
    return copy_array(c, &it.array, width, out);
}

static bool read_enum(reader_ctx_t *c, uint32_t *present, unsigned field, int32_t *out)
{
    smc_item_t it;
    if (!next_item(c, &it)) {
        return false;
    }
    if (it.type == SMC_TYPE_NULL) {
        return true;
    }
    if (it.type != SMC_TYPE_CUSTOM || it.custom_tag != BENCH_TAG_ANR_ENUM) {
        return false;
    }
    uint32_t unused = 0;
    *present |= 1u << field;
    return read_i32(c, &unused, 0, out) && unused != 0;
}

/* One complete value, from its first item `it` already read, into `dst` (a generic field:
 * the same tree smc_decode builds, bytes copied into the arena). */
static bool read_tree(reader_ctx_t *c, const smc_item_t *it, smc_value_t *dst)
{
    memset(dst, 0, sizeof *dst);
    dst->type = it->type;
    switch (it->type) {
    case SMC_TYPE_NULL:
        return true;
    case SMC_TYPE_BOOL:
        dst->boolean = it->boolean;
        return true;
    case SMC_TYPE_I32:
        dst->i32 = it->i32;
        return true;
    case SMC_TYPE_I64:
        dst->i64 = it->i64;
        return true;
    case SMC_TYPE_F64:
        dst->f64_bits = it->f64_bits;
        return true;
    case SMC_TYPE_STR:
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_U8S:
        return copy_bytes(c, &it->bytes, &dst->bytes);
    case SMC_TYPE_I32S:
    case SMC_TYPE_F32S:
        return copy_array(c, &it->array, 4, &dst->array);
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
        return copy_array(c, &it->array, 8, &dst->array);
    case SMC_TYPE_LIST:
    case SMC_TYPE_MAP: {
        size_t values = it->type == SMC_TYPE_LIST ? it->count : 2 * it->count;
        smc_value_t *items = (smc_value_t *)smc_arena_alloc(c->arena, values * sizeof *items);
        if (items == NULL) {
            return false;
        }
        for (size_t i = 0; i < values; i++) {
            smc_item_t child;
            if (!next_item(c, &child) || !read_tree(c, &child, &items[i])) {
                return false;
            }
        }
        if (it->type == SMC_TYPE_LIST) {
            dst->list.items = items;
            dst->list.count = it->count;
        } else {
            dst->map.entries = items;
            dst->map.count = it->count;
        }
        return true;
    }
    case SMC_TYPE_CUSTOM: {
        smc_item_t child;
        dst->custom_tag = it->custom_tag;
        dst->custom.payload = (smc_value_t *)smc_arena_alloc(c->arena, sizeof(smc_value_t));
        return dst->custom.payload != NULL && next_item(c, &child) &&
               read_tree(c, &child, dst->custom.payload);
    }
    }
    return false;
}

/* A generic field: NULL for a null value (the field stays null), else a tree. */
static bool read_generic(reader_ctx_t *c, smc_type_t type, uint32_t *present, unsigned field,
                         const smc_value_t **out)
{
    smc_item_t it;
    if (!next_item(c, &it)) {
        return false;
    }
    if (it.type == SMC_TYPE_NULL) {
        return true;
    }
    if (type != SMC_TYPE_NULL && it.type != type) {
        return false;
    }
    *present |= 1u << field;
    smc_value_t *tree = (smc_value_t *)smc_arena_alloc(c->arena, sizeof *tree);
    *out = tree;
    return tree != NULL && read_tree(c, &it, tree);
}

static bool read_opt_str(reader_ctx_t *c, bench_opt_str_t *out)
{
    uint32_t present = 0;
    if (!read_bytes(c, SMC_TYPE_STR, &present, 0, &out->s)) {
        return false;
    }
    out->present = present != 0;
    return true;
}

static bool read_str_map(reader_ctx_t *c, uint32_t *present, unsigned field, bench_str_map_t *out)
{
    smc_item_t it;
    if (!next_item(c, &it) || (it.type != SMC_TYPE_NULL && it.type != SMC_TYPE_MAP)) {
        return false;
    }
    if (it.type == SMC_TYPE_NULL) {
        return true;
    }
    *present |= 1u << field;
    out->count = it.count;
    out->keys = (bench_opt_str_t *)smc_arena_alloc(c->arena, it.count * sizeof *out->keys);
    out->values = (bench_opt_str_t *)smc_arena_alloc(c->arena, it.count * sizeof *out->values);
    if (out->keys == NULL || out->values == NULL) {
        return false;
    }
    for (size_t i = 0; i < it.count; i++) {
        if (!read_opt_str(c, &out->keys[i]) || !read_opt_str(c, &out->values[i])) {
            return false;
        }
    }
    return true;
}

static bool read_nested_lists(reader_ctx_t *c, uint32_t *present, unsigned field,
                              bench_i32_lists_t *out)
{
    smc_item_t it;
    if (!next_item(c, &it) || (it.type != SMC_TYPE_NULL && it.type != SMC_TYPE_LIST)) {
        return false;
    }
    if (it.type == SMC_TYPE_NULL) {
        return true;
    }
    *present |= 1u << field;
    out->n = it.count;
    out->v = (bench_i32_array_t *)smc_arena_alloc(c->arena, it.count * sizeof *out->v);
    if (out->v == NULL) {
        return false;
    }
    for (size_t i = 0; i < it.count; i++) {
        smc_item_t inner;
        if (!next_item(c, &inner) || inner.type != SMC_TYPE_LIST) {
            return false;
        }
        bench_i32_array_t *ints = &out->v[i];
        ints->n = inner.count;
        ints->v = (int32_t *)smc_arena_alloc(c->arena, inner.count * sizeof *ints->v);
        if (ints->v == NULL) {
            return false;
        }
        for (size_t k = 0; k < inner.count; k++) {
            uint32_t set = 0;
            if (!read_i32(c, &set, 0, &ints->v[k]) || set == 0) {
                return false;
            }
        }
    }
    return true;
}

/* The record's payload, after its custom tag: the field list. Fields the list lacks stay
 * null; fields beyond the 31 known here are skipped (a newer peer's schema). */
static bool read_anr_fields(reader_ctx_t *c, bench_anr_t *f)
{
    smc_item_t it;
    if (!next_item(c, &it) || it.type != SMC_TYPE_LIST) {
        return false;
    }
    memset(f, 0, sizeof *f);
    size_t n = it.count < BENCH_ANR_FIELDS ? it.count : BENCH_ANR_FIELDS;
    uint32_t *p = &f->present;
    bool ok = true;
    for (unsigned i = 0; ok && i < n; i++) {
        switch (i) {
        case ANR_A_BOOL:
            ok = read_bool(c, p, i, &f->a_bool);
            break;
        case ANR_ANOTHER_BOOL:
            ok = read_bool(c, p, i, &f->another_bool);
            break;
        case ANR_AN_INT:
            ok = read_i32(c, p, i, &f->an_int);
            break;
        case ANR_AN_INT64:
            ok = read_i64(c, p, i, &f->an_int64);
            break;
        case ANR_A_DOUBLE:
            ok = read_f64(c, p, i, &f->a_double);
            break;
        case ANR_A_STRING:
            ok = read_bytes(c, SMC_TYPE_STR, p, i, &f->a_string);
            break;
        case ANR_A_BYTE_ARRAY:
            ok = read_bytes(c, SMC_TYPE_U8S, p, i, &f->a_byte_array);
            break;
        case ANR_A_4BYTE_ARRAY:
            ok = read_array(c, SMC_TYPE_I32S, 4, p, i, &f->a_4byte_array);
            break;
        case ANR_A_8BYTE_ARRAY:
            ok = read_array(c, SMC_TYPE_I64S, 8, p, i, &f->a_8byte_array);
            break;
        case ANR_A_FLOAT_ARRAY:
            ok = read_array(c, SMC_TYPE_F64S, 8, p, i, &f->a_float_array);
            break;
        case ANR_A_LIST:
            ok = read_generic(c, SMC_TYPE_LIST, p, i, &f->a_list);
            break;
        case ANR_A_MAP:
            ok = read_str_map(c, p, i, &f->a_map);
            break;
        case ANR_AN_ENUM:
            ok = read_enum(c, p, i, &f->an_enum);
            break;
        case ANR_AN_OBJECT:
            ok = read_generic(c, SMC_TYPE_NULL, p, i, &f->an_object);
            break;
        case ANR_A_NULLABLE_STRING:
            ok = read_bytes(c, SMC_TYPE_STR, p, i, &f->a_nullable_string);
            break;
        case ANR_AN_EMPTY_STRING:
            ok = read_bytes(c, SMC_TYPE_STR, p, i, &f->an_empty_string);
            break;
        case ANR_ANOTHER_INT:
            ok = read_i32(c, p, i, &f->another_int);
            break;
        case ANR_ANOTHER_INT64:
            ok = read_i64(c, p, i, &f->another_int64);
            break;
        case ANR_ANOTHER_DOUBLE:
            ok = read_f64(c, p, i, &f->another_double);
            break;
        case ANR_ANOTHER_STRING:
            ok = read_bytes(c, SMC_TYPE_STR, p, i, &f->another_string);
            break;
        case ANR_A_NULLABLE_DOUBLE:
            ok = read_f64(c, p, i, &f->a_nullable_double);
            break;
        case ANR_THIRD_BOOL:
            ok = read_bool(c, p, i, &f->third_bool);
            break;
        case ANR_AN_EMPTY_LIST:
            ok = read_generic(c, SMC_TYPE_LIST, p, i, &f->an_empty_list);
            break;
        case ANR_AN_EMPTY_MAP:
            ok = read_str_map(c, p, i, &f->an_empty_map);
            break;
        case ANR_ANOTHER_ENUM:
            ok = read_enum(c, p, i, &f->another_enum);
            break;
        case ANR_ANOTHER_BYTE_ARRAY:
            ok = read_bytes(c, SMC_TYPE_U8S, p, i, &f->another_byte_array);
            break;
        case ANR_ANOTHER_4BYTE_ARRAY:
            ok = read_array(c, SMC_TYPE_I32S, 4, p, i, &f->another_4byte_array);
            break;
        case ANR_A_NULLABLE_INT:
            ok = read_i64(c, p, i, &f->a_nullable_int);
            break;
        case ANR_A_SMALL_DOUBLE:
            ok = read_f64(c, p, i, &f->a_small_double);
            break;
        case ANR_AN_EMOJI:
            ok = read_bytes(c, SMC_TYPE_STR, p, i, &f->an_emoji);
            break;
        case ANR_NESTED_LISTS:
            ok = read_nested_lists(c, p, i, &f->nested_lists);
            break;
        default:
            ok = false;
            break;
        }
    }
    for (size_t i = n; ok && i < it.count; i++) {
        ok = smc_reader_skip_value(&c->r) == SMC_OK;
    }
    return ok;
}

static bool read_latlng_fields(reader_ctx_t *c, bench_latlng_t *out)
{
    smc_item_t it;
    if (!next_item(c, &it) || it.type != SMC_TYPE_LIST || it.count < 2) {
        return false;
    }
    uint32_t set = 0;
    if (!read_f64(c, &set, 0, &out->latitude) || !read_f64(c, &set, 1, &out->longitude) ||
        set != 3u) {
        return false;
    }
    for (size_t i = 2; i < it.count; i++) {
        if (smc_reader_skip_value(&c->r) != SMC_OK) {
            return false;
        }
    }
    return true;
}

/* One record of `tag`: its custom item, then its fields. */
static bool read_record(reader_ctx_t *c, unsigned tag, bench_records_t *out, size_t i)
{
    smc_item_t it;
    if (!next_item(c, &it) || it.type != SMC_TYPE_CUSTOM || it.custom_tag != tag) {
        return false;
    }
    return tag == BENCH_TAG_ANR ? read_anr_fields(c, &out->anr[i])
                                : read_latlng_fields(c, &out->latlng[i]);
}

bool bench_typed_decode_reader(const uint8_t *data, size_t len, bench_shape_t shape,
                               smc_arena_t *arena, bench_records_t *out)
{
    reader_ctx_t c;
    c.arena = arena;
    smc_reader_init(&c.r, data, len, NULL);
    memset(out, 0, sizeof *out);
    out->shape = shape;
    bool list = shape == BENCH_SHAPE_ANR_LIST || shape == BENCH_SHAPE_LATLNG_LIST;
    bool anr = shape == BENCH_SHAPE_ANR || shape == BENCH_SHAPE_ANR_LIST;
    if (shape == BENCH_SHAPE_NONE) {
        return false;
    }
    out->count = 1;
    if (list) {
        smc_item_t it;
        if (!next_item(&c, &it) || it.type != SMC_TYPE_LIST) {
            return false;
        }
        out->count = it.count;
    }
    if (anr) {
        out->anr = (bench_anr_t *)smc_arena_alloc(arena, out->count * sizeof *out->anr);
    } else {
        out->latlng = (bench_latlng_t *)smc_arena_alloc(arena, out->count * sizeof *out->latlng);
    }
    if (out->anr == NULL && out->latlng == NULL) {
        return false;
    }
    for (size_t i = 0; i < out->count; i++) {
        if (!read_record(&c, anr ? BENCH_TAG_ANR : BENCH_TAG_LATLNG, out, i)) {
            return false;
        }
    }
    return smc_reader_finish(&c.r, NULL) == SMC_OK;
}

/* ---- from the tree of smc_decode ---- */

/* Whether field node `v` holds a `want` (and sets its bit); null gives false; another type
 * gives false and clears *ok (a wrong type for the schema). */
static bool tree_has(const smc_value_t *v, smc_type_t want, uint32_t *present, unsigned field,
                     bool *ok)
{
    if (v->type == want) {
        *present |= 1u << field;
        return true;
    }
    if (v->type != SMC_TYPE_NULL) {
        *ok = false;
    }
    return false;
}

static void tree_i64(const smc_value_t *v, uint32_t *present, unsigned field, int64_t *out,
                     bool *ok)
{
    if (v->type == SMC_TYPE_I32) {
        *out = v->i32; /* widened: Pigeon's int fields accept either width (notes §4.2) */
        *present |= 1u << field;
    } else if (tree_has(v, SMC_TYPE_I64, present, field, ok)) {
        *out = v->i64;
    }
}

static void tree_opt_str(const smc_value_t *v, bench_opt_str_t *out, bool *ok)
{
    uint32_t present = 0;
    out->present = tree_has(v, SMC_TYPE_STR, &present, 0, ok);
    if (out->present) {
        out->s = v->bytes;
    }
}

static void tree_str_map(const smc_value_t *v, smc_arena_t *arena, uint32_t *present,
                         unsigned field, bench_str_map_t *out, bool *ok)
{
    if (!tree_has(v, SMC_TYPE_MAP, present, field, ok)) {
        return;
    }
    out->count = v->map.count;
    out->keys = (bench_opt_str_t *)smc_arena_alloc(arena, v->map.count * sizeof *out->keys);
    out->values = (bench_opt_str_t *)smc_arena_alloc(arena, v->map.count * sizeof *out->values);
    if (out->keys == NULL || out->values == NULL) {
        *ok = false;
        return;
    }
    for (size_t i = 0; *ok && i < v->map.count; i++) {
        tree_opt_str(&v->map.entries[2 * i], &out->keys[i], ok);
        tree_opt_str(&v->map.entries[2 * i + 1], &out->values[i], ok);
    }
}

static void tree_enum(const smc_value_t *v, uint32_t *present, unsigned field, int32_t *out,
                      bool *ok)
{
    if (!tree_has(v, SMC_TYPE_CUSTOM, present, field, ok)) {
        return;
    }
    if (v->custom_tag != BENCH_TAG_ANR_ENUM || v->custom.payload->type != SMC_TYPE_I32) {
        *ok = false;
        return;
    }
    *out = v->custom.payload->i32;
}

static void tree_nested_lists(const smc_value_t *v, smc_arena_t *arena, uint32_t *present,
                              unsigned field, bench_i32_lists_t *out, bool *ok)
{
    if (!tree_has(v, SMC_TYPE_LIST, present, field, ok)) {
        return;
    }
    out->n = v->list.count;
    out->v = (bench_i32_array_t *)smc_arena_alloc(arena, v->list.count * sizeof *out->v);
    if (out->v == NULL) {
        *ok = false;
        return;
    }
    for (size_t i = 0; *ok && i < v->list.count; i++) {
        const smc_value_t *inner = &v->list.items[i];
        bench_i32_array_t *ints = &out->v[i];
        if (inner->type != SMC_TYPE_LIST) {
            *ok = false;
            return;
        }
        ints->n = inner->list.count;
        ints->v = (int32_t *)smc_arena_alloc(arena, inner->list.count * sizeof *ints->v);
        if (ints->v == NULL) {
            *ok = false;
            return;
        }
        for (size_t k = 0; k < inner->list.count; k++) {
            if (inner->list.items[k].type != SMC_TYPE_I32) {
                *ok = false;
                return;
            }
            ints->v[k] = inner->list.items[k].i32;
        }
    }
}

/* A record node (custom 129 wrapping its field list) into the struct, field by field by
 * index, as generated code takes fields from a decoded list. */
static bool anr_from_tree(const smc_value_t *node, smc_arena_t *arena, bench_anr_t *f)
{
    if (node->type != SMC_TYPE_CUSTOM || node->custom_tag != BENCH_TAG_ANR ||
        node->custom.payload->type != SMC_TYPE_LIST) {
        return false;
    }
    const smc_list_t *fields = &node->custom.payload->list;
    size_t n = fields->count < BENCH_ANR_FIELDS ? fields->count : BENCH_ANR_FIELDS;
    memset(f, 0, sizeof *f);
    uint32_t *p = &f->present;
    bool ok = true;
    for (unsigned i = 0; ok && i < n; i++) {
        const smc_value_t *v = &fields->items[i];
        switch (i) {
        case ANR_A_BOOL:
        case ANR_ANOTHER_BOOL:
        case ANR_THIRD_BOOL:
            if (tree_has(v, SMC_TYPE_BOOL, p, i, &ok)) {
                *(i == ANR_A_BOOL         ? &f->a_bool
                  : i == ANR_ANOTHER_BOOL ? &f->another_bool
                                          : &f->third_bool) = v->boolean;
            }
            break;
        case ANR_AN_INT:
        case ANR_ANOTHER_INT:
            if (tree_has(v, SMC_TYPE_I32, p, i, &ok)) {
                *(i == ANR_AN_INT ? &f->an_int : &f->another_int) = v->i32;
            }
            break;
        case ANR_AN_INT64:
            tree_i64(v, p, i, &f->an_int64, &ok);
            break;
        case ANR_ANOTHER_INT64:
            tree_i64(v, p, i, &f->another_int64, &ok);
            break;
        case ANR_A_NULLABLE_INT:
            tree_i64(v, p, i, &f->a_nullable_int, &ok);
            break;
        case ANR_A_DOUBLE:
        case ANR_ANOTHER_DOUBLE:
        case ANR_A_NULLABLE_DOUBLE:
        case ANR_A_SMALL_DOUBLE:
            if (tree_has(v, SMC_TYPE_F64, p, i, &ok)) {
                double d = smc_f64_from_bits(v->f64_bits);
                if (i == ANR_A_DOUBLE) {
                    f->a_double = d;
                } else if (i == ANR_ANOTHER_DOUBLE) {
                    f->another_double = d;
                } else if (i == ANR_A_NULLABLE_DOUBLE) {
                    f->a_nullable_double = d;
                } else {
                    f->a_small_double = d;
                }
            }
            break;
        case ANR_A_STRING:
            if (tree_has(v, SMC_TYPE_STR, p, i, &ok)) {
                f->a_string = v->bytes;
            }
            break;
        case ANR_A_NULLABLE_STRING:
            if (tree_has(v, SMC_TYPE_STR, p, i, &ok)) {
                f->a_nullable_string = v->bytes;
            }
            break;
        case ANR_AN_EMPTY_STRING:
            if (tree_has(v, SMC_TYPE_STR, p, i, &ok)) {
                f->an_empty_string = v->bytes;
            }
            break;
        case ANR_ANOTHER_STRING:
            if (tree_has(v, SMC_TYPE_STR, p, i, &ok)) {
                f->another_string = v->bytes;
            }
            break;
        case ANR_AN_EMOJI:
            if (tree_has(v, SMC_TYPE_STR, p, i, &ok)) {
                f->an_emoji = v->bytes;
            }
            break;
        case ANR_A_BYTE_ARRAY:
            if (tree_has(v, SMC_TYPE_U8S, p, i, &ok)) {
                f->a_byte_array = v->bytes;
            }
            break;
        case ANR_ANOTHER_BYTE_ARRAY:
            if (tree_has(v, SMC_TYPE_U8S, p, i, &ok)) {
                f->another_byte_array = v->bytes;
            }
            break;
        case ANR_A_4BYTE_ARRAY:
            if (tree_has(v, SMC_TYPE_I32S, p, i, &ok)) {
                f->a_4byte_array = v->array;
            }
            break;
        case ANR_ANOTHER_4BYTE_ARRAY:
            if (tree_has(v, SMC_TYPE_I32S, p, i, &ok)) {
                f->another_4byte_array = v->array;
            }
            break;
        case ANR_A_8BYTE_ARRAY:
            if (tree_has(v, SMC_TYPE_I64S, p, i, &ok)) {
                f->a_8byte_array = v->array;
            }
            break;
        case ANR_A_FLOAT_ARRAY:
            if (tree_has(v, SMC_TYPE_F64S, p, i, &ok)) {
                f->a_float_array = v->array;
            }
            break;
        case ANR_A_LIST:
            if (tree_has(v, SMC_TYPE_LIST, p, i, &ok)) {
                f->a_list = v;
            }
            break;
        case ANR_AN_EMPTY_LIST:
            if (tree_has(v, SMC_TYPE_LIST, p, i, &ok)) {
                f->an_empty_list = v;
            }
            break;
        case ANR_AN_OBJECT:
            if (v->type != SMC_TYPE_NULL) {
                f->an_object = v;
                *p |= 1u << i;
            }
            break;
        case ANR_A_MAP:
            tree_str_map(v, arena, p, i, &f->a_map, &ok);
            break;
        case ANR_AN_EMPTY_MAP:
            tree_str_map(v, arena, p, i, &f->an_empty_map, &ok);
            break;
        case ANR_AN_ENUM:
            tree_enum(v, p, i, &f->an_enum, &ok);
            break;
        case ANR_ANOTHER_ENUM:
            tree_enum(v, p, i, &f->another_enum, &ok);
            break;
        case ANR_NESTED_LISTS:
            tree_nested_lists(v, arena, p, i, &f->nested_lists, &ok);
            break;
        default:
            ok = false;
            break;
        }
    }
    return ok;
}

static bool latlng_from_tree(const smc_value_t *node, bench_latlng_t *out)
{
    if (node->type != SMC_TYPE_CUSTOM || node->custom_tag != BENCH_TAG_LATLNG) {
        return false;
    }
    const smc_value_t *fields = node->custom.payload;
    if (fields->type != SMC_TYPE_LIST || fields->list.count < 2 ||
        fields->list.items[0].type != SMC_TYPE_F64 || fields->list.items[1].type != SMC_TYPE_F64) {
        return false;
    }
    out->latitude = smc_f64_from_bits(fields->list.items[0].f64_bits);
    out->longitude = smc_f64_from_bits(fields->list.items[1].f64_bits);
    return true;
}

bool bench_typed_decode(const uint8_t *data, size_t len, bench_shape_t shape, smc_arena_t *arena,
                        bench_records_t *out)
{
    memset(out, 0, sizeof *out);
    out->shape = shape;
    smc_value_t *root = NULL;
    if (shape == BENCH_SHAPE_NONE || smc_decode(data, len, NULL, arena, &root, NULL) != SMC_OK) {
        return false;
    }
    bool list = shape == BENCH_SHAPE_ANR_LIST || shape == BENCH_SHAPE_LATLNG_LIST;
    bool anr = shape == BENCH_SHAPE_ANR || shape == BENCH_SHAPE_ANR_LIST;
    if (list && root->type != SMC_TYPE_LIST) {
        return false;
    }
    const smc_value_t *records = list ? root->list.items : root;
    out->count = list ? root->list.count : 1;
    if (anr) {
        out->anr = (bench_anr_t *)smc_arena_alloc(arena, out->count * sizeof *out->anr);
    } else {
        out->latlng = (bench_latlng_t *)smc_arena_alloc(arena, out->count * sizeof *out->latlng);
    }
    if (out->anr == NULL && out->latlng == NULL) {
        return false;
    }
    for (size_t i = 0; i < out->count; i++) {
        bool ok = anr ? anr_from_tree(&records[i], arena, &out->anr[i])
                      : latlng_from_tree(&records[i], &out->latlng[i]);
        if (!ok) {
            return false;
        }
    }
    return true;
}

/* ---- writing ---- */

/* Field `field` of `present` set? */
static bool has(const bench_anr_t *f, unsigned field)
{
    return (f->present >> field & 1u) != 0;
}

static void put_opt_str(smc_writer_t *w, bool present, const smc_bytes_t *s)
{
    if (present) {
        smc_writer_put_str(w, s->ptr, s->len);
    } else {
        smc_writer_put_null(w);
    }
}

static void put_opt_u8s(smc_writer_t *w, bool present, const smc_bytes_t *s)
{
    if (present) {
        smc_writer_put_u8s(w, s->ptr, s->len);
    } else {
        smc_writer_put_null(w);
    }
}

static void put_opt_array(smc_writer_t *w, bool present, smc_type_t type, const smc_array_t *a)
{
    if (present) {
        smc_writer_put_array_le(w, type, a->data, a->count);
    } else {
        smc_writer_put_null(w);
    }
}

static void put_str_map(smc_writer_t *w, bool present, const bench_str_map_t *m)
{
    if (!present) {
        smc_writer_put_null(w);
        return;
    }
    smc_writer_begin_map(w, m->count);
    for (size_t i = 0; i < m->count; i++) {
        put_opt_str(w, m->keys[i].present, &m->keys[i].s);
        put_opt_str(w, m->values[i].present, &m->values[i].s);
    }
    smc_writer_end_map(w);
}

static void put_enum(smc_writer_t *w, bool present, int32_t index)
{
    if (!present) {
        smc_writer_put_null(w);
        return;
    }
    smc_writer_begin_custom(w, BENCH_TAG_ANR_ENUM);
    smc_writer_put_i32(w, index);
    smc_writer_end_custom(w);
}

static void put_generic(smc_writer_t *w, bool present, const smc_value_t *v)
{
    if (present) {
        smc_writer_put_value(w, v);
    } else {
        smc_writer_put_null(w);
    }
}

static void put_anr(smc_writer_t *w, const bench_anr_t *f)
{
    smc_writer_begin_custom(w, BENCH_TAG_ANR);
    smc_writer_begin_list(w, BENCH_ANR_FIELDS);
#define OPT(field, put) (has(f, field) ? (void)(put) : smc_writer_put_null(w))
    OPT(ANR_A_BOOL, smc_writer_put_bool(w, f->a_bool));
    OPT(ANR_ANOTHER_BOOL, smc_writer_put_bool(w, f->another_bool));
    OPT(ANR_AN_INT, smc_writer_put_i32(w, f->an_int));
    OPT(ANR_AN_INT64, smc_writer_put_i64(w, f->an_int64));
    OPT(ANR_A_DOUBLE, smc_writer_put_f64(w, f->a_double));
    put_opt_str(w, has(f, ANR_A_STRING), &f->a_string);
    put_opt_u8s(w, has(f, ANR_A_BYTE_ARRAY), &f->a_byte_array);
    put_opt_array(w, has(f, ANR_A_4BYTE_ARRAY), SMC_TYPE_I32S, &f->a_4byte_array);
    put_opt_array(w, has(f, ANR_A_8BYTE_ARRAY), SMC_TYPE_I64S, &f->a_8byte_array);
    put_opt_array(w, has(f, ANR_A_FLOAT_ARRAY), SMC_TYPE_F64S, &f->a_float_array);
    put_generic(w, has(f, ANR_A_LIST), f->a_list);
    put_str_map(w, has(f, ANR_A_MAP), &f->a_map);
    put_enum(w, has(f, ANR_AN_ENUM), f->an_enum);
    put_generic(w, has(f, ANR_AN_OBJECT), f->an_object);
    put_opt_str(w, has(f, ANR_A_NULLABLE_STRING), &f->a_nullable_string);
    put_opt_str(w, has(f, ANR_AN_EMPTY_STRING), &f->an_empty_string);
    OPT(ANR_ANOTHER_INT, smc_writer_put_i32(w, f->another_int));
    OPT(ANR_ANOTHER_INT64, smc_writer_put_i64(w, f->another_int64));
    OPT(ANR_ANOTHER_DOUBLE, smc_writer_put_f64(w, f->another_double));
    put_opt_str(w, has(f, ANR_ANOTHER_STRING), &f->another_string);
    OPT(ANR_A_NULLABLE_DOUBLE, smc_writer_put_f64(w, f->a_nullable_double));
    OPT(ANR_THIRD_BOOL, smc_writer_put_bool(w, f->third_bool));
    put_generic(w, has(f, ANR_AN_EMPTY_LIST), f->an_empty_list);
    put_str_map(w, has(f, ANR_AN_EMPTY_MAP), &f->an_empty_map);
    put_enum(w, has(f, ANR_ANOTHER_ENUM), f->another_enum);
    put_opt_u8s(w, has(f, ANR_ANOTHER_BYTE_ARRAY), &f->another_byte_array);
    put_opt_array(w, has(f, ANR_ANOTHER_4BYTE_ARRAY), SMC_TYPE_I32S, &f->another_4byte_array);
    OPT(ANR_A_NULLABLE_INT, smc_writer_put_i64(w, f->a_nullable_int));
    OPT(ANR_A_SMALL_DOUBLE, smc_writer_put_f64(w, f->a_small_double));
    put_opt_str(w, has(f, ANR_AN_EMOJI), &f->an_emoji);
#undef OPT
    if (has(f, ANR_NESTED_LISTS)) {
        smc_writer_begin_list(w, f->nested_lists.n);
        for (size_t i = 0; i < f->nested_lists.n; i++) {
            const bench_i32_array_t *ints = &f->nested_lists.v[i];
            smc_writer_begin_list(w, ints->n);
            for (size_t k = 0; k < ints->n; k++) {
                smc_writer_put_i32(w, ints->v[k]);
            }
            smc_writer_end_list(w);
        }
        smc_writer_end_list(w);
    } else {
        smc_writer_put_null(w);
    }
    smc_writer_end_list(w);
    smc_writer_end_custom(w);
}

static void put_latlng(smc_writer_t *w, const bench_latlng_t *p)
{
    smc_writer_begin_custom(w, BENCH_TAG_LATLNG);
    smc_writer_begin_list(w, 2);
    smc_writer_put_f64(w, p->latitude);
    smc_writer_put_f64(w, p->longitude);
    smc_writer_end_list(w);
    smc_writer_end_custom(w);
}

bool bench_typed_encode(const bench_records_t *records, uint8_t *buf, size_t cap, size_t *written)
{
    smc_writer_t w;
    smc_writer_init(&w, buf, cap);
    bool list = records->shape == BENCH_SHAPE_ANR_LIST || records->shape == BENCH_SHAPE_LATLNG_LIST;
    if (list) {
        smc_writer_begin_list(&w, records->count);
    }
    for (size_t i = 0; i < records->count; i++) {
        if (records->anr != NULL) {
            put_anr(&w, &records->anr[i]);
        } else {
            put_latlng(&w, &records->latlng[i]);
        }
    }
    if (list) {
        smc_writer_end_list(&w);
    }
    return smc_writer_finish(&w, written, NULL) == SMC_OK;
}
