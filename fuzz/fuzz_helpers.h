/*
 * Shared helpers of the fuzz targets (house style rule 14).
 *
 * Every target defines only LLVMFuzzerTestOneInput and checks properties with FUZZ_ASSERT,
 * which is always on (independent of NDEBUG): a fuzz target without assertions only finds
 * crashes, and these targets exist to find wrong answers too. Helpers here are pure
 * functions of their arguments, except the counting allocator, whose counters are global
 * because every engine runs one input at a time in one thread.
 */
#ifndef SMC_FUZZ_HELPERS_H
#define SMC_FUZZ_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smc/smc.h"

/* ---- always-on assertions ---- */

/** Print where and why, then abort() so every engine records a crash. Never returns. */
void fuzz_fail(const char *file, int line, const char *expr, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((noreturn, format(printf, 4, 5)))
#endif
    ;

/** FUZZ_ASSERT(cond, "what was expected"): always checked, also with NDEBUG. */
#define FUZZ_ASSERT(cond, msg)                                                                     \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fuzz_fail(__FILE__, __LINE__, #cond, "%s", msg);                                       \
        }                                                                                          \
    } while (0)

/** FUZZ_ASSERTF(cond, fmt, args...): as FUZZ_ASSERT with a formatted explanation. */
#define FUZZ_ASSERTF(cond, ...)                                                                    \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fuzz_fail(__FILE__, __LINE__, #cond, __VA_ARGS__);                                     \
        }                                                                                          \
    } while (0)

/* ---- the option byte ---- */

/*
 * The first input byte selects the decoder options, so one corpus explores every mode and
 * the engines can mutate the mode like any other byte:
 *   bit 0     strict mode (SMC_MODE_STRICT) instead of flutter mode (spec §1.2)
 *   bit 1     custom values off (SMC_REJECT_CUSTOM: tags 0x80..0xff are unknown_tag, spec §8.1)
 *   bit 2     alias the input (SMC_ALIAS_INPUT) instead of copying strings and arrays
 *   bits 3..7 depth selector d: 0 → the default depth (max_depth 0, spec §15.1);
 *             1..30 → max_depth d; 31 → SMC_MAX_DEPTH_LIMIT
 * The rest of the input is the message, method call or envelope.
 */
#define FUZZ_OPT_STRICT      0x01u
#define FUZZ_OPT_NO_CUSTOM   0x02u
#define FUZZ_OPT_ALIAS       0x04u
#define FUZZ_OPT_DEPTH_SHIFT 3u

typedef struct fuzz_options {
    bool strict;
    bool no_custom;
    bool alias;
    uint32_t max_depth;       /* as passed in smc_decode_opts_t (0 = default) */
    uint32_t effective_depth; /* the limit the decoder applies */
} fuzz_options_t;

/** Decode the option byte. */
fuzz_options_t fuzz_options_from_byte(uint8_t b);

/** Decoder options for `o`, with the mode overridden by `strict`. */
smc_decode_opts_t fuzz_decode_opts(const fuzz_options_t *o, bool strict);

/* ---- checks on decoder results (spec/errors.md) ---- */

/** Which entry point produced a status: the set of possible statuses differs. */
typedef enum fuzz_entry { FUZZ_ENTRY_MESSAGE, FUZZ_ENTRY_CALL, FUZZ_ENTRY_ENVELOPE } fuzz_entry_t;

/**
 * Assert that a decode status and its offset obey spec/errors.md for this input and these
 * options: a known status whose class is a decoder class (or ok/nomem), offset ≤ len,
 * `truncated` exactly at len, and the byte at the offset is one that can cause the class
 * (an unknown tag is unknown in this mode, a depth error sits on a container tag, ...).
 */
void fuzz_check_decode_status(smc_status_t st, const smc_error_t *err, const uint8_t *data,
                              size_t len, const smc_decode_opts_t *opts, fuzz_entry_t entry);

/**
 * Assert the relation between the two modes (spec §1.2: strict = flutter + extra checks):
 * when both ran on the same bytes with the same depth and custom setting, a strict success
 * implies a flutter success, and a strict failure of a class that flutter also has (not
 * `not_canonical`, not tag 5) is the same failure in flutter mode.
 */
void fuzz_check_mode_relation(smc_status_t flutter_st, const smc_error_t *flutter_err,
                              smc_status_t strict_st, const smc_error_t *strict_err,
                              const uint8_t *data, size_t len);

/* ---- counting allocator (leak and size checks) ---- */

/** An allocator whose blocks are counted; `free` checks the size matches the allocation. */
const smc_allocator_t *fuzz_counting_allocator(void);
/** Blocks currently allocated through fuzz_counting_allocator(). */
size_t fuzz_live_blocks(void);
/** Bytes handed out by fuzz_counting_allocator() since the process started (never decreases:
 *  the difference around a call is what the call asked its allocator for). */
uint64_t fuzz_bytes_requested(void);

/* ---- values ---- */

/** True when the tree contains a largeInt (tag 5), which the encoder refuses (spec §4.4). */
bool fuzz_value_has_largeint(const smc_value_t *v);

/** Assert the tree is internally consistent (spec/decoder-security-model.md): known types,
 *  custom tags 128..255, views inside [lo, hi) when `lo` is non-NULL. Iterative. */
void fuzz_check_tree(const smc_value_t *v, const uint8_t *lo, const uint8_t *hi);

/** Nesting level of the tree: 0 for a scalar, 1 for a flat list, ... (spec §15.1). */
size_t fuzz_tree_depth(const smc_value_t *v);

/** RFC 3629 well-formedness, independent of the library's own check (spec §5.3). */
bool fuzz_utf8_well_formed(const uint8_t *s, size_t n);

/** True when [p, p+n) lies inside [lo, hi) (always true for n == 0). */
bool fuzz_view_inside(const uint8_t *p, size_t n, const uint8_t *lo, const uint8_t *hi);

/** Bytes equality of two views (a NULL pointer with length 0 equals any empty view). */
bool fuzz_bytes_equal(smc_bytes_t a, smc_bytes_t b);

/**
 * Copy of an input for decoding, in a malloc block that ends exactly where the input ends
 * (so ASan reports any read past it, security model P1) and starts fuzz_input_shift(len)
 * bytes into the block, 0..7 bytes past an aligned address, so that a decoder aligning
 * by memory address rather than by message offset (spec §3.3) goes wrong. Free the block.
 */
uint8_t *fuzz_input_copy(const uint8_t *data, size_t len);
size_t fuzz_input_shift(size_t len);

/** Byte buffer of exactly `size` bytes from malloc (size 0 → a 1-byte block); aborts on OOM. */
uint8_t *fuzz_xmalloc(size_t size);

#endif /* SMC_FUZZ_HELPERS_H */
