/*
 * Keys a host cannot keep apart (merge_keys.h). The copy shares scalars and typed lists with
 * the input (they are not changed) and rebuilds only lists, maps and custom values.
 */
#include "merge_keys.h"

#include <string.h>

/* Deeper than any vector's value; below it nothing is merged (the copy is shallow there). */
#define MERGE_MAX_DEPTH 256

static bool merged(const smc_value_t *in, smcj_cmp_t how, bool last, smc_arena_t *arena, int depth,
                   smc_value_t *out)
{
    *out = *in;
    if (depth > MERGE_MAX_DEPTH) {
        return true;
    }
    switch (in->type) {
    case SMC_TYPE_LIST: {
        size_t n = in->list.count;
        smc_value_t *items = smc_arena_alloc(arena, (n ? n : 1) * sizeof *items);
        if (!items) {
            return false;
        }
        for (size_t i = 0; i < n; i++) {
            if (!merged(&in->list.items[i], how, last, arena, depth + 1, &items[i])) {
                return false;
            }
        }
        out->list.items = items;
        return true;
    }
    case SMC_TYPE_MAP: {
        size_t n = in->map.count, kept = 0;
        smc_value_t *entries = smc_arena_alloc(arena, (n ? 2 * n : 1) * sizeof *entries);
        if (!entries) {
            return false;
        }
        for (size_t i = 0; i < n; i++) {
            const smc_value_t *key = &in->map.entries[2 * i];
            size_t j = 0;
            while (j < kept && !smcj_value_equal_as(&entries[2 * j], key, how)) {
                j++;
            }
            if (j == kept) {
                if (!merged(key, how, last, arena, depth + 1, &entries[2 * kept])) {
                    return false;
                }
                kept++;
            } else if (!last) {
                continue; /* the first value stays */
            }
            if (!merged(&in->map.entries[2 * i + 1], how, last, arena, depth + 1,
                        &entries[2 * j + 1])) {
                return false;
            }
        }
        out->map.entries = entries;
        out->map.count = kept;
        return true;
    }
    case SMC_TYPE_CUSTOM: {
        smc_value_t *payload = smc_arena_alloc(arena, sizeof *payload);
        if (!payload || !merged(in->custom.payload, how, last, arena, depth + 1, payload)) {
            return false;
        }
        out->custom.payload = payload;
        return true;
    }
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
    return true;
}

static bool merged_ptr(smc_value_t **slot, smcj_cmp_t how, bool last, smc_arena_t *arena)
{
    if (!*slot) {
        return true;
    }
    smc_value_t *copy = smc_arena_alloc(arena, sizeof *copy);
    if (!copy || !merged(*slot, how, last, arena, 0, copy)) {
        return false;
    }
    *slot = copy;
    return true;
}

bool smcj_doc_merge_keys(const smct_doc_t *in, smcj_cmp_t how, bool keep_last, smc_arena_t *arena,
                         smct_doc_t *out)
{
    *out = *in;
    switch (in->entry) {
    case SMC_ENTRY_MESSAGE:
        return merged_ptr(&out->value, how, keep_last, arena);
    case SMC_ENTRY_CALL:
        return merged_ptr(&out->call.args, how, keep_last, arena);
    case SMC_ENTRY_ENVELOPE:
        return merged_ptr(out->envelope.is_error ? &out->envelope.details : &out->envelope.result,
                          how, keep_last, arena);
    }
    return false;
}

bool smcj_is_host_merge(const smct_doc_t *want, const smct_doc_t *got, smcj_cmp_t how,
                        smc_arena_t *arena)
{
    for (int last = 0; last < 2; last++) {
        smct_doc_t m;
        if (smcj_doc_merge_keys(want, how, last != 0, arena, &m) &&
            smcj_doc_equal_as(&m, got, how)) {
            return true;
        }
    }
    return false;
}
