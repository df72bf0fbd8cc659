/*
 * The typed records of bench_typed.h, decoded two ways (from the tree of smc_decode, and item
 * by item with the pull reader) and written with the writer's put calls. Either way every
 * string and array lives in the arena, so the records own their bytes.
 */
#include <stddef.h>
#include <string.h>

#include "bench_typed.h"

/* What each field of the record holds, in wire order: its kind and where it sits in
 * bench_anr_t. Field i is present when bit i of `present` is set. Both decoders and the
 * encoder walk this table, so a field is described once. */
typedef enum field_kind {
    K_BOOL,  /* bool */
    K_I32,   /* int32_t */
    K_I64,   /* int64_t (int32 widened on decode) */
    K_F64,   /* double */
    K_STR,   /* smc_bytes_t, UTF-8 */
    K_U8S,   /* smc_bytes_t */
    K_I32S,  /* smc_array_t of an Int32List */
    K_I64S,  /* smc_array_t of an Int64List */
    K_F64S,  /* smc_array_t of a Float64List */
    K_LIST,  /* const smc_value_t *, a List */
    K_ANY,   /* const smc_value_t *, any value */
    K_MAP,   /* bench_str_map_t */
    K_ENUM,  /* int32_t: the index inside custom 130 */
    K_LISTS, /* bench_i32_lists_t: a List of Lists of int32 */
} field_kind_t;

typedef struct field {
    field_kind_t kind;
    size_t offset;
} field_t;

#define FIELD(kind, member)                                                                        \
    {                                                                                              \
        kind, offsetof(bench_anr_t, member)                                                        \
    }
static const field_t anr_fields[BENCH_ANR_FIELDS] = {
    FIELD(K_BOOL, a_bool),
    FIELD(K_BOOL, another_bool),
    FIELD(K_I32, an_int),
    FIELD(K_I64, an_int64),
    FIELD(K_F64, a_double),
    FIELD(K_STR, a_string),
    FIELD(K_U8S, a_byte_array),
    FIELD(K_I32S, a_4byte_array),
    FIELD(K_I64S, a_8byte_array),
    FIELD(K_F64S, a_float_array),
    FIELD(K_LIST, a_list),
    FIELD(K_MAP, a_map),
    FIELD(K_ENUM, an_enum),
    FIELD(K_ANY, an_object),
    FIELD(K_STR, a_nullable_string),
    FIELD(K_STR, an_empty_string),
    FIELD(K_I32, another_int),
    FIELD(K_I64, another_int64),
    FIELD(K_F64, another_double),
    FIELD(K_STR, another_string),
    FIELD(K_F64, a_nullable_double),
    FIELD(K_BOOL, third_bool),
    FIELD(K_LIST, an_empty_list),
    FIELD(K_MAP, an_empty_map),
    FIELD(K_ENUM, another_enum),
    FIELD(K_U8S, another_byte_array),
    FIELD(K_I32S, another_4byte_array),
    FIELD(K_I64, a_nullable_int),
    FIELD(K_F64, a_small_double),
    FIELD(K_STR, an_emoji),
    FIELD(K_LISTS, nested_lists),
};
#undef FIELD

/* The wire type of a typed-array field and its element width. */
static smc_type_t array_type(field_kind_t kind, size_t *width)
{
    *width = kind == K_I32S ? 4 : 8;
    return kind == K_I32S ? SMC_TYPE_I32S : kind == K_I64S ? SMC_TYPE_I64S : SMC_TYPE_F64S;
}

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
 * (and its bit in *present), anything else fails (a wrong type for the schema).
 * take() is that rule: -1 a wrong type or a read failure, 0 null, 1 a value of type `want`. */
static int take(reader_ctx_t *c, smc_type_t want, uint32_t *present, unsigned field, smc_item_t *it)
{
    if (!next_item(c, it) || (it->type != SMC_TYPE_NULL && it->type != want)) {
        return -1;
    }
    if (it->type == SMC_TYPE_NULL) {
        return 0;
    }
    *present |= 1u << field;
    return 1;
}

