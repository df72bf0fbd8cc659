/*
 * Value notation reader (spec/notation.md N.1, N.3, N.4): a parsed JSON tree to an smc_value_t
 * tree. It walks the JSON with an explicit heap stack, never recursion, because the CLI reads
 * user input and the judge reads runner output of any depth (N.4: JSON nesting). Everything
 * N.4 rejects is an SMCT_ERR_NOTATION at the offset of the offending JSON value.
 */
#include <stdlib.h>
#include <string.h>

#include "smct_hex.h"
#include "smct_notation_internal.h"
#include "smct_utf8.h"

/* hex16 / hex8 (N.3): a string of exactly `digits` lower-case hex digits. */
static smct_status_t read_hex_bits(const smct_json_t *j, size_t digits, uint64_t *out,
                                   smct_error_t *err)
{
    if (j->type != SMCT_JSON_STRING) {
        return smct_notation_bad(err, j->offset,
                                 digits == 16
                                     ? "float64 bits must be a string of 16 lower-case hex digits"
                                     : "float32 bits must be a string of 8 lower-case hex digits");
    }
    if (j->str.len != digits) {
        return smct_notation_bad(err, j->offset,
                                 digits == 16 ? "float64 bits must be exactly 16 hex digits"
                                              : "float32 bits must be exactly 8 hex digits");
    }
    uint64_t v = 0;
    for (size_t i = 0; i < digits; i++) {
        int d = smct_hex_lower_digit(j->str.ptr[i]); /* N.4: no upper case */
        if (d < 0) {
            return smct_notation_bad(err, j->offset,
                                     "float bits: only lower-case hex digits 0-9a-f are allowed");
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
        return smct_notation_bad(err, j->offset, "int64 must be a decimal string, e.g. \"-5\"");
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
        return smct_notation_bad(err, j->offset, "int64 decimal string has no digits");
    }
    if (s[i] == '0' && n - i > 1) {
        return smct_notation_bad(err, j->offset, "int64 decimal string has a leading zero");
    }
    uint64_t m = 0;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') {
            return smct_notation_bad(err, j->offset,
                                     "int64 decimal string may hold only '-' and digits");
        }
        unsigned d = (unsigned)(s[i] - '0');
        if (m > ((uint64_t)INT64_MAX + 1u - d) / 10u) {
            return smct_notation_bad(err, j->offset, "int64 out of range");
        }
        m = m * 10u + d;
    }
    if (neg && m == 0) {
        return smct_notation_bad(err, j->offset, "int64 \"-0\" is not canonical (write \"0\")");
    }
    if (!neg && m > (uint64_t)INT64_MAX) {
        return smct_notation_bad(err, j->offset, "int64 out of range");
    }
    *out = neg ? (m == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)m) : (int64_t)m;
    return SMCT_OK;
}

