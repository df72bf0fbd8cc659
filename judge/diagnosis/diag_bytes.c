/* Byte-level classification of encode mismatches (see diag_bytes.h). */
#define _POSIX_C_SOURCE 200809L
#include "diag_bytes.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "smcm_codec.h"

static const char *type_of_tag(uint8_t tag)
{
    static const char *const names[] = {"null",      "true",      "false",      "int32",
                                        "int64",     "largeInt",  "float64",    "string",
                                        "Uint8List", "Int32List", "Int64List",  "Float64List",
                                        "list",      "map",       "Float32List"};
    if (tag < sizeof names / sizeof names[0]) {
        return names[tag];
    }
    return tag >= 0x80 ? "custom value" : "unknown tag";
}

static const char *role_name(uint8_t role)
{
    switch (role) {
    case SMCM_ROLE_TAG:
        return "tag";
    case SMCM_ROLE_SIZE:
        return "size";
    case SMCM_ROLE_PAD:
        return "padding";
    case SMCM_ROLE_DATA:
        return "data";
    case SMCM_ROLE_FLAG:
        return "flag";
    default:
        return "byte";
    }
}

/* "the Int32List at offset 5" (the value byte i of the canonical bytes belongs to). */
static char *owner_text(const smcm_answer_t *c, size_t i)
{
    size_t o = c->owner[i];
    if (c->roles[i] == SMCM_ROLE_FLAG) {
        return smcj_strdup("the envelope flag at offset 0");
    }
    return smcj_asprintf("the %s at offset %zu", type_of_tag(c->bytes[o]), o);
}

static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i]) {
            return false;
        }
    }
    return true;
}

static int cmp_byte(const void *a, const void *b)
{
    return (int)*(const uint8_t *)a - (int)*(const uint8_t *)b;
}

static bool same_multiset(const uint8_t *a, const uint8_t *b, size_t n)
{
    uint8_t *x = smcj_malloc(n + 1), *y = smcj_malloc(n + 1);
    if (!x || !y) {
        free(x);
        free(y);
        return false;
    }
    memcpy(x, a, n);
    memcpy(y, b, n);
    qsort(x, n, 1, cmp_byte);
    qsort(y, n, 1, cmp_byte);
    bool same = memcmp(x, y, n) == 0;
    free(x);
    free(y);
    return same;
}

/* Same length: which roles the differing bytes have. */
static char *same_length(const smcm_answer_t *c, const uint8_t *a)
{
    size_t first = SIZE_MAX, count = 0;
    unsigned roles = 0;
    for (size_t i = 0; i < c->len; i++) {
        if (c->bytes[i] != a[i]) {
            first = first == SIZE_MAX ? i : first;
            count++;
            roles |= 1u << c->roles[i];
        }
    }
    if (first == SIZE_MAX) {
        /* a host without ordered maps: the check accepted another order of the entries */
        return smcj_strdup("the canonical bytes in the order of the value's map entries");
    }
    char *who = owner_text(c, first), *s;
    if (roles == 1u << SMCM_ROLE_PAD) {
        s = smcj_asprintf("only padding bytes differ (%zu not zero, the first in %s)", count,
                          smcj_or_empty(who));
    } else if (roles == 1u << SMCM_ROLE_TAG && count == 1) {
        s = smcj_asprintf("only a tag byte differs: %s is tagged %02x (%s)", smcj_or_empty(who),
                          a[first], type_of_tag(a[first]));
    } else if (roles == 1u << SMCM_ROLE_SIZE) {
        s = smcj_asprintf("only size bytes differ (the first in %s)", smcj_or_empty(who));
    } else if (roles == 1u << SMCM_ROLE_FLAG) {
        s = smcj_asprintf("only the envelope flag differs (%02x instead of %02x)", a[first],
                          c->bytes[first]);
    } else if (roles == 1u << SMCM_ROLE_DATA) {
        s = smcj_asprintf("only data bytes differ (%zu, the first in %s)", count,
                          smcj_or_empty(who));
    } else if (same_multiset(c->bytes + first, a + first, c->len - first)) {
        s = smcj_asprintf("the same bytes in another order from offset %zu (%s)", first,
                          smcj_or_empty(who));
    } else {
        smct_buf_t b = {0};
        for (uint8_t role = SMCM_ROLE_TAG; role <= SMCM_ROLE_FLAG; role++) {
            if (roles & (1u << role)) {
                smct_buf_printf(&b, "%s%s", b.len ? ", " : "", role_name(role));
            }
        }
        s = smcj_asprintf("same length, bytes differ in %s from offset %zu (%s)", smct_buf_cstr(&b),
                          first, smcj_or_empty(who));
        smct_buf_free(&b);
    }
    free(who);
    return s;
}

