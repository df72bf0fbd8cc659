/* Value builders, structural equality and names (smc_types.h). */
#include "smc_internal.h"

const char *smc_version(void)
{
    return SMC_VERSION_STRING;
}

/* The notation word (column 0) or the spec's name (column 1) of `type`, from the generated
 * table of spec/wire-types.json; "?" for a number outside smc_type_t. */
static const char *type_text(smc_type_t type, int column)
{
    switch (type) {
#define SMCI_TYPE_CASE(t, tag, tag_last, word, title, element_width, alignment)                    \
    case t:                                                                                        \
        return column == 0 ? word : title;
        SMC_WIRE_TYPES(SMCI_TYPE_CASE)
#undef SMCI_TYPE_CASE
    }
    return "?";
}

const char *smc_type_name(smc_type_t type)
{
    return type_text(type, 0);
}

const char *smc_type_title(smc_type_t type)
{
    return type_text(type, 1);
}

static smc_value_t *new_node(smc_arena_t *arena, smc_type_t type)
{
    smc_value_t *v = (smc_value_t *)smc_arena_alloc(arena, sizeof *v);
    if (v != NULL) {
        memset(v, 0, sizeof *v);
        v->type = type;
    }
    return v;
}

smc_value_t *smc_value_make_null(smc_arena_t *arena)
{
    return new_node(arena, SMC_TYPE_NULL);
}

smc_value_t *smc_value_make_bool(smc_arena_t *arena, bool b)
{
    smc_value_t *v = new_node(arena, SMC_TYPE_BOOL);
    if (v != NULL) {
        v->boolean = b;
    }
    return v;
}

smc_value_t *smc_value_make_i32(smc_arena_t *arena, int32_t x)
{
    smc_value_t *v = new_node(arena, SMC_TYPE_I32);
    if (v != NULL) {
        v->i32 = x;
    }
    return v;
}

smc_value_t *smc_value_make_i64(smc_arena_t *arena, int64_t x)
{
    smc_value_t *v = new_node(arena, SMC_TYPE_I64);
    if (v != NULL) {
        v->i64 = x;
    }
    return v;
}

smc_value_t *smc_value_make_f64_bits(smc_arena_t *arena, uint64_t bits)
{
    smc_value_t *v = new_node(arena, SMC_TYPE_F64);
    if (v != NULL) {
        v->f64_bits = bits;
    }
    return v;
}

smc_value_t *smc_value_make_f64(smc_arena_t *arena, double d)
{
    return smc_value_make_f64_bits(arena, smc_f64_to_bits(d));
}

static smc_value_t *make_bytes(smc_arena_t *arena, smc_type_t type, const void *src, size_t len)
{
    smc_value_t *v = new_node(arena, type);
    if (v == NULL ||
        smci_bytes_store(arena, 0, (const uint8_t *)src, len, &v->bytes.ptr, 0) != SMC_OK) {
        return NULL;
    }
    v->bytes.len = len;
    return v;
}

smc_value_t *smc_value_make_str(smc_arena_t *arena, const void *s, size_t len)
{
    return make_bytes(arena, SMC_TYPE_STR, s, len);
}

smc_value_t *smc_value_make_largeint(smc_arena_t *arena, const void *s, size_t len)
{
    return make_bytes(arena, SMC_TYPE_LARGEINT, s, len);
}

smc_value_t *smc_value_make_u8s(smc_arena_t *arena, const void *bytes, size_t len)
{
    return make_bytes(arena, SMC_TYPE_U8S, bytes, len);
}

/* Allocate a typed array of `count` elements; returns the writable element bytes. */
static smc_value_t *new_array(smc_arena_t *arena, smc_type_t type, size_t count, uint8_t **data)
{
    size_t width = smc_typed_list_width(type);
    if (width == 0 || count > SIZE_MAX / width) {
        return NULL;
    }
    smc_value_t *v = new_node(arena, type);
    if (v == NULL) {
        return NULL;
    }
    *data = NULL;
    if (count > 0) {
        *data = (uint8_t *)smc_arena_alloc(arena, count * width);
        if (*data == NULL) {
            return NULL;
        }
    }
    v->array.data = *data;
    v->array.count = count;
    return v;
}

smc_value_t *smc_value_make_array_le(smc_arena_t *arena, smc_type_t type, const uint8_t *le_bytes,
                                     size_t count)
{
    uint8_t *data;
    smc_value_t *v = new_array(arena, type, count, &data);
    if (v != NULL && count > 0) {
        memcpy(data, le_bytes, count * smc_typed_list_width(type));
    }
    return v;
}

smc_value_t *smc_value_make_i32s(smc_arena_t *arena, const int32_t *vals, size_t count)
{
    uint8_t *data;
    smc_value_t *v = new_array(arena, SMC_TYPE_I32S, count, &data);
    for (size_t i = 0; v != NULL && i < count; i++) {
        uint32_t u;
        memcpy(&u, &vals[i], sizeof u);
        smci_store_le32(data + 4 * i, u);
    }
    return v;
}

smc_value_t *smc_value_make_i64s(smc_arena_t *arena, const int64_t *vals, size_t count)
{
    uint8_t *data;
    smc_value_t *v = new_array(arena, SMC_TYPE_I64S, count, &data);
    for (size_t i = 0; v != NULL && i < count; i++) {
        uint64_t u;
        memcpy(&u, &vals[i], sizeof u);
        smci_store_le64(data + 8 * i, u);
    }
    return v;
}

