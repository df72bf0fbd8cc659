/**
 * @file diag_bytes.h
 * @brief Byte-level classification of an encode mismatch: which part of the canonical bytes
 *        (tag, size, padding, data, flag; of which value) the runner's bytes differ in.
 *
 * The canonical encoding is re-made with the variant codec (no bug on), which records each
 * byte's role and the value it belongs to, the knowledge `smc inspect` shows. The result is
 * one short line such as "only padding bytes differ (7, not zero)" or "4 extra zero bytes
 * before the data of the Int32List at offset 2", used in reports and, for failures no
 * catalogued bug explains, as their group.
 */
#ifndef SMCJ_DIAG_BYTES_H
#define SMCJ_DIAG_BYTES_H

#include <stddef.h>
#include <stdint.h>

#include "smct_doc.h"

/**
 * Classify `actual` against the canonical encoding of `doc`. Returns a new string (free
 * it); never NULL.
 */
char *smcj_bytes_classify(const smct_doc_t *doc, const uint8_t *actual, size_t actual_len);

#endif /* SMCJ_DIAG_BYTES_H */
