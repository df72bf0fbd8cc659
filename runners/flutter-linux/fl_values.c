/* FlValue ↔ smc_value_t (fl_values.h). */
#include "fl_values.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- FlValue → smc_value_t ---- */

typedef struct to_item {
    smc_fl_value_t *src;
    smc_value_t *dst;
} to_item_t;

typedef struct to_stack {
    to_item_t *items;
    size_t n, cap;
} to_stack_t;

static bool to_push(to_stack_t *s, smc_fl_value_t *src, smc_value_t *dst)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        to_item_t *p = realloc(s->items, cap * sizeof *p);
        if (!p) {
            return false;
        }
        s->items = p;
        s->cap = cap;
    }
    s->items[s->n++] = (to_item_t){src, dst};
    return true;
}

/* One node: scalars and typed data complete, containers sized with their children pushed. */
static smc_fl_conv_t to_node(const smc_fl_api_t *api, smc_fl_value_t *v, smc_value_t *dst,
                             smc_arena_t *arena, to_stack_t *st, char *why, size_t why_size)
{
    smc_value_t *made = NULL;
    /* the engine's NULL FlValue (no arguments, no details) is null */
    int type = v ? api->value_get_type(v) : SMC_FL_NULL;
    switch (type) {
    case SMC_FL_NULL:
        made = smc_value_make_null(arena);
        break;
    case SMC_FL_BOOL:
        made = smc_value_make_bool(arena, api->value_get_bool(v));
        break;
    case SMC_FL_INT: /* FlValue has one integer type, an int64 (§17.7) */
        made = smc_value_make_i64(arena, api->value_get_int(v));
        break;
    case SMC_FL_FLOAT: {
        double d = api->value_get_float(v);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        made = smc_value_make_f64_bits(arena, bits);
        break;
    }
    case SMC_FL_STRING: {
        const char *s = api->value_get_string(v);
        made = smc_value_make_str(arena, s, strlen(s));
        break;
    }
    case SMC_FL_UINT8_LIST:
        made = smc_value_make_u8s(arena, api->value_get_uint8_list(v), api->value_get_length(v));
        break;
    case SMC_FL_INT32_LIST:
        made = smc_value_make_i32s(arena, api->value_get_int32_list(v), api->value_get_length(v));
        break;
    case SMC_FL_INT64_LIST:
        made = smc_value_make_i64s(arena, api->value_get_int64_list(v), api->value_get_length(v));
        break;
    case SMC_FL_FLOAT_LIST: {
        size_t n = api->value_get_length(v);
        /* doubles and their bit patterns have the same size and representation */
        made = smc_value_make_f64s_bits(
            arena, (const uint64_t *)(const void *)api->value_get_float_list(v), n);
        break;
    }
    case SMC_FL_FLOAT32_LIST: {
        size_t n = api->value_get_length(v);
        made = smc_value_make_f32s_bits(
            arena, (const uint32_t *)(const void *)api->value_get_float32_list(v), n);
        break;
    }
    case SMC_FL_LIST: {
        size_t n = api->value_get_length(v);
        made = smc_value_make_list(arena, n);
        for (size_t i = 0; made && i < n; i++) {
            if (!to_push(st, api->value_get_list_value(v, i), &made->list.items[i])) {
                return SMC_FL_CONV_NOMEM;
            }
        }
        break;
    }
    case SMC_FL_MAP: {
        size_t n = api->value_get_length(v);
        made = smc_value_make_map(arena, n);
        for (size_t i = 0; made && i < n; i++) {
            if (!to_push(st, api->value_get_map_key(v, i), &made->map.entries[2 * i]) ||
                !to_push(st, api->value_get_map_value(v, i), &made->map.entries[2 * i + 1])) {
                return SMC_FL_CONV_NOMEM;
            }
        }
        break;
    }
    case SMC_FL_CUSTOM: {
        int tag = api->value_get_custom_type(v);
        if (tag < 128 || tag > 255) {
            snprintf(why, why_size, "a custom FlValue of type %d has no wire tag", tag);
            return SMC_FL_CONV_SKIP;
        }
        made = smc_value_make_custom(arena, (uint8_t)tag, NULL);
        /* the payload is the FlValue our read_value_of_type stored (fl_pigeon_codec.c) */
        smc_fl_value_t *payload = (smc_fl_value_t *)(uintptr_t)api->value_get_custom_value(v);
        if (made && !to_push(st, payload, made->custom.payload)) {
            return SMC_FL_CONV_NOMEM;
        }
        break;
    }
    default:
        snprintf(why, why_size, "FlValue type %d is unknown to this runner", type);
        return SMC_FL_CONV_SKIP;
    }
    if (!made) {
        return SMC_FL_CONV_NOMEM;
    }
    *dst = *made;
    /* the children were pushed with addresses inside `made`'s arrays, which *dst shares */
    return SMC_FL_CONV_OK;
}

