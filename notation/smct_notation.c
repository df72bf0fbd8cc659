/*
 * Value notation (spec/notation.md) reader and writer. Both walk trees with an explicit
 * heap stack, never recursion, because the CLI reads user input and the judge reads runner
 * output of any depth (notation.md N.4: JSON nesting).
 */
#include "smct_notation.h"

#include <stdlib.h>
#include <string.h>

#include "smct_hex.h"
#include "smct_utf8.h"

/* ======================================================================== reading == */

static smct_status_t bad(smct_error_t *err, size_t offset, const char *message)
{
    if (err != NULL) {
        err->status = SMCT_ERR_NOTATION;
        err->offset = offset;
        err->message = message;
    }
    return SMCT_ERR_NOTATION;
}

static smct_status_t out_of_memory(smct_error_t *err, size_t offset)
{
    if (err != NULL) {
        err->status = SMCT_ERR_NOMEM;
        err->offset = offset;
        err->message = "out of memory";
    }
    return SMCT_ERR_NOMEM;
}

/*
 * Check that `arr` is an array of exactly `want` elements (N.3: "Arrays have exactly the
 * elements shown"). Too few: the offset of the closing bracket; too many: the first extra.
 */
static smct_status_t want_count(const smct_json_t *arr, size_t want, const char *few,
                                const char *many, smct_error_t *err)
{
    if (arr->array.count < want) {
        return bad(err, arr->end - 1, few);
    }
    if (arr->array.count > want) {
        return bad(err, arr->array.items[want].offset, many);
    }
    return SMCT_OK;
}

/* Lower-case hex digit value, or -1 (upper case is rejected, N.4). */
static int lower_hex(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    return -1;
}

/* hex16 / hex8 (N.3): a string of exactly `digits` lower-case hex digits. */
static smct_status_t read_hex_bits(const smct_json_t *j, size_t digits, uint64_t *out,
                                   smct_error_t *err)
{
    if (j->type != SMCT_JSON_STRING) {
        return bad(err, j->offset,
                   digits == 16 ? "float64 bits must be a string of 16 lower-case hex digits"
                                : "float32 bits must be a string of 8 lower-case hex digits");
    }
    if (j->str.len != digits) {
        return bad(err, j->offset,
                   digits == 16 ? "float64 bits must be exactly 16 hex digits"
                                : "float32 bits must be exactly 8 hex digits");
    }
    uint64_t v = 0;
    for (size_t i = 0; i < digits; i++) {
        int d = lower_hex(j->str.ptr[i]);
        if (d < 0) {
            return bad(err, j->offset, "float bits: only lower-case hex digits 0-9a-f are allowed");
        }
        v = v << 4 | (uint64_t)d;
    }
    *out = v;
    return SMCT_OK;
}

/* dec64 (N.3): a JSON string matching -?(0|[1-9][0-9]*), in int64 range, not "-0". */
static smct_status_t read_dec64(const smct_json_t *j, int64_t *out, smct_error_t *err)
{
    if (j->type != SMCT_JSON_STRING) {
        return bad(err, j->offset, "int64 must be a decimal string, e.g. \"-5\"");
    }
    const char *s = j->str.ptr;
    size_t n = j->str.len;
    size_t i = 0;
    bool neg = false;
    if (i < n && s[i] == '-') {
        neg = true;
        i++;
    }
    if (i >= n) {
        return bad(err, j->offset, "int64 decimal string has no digits");
    }
    if (s[i] == '0' && n - i > 1) {
        return bad(err, j->offset, "int64 decimal string has a leading zero");
    }
    uint64_t m = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return bad(err, j->offset, "int64 decimal string may hold only '-' and digits");
        }
        unsigned d = (unsigned)(s[i] - '0');
        if (m > ((uint64_t)INT64_MAX + 1u - d) / 10u) {
            return bad(err, j->offset, "int64 out of range");
        }
        m = m * 10u + d;
    }
    if (neg && m == 0) {
        return bad(err, j->offset, "int64 \"-0\" is not canonical (write \"0\")");
    }
    if (!neg && m > (uint64_t)INT64_MAX) {
        return bad(err, j->offset, "int64 out of range");
    }
    *out = neg ? (m == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)m) : (int64_t)m;
    return SMCT_OK;
}

/* int32 (N.3): a JSON integer (no fraction, no exponent) in [-2^31, 2^31-1]. */
static smct_status_t read_int32(const smct_json_t *j, int32_t *out, smct_error_t *err)
{
    if (j->type != SMCT_JSON_NUMBER) {
        return bad(err, j->offset, "int32 must be a JSON number");
    }
    if (!smct_json_is_integer(j)) {
        return bad(err, j->offset, "int32 must be an integer without fraction or exponent");
    }
    if (!smct_json_get_i32(j, out)) {
        return bad(err, j->offset, "int32 out of range");
    }
    return SMCT_OK;
}

static void *arena_copy(smc_arena_t *arena, const void *src, size_t len)
{
    uint8_t *p = smc_arena_alloc(arena, len);
    if (p != NULL && len > 0) {
        memcpy(p, src, len);
    }
    return p;
}

/*
 * N.1 `strbytes`: ["strbytes", "H"], the kept bytes of a decoded string that is not UTF-8.
 * H is lower-case hex of at least one byte and must not be well-formed UTF-8 (that string
 * has the `str` form), so every string still has exactly one notation.
 */
