/*
 * The variant encoder (smcm_codec.h): canonical bytes (spec §13) with no bug on, a buggy
 * port's bytes with bugs on. Every output byte is recorded with its role (tag, size,
 * padding, data, flag) and the offset of the value it belongs to, so a comparison of two
 * encodings can say which part of which value differs.
 */
#include <stdlib.h>
#include <string.h>

#include "smcm_codec.h"
#include "smcm_internal.h"
#include "smct_utf8.h"

/* What uninitialised padding holds in the mutant runner's output: anything but zero. */
#define GARBAGE 0xcdu

typedef struct enc {
    uint8_t *bytes, *roles, *wild;
    uint32_t *owner;
    size_t len, cap;
    smcm_set_t bugs;
    size_t origin; /* where padding is counted from: 0 (spec §3.1) */
    size_t tag_at; /* tag of the value being written */
    smc_arena_t *arena;
    const char *cls; /* first error */
    bool nomem;
    /* float64 nodes that were 32-bit floats in the host value (smcm_host.c): f32-four-bytes */
    const smc_value_t *const *f32_nodes;
    size_t n_f32;
} enc_t;

static bool on(const enc_t *e, smcm_bug_t bug)
{
    return smcmi_on(e->bugs, bug);
}

static bool fail(enc_t *e, const char *cls)
{
    if (!e->cls) {
        e->cls = cls;
    }
    return false;
}

static bool grow(enc_t *e, size_t n)
{
    if (n <= e->cap - e->len) {
        return true;
    }
    size_t cap = e->cap ? e->cap : 64;
    while (cap - e->len < n) {
        if (cap > SIZE_MAX / 2 / sizeof(uint32_t)) {
            e->nomem = true;
            return fail(e, "nomem");
        }
        cap *= 2;
    }
    uint8_t *b = realloc(e->bytes, cap), *r = b ? realloc(e->roles, cap) : NULL,
            *w = r ? realloc(e->wild, cap) : NULL;
    uint32_t *o = w ? realloc(e->owner, cap * sizeof *o) : NULL;
    e->bytes = b ? b : e->bytes;
    e->roles = r ? r : e->roles;
    e->wild = w ? w : e->wild;
    e->owner = o ? o : e->owner;
    if (!o) {
        e->nomem = true;
        return fail(e, "nomem");
    }
    e->cap = cap;
    return true;
}

static bool put(enc_t *e, const void *p, size_t n, smcm_role_t role)
{
    if (n == 0) {
        return true;
    }
    if (!grow(e, n)) {
        return false;
    }
    memcpy(e->bytes + e->len, p, n);
    memset(e->roles + e->len, (int)role, n);
    memset(e->wild + e->len, 0, n);
    for (size_t i = 0; i < n; i++) {
        e->owner[e->len + i] = (uint32_t)e->tag_at;
    }
    e->len += n;
    return true;
}

static bool put_byte(enc_t *e, uint8_t b, smcm_role_t role)
{
    return put(e, &b, 1, role);
}

static bool put_le(enc_t *e, uint64_t v, unsigned n, smcm_role_t role)
{
    uint8_t b[8];
    for (unsigned i = 0; i < n; i++) {
        b[i] = (uint8_t)(v >> (8 * i));
    }
    return put(e, b, n, role);
}

/* A value's tag: also where the bytes that follow belong. */
static bool put_tag(enc_t *e, uint8_t tag)
{
    e->tag_at = e->len;
    return put_byte(e, tag, SMCM_ROLE_TAG);
}

/* A size (spec §2.2: the shortest form). */
static bool put_size(enc_t *e, uint64_t n)
{
    if (n > 0xffffffffu) {
        return fail(e, "not_encodable"); /* R15.2-1 */
    }
    /* size-escape-off-by-one: 254 in one byte, 65536 in the three-byte form */
    bool off = on(e, SMCM_SIZE_ESCAPE_OFF_BY_ONE);
    if (n < 254 || (off && n == 254)) {
        return put_byte(e, (uint8_t)n, SMCM_ROLE_SIZE);
    }
    if (n <= 0xffff || (off && n == 0x10000)) {
        return put_byte(e, 0xfe, SMCM_ROLE_SIZE) && put_le(e, n & 0xffff, 2, SMCM_ROLE_SIZE);
    }
    return put_byte(e, 0xff, SMCM_ROLE_SIZE) && put_le(e, n, 4, SMCM_ROLE_SIZE);
}

