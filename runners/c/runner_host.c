/*
 * The `c` host vocabulary (spec §17.8): one host type per smc_type_t, so a host value and a
 * notation value are two spellings of one tree. The literal forms differ only where the
 * notation uses JSON numbers (an int32 and the elements of an Int32List), which a host value
 * writes as decimal strings like every other integer (spec §17.1).
 */
#include "runner_host.h"

#include <string.h>

/* Host values nest no deeper than this in any vector. */
#define HOST_MAX_DEPTH 64

static const struct {
    const char *host;
    const char *word;
} k_types[] = {
    {"SMC_TYPE_NULL", "null"}, {"SMC_TYPE_BOOL", "bool"},        {"SMC_TYPE_I32", "i32"},
    {"SMC_TYPE_I64", "i64"},   {"SMC_TYPE_F64", "f64"},          {"SMC_TYPE_STR", "str"},
    {"SMC_TYPE_U8S", "u8s"},   {"SMC_TYPE_I32S", "i32s"},        {"SMC_TYPE_I64S", "i64s"},
    {"SMC_TYPE_F64S", "f64s"}, {"SMC_TYPE_F32S", "f32s"},        {"SMC_TYPE_LIST", "list"},
    {"SMC_TYPE_MAP", "map"},   {"SMC_TYPE_LARGEINT", "largeint"}};
#define N_TYPES (sizeof k_types / sizeof k_types[0])

static bool str_is(smct_str_t s, const char *c)
{
    return s.len == strlen(c) && memcmp(s.ptr, c, s.len) == 0;
}

/* A decimal string as a JSON number (its digits are checked by the notation reader). */
static bool put_number_of(const smct_json_t *x, smct_buf_t *out)
{
    if (!x || x->type != SMCT_JSON_STRING || x->str.len == 0) {
        return false;
    }
    for (size_t i = 0; i < x->str.len; i++) {
        char ch = x->str.ptr[i];
        if (!(ch == '-' && i == 0) && (ch < '0' || ch > '9')) {
            return false;
        }
    }
    smct_buf_append(out, x->str.ptr, x->str.len);
    return true;
}

static bool to_notation(const smct_json_t *hv, smct_buf_t *out, int depth);

static bool items_to_notation(const smct_json_t *x, const char *word, smct_buf_t *out, int depth)
{
    if (!x || x->type != SMCT_JSON_ARRAY) {
        return false;
    }
    bool ok = true;
    smct_buf_putc(out, '[');
    for (size_t i = 0; ok && i < x->array.count; i++) {
        const smct_json_t *e = &x->array.items[i];
        if (i) {
            smct_buf_putc(out, ',');
        }
        if (strcmp(word, "i32s") == 0) {
            ok = put_number_of(e, out);
        } else if (strcmp(word, "list") == 0) {
            ok = to_notation(e, out, depth + 1);
        } else if (strcmp(word, "map") == 0) {
            ok = e->type == SMCT_JSON_ARRAY && e->array.count == 2;
            smct_buf_putc(out, '[');
            ok = ok && to_notation(&e->array.items[0], out, depth + 1);
            smct_buf_putc(out, ',');
            ok = ok && to_notation(&e->array.items[1], out, depth + 1);
            smct_buf_putc(out, ']');
        } else {
            smct_json_write(out, e);
        }
    }
    smct_buf_putc(out, ']');
    return ok;
}

static bool to_notation(const smct_json_t *hv, smct_buf_t *out, int depth)
{
    const smct_json_t *t = smct_json_get(hv, "type");
    const smct_json_t *x = smct_json_get(hv, "value");
    if (depth > HOST_MAX_DEPTH || !t || t->type != SMCT_JSON_STRING || !x) {
        return false;
    }
    for (size_t k = 0; k < N_TYPES; k++) {
        if (!str_is(t->str, k_types[k].host)) {
            continue;
        }
        const char *w = k_types[k].word;
        smct_buf_printf(out, "[\"%s\"", w);
        bool ok = true;
        if (strcmp(w, "null") != 0) {
            smct_buf_putc(out, ',');
            if (strcmp(w, "i32") == 0) {
                ok = put_number_of(x, out);
            } else if (x->type == SMCT_JSON_ARRAY) {
                ok = items_to_notation(x, w, out, depth);
            } else {
                smct_json_write(out, x);
            }
        }
        smct_buf_putc(out, ']');
        return ok;
    }
    return false;
}

bool smc_runner_host_to_notation(const smct_json_t *hv, smct_buf_t *out)
{
    return to_notation(hv, out, 0);
}

static bool to_host(const smct_json_t *nv, smct_buf_t *out, int depth);

static bool put_host_literal(const smct_json_t *x, const char *word, smct_buf_t *out, int depth)
{
    if (x->type == SMCT_JSON_NUMBER) { /* an int32 */
        smct_json_write_string(out, x->number.ptr, x->number.len);
        return true;
    }
    if (x->type != SMCT_JSON_ARRAY) {
        smct_json_write(out, x);
        return true;
    }
    bool ok = true;
    smct_buf_putc(out, '[');
    for (size_t i = 0; ok && i < x->array.count; i++) {
        const smct_json_t *e = &x->array.items[i];
        if (i) {
            smct_buf_putc(out, ',');
        }
        if (strcmp(word, "list") == 0) {
            ok = to_host(e, out, depth + 1);
        } else if (strcmp(word, "map") == 0) {
            ok = e->type == SMCT_JSON_ARRAY && e->array.count == 2;
            smct_buf_putc(out, '[');
            ok = ok && to_host(&e->array.items[0], out, depth + 1);
            smct_buf_putc(out, ',');
            ok = ok && to_host(&e->array.items[1], out, depth + 1);
            smct_buf_putc(out, ']');
        } else if (e->type == SMCT_JSON_NUMBER) {
            smct_json_write_string(out, e->number.ptr, e->number.len);
        } else {
            smct_json_write(out, e);
        }
    }
    smct_buf_putc(out, ']');
    return ok;
}

static bool to_host(const smct_json_t *nv, smct_buf_t *out, int depth)
{
    const smct_json_t *w = smct_json_at(nv, 0);
    if (depth > HOST_MAX_DEPTH || !w || w->type != SMCT_JSON_STRING) {
        return false;
    }
    for (size_t k = 0; k < N_TYPES; k++) {
        if (!str_is(w->str, k_types[k].word)) {
            continue;
        }
        smct_buf_puts(out, "{\"type\":");
        smct_json_write_cstr(out, k_types[k].host);
        smct_buf_puts(out, ",\"value\":");
        const smct_json_t *x = smct_json_at(nv, 1);
        bool ok = true;
        if (x) {
            ok = put_host_literal(x, k_types[k].word, out, depth);
        } else {
            smct_buf_puts(out, "null");
        }
        smct_buf_putc(out, '}');
        return ok;
    }
    return false; /* strbytes, custom: no c host type in the table */
}

bool smc_runner_notation_to_host(const smct_json_t *nv, smct_buf_t *out)
{
    return to_host(nv, out, 0);
}
