/**
 * @file smcm_catalogue.h
 * @brief The catalogue of known bugs: one switchable variant of the codec per bug class that
 *        Flutter's own codecs or third-party ports have shipped (spec/bugs-in-the-wild.md).
 *
 * Each entry is a named deviation from the spec with a spec section, the requirement it
 * breaks, the codec part it lives in (decoder, encoder or both) and who shipped it. The
 * variant codec (smcm_codec.h) behaves exactly like the reference with no entry switched on,
 * and like a port with that bug with it on. One catalogue serves three users:
 *
 * - the judge (judge/diagnosis/diagnosis.c) replays a runner's failing checks through every
 *   entry and keeps those that reproduce the runner's answers exactly;
 * - the mutant runner (runners/c/mutant_codec.c) is a runner with chosen bugs, for tests;
 * - the vector generator marks each vector with the entries it catches.
 *
 * Entries are defined once, in SMCM_CATALOGUE, and expanded into the enum and the table, so
 * the two cannot drift. Ids are stable (they appear in reports and vectors): never renamed,
 * never reused. Entries marked "control" are test-only bugs that no known codec has; the
 * diagnosis never names them, so a runner carrying one must come out as unexplained.
 */
#ifndef SMCM_CATALOGUE_H
#define SMCM_CATALOGUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Codec parts an entry can live in (bit set). */
#define SMCM_DEC  1u /**< the decoder */
#define SMCM_ENC  2u /**< the encoder */
#define SMCM_BOTH 3u

/**
 * X(NAME, "id", parts, "section", "requirement", "what goes wrong", "who shipped it")
 *
 * "what goes wrong" is the short phrase reports print; spec/bugs-in-the-wild.md has one
 * entry per id with the whole story and its sources.
 */
