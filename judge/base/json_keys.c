/*
 * Doubled JSON keys (json_keys.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "json_keys.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"

/* Keys compared pairwise up to this many members, sorted beyond it. */
#define PAIRWISE_KEYS 16u

static int key_cmp(const void *a, const void *b)
{
    const smct_str_t *x = *(const smct_str_t *const *)a, *y = *(const smct_str_t *const *)b;
    size_t n = x->len < y->len ? x->len : y->len;
    int d = memcmp(x->ptr, y->ptr, n);
    return d ? d : (x->len > y->len) - (x->len < y->len);
}

static bool same_key(const smct_str_t *a, const smct_str_t *b)
{
    return a->len == b->len && memcmp(a->ptr, b->ptr, a->len) == 0;
}

/* The first key an object holds twice, or NULL (false with *oom when memory ran out). */
static const smct_str_t *doubled_key(const smct_json_t *o, bool *oom)
{
    size_t n = o->object.count;
    if (n <= PAIRWISE_KEYS) {
        for (size_t i = 0; i < n; i++) {
            for (size_t j = i + 1; j < n; j++) {
                if (same_key(&o->object.members[i].key, &o->object.members[j].key)) {
                    return &o->object.members[j].key;
                }
            }
        }
        return NULL;
    }
    const smct_str_t **keys = smcj_calloc(n, sizeof *keys);
    if (!keys) {
        *oom = true;
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        keys[i] = &o->object.members[i].key;
    }
    qsort(keys, n, sizeof *keys, key_cmp);
    const smct_str_t *dup = NULL;
    for (size_t i = 1; i < n && !dup; i++) {
        dup = same_key(keys[i - 1], keys[i]) ? keys[i] : NULL;
    }
    free(keys);
    return dup;
}

/* Every object of the tree once, without recursion (a runner's value nests as deep as the
 * parser allows). */
const smct_str_t *smcj_json_doubled_key(const smct_json_t *root, bool *oom)
{
    size_t cap = 64, n = 0;
    const smct_json_t **stack = smcj_calloc(cap, sizeof *stack);
    if (!stack) {
        *oom = true;
        return NULL; /* out of memory (recorded) */
    }
    stack[n++] = root;
    const smct_str_t *dup = NULL;
    while (n && !dup && !*oom) {
        const smct_json_t *v = stack[--n];
        size_t kids = v->type == SMCT_JSON_OBJECT  ? v->object.count
                      : v->type == SMCT_JSON_ARRAY ? v->array.count
                                                   : 0;
        if (v->type == SMCT_JSON_OBJECT) {
            dup = doubled_key(v, oom);
        }
        if (!dup && n + kids > cap && !smcj_grow((void **)&stack, &cap, n + kids, sizeof *stack)) {
            *oom = true;
        }
        for (size_t i = 0; !dup && !*oom && i < kids; i++) {
            stack[n++] =
                v->type == SMCT_JSON_OBJECT ? &v->object.members[i].value : &v->array.items[i];
        }
    }
    free(stack);
    return dup;
}
