/**
 * @file smc_runner_codec.h
 * @brief The C interface a codec implements to be judged by `smc conformance`.
 *
 * `smc-c-runner` speaks the runner protocol (runners/PROTOCOL.md, version 2) on
 * stdin/stdout: it parses the JSON requests, converts value notation to and from smc_value_t
 * trees, places the input bytes as the protocol says (exactly at the end of their allocation,
 * so AddressSanitizer and valgrind see a read past it; 1–7 bytes past an 8-aligned address
 * for the placement check), overwrites them after each decode (the ownership check), and
 * calls the codec through this interface. A C codec author therefore writes no JSON, no
 * notation and no protocol code: implement smc_runner_codec() in one file, link it instead
 * of smc_runner_reference.c, and run the judge (see runners/c/README.md).
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
    SMC_RUNNER_STRICT =
        1 /**< canonical bytes only; requested only if "strict-mode" is a decode capability */
} smc_runner_mode_t;

/**
 * One item of an entry point (a message's value, a method call or an envelope). It is the
 * notation library's item, smct_doc_t (smct_doc.h): the runner converts notation to and
 * from it, and the codec reads or fills the member its `entry` selects.
 */
typedef smct_doc_t smc_runner_item_t;

/** What a codec function returns (runners/PROTOCOL.md P.3). */
typedef enum smc_runner_status {
    SMC_RUNNER_OK = 0,       /**< success: output filled */
    SMC_RUNNER_ERROR = 1,    /**< the codec rejected the input / refused the value, in the way it
                                  documents: `report` filled */
    SMC_RUNNER_SKIPPED = 2,  /**< the codec cannot run this request: `report->message` says why */
    SMC_RUNNER_CRASHED = 3,  /**< an unexpected failure the codec survived (a caught C++ exception
                                  such as std::bad_variant_access, an assertion handler that
                                  returned): `report->kind` and `message` say what. Fails the
                                  vector at every tier, like a crash of the process. */
    SMC_RUNNER_NO_BYTES = 4, /**< encode: the codec produced no message at all (not an empty one) */
    SMC_RUNNER_NOT_IMPLEMENTED = 5 /**< decode: the codec read the input as "not implemented" */
} smc_runner_status_t;

/** Error (or skip, or crash) details, filled by the codec when it does not return SMC_RUNNER_OK. */
typedef struct smc_runner_report {
    /** An error class of spec/errors.md ("truncated", "unknown_tag", ..., "not_encodable"); a
     *  static string, or NULL when the codec's errors have no class (then declare
     *  error_classes = false). Never derive it from a message text. */
    const char *error_class;
    bool has_offset;   /**< true if `offset` is known (decode errors) */
    uint64_t offset;   /**< byte offset per spec/errors.md */
    const char *kind;  /**< SMC_RUNNER_CRASHED: the host's name for the failure (static) */
    char message[256]; /**< free text for people; never compared */
} smc_runner_report_t;

/**
 * What differs for one entry point (runners/PROTOCOL.md P.1 `per_entry`), for a codec whose
 * method codec is not its message codec (GLib's has one error code for every fault). Each
 * member given replaces the codec's own for that entry point; NULL keeps it.
 */
typedef struct smc_runner_entry_options {
    const char *const *decode_caps; /**< NULL-terminated, or NULL: the codec's decode_caps */
    const char *const *encode_caps; /**< NULL-terminated, or NULL: the codec's encode_caps */
    /** NULL-terminated option words of P.1 ("error-classes", "error-offsets", "shift",
     *  "borrows-input", "pigeon-int64") for this entry point, replacing the codec's options;
     *  NULL keeps them. The runner honours them: without "borrows-input" it overwrites the
     *  input, without "shift" it is never asked to shift. */
    const char *const *options;
} smc_runner_entry_options_t;

/** The shape of a host value's literal (spec §17.1, runners/PROTOCOL.md P.2). */
typedef enum smc_runner_literal {
    SMC_RUNNER_LITERAL_NULL = 0,  /**< JSON null (a null type) */
    SMC_RUNNER_LITERAL_BOOL = 1,  /**< `boolean` */
    SMC_RUNNER_LITERAL_TEXT = 2,  /**< `text`: a decimal integer, a float's bits in hex, a byte
                                       array in hex, or a string, as spec §17.1 writes the type */
    SMC_RUNNER_LITERAL_ITEMS = 3, /**< `count` elements in `items`: host values (a list) or
                                       bare texts with `type` NULL (a typed array); an empty
                                       map's literal is an empty array and arrives as ITEMS */
    SMC_RUNNER_LITERAL_PAIRS = 4, /**< a map: `count` pairs, `items[2i]` the key and
                                       `items[2i + 1]` the value, in the vector's order */
    SMC_RUNNER_LITERAL_UTF16 = 5  /**< `{"utf16": H}`: a string of `count` UTF-16 code units
                                       in `units`, lone surrogates included (spec §17.1) */
} smc_runner_literal_t;