/* Padding before aligned data (spec §3.1, §3.2). */
static bool put_pad(enc_t *e, unsigned align)
{
    size_t k;
    if (on(e, SMCM_PAD_FIXED)) {
        k = align - 1;
    } else if (on(e, SMCM_PAD_FROM_VALUE)) {
        k = (align - (e->len - e->tag_at) % align) % align;
    } else {
        k = (align - (e->len - e->origin) % align) % align;
    }
    if (k == 0 && on(e, SMCM_PAD_EXTRA_BLOCK)) {
        k = align;
    }
    static const uint8_t zeros[8] = {0};
    size_t at = e->len;
    if (!put(e, zeros, k, SMCM_ROLE_PAD)) {
        return false;
    }
    if (on(e, SMCM_PAD_NOT_ZEROED)) {
        memset(e->bytes + at, GARBAGE, k); /* the buffer was never cleared */
        memset(e->wild + at, 1, k);
    }
    return true;
}

static bool is_nan64(uint64_t bits)
{
    return (bits & 0x7ff0000000000000u) == 0x7ff0000000000000u && (bits & 0x000fffffffffffffu) != 0;
}

static bool is_nan32(uint32_t bits)
{
    return (bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu) != 0;
}

/* Whether float64 node v was a 32-bit float of the host value. */
static bool was_f32(const enc_t *e, const smc_value_t *v)
{
    for (size_t i = 0; i < e->n_f32; i++) {
        if (e->f32_nodes[i] == v) {
            return true;
        }
    }
    return false;
}

/* The binary32 a float64 widened from (spec R17-4: the widening is exact, so is this; a NaN
 * keeps the top 23 bits of its payload, which widening shifted up by 29). */
static uint32_t f32_of_widened(uint64_t bits)
{
    if (is_nan64(bits)) {
        return (uint32_t)(bits >> 63) << 31 | 0x7f800000u | (uint32_t)((bits >> 29) & 0x7fffffu);
    }
    double d;
    memcpy(&d, &bits, sizeof d);
    float f = (float)d;
    uint32_t out;
    memcpy(&out, &f, sizeof out);
    return out;
}

/* JAVA's doubleToLongBits / floatToIntBits (D9). */
static uint64_t f64_bits(const enc_t *e, uint64_t bits)
{
    return on(e, SMCM_NAN_CANONICALISED) && is_nan64(bits) ? 0x7ff8000000000000u : bits;
}

static bool put_text(enc_t *e, smc_bytes_t s)
{
    if (!smct_utf8_valid(s.ptr, s.len, NULL)) {
        return fail(e, "not_encodable"); /* R5.4-1 */
    }
    size_t n = s.len;
    if (on(e, SMCM_NUL_TRUNCATED_STRINGS) && n) {
        const uint8_t *nul = memchr(s.ptr, 0, n);
        n = nul ? (size_t)(nul - s.ptr) : n; /* strlen (GLIB) */
    }
    uint64_t size = n;
    if (on(e, SMCM_STR_UTF16_SIZE)) {
        size = 0;
        for (size_t i = 0; i < n;) {
            size_t l = smct_utf8_seq_len(s.ptr + i, n - i);
            size += l == 4 ? 2 : 1;
            i += l;
        }
    }
    return put_size(e, size) && put(e, s.ptr, n, SMCM_ROLE_DATA);
}

static bool put_typed_list(enc_t *e, const smc_value_t *v)
{
    uint8_t tag = (uint8_t)v->type;
    unsigned width = (unsigned)smc_typed_list_width(v->type); /* 4 or 8 */
    if (v->type == SMC_TYPE_F32S && on(e, SMCM_NO_FLOAT32LIST)) {
        return fail(e, "not_encodable");
    }
    if (v->type == SMC_TYPE_I64S && on(e, SMCM_I64S_UNDER_I32S_TAG)) {
        tag = 0x09;
    }
    size_t n = v->array.count;
    if (!put_tag(e, tag) ||
        !put_size(e, on(e, SMCM_TYPED_LIST_BYTE_COUNT) ? (uint64_t)n * width : n)) {
        return false;
    }
    if (!(n == 0 && on(e, SMCM_EMPTY_TYPED_LIST_UNPADDED)) && !put_pad(e, width)) {
        return false; /* CPP returns right after the size of an empty list (D10) */
    }
    if (!on(e, SMCM_NAN_CANONICALISED) || v->type == SMC_TYPE_I32S || v->type == SMC_TYPE_I64S) {
        return put(e, v->array.data, n * width, SMCM_ROLE_DATA);
    }
    for (size_t i = 0; i < n; i++) {
        bool ok =
            width == 8
                ? put_le(e, f64_bits(e, smc_f64s_bits_at(&v->array, i)), 8, SMCM_ROLE_DATA)
                : put_le(e,
                         is_nan32(smc_f32s_bits_at(&v->array, i)) ? 0x7fc00000u
                                                                  : smc_f32s_bits_at(&v->array, i),
                         4, SMCM_ROLE_DATA);
        if (!ok) {
            return false;
        }
    }
    return true;
}

