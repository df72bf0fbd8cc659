/* The `glib` host vocabulary (fl_host.h, spec §17.7). */
#include "fl_host.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smct_hex.h"

const char *const smc_fl_glib_vocabulary[] = {"glib", NULL};

/* Far deeper than any host-type vector, far shallower than the stack. */
#define HOST_MAX_DEPTH 256

/* The vocabulary's spelling of each FlValueType, indexed by the public enum (fl_api.h).
 * FL_VALUE_TYPE_CUSTOM has no row in §17.7's table, so it has no name here. */
static const char *const k_type_names[] = {
    [SMC_FL_NULL] = "FL_VALUE_TYPE_NULL",
    [SMC_FL_BOOL] = "FL_VALUE_TYPE_BOOL",
    [SMC_FL_INT] = "FL_VALUE_TYPE_INT",
    [SMC_FL_FLOAT] = "FL_VALUE_TYPE_FLOAT",
    [SMC_FL_STRING] = "FL_VALUE_TYPE_STRING",
    [SMC_FL_UINT8_LIST] = "FL_VALUE_TYPE_UINT8_LIST",
    [SMC_FL_INT32_LIST] = "FL_VALUE_TYPE_INT32_LIST",
    [SMC_FL_INT64_LIST] = "FL_VALUE_TYPE_INT64_LIST",
    [SMC_FL_FLOAT_LIST] = "FL_VALUE_TYPE_FLOAT_LIST",
    [SMC_FL_LIST] = "FL_VALUE_TYPE_LIST",
    [SMC_FL_MAP] = "FL_VALUE_TYPE_MAP",
    [SMC_FL_FLOAT32_LIST] = "FL_VALUE_TYPE_FLOAT32_LIST",
};
#define TYPE_COUNT (sizeof k_type_names / sizeof k_type_names[0])

static int type_of_name(const char *name)
{
    for (size_t i = 0; name && i < TYPE_COUNT; i++) {
        if (strcmp(name, k_type_names[i]) == 0) {
            return (int)i;
        }
    }
    return -1;
}

static smc_fl_conv_t skip(char *why, size_t why_size, const char *what, const char *type)
{
    snprintf(why, why_size, "%s%s%s", what, type ? ": " : "", type ? type : "");
    return SMC_FL_CONV_SKIP;
}

/* ---- literals (spec §17.1) ---- */

static bool is_text(const smc_runner_host_value_t *hv)
{
    return hv->literal == SMC_RUNNER_LITERAL_TEXT && hv->text;
}

/* A decimal int64 (the whole text). */
static bool parse_int(const smc_runner_host_value_t *hv, int64_t *out)
{
    char buf[32];
    if (!is_text(hv) || hv->text_len == 0 || hv->text_len >= sizeof buf) {
        return false;
    }
    memcpy(buf, hv->text, hv->text_len);
    buf[hv->text_len] = '\0';
    char *end = NULL;
    errno = 0;
    long long v = strtoll(buf, &end, 10);
    if (errno || *end || buf[0] == '+' || buf[0] == ' ') {
        return false;
    }
    *out = (int64_t)v;
    return true;
}

/* A float's bits: exactly `digits` hex digits (16 for a float64, 8 for a float32). */
static bool parse_bits(const smc_runner_host_value_t *hv, size_t digits, uint64_t *out)
{
    if (!is_text(hv) || hv->text_len != digits) {
        return false;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < digits; i++) {
        int d = smct_hex_digit(hv->text[i]);
        if (d < 0) {
            return false;
        }
        v = (v << 4) | (uint64_t)d;
    }
    *out = v;
    return true;
}

/* A typed array's literal: bare texts. */
static bool is_typed_array(const smc_runner_host_value_t *hv)
{
    if (hv->literal != SMC_RUNNER_LITERAL_ITEMS || (hv->count && !hv->items)) {
        return false;
    }
    for (size_t i = 0; i < hv->count; i++) {
        if (hv->items[i].type || !is_text(&hv->items[i])) {
            return false;
        }
    }
    return true;
}