/**
 * One node of a host value (spec §17): a type name of the codec's host vocabulary and its
 * literal. The kit builds it from a `host_encode` request, and writes back the one a
 * `host_decode` hook returns (allocated from the request's arena).
 */
typedef struct smc_runner_host_value smc_runner_host_value_t;
struct smc_runner_host_value {
    const char *type; /**< NUL-terminated type name (e.g. "FL_VALUE_TYPE_INT"); NULL only for a
                           bare text inside a typed array */
    smc_runner_literal_t literal;
    bool boolean;     /**< LITERAL_BOOL */
    const char *text; /**< LITERAL_TEXT: `text_len` bytes of UTF-8 */
    size_t text_len;
    size_t count;                   /**< LITERAL_ITEMS: elements; LITERAL_PAIRS: pairs */
    smc_runner_host_value_t *items; /**< `count` (ITEMS) or `2 * count` (PAIRS) nodes */
    const uint16_t *units;          /**< LITERAL_UTF16: `count` code units */
};

/**
 * A codec under test. Capability words are those of spec/vectors.md V.3; declare only what
 * the codec and its host can really express (runners/PROTOCOL.md P.7): every vector is sent
 * anyway, and a missing word only changes what the judge expects (a clean rejection, a
 * comparison by value, ...).
 */
typedef struct smc_runner_codec {
    const char *name;               /**< e.g. "smc-c-reference" */
    const char *version;            /**< e.g. "0.1.0" */
    const char *language;           /**< e.g. "C" */
    bool entries[SMC_ENTRY_COUNT];  /**< by smc_entry_t: entry points implemented */
    const char *const *decode_caps; /**< NULL-terminated feature words the decoder can express */
    const char *const *encode_caps; /**< NULL-terminated feature words the encoder can express */
    bool error_offsets;             /**< decode errors carry spec/errors.md offsets */
    void *ctx;                      /**< passed to every call */

    /**
     * Decode `data[0..len)` with entry point `entry` in `mode`. `data` ends exactly where its
     * allocation ends, and for the placement check starts 1–7 bytes past an 8-aligned address
     * (protocol `shift`): alignment is counted from the message start, never from the address
     * (spec §3.1), and no byte past `data + len` may be read (spec R1.4-8). Allocate every
     * output node from `arena` (smc_arena_alloc or the smc_value_make_* builders); the runner
     * resets it after each request. Unless `borrows_input` is set, the runner overwrites
     * `data` as soon as this returns, before it reads `*out`: nothing in `*out` may point
     * into `data`.
     */
    smc_runner_status_t (*decode)(void *ctx, smc_entry_t entry, const uint8_t *data, size_t len,
                                  smc_runner_mode_t mode, smc_arena_t *arena,
                                  smc_runner_item_t *out, smc_runner_report_t *report);

    /**
     * Encode `item` canonically (spec §13). Put the bytes in memory from `arena` and set
     * `*out`/`*out_len`. A value the format or the codec cannot carry is SMC_RUNNER_ERROR with
     * class "not_encodable"; a value the host cannot even hold is SMC_RUNNER_SKIPPED.
     */
    smc_runner_status_t (*encode)(void *ctx, const smc_runner_item_t *item, smc_arena_t *arena,
                                  uint8_t **out, size_t *out_len, smc_runner_report_t *report);

    /* ---- protocol version 2 (fields a version 1 codec file leaves zero) ---- */

    /**
     * The round trip (P.2 `roundtrip`): encode again, with the same codec, the host value that
     * the decode call just before this one produced, as a Flutter channel would send it back.
     * A codec whose host value is not the exchange model keeps it in `ctx` (or in `arena`
     * memory reachable from it) between the two calls; `decoded` is what decode returned, for
     * codecs whose host value it is (the reference's). Never rebuild the value from `decoded`
     * otherwise. NULL: the runner answers round trips as skipped.
     */
    smc_runner_status_t (*reencode)(void *ctx, const smc_runner_item_t *decoded, smc_arena_t *arena,
                                    uint8_t **out, size_t *out_len, smc_runner_report_t *report);
    bool error_classes; /**< decode errors carry the classes of spec/errors.md (option
                           error-classes) */
    bool borrows_input; /**< decoded items may point into `data`: not overwritten (option
                           borrows-input) */
    bool no_shift;      /**< do not offer the placement option `shift` (older codec files; `shift`
                           below now decides, and this one still turns it off) */

    /* ---- options a codec author chooses (fields an older codec file leaves zero) ---- */

    /** The encoder writes every integer as int64, as Pigeon's do (option pigeon-int64,
     *  spec R12.3-1); the judge then expects tag 4 for every integer it encodes. */
    bool pigeon_int64;
    /** By smc_entry_t: what differs for one entry point (P.1 `per_entry`); NULL: nothing. */
    const smc_runner_entry_options_t *per_entry[SMC_ENTRY_COUNT];

    /** Offer the placement check (option `shift`, P.1): the codec author's choice, off by
     *  default like every option, so a codec is never judged on a check it did not ask for. */
    bool shift;

    /* ---- the host hook (spec §17; all NULL: the codec has none) ---- */

    /**
     * The host vocabularies of spec §17 the hook speaks, NULL-terminated, named by the codec
     * author: "c" for a codec whose host value is the smc_value_t tree, "glib" for FlValue,
     * "cpp" for EncodableValue, "any". The hello declares them only when a hook below is set,
     * and a host request of any other vocabulary is answered `skipped` (not applicable).
     */
    const char *const *host_vocabularies;
    /**
     * host_encode (P.2): build the host value `hv` of `vocabulary` in the codec's own host
     * types, exactly of the types it names, and encode it as a message with the codec. The
     * codec's refusal is SMC_RUNNER_ERROR ("not_encodable"); a host value the hook cannot
     * build is SMC_RUNNER_SKIPPED. NULL: host_encode requests are skipped.
     */
    smc_runner_status_t (*host_encode)(void *ctx, const char *vocabulary,
                                       const smc_runner_host_value_t *hv, smc_arena_t *arena,
                                       uint8_t **out, size_t *out_len, smc_runner_report_t *report);
    /**
     * host_decode (P.2): decode the message `data[0..len)` (placed and overwritten as for
     * decode) into the codec's host values and describe them in `vocabulary`: set `*out` to a
     * tree allocated from `arena`. NULL: host_decode requests are skipped.
     */
    smc_runner_status_t (*host_decode)(void *ctx, const char *vocabulary, const uint8_t *data,
                                       size_t len, smc_arena_t *arena,
                                       smc_runner_host_value_t **out, smc_runner_report_t *report);
    /**
     * The host types of its vocabularies the codec's API cannot take or give (spec §17.1,
     * P.1 `hosts_without`), NULL-terminated "vocabulary:Type" words ("swift:NSNull",
     * "any:float32"); NULL: none (the default). The hello states them, and a host_encode of a
     * value holding one is answered `skipped` without reaching host_encode. Only the types
     * runners/protocol.schema.json lists may be stated: the judge refuses a core type.
     */
    const char *const *host_types_without;
} smc_runner_codec_t;