static bool put_value(enc_t *e, const smc_value_t *v, unsigned depth);

static bool put_map(enc_t *e, const smc_value_t *v, unsigned depth)
{
    smc_value_t *entries;
    size_t count;
    if (!smcmi_map_entries(e->bugs, v, e->arena, &entries, &count)) {
        e->nomem = true;
        return fail(e, "nomem");
    }
    if (!put_tag(e, 0x0d) || !put_size(e, count)) {
        return false;
    }
    for (size_t i = 0; i < 2 * count; i++) {
        if (!put_value(e, &entries[i], depth + 1)) {
            return false;
        }
    }
    return true;
}

static bool put_value(enc_t *e, const smc_value_t *v, unsigned depth)
{
    if (depth > SMC_MAX_DEPTH_LIMIT) {
        return fail(e, "depth_limit"); /* what the reference encoder does (and it stops cycles) */
    }
    if (!v) {
        return put_tag(e, 0x00);
    }
    switch (v->type) {
    case SMC_TYPE_NULL:
        return put_tag(e, 0x00);
    case SMC_TYPE_BOOL: {
        bool b = on(e, SMCM_CONTROL_BOOLS_SWAPPED) ? !v->boolean : v->boolean;
        return put_tag(e, b ? 0x01 : 0x02);
    }
    case SMC_TYPE_I32:
        if (on(e, SMCM_I32_WIDENED)) {
            return put_tag(e, 0x04) && put_le(e, (uint64_t)(int64_t)v->i32, 8, SMCM_ROLE_DATA);
        }
        return put_tag(e, 0x03) && put_le(e, (uint32_t)v->i32, 4, SMCM_ROLE_DATA);
    case SMC_TYPE_I64:
        if (on(e, SMCM_I64_NARROWED) && v->i64 >= INT32_MIN && v->i64 <= INT32_MAX) {
            return put_tag(e, 0x03) &&
                   put_le(e, (uint32_t)(int32_t)v->i64, 4, SMCM_ROLE_DATA); /* GLIB (D7) */
        }
        return put_tag(e, on(e, SMCM_I64_UNDER_I32_TAG) ? 0x03 : 0x04) &&
               put_le(e, (uint64_t)v->i64, 8, SMCM_ROLE_DATA);
    case SMC_TYPE_F64:
        if (on(e, SMCM_F32_FOUR_BYTES) && was_f32(e, v)) {
            /* a Swift port's Float: tag 6, no padding, the 4 binary32 bytes (D42) */
            return put_tag(e, 0x06) && put_le(e, f32_of_widened(v->f64_bits), 4, SMCM_ROLE_DATA);
        }
        return put_tag(e, 0x06) && put_pad(e, 8) &&
               put_le(e, f64_bits(e, v->f64_bits), 8, SMCM_ROLE_DATA);
    case SMC_TYPE_STR:
        return put_tag(e, 0x07) && put_text(e, v->bytes);
    case SMC_TYPE_U8S:
        if (!put_tag(e, 0x08) || !put_size(e, v->bytes.len) ||
            !put(e, v->bytes.ptr, v->bytes.len, SMCM_ROLE_DATA)) {
            return false;
        }
        /* a byte buffer appended to itself: the payload twice after one size */
        return !on(e, SMCM_U8S_WRITTEN_TWICE) || put(e, v->bytes.ptr, v->bytes.len, SMCM_ROLE_DATA);
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        return put_typed_list(e, v);
    case SMC_TYPE_LIST:
        if (!put_tag(e, 0x0c) || !put_size(e, v->list.count)) {
            return false;
        }
        for (size_t i = 0; i < v->list.count; i++) {
            if (!put_value(e, &v->list.items[i], depth + 1)) {
                return false;
            }
        }
        return true;
    case SMC_TYPE_MAP:
        return put_map(e, v, depth);
    case SMC_TYPE_CUSTOM:
        if (v->custom_tag < 0x80) {
            return fail(e, "not_encodable");
        }
        return put_tag(e, v->custom_tag) && put_value(e, v->custom.payload, depth + 1);
    case SMC_TYPE_LARGEINT:
        if (on(e, SMCM_LARGEINT_WRITTEN)) {
            /* JAVA's BigInteger branch (D2): tag 5, then the text as a string's size and bytes */
            return put_tag(e, 0x05) && put_size(e, v->bytes.len) &&
                   put(e, v->bytes.ptr, v->bytes.len, SMCM_ROLE_DATA);
        }
        return fail(e, "not_encodable"); /* R4.4-1 */
    }
    return fail(e, "not_encodable");
}