#define SMCM_CATALOGUE(X)                                                                          \
    X(PAD_FROM_ADDRESS, "pad-from-address", SMCM_DEC, "3.3", "R3.3-1",                             \
      "padding counted from the memory address of the byte", "a widely used C embedder")           \
    X(PAD_FROM_REMAINING, "pad-from-remaining", SMCM_DEC, "3.1", "R3.3-1",                         \
      "padding counted from the bytes remaining", "a third-party Swift port")                      \
    X(PAD_REMAINING_MULTIPLE, "pad-remaining-multiple", SMCM_DEC, "3.1", "R3.3-1",                 \
      "padding that leaves the bytes remaining a multiple of the alignment",                       \
      "a third-party Swift port (issue 28)")                                                       \
    X(TYPED_VIEW_AT_ADDRESS, "typed-view-at-address", SMCM_DEC, "3.3", "R3.3-5",                   \
      "typed-list elements viewed in place, refused off an aligned address", "DART (D21)")         \
    X(PAD_FROM_VALUE, "pad-from-value", SMCM_BOTH, "3.1", "R3.1-1",                                \
      "padding counted from the value's own tag", "third-party ports (spec §3.1)")                 \
    X(PAD_FIXED, "pad-fixed", SMCM_BOTH, "3.2", "R3.2-1",                                          \
      "a fixed pad (alignment - 1 bytes) wherever the value is", "third-party ports")              \
    X(PAD_FROM_ENVELOPE_BODY, "pad-from-envelope-body", SMCM_BOTH, "3.1", "R3.1-1",                \
      "envelope padding counted from the byte after the flag", "third-party ports")                \
    X(PAD_FROM_CALL_ARGS, "pad-from-call-args", SMCM_BOTH, "3.1", "R3.1-1",                        \
      "method-call arguments aligned as if they started a new buffer",                             \
      "go-flutter-desktop/go-flutter#154")                                                         \
    X(PAD_EXTRA_BLOCK, "pad-extra-block", SMCM_BOTH, "3.2", "R3.2-1",                              \
      "a whole extra padding block when already aligned", "a third-party Swift port")              \
    X(EMPTY_TYPED_LIST_UNPADDED, "empty-typed-list-unpadded", SMCM_BOTH, "6.6", "R6.6-1",          \
      "no padding for an empty typed list", "CPP (D10)")                                           \
    X(PAD_NOT_ZEROED, "pad-not-zeroed", SMCM_ENC, "3.2", "R3.2-2",                                 \
      "padding bytes left uninitialised on encode", "a widely used C embedder")                    \
    X(SIZE_SIGNED_16, "size-signed-16", SMCM_DEC, "2.2", "R2.2-2",                                 \
      "two-byte sizes read as signed 16-bit", "third-party ports")                                 \
    X(SIZE_SIGNED_32, "size-signed-32", SMCM_DEC, "15.2", "R15.2-2",                               \
      "four-byte sizes read as signed 32-bit", "JAVA (D19)")                                       \
    X(SIZE_ESCAPE_OFF_BY_ONE, "size-escape-off-by-one", SMCM_BOTH, "2.2", "R2.2-1",                \
      "the 254/255 size escapes off by one", "third-party ports")                                  \
    X(TYPED_LIST_BYTE_COUNT, "typed-list-byte-count", SMCM_BOTH, "2.3", "R6.2-1",                  \
      "typed-list size counts bytes instead of elements", "third-party ports")                     \
    X(STR_UTF16_SIZE, "str-utf16-size", SMCM_BOTH, "5.1", "R5.1-1",                                \
      "string size counted in UTF-16 units instead of UTF-8 bytes", "third-party ports")           \
    X(I64S_UNDER_I32S_TAG, "i64s-under-i32s-tag", SMCM_ENC, "6.3", "R6.3-1",                       \
      "Int64List written under the Int32List tag", "a third-party Swift port")                     \
    X(I64_UNDER_I32_TAG, "i64-under-i32-tag", SMCM_ENC, "4.2", "R4.2-1",                           \
      "int64 written under the int32 tag", "third-party ports")                                    \
    X(I64_NARROWED, "i64-narrowed", SMCM_BOTH, "4.2", "R4.2-3",                                    \
      "int64 narrowed to int32 when the value fits", "GLIB (D7)")                                  \
    X(I32_WIDENED, "i32-widened", SMCM_ENC, "4.2", "R4.2-2", "every integer written as int64",     \
      "PIGEON-Dart (D6)")                                                                          \
    X(UNKNOWN_TAG_AS_NULL, "unknown-tag-as-null", SMCM_DEC, "8.1", "R8.1-2",                       \
      "unknown tags 15..127 decoded as null", "CPP (D4)")                                          \
    X(NO_FLOAT32LIST, "no-float32list", SMCM_BOTH, "6.5", "R6.5-1",                                \
      "no Float32List (tag 14) at all", "WEBUI, JAVA before 2021 (D3)")                            \
    X(LARGEINT_AS_STRING, "largeint-as-string", SMCM_DEC, "4.4", "R4.4-4",                         \
      "largeInt (tag 5) read as a string", "DART, OBJC, CPP (D1)")                                 \
    X(LARGEINT_WRITTEN, "largeint-written", SMCM_ENC, "4.4", "R4.4-1",                             \
      "a big integer written as largeInt (tag 5) with its hex text", "JAVA (D2)")                  \
    X(NAN_CANONICALISED, "nan-canonicalised", SMCM_ENC, "4.3", "R4.3-2",                           \
      "NaN payloads canonicalised on encode", "JAVA (D9)")                                         \
    X(NUL_TRUNCATED_STRINGS, "nul-truncated-strings", SMCM_BOTH, "5.2", "R5.2-1",                  \
      "strings cut at the first NUL", "GLIB (D12)")                                                \
    X(UTF8_REPLACED, "utf8-replaced", SMCM_DEC, "5.3", "R5.3-2",                                   \
      "ill-formed UTF-8 replaced with U+FFFD instead of rejected", "JAVA (D11)")                   \
    X(U8S_WRITTEN_TWICE, "u8s-written-twice", SMCM_ENC, "6.1", "R6.1-1",                           \
      "a byte buffer appended to itself", "third-party ports")                                     \
    X(MAP_SORTED, "map-sorted", SMCM_BOTH, "7.2", "R7.2-2", "map entries sorted", "CPP (D16)")     \
    X(MAP_DEDUP_FIRST, "map-dedup-first", SMCM_BOTH, "7.3", "R7.3-2",                              \
      "duplicate map keys merged, the first value kept", "CPP, OBJC (D15)")                        \
    X(MAP_DEDUP_LAST, "map-dedup-last", SMCM_BOTH, "7.3", "R7.3-2",                                \
      "duplicate map keys merged, the last value kept", "DART, GLIB, JAVA (D15)")                  \
    X(SIGNED_ZERO_KEYS_MERGED, "signed-zero-keys-merged", SMCM_BOTH, "7.3", "R7.3-3",              \
      "keys 0.0 and -0.0 merged into one entry", "GLIB, CPP, DART (D17)")                          \
    X(NAN_KEY_MERGES, "nan-key-merges", SMCM_BOTH, "7.4", "R7.4-2",                                \
      "a NaN key taken as equal to the other float64 key, one entry dropped", "CPP (D40)")         \
    X(NO_TRAILING_CHECK, "no-trailing-check", SMCM_DEC, "9.1", "R9.1-2",                           \
      "bytes after the top-level item ignored", "CPP (D20, D26, D27)")                             \
    X(TRUNCATED_AS_ZERO, "truncated-as-zero", SMCM_DEC, "14", "R1.4-5",                            \
      "truncated fields read as zero or null", "CPP (D18)")                                        \
    X(EMPTY_AS_NULL, "empty-as-null", SMCM_DEC, "9.2", "R9.2-1",                                   \
      "an empty message decoded as null", "GLIB, CPP, OBJC (D25)")                                 \
    X(NO_DEPTH_LIMIT, "no-depth-limit", SMCM_DEC, "15.1", "R15.1-3", "no nesting depth limit",     \
      "every official decoder (D22)")                                                              \
    X(ALLOC_BEFORE_SIZE_CHECK, "alloc-before-size-check", SMCM_DEC, "15.2", "R15.2-3",             \
      "memory allocated for a declared size before it is compared with the input",                 \
      "JAVA, CPP (D19)")                                                                           \
    X(READ_PAST_END, "read-past-end", SMCM_DEC, "15.2", "R1.4-8",                                  \
      "reads past the end of the input, stopped by the host's bounds check",                       \
      "JAVA, DART, third-party Rust ports (D18)")                                                  \
    X(NULL_ENCODES_EMPTY, "null-encodes-empty", SMCM_ENC, "9.3", "R9.3-1",                         \
      "a top-level null encoded as no bytes", "DART, JAVA, OBJC (D24)")                            \
    X(F32_FOUR_BYTES, "f32-four-bytes", SMCM_ENC, "17.1", "R17-4",                                 \
      "a 32-bit host float written as tag 6 with its 4-byte payload, unpadded",                    \
      "a third-party Swift port (D42)")                                                            \
    X(UINT64S_AS_INTS, "uint64s-as-ints", SMCM_ENC, "17.1", "R17-3",                               \
      "a Uint64List written as a List of ints, those above 2^63-1 negative", "DART (D44)")         \
    X(ENVELOPE_FLAG_INVERTED, "envelope-flag-inverted", SMCM_BOTH, "11.1", "R11.1-1",              \
      "envelope success and error flags swapped", "third-party ports")                             \
    X(NONZERO_FLAG_IS_ERROR, "nonzero-flag-is-error", SMCM_DEC, "11.4", "R11.4-1",                 \
      "any non-zero envelope flag taken as an error envelope", "DART, WEBUI (D28)")                \
    X(ENVELOPE_EXTRA_IGNORED, "envelope-extra-ignored", SMCM_DEC, "11.5", "R11.5-1",               \
      "nothing after an error envelope's details read", "CPP (D29)")                               \
    X(STACKTRACE_REJECTED, "stacktrace-rejected", SMCM_DEC, "11.3", "R11.3-2",                     \
      "four-element error envelopes rejected", "JAVA, GLIB, OBJC, WEBUI (D29)")                    \
    X(SUCCESS_TRAILING_AS_ERROR, "success-trailing-as-error", SMCM_DEC, "11.5", "R11.5-1",         \
      "bytes after a success value read as an error envelope", "JAVA (D27)")                       \
    X(ELEMENT_TYPE_UNCAUGHT, "element-type-uncaught", SMCM_DEC, "11.5", "R11.5-1",                 \
      "an error code or message of another type read as a value, then a typed access throws",      \
      "CPP (D31)")                                                                                 \
    X(CALL_NAME_NOT_STRING_NULL, "call-name-not-string-null", SMCM_DEC, "10.1", "R10.1-3",         \
      "a call whose name is not a string read as a value, then decoded as no call (null)",         \
      "CPP (D31)")                                                                                 \
    X(ERROR_MESSAGE_EMPTY_AS_NULL, "error-message-empty-as-null", SMCM_BOTH, "11.2", "R11.2-3",    \
      "an empty error message written as null and null read as empty", "CPP (D30)")                \
    X(CONTROL_BOOLS_SWAPPED, "control-bools-swapped", SMCM_BOTH, "4.1", "R4.1-1",                  \
      "control: true and false swapped", "none (test-only)")                                       \
    X(CONTROL_I32_PLUS_ONE, "control-i32-plus-one", SMCM_DEC, "4.2", "R4.2-1",                     \
      "control: decoded int32 values off by one", "none (test-only)")                              \
    X(CONTROL_MAPS_REJECTED, "control-maps-rejected", SMCM_DEC, "7.2", "R7.2-1",                   \
      "control: every map rejected as unknown_tag", "none (test-only)")

