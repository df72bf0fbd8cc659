/* Where two decoded items first differ (see diag_values.h). */
#define _POSIX_C_SOURCE 200809L
#include "diag_values.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* Deeper than this the description stops at the container (the values are already known to
 * differ; this only says where). */
#define MAX_DEPTH 200

static bool bytes_eq(smc_bytes_t a, smc_bytes_t b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

static size_t count_of(const smc_value_t *v)
{
    switch (v->type) {
    case SMC_TYPE_LIST:
        return v->list.count;
    case SMC_TYPE_MAP:
        return v->map.count;
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        return v->array.count;
    case SMC_TYPE_STR:
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_U8S:
        return v->bytes.len;
    case SMC_TYPE_NULL:
    case SMC_TYPE_BOOL:
    case SMC_TYPE_I32:
    case SMC_TYPE_I64:
    case SMC_TYPE_F64:
    case SMC_TYPE_CUSTOM:
        break;
    }
    return 0;
}

/* The first difference under path `path` (as in vectors.md's focus paths), or NULL. */
static char *diff(const smc_value_t *a, const smc_value_t *b, const char *path, int depth)
{
    if (!a || !b) {
        return a == b ? NULL : smcj_asprintf("at %s: a value is missing", path);
    }
    if (a->type != b->type) {
        return smcj_asprintf("at %s: expected %s, got %s", path, smc_type_name(a->type),
                             smc_type_name(b->type));
    }
    if (depth > MAX_DEPTH) {
        return smc_value_equal(a, b)
                   ? NULL
                   : smcj_asprintf("at %s: %s differs", path, smc_type_name(a->type));
    }
    switch (a->type) {
    case SMC_TYPE_LIST:
    case SMC_TYPE_MAP: {
        if (count_of(a) != count_of(b)) {
            return smcj_asprintf("at %s: %s of %zu entries, got %zu", path, smc_type_name(a->type),
                                 count_of(a), count_of(b));
        }
        bool map = a->type == SMC_TYPE_MAP;
        const smc_value_t *xa = map ? a->map.entries : a->list.items,
                          *xb = map ? b->map.entries : b->list.items;
        for (size_t i = 0; i < (map ? 2 : 1) * count_of(a); i++) {
            char *sub =
                map ? smcj_asprintf("%s%s%zu%s", path, i % 2 ? "{" : "<", i / 2, i % 2 ? "}" : ">")
                    : smcj_asprintf("%s[%zu]", path, i);
            char *d = diff(&xa[i], &xb[i], smcj_or_empty(sub), depth + 1);
            free(sub);
            if (d) {
                return d;
            }
        }
        return NULL;
    }
    case SMC_TYPE_CUSTOM: {
        if (a->custom_tag != b->custom_tag) {
            return smcj_asprintf("at %s: custom tag %u, got %u", path, a->custom_tag,
                                 b->custom_tag);
        }
        char *sub = smcj_asprintf("%s.v", path);
        char *d = diff(a->custom.payload, b->custom.payload, smcj_or_empty(sub), depth + 1);
        free(sub);
        return d;
    }
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
    case SMC_TYPE_STR:
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_U8S:
        if (count_of(a) != count_of(b)) {
            return smcj_asprintf("at %s: %s of length %zu, got %zu", path, smc_type_name(a->type),
                                 count_of(a), count_of(b));
        }
        break;
    case SMC_TYPE_NULL:
    case SMC_TYPE_BOOL:
    case SMC_TYPE_I32:
    case SMC_TYPE_I64:
    case SMC_TYPE_F64:
        break;
    }
    return smc_value_equal(a, b)
               ? NULL
               : smcj_asprintf("at %s: the %s differs", path, smc_type_name(a->type));
}

char *smcj_value_diff(const smct_doc_t *expected, const smct_doc_t *actual)
{
    const smc_envelope_t *x = &expected->envelope, *y = &actual->envelope;
    switch (expected->entry) {
    case SMC_ENTRY_MESSAGE:
        return diff(expected->value, actual->value, "$", 0);
    case SMC_ENTRY_CALL:
        if (!bytes_eq(expected->call.name, actual->call.name)) {
            return smcj_strdup("the method name differs");
        }
        return diff(expected->call.args, actual->call.args, "$.args", 0);
    case SMC_ENTRY_ENVELOPE:
        if (x->is_error != y->is_error) {
            return smcj_asprintf("expected %s envelope, got %s",
                                 x->is_error ? "an error" : "a success",
                                 y->is_error ? "an error" : "a success");
        }
        if (!x->is_error) {
            return diff(x->result, y->result, "$.result", 0);
        }
        if (!bytes_eq(x->code, y->code)) {
            return smcj_strdup("the error code differs");
        }
        if (x->has_message != y->has_message ||
            (x->has_message && !bytes_eq(x->message, y->message))) {
            return smcj_asprintf("the error message differs (%s, got %s)",
                                 x->has_message ? "a string" : "null",
                                 y->has_message ? "a string" : "null");
        }
        if (x->stacktrace_state != y->stacktrace_state ||
            (x->stacktrace_state == SMC_STACKTRACE_STRING &&
             !bytes_eq(x->stacktrace, y->stacktrace))) {
            return smcj_strdup("the stacktrace differs");
        }
        return diff(x->details, y->details, "$.details", 0);
    }
    return NULL;
}