static smct_status_t read_strbytes(const smct_json_t *j, smc_arena_t *arena, smc_bytes_t *out,
                                   smct_error_t *err)
{
    smct_status_t st = want_count(j, 2, "strbytes needs a hex string",
                                  "strbytes has exactly one element after the type word", err);
    if (st != SMCT_OK) {
        return st;
    }
    const smct_json_t *h = &j->array.items[1];
    if (h->type != SMCT_JSON_STRING || h->str.len == 0 || h->str.len % 2 != 0) {
        return bad(err, h->offset,
                   "strbytes bytes must be a non-empty string of lower-case hex digit pairs");
    }
    uint8_t *bytes = smc_arena_alloc(arena, h->str.len / 2);
    if (bytes == NULL) {
        return out_of_memory(err, h->offset);
    }
    if (smct_hex_decode_strict(h->str.ptr, h->str.len, bytes, NULL, NULL) != SMCT_OK) {
        return bad(err, h->offset, "strbytes: only lower-case hex digits 0-9a-f are allowed");
    }
    if (smct_utf8_valid(bytes, h->str.len / 2, NULL)) {
        return bad(err, h->offset, "strbytes holds well-formed UTF-8: write it as [\"str\", ...]");
    }
    out->ptr = bytes;
    out->len = h->str.len / 2;
    return SMCT_OK;
}