smc_fl_conv_t smc_fl_to_smc(const smc_fl_api_t *api, smc_fl_value_t *v, smc_arena_t *arena,
                            smc_value_t **out, char *why, size_t why_size)
{
    smc_value_t *root = smc_value_make_null(arena);
    if (!root) {
        return SMC_FL_CONV_NOMEM;
    }
    to_stack_t st = {NULL, 0, 0};
    smc_fl_conv_t r = to_push(&st, v, root) ? SMC_FL_CONV_OK : SMC_FL_CONV_NOMEM;
    while (r == SMC_FL_CONV_OK && st.n > 0) {
        to_item_t it = st.items[--st.n];
        r = to_node(api, it.src, it.dst, arena, &st, why, why_size);
    }
    free(st.items);
    *out = root;
    return r;
}

/* ---- smc_value_t → FlValue ---- */

typedef struct from_item {
    const smc_value_t *src;
    smc_fl_value_t *dst; /* an empty container of src's type, already in its parent */
} from_item_t;

typedef struct from_stack {
    from_item_t *items;
    size_t n, cap;
} from_stack_t;

static bool from_push(from_stack_t *s, const smc_value_t *src, smc_fl_value_t *dst)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        from_item_t *p = realloc(s->items, cap * sizeof *p);
        if (!p) {
            return false;
        }
        s->items = p;
        s->cap = cap;
    }
    s->items[s->n++] = (from_item_t){src, dst};
    return true;
}

static void unref_payload(void *p);
static const smc_fl_api_t *g_unref_api; /* GDestroyNotify has no user data */
static void unref_payload(void *p)
{
    g_unref_api->value_unref(p);
}

/* A node: scalars complete; a container empty (to fill from the stack, or now when `fill` is
 * NULL, as for map keys, which are built whole before they are compared). */
static smc_fl_conv_t shell(const smc_fl_api_t *api, const smc_value_t *v, smc_fl_value_t **out,
                           from_stack_t *fill, unsigned depth, char *why, size_t why_size);

static smc_fl_conv_t fill_now(const smc_fl_api_t *api, const smc_value_t *src, smc_fl_value_t *dst,
                              from_stack_t *fill, unsigned depth, char *why, size_t why_size);

static smc_fl_conv_t add_children(const smc_fl_api_t *api, const smc_value_t *src,
                                  smc_fl_value_t *dst, from_stack_t *fill, unsigned depth,
                                  char *why, size_t why_size)
{
    if (src->type == SMC_TYPE_LIST) {
        for (size_t i = 0; i < src->list.count; i++) {
            smc_fl_value_t *child = NULL;
            smc_fl_conv_t r =
                shell(api, &src->list.items[i], &child, fill, depth + 1, why, why_size);
            if (r != SMC_FL_CONV_OK) {
                return r;
            }
            api->value_append_take(dst, child);
        }
        return SMC_FL_CONV_OK;
    }
    /* SMC_TYPE_MAP */
    for (size_t i = 0; i < src->map.count; i++) {
        smc_fl_value_t *key = NULL, *val = NULL;
        smc_fl_conv_t r =
            shell(api, &src->map.entries[2 * i], &key, NULL, depth + 1, why, why_size);
        if (r != SMC_FL_CONV_OK) {
            return r;
        }
        r = shell(api, &src->map.entries[2 * i + 1], &val, fill, depth + 1, why, why_size);
        if (r != SMC_FL_CONV_OK) {
            api->value_unref(key);
            return r;
        }
        size_t before = api->value_get_length(dst);
        api->value_set_take(dst, key, val);
        if (api->value_get_length(dst) == before) {
            /* fl_value_set replaced an entry: FlValue cannot hold these two keys apart */
            snprintf(why, why_size, "map keys %zu and an earlier one are the same FlValue key", i);
            return SMC_FL_CONV_SKIP;
        }
    }
    return SMC_FL_CONV_OK;
}

static smc_fl_conv_t fill_now(const smc_fl_api_t *api, const smc_value_t *src, smc_fl_value_t *dst,
                              from_stack_t *fill, unsigned depth, char *why, size_t why_size)
{
    (void)fill;
    /* a map key: built whole here, recursively; keys nest shallowly, and a guard keeps a
     * pathological key from exhausting the stack */
    if (depth > 1000) {
        snprintf(why, why_size, "a map key nested deeper than 1000 levels");
        return SMC_FL_CONV_SKIP;
    }
    return add_children(api, src, dst, NULL, depth, why, why_size);
}

