/**
 * @file smcm_codec.h
 * @brief The variant codec: a decoder and an encoder of every entry point in which each
 *        catalogue entry (smcm_catalogue.h) can be switched on.
 *
 * With no entry on, both follow the spec exactly as the reference does (the same values,
 * bytes, error classes and offsets; the mutant runner with no bugs passes every vector).
 * With entries on, they do what a port with those bugs does. The code is a separate,
 * deliberately plain implementation (recursive, one function per wire type): the reference
 * in ref-decoder/ carries no hooks.
 *
 * Answers are exact where the bug is; where a real port's behaviour cannot be known from its
 * bug alone (an exception a host maps to some error class; uninitialised padding bytes), the
 * answer says so with a wildcard, and where it cannot be modelled at all (a 4 GiB string,
 * an uninitialised size) the answer is SMCM_UNKNOWN, which never matches anything.
 */
#ifndef SMCM_CODEC_H
#define SMCM_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smc/smc.h"
#include "smcm_catalogue.h"
#include "smct_doc.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What an answer is. */
typedef enum smcm_kind {
    SMCM_VALUE = 0,  /**< decode succeeded: `doc` */
    SMCM_ERROR = 1,  /**< decode or encode refused: `error_class`, `offset` */
    SMCM_BYTES = 2,  /**< encode succeeded: `bytes`, `len` (and `roles`) */
    SMCM_UNKNOWN = 3 /**< no prediction: `why` */
} smcm_kind_t;

/**
 * How a codec fails where it does not reject as documented (spec §1.4, *Crash or rejection*):
 * the kind of failure, whatever the host calls it. A host's plumbing decides whether the
 * failure is survived (an unclassified rejection, P.3 `rejected`) or not (a crash, P.3
 * `crash`); the kind is the codec's. SMCM_FAULT_NONE: a rejection (documented, or an
 * exception of a class the bug does not determine).
 */
typedef enum smcm_fault {
    SMCM_FAULT_NONE = 0,
    SMCM_FAULT_ALLOC,    /**< allocated for a declared size before comparing it with the input */
    SMCM_FAULT_NEGATIVE, /**< a size read as negative (or wrapped) given to an allocation */
    SMCM_FAULT_DEPTH,    /**< recursion past what the stack holds */
    SMCM_FAULT_OVERREAD, /**< a read past the end of the input, caught by the host's bounds check */
    SMCM_FAULT_TYPE, /**< a typed access to a value of another type (CPP's bad_variant_access) */
    SMCM_FAULT_COUNT
} smcm_fault_t;

/** The stable id of a fault kind ("allocation", "negative-size", "recursion-depth",
 *  "read-past-end", "wrong-type"; "" for SMCM_FAULT_NONE): what the mutant runner answers as
 * `kind`. */
const char *smcm_fault_id(smcm_fault_t f);

/** What a fault kind is, for reports ("allocation before the size check", ...). */
const char *smcm_fault_what(smcm_fault_t f);

/** Role of one output byte of an encode (for byte-level comparisons). */
typedef enum smcm_role {
    SMCM_ROLE_TAG = 1,  /**< a tag byte */
    SMCM_ROLE_SIZE = 2, /**< a size prefix byte (escape included) */
    SMCM_ROLE_PAD = 3,  /**< a padding byte (spec §3) */
    SMCM_ROLE_DATA = 4, /**< payload: numbers, text, elements */
    SMCM_ROLE_FLAG = 5  /**< an envelope flag */
} smcm_role_t;

/**
 * One answer. Pointers are into the arena given to the call (or into the input).
 */
typedef struct smcm_answer {
    smcm_kind_t kind;
    smct_doc_t doc;          /**< SMCM_VALUE */
    const char *error_class; /**< SMCM_ERROR: a class of spec/errors.md; NULL = any class */
    bool has_offset;         /**< SMCM_ERROR: false = any offset (or an encoder error) */
    uint64_t offset;
    uint8_t *bytes; /**< SMCM_BYTES */
    size_t len;
    const uint8_t *wild;  /**< SMCM_BYTES: NULL, or len flags (1 = this byte may hold anything) */
    const uint8_t *roles; /**< SMCM_BYTES: len smcm_role_t values */
    const uint32_t
        *owner;         /**< SMCM_BYTES: per byte, offset of the tag of the value it belongs to */
    const char *why;    /**< SMCM_UNKNOWN and SMCM_ERROR with a NULL class: a reason */
    smcm_fault_t fault; /**< SMCM_ERROR: not a rejection but a failure of this kind (no class) */
    bool fault_maybe;   /**< the fault happens or not as the host's resources decide (a stack's
                             depth): it matches the failure, and predicts no verdict */
} smcm_answer_t;

/** Depth limit of the variant decoder (spec §15.1; the reference's default). */
#define SMCM_MAX_DEPTH 128u

/**
 * Decode `data[0..len)` with entry point `entry`, in flutter or `strict` mode, with `bugs`
 * switched on in the decoder. `address` is the memory address of data[0] modulo 8: it
 * matters only to pad-from-address (the runner protocol's `shift`). Never reads outside
 * the input. Fills `out` (always).
 */
void smcm_decode(smcm_set_t bugs, smc_entry_t entry, const uint8_t *data, size_t len, bool strict,
                 unsigned address, smc_arena_t *arena, smcm_answer_t *out);

/**
 * Encode `doc` with `bugs` switched on in the encoder. Fills `out` (always): SMCM_BYTES with
 * roles and owners, or SMCM_ERROR (`not_encodable`, `depth_limit`).
 */
void smcm_encode(smcm_set_t bugs, const smct_doc_t *doc, smc_arena_t *arena, smcm_answer_t *out);

#ifdef __cplusplus
}
#endif

#endif /* SMCM_CODEC_H */
