/**
 * @file smct_doc.h
 * @brief One decoded or to-be-encoded item of any entry point (message, method call,
 *        envelope), with decode/encode/equality helpers over the reference library.
 *
 * The CLI, the judge and the C runner all work per entry point
 * (runners/PROTOCOL.md: `entry` is "message", "call" or "envelope"); smct_doc_t lets them
 * treat the three uniformly.
 */
#ifndef SMCT_DOC_H
#define SMCT_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smc/smc.h"
#include "smct_buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/** "message", "call", "envelope"; "?" otherwise. */
const char *smct_entry_name(smc_entry_t entry);

/** Parse an entry name of `len` bytes ("message", "call", "envelope"); false if unknown. */
bool smct_entry_from_name(const char *name, size_t len, smc_entry_t *out);

/** One item of an entry point. Only the member selected by `entry` is meaningful. */
typedef struct smct_doc {
    smc_entry_t entry;
    smc_value_t *value;      /**< MESSAGE: the value. */
    smc_method_call_t call;  /**< CALL */
    smc_envelope_t envelope; /**< ENVELOPE */
} smct_doc_t;

/**
 * Decode `data[0..len)` with the entry point `entry` (smc_decode, smc_decode_method_call or
 * smc_decode_envelope). `out` is zeroed first and its `entry` set.
 * @return the library's status; `err` (optional) gets class/offset per spec/errors.md.
 */
smc_status_t smct_doc_decode(const uint8_t *data, size_t len, smc_entry_t entry,
                             const smc_decode_opts_t *opts, smc_arena_t *arena, smct_doc_t *out,
                             smc_error_t *err);

/**
 * Encode `doc` canonically (spec §13) and append the bytes to `out` (grown as needed).
 * @return SMC_OK, SMC_ERR_NOT_ENCODABLE, SMC_ERR_DEPTH, SMC_ERR_USAGE, or SMC_ERR_NOMEM
 *         when `out` cannot grow. On failure `out` is left as it was.
 */
smc_status_t smct_doc_encode(const smct_doc_t *doc, smct_buf_t *out, smc_error_t *err);

/**
 * Exact equality of two items of the same entry (smc_value_equal for values; names, codes,
 * messages and stacktraces byte for byte; message null ≠ ""; stacktrace absent ≠ null).
 * Items of different entries are never equal.
 */
bool smct_doc_equal(const smct_doc_t *a, const smct_doc_t *b);

#ifdef __cplusplus
}
#endif

#endif /* SMCT_DOC_H */
