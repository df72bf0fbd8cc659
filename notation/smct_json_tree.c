/*
 * Reading a parsed JSON tree (smct_json.h): lookups that accept NULL and wrong types, so a
 * caller can walk untrusted JSON (a runner's response) without checking every step, exact
 * integer readers (no float conversion: 2^53+1 stays exact), and structural equality.
 */
#include "smct_json.h"

#include <stdlib.h>
#include <string.h>

const char *smct_json_type_name(smct_json_type_t type)
{
    switch (type) {
    case SMCT_JSON_NULL:
        return "null";
    case SMCT_JSON_FALSE:
        return "false";
    case SMCT_JSON_TRUE:
        return "true";
    case SMCT_JSON_NUMBER:
        return "number";
    case SMCT_JSON_STRING:
        return "string";
    case SMCT_JSON_ARRAY:
        return "array";
    case SMCT_JSON_OBJECT:
        return "object";
    }
    return "?";
}

/* ---- lookups ---- */

const smct_json_t *smct_json_get_n(const smct_json_t *obj, const char *key, size_t key_len)
{
    if (obj == NULL || obj->type != SMCT_JSON_OBJECT || key == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < obj->object.count; i++) {
        const smct_json_member_t *m = &obj->object.members[i];
        if (m->key.len == key_len && memcmp(m->key.ptr, key, key_len) == 0) {
            return &m->value;
        }
    }
    return NULL;
}

const smct_json_t *smct_json_get(const smct_json_t *obj, const char *key)
{
    return key == NULL ? NULL : smct_json_get_n(obj, key, strlen(key));
}

const smct_json_t *smct_json_at(const smct_json_t *arr, size_t index)
{
    if (arr == NULL || arr->type != SMCT_JSON_ARRAY || index >= arr->array.count) {
        return NULL;
    }
    return &arr->array.items[index];
}

size_t smct_json_count(const smct_json_t *v)
{
    if (v == NULL) {
        return 0;
    }
    if (v->type == SMCT_JSON_ARRAY) {
        return v->array.count;
    }
    if (v->type == SMCT_JSON_OBJECT) {
        return v->object.count;
    }
    return 0;
}

bool smct_json_is_str(const smct_json_t *v, const char *s)
{
    if (v == NULL || s == NULL || v->type != SMCT_JSON_STRING) {
        return false;
    }
    size_t n = strlen(s);
    return v->str.len == n && memcmp(v->str.ptr, s, n) == 0;
}

bool smct_json_is_integer(const smct_json_t *v)
{
    if (v == NULL || v->type != SMCT_JSON_NUMBER) {
        return false;
    }
    for (size_t i = 0; i < v->number.len; i++) {
        char c = v->number.ptr[i];
        if (c == '.' || c == 'e' || c == 'E') {
            return false;
        }
    }
    return true;
}

/* Magnitude of an integer number's text and its sign; false on overflow of uint64. */
static bool integer_parts(const smct_json_t *v, bool *negative, uint64_t *magnitude)
{
    if (!smct_json_is_integer(v)) {
        return false;
    }
    const char *s = v->number.ptr;
    size_t n = v->number.len;
    size_t i = 0;
    *negative = false;
    if (i < n && s[i] == '-') {
        *negative = true;
        i++;
    }
    uint64_t m = 0;
    for (; i < n; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (m > (UINT64_MAX - d) / 10u) {
            return false;
        }
        m = m * 10u + d;
    }
    *magnitude = m;
    return true;
}

bool smct_json_get_i64(const smct_json_t *v, int64_t *out)
{
    bool neg;
    uint64_t m;
    if (!integer_parts(v, &neg, &m)) {
        return false;
    }
    if (neg) {
        if (m > (uint64_t)INT64_MAX + 1u) {
            return false;
        }
        /* -(m) without signed overflow for m == 2^63. */
        *out = m == (uint64_t)INT64_MAX + 1u ? INT64_MIN : -(int64_t)m;
    } else {
        if (m > (uint64_t)INT64_MAX) {
            return false;
        }
        *out = (int64_t)m;
    }
    return true;
}

bool smct_json_get_i32(const smct_json_t *v, int32_t *out)
{
    int64_t x;
    if (!smct_json_get_i64(v, &x) || x < INT32_MIN || x > INT32_MAX) {
        return false;
    }
    *out = (int32_t)x;
    return true;
}

bool smct_json_get_u64(const smct_json_t *v, uint64_t *out)
{
    bool neg;
    uint64_t m;
    if (!integer_parts(v, &neg, &m) || (neg && m != 0)) {
        return false;
    }
    *out = m;
    return true;
}

/* ---- equality (iterative) ---- */

typedef struct pair {
    const smct_json_t *a;
    const smct_json_t *b;
} pair_t;

bool smct_json_equal(const smct_json_t *a, const smct_json_t *b)
{
    pair_t *stack = NULL;
    size_t n = 0;
    size_t cap = 0;
    bool equal = true;
    if (!smct_grow_array((void **)&stack, &cap, 1, sizeof *stack)) {
        return false;
    }
    stack[n++] = (pair_t){a, b};
    while (n > 0 && equal) {
        pair_t pr = stack[--n];
        if (pr.a == NULL || pr.b == NULL) {
            equal = pr.a == pr.b;
            continue;
        }
        if (pr.a->type != pr.b->type) {
            equal = false;
            continue;
        }
        switch (pr.a->type) {
        case SMCT_JSON_NULL:
        case SMCT_JSON_TRUE:
        case SMCT_JSON_FALSE:
            break;
        case SMCT_JSON_NUMBER:
        case SMCT_JSON_STRING:
            /* str and number share the same layout in the union */
            equal =
                pr.a->str.len == pr.b->str.len &&
                (pr.a->str.len == 0 || memcmp(pr.a->str.ptr, pr.b->str.ptr, pr.a->str.len) == 0);
            break;
        case SMCT_JSON_ARRAY:
            if (pr.a->array.count != pr.b->array.count) {
                equal = false;
                break;
            }
            if (!smct_grow_array((void **)&stack, &cap, n + pr.a->array.count, sizeof *stack)) {
                equal = false;
                break;
            }
            for (size_t i = 0; i < pr.a->array.count; i++) {
                stack[n++] = (pair_t){&pr.a->array.items[i], &pr.b->array.items[i]};
            }
            break;
        case SMCT_JSON_OBJECT:
            if (pr.a->object.count != pr.b->object.count) {
                equal = false;
                break;
            }
            if (!smct_grow_array((void **)&stack, &cap, n + pr.a->object.count, sizeof *stack)) {
                equal = false;
                break;
            }
            for (size_t i = 0; i < pr.a->object.count && equal; i++) {
                const smct_json_member_t *ma = &pr.a->object.members[i];
                const smct_json_member_t *mb = &pr.b->object.members[i];
                if (ma->key.len != mb->key.len ||
                    (ma->key.len > 0 && memcmp(ma->key.ptr, mb->key.ptr, ma->key.len) != 0)) {
                    equal = false;
                }
                stack[n++] = (pair_t){&ma->value, &mb->value};
            }
            break;
        }
    }
    free(stack);
    return equal;
}
