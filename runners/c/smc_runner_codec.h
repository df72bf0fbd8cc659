/**
 * @file smc_runner_codec.h
 * @brief The C interface a codec implements to be judged by `smc conformance`.
 *
 * `smc-c-runner` speaks the runner protocol (runners/PROTOCOL.md) on stdin/stdout: it parses
 * the JSON requests, converts value notation to and from smc_value_t trees, copies input
 * bytes to a deliberately misaligned buffer (`shift`), and calls the codec through this
 * interface. A C codec author therefore writes no JSON, no notation and no protocol code:
 * implement smc_runner_codec() in one file, link it instead of smc_runner_reference.c, and
 * run the judge (see runners/c/README.md).
 *
 * Exchange model: the value tree of the reference library (smc/smc_types.h) and its method
 * call / envelope structs (smc/smc_envelope.h). A codec converts between that and its own
 * host types; values it cannot represent are reported as `skipped` (never guessed).
 *
 * Every function is called from one thread, one request at a time.
 */
#ifndef SMC_RUNNER_CODEC_H
#define SMC_RUNNER_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smc/smc.h"
#include "smct_doc.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Decoder modes (spec §1.2). */
typedef enum smc_runner_mode {
    SMC_RUNNER_FLUTTER = 0, /**< the default, Flutter-compatible mode */
    SMC_RUNNER_STRICT = 1   /**< canonical bytes only; requested only if "strict-mode" is a decode capability */
} smc_runner_mode_t;

/**
 * One item of an entry point (a message's value, a method call or an envelope). It is the
 * notation library's item, smct_doc_t (smct_doc.h): the runner converts notation to and
 * from it, and the codec reads or fills the member its `entry` selects.
 */
typedef smct_doc_t smc_runner_item_t;

/** What a codec function returns. */
typedef enum smc_runner_status {
    SMC_RUNNER_OK = 0,      /**< success: output filled */
    SMC_RUNNER_ERROR = 1,   /**< the codec rejected the input / value: `report` filled */
    SMC_RUNNER_SKIPPED = 2  /**< the codec cannot run this request: `report->message` says why */
} smc_runner_status_t;

/** Error (or skip) details, filled by the codec when it does not return SMC_RUNNER_OK. */
typedef struct smc_runner_report {
    /** An error class of spec/errors.md ("truncated", "unknown_tag", ..., "not_encodable"); a
     *  static string. A codec whose errors have no class maps them as best it can and says
     *  so in `message`. */
    const char *error_class;
    bool has_offset;            /**< true if `offset` is known (decode errors) */
    uint64_t offset;            /**< byte offset per spec/errors.md */
    char message[256];          /**< free text for people; never compared */
} smc_runner_report_t;

/**
 * A codec under test. Capability words are those of spec/vectors.md V.3; declare only what
 * the codec can really express: a vector needing anything else is *not applicable* for
 * that direction, never a pass.
 */
typedef struct smc_runner_codec {
    const char *name;                 /**< e.g. "smc-c-reference" */
    const char *version;              /**< e.g. "0.1.0" */
    const char *language;             /**< e.g. "C" */
    bool entries[SMC_ENTRY_COUNT];    /**< by smc_entry_t: entry points implemented */
    const char *const *decode_caps;   /**< NULL-terminated feature words the decoder can express */
    const char *const *encode_caps;   /**< NULL-terminated feature words the encoder can express */
    bool error_offsets;               /**< decode errors carry spec/errors.md offsets */
    void *ctx;                        /**< passed to every call */

    /**
     * Decode `data[0..len)` with entry point `entry` in `mode`. `data` is deliberately placed
     * 1–7 bytes past an 8-aligned address (protocol `shift`): alignment is counted from the
     * message start, never from the address (spec §3.1). Allocate every output node from
     * `arena` (smc_arena_alloc or the smc_value_make_* builders); the runner resets it after
     * each request.
     */
    smc_runner_status_t (*decode)(void *ctx, smc_entry_t entry, const uint8_t *data, size_t len,
                                  smc_runner_mode_t mode, smc_arena_t *arena, smc_runner_item_t *out,
                                  smc_runner_report_t *report);

    /**
     * Encode `item` canonically (spec §13). Put the bytes in memory from `arena` and set
     * `*out`/`*out_len`. A value the format or the codec cannot carry is SMC_RUNNER_ERROR with
     * class "not_encodable"; a value the host cannot even hold is SMC_RUNNER_SKIPPED.
     */
    smc_runner_status_t (*encode)(void *ctx, const smc_runner_item_t *item, smc_arena_t *arena, uint8_t **out,
                                  size_t *out_len, smc_runner_report_t *report);
} smc_runner_codec_t;

/**
 * The codec to judge. Exactly one object file of the runner defines it:
 * smc_runner_reference.c for the reference codec, or yours.
 * @return a pointer valid for the life of the process.
 */
const smc_runner_codec_t *smc_runner_codec(void);

#ifdef __cplusplus
}
#endif

#endif /* SMC_RUNNER_CODEC_H */
