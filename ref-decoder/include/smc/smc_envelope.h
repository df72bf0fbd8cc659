/**
 * @file smc_envelope.h
 * @brief Method calls (spec §10) and result envelopes (spec §11) of StandardMethodCodec.
 *
 * Each is one buffer whose alignment counts from its first byte: the name's tag byte for a
 * method call, the flag byte for an envelope (spec §3.1). The decoders check the tag of each
 * fixed-type element before decoding it (spec/errors.md §14.2), so a wrong tag there is
 * `bad_envelope` at that byte. They share smc_decode's safety properties and allocation
 * bound (smc_decode_bound(len) covers every entry point).
 */
#ifndef SMC_ENVELOPE_H
#define SMC_ENVELOPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smc/smc_export.h"
#include "smc/smc_status.h"
#include "smc/smc_types.h"
#include "smc/smc_value.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The format's three entry points: a message is one value (smc_decode, spec §9), a method
 * call a name and its arguments (smc_decode_method_call, spec §10), an envelope a result or
 * an error (smc_decode_envelope, spec §11). Code that handles all three (the runner
 * protocol's `entry`: "message", "call", "envelope") selects one with this.
 */
typedef enum smc_entry {
    SMC_ENTRY_MESSAGE = 0,
    SMC_ENTRY_CALL = 1,
    SMC_ENTRY_ENVELOPE = 2
} smc_entry_t;

/** The number of entry points, for tables indexed by smc_entry_t. */
#define SMC_ENTRY_COUNT 3

/** A method call: name (UTF-8, a tag-7 string on the wire) and one arguments value. */
typedef struct smc_method_call {
    smc_bytes_t name;
    smc_value_t *args; /**< Never NULL after a successful decode; NULL on encode means null. */
} smc_method_call_t;

/** State of the optional 4th element of an error envelope (spec §11.3). */
typedef enum smc_stacktrace_state {
    SMC_STACKTRACE_ABSENT = 0, /**< 3-element error envelope */
    SMC_STACKTRACE_NULL = 1,   /**< 4th element present, `00` */
    SMC_STACKTRACE_STRING = 2  /**< 4th element present, a string in `stacktrace` */
} smc_stacktrace_state_t;

/**
 * A success envelope (`00` + result) or an error envelope (`01` + code + message + details
 * [+ stacktrace]). Only the fields of the chosen kind are meaningful.
 */
typedef struct smc_envelope {
    bool is_error;
    smc_value_t *result;    /**< success: the result (NULL on encode means null). */
    smc_bytes_t code;       /**< error: the code string. */
    bool has_message;       /**< error: false → message is null (`00`); true → `message`. */
    smc_bytes_t message;    /**< error: message string when has_message. */
    smc_value_t *details;   /**< error: details value (NULL on encode means null). */
    int stacktrace_state;   /**< error: an smc_stacktrace_state_t. */
    smc_bytes_t stacktrace; /**< error: stacktrace string when stacktrace_state is STRING. */
} smc_envelope_t;

/** What the first byte of an element may be (spec §10, §11). */
typedef enum smc_element_kind {
    SMC_ELEMENT_STRING = 0,         /**< a string: tag `07` */
    SMC_ELEMENT_STRING_OR_NULL = 1, /**< a string or null: `07` or `00` */
    SMC_ELEMENT_VALUE = 2           /**< any value (its tag is checked as in a message) */
} smc_element_kind_t;

/**
 * One element of a method call or envelope, in wire order: the grammar the decoders follow,
 * as data, for tools that walk the same bytes (smc inspect). A decoder checks each element's
 * first byte against its kind before decoding it, and reports `wrong_tag` at that byte.
 */
typedef struct smc_element {
    const char *name; /**< "name", "args", "result", "code", "message", "details", "stacktrace" */
    smc_element_kind_t kind; /**< what its first byte may be */
    bool optional;           /**< may be absent when the input ends before it (spec §11.3) */
    smc_status_t wrong_tag;  /**< status for a first byte its kind does not allow (bad_envelope) */
} smc_element_t;

/** Whether `tag` may be the first byte of an element of `kind`. */
SMC_API bool smc_element_allows(smc_element_kind_t kind, uint8_t tag);

/** The elements of a method call (spec §10.1): name, args. Sets *count; never NULL. */
SMC_API const smc_element_t *smc_method_call_elements(size_t *count);

/**
 * The elements after the flag byte of an envelope whose first byte is `flag` (spec §11):
 * `00` success (result), `01` error (code, message, details, optional stacktrace). NULL with
 * *count 0 for any other flag (SMC_ERR_BAD_ENVELOPE_FLAG).
 */
SMC_API const smc_element_t *smc_envelope_elements(uint8_t flag, size_t *count);

/**
 * Decode a method call (spec §10): a tag-7 name, then one value, then nothing.
 * Name tag ≠ 0x07 → SMC_ERR_BAD_METHOD_NAME (class bad_envelope) at 0; empty input →
 * truncated at 0; bytes after the arguments → trailing_bytes.
 * The name bytes are copied into `arena` unless SMC_ALIAS_INPUT. On failure `*out` is
 * zeroed and the arena is restored.
 */
SMC_API smc_status_t smc_decode_method_call(const uint8_t *data, size_t len,
                                            const smc_decode_opts_t *opts, smc_arena_t *arena,
                                            smc_method_call_t *out, smc_error_t *err);

/**
 * Decode an envelope (spec §11). Flag missing → truncated at 0; flag ≥ 2 →
 * SMC_ERR_BAD_ENVELOPE_FLAG at 0. Error envelope: code tag ≠ 0x07 → SMC_ERR_BAD_ERROR_CODE;
 * message tag not 0x00/0x07 → SMC_ERR_BAD_ERROR_MESSAGE; if bytes remain after the details,
 * they must start a stacktrace (tag 0x00/0x07, else SMC_ERR_BAD_STACKTRACE); bytes after
 * that → trailing_bytes. Every bad_envelope offset is the offending tag or flag byte.
 */
SMC_API smc_status_t smc_decode_envelope(const uint8_t *data, size_t len,
                                         const smc_decode_opts_t *opts, smc_arena_t *arena,
                                         smc_envelope_t *out, smc_error_t *err);

/**
 * Encode a method call canonically into buf[0..cap). Name must be valid UTF-8.
 * @param written_or_needed as for smc_writer_finish (exact size needed on BUFFER_FULL).
 */
SMC_API smc_status_t smc_encode_method_call(const smc_method_call_t *call, uint8_t *buf, size_t cap,
                                            size_t *written_or_needed, smc_error_t *err);

/**
 * Encode an envelope canonically into buf[0..cap). An error envelope writes the 4th
 * element only when stacktrace_state is not SMC_STACKTRACE_ABSENT. An invalid
 * stacktrace_state → SMC_ERR_USAGE.
 */
SMC_API smc_status_t smc_encode_envelope(const smc_envelope_t *env, uint8_t *buf, size_t cap,
                                         size_t *written_or_needed, smc_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* SMC_ENVELOPE_H */