/* ---- host value → FlValue ---- */

static smc_fl_conv_t build(const smc_fl_api_t *api, const smc_runner_host_value_t *hv,
                           unsigned depth, smc_fl_value_t **out, char *why, size_t why_size);

static smc_fl_conv_t build_bytes(const smc_fl_api_t *api, const smc_runner_host_value_t *hv,
                                 smc_fl_value_t **out)
{
    if (!is_text(hv) || hv->text_len % 2) {
        return SMC_FL_CONV_SKIP;
    }
    size_t n = hv->text_len / 2;
    uint8_t *b = malloc(n ? n : 1);
    if (!b) {
        return SMC_FL_CONV_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        int hi = smct_hex_digit(hv->text[2 * i]), lo = smct_hex_digit(hv->text[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            free(b);
            return SMC_FL_CONV_SKIP;
        }
        b[i] = (uint8_t)(hi << 4 | lo);
    }
    *out = api->value_new_uint8_list(b, n);
    free(b);
    return SMC_FL_CONV_OK;
}

/* INT32_LIST, INT64_LIST, FLOAT_LIST and FLOAT32_LIST: parse into a C array, then one
 * fl_value_new_*_list call. */
static smc_fl_conv_t build_typed(const smc_fl_api_t *api, int type,
                                 const smc_runner_host_value_t *hv, smc_fl_value_t **out)
{
    if (!is_typed_array(hv)) {
        return SMC_FL_CONV_SKIP;
    }
    size_t n = hv->count;
    void *arr = malloc((n ? n : 1) * sizeof(int64_t));
    if (!arr) {
        return SMC_FL_CONV_NOMEM;
    }
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        const smc_runner_host_value_t *it = &hv->items[i];
        int64_t iv = 0;
        uint64_t bits = 0;
        switch (type) {
        case SMC_FL_INT32_LIST:
            ok = parse_int(it, &iv) && iv >= INT32_MIN && iv <= INT32_MAX;
            ((int32_t *)arr)[i] = (int32_t)iv;
            break;
        case SMC_FL_INT64_LIST:
            ok = parse_int(it, &iv);
            ((int64_t *)arr)[i] = iv;
            break;
        case SMC_FL_FLOAT_LIST:
            ok = parse_bits(it, 16, &bits);
            memcpy((double *)arr + i, &bits, sizeof(double));
            break;
        default: { /* SMC_FL_FLOAT32_LIST */
            ok = parse_bits(it, 8, &bits);
            uint32_t b32 = (uint32_t)bits;
            memcpy((float *)arr + i, &b32, sizeof(float));
            break;
        }
        }
    }
    if (ok) {
        switch (type) {
        case SMC_FL_INT32_LIST:
            *out = api->value_new_int32_list(arr, n);
            break;
        case SMC_FL_INT64_LIST:
            *out = api->value_new_int64_list(arr, n);
            break;
        case SMC_FL_FLOAT_LIST:
            *out = api->value_new_float_list(arr, n);
            break;
        default:
            *out = api->value_new_float32_list(arr, n);
            break;
        }
    }
    free(arr);
    return ok ? SMC_FL_CONV_OK : SMC_FL_CONV_SKIP;
}

static smc_fl_conv_t build_list(const smc_fl_api_t *api, const smc_runner_host_value_t *hv,
                                unsigned depth, smc_fl_value_t **out, char *why, size_t why_size)
{
    if (hv->literal != SMC_RUNNER_LITERAL_ITEMS || (hv->count && !hv->items)) {
        return skip(why, why_size, "a list's literal is not an array of host values", NULL);
    }
    smc_fl_value_t *list = api->value_new_list();
    for (size_t i = 0; i < hv->count; i++) {
        smc_fl_value_t *child = NULL;
        smc_fl_conv_t c = build(api, &hv->items[i], depth + 1, &child, why, why_size);
        if (c != SMC_FL_CONV_OK) {
            api->value_unref(list);
            return c;
        }
        api->value_append_take(list, child);
    }
    *out = list;
    return SMC_FL_CONV_OK;
}