static void put_le(uint8_t *p, uint64_t v, size_t width)
{
    for (size_t i = 0; i < width; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}

/* Typed list element arrays: i32s, i64s, f64s, f32s → LE bytes in the arena. */
static smct_status_t read_typed_list(const smct_json_t *arr, smc_type_t type, smc_arena_t *arena,
                                     smc_value_t *slot, smct_error_t *err)
{
    if (arr->type != SMCT_JSON_ARRAY) {
        return bad(err, arr->offset, "typed list elements must be a JSON array");
    }
    size_t width = (type == SMC_TYPE_I32S || type == SMC_TYPE_F32S) ? 4 : 8;
    size_t count = arr->array.count;
    uint8_t *data = smc_arena_alloc(arena, count * width); /* count ≤ text length: no overflow */
    if (data == NULL) {
        return out_of_memory(err, arr->offset);
    }
    for (size_t i = 0; i < count; i++) {
        const smct_json_t *e = &arr->array.items[i];
        uint64_t bits = 0;
        smct_status_t st;
        if (type == SMC_TYPE_I32S) {
            int32_t v = 0;
            st = read_int32(e, &v, err);
            bits = (uint32_t)v;
        } else if (type == SMC_TYPE_I64S) {
            int64_t v = 0;
            st = read_dec64(e, &v, err);
            bits = (uint64_t)v;
        } else {
            st = read_hex_bits(e, type == SMC_TYPE_F64S ? 16 : 8, &bits, err);
        }
        if (st != SMCT_OK) {
            return st;
        }
        put_le(data + i * width, bits, width);
    }
    slot->type = type;
    slot->array.data = data;
    slot->array.count = count;
    return SMCT_OK;
}

/* Work item of the reader: a JSON value to convert into `slot`, or a map pair into slot[0..1]. */
typedef struct work {
    const smct_json_t *json;
    smc_value_t *slot;
    bool is_pair;
} work_t;

typedef struct work_stack {
    work_t *items;
    size_t n;
    size_t cap;
} work_stack_t;

static bool work_push(work_stack_t *s, const smct_json_t *json, smc_value_t *slot, bool is_pair)
{
    if (s->n == s->cap) {
        size_t cap = s->cap < 64 ? 64 : s->cap * 2;
        if (cap > SIZE_MAX / sizeof *s->items) {
            return false;
        }
        work_t *p = realloc(s->items, cap * sizeof *p);
        if (p == NULL) {
            return false;
        }
        s->items = p;
        s->cap = cap;
    }
    s->items[s->n++] = (work_t){json, slot, is_pair};
    return true;
}

typedef struct type_word {
    const char *word;
    smc_type_t type;
} type_word_t;

/* N.1: the type words and the wire types they name. */
static const type_word_t type_words[] = {
    {"null", SMC_TYPE_NULL}, {"bool", SMC_TYPE_BOOL},         {"i32", SMC_TYPE_I32},
    {"i64", SMC_TYPE_I64},   {"largeint", SMC_TYPE_LARGEINT}, {"f64", SMC_TYPE_F64},
    {"str", SMC_TYPE_STR},   {"u8s", SMC_TYPE_U8S},           {"i32s", SMC_TYPE_I32S},
    {"i64s", SMC_TYPE_I64S}, {"f64s", SMC_TYPE_F64S},         {"list", SMC_TYPE_LIST},
    {"map", SMC_TYPE_MAP},   {"f32s", SMC_TYPE_F32S},         {"custom", SMC_TYPE_CUSTOM},
};

static bool lookup_type_word(const smct_json_t *w, smc_type_t *out)
{
    for (size_t i = 0; i < sizeof type_words / sizeof type_words[0]; i++) {
        if (smct_json_is_str(w, type_words[i].word)) {
            *out = type_words[i].type;
            return true;
        }
    }
    return false;
}

/* Array of `count` null values in the arena (count ≤ text length: no overflow). */
static smc_value_t *new_values(smc_arena_t *arena, size_t count)
{
    smc_value_t *v = smc_arena_alloc(arena, count * sizeof *v);
    if (v != NULL && count > 0) {
        memset(v, 0, count * sizeof *v);
    }
    return v;
}

/* Convert one JSON node (not its children) into `slot`, pushing children as work. */
static smct_status_t read_one(const smct_json_t *j, smc_value_t *slot, smc_arena_t *arena,
                              work_stack_t *ws, smct_error_t *err)
{
    memset(slot, 0, sizeof *slot);
    if (j->type != SMCT_JSON_ARRAY) {
        return bad(err, j->offset, "a value must be a JSON array starting with a type word");
    }
    if (j->array.count == 0) {
        return bad(err, j->end - 1, "a value needs a type word, e.g. [\"null\"]");
    }
    const smct_json_t *w = &j->array.items[0];
    if (w->type != SMCT_JSON_STRING) {
        return bad(err, w->offset, "the type word must be a string");
    }
    if (smct_json_is_str(w, "strbytes")) {
        smct_status_t sb = read_strbytes(j, arena, &slot->bytes, err);
        if (sb == SMCT_OK) {
            slot->type = SMC_TYPE_STR;
        }
        return sb;
    }
    smc_type_t type;
    if (!lookup_type_word(w, &type)) {
        return bad(err, w->offset, "unknown type word");
    }
    const smct_json_t *a1 = j->array.count > 1 ? &j->array.items[1] : NULL;
    smct_status_t st;
    switch (type) {
    case SMC_TYPE_NULL:
        st = want_count(j, 1, "missing element", "[\"null\"] has no other elements", err);
        if (st == SMCT_OK) {
            slot->type = SMC_TYPE_NULL;
        }
        return st;
    case SMC_TYPE_BOOL:
        st = want_count(j, 2, "bool needs true or false",
                        "bool has exactly one element after the type word", err);
        if (st != SMCT_OK) {
            return st;
        }
        if (a1->type != SMCT_JSON_TRUE && a1->type != SMCT_JSON_FALSE) {
            return bad(err, a1->offset, "bool must be true or false");
        }
        slot->type = SMC_TYPE_BOOL;
        slot->boolean = a1->type == SMCT_JSON_TRUE;
        return SMCT_OK;
    case SMC_TYPE_I32:
        st = want_count(j, 2, "i32 needs a number",
                        "i32 has exactly one element after the type word", err);
        if (st == SMCT_OK) {
            st = read_int32(a1, &slot->i32, err);
        }
        if (st == SMCT_OK) {
            slot->type = SMC_TYPE_I32;
        }
        return st;
    case SMC_TYPE_I64:
        st = want_count(j, 2, "i64 needs a decimal string",
                        "i64 has exactly one element after the type word", err);
        if (st == SMCT_OK) {
            st = read_dec64(a1, &slot->i64, err);
        }
        if (st == SMCT_OK) {
            slot->type = SMC_TYPE_I64;
        }
        return st;
    case SMC_TYPE_F64:
        st = want_count(j, 2, "f64 needs 16 hex digits",
                        "f64 has exactly one element after the type word", err);
        if (st == SMCT_OK) {
            st = read_hex_bits(a1, 16, &slot->f64_bits, err);
        }
        if (st == SMCT_OK) {
            slot->type = SMC_TYPE_F64;
        }
        return st;
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_STR:
        st = want_count(j, 2, "a string element is missing",
                        "exactly one string follows the type word", err);
        if (st != SMCT_OK) {
            return st;
        }
        if (a1->type != SMCT_JSON_STRING) {
            return bad(err, a1->offset, "a JSON string is required here");
        }
        slot->bytes.ptr = arena_copy(arena, a1->str.ptr, a1->str.len);
        if (slot->bytes.ptr == NULL) {
            return out_of_memory(err, a1->offset);
        }
        slot->bytes.len = a1->str.len;
        slot->type = type;
        return SMCT_OK;
    case SMC_TYPE_U8S: {
        st = want_count(j, 2, "u8s needs a hex string",
                        "u8s has exactly one element after the type word", err);
        if (st != SMCT_OK) {
            return st;
        }
        if (a1->type != SMCT_JSON_STRING) {
            return bad(err, a1->offset, "u8s bytes must be a string of lower-case hex digits");
        }
        if (a1->str.len % 2 != 0) {
            return bad(err, a1->offset, "u8s hex must have an even number of digits");
        }
        uint8_t *bytes = smc_arena_alloc(arena, a1->str.len / 2);
        if (bytes == NULL) {
            return out_of_memory(err, a1->offset);
        }
        if (smct_hex_decode_strict(a1->str.ptr, a1->str.len, bytes, NULL, NULL) != SMCT_OK) {
            return bad(err, a1->offset, "u8s: only lower-case hex digits 0-9a-f are allowed");
        }
        slot->type = SMC_TYPE_U8S;
        slot->bytes.ptr = bytes;
        slot->bytes.len = a1->str.len / 2;
        return SMCT_OK;
    }
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        st = want_count(j, 2, "a typed list needs an array of elements",
                        "a typed list has exactly one array after the type word", err);
        if (st == SMCT_OK) {
            st = read_typed_list(a1, type, arena, slot, err);
        }
        return st;
    case SMC_TYPE_LIST: {
        st = want_count(j, 2, "list needs an array of values",
                        "list has exactly one array after the type word", err);
        if (st != SMCT_OK) {
            return st;
        }
        if (a1->type != SMCT_JSON_ARRAY) {
            return bad(err, a1->offset, "list elements must be a JSON array of values");
        }
        size_t count = a1->array.count;
        smc_value_t *items = new_values(arena, count);
        if (items == NULL) {
            return out_of_memory(err, a1->offset);
        }
        slot->type = SMC_TYPE_LIST;
        slot->list.items = items;
        slot->list.count = count;
        /* Pushed in reverse so children are read (and errors found) in text order. */
        for (size_t i = count; i-- > 0;) {
            if (!work_push(ws, &a1->array.items[i], &items[i], false)) {
                return out_of_memory(err, a1->offset);
            }
        }
        return SMCT_OK;
    }
    case SMC_TYPE_MAP: {
        st = want_count(j, 2, "map needs an array of [key, value] pairs",
                        "map has exactly one array after the type word", err);
        if (st != SMCT_OK) {
            return st;
        }
        if (a1->type != SMCT_JSON_ARRAY) {
            return bad(err, a1->offset, "map entries must be a JSON array of [key, value] pairs");
        }
        size_t count = a1->array.count;
        smc_value_t *entries = new_values(arena, 2 * count);
        if (entries == NULL) {
            return out_of_memory(err, a1->offset);
        }
        slot->type = SMC_TYPE_MAP;
        slot->map.entries = entries;
        slot->map.count = count;
        for (size_t i = count; i-- > 0;) {
            if (!work_push(ws, &a1->array.items[i], &entries[2 * i], true)) {
                return out_of_memory(err, a1->offset);
            }
        }
        return SMCT_OK;
    }
    case SMC_TYPE_CUSTOM: {
        st = want_count(j, 3, "custom needs a tag and a value",
                        "custom has exactly a tag and one value", err);
        if (st != SMCT_OK) {
            return st;
        }
        int32_t tag;
        if (a1->type != SMCT_JSON_NUMBER || !smct_json_is_integer(a1)) {
            return bad(err, a1->offset, "custom tag must be an integer 128..255");
        }
        if (!smct_json_get_i32(a1, &tag) || tag < 128 || tag > 255) {
            return bad(err, a1->offset, "custom tag out of range 128..255");
        }
        smc_value_t *payload = new_values(arena, 1);
        if (payload == NULL) {
            return out_of_memory(err, a1->offset);
        }
        slot->type = SMC_TYPE_CUSTOM;
        slot->custom_tag = (uint8_t)tag;
        slot->custom.payload = payload;
        if (!work_push(ws, &j->array.items[2], payload, false)) {
            return out_of_memory(err, a1->offset);
        }
        return SMCT_OK;
    }
    }
    return bad(err, w->offset, "unknown type word");
}

smct_status_t smct_notation_read_value(const smct_json_t *json, smc_arena_t *arena,
                                       smc_value_t **out, smct_error_t *err)
{
    if (out != NULL) {
        *out = NULL;
    }
    if (json == NULL || arena == NULL || out == NULL) {
        if (err != NULL) {
            err->status = SMCT_ERR_USAGE;
            err->offset = 0;
            err->message = "invalid arguments";
        }
        return SMCT_ERR_USAGE;
    }
    smc_value_t *root = new_values(arena, 1);
    if (root == NULL) {
        return out_of_memory(err, json->offset);
    }
    work_stack_t ws = {NULL, 0, 0};
    smct_status_t st = SMCT_OK;
    if (!work_push(&ws, json, root, false)) {
        st = out_of_memory(err, json->offset);
    }
    while (st == SMCT_OK && ws.n > 0) {
        work_t w = ws.items[--ws.n];
        if (!w.is_pair) {
            st = read_one(w.json, w.slot, arena, &ws, err);
            continue;
        }
        /* map pair = "[" value "," value "]" */
        if (w.json->type != SMCT_JSON_ARRAY) {
            st = bad(err, w.json->offset, "a map entry must be a [key, value] array");
            continue;
        }
        st = want_count(w.json, 2, "a map entry needs a key and a value",
                        "a map entry has exactly two elements", err);
        if (st == SMCT_OK && (!work_push(&ws, &w.json->array.items[1], &w.slot[1], false) ||
                              !work_push(&ws, &w.json->array.items[0], &w.slot[0], false))) {
            st = out_of_memory(err, w.json->offset);
        }
    }
    free(ws.items);
    if (st == SMCT_OK) {
        *out = root;
        if (err != NULL) {
            err->status = SMCT_OK;
            err->offset = 0;
            err->message = "ok";
        }
    }
    return st;
}

/* A string, a ["strbytes", H] array, or JSON null (N.2 MESSAGE / STACKTRACE). */
static smct_status_t read_opt_string(const smct_json_t *j, smc_arena_t *arena, bool *present,
                                     smc_bytes_t *out, const char *what, smct_error_t *err)
{
    if (j->type == SMCT_JSON_NULL) {
        *present = false;
        out->ptr = NULL;
        out->len = 0;
        return SMCT_OK;
    }
    if (j->type == SMCT_JSON_ARRAY && j->array.count > 0 &&
        smct_json_is_str(&j->array.items[0], "strbytes")) {
        *present = true;
        return read_strbytes(j, arena, out, err);
    }
    if (j->type != SMCT_JSON_STRING) {
        return bad(err, j->offset, what);
    }
    out->ptr = arena_copy(arena, j->str.ptr, j->str.len);
    if (out->ptr == NULL) {
        return out_of_memory(err, j->offset);
    }
    out->len = j->str.len;
    *present = true;
    return SMCT_OK;
}

static smct_status_t read_string(const smct_json_t *j, smc_arena_t *arena, smc_bytes_t *out,
                                 const char *what, smct_error_t *err)
{
    bool present = false;
    if (j->type == SMCT_JSON_NULL) {
        return bad(err, j->offset, what);
    }
    return read_opt_string(j, arena, &present, out, what, err);
}

static smct_status_t read_call(const smct_json_t *j, smc_arena_t *arena, smc_method_call_t *call,
                               smct_error_t *err)
{
    smct_status_t st = want_count(j, 3, "call needs a name and an arguments value",
                                  "call has exactly a name and one arguments value", err);
    if (st == SMCT_OK) {
        st = read_string(&j->array.items[1], arena, &call->name, "method name must be a string",
                         err);
    }
    if (st == SMCT_OK) {
        st = smct_notation_read_value(&j->array.items[2], arena, &call->args, err);
    }
    return st;
}

static smct_status_t read_envelope(const smct_json_t *j, smc_arena_t *arena, smc_envelope_t *env,
                                   smct_error_t *err)
{
    const smct_json_t *w = &j->array.items[0];
    smct_status_t st;
    if (smct_json_is_str(w, "success")) {
        st = want_count(j, 2, "success needs a result value",
                        "success has exactly one result value", err);
        if (st == SMCT_OK) {
            env->is_error = false;
            st = smct_notation_read_value(&j->array.items[1], arena, &env->result, err);
        }
        return st;
    }
    /* error = "error", CODE, MESSAGE|null, DETAILS [, STACKTRACE|null] */
    if (j->array.count < 4) {
        return bad(err, j->end - 1, "error needs a code, a message (or null) and details");
    }
    if (j->array.count > 5) {
        return bad(err, j->array.items[5].offset,
                   "error has at most code, message, details and stacktrace");
    }
    env->is_error = true;
    st = read_string(&j->array.items[1], arena, &env->code, "error code must be a string", err);
    if (st == SMCT_OK) {
        st = read_opt_string(&j->array.items[2], arena, &env->has_message, &env->message,
                             "error message must be a string or null", err);
    }
    if (st == SMCT_OK) {
        st = smct_notation_read_value(&j->array.items[3], arena, &env->details, err);
    }
    if (st == SMCT_OK) {
        env->stacktrace_state = SMC_STACKTRACE_ABSENT;
        if (j->array.count == 5) {
            bool present = false;
            st = read_opt_string(&j->array.items[4], arena, &present, &env->stacktrace,
                                 "stacktrace must be a string or null", err);
            if (st == SMCT_OK) {
                env->stacktrace_state = present ? SMC_STACKTRACE_STRING : SMC_STACKTRACE_NULL;
            }
        }
    }
    return st;
}

smct_entry_t smct_notation_guess_entry(const smct_json_t *json)
{
    const smct_json_t *w = smct_json_at(json, 0);
    if (smct_json_is_str(w, "call")) {
        return SMCT_ENTRY_CALL;
    }
    if (smct_json_is_str(w, "success") || smct_json_is_str(w, "error")) {
        return SMCT_ENTRY_ENVELOPE;
    }
    return SMCT_ENTRY_MESSAGE;
}

smct_status_t smct_notation_read(const smct_json_t *json, smct_entry_t entry, smc_arena_t *arena,
                                 smct_doc_t *out, smct_error_t *err)
{
    if (json == NULL || arena == NULL || out == NULL) {
        if (err != NULL) {
            err->status = SMCT_ERR_USAGE;
            err->offset = 0;
            err->message = "invalid arguments";
        }
        return SMCT_ERR_USAGE;
    }
    memset(out, 0, sizeof *out);
    out->entry = entry;
    if (entry == SMCT_ENTRY_MESSAGE) {
        return smct_notation_read_value(json, arena, &out->value, err);
    }
    if (entry != SMCT_ENTRY_CALL && entry != SMCT_ENTRY_ENVELOPE) {
        if (err != NULL) {
            err->status = SMCT_ERR_USAGE;
            err->offset = 0;
            err->message = "unknown entry point";
        }
        return SMCT_ERR_USAGE;
    }
    if (json->type != SMCT_JSON_ARRAY) {
        return bad(err, json->offset,
                   entry == SMCT_ENTRY_CALL
                       ? "a method call must be a JSON array [\"call\", NAME, V]"
                       : "an envelope must be a JSON array [\"success\", V] or [\"error\", ...]");
    }
    if (json->array.count == 0) {
        return bad(err, json->end - 1, "missing form word");
    }
    const smct_json_t *w = &json->array.items[0];
    smct_status_t st;
    if (entry == SMCT_ENTRY_CALL) {
        if (!smct_json_is_str(w, "call")) {
            return bad(err, w->offset, "a method call starts with \"call\"");
        }
        st = read_call(json, arena, &out->call, err);
    } else {
        if (!smct_json_is_str(w, "success") && !smct_json_is_str(w, "error")) {
            return bad(err, w->offset, "an envelope starts with \"success\" or \"error\"");
        }
        st = read_envelope(json, arena, &out->envelope, err);
    }
    if (st == SMCT_OK && err != NULL) {
        err->status = SMCT_OK;
        err->offset = 0;
        err->message = "ok";
    }
    return st;
}

smct_status_t smct_notation_parse(const char *text, size_t len, smct_entry_t entry,
                                  smc_arena_t *arena, smct_doc_t *out, smct_error_t *err)
{
    smct_json_t *json;
    smct_status_t st = smct_json_parse(text, len, NULL, arena, &json, err);
    if (st != SMCT_OK) {
        if (out != NULL) {
            memset(out, 0, sizeof *out);
            out->entry = entry;
        }
        return st;
    }
    return smct_notation_read(json, entry, arena, out, err);
}

smct_status_t smct_notation_parse_value(const char *text, size_t len, smc_arena_t *arena,
                                        smc_value_t **out, smct_error_t *err)
{
    smct_json_t *json;
    if (out != NULL) {
        *out = NULL;
    }
    smct_status_t st = smct_json_parse(text, len, NULL, arena, &json, err);
    if (st != SMCT_OK) {
        return st;
    }
    return smct_notation_read_value(json, arena, out, err);
}

/* ======================================================================== writing == */

typedef enum action_kind { ACT_VALUE, ACT_TEXT, ACT_NEWLINE } action_kind_t;

typedef struct action {
    action_kind_t kind;
    const smc_value_t *value; /* ACT_VALUE */
    const char *text;         /* ACT_TEXT */
    size_t depth;             /* ACT_VALUE: nesting level; ACT_NEWLINE: indent level */
} action_t;

typedef struct writer {
    smct_buf_t *b;
    bool pretty;
    action_t *stack;
    size_t n;
    size_t cap;
    smct_error_t *err;
} writer_t;

static smct_status_t no_notation(writer_t *w, const char *message)
{
    if (w->err != NULL) {
        w->err->status = SMCT_ERR_NO_NOTATION;
        w->err->offset = 0;
        w->err->message = message;
    }
    return SMCT_ERR_NO_NOTATION;
}

static bool push_action(writer_t *w, action_kind_t kind, const smc_value_t *v, const char *text,
                        size_t depth)
{
    if (w->n == w->cap) {
        size_t cap = w->cap < 64 ? 64 : w->cap * 2;
        if (cap > SIZE_MAX / sizeof *w->stack) {
            return false;
        }
        action_t *p = realloc(w->stack, cap * sizeof *p);
        if (p == NULL) {
            return false;
        }
        w->stack = p;
        w->cap = cap;
    }
    w->stack[w->n++] = (action_t){kind, v, text, depth};
    return true;
}

static const char *sep(const writer_t *w)
{
    return w->pretty ? ", " : ",";
}

static void put_head(writer_t *w, const char *word)
{
    smct_buf_puts(w->b, "[\"");
    smct_buf_puts(w->b, word);
    smct_buf_putc(w->b, '"');
}

static void put_hex_bits(smct_buf_t *b, uint64_t bits, int digits)
{
    static const char hex[] = "0123456789abcdef";
    char s[18];
    s[0] = '"';
    for (int i = 0; i < digits; i++) {
        s[1 + i] = hex[(bits >> (4 * (digits - 1 - i))) & 0x0f];
    }
    s[digits + 1] = '"';
    smct_buf_append(b, s, (size_t)digits + 2);
}

static void put_typed_list(writer_t *w, const smc_value_t *v)
{
    put_head(w, smc_type_name(v->type));
    smct_buf_puts(w->b, sep(w));
    smct_buf_putc(w->b, '[');
    for (size_t i = 0; i < v->array.count; i++) {
        if (i > 0) {
            smct_buf_puts(w->b, sep(w));
        }
        if (v->type == SMC_TYPE_I32S) {
            smct_buf_put_i64(w->b, smc_i32s_at(&v->array, i));
        } else if (v->type == SMC_TYPE_I64S) {
            smct_buf_putc(w->b, '"');
            smct_buf_put_i64(w->b, smc_i64s_at(&v->array, i));
            smct_buf_putc(w->b, '"');
        } else if (v->type == SMC_TYPE_F64S) {
            put_hex_bits(w->b, smc_f64s_bits_at(&v->array, i), 16);
        } else {
            put_hex_bits(w->b, smc_f32s_bits_at(&v->array, i), 8);
        }
    }
    smct_buf_puts(w->b, "]]");
}

/* Pretty indentation stops growing here, so deep values stay linear in size. */
#define PRETTY_MAX_INDENT 32u

static void put_newline(writer_t *w, size_t depth)
{
    smct_buf_putc(w->b, '\n');
    for (size_t i = 0; i < depth && i < PRETTY_MAX_INDENT; i++) {
        smct_buf_puts(w->b, "  ");
    }
}

/* Write one value: scalars entirely; containers their head, pushing the rest as actions. */
static smct_status_t write_one(writer_t *w, const smc_value_t *v, size_t depth)
{
    smct_buf_t *b = w->b;
    if (v == NULL) {
        return no_notation(w, "missing value (NULL)");
    }
    switch (v->type) {
    case SMC_TYPE_NULL:
        smct_buf_puts(b, "[\"null\"]");
        return SMCT_OK;
    case SMC_TYPE_BOOL:
        put_head(w, "bool");
        smct_buf_puts(b, sep(w));
        smct_buf_puts(b, v->boolean ? "true]" : "false]");
        return SMCT_OK;
    case SMC_TYPE_I32:
        put_head(w, "i32");
        smct_buf_puts(b, sep(w));
        smct_buf_put_i64(b, v->i32);
        smct_buf_putc(b, ']');
        return SMCT_OK;
    case SMC_TYPE_I64:
        put_head(w, "i64");
        smct_buf_puts(b, sep(w));
        smct_buf_putc(b, '"');
        smct_buf_put_i64(b, v->i64);
        smct_buf_puts(b, "\"]");
        return SMCT_OK;
    case SMC_TYPE_F64:
        put_head(w, "f64");
        smct_buf_puts(b, sep(w));
        put_hex_bits(b, v->f64_bits, 16);
        smct_buf_putc(b, ']');
        return SMCT_OK;
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_STR:
        if (!smct_utf8_valid(v->bytes.ptr, v->bytes.len, NULL)) {
            if (v->type == SMC_TYPE_LARGEINT) {
                return no_notation(w, "largeInt text is not valid UTF-8 and has no notation");
            }
            put_head(w, "strbytes"); /* N.1: a string kept as raw bytes */
            smct_buf_puts(b, sep(w));
            smct_buf_putc(b, '"');
            smct_buf_put_hex(b, v->bytes.ptr, v->bytes.len);
            smct_buf_puts(b, "\"]");
            return SMCT_OK;
        }
        put_head(w, v->type == SMC_TYPE_STR ? "str" : "largeint");
        smct_buf_puts(b, sep(w));
        smct_json_write_string(b, v->bytes.ptr, v->bytes.len);
        smct_buf_putc(b, ']');
        return SMCT_OK;
    case SMC_TYPE_U8S:
        put_head(w, "u8s");
        smct_buf_puts(b, sep(w));
        smct_buf_putc(b, '"');
        smct_buf_put_hex(b, v->bytes.ptr, v->bytes.len);
        smct_buf_puts(b, "\"]");
        return SMCT_OK;
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        put_typed_list(w, v);
        return SMCT_OK;
    case SMC_TYPE_LIST:
    case SMC_TYPE_MAP: {
        bool is_map = v->type == SMC_TYPE_MAP;
        size_t count = is_map ? v->map.count : v->list.count;
        put_head(w, is_map ? "map" : "list");
        smct_buf_puts(b, sep(w));
        smct_buf_putc(b, '[');
        if (count == 0) {
            smct_buf_puts(b, "]]");
            return SMCT_OK;
        }
        /* Actions are popped last-in first-out, so push the tail of the text first. */
        bool ok = push_action(w, ACT_TEXT, NULL, "]]", 0);
        if (w->pretty) {
            ok = ok && push_action(w, ACT_NEWLINE, NULL, NULL, depth);
        }
        for (size_t i = count; ok && i-- > 0;) {
            if (is_map) {
                ok = push_action(w, ACT_TEXT, NULL, "]", 0) &&
                     push_action(w, ACT_VALUE, &v->map.entries[2 * i + 1], NULL, depth + 1) &&
                     push_action(w, ACT_TEXT, NULL, sep(w), 0) &&
                     push_action(w, ACT_VALUE, &v->map.entries[2 * i], NULL, depth + 1) &&
                     push_action(w, ACT_TEXT, NULL, "[", 0);
            } else {
                ok = push_action(w, ACT_VALUE, &v->list.items[i], NULL, depth + 1);
            }
            if (ok && w->pretty) {
                ok = push_action(w, ACT_NEWLINE, NULL, NULL, depth + 1);
            }
            if (ok && i > 0) {
                ok = push_action(w, ACT_TEXT, NULL, ",", 0);
            }
        }
        if (!ok) {
            b->failed = true;
        }
        return SMCT_OK;
    }
    case SMC_TYPE_CUSTOM:
        if (v->custom_tag < 128) {
            return no_notation(w, "custom tag outside 128..255");
        }
        put_head(w, "custom");
        smct_buf_puts(b, sep(w));
        smct_buf_put_u64(b, v->custom_tag);
        smct_buf_puts(b, sep(w));
        if (!push_action(w, ACT_TEXT, NULL, "]", 0) ||
            !push_action(w, ACT_VALUE, v->custom.payload, NULL, depth + 1)) {
            b->failed = true;
        }
        return SMCT_OK;
    }
    return no_notation(w, "unknown value type");
}

static smct_status_t write_tree(smct_buf_t *b, const smc_value_t *v, unsigned flags,
                                smct_error_t *err)
{
    writer_t w = {b, (flags & SMCT_NOTATION_PRETTY) != 0, NULL, 0, 0, err};
    smct_status_t st = SMCT_OK;
    if (!push_action(&w, ACT_VALUE, v, NULL, 0)) {
        b->failed = true;
    }
    while (st == SMCT_OK && w.n > 0 && smct_buf_ok(b)) {
        action_t a = w.stack[--w.n];
        switch (a.kind) {
        case ACT_VALUE:
            st = write_one(&w, a.value, a.depth);
            break;
        case ACT_TEXT:
            smct_buf_puts(b, a.text);
            break;
        case ACT_NEWLINE:
            put_newline(&w, a.depth);
            break;
        }
    }
    free(w.stack);
    if (st == SMCT_OK && !smct_buf_ok(b)) {
        if (err != NULL) {
            err->status = SMCT_ERR_NOMEM;
            err->offset = 0;
            err->message = "out of memory";
        }
        return SMCT_ERR_NOMEM;
    }
    return st;
}

static smct_status_t usage(smct_error_t *err)
{
    if (err != NULL) {
        err->status = SMCT_ERR_USAGE;
        err->offset = 0;
        err->message = "invalid arguments";
    }
    return SMCT_ERR_USAGE;
}

static smct_status_t finish(smct_buf_t *b, smct_status_t st, smct_error_t *err)
{
    if (st == SMCT_OK && !smct_buf_ok(b)) {
        if (err != NULL) {
            err->status = SMCT_ERR_NOMEM;
            err->offset = 0;
            err->message = "out of memory";
        }
        return SMCT_ERR_NOMEM;
    }
    if (st == SMCT_OK && err != NULL) {
        err->status = SMCT_OK;
        err->offset = 0;
        err->message = "ok";
    }
    return st;
}

smct_status_t smct_notation_write_value(smct_buf_t *b, const smc_value_t *v, unsigned flags,
                                        smct_error_t *err)
{
    if (b == NULL || v == NULL) {
        return usage(err);
    }
    return finish(b, write_tree(b, v, flags, err), err);
}

/* A name, code, message or stacktrace: a JSON string, or ["strbytes","H"] if not UTF-8 (N.2). */
static smct_status_t put_text(smct_buf_t *b, smc_bytes_t s, smct_error_t *err)
{
    (void)err;
    if (!smct_utf8_valid(s.ptr, s.len, NULL)) {
        smct_buf_puts(b, "[\"strbytes\",\"");
        smct_buf_put_hex(b, s.ptr, s.len);
        smct_buf_puts(b, "\"]");
        return SMCT_OK;
    }
    smct_json_write_string(b, s.ptr, s.len);
    return SMCT_OK;
}

/* Values that may be NULL on the encode side mean null (smc_envelope.h). */
static const smc_value_t *or_null(const smc_value_t *v)
{
    static const smc_value_t null_value = {.type = SMC_TYPE_NULL};
    return v != NULL ? v : &null_value;
}

smct_status_t smct_notation_write_call(smct_buf_t *b, const smc_method_call_t *call, unsigned flags,
                                       smct_error_t *err)
{
    if (b == NULL || call == NULL) {
        return usage(err);
    }
    const char *s = (flags & SMCT_NOTATION_PRETTY) ? ", " : ",";
    smct_buf_puts(b, "[\"call\"");
    smct_buf_puts(b, s);
    smct_status_t st = put_text(b, call->name, err);
    if (st == SMCT_OK) {
        smct_buf_puts(b, s);
        st = write_tree(b, or_null(call->args), flags, err);
    }
    smct_buf_putc(b, ']');
    return finish(b, st, err);
}

smct_status_t smct_notation_write_envelope(smct_buf_t *b, const smc_envelope_t *env, unsigned flags,
                                           smct_error_t *err)
{
    if (b == NULL || env == NULL) {
        return usage(err);
    }
    const char *s = (flags & SMCT_NOTATION_PRETTY) ? ", " : ",";
    smct_status_t st = SMCT_OK;
    if (!env->is_error) {
        smct_buf_puts(b, "[\"success\"");
        smct_buf_puts(b, s);
        st = write_tree(b, or_null(env->result), flags, err);
        smct_buf_putc(b, ']');
        return finish(b, st, err);
    }
    if (env->stacktrace_state != SMC_STACKTRACE_ABSENT &&
        env->stacktrace_state != SMC_STACKTRACE_NULL &&
        env->stacktrace_state != SMC_STACKTRACE_STRING) {
        return usage(err);
    }
    smct_buf_puts(b, "[\"error\"");
    smct_buf_puts(b, s);
    st = put_text(b, env->code, err);
    if (st == SMCT_OK) {
        smct_buf_puts(b, s);
        if (env->has_message) {
            st = put_text(b, env->message, err);
        } else {
            smct_buf_puts(b, "null");
        }
    }
    if (st == SMCT_OK) {
        smct_buf_puts(b, s);
        st = write_tree(b, or_null(env->details), flags, err);
    }
    if (st == SMCT_OK && env->stacktrace_state != SMC_STACKTRACE_ABSENT) {
        smct_buf_puts(b, s);
        if (env->stacktrace_state == SMC_STACKTRACE_STRING) {
            st = put_text(b, env->stacktrace, err);
        } else {
            smct_buf_puts(b, "null");
        }
    }
    smct_buf_putc(b, ']');
    return finish(b, st, err);
}

smct_status_t smct_notation_write(smct_buf_t *b, const smct_doc_t *doc, unsigned flags,
                                  smct_error_t *err)
{
    if (b == NULL || doc == NULL) {
        return usage(err);
    }
    switch (doc->entry) {
    case SMCT_ENTRY_MESSAGE:
        return smct_notation_write_value(b, doc->value, flags, err);
    case SMCT_ENTRY_CALL:
        return smct_notation_write_call(b, &doc->call, flags, err);
    case SMCT_ENTRY_ENVELOPE:
        return smct_notation_write_envelope(b, &doc->envelope, flags, err);
    }
    return usage(err);
}