/* A fixed-type text element of a call or envelope: a string value, or null. */
static bool put_text_element(enc_t *e, const smc_bytes_t *s)
{
    if (!s) {
        return put_tag(e, 0x00);
    }
    return put_tag(e, 0x07) && put_text(e, *s);
}

static bool encode_envelope(enc_t *e, const smc_envelope_t *env)
{
    uint8_t flag = env->is_error ? 0x01 : 0x00;
    flag ^= on(e, SMCM_ENVELOPE_FLAG_INVERTED) ? 1u : 0u;
    e->tag_at = 0;
    if (!put_byte(e, flag, SMCM_ROLE_FLAG)) {
        return false;
    }
    if (on(e, SMCM_PAD_FROM_ENVELOPE_BODY)) {
        e->origin = 1; /* the body encoded as a buffer of its own */
    }
    if (!env->is_error) {
        return put_value(e, env->result, 0);
    }
    if (!put_text_element(e, &env->code)) {
        return false;
    }
    bool message =
        env->has_message && !(env->message.len == 0 && on(e, SMCM_ERROR_MESSAGE_EMPTY_AS_NULL));
    if (!put_text_element(e, message ? &env->message : NULL) || !put_value(e, env->details, 0)) {
        return false;
    }
    switch (env->stacktrace_state) {
    case SMC_STACKTRACE_ABSENT:
        return true;
    case SMC_STACKTRACE_NULL:
        return put_text_element(e, NULL);
    case SMC_STACKTRACE_STRING:
        return put_text_element(e, &env->stacktrace);
    default:
        return fail(e, "usage");
    }
}

static void *dup(smc_arena_t *arena, const void *p, size_t n)
{
    void *q = smc_arena_alloc(arena, n ? n : 1);
    if (q && n) {
        memcpy(q, p, n);
    }
    return q;
}

void smcm_encode(smcm_set_t bugs, const smct_doc_t *doc, smc_arena_t *arena, smcm_answer_t *out)
{
    smcmi_encode_marked(bugs, doc, NULL, 0, arena, out);
}

void smcmi_encode_marked(smcm_set_t bugs, const smct_doc_t *doc,
                         const smc_value_t *const *f32_nodes, size_t n_f32, smc_arena_t *arena,
                         smcm_answer_t *out)
{
    enc_t e;
    memset(&e, 0, sizeof e);
    e.bugs = bugs;
    e.arena = arena;
    e.f32_nodes = f32_nodes;
    e.n_f32 = n_f32;
    memset(out, 0, sizeof *out);
    out->doc.entry = doc->entry;
    bool ok = false;
    switch (doc->entry) {
    case SMC_ENTRY_MESSAGE:
        /* null-encodes-empty: DART, JAVA and OBJC return no bytes for a top-level null (D24) */
        ok = (on(&e, SMCM_NULL_ENCODES_EMPTY) &&
              (!doc->value || doc->value->type == SMC_TYPE_NULL)) ||
             put_value(&e, doc->value, 0);
        break;
    case SMC_ENTRY_CALL:
        ok = put_text_element(&e, &doc->call.name);
        if (ok && on(&e, SMCM_PAD_FROM_CALL_ARGS)) {
            e.origin = e.len; /* the arguments encoded as a message of their own */
        }
        ok = ok && put_value(&e, doc->call.args, 0);
        break;
    case SMC_ENTRY_ENVELOPE:
        ok = encode_envelope(&e, &doc->envelope);
        break;
    }
    if (ok) {
        out->kind = SMCM_BYTES;
        out->len = e.len;
        uint8_t *bytes = dup(arena, e.bytes, e.len), *roles = dup(arena, e.roles, e.len);
        uint32_t *owner = dup(arena, e.owner, e.len * sizeof *owner);
        uint8_t *wild = on(&e, SMCM_PAD_NOT_ZEROED) ? dup(arena, e.wild, e.len) : NULL;
        if (!bytes || !roles || !owner || (on(&e, SMCM_PAD_NOT_ZEROED) && !wild)) {
            out->kind = SMCM_UNKNOWN;
            out->why = "out of memory while modelling";
        }
        out->bytes = bytes;
        out->roles = roles;
        out->owner = owner;
        out->wild = wild;
    } else if (e.nomem) {
        out->kind = SMCM_UNKNOWN;
        out->why = "out of memory while modelling";
    } else {
        out->kind = SMCM_ERROR;
        out->error_class = e.cls ? e.cls : "not_encodable";
    }
    free(e.bytes);
    free(e.roles);
    free(e.wild);
    free(e.owner);
}
