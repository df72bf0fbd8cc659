/*
 * Complexity families (spec §15.4, spec/vectors.md V.8): the family file read and checked,
 * and each member expanded from its shape and size. The generator (vectors/gen/complexity.py)
 * expands the same rules independently and records each member's length and SHA-256; a member
 * the judge expands otherwise is refused (complexity_run.c), so a family is never timed on
 * bytes nobody checked.
 */
#define _POSIX_C_SOURCE 200809L
#include "complexity_family.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "smc/smc.h"
#include "smct_io.h"
#include "smct_json.h"

static const char *const k_shape_names[SMCJ_CX_SHAPE_COUNT] = {"map-distinct-keys",
                                                               "map-java-colliding-keys",
                                                               "list-small-strings",
                                                               "long-string",
                                                               "long-bytes",
                                                               "custom-values",
                                                               "wide-nesting",
                                                               "deep-nesting",
                                                               "error-envelope-details"};

smcj_cx_shape_t smcj_cx_shape_of_name(const char *name)
{
    for (int s = 0; s < SMCJ_CX_SHAPE_COUNT; s++) {
        if (strcmp(k_shape_names[s], name) == 0) {
            return (smcj_cx_shape_t)s;
        }
    }
    return SMCJ_CX_SHAPE_COUNT;
}

/* The size prefix of spec §2 (R2-1..3). */
static void put_size(smct_buf_t *b, uint64_t n)
{
    if (n < 254) {
        smct_buf_putc(b, (char)n);
    } else if (n <= 0xffff) {
        uint8_t s[3] = {0xfe, (uint8_t)n, (uint8_t)(n >> 8)};
        smct_buf_append(b, s, sizeof s);
    } else {
        uint8_t s[5] = {0xff, (uint8_t)n, (uint8_t)(n >> 8), (uint8_t)(n >> 16),
                        (uint8_t)(n >> 24)};
        smct_buf_append(b, s, sizeof s);
    }
}

static void put_str(smct_buf_t *b, const char *s, size_t len)
{
    smct_buf_putc(b, 0x07);
    put_size(b, len);
    smct_buf_append(b, s, len);
}

/* "<prefix><decimal i>" as a string value: short keys, all distinct. */
static void put_numbered(smct_buf_t *b, char prefix, uint64_t i)
{
    char s[32];
    int len = snprintf(s, sizeof s, "%c%llu", prefix, (unsigned long long)i);
    put_str(b, s, (size_t)len);
}

/* Key i of 2^m keys that share one Java String.hashCode: bit j of i (from the top) picks
 * "Aa" or "BB", two strings with the same hash (31·'A'+'a' = 31·'B'+'B' = 2112), and a
 * concatenation of equal-hash blocks of one length has one hash. */
static void put_java_colliding(smct_buf_t *b, uint64_t i, unsigned m)
{
    char s[128];
    for (unsigned j = 0; j < m && j < 64; j++) {
        bool one = (i >> (m - 1 - j)) & 1u;
        s[2 * j] = one ? 'B' : 'A';
        s[2 * j + 1] = one ? 'B' : 'a';
    }
    put_str(b, s, 2u * m);
}

static unsigned log2_exact(uint64_t n)
{
    unsigned m = 0;
    while ((1ull << m) < n && m < 63) {
        m++;
    }
    return m;
}