smc_value_t *smc_value_make_f64s_bits(smc_arena_t *arena, const uint64_t *bits, size_t count)
{
    uint8_t *data;
    smc_value_t *v = new_array(arena, SMC_TYPE_F64S, count, &data);
    for (size_t i = 0; v != NULL && i < count; i++) {
        smci_store_le64(data + 8 * i, bits[i]);
    }
    return v;
}

smc_value_t *smc_value_make_f32s_bits(smc_arena_t *arena, const uint32_t *bits, size_t count)
{
    uint8_t *data;
    smc_value_t *v = new_array(arena, SMC_TYPE_F32S, count, &data);
    for (size_t i = 0; v != NULL && i < count; i++) {
        smci_store_le32(data + 4 * i, bits[i]);
    }
    return v;
}

static smc_value_t *new_children(smc_arena_t *arena, size_t n)
{
    if (n == 0) {
        return NULL;
    }
    if (n > SIZE_MAX / sizeof(smc_value_t)) {
        return NULL;
    }
    smc_value_t *items = (smc_value_t *)smc_arena_alloc(arena, n * sizeof(smc_value_t));
    if (items != NULL) {
        memset(items, 0, n * sizeof(smc_value_t)); /* all SMC_TYPE_NULL */
    }
    return items;
}

smc_value_t *smc_value_make_list(smc_arena_t *arena, size_t count)
{
    smc_value_t *v = new_node(arena, SMC_TYPE_LIST);
    if (v == NULL) {
        return NULL;
    }
    v->list.items = new_children(arena, count);
    v->list.count = count;
    return count > 0 && v->list.items == NULL ? NULL : v;
}

smc_value_t *smc_value_make_map(smc_arena_t *arena, size_t count)
{
    smc_value_t *v = new_node(arena, SMC_TYPE_MAP);
    if (v == NULL || count > SIZE_MAX / 2) {
        return NULL;
    }
    v->map.entries = new_children(arena, 2 * count);
    v->map.count = count;
    return count > 0 && v->map.entries == NULL ? NULL : v;
}

smc_value_t *smc_value_make_custom(smc_arena_t *arena, uint8_t tag, smc_value_t *payload)
{
    smc_value_t *v = new_node(arena, SMC_TYPE_CUSTOM);
    if (v == NULL) {
        return NULL;
    }
    if (payload == NULL) {
        payload = smc_value_make_null(arena);
        if (payload == NULL) {
            return NULL;
        }
    }
    v->custom_tag = tag;
    v->custom.payload = payload;
    return v;
}

/* ---- equality ---- */

static bool bytes_equal(const uint8_t *a, const uint8_t *b, size_t len)
{
    return len == 0 || memcmp(a, b, len) == 0;
}

/* Compare two nodes without descending; *ca and *cb receive the children to compare next. */
static bool shallow_equal(const smc_value_t *a, const smc_value_t *b, const smc_value_t **ca,
                          const smc_value_t **cb, size_t *n)
{
    *n = 0;
    if (a->type != b->type) {
        return false;
    }
    switch (a->type) {
    case SMC_TYPE_NULL:
        return true;
    case SMC_TYPE_BOOL:
        return a->boolean == b->boolean;
    case SMC_TYPE_I32:
        return a->i32 == b->i32;
    case SMC_TYPE_I64:
        return a->i64 == b->i64;
    case SMC_TYPE_F64:
        return a->f64_bits == b->f64_bits;
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_STR:
    case SMC_TYPE_U8S:
        return a->bytes.len == b->bytes.len &&
               bytes_equal(a->bytes.ptr, b->bytes.ptr, a->bytes.len);
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        return a->array.count == b->array.count &&
               bytes_equal(a->array.data, b->array.data,
                           a->array.count * smc_typed_list_width(a->type));
    case SMC_TYPE_LIST:
        *ca = a->list.items;
        *cb = b->list.items;
        *n = a->list.count;
        return a->list.count == b->list.count;
    case SMC_TYPE_MAP:
        *ca = a->map.entries;
        *cb = b->map.entries;
        *n = 2 * a->map.count;
        return a->map.count == b->map.count;
    case SMC_TYPE_CUSTOM:
        *ca = a->custom.payload;
        *cb = b->custom.payload;
        *n = 1;
        return a->custom_tag == b->custom_tag && a->custom.payload != NULL &&
               b->custom.payload != NULL;
    }
    return false;
}

bool smc_value_equal(const smc_value_t *a, const smc_value_t *b)
{
    /* Explicit stack of sibling ranges; trees nested deeper than SMC_MAX_DEPTH_LIMIT (which
     * no decoder produces and no encoder writes) compare unequal. */
    struct {
        const smc_value_t *a, *b;
        size_t left;
    } stack[SMC_MAX_DEPTH_LIMIT + 1];
    size_t depth = 0;
    if (a == NULL || b == NULL) {
        return a == b;
    }
    stack[0].a = a;
    stack[0].b = b;
    stack[0].left = 1;
    depth = 1;
    while (depth > 0) {
        if (stack[depth - 1].left == 0) {
            depth--;
            continue;
        }
        const smc_value_t *x = stack[depth - 1].a++;
        const smc_value_t *y = stack[depth - 1].b++;
        stack[depth - 1].left--;
        const smc_value_t *cx = NULL, *cy = NULL;
        size_t n;
        if (!shallow_equal(x, y, &cx, &cy, &n)) {
            return false;
        }
        if (n > 0) {
            if (depth > SMC_MAX_DEPTH_LIMIT) {
                return false;
            }
            stack[depth].a = cx;
            stack[depth].b = cy;
            stack[depth].left = n;
            depth++;
        }
    }
    return true;
}