/* int32 (N.3): a JSON integer (no fraction, no exponent) in [-2^31, 2^31-1], not -0. */
static smct_status_t read_int32(const smct_json_t *j, int32_t *out, smct_error_t *err)
{
    if (j->type != SMCT_JSON_NUMBER) {
        return smct_notation_bad(err, j->offset, "int32 must be a JSON number");
    }
    if (!smct_json_is_integer(j)) {
        return smct_notation_bad(err, j->offset,
                                 "int32 must be an integer without fraction or exponent");
    }
    if (!smct_json_get_i32(j, out)) {
        return smct_notation_bad(err, j->offset, "int32 out of range");
    }
    if (*out == 0 && j->number.ptr[0] == '-') {
        return smct_notation_bad(err, j->offset, "int32 -0 is not canonical (write 0)");
    }
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
        return smct_notation_bad(err, arr->offset, "typed list elements must be a JSON array");
    }
    size_t width = smc_typed_list_width(type);
    size_t count = arr->array.count;
    uint8_t *data = smc_arena_alloc(arena, count * width); /* count ≤ text length: no overflow */
    if (data == NULL) {
        return smct_notation_nomem(err, arr->offset);
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
/* N.1 null, bool, i32, i64, f64: [WORD] or [WORD, X]. */
static smct_status_t read_scalar(const smct_json_t *j, smc_type_t type, smc_value_t *slot,
                                 smct_error_t *err)
{
    const smct_json_t *a1 = j->array.count > 1 ? &j->array.items[1] : NULL;
    smct_status_t st;
    if (type == SMC_TYPE_NULL) {
        st = smct_notation_want_count(j, 1, "missing element", "[\"null\"] has no other elements",
                                      err);
    } else if (type == SMC_TYPE_BOOL) {
        st = smct_notation_want_count(j, 2, "bool needs true or false",
                                      "bool has exactly one element after the type word", err);
        if (st == SMCT_OK && a1->type != SMCT_JSON_TRUE && a1->type != SMCT_JSON_FALSE) {
            st = smct_notation_bad(err, a1->offset, "bool must be true or false");
        }
        if (st == SMCT_OK) {
            slot->boolean = a1->type == SMCT_JSON_TRUE;
        }
    } else if (type == SMC_TYPE_I32) {
        st = smct_notation_want_count(j, 2, "i32 needs a number",
                                      "i32 has exactly one element after the type word", err);
        if (st == SMCT_OK) {
            st = read_int32(a1, &slot->i32, err);
        }
    } else if (type == SMC_TYPE_I64) {
        st = smct_notation_want_count(j, 2, "i64 needs a decimal string",
                                      "i64 has exactly one element after the type word", err);
        if (st == SMCT_OK) {
            st = read_dec64(a1, &slot->i64, err);
        }
    } else {
        st = smct_notation_want_count(j, 2, "f64 needs 16 hex digits",
                                      "f64 has exactly one element after the type word", err);
        if (st == SMCT_OK) {
            st = read_hex_bits(a1, 16, &slot->f64_bits, err);
        }
    }
    if (st == SMCT_OK) {
        slot->type = type;
    }
    return st;
}

/* N.1 str and largeint (a JSON string, any UTF-8 incl. U+0000) and u8s (lower-case hex). */
static smct_status_t read_bytes(const smct_json_t *j, smc_type_t type, smc_arena_t *arena,
                                smc_value_t *slot, smct_error_t *err)
{
    const smct_json_t *a1 = j->array.count > 1 ? &j->array.items[1] : NULL;
    smct_status_t st;
    if (type != SMC_TYPE_U8S) {
        st = smct_notation_want_count(j, 2, "a string element is missing",
                                      "exactly one string follows the type word", err);
        if (st != SMCT_OK) {
            return st;
        }
        if (a1->type != SMCT_JSON_STRING) {
            return smct_notation_bad(err, a1->offset, "a JSON string is required here");
        }
        slot->bytes.ptr = smct_notation_arena_copy(arena, a1->str.ptr, a1->str.len);
        if (slot->bytes.ptr == NULL) {
            return smct_notation_nomem(err, a1->offset);
        }
        slot->bytes.len = a1->str.len;
        slot->type = type;
        return SMCT_OK;
    }
    st = smct_notation_want_count(j, 2, "u8s needs a hex string",
                                  "u8s has exactly one element after the type word", err);
    if (st != SMCT_OK) {
        return st;
    }
    if (a1->type != SMCT_JSON_STRING) {
        return smct_notation_bad(err, a1->offset,
                                 "u8s bytes must be a string of lower-case hex digits");
    }
    if (a1->str.len % 2 != 0) {
        return smct_notation_bad(err, a1->offset, "u8s hex must have an even number of digits");
    }
    uint8_t *bytes = smc_arena_alloc(arena, a1->str.len / 2);
    if (bytes == NULL) {
        return smct_notation_nomem(err, a1->offset);
    }
    if (smct_hex_decode_strict(a1->str.ptr, a1->str.len, bytes, NULL, NULL) != SMCT_OK) {
        return smct_notation_bad(err, a1->offset,
                                 "u8s: only lower-case hex digits 0-9a-f are allowed");
    }
    slot->type = SMC_TYPE_U8S;
    slot->bytes.ptr = bytes;
    slot->bytes.len = a1->str.len / 2;
    return SMCT_OK;
}

/* N.1 list and map: the slots are allocated here, their values pushed on the work stack. */
static smct_status_t read_list_or_map(const smct_json_t *j, smc_type_t type, smc_arena_t *arena,
                                      work_stack_t *ws, smc_value_t *slot, smct_error_t *err)
{
    bool is_map = type == SMC_TYPE_MAP;
    smct_status_t st =
        is_map ? smct_notation_want_count(j, 2, "map needs an array of [key, value] pairs",
                                          "map has exactly one array after the type word", err)
               : smct_notation_want_count(j, 2, "list needs an array of values",
                                          "list has exactly one array after the type word", err);
    if (st != SMCT_OK) {
        return st;
    }
    const smct_json_t *a1 = &j->array.items[1];
    if (a1->type != SMCT_JSON_ARRAY) {
        return smct_notation_bad(err, a1->offset,
                                 is_map ? "map entries must be a JSON array of [key, value] pairs"
                                        : "list elements must be a JSON array of values");
    }
    size_t count = a1->array.count;
    smc_value_t *items = new_values(arena, is_map ? 2 * count : count);
    if (items == NULL) {
        return smct_notation_nomem(err, a1->offset);
    }
    slot->type = type;
    if (is_map) {
        slot->map.entries = items;
        slot->map.count = count;
    } else {
        slot->list.items = items;
        slot->list.count = count;
    }
    /* Pushed in reverse so children are read (and errors found) in text order. */
    for (size_t i = count; i-- > 0;) {
        smc_value_t *dest = is_map ? &items[2 * i] : &items[i];
        if (!work_push(ws, &a1->array.items[i], dest, is_map)) {
            return smct_notation_nomem(err, a1->offset);
        }
    }
    return SMCT_OK;
}

/* N.1 custom: [custom, TAG, V] with TAG 128..255; the payload is pushed on the work stack. */
static smct_status_t read_custom(const smct_json_t *j, smc_arena_t *arena, work_stack_t *ws,
                                 smc_value_t *slot, smct_error_t *err)
{
    smct_status_t st = smct_notation_want_count(j, 3, "custom needs a tag and a value",
                                                "custom has exactly a tag and one value", err);
    if (st != SMCT_OK) {
        return st;
    }
    const smct_json_t *a1 = &j->array.items[1];
    int32_t tag;
    if (a1->type != SMCT_JSON_NUMBER || !smct_json_is_integer(a1)) {
        return smct_notation_bad(err, a1->offset, "custom tag must be an integer 128..255");
    }
    if (!smct_json_get_i32(a1, &tag) || tag < 128 || tag > 255) {
        return smct_notation_bad(err, a1->offset, "custom tag out of range 128..255");
    }
    smc_value_t *payload = new_values(arena, 1);
    if (payload == NULL) {
        return smct_notation_nomem(err, a1->offset);
    }
    slot->type = SMC_TYPE_CUSTOM;
    slot->custom_tag = (uint8_t)tag;
    slot->custom.payload = payload;
    if (!work_push(ws, &j->array.items[2], payload, false)) {
        return smct_notation_nomem(err, a1->offset);
    }
    return SMCT_OK;
}

/*
 * N.1 `strbytes`: ["strbytes", "H"], the kept bytes of a decoded string that is not UTF-8.
 * H is lower-case hex of at least one byte and must not be well-formed UTF-8 (that string
 * has the `str` form), so every string still has exactly one notation.
 */
smct_status_t smct_notation_read_strbytes(const smct_json_t *j, smc_arena_t *arena,
                                          smc_bytes_t *out, smct_error_t *err)
{
    smct_status_t st =
        smct_notation_want_count(j, 2, "strbytes needs a hex string",
                                 "strbytes has exactly one element after the type word", err);
    if (st != SMCT_OK) {
        return st;
    }
    const smct_json_t *h = &j->array.items[1];
    if (h->type != SMCT_JSON_STRING || h->str.len == 0 || h->str.len % 2 != 0) {
        return smct_notation_bad(
            err, h->offset,
            "strbytes bytes must be a non-empty string of lower-case hex digit pairs");
    }
    uint8_t *bytes = smc_arena_alloc(arena, h->str.len / 2);
    if (bytes == NULL) {
        return smct_notation_nomem(err, h->offset);
    }
    if (smct_hex_decode_strict(h->str.ptr, h->str.len, bytes, NULL, NULL) != SMCT_OK) {
        return smct_notation_bad(err, h->offset,
                                 "strbytes: only lower-case hex digits 0-9a-f are allowed");
    }
    if (smct_utf8_valid(bytes, h->str.len / 2, NULL)) {
        return smct_notation_bad(err, h->offset,
                                 "strbytes holds well-formed UTF-8: write it as [\"str\", ...]");
    }
    out->ptr = bytes;
    out->len = h->str.len / 2;
    return SMCT_OK;
}

/* Read one value `j` into `slot`: scalars entirely, containers one level (the work stack
 * holds their children). */
static smct_status_t read_one(const smct_json_t *j, smc_value_t *slot, smc_arena_t *arena,
                              work_stack_t *ws, smct_error_t *err)
{
    memset(slot, 0, sizeof *slot);
    if (j->type != SMCT_JSON_ARRAY) {
        return smct_notation_bad(err, j->offset,
                                 "a value must be a JSON array starting with a type word");
    }
    if (j->array.count == 0) {
        return smct_notation_bad(err, j->end - 1, "a value needs a type word, e.g. [\"null\"]");
    }
    const smct_json_t *w = &j->array.items[0];
    if (w->type != SMCT_JSON_STRING) {
        return smct_notation_bad(err, w->offset, "the type word must be a string");
    }
    if (smct_json_is_str(w, "strbytes")) {
        smct_status_t sb = smct_notation_read_strbytes(j, arena, &slot->bytes, err);
        if (sb == SMCT_OK) {
            slot->type = SMC_TYPE_STR;
        }
        return sb;
    }
    smc_type_t type;
    if (!lookup_type_word(w, &type)) {
        return smct_notation_bad(err, w->offset, "unknown type word");
    }
    switch (type) {
    case SMC_TYPE_NULL:
    case SMC_TYPE_BOOL:
    case SMC_TYPE_I32:
    case SMC_TYPE_I64:
    case SMC_TYPE_F64:
        return read_scalar(j, type, slot, err);
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_STR:
    case SMC_TYPE_U8S:
        return read_bytes(j, type, arena, slot, err);
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S: {
        smct_status_t st =
            smct_notation_want_count(j, 2, "a typed list needs an array of elements",
                                     "a typed list has exactly one array after the type word", err);
        return st == SMCT_OK ? read_typed_list(&j->array.items[1], type, arena, slot, err) : st;
    }
    case SMC_TYPE_LIST:
    case SMC_TYPE_MAP:
        return read_list_or_map(j, type, arena, ws, slot, err);
    case SMC_TYPE_CUSTOM:
        return read_custom(j, arena, ws, slot, err);
    }
    return smct_notation_bad(err, w->offset, "unknown type word");
}

smct_status_t smct_notation_read_value(const smct_json_t *json, smc_arena_t *arena,
                                       smc_value_t **out, smct_error_t *err)
{
    if (out != NULL) {
        *out = NULL;
    }
    if (json == NULL || arena == NULL || out == NULL) {
        return smct_error_set(err, SMCT_ERR_USAGE, 0, "invalid arguments");
    }
    smc_value_t *root = new_values(arena, 1);
    if (root == NULL) {
        return smct_notation_nomem(err, json->offset);
    }
    work_stack_t ws = {NULL, 0, 0};
    smct_status_t st = SMCT_OK;
    if (!work_push(&ws, json, root, false)) {
        st = smct_notation_nomem(err, json->offset);
    }
    while (st == SMCT_OK && ws.n > 0) {
        work_t w = ws.items[--ws.n];
        if (!w.is_pair) {
            st = read_one(w.json, w.slot, arena, &ws, err);
            continue;
        }
        /* map pair = "[" value "," value "]" */
        if (w.json->type != SMCT_JSON_ARRAY) {
            st = smct_notation_bad(err, w.json->offset, "a map entry must be a [key, value] array");
            continue;
        }
        st = smct_notation_want_count(w.json, 2, "a map entry needs a key and a value",
                                      "a map entry has exactly two elements", err);
        if (st == SMCT_OK && (!work_push(&ws, &w.json->array.items[1], &w.slot[1], false) ||
                              !work_push(&ws, &w.json->array.items[0], &w.slot[0], false))) {
            st = smct_notation_nomem(err, w.json->offset);
        }
    }
    free(ws.items);
    if (st == SMCT_OK) {
        *out = root;
        smct_error_set(err, SMCT_OK, 0, "ok");
    }
    return st;
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
