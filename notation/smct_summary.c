/* The summary of a value tree (smct_summary.h), with an explicit stack. */
#include "smct_summary.h"

#include <stdlib.h>

#include "smct_buf.h"

typedef struct pending {
    const smc_value_t *value;
    uint64_t level; /* containers enclosing it */
} pending_t;

/* The values `v` holds directly: list elements, map keys and values, a custom payload. */
static size_t children(const smc_value_t *v, const smc_value_t **first)
{
    switch (v->type) {
    case SMC_TYPE_LIST:
        *first = v->list.items;
        return v->list.count;
    case SMC_TYPE_MAP:
        *first = v->map.entries;
        return 2 * v->map.count;
    case SMC_TYPE_CUSTOM:
        *first = v->custom.payload;
        return v->custom.payload ? 1 : 0;
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
    *first = NULL;
    return 0;
}

static uint64_t payload_bytes(const smc_value_t *v)
{
    switch (v->type) {
    case SMC_TYPE_STR:
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_U8S:
        return v->bytes.len;
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        return smc_typed_list_width(v->type) * (uint64_t)v->array.count;
    case SMC_TYPE_NULL:
    case SMC_TYPE_BOOL:
    case SMC_TYPE_I32:
    case SMC_TYPE_I64:
    case SMC_TYPE_F64:
    case SMC_TYPE_LIST:
    case SMC_TYPE_MAP:
    case SMC_TYPE_CUSTOM:
        break;
    }
    return 0;
}

smct_status_t smct_summary_of(const smct_doc_t *doc, smct_summary_t *out)
{
    const smc_value_t *root = doc->value;
    if (doc->entry == SMC_ENTRY_CALL) {
        root = doc->call.args;
    } else if (doc->entry == SMC_ENTRY_ENVELOPE) {
        root = doc->envelope.is_error ? doc->envelope.details : doc->envelope.result;
    }
    *out = (smct_summary_t){0, 0, 0};
    if (!root) {
        out->values = 1; /* a NULL slot is null */
        return SMCT_OK;
    }
    pending_t *stack = NULL;
    size_t n = 0, cap = 0;
    bool ok = smct_grow_array((void **)&stack, &cap, 64, sizeof *stack);
    if (ok) {
        stack[n++] = (pending_t){root, 0};
    }
    while (ok && n > 0) {
        pending_t p = stack[--n];
        out->values++;
        out->bytes += payload_bytes(p.value);
        const smc_value_t *first;
        size_t k = children(p.value, &first);
        bool container = p.value->type == SMC_TYPE_LIST || p.value->type == SMC_TYPE_MAP ||
                         p.value->type == SMC_TYPE_CUSTOM;
        if (container && p.level + 1 > out->depth) {
            out->depth = p.level + 1;
        }
        ok = smct_grow_array((void **)&stack, &cap, n + k, sizeof *stack);
        for (size_t i = 0; ok && i < k; i++) {
            stack[n++] = (pending_t){&first[i], p.level + 1};
        }
    }
    free(stack);
    return ok ? SMCT_OK : SMCT_ERR_NOMEM;
}
