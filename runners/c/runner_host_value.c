/*
 * Host values (spec §17.1) as the host hook sees them. The literal's JSON shape decides the
 * node's shape: null, a boolean, a string, {"utf16": H} (a string of UTF-16 code units), or an
 * array whose elements are strings (a typed array's elements), host values (a list's) or
 * [key, value] pairs (a map's). Only that shape
 * is read here; whether a type name belongs to a vocabulary is the codec's hook's business.
 */
#include "runner_host_value.h"

#include <string.h>

/* Host values nest no deeper than this in any vector (and a codec's tree is refused past it). */
#define HOST_MAX_DEPTH 64

static const char *arena_cstr(smct_str_t s, smc_arena_t *arena)
{
    char *c = smc_arena_alloc(arena, s.len + 1);
    if (c) {
        memcpy(c, s.ptr, s.len);
        c[s.len] = '\0';
    }
    return c;
}

static bool read_node(const smct_json_t *json, smc_arena_t *arena, smc_runner_host_value_t *hv,
                      int depth);

static int hex_digit(char c)
{
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* {"utf16": H}, 4 lower-case hex digits per UTF-16 code unit (spec §17.1): the only object
 * literal, and the one way a lone surrogate reaches a hook, so the units are kept as they are. */
static bool read_utf16(const smct_json_t *x, smc_arena_t *arena, smc_runner_host_value_t *hv)
{
    const smct_json_t *h = smct_json_get(x, "utf16");
    if (x->object.count != 1 || !h || h->type != SMCT_JSON_STRING || h->str.len % 4 != 0) {
        return false;
    }
    uint16_t *units = smc_arena_alloc(arena, h->str.len / 2 + 1);
    if (!units) {
        return false;
    }
    for (size_t i = 0; i < h->str.len; i++) {
        int d = hex_digit(h->str.ptr[i]);
        if (d < 0) {
            return false;
        }
        units[i / 4] = (uint16_t)(i % 4 ? units[i / 4] << 4 | d : d);
    }
    hv->literal = SMC_RUNNER_LITERAL_UTF16;
    hv->units = units;
    hv->count = h->str.len / 4;
    return true;
}

/* One element of an array literal: a bare text, a host value, or (in a map) a pair. */
static bool read_element(const smct_json_t *e, smc_arena_t *arena, smc_runner_host_value_t *hv,
                         int depth)
{
    if (e->type == SMCT_JSON_STRING) {
        memset(hv, 0, sizeof *hv);
        hv->literal = SMC_RUNNER_LITERAL_TEXT;
        hv->text = arena_cstr(e->str, arena);
        hv->text_len = e->str.len;
        return hv->text != NULL;
    }
    return read_node(e, arena, hv, depth + 1);
}

static bool read_array(const smct_json_t *x, smc_arena_t *arena, smc_runner_host_value_t *hv,
                       int depth)
{
    size_t n = x->array.count;
    bool pairs = n > 0 && x->array.items[0].type == SMCT_JSON_ARRAY;
    hv->literal = pairs ? SMC_RUNNER_LITERAL_PAIRS : SMC_RUNNER_LITERAL_ITEMS;
    hv->count = n;
    hv->items = smc_arena_alloc(arena, (pairs ? 2 * n : n) * sizeof *hv->items + 1);
    if (!hv->items) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        const smct_json_t *e = &x->array.items[i];
        if (!pairs) {
            if (e->type == SMCT_JSON_ARRAY || !read_element(e, arena, &hv->items[i], depth)) {
                return false;
            }
        } else if (e->type != SMCT_JSON_ARRAY || e->array.count != 2 ||
                   !read_node(&e->array.items[0], arena, &hv->items[2 * i], depth + 1) ||
                   !read_node(&e->array.items[1], arena, &hv->items[2 * i + 1], depth + 1)) {
            return false;
        }
    }
    return true;
}