void smcj_cx_expand(smct_buf_t *b, smcj_cx_shape_t shape, uint64_t n)
{
    static const char k_alpha[] = "abcdefghijklmnopqrstuvwxyz";
    switch (shape) {
    case SMCJ_CX_MAP_DISTINCT:
    case SMCJ_CX_MAP_JAVA_COLLIDING:
        smct_buf_putc(b, 0x0d);
        put_size(b, n);
        for (uint64_t i = 0; i < n && smct_buf_ok(b); i++) {
            if (shape == SMCJ_CX_MAP_DISTINCT) {
                put_numbered(b, 'k', i);
            } else {
                put_java_colliding(b, i, log2_exact(n));
            }
            smct_buf_putc(b, 0x00);
        }
        break;
    case SMCJ_CX_LIST_STRINGS:
    case SMCJ_CX_CUSTOM_VALUES:
    case SMCJ_CX_WIDE_NESTING:
    case SMCJ_CX_DEEP_NESTING:
        smct_buf_putc(b, 0x0c);
        put_size(b, n);
        for (uint64_t i = 0; i < n && smct_buf_ok(b); i++) {
            if (shape == SMCJ_CX_LIST_STRINGS) {
                put_numbered(b, 's', i);
            } else if (shape == SMCJ_CX_CUSTOM_VALUES) {
                uint8_t v[6] = {0x80,
                                0x03,
                                (uint8_t)i,
                                (uint8_t)(i >> 8),
                                (uint8_t)(i >> 16),
                                (uint8_t)(i >> 24)};
                smct_buf_append(b, v, sizeof v);
            } else if (shape == SMCJ_CX_WIDE_NESTING) {
                static const uint8_t k_small[] = {0x0d, 0x01, 0x07, 0x01, 'k', 0x0c, 0x01, 0x00};
                smct_buf_append(b, k_small, sizeof k_small); /* {"k": [null]} */
            } else {
                for (int d = 0; d < 47; d++) { /* depth 48 with the outer list: R15.1-1 */
                    smct_buf_append(b, "\x0c\x01", 2);
                }
                smct_buf_putc(b, 0x00);
            }
        }
        break;
    case SMCJ_CX_LONG_STRING:
    case SMCJ_CX_LONG_BYTES:
        smct_buf_putc(b, shape == SMCJ_CX_LONG_STRING ? 0x07 : 0x08);
        put_size(b, n);
        for (uint64_t i = 0; i < n && smct_buf_ok(b); i++) {
            smct_buf_putc(b, shape == SMCJ_CX_LONG_STRING ? k_alpha[i % 26] : (char)(i & 0xff));
        }
        break;
    case SMCJ_CX_ERROR_DETAILS:
        smct_buf_append(b,
                        "\x01\x07\x01"
                        "E"
                        "\x07\x01"
                        "m\x0c",
                        8);
        put_size(b, n);
        for (uint64_t i = 0; i < n && smct_buf_ok(b); i++) {
            put_numbered(b, 'd', i);
        }
        break;
    case SMCJ_CX_SHAPE_COUNT:
        break;
    }
}

void smcj_cx_baseline(smct_buf_t *b, size_t len)
{
    size_t m = len >= 2 + 254 ? (len >= 4 + 0x10000 ? len - 6 : len - 4) : (len > 2 ? len - 2 : 0);
    smcj_cx_expand(b, SMCJ_CX_LONG_BYTES, m);
}

static char *dup_str(const smct_json_t *v)
{
    return v && v->type == SMCT_JSON_STRING ? smcj_strdup(v->str.ptr) : NULL;
}

static bool load_member(smcj_cx_member_t *m, const smct_json_t *j, const smcj_cx_member_t *prev)
{
    const smct_json_t *sha = smct_json_get(j, "sha256");
    uint64_t bytes = 0;
    if (!smct_json_get_u64(smct_json_get(j, "n"), &m->n) || m->n == 0 || m->n > (1u << 26) ||
        !smct_json_get_u64(smct_json_get(j, "bytes"), &bytes) || bytes > (64u << 20) || !sha ||
        sha->type != SMCT_JSON_STRING || sha->str.len != 64 || (prev && m->n != 2 * prev->n)) {
        return false;
    }
    m->bytes = (size_t)bytes;
    memcpy(m->sha256, sha->str.ptr, 65);
    return true;
}