/** Catalogue entries, in catalogue order. */
typedef enum smcm_bug {
#define SMCM_BUG_ENUM(name, id, parts, section, req, what, who) SMCM_##name,
    SMCM_CATALOGUE(SMCM_BUG_ENUM)
#undef SMCM_BUG_ENUM
        SMCM_BUG_COUNT
} smcm_bug_t;

/** A set of entries (bit b = entry b). */
typedef uint64_t smcm_set_t;

#define SMCM_BIT(b) ((smcm_set_t)1 << (unsigned)(b))

/** Bugs switched on in each part of a codec. */
typedef struct smcm_bugs {
    smcm_set_t decoder;
    smcm_set_t encoder;
} smcm_bugs_t;

/** One catalogue entry. All strings are static. */
typedef struct smcm_entry {
    smcm_bug_t bug;
    const char *id;          /**< stable id, e.g. "pad-from-remaining" */
    unsigned parts;          /**< SMCM_DEC, SMCM_ENC or SMCM_BOTH: where the bug can live */
    const char *section;     /**< spec section, e.g. "3.1" */
    const char *requirement; /**< requirement broken, e.g. "R3.3-1" */
    const char *what;        /**< short phrase for reports */
    const char *shipped;     /**< who shipped it (short); the annex has the sources */
} smcm_entry_t;

/** Entry `bug` (< SMCM_BUG_COUNT); NULL otherwise. */
const smcm_entry_t *smcm_entry(smcm_bug_t bug);

/** The entry with id `id` (`len` bytes); NULL if there is none. */
const smcm_entry_t *smcm_lookup(const char *id, size_t len);

/** True for a test-only entry (id "control-…"): never part of a diagnosis. */
bool smcm_is_control(const smcm_entry_t *e);

/** Every non-control entry, limited to the parts it can live in. */
smcm_bugs_t smcm_catalogue_all(void);

/**
 * Parse a comma-separated list of ids, each optionally suffixed `@decoder` or `@encoder`
 * (default: every part the entry can live in), into `out`. "" and "none" are the empty set.
 * @return false with a one-line reason in `err` for an unknown id or part.
 */
bool smcm_parse_bugs(const char *list, smcm_bugs_t *out, char *err, size_t err_size);

#ifdef __cplusplus
}
#endif

#endif /* SMCM_CATALOGUE_H */
