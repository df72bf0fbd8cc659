/**
 * @file smc_reader.h
 * @brief Layer 1: a pull cursor over caller bytes. No allocation, zero-copy views.
 *
 * smc_reader_next returns the items of a message in pre-order: a container item (list,
 * map, custom) carries its count and is followed by its contents. The reader keeps track
 * of open containers itself, enforces the same depth limit as smc_decode, and reports
 * exactly the same status and offset as smc_decode on every input (a fuzz target checks
 * that). Views (strings, bytes, typed arrays) point into the input and are valid as long
 * as the input is. Never reads outside [data, data+len).
 *
 * Typical use:
 *   smc_reader_t r; smc_item_t it;
 *   smc_reader_init(&r, data, len, NULL);
 *   do { if (smc_reader_next(&r, &it) != SMC_OK) break; ...use it... }
 *   while (!smc_reader_value_complete(&r));
 *   smc_reader_finish(&r, &err);   // trailing_bytes check
 */
#ifndef SMC_READER_H
#define SMC_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smc/smc_export.h"
#include "smc/smc_status.h"
#include "smc/smc_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One item: a scalar, a sized payload, or the header of a container. */
typedef struct smc_item {
    smc_type_t type;    /**< See smc_types.h; BOOL for both tags 1 and 2. */
    uint8_t custom_tag; /**< 128..255 for SMC_TYPE_CUSTOM, else 0. */
    /** Length of the size field after the tag (spec §2.2): 1, 3 (`fe` + u16) or 5 (`ff` + u32)
     *  for strings, largeInt, byte and typed lists, lists and maps; 0 for other types. It
     *  starts at offset + 1; its value is the item's length or count. */
    uint8_t size_len;
    /** Padding bytes before the payload (spec §3.3): 0..7 for float64 (after the tag) and
     *  typed lists (after the size field), else 0. The payload starts at
     *  offset + 1 + size_len + pad_len. */
    uint8_t pad_len;
    uint32_t depth; /**< Containers enclosing this item (0 = a top-level value). */
    size_t offset;  /**< Offset of the tag byte from the start of the input. */
    union {
        bool boolean;
        int32_t i32;
        int64_t i64;
        uint64_t f64_bits;
        smc_bytes_t bytes; /**< STR, LARGEINT (UTF-8 checked), U8S: view into the input. */
        smc_array_t array; /**< I32S, I64S, F64S, F32S: view into the input. */
        size_t count;      /**< LIST: elements; MAP: pairs (2*count values follow); CUSTOM: 1. */
    };
} smc_item_t;

/**
 * Reader state. Fields are private: use the functions. Holds one counter per open
 * container (at most SMC_MAX_DEPTH_LIMIT), about 4 KiB.
 */
typedef struct smc_reader {
    const uint8_t *base; /* offset 0: alignment and error offsets count from here */
    const uint8_t *p;    /* next byte */
    const uint8_t *end;  /* one past the last byte */
    uint32_t flags;
    uint32_t max_depth;
    uint32_t depth;                        /* open containers */
    smc_error_t error;                     /* first error (sticky) */
    size_t values;                         /* top-level values started */
    uint64_t pending[SMC_MAX_DEPTH_LIMIT]; /* values still to read in each open container */
} smc_reader_t;

/**
 * Start reading [data, data+len). `opts` NULL → flutter mode, default depth. Invalid options
 * make the reader fail every call with SMC_ERR_USAGE. SMC_ALIAS_INPUT is irrelevant here.
 */
SMC_API void smc_reader_init(smc_reader_t *r, const uint8_t *data, size_t len,
                             const smc_decode_opts_t *opts);

/**
 * Start reading at `offset` within [data, data+len), with alignment and error offsets still
 * counted from `data` (for entry points whose values follow a header, e.g. the envelope
 * flag byte, spec §3.1). offset > len → SMC_ERR_USAGE.
 */
SMC_API void smc_reader_init_at(smc_reader_t *r, const uint8_t *data, size_t len, size_t offset,
                                const smc_decode_opts_t *opts);

/**
 * Read the next item. When no value is open, this starts a new top-level value (so several
 * values can be read back to back, as a method call does).
 * @return SMC_OK and `*item`, or the first error (sticky; `*item` zeroed): every
 *         malformed-input status and SMC_ERR_DEPTH, with the offsets of spec/errors.md.
 */
SMC_API smc_status_t smc_reader_next(smc_reader_t *r, smc_item_t *item);

/**
 * Read one complete value: the next item and, if it is a container, everything in it.
 * Equivalent to calling smc_reader_next until the depth is back where it was.
 */
SMC_API smc_status_t smc_reader_skip_value(smc_reader_t *r);

/** True when no container is open: the last top-level value is complete (or none started). */
SMC_API bool smc_reader_value_complete(const smc_reader_t *r);

/** Number of open containers. */
SMC_API uint32_t smc_reader_depth(const smc_reader_t *r);

/** Offset of the next byte to read, from the start of the input. */
SMC_API size_t smc_reader_offset(const smc_reader_t *r);

/** Bytes not read yet. */
SMC_API size_t smc_reader_remaining(const smc_reader_t *r);

/** The next byte without consuming it; false at the end of the input or after an error. */
SMC_API bool smc_reader_peek_byte(const smc_reader_t *r, uint8_t *byte);

/**
 * Finish a message: reads the rest of an unfinished value (validating it), then fails with
 * SMC_ERR_TRAILING_BYTES if bytes remain. If no value was read at all, reads one first (so an
 * empty input is truncated at 0).
 */
SMC_API smc_status_t smc_reader_finish(smc_reader_t *r, smc_error_t *err);

/** The sticky error: SMC_OK if none. `err` optional. */
SMC_API smc_status_t smc_reader_error(const smc_reader_t *r, smc_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* SMC_READER_H */