/* fl_value_set_take, in the vector's order: what the engine keeps of two equal keys is its
 * own behaviour (D15), not the hook's. An empty map's literal arrives as ITEMS. */
static smc_fl_conv_t build_map(const smc_fl_api_t *api, const smc_runner_host_value_t *hv,
                               unsigned depth, smc_fl_value_t **out, char *why, size_t why_size)
{
    bool empty = hv->literal == SMC_RUNNER_LITERAL_ITEMS && hv->count == 0;
    if (!empty && (hv->literal != SMC_RUNNER_LITERAL_PAIRS || (hv->count && !hv->items))) {
        return skip(why, why_size, "a map's literal is not an array of pairs", NULL);
    }
    smc_fl_value_t *map = api->value_new_map();
    for (size_t i = 0; !empty && i < hv->count; i++) {
        smc_fl_value_t *key = NULL, *value = NULL;
        smc_fl_conv_t c = build(api, &hv->items[2 * i], depth + 1, &key, why, why_size);
        if (c == SMC_FL_CONV_OK) {
            c = build(api, &hv->items[2 * i + 1], depth + 1, &value, why, why_size);
            if (c != SMC_FL_CONV_OK) {
                api->value_unref(key);
            }
        }
        if (c != SMC_FL_CONV_OK) {
            api->value_unref(map);
            return c;
        }
        api->value_set_take(map, key, value);
    }
    *out = map;
    return SMC_FL_CONV_OK;
}

static smc_fl_conv_t build(const smc_fl_api_t *api, const smc_runner_host_value_t *hv,
                           unsigned depth, smc_fl_value_t **out, char *why, size_t why_size)
{
    if (depth > HOST_MAX_DEPTH) {
        return skip(why, why_size, "the host value nests deeper than the hook builds", NULL);
    }
    int type = type_of_name(hv->type);
    if (type < 0) {
        return skip(why, why_size, "not a type of the glib vocabulary (spec §17.7)",
                    hv->type ? hv->type : "(a bare text)");
    }
    smc_fl_conv_t c = SMC_FL_CONV_SKIP;
    int64_t iv = 0;
    uint64_t bits = 0;
    switch (type) {
    case SMC_FL_NULL:
        if (hv->literal == SMC_RUNNER_LITERAL_NULL) {
            *out = api->value_new_null();
            c = SMC_FL_CONV_OK;
        }
        break;
    case SMC_FL_BOOL:
        if (hv->literal == SMC_RUNNER_LITERAL_BOOL) {
            *out = api->value_new_bool(hv->boolean);
            c = SMC_FL_CONV_OK;
        }
        break;
    case SMC_FL_INT:
        if (parse_int(hv, &iv)) {
            *out = api->value_new_int(iv);
            c = SMC_FL_CONV_OK;
        }
        break;
    case SMC_FL_FLOAT:
        if (parse_bits(hv, 16, &bits)) {
            double d;
            memcpy(&d, &bits, sizeof d);
            *out = api->value_new_float(d);
            c = SMC_FL_CONV_OK;
        }
        break;
    case SMC_FL_STRING:
        /* every byte is handed over: what the engine keeps of a U+0000 is its behaviour */
        if (is_text(hv)) {
            *out = api->value_new_string_sized(hv->text, hv->text_len);
            c = SMC_FL_CONV_OK;
        }
        break;
    case SMC_FL_UINT8_LIST:
        c = build_bytes(api, hv, out);
        break;
    case SMC_FL_FLOAT32_LIST:
        if (!api->value_new_float32_list) {
            return skip(why, why_size, "this engine has no FL_VALUE_TYPE_FLOAT32_LIST", NULL);
        }
        c = build_typed(api, type, hv, out);
        break;
    case SMC_FL_INT32_LIST:
    case SMC_FL_INT64_LIST:
    case SMC_FL_FLOAT_LIST:
        c = build_typed(api, type, hv, out);
        break;
    case SMC_FL_LIST:
        return build_list(api, hv, depth, out, why, why_size);
    case SMC_FL_MAP:
        return build_map(api, hv, depth, out, why, why_size);
    }
    if (c == SMC_FL_CONV_SKIP) {
        return skip(why, why_size, "the literal does not fit its type", hv->type);
    }
    return c;
}

