/**
 * @file complexity_family.h
 * @brief The family file of complexity conformance (spec §15.4, vectors/c15-complexity.json,
 *        spec/vectors.md V.8): read, checked and expanded member by member
 *        (complexity_family.c), and MANIFEST.json's entry for it (complexity_manifest.c).
 *        The timing, the verdict and the reports are complexity/'s (complexity.h).
 */
#ifndef SMCJ_COMPLEXITY_FAMILY_H
#define SMCJ_COMPLEXITY_FAMILY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smct_buf.h"

/** The shapes a family can have (V.8 `shape`); each is expanded at a size n. */
typedef enum smcj_cx_shape {
    SMCJ_CX_MAP_DISTINCT = 0,   /* map of n distinct short string keys, null values */
    SMCJ_CX_MAP_JAVA_COLLIDING, /* map of n keys equal under Java's String.hashCode */
    SMCJ_CX_LIST_STRINGS,       /* list of n short strings */
    SMCJ_CX_LONG_STRING,        /* one string of n bytes */
    SMCJ_CX_LONG_BYTES,         /* one Uint8List of n bytes (also the protocol baseline) */
    SMCJ_CX_CUSTOM_VALUES,      /* list of n custom values (tag 0x80 around an int32) */
    SMCJ_CX_WIDE_NESTING,       /* list of n small maps of lists */
    SMCJ_CX_DEEP_NESTING,       /* list of n chains of 48 nested lists (legal: R15.1-1) */
    SMCJ_CX_ERROR_DETAILS,      /* error envelope whose details are a list of n strings */
    SMCJ_CX_SHAPE_COUNT
} smcj_cx_shape_t;

/** One member as the generator recorded it. */
typedef struct smcj_cx_member {
    uint64_t n;
    size_t bytes;
    char sha256[65];
} smcj_cx_member_t;

typedef struct smcj_cx_family {
    char *id;    /* "c15-map-distinct-keys" */
    char *title; /* "map of distinct keys": the start of the report line */
    smcj_cx_shape_t shape;
    int entry;                 /* smc_entry_t: message or envelope */
    smcj_cx_member_t *members; /* ascending n, each twice the last */
    size_t n_members;
} smcj_cx_family_t;

typedef struct smcj_cx_families {
    char *path;
    char *requirement; /* "R15.4-1" */
    char *tier;        /* "recommended" */
    smcj_cx_family_t *f;
    size_t n;
} smcj_cx_families_t;

/** Read and check a family file; false with a message in `err`. */
bool smcj_cx_load(smcj_cx_families_t *fs, const char *path, char *err, size_t err_size);
void smcj_cx_families_free(smcj_cx_families_t *fs);
/** The shape named `name` (V.8), or SMCJ_CX_SHAPE_COUNT. */
smcj_cx_shape_t smcj_cx_shape_of_name(const char *name);
/** Append the member of `shape` at size n to `out` (the whole message or envelope). */
void smcj_cx_expand(smct_buf_t *out, smcj_cx_shape_t shape, uint64_t n);
/** Append a Uint8List message of about `len` bytes in all: the protocol's baseline. */
void smcj_cx_baseline(smct_buf_t *out, size_t len);

/** MANIFEST.json's `complexity` entry checked against the family file of the vector
 *  directory (complexity_manifest.c); problems join the set's integrity problems. */
struct smcj_vectors;
struct smct_json;
void smcj_cx_manifest_check(struct smcj_vectors *vs, const struct smct_json *manifest);

#endif /* SMCJ_COMPLEXITY_FAMILY_H */