static smc_fl_conv_t shell(const smc_fl_api_t *api, const smc_value_t *v, smc_fl_value_t **out,
                           from_stack_t *fill, unsigned depth, char *why, size_t why_size)
{
    smc_fl_value_t *n = NULL;
    switch (v->type) {
    case SMC_TYPE_NULL:
        n = api->value_new_null();
        break;
    case SMC_TYPE_BOOL:
        n = api->value_new_bool(v->boolean);
        break;
    case SMC_TYPE_I32:
        n = api->value_new_int(v->i32);
        break;
    case SMC_TYPE_I64:
        n = api->value_new_int(v->i64);
        break;
    case SMC_TYPE_F64: {
        double d;
        memcpy(&d, &v->f64_bits, sizeof d);
        n = api->value_new_float(d);
        break;
    }
    case SMC_TYPE_STR:
        /* the sized constructor is the API's way to hand over a string with its length; what
         * it keeps of a U+0000 is the engine's behaviour (D12) */
        n = api->value_new_string_sized((const char *)v->bytes.ptr, v->bytes.len);
        break;
    case SMC_TYPE_U8S:
        n = api->value_new_uint8_list(v->bytes.ptr, v->bytes.len);
        break;
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S: {
        size_t count = v->array.count;
        size_t width = (v->type == SMC_TYPE_I32S || v->type == SMC_TYPE_F32S) ? 4 : 8;
        if (v->type == SMC_TYPE_F32S && !api->value_new_float32_list) {
            snprintf(why, why_size, "this engine's FlValue has no Float32List");
            return SMC_FL_CONV_SKIP;
        }
        /* the tree holds little-endian bytes, which on this (x86_64) host are the elements */
        void *elems = malloc(count * width + 1);
        if (!elems) {
            return SMC_FL_CONV_NOMEM;
        }
        if (count) {
            memcpy(elems, v->array.data, count * width);
        }
        if (v->type == SMC_TYPE_I32S) {
            n = api->value_new_int32_list(elems, count);
        } else if (v->type == SMC_TYPE_I64S) {
            n = api->value_new_int64_list(elems, count);
        } else if (v->type == SMC_TYPE_F64S) {
            n = api->value_new_float_list(elems, count);
        } else {
            n = api->value_new_float32_list(elems, count);
        }
        free(elems);
        break;
    }
    case SMC_TYPE_LIST:
    case SMC_TYPE_MAP:
        n = v->type == SMC_TYPE_LIST ? api->value_new_list() : api->value_new_map();
        if (fill) {
            if (!from_push(fill, v, n)) {
                api->value_unref(n);
                return SMC_FL_CONV_NOMEM;
            }
        } else {
            smc_fl_conv_t r = fill_now(api, v, n, NULL, depth, why, why_size);
            if (r != SMC_FL_CONV_OK) {
                api->value_unref(n);
                return r;
            }
        }
        break;
    case SMC_TYPE_CUSTOM: {
        if (!api->value_new_custom) {
            snprintf(why, why_size, "this engine's FlValue has no custom type");
            return SMC_FL_CONV_SKIP;
        }
        smc_fl_value_t *payload = NULL;
        smc_fl_conv_t r = shell(api, v->custom.payload, &payload, fill, depth + 1, why, why_size);
        if (r != SMC_FL_CONV_OK) {
            return r;
        }
        g_unref_api = api;
        n = api->value_new_custom(v->custom_tag, payload, unref_payload);
        break;
    }
    case SMC_TYPE_LARGEINT:
        snprintf(why, why_size, "FlValue has no type for a largeInt (tag 5)");
        return SMC_FL_CONV_SKIP;
    }
    if (!n) {
        snprintf(why, why_size, "value type %d not built", (int)v->type);
        return SMC_FL_CONV_SKIP;
    }
    *out = n;
    return SMC_FL_CONV_OK;
}

smc_fl_conv_t smc_fl_from_smc(const smc_fl_api_t *api, const smc_value_t *v, smc_fl_value_t **out,
                              char *why, size_t why_size)
{
    if (!v) {
        *out = api->value_new_null();
        return SMC_FL_CONV_OK;
    }
    from_stack_t st = {NULL, 0, 0};
    smc_fl_value_t *root = NULL;
    smc_fl_conv_t r = shell(api, v, &root, &st, 0, why, why_size);
    while (r == SMC_FL_CONV_OK && st.n > 0) {
        from_item_t it = st.items[--st.n];
        r = add_children(api, it.src, it.dst, &st, 0, why, why_size);
    }
    free(st.items);
    if (r != SMC_FL_CONV_OK) {
        if (root) {
            api->value_unref(root);
        }
        return r;
    }
    *out = root;
    return SMC_FL_CONV_OK;
}