smc_fl_conv_t smc_fl_host_build(const smc_fl_api_t *api, const smc_runner_host_value_t *hv,
                                smc_fl_value_t **out, char *why, size_t why_size)
{
    *out = NULL;
    return build(api, hv, 0, out, why, why_size);
}

/* ---- FlValue → host value ---- */

static bool set_text(smc_arena_t *arena, smc_runner_host_value_t *hv, const char *s, size_t n)
{
    char *p = smc_arena_alloc(arena, n ? n : 1);
    if (!p) {
        return false;
    }
    if (n) {
        memcpy(p, s, n);
    }
    hv->literal = SMC_RUNNER_LITERAL_TEXT;
    hv->text = p;
    hv->text_len = n;
    return true;
}

static bool set_int(smc_arena_t *arena, smc_runner_host_value_t *hv, int64_t v)
{
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%" PRId64, v);
    return set_text(arena, hv, buf, (size_t)n);
}

static bool set_bits(smc_arena_t *arena, smc_runner_host_value_t *hv, uint64_t bits, int digits)
{
    char buf[24];
    int n = snprintf(buf, sizeof buf, "%0*" PRIx64, digits, bits);
    return set_text(arena, hv, buf, (size_t)n);
}

static bool set_items(smc_arena_t *arena, smc_runner_host_value_t *hv, smc_runner_literal_t lit,
                      size_t count, size_t nodes)
{
    hv->literal = lit;
    hv->count = count;
    if (!nodes) {
        return true;
    }
    hv->items = smc_arena_alloc(arena, nodes * sizeof *hv->items);
    if (hv->items) {
        memset(hv->items, 0, nodes * sizeof *hv->items);
    }
    return hv->items != NULL;
}

/* A typed list's elements as bare texts (type NULL). */
static bool describe_typed(const smc_fl_api_t *api, smc_fl_value_t *v, int type, smc_arena_t *arena,
                           smc_runner_host_value_t *hv)
{
    size_t n = api->value_get_length(v);
    if (!set_items(arena, hv, SMC_RUNNER_LITERAL_ITEMS, n, n)) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        smc_runner_host_value_t *it = &hv->items[i];
        bool ok;
        uint64_t bits = 0;
        switch (type) {
        case SMC_FL_INT32_LIST:
            ok = set_int(arena, it, api->value_get_int32_list(v)[i]);
            break;
        case SMC_FL_INT64_LIST:
            ok = set_int(arena, it, api->value_get_int64_list(v)[i]);
            break;
        case SMC_FL_FLOAT_LIST:
            memcpy(&bits, api->value_get_float_list(v) + i, sizeof(double));
            ok = set_bits(arena, it, bits, 16);
            break;
        default: { /* SMC_FL_FLOAT32_LIST */
            uint32_t b32;
            memcpy(&b32, api->value_get_float32_list(v) + i, sizeof b32);
            ok = set_bits(arena, it, b32, 8);
            break;
        }
        }
        if (!ok) {
            return false;
        }
    }
    return true;
}

static bool describe_bytes(const smc_fl_api_t *api, smc_fl_value_t *v, smc_arena_t *arena,
                           smc_runner_host_value_t *hv)
{
    static const char k_hex[] = "0123456789abcdef";
    size_t n = api->value_get_length(v);
    const uint8_t *b = api->value_get_uint8_list(v);
    char *p = smc_arena_alloc(arena, n ? 2 * n : 1);
    if (!p) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        p[2 * i] = k_hex[b[i] >> 4];
        p[2 * i + 1] = k_hex[b[i] & 15];
    }
    hv->literal = SMC_RUNNER_LITERAL_TEXT;
    hv->text = p;
    hv->text_len = 2 * n;
    return true;
}

