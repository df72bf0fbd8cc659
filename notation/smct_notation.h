/**
 * @file smct_notation.h
 * @brief The value notation (spec/notation.md) ↔ smc_value_t / method calls / envelopes.
 *
 * Reading follows notation.md N.3 (grammar) and N.4 (reading rules) exactly and rejects
 * everything N.4 lists: an unknown type word, a wrong element count, an `i32` that is not an
 * integer or is out of range (`1.0`, `1e2`), an `i64` that is not a canonical decimal string
 * (incl. "-0"), hex of the wrong length or with upper-case digits, a custom tag outside
 * 128..255, a lone surrogate escape (rejected by the JSON reader), a `strbytes` whose bytes
 * are empty or well-formed UTF-8 (N.1: that string has the `str` form). Errors carry the byte
 * offset in the JSON text:
 *  - a wrong value (type word, number, string, tag) → the offset of that JSON value;
 *  - too few elements in an array → the offset of the array's closing `]`;
 *  - too many elements → the offset of the first extra element;
 *  - a bad hex digit inside a string → the offset of the string's opening quote.
 * A JSON integer `-0` is accepted as the i32 value 0 (it is an integer in range); the writer
 * never produces it.
 *
 * Neither the reader nor the writer recurses: both walk the tree with an explicit heap
 * stack, so depth is limited only by the JSON reader's nesting limit and memory.
 *
 * Writing produces the canonical notation text: compact (no spaces at all, e.g.
 * `["list",[["null"],["i32",1]]]`), lower-case hex, 64-bit integers as decimal strings,
 * strings escaped as smct_json_write_string does (raw UTF-8, escapes only `"`, `\` and
 * control characters), and a string whose bytes are not UTF-8 (a codec that keeps them, spec
 * §5.3) as the decode-only `["strbytes","H"]`, in values and in the text fields of calls and
 * envelopes alike. SMCT_NOTATION_PRETTY indents containers for people instead.
 */
#ifndef SMCT_NOTATION_H
#define SMCT_NOTATION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smc/smc.h"
#include "smct_buf.h"
#include "smct_doc.h"
#include "smct_error.h"
#include "smct_json.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- reading ---- */

/**
 * Convert a parsed JSON value (a notation value, N.1) into a value tree in `arena`.
 * @return SMCT_OK; SMCT_ERR_NOTATION (offset/message in `err`); SMCT_ERR_NOMEM.
 */
smct_status_t smct_notation_read_value(const smct_json_t *json, smc_arena_t *arena,
                                       smc_value_t **out, smct_error_t *err);

/**
 * Convert a parsed JSON form of entry `entry` (N.1 value for MESSAGE, N.2 `call` form for
 * CALL, `success`/`error` form for ENVELOPE) into `out` (zeroed first, `entry` set).
 * Strings in calls and envelopes (name, code, message, stacktrace) are copied into `arena`.
 */
smct_status_t smct_notation_read(const smct_json_t *json, smc_entry_t entry, smc_arena_t *arena,
                                 smct_doc_t *out, smct_error_t *err);

/**
 * Parse notation text (JSON then notation) of entry `entry`. JSON errors are reported as
 * SMCT_ERR_SYNTAX / SMCT_ERR_DEPTH with their offsets; both are "bad_notation" to users.
 */
smct_status_t smct_notation_parse(const char *text, size_t len, smc_entry_t entry,
                                  smc_arena_t *arena, smct_doc_t *out, smct_error_t *err);

/** Parse the notation text of one value (entry MESSAGE). */
smct_status_t smct_notation_parse_value(const char *text, size_t len, smc_arena_t *arena,
                                        smc_value_t **out, smct_error_t *err);

/**
 * The entry a JSON form belongs to, from its first element: "call" → CALL, "success" or
 * "error" → ENVELOPE, anything else → MESSAGE (which may then fail to read).
 */
smc_entry_t smct_notation_guess_entry(const smct_json_t *json);

/* ---- writing ---- */

/** Flags of the writers. */
#define SMCT_NOTATION_COMPACT 0u /**< Canonical form: no whitespace at all. */
#define SMCT_NOTATION_PRETTY                                                                       \
    1u /**< One list element / map entry per line, indented 2 spaces per level (at most 32         \
          levels). */

/**
 * Append the notation of `v` to `b`.
 * @return SMCT_OK; SMCT_ERR_NO_NOTATION (a largeInt that is not UTF-8, an unknown
 *         type, a custom tag outside 128..255; `err->offset` is 0); SMCT_ERR_NOMEM;
 *         SMCT_ERR_USAGE (NULL). On failure `b` may hold a partial text.
 */
smct_status_t smct_notation_write_value(smct_buf_t *b, const smc_value_t *v, unsigned flags,
                                        smct_error_t *err);

/** Append the notation of a method call: ["call","NAME",V]. */
smct_status_t smct_notation_write_call(smct_buf_t *b, const smc_method_call_t *call, unsigned flags,
                                       smct_error_t *err);

/** Append the notation of an envelope: ["success",V] or ["error","CODE",MSG,DETAILS(,ST)]. */
smct_status_t smct_notation_write_envelope(smct_buf_t *b, const smc_envelope_t *env, unsigned flags,
                                           smct_error_t *err);

/** Append the notation of `doc` according to doc->entry. */
smct_status_t smct_notation_write(smct_buf_t *b, const smct_doc_t *doc, unsigned flags,
                                  smct_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* SMCT_NOTATION_H */
