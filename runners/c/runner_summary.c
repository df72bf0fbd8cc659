/* The summary of a decoded item (runner_summary.h, runners/PROTOCOL.md P.3). */
#include "runner_summary.h"

#include <stdlib.h>

typedef struct pending {
    const smc_value_t *value;
    uint64_t level; /* containers enclosing it */
} pending_t;

static bool push(pending_t **stack, size_t *n, size_t *cap, const smc_value_t *v, uint64_t level)
{
    if (*n == *cap) {
        size_t grown = *cap ? *cap * 2 : 64;
        pending_t *p = realloc(*stack, grown * sizeof *p);
        if (!p) {
            return false;
        }
        *stack = p;
        *cap = grown;
    }
    (*stack)[(*n)++] = (pending_t){v, level};
    return true;
}

static uint64_t array_bytes(const smc_value_t *v)
{
    return (uint64_t)v->array.count * smc_typed_list_width(v->type);
}

bool smc_runner_summarize(const smc_runner_item_t *item, smc_runner_summary_t *out)
{
    const smc_value_t *root = item->value;
    if (item->entry == SMC_ENTRY_CALL) {
        root = item->call.args;
    } else if (item->entry == SMC_ENTRY_ENVELOPE) {
        root = item->envelope.is_error ? item->envelope.details : item->envelope.result;
    }
    *out = (smc_runner_summary_t){0, 0, 0};
    pending_t *stack = NULL;
    size_t n = 0, cap = 0;
    bool ok = !root || push(&stack, &n, &cap, root, 0);
    while (ok && n > 0) {
        pending_t p = stack[--n];
        const smc_value_t *v = p.value;
        out->values++;
        uint64_t inner = p.level + 1;
        switch (v->type) {
        case SMC_TYPE_STR:
        case SMC_TYPE_LARGEINT:
        case SMC_TYPE_U8S:
            out->bytes += v->bytes.len;
            break;
        case SMC_TYPE_I32S:
        case SMC_TYPE_I64S:
        case SMC_TYPE_F64S:
        case SMC_TYPE_F32S:
            out->bytes += array_bytes(v);
            break;
        case SMC_TYPE_LIST:
            out->depth = inner > out->depth ? inner : out->depth;
            for (size_t i = 0; ok && i < v->list.count; i++) {
                ok = push(&stack, &n, &cap, &v->list.items[i], inner);
            }
            break;
        case SMC_TYPE_MAP:
            out->depth = inner > out->depth ? inner : out->depth;
            for (size_t i = 0; ok && i < 2 * v->map.count; i++) {
                ok = push(&stack, &n, &cap, &v->map.entries[i], inner);
            }
            break;
        case SMC_TYPE_CUSTOM:
            out->depth = inner > out->depth ? inner : out->depth;
            ok = !v->custom.payload || push(&stack, &n, &cap, v->custom.payload, inner);
            break;
        case SMC_TYPE_NULL:
        case SMC_TYPE_BOOL:
        case SMC_TYPE_I32:
        case SMC_TYPE_I64:
        case SMC_TYPE_F64:
            break;
        }
    }
    free(stack);
    return ok;
}