static smc_fl_conv_t describe(const smc_fl_api_t *api, smc_fl_value_t *v, unsigned depth,
                              smc_arena_t *arena, smc_runner_host_value_t *hv, char *why,
                              size_t why_size)
{
    if (depth > HOST_MAX_DEPTH) {
        return skip(why, why_size, "the decoded value nests deeper than the hook describes", NULL);
    }
    /* the engine's NULL FlValue (no arguments, no details) is its null */
    int type = v ? api->value_get_type(v) : SMC_FL_NULL;
    if (type < 0 || (size_t)type >= TYPE_COUNT || !k_type_names[type]) {
        snprintf(why, why_size, "FlValueType %d has no name in the glib vocabulary", type);
        return SMC_FL_CONV_SKIP;
    }
    memset(hv, 0, sizeof *hv);
    hv->type = k_type_names[type];
    bool ok = true;
    switch (type) {
    case SMC_FL_NULL:
        hv->literal = SMC_RUNNER_LITERAL_NULL;
        break;
    case SMC_FL_BOOL:
        hv->literal = SMC_RUNNER_LITERAL_BOOL;
        hv->boolean = api->value_get_bool(v);
        break;
    case SMC_FL_INT:
        ok = set_int(arena, hv, api->value_get_int(v));
        break;
    case SMC_FL_FLOAT: {
        double d = api->value_get_float(v);
        uint64_t bits;
        memcpy(&bits, &d, sizeof bits);
        ok = set_bits(arena, hv, bits, 16);
        break;
    }
    case SMC_FL_STRING: {
        const char *s = api->value_get_string(v);
        ok = set_text(arena, hv, s, strlen(s));
        break;
    }
    case SMC_FL_UINT8_LIST:
        ok = describe_bytes(api, v, arena, hv);
        break;
    case SMC_FL_INT32_LIST:
    case SMC_FL_INT64_LIST:
    case SMC_FL_FLOAT_LIST:
    case SMC_FL_FLOAT32_LIST:
        ok = describe_typed(api, v, type, arena, hv);
        break;
    case SMC_FL_LIST: {
        size_t n = api->value_get_length(v);
        ok = set_items(arena, hv, SMC_RUNNER_LITERAL_ITEMS, n, n);
        for (size_t i = 0; ok && i < n; i++) {
            smc_fl_conv_t c = describe(api, api->value_get_list_value(v, i), depth + 1, arena,
                                       &hv->items[i], why, why_size);
            if (c != SMC_FL_CONV_OK) {
                return c;
            }
        }
        break;
    }
    case SMC_FL_MAP: {
        size_t n = api->value_get_length(v);
        ok = set_items(arena, hv, SMC_RUNNER_LITERAL_PAIRS, n, 2 * n);
        for (size_t i = 0; ok && i < n; i++) {
            smc_fl_conv_t c = describe(api, api->value_get_map_key(v, i), depth + 1, arena,
                                       &hv->items[2 * i], why, why_size);
            if (c == SMC_FL_CONV_OK) {
                c = describe(api, api->value_get_map_value(v, i), depth + 1, arena,
                             &hv->items[2 * i + 1], why, why_size);
            }
            if (c != SMC_FL_CONV_OK) {
                return c;
            }
        }
        break;
    }
    }
    return ok ? SMC_FL_CONV_OK : SMC_FL_CONV_NOMEM;
}

smc_fl_conv_t smc_fl_host_describe(const smc_fl_api_t *api, smc_fl_value_t *v, smc_arena_t *arena,
                                   smc_runner_host_value_t **out, char *why, size_t why_size)
{
    smc_runner_host_value_t *hv = smc_arena_alloc(arena, sizeof *hv);
    if (!hv) {
        return SMC_FL_CONV_NOMEM;
    }
    smc_fl_conv_t c = describe(api, v, 0, arena, hv, why, why_size);
    if (c == SMC_FL_CONV_OK) {
        *out = hv;
    }
    return c;
}