static bool load_family(smcj_cx_family_t *f, const smct_json_t *j, char *err, size_t err_size)
{
    f->id = dup_str(smct_json_get(j, "id"));
    f->title = dup_str(smct_json_get(j, "title"));
    const smct_json_t *shape = smct_json_get(j, "shape");
    const smct_json_t *entry = smct_json_get(j, "entry");
    const smct_json_t *members = smct_json_get(j, "members");
    f->shape = shape && shape->type == SMCT_JSON_STRING ? smcj_cx_shape_of_name(shape->str.ptr)
                                                        : SMCJ_CX_SHAPE_COUNT;
    f->entry = smct_json_is_str(entry, "message")    ? SMC_ENTRY_MESSAGE
               : smct_json_is_str(entry, "envelope") ? SMC_ENTRY_ENVELOPE
                                                     : -1;
    size_t n = members && members->type == SMCT_JSON_ARRAY ? members->array.count : 0;
    if (!f->id || !f->title || f->shape == SMCJ_CX_SHAPE_COUNT || f->entry < 0 || n < 2) {
        snprintf(err, err_size, "family %s: needs id, title, a known shape, entry and 2 members",
                 f->id ? f->id : "?");
        return false;
    }
    f->members = smcj_calloc(n, sizeof *f->members);
    for (size_t i = 0; f->members && i < n; i++) {
        if (!load_member(&f->members[i], &members->array.items[i], i ? &f->members[i - 1] : NULL)) {
            snprintf(err, err_size,
                     "family %s: member %zu needs n (each twice the last), bytes and sha256", f->id,
                     i);
            return false;
        }
        if (f->shape == SMCJ_CX_MAP_JAVA_COLLIDING && (f->members[i].n & (f->members[i].n - 1))) {
            snprintf(err, err_size, "family %s: n must be a power of two", f->id);
            return false;
        }
        f->n_members++;
    }
    return f->members != NULL;
}

bool smcj_cx_load(smcj_cx_families_t *fs, const char *path, char *err, size_t err_size)
{
    memset(fs, 0, sizeof *fs);
    uint8_t *data = NULL;
    size_t len = 0;
    smct_error_t e;
    if (smct_read_file(path, 16u << 20, &data, &len, err, err_size) != SMCT_OK) {
        return false;
    }
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smct_json_t *root = NULL;
    bool ok = smct_json_parse((const char *)data, len, NULL, &arena, &root, &e) == SMCT_OK;
    smct_io_free(data);
    const smct_json_t *fams = ok ? smct_json_get(root, "families") : NULL;
    uint64_t version = 0;
    if (!ok || !smct_json_get_u64(smct_json_get(root, "complexity_version"), &version) ||
        version != 1 || !fams || fams->type != SMCT_JSON_ARRAY) {
        snprintf(err, err_size, "%s: not a complexity family file of version 1 (V.8)", path);
        smc_arena_free(&arena);
        return false;
    }
    fs->path = smcj_strdup(path);
    fs->requirement = dup_str(smct_json_get(root, "requirement"));
    fs->tier = dup_str(smct_json_get(root, "tier"));
    fs->f = smcj_calloc(fams->array.count ? fams->array.count : 1, sizeof *fs->f);
    ok = fs->f && fs->requirement && fs->tier;
    for (size_t i = 0; ok && i < fams->array.count; i++) {
        char why[256];
        ok = load_family(&fs->f[fs->n], &fams->array.items[i], why, sizeof why);
        fs->n++;
        if (!ok) {
            snprintf(err, err_size, "%s: %s", path, why);
        }
    }
    smc_arena_free(&arena);
    if (!ok) {
        smcj_cx_families_free(fs);
    }
    return ok;
}

void smcj_cx_families_free(smcj_cx_families_t *fs)
{
    for (size_t i = 0; fs->f && i < fs->n; i++) {
        free(fs->f[i].id);
        free(fs->f[i].title);
        free(fs->f[i].members);
    }
    free(fs->f);
    free(fs->path);
    free(fs->requirement);
    free(fs->tier);
    memset(fs, 0, sizeof *fs);
}
