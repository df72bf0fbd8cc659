/*
 * Comparisons and expectations for runners whose hosts cannot hold every distinction of the
 * value model (compare.h). Recursive: the values compared come from vectors (at most a few
 * hundred levels) or from responses, whose JSON nesting the session bounds.
 */
#include "compare.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* Deeper than any response the session accepts (its JSON nesting limit) */
#define COMPARE_MAX_DEPTH 4096

static bool bytes_eq(smc_bytes_t a, smc_bytes_t b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static bool is_int(const smc_value_t *v)
{
    return v->type == SMC_TYPE_I32 || v->type == SMC_TYPE_I64;
}

static int64_t int_of(const smc_value_t *v)
{
    return v->type == SMC_TYPE_I32 ? (int64_t)v->i32 : v->i64;
}

static bool value_eq(const smc_value_t *a, const smc_value_t *b, smcj_cmp_t how, int depth);

/* Maps as multisets: every entry of `a` pairs with an unused equal entry of `b`. Quadratic,
 * which is fine for vector-sized maps. */
static bool map_eq_unordered(const smc_value_t *a, const smc_value_t *b, smcj_cmp_t how, int depth)
{
    size_t n = a->map.count;
    bool *used = smcj_calloc(n ? n : 1, sizeof(bool));
    bool ok = used != NULL; /* out of memory is recorded: the run ends without a verdict */
    for (size_t i = 0; i < n && ok; i++) {
        bool found = false;
        for (size_t j = 0; j < n && !found; j++) {
            if (!used[j] &&
                value_eq(&a->map.entries[2 * i], &b->map.entries[2 * j], how, depth + 1) &&
                value_eq(&a->map.entries[2 * i + 1], &b->map.entries[2 * j + 1], how, depth + 1)) {
                used[j] = found = true;
            }
        }
        ok = found;
    }
    free(used);
    return ok;
}

static bool value_eq(const smc_value_t *a, const smc_value_t *b, smcj_cmp_t how, int depth)
{
    if (!a || !b) {
        return a == b;
    }
    if (depth > COMPARE_MAX_DEPTH) {
        return false;
    }
    if (how.ints_by_value && is_int(a) && is_int(b)) {
        return int_of(a) == int_of(b);
    }
    if (a->type != b->type) {
        return false;
    }
    switch (a->type) {
    case SMC_TYPE_LIST:
        if (a->list.count != b->list.count) {
            return false;
        }
        for (size_t i = 0; i < a->list.count; i++) {
            if (!value_eq(&a->list.items[i], &b->list.items[i], how, depth + 1)) {
                return false;
            }
        }
        return true;
    case SMC_TYPE_MAP:
        if (a->map.count != b->map.count) {
            return false;
        }
        if (how.unordered_maps) {
            return map_eq_unordered(a, b, how, depth);
        }
        for (size_t i = 0; i < 2 * a->map.count; i++) {
            if (!value_eq(&a->map.entries[i], &b->map.entries[i], how, depth + 1)) {
                return false;
            }
        }
        return true;
    case SMC_TYPE_CUSTOM:
        return a->custom_tag == b->custom_tag &&
               value_eq(a->custom.payload, b->custom.payload, how, depth + 1);
    case SMC_TYPE_NULL:
    case SMC_TYPE_BOOL:
    case SMC_TYPE_I32:
    case SMC_TYPE_I64:
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_F64:
    case SMC_TYPE_STR:
    case SMC_TYPE_U8S:
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        break;
    }
    return smc_value_equal(a, b); /* scalars and typed lists: exact, float bits included */
}

bool smcj_value_equal_as(const smc_value_t *a, const smc_value_t *b, smcj_cmp_t how)
{
    return value_eq(a, b, how, 0);
}

bool smcj_doc_equal_as(const smct_doc_t *a, const smct_doc_t *b, smcj_cmp_t how)
{
    if (!how.unordered_maps && !how.ints_by_value) {
        return smct_doc_equal(a, b);
    }
    if (a->entry != b->entry) {
        return false;
    }
    switch (a->entry) {
    case SMC_ENTRY_MESSAGE:
        return value_eq(a->value, b->value, how, 0);
    case SMC_ENTRY_CALL:
        return bytes_eq(a->call.name, b->call.name) && value_eq(a->call.args, b->call.args, how, 0);
    case SMC_ENTRY_ENVELOPE: {
        const smc_envelope_t *x = &a->envelope, *y = &b->envelope;
        if (x->is_error != y->is_error) {
            return false;
        }
        if (!x->is_error) {
            return value_eq(x->result, y->result, how, 0);
        }
        return bytes_eq(x->code, y->code) && x->has_message == y->has_message &&
               (!x->has_message || bytes_eq(x->message, y->message)) &&
               x->stacktrace_state == y->stacktrace_state &&
               (x->stacktrace_state != SMC_STACKTRACE_STRING ||
                bytes_eq(x->stacktrace, y->stacktrace)) &&
               value_eq(x->details, y->details, how, 0);
    }
    }
    return false;
}

static bool merged_keys(const smc_value_t *v, smcj_cmp_t how, int depth)
{
    if (!v || depth > COMPARE_MAX_DEPTH) {
        return false;
    }
    switch (v->type) {
    case SMC_TYPE_LIST:
        for (size_t i = 0; i < v->list.count; i++) {
            if (merged_keys(&v->list.items[i], how, depth + 1)) {
                return true;
            }
        }
        return false;
    case SMC_TYPE_MAP:
        for (size_t i = 0; i < v->map.count; i++) {
            for (size_t j = i + 1; j < v->map.count; j++) {
                if (value_eq(&v->map.entries[2 * i], &v->map.entries[2 * j], how, depth + 1)) {
                    return true;
                }
            }
        }
        for (size_t i = 0; i < 2 * v->map.count; i++) {
            if (merged_keys(&v->map.entries[i], how, depth + 1)) {
                return true;
            }
        }
        return false;
    case SMC_TYPE_CUSTOM:
        return merged_keys(v->custom.payload, how, depth + 1);
    case SMC_TYPE_NULL:
    case SMC_TYPE_BOOL:
    case SMC_TYPE_I32:
    case SMC_TYPE_I64:
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_F64:
    case SMC_TYPE_STR:
    case SMC_TYPE_U8S:
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        break;
    }
    return false;
}

bool smcj_doc_has_merged_keys(const smct_doc_t *doc, smcj_cmp_t how)
{
    switch (doc->entry) {
    case SMC_ENTRY_MESSAGE:
        return merged_keys(doc->value, how, 0);
    case SMC_ENTRY_CALL:
        return merged_keys(doc->call.args, how, 0);
    case SMC_ENTRY_ENVELOPE:
        return merged_keys(doc->envelope.is_error ? doc->envelope.details : doc->envelope.result,
                           how, 0);
    }
    return false;
}

/* A copy of `in` in `arena` with its integer scalars retyped; NULL for NULL or no memory. */
static smc_value_t *retyped(const smc_value_t *in, smcj_int_width_t width, smc_arena_t *arena)
{
    if (!in) {
        return NULL;
    }
    smc_value_t *out = smc_arena_alloc(arena, sizeof *out);
    if (!out) {
        return NULL;
    }
    *out = *in;
    if (is_int(in)) {
        int64_t n = int_of(in);
        bool small = n >= INT32_MIN && n <= INT32_MAX;
        if (width == SMCJ_INTS_INT64 || (width == SMCJ_INTS_BY_VALUE && !small)) {
            out->type = SMC_TYPE_I64;
            out->i64 = n;
        } else if (width == SMCJ_INTS_BY_VALUE) {
            out->type = SMC_TYPE_I32;
            out->i32 = (int32_t)n;
        }
        return out;
    }
    size_t n = in->type == SMC_TYPE_LIST  ? in->list.count
               : in->type == SMC_TYPE_MAP ? 2 * in->map.count
                                          : 0;
    if (n > 0) {
        const smc_value_t *from = in->type == SMC_TYPE_LIST ? in->list.items : in->map.entries;
        smc_value_t *items = smc_arena_alloc(arena, n * sizeof *items);
        if (!items) {
            return NULL;
        }
        for (size_t i = 0; i < n; i++) {
            smc_value_t *e = retyped(&from[i], width, arena);
            if (!e) {
                return NULL;
            }
            items[i] = *e;
        }
        if (in->type == SMC_TYPE_LIST) {
            out->list.items = items;
        } else {
            out->map.entries = items;
        }
    } else if (in->type == SMC_TYPE_CUSTOM && in->custom.payload) {
        out->custom.payload = retyped(in->custom.payload, width, arena);
        if (!out->custom.payload) {
            return NULL;
        }
    }
    return out;
}

/* Retype an optional slot: NULL stays NULL (it means null); false when out of memory. */
static bool retype_slot(smc_value_t **slot, smcj_int_width_t width, smc_arena_t *arena)
{
    if (!*slot) {
        return true;
    }
    *slot = retyped(*slot, width, arena);
    return *slot != NULL;
}

bool smcj_doc_retype(const smct_doc_t *in, smcj_int_width_t width, smc_arena_t *arena,
                     smct_doc_t *out)
{
    *out = *in;
    switch (in->entry) {
    case SMC_ENTRY_MESSAGE:
        return retype_slot(&out->value, width, arena);
    case SMC_ENTRY_CALL:
        return retype_slot(&out->call.args, width, arena);
    case SMC_ENTRY_ENVELOPE:
        return retype_slot(out->envelope.is_error ? &out->envelope.details : &out->envelope.result,
                           width, arena);
    }
    return false;
}

bool smcj_canonical_in_some_order(const smct_doc_t *expected, const uint8_t *bytes, size_t len,
                                  smcj_cmp_t how, smc_arena_t *arena)
{
    smc_decode_opts_t strict = {SMC_MODE_STRICT, SMC_MAX_DEPTH_LIMIT};
    smct_doc_t got;
    if (smct_doc_decode(bytes, len, expected->entry, &strict, arena, &got, NULL) != SMC_OK) {
        return false; /* not even canonical bytes of some value */
    }
    how.unordered_maps = true;
    if (!smcj_doc_equal_as(expected, &got, how)) {
        return false;
    }
    smct_buf_t again;
    smct_buf_init(&again);
    bool same = smct_doc_encode(&got, &again, NULL) == SMC_OK && again.len == len &&
                (len == 0 || memcmp(again.data, bytes, len) == 0);
    smct_buf_free(&again);
    return same;
}
