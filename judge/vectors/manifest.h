/**
 * @file manifest.h
 * @brief Vectors that prove who they are (issue 26, spec/vectors.md V.1): every vector file
 *        against the SHA-256 MANIFEST.json gives it, and MANIFEST.json against the one of the
 *        release it claims, which the judge was built with (generated/manifest_known.c).
 */
#ifndef SMCJ_MANIFEST_H
#define SMCJ_MANIFEST_H

#include <stdbool.h>

#include "model.h"

/** The vectors release this judge was built with and the SHA-256 of its MANIFEST.json. */
extern const char smcj_known_vectors_version[];
extern const char smcj_known_manifest_sha256[];

/**
 * Whether `dir`/MANIFEST.json is the one of the release built in: only then are the vector
 * files' SHA-256 compared (smcj_manifest_verify), so only then computed (vectors.c; about
 * 6 ns a byte, 1.5 s of CPU for the 256 MiB file of one 64 MiB vector).
 */
bool smcj_manifest_is_known(const char *dir);

/**
 * Check the loaded set `vs` (its files and their SHA-256, vectors.c) against
 * `vs->dir`/MANIFEST.json: fills vs->integrity with one line per problem (none: the set is
 * the released one, byte for byte). Out of memory is recorded (alloc.h).
 */
void smcj_manifest_verify(smcj_vectors_t *vs);

#endif /* SMCJ_MANIFEST_H */
