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

/** Result of every smct_* call that can fail. Values are stable; only appended to. */
typedef enum smct_status {
    SMCT_OK = 0,
    SMCT_ERR_SYNTAX = 1,      /**< The text is not valid JSON (RFC 8259) or not valid hex. */
    SMCT_ERR_DEPTH = 2,       /**< JSON nesting deeper than the parser's limit. */
    SMCT_ERR_NOTATION = 3,    /**< Valid JSON, but not valid value notation (spec/notation.md). */
    SMCT_ERR_NOMEM = 4,       /**< Out of memory (arena or heap). */
    SMCT_ERR_TOO_LARGE = 5,   /**< Input larger than the caller's limit. */
    SMCT_ERR_IO = 6,          /**< A file could not be opened or read. */
    SMCT_ERR_NO_NOTATION = 7, /**< A value has no notation (e.g. a string that is not UTF-8). */
    SMCT_ERR_USAGE = 8        /**< Invalid arguments (NULL pointers, unknown entry). */
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

/** Short name of a status ("syntax", "depth", "notation", ...); never NULL. */
const char *smct_status_name(smct_status_t status);

#ifdef __cplusplus
}
#endif

#endif /* SMCT_ERROR_H */
