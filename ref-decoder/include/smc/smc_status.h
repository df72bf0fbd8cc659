/**
 * @file smc_status.h
 * @brief Status codes, error classes and the error record of every smc entry point.
 *
 * Every code, its numeric value, its error class (spec/errors.md §14.1) and its static
 * message are defined once, in SMC_STATUS_LIST, and expanded into the enum and the
 * lookup tables, so they cannot drift apart. Codes are stable: never renumbered, never
 * reused. Ranges: 0x000 success; 0x100 malformed input; 0x200 limits; 0x300 resources
 * and API misuse.
 */
#ifndef SMC_STATUS_H
#define SMC_STATUS_H

#include <stddef.h>

#include "smc/smc_export.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * X-macro list of every status: X(NAME, code, "class", "static message").
 *
 * The class string is the error class of spec/errors.md (what runners report and the
 * judge compares); several codes may share one class (e.g. both SMC_ERR_NONMINIMAL_SIZE
 * and SMC_ERR_NONZERO_PADDING are `not_canonical`). SMC_OK has the class "ok".
 */
#define SMC_STATUS_LIST(X)                                                                         \
    X(SMC_OK, 0x000, "ok", "success")                                                              \
    X(SMC_ERR_TRUNCATED, 0x101, "truncated", "input ends before the item is complete")             \
    X(SMC_ERR_TRAILING_BYTES, 0x102, "trailing_bytes", "bytes remain after the top-level item")    \
    X(SMC_ERR_UNKNOWN_TAG, 0x103, "unknown_tag", "tag byte is not known in this mode")             \
    X(SMC_ERR_BAD_UTF8, 0x104, "bad_utf8", "text is not well-formed UTF-8")                        \
    X(SMC_ERR_NONMINIMAL_SIZE, 0x105, "not_canonical",                                             \
      "size written in a longer form than needed")                                                 \
    X(SMC_ERR_NONZERO_PADDING, 0x106, "not_canonical", "padding byte is not zero")                 \
    X(SMC_ERR_BAD_ENVELOPE_FLAG, 0x107, "bad_envelope", "envelope flag byte is not 0x00 or 0x01")  \
    X(SMC_ERR_BAD_METHOD_NAME, 0x108, "bad_envelope", "method name is not a string")               \
    X(SMC_ERR_BAD_ERROR_CODE, 0x109, "bad_envelope", "error code is not a string")                 \
    X(SMC_ERR_BAD_ERROR_MESSAGE, 0x10a, "bad_envelope",                                            \
      "error message is neither null nor a string")                                                \
    X(SMC_ERR_BAD_STACKTRACE, 0x10b, "bad_envelope", "stacktrace is neither null nor a string")    \
    X(SMC_ERR_DEPTH, 0x201, "depth_limit", "nesting deeper than the maximum depth")                \
    X(SMC_ERR_NOMEM, 0x301, "nomem", "out of memory")                                              \
    X(SMC_ERR_BUFFER_FULL, 0x302, "buffer_full", "output buffer too small")                        \
    X(SMC_ERR_NOT_ENCODABLE, 0x303, "not_encodable", "value cannot be encoded")                    \
    X(SMC_ERR_USAGE, 0x304, "usage", "invalid use of the API")

/** Status of every smc operation. Values are explicit and stable (see SMC_STATUS_LIST). */
typedef enum smc_status {
#define SMC_STATUS_ENUM_ENTRY(name, code, cls, msg) name = code,
    SMC_STATUS_LIST(SMC_STATUS_ENUM_ENTRY)
#undef SMC_STATUS_ENUM_ENTRY
} smc_status_t;

/**
 * An error and where it happened.
 *
 * `offset` is a byte offset from the first byte of the input given to the entry point
 * (message, method call or envelope), following the offset rules of spec/errors.md §14.1:
 * `truncated` → the input length; everything else → the offending byte. SMC_ERR_NOMEM from
 * a decoder: the offset of the tag of the value whose memory could not be allocated.
 * Encoder-side statuses (SMC_ERR_NOT_ENCODABLE, SMC_ERR_BUFFER_FULL, SMC_ERR_USAGE,
 * SMC_ERR_DEPTH from a writer): the output position where it happened (BUFFER_FULL: the
 * capacity). SMC_ERR_USAGE for invalid arguments: 0.
 */
typedef struct smc_error {
    smc_status_t status; /**< SMC_OK or the first error found. */
    size_t offset;       /**< Byte offset, see above. */
} smc_error_t;

/**
 * Static, human-readable message of a status.
 * @return a non-NULL string literal; "unknown status" for values outside the list.
 */
SMC_API const char *smc_status_str(smc_status_t status);

/**
 * Error class of a status (spec/errors.md §14.1): "truncated", "trailing_bytes",
 * "unknown_tag", "bad_utf8", "not_canonical", "bad_envelope", "depth_limit",
 * "not_encodable", plus "ok", "nomem", "buffer_full" and "usage".
 * @return a non-NULL string literal; "unknown status" for values outside the list.
 */
SMC_API const char *smc_status_class(smc_status_t status);

/**
 * Symbolic name of a status ("SMC_ERR_TRUNCATED").
 * @return a non-NULL string literal; "unknown status" for values outside the list.
 */
SMC_API const char *smc_status_name(smc_status_t status);

#ifdef __cplusplus
}
#endif

#endif /* SMC_STATUS_H */