/* ---- the `c` vocabulary (spec §17.8), for codecs whose host value is the smc_value_t tree ---- */

/** {"c", NULL}: for `host_vocabularies` together with the two hooks below. */
extern const char *const smc_runner_c_vocabulary[];

/** A host_encode hook for the `c` vocabulary: builds the tree `hv` names and hands it to the
 *  process's codec (smc_runner_codec()->encode). */
smc_runner_status_t smc_runner_c_host_encode(void *ctx, const char *vocabulary,
                                             const smc_runner_host_value_t *hv, smc_arena_t *arena,
                                             uint8_t **out, size_t *out_len,
                                             smc_runner_report_t *report);

/** A host_decode hook for the `c` vocabulary: smc_runner_codec()->decode of a message, each
 *  node named by its smc_type_t. */
smc_runner_status_t smc_runner_c_host_decode(void *ctx, const char *vocabulary, const uint8_t *data,
                                             size_t len, smc_arena_t *arena,
                                             smc_runner_host_value_t **out,
                                             smc_runner_report_t *report);

/** The message item a `c` host value names (for hooks that change the tree before encoding);
 *  SMC_RUNNER_SKIPPED when `hv` is not a `c` host value. */
smc_runner_status_t smc_runner_c_host_to_item(const smc_runner_host_value_t *hv, smc_arena_t *arena,
                                              smc_runner_item_t *out, smc_runner_report_t *report);

/** The `c` host value of a decoded message item; SMC_RUNNER_SKIPPED when a node has no `c`
 *  type (a custom value, a string kept as raw bytes). */
smc_runner_status_t smc_runner_c_host_of_item(const smc_runner_item_t *item, smc_arena_t *arena,
                                              smc_runner_host_value_t **out,
                                              smc_runner_report_t *report);

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