static bool read_bool(reader_ctx_t *c, uint32_t *present, unsigned field, bool *out)
{
    smc_item_t it;
    int got = take(c, SMC_TYPE_BOOL, present, field, &it);
    if (got > 0) {
        *out = it.boolean;
    }
    return got >= 0;
}

static bool read_i32(reader_ctx_t *c, uint32_t *present, unsigned field, int32_t *out)
{
    smc_item_t it;
    int got = take(c, SMC_TYPE_I32, present, field, &it);
    if (got > 0) {
        *out = it.i32;
    }
    return got >= 0;
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
    int got = take(c, SMC_TYPE_F64, present, field, &it);
    if (got > 0) {
        *out = smc_f64_from_bits(it.f64_bits);
    }
    return got >= 0;
}

/* A string (SMC_TYPE_STR) or a Uint8List (SMC_TYPE_U8S), per `type`. */
static bool read_bytes(reader_ctx_t *c, smc_type_t type, uint32_t *present, unsigned field,
                       smc_bytes_t *out)
{
    smc_item_t it;
    int got = take(c, type, present, field, &it);
    return got == 0 || (got > 0 && copy_bytes(c, &it.bytes, out));
}

/* A typed list of `type` (I32S, I64S, F64S) with elements of `width` bytes. */
static bool read_array(reader_ctx_t *c, smc_type_t type, size_t width, uint32_t *present,
                       unsigned field, smc_array_t *out)
{
    smc_item_t it;
    int got = take(c, type, present, field, &it);
    return got == 0 || (got > 0 && copy_array(c, &it.array, width, out));
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
    int got = take(c, SMC_TYPE_MAP, present, field, &it);
    if (got <= 0) {
        return got == 0;
    }
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
    int got = take(c, SMC_TYPE_LIST, present, field, &it);
    if (got <= 0) {
        return got == 0;
    }
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
        void *m = (uint8_t *)f + anr_fields[i].offset;
        size_t width;
        switch (anr_fields[i].kind) {
        case K_BOOL:
            ok = read_bool(c, p, i, (bool *)m);
            break;
        case K_I32:
            ok = read_i32(c, p, i, (int32_t *)m);
            break;
        case K_I64:
            ok = read_i64(c, p, i, (int64_t *)m);
            break;
        case K_F64:
            ok = read_f64(c, p, i, (double *)m);
            break;
        case K_STR:
            ok = read_bytes(c, SMC_TYPE_STR, p, i, (smc_bytes_t *)m);
            break;
        case K_U8S:
            ok = read_bytes(c, SMC_TYPE_U8S, p, i, (smc_bytes_t *)m);
            break;
        case K_I32S:
        case K_I64S:
        case K_F64S: {
            smc_type_t type = array_type(anr_fields[i].kind, &width);
            ok = read_array(c, type, width, p, i, (smc_array_t *)m);
            break;
        }
        case K_LIST:
            ok = read_generic(c, SMC_TYPE_LIST, p, i, (const smc_value_t **)m);
            break;
        case K_ANY:
            ok = read_generic(c, SMC_TYPE_NULL, p, i, (const smc_value_t **)m);
            break;
        case K_MAP:
            ok = read_str_map(c, p, i, (bench_str_map_t *)m);
            break;
        case K_ENUM:
            ok = read_enum(c, p, i, (int32_t *)m);
            break;
        case K_LISTS:
            ok = read_nested_lists(c, p, i, (bench_i32_lists_t *)m);
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
        void *m = (uint8_t *)f + anr_fields[i].offset;
        size_t width;
        switch (anr_fields[i].kind) {
        case K_BOOL:
            if (tree_has(v, SMC_TYPE_BOOL, p, i, &ok)) {
                *(bool *)m = v->boolean;
            }
            break;
        case K_I32:
            if (tree_has(v, SMC_TYPE_I32, p, i, &ok)) {
                *(int32_t *)m = v->i32;
            }
            break;
        case K_I64:
            tree_i64(v, p, i, (int64_t *)m, &ok);
            break;
        case K_F64:
            if (tree_has(v, SMC_TYPE_F64, p, i, &ok)) {
                *(double *)m = smc_f64_from_bits(v->f64_bits);
            }
            break;
        case K_STR:
        case K_U8S:
            if (tree_has(v, anr_fields[i].kind == K_STR ? SMC_TYPE_STR : SMC_TYPE_U8S, p, i, &ok)) {
                *(smc_bytes_t *)m = v->bytes;
            }
            break;
        case K_I32S:
        case K_I64S:
        case K_F64S:
            if (tree_has(v, array_type(anr_fields[i].kind, &width), p, i, &ok)) {
                *(smc_array_t *)m = v->array;
            }
            break;
        case K_LIST:
            if (tree_has(v, SMC_TYPE_LIST, p, i, &ok)) {
                *(const smc_value_t **)m = v;
            }
            break;
        case K_ANY:
            if (v->type != SMC_TYPE_NULL) {
                *(const smc_value_t **)m = v;
                *p |= 1u << i;
            }
            break;
        case K_MAP:
            tree_str_map(v, arena, p, i, (bench_str_map_t *)m, &ok);
            break;
        case K_ENUM:
            tree_enum(v, p, i, (int32_t *)m, &ok);
            break;
        case K_LISTS:
            tree_nested_lists(v, arena, p, i, (bench_i32_lists_t *)m, &ok);
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

static void put_nested_lists(smc_writer_t *w, const bench_i32_lists_t *lists)
{
    smc_writer_begin_list(w, lists->n);
    for (size_t i = 0; i < lists->n; i++) {
        smc_writer_begin_list(w, lists->v[i].n);
        for (size_t k = 0; k < lists->v[i].n; k++) {
            smc_writer_put_i32(w, lists->v[i].v[k]);
        }
        smc_writer_end_list(w);
    }
    smc_writer_end_list(w);
}

static void put_anr(smc_writer_t *w, const bench_anr_t *f)
{
    smc_writer_begin_custom(w, BENCH_TAG_ANR);
    smc_writer_begin_list(w, BENCH_ANR_FIELDS);
    for (unsigned i = 0; i < BENCH_ANR_FIELDS; i++) {
        const void *m = (const uint8_t *)f + anr_fields[i].offset;
        size_t width;
        if (!has(f, i)) {
            smc_writer_put_null(w);
            continue;
        }
        switch (anr_fields[i].kind) {
        case K_BOOL:
            smc_writer_put_bool(w, *(const bool *)m);
            break;
        case K_I32:
            smc_writer_put_i32(w, *(const int32_t *)m);
            break;
        case K_I64:
            smc_writer_put_i64(w, *(const int64_t *)m);
            break;
        case K_F64:
            smc_writer_put_f64(w, *(const double *)m);
            break;
        case K_STR:
            put_opt_str(w, true, (const smc_bytes_t *)m);
            break;
        case K_U8S:
            put_opt_u8s(w, true, (const smc_bytes_t *)m);
            break;
        case K_I32S:
        case K_I64S:
        case K_F64S:
            put_opt_array(w, true, array_type(anr_fields[i].kind, &width), (const smc_array_t *)m);
            break;
        case K_LIST:
        case K_ANY:
            smc_writer_put_value(w, *(const smc_value_t *const *)m);
            break;
        case K_MAP:
            put_str_map(w, true, (const bench_str_map_t *)m);
            break;
        case K_ENUM:
            put_enum(w, true, *(const int32_t *)m);
            break;
        case K_LISTS:
            put_nested_lists(w, (const bench_i32_lists_t *)m);
            break;
        }
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