static bool read_node(const smct_json_t *json, smc_arena_t *arena, smc_runner_host_value_t *hv,
                      int depth)
{
    const smct_json_t *t = smct_json_get(json, "type");
    const smct_json_t *x = smct_json_get(json, "value");
    memset(hv, 0, sizeof *hv);
    if (depth > HOST_MAX_DEPTH || !t || t->type != SMCT_JSON_STRING || !x) {
        return false;
    }
    hv->type = arena_cstr(t->str, arena);
    if (!hv->type) {
        return false;
    }
    switch (x->type) {
    case SMCT_JSON_NULL:
        hv->literal = SMC_RUNNER_LITERAL_NULL;
        return true;
    case SMCT_JSON_TRUE:
    case SMCT_JSON_FALSE:
        hv->literal = SMC_RUNNER_LITERAL_BOOL;
        hv->boolean = x->type == SMCT_JSON_TRUE;
        return true;
    case SMCT_JSON_STRING:
        hv->literal = SMC_RUNNER_LITERAL_TEXT;
        hv->text = arena_cstr(x->str, arena);
        hv->text_len = x->str.len;
        return hv->text != NULL;
    case SMCT_JSON_ARRAY:
        return read_array(x, arena, hv, depth);
    case SMCT_JSON_OBJECT:
        return read_utf16(x, arena, hv);
    case SMCT_JSON_NUMBER:
        break;
    }
    return false; /* a number is no literal of spec §17.1 */
}

smc_runner_host_value_t *smc_runner_host_value_read(const smct_json_t *json, smc_arena_t *arena)
{
    smc_runner_host_value_t *hv = smc_arena_alloc(arena, sizeof *hv);
    return hv && read_node(json, arena, hv, 0) ? hv : NULL;
}

static bool write_node(smct_buf_t *out, const smc_runner_host_value_t *hv, int depth);

static bool write_literal(smct_buf_t *out, const smc_runner_host_value_t *hv, int depth)
{
    switch (hv->literal) {
    case SMC_RUNNER_LITERAL_NULL:
        smct_buf_puts(out, "null");
        return true;
    case SMC_RUNNER_LITERAL_BOOL:
        smct_buf_puts(out, hv->boolean ? "true" : "false");
        return true;
    case SMC_RUNNER_LITERAL_TEXT:
        smct_json_write_string(out, hv->text ? hv->text : "", hv->text ? hv->text_len : 0);
        return true;
    case SMC_RUNNER_LITERAL_UTF16:
        if (hv->count && !hv->units) {
            return false;
        }
        smct_buf_puts(out, "{\"utf16\":\"");
        for (size_t i = 0; i < hv->count; i++) {
            smct_buf_printf(out, "%04x", (unsigned)hv->units[i]);
        }
        smct_buf_puts(out, "\"}");
        return true;
    case SMC_RUNNER_LITERAL_ITEMS:
    case SMC_RUNNER_LITERAL_PAIRS:
        break;
    }
    bool pairs = hv->literal == SMC_RUNNER_LITERAL_PAIRS, ok = hv->count == 0 || hv->items;
    smct_buf_putc(out, '[');
    for (size_t i = 0; ok && i < hv->count; i++) {
        smct_buf_puts(out, i ? "," : "");
        if (pairs) {
            smct_buf_putc(out, '[');
            ok = write_node(out, &hv->items[2 * i], depth + 1);
            smct_buf_putc(out, ',');
            ok = ok && write_node(out, &hv->items[2 * i + 1], depth + 1);
            smct_buf_putc(out, ']');
        } else if (!hv->items[i].type) { /* a typed array's element */
            ok = hv->items[i].literal == SMC_RUNNER_LITERAL_TEXT &&
                 write_literal(out, &hv->items[i], depth);
        } else {
            ok = write_node(out, &hv->items[i], depth + 1);
        }
    }
    smct_buf_putc(out, ']');
    return ok;
}

static bool write_node(smct_buf_t *out, const smc_runner_host_value_t *hv, int depth)
{
    if (depth > HOST_MAX_DEPTH || !hv || !hv->type) {
        return false;
    }
    smct_buf_puts(out, "{\"type\":");
    smct_json_write_cstr(out, hv->type);
    smct_buf_puts(out, ",\"value\":");
    bool ok = write_literal(out, hv, depth);
    smct_buf_putc(out, '}');
    return ok;
}

bool smc_runner_host_value_write(smct_buf_t *out, const smc_runner_host_value_t *hv)
{
    return write_node(out, hv, 0);
}
