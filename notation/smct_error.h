/**
 * @file smct_error.h
 * @brief Status and error record shared by the notation library (JSON, notation, hex, I/O).
 *
 * The notation library (`smc_notation`, folder notation/, prefix `smct_`) is internal to this
 * project: the CLI, the judge, the C runner, fuzzers and tests use it; it is not installed. Every
 * failing call reports one status, one byte offset into its input text and one static message.
 */
#ifndef SMCT_ERROR_H
#define SMCT_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The statuses of every smct_* call that can fail: X(NAME, value, "name", "meaning"). Values
 * are stable and only appended to. One list gives both the enum and smct_status_name(), so
 * the two cannot drift (the library's SMC_STATUS_LIST does the same for smc_status_t). These
 * are not smc_status_t values because they describe text (JSON, notation, hex, files), which
 * libsmc never reads; SMCT_ERR_NOMEM and SMCT_ERR_USAGE mean what libsmc's namesakes mean.
 */
#define SMCT_STATUS_LIST(X)                                                                        \
    X(SMCT_OK, 0, "ok", "success")                                                                 \
    X(SMCT_ERR_SYNTAX, 1, "syntax", "the text is not valid JSON (RFC 8259) or not valid hex")      \
    X(SMCT_ERR_DEPTH, 2, "depth", "JSON nesting deeper than the parser's limit")                   \
    X(SMCT_ERR_NOTATION, 3, "notation", "valid JSON, but not valid value notation")                \
    X(SMCT_ERR_NOMEM, 4, "nomem", "out of memory (arena or heap)")                                 \
    X(SMCT_ERR_TOO_LARGE, 5, "too_large", "input larger than the caller's limit")                  \
    X(SMCT_ERR_IO, 6, "io", "a file could not be opened, read or written")                         \
    X(SMCT_ERR_NO_NOTATION, 7, "no_notation", "a value has no notation (e.g. non-UTF-8 text)")     \
    X(SMCT_ERR_USAGE, 8, "usage", "invalid arguments (NULL pointers, unknown entry)")

/** Result of every smct_* call that can fail (SMCT_STATUS_LIST). */
typedef enum smct_status {
#define SMCT_STATUS_ENUM(name, value, str, meaning) name = value,
    SMCT_STATUS_LIST(SMCT_STATUS_ENUM)
#undef SMCT_STATUS_ENUM
} smct_status_t;

/**
 * Where and why a call failed. `offset` is a byte offset into the text or data the call
 * was given (for notation read from an already parsed smct_json_t, the offset in the text
 * that JSON tree was parsed from). `message` is a static string, never NULL after a failure.
 */
typedef struct smct_error {
    smct_status_t status;
    size_t offset;
    const char *message;
} smct_error_t;

/** Short name of a status ("syntax", "depth", "notation", ...); "unknown" for values outside
 *  the list; never NULL. */
const char *smct_status_name(smct_status_t status);

/**
 * Fill `err` (when not NULL) with `status`, `offset` and the static `message`, and return
 * `status`: the one way smct_* calls report, so callers may `return smct_error_set(...)`.
 */
smct_status_t smct_error_set(smct_error_t *err, smct_status_t status, size_t offset,
                             const char *message);

#ifdef __cplusplus
}
#endif

#endif /* SMCT_ERROR_H */