/* The actual bytes are the canonical ones with m bytes inserted at some offset in
 * [lo, hi]: say what the inserted bytes look like. */
static char *inserted(const smcm_answer_t *c, const uint8_t *a, size_t m, size_t lo, size_t hi)
{
    for (size_t i = lo; i <= hi; i++) {
        const uint8_t *x = a + i;
        if (i >= m && memcmp(x, a + i - m, m) == 0 && i <= c->len && i > 0 &&
            c->roles[i - 1] == SMCM_ROLE_DATA) {
            char *who = owner_text(c, i - 1);
            char *s = smcj_asprintf("%zu bytes written twice at offset %zu (the data of %s)", m,
                                    i - m, smcj_or_empty(who));
            free(who);
            return s;
        }
    }
    for (size_t i = lo; i <= hi; i++) {
        /* zeros where aligned data starts: after a size, a float64 tag or padding */
        if (all_zero(a + i, m) && i > 0 && i < c->len && c->roles[i] == SMCM_ROLE_DATA &&
            (c->roles[i - 1] == SMCM_ROLE_SIZE || c->roles[i - 1] == SMCM_ROLE_PAD ||
             (c->roles[i - 1] == SMCM_ROLE_TAG && c->bytes[i - 1] == 0x06))) {
            char *who = owner_text(c, i);
            char *s = smcj_asprintf("%zu extra zero bytes of padding before the data of %s", m,
                                    smcj_or_empty(who));
            free(who);
            return s;
        }
    }
    char *who = owner_text(c, lo < c->len ? lo : c->len - 1);
    char *s = smcj_asprintf("%zu extra bytes at offset %zu (in %s)", m, lo, smcj_or_empty(who));
    free(who);
    return s;
}

/* The actual bytes are the canonical ones without m bytes at some offset in [lo, hi]. */
static char *deleted(const smcm_answer_t *c, size_t m, size_t lo, size_t hi)
{
    for (size_t i = lo; i <= hi && i + m <= c->len; i++) {
        bool pad = true;
        for (size_t k = i; k < i + m && pad; k++) {
            pad = c->roles[k] == SMCM_ROLE_PAD;
        }
        if (pad) {
            char *who = owner_text(c, i);
            char *s = smcj_asprintf("%zu padding bytes missing (of %s)", m, smcj_or_empty(who));
            free(who);
            return s;
        }
    }
    char *who = owner_text(c, lo < c->len ? lo : c->len - 1);
    char *s = smcj_asprintf("%zu bytes missing at offset %zu (in %s)", m, lo, smcj_or_empty(who));
    free(who);
    return s;
}

static char *classify(const smcm_answer_t *c, const uint8_t *a, size_t n)
{
    if (n == 0) {
        return smcj_asprintf("no bytes at all (expected %zu)", c->len);
    }
    if (n == c->len) {
        return same_length(c, a);
    }
    size_t shorter = n < c->len ? n : c->len, p = 0, s = 0;
    while (p < shorter && c->bytes[p] == a[p]) {
        p++;
    }
    while (s < shorter && c->bytes[c->len - 1 - s] == a[n - 1 - s]) {
        s++;
    }
    if (n > c->len && p + s >= c->len) {
        /* one insertion of m bytes, anywhere from offset len-s to p */
        return inserted(c, a, n - c->len, c->len - s, p);
    }
    if (n < c->len && p + s >= n) {
        return deleted(c, c->len - n, n - s, p);
    }
    char *who = owner_text(c, p < c->len ? p : c->len - 1);
    char *out = smcj_asprintf(
        "different length (%zu bytes instead of %zu), first difference at offset %zu "
        "in the %s of %s",
        n, c->len, p, role_name(c->roles[p < c->len ? p : c->len - 1]), smcj_or_empty(who));
    free(who);
    return out;
}

char *smcj_bytes_classify(const smct_doc_t *doc, const uint8_t *actual, size_t actual_len)
{
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smcm_answer_t canon;
    smcm_encode(0, doc, &arena, &canon);
    char *s = canon.kind == SMCM_BYTES && canon.len > 0
                  ? classify(&canon, actual, actual_len)
                  : smcj_strdup("bytes differ (no canonical form to compare)");
    smc_arena_free(&arena);
    return s;
}
