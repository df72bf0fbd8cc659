/**
 * @file smc_writer.h
 * @brief Canonical encoder (spec §13) into a caller buffer, with an exact size query.
 *
 * The writer writes only canonical bytes: shortest size forms (spec §2.2), zero padding
 * (also for empty typed lists, spec §6.6), alignment counted from the writer's origin
 * (spec §3.1). It never allocates. Errors are sticky: after the first one every call does
 * nothing and smc_writer_finish reports it. When the buffer is too small the writer keeps
 * counting, so smc_writer_finish reports SMC_ERR_BUFFER_FULL together with the exact size
 * needed; a caller can allocate that much and encode again.
 */
#ifndef SMC_WRITER_H
#define SMC_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smc/smc_export.h"
#include "smc/smc_status.h"
#include "smc/smc_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Writer state. Fields are private: use the functions. Holds one counter per open
 * container (at most SMC_MAX_DEPTH_LIMIT), about 4 KiB.
 */
typedef struct smc_writer {
    uint8_t *buf;                       /* output (may be NULL when cap is 0: size query) */
    size_t cap;                         /* bytes available at buf */
    size_t pos;                         /* bytes produced so far (may exceed cap) */
    size_t origin;                      /* offset of buf[0] in the message, for alignment */
    smc_error_t error;                  /* first error (sticky) */
    uint32_t depth;                     /* open containers */
    uint64_t open[SMC_MAX_DEPTH_LIMIT]; /* per open container: values still expected */
} smc_writer_t;

/** Start a writer over `buf[0..cap)`; the message starts at buf[0]. `buf` may be NULL if cap is 0.
 */
SMC_API void smc_writer_init(smc_writer_t *w, uint8_t *buf, size_t cap);

/**
 * Start a writer whose buf[0] sits at message offset `origin`, for embedding the output
 * in a larger message: padding is computed from (origin + position) (spec §3.1).
 */
SMC_API void smc_writer_init_at(smc_writer_t *w, uint8_t *buf, size_t cap, size_t origin);

/** null `00` (spec §4.1). */
SMC_API void smc_writer_put_null(smc_writer_t *w);
/** true `01` / false `02` (spec §4.1). */
SMC_API void smc_writer_put_bool(smc_writer_t *w, bool v);
/** int32 `03` + 4 bytes LE (spec §4.2). */
SMC_API void smc_writer_put_i32(smc_writer_t *w, int32_t v);
/** int64 `04` + 8 bytes LE (spec §4.2). */
SMC_API void smc_writer_put_i64(smc_writer_t *w, int64_t v);
/** float64 `06` + zero padding to 8 + 8 bytes LE of the bit pattern (spec §4.3). */
SMC_API void smc_writer_put_f64_bits(smc_writer_t *w, uint64_t bits);
SMC_API void smc_writer_put_f64(smc_writer_t *w, double v);
/**
 * String `07` + size + bytes (spec §5). The bytes must be well-formed UTF-8, else
 * SMC_ERR_NOT_ENCODABLE; len > 0xFFFFFFFF → SMC_ERR_NOT_ENCODABLE.
 */
SMC_API void smc_writer_put_str(smc_writer_t *w, const void *s, size_t len);
/** Uint8List `08` + size + bytes (spec §6.1). */
SMC_API void smc_writer_put_u8s(smc_writer_t *w, const void *bytes, size_t len);
/** Int32List `09` + count + zero padding to 4 + elements LE (spec §6.2). */
SMC_API void smc_writer_put_i32s(smc_writer_t *w, const int32_t *vals, size_t count);
/** Int64List `0a` + count + zero padding to 8 + elements LE (spec §6.3). */
SMC_API void smc_writer_put_i64s(smc_writer_t *w, const int64_t *vals, size_t count);
/** Float64List `0b` from bit patterns (spec §6.4). */
SMC_API void smc_writer_put_f64s_bits(smc_writer_t *w, const uint64_t *bits, size_t count);
/** Float32List `0e` from bit patterns (spec §6.5). */
SMC_API void smc_writer_put_f32s_bits(smc_writer_t *w, const uint32_t *bits, size_t count);
/**
 * Any typed list (`type` = SMC_TYPE_I32S, I64S, F64S or F32S) from raw little-endian element
 * bytes, e.g. an smc_array_t from a decoded tree. Other types → SMC_ERR_USAGE.
 */
SMC_API void smc_writer_put_array_le(smc_writer_t *w, smc_type_t type, const uint8_t *le_bytes,
                                     size_t count);
/** largeInt: never written (spec §4.4); always fails with SMC_ERR_NOT_ENCODABLE. */
SMC_API void smc_writer_put_largeint(smc_writer_t *w, const void *s, size_t len);

/**
 * List `0c` + count (spec §7.1). Exactly `count` values must follow, then
 * smc_writer_end_list; fewer or more → SMC_ERR_USAGE. Nesting deeper than
 * SMC_MAX_DEPTH_LIMIT → SMC_ERR_DEPTH.
 */
SMC_API void smc_writer_begin_list(smc_writer_t *w, size_t count);
SMC_API void smc_writer_end_list(smc_writer_t *w);
/** Map `0d` + pair count (spec §7.2); then exactly 2*count values (key, value, ...), then end_map.
 */
SMC_API void smc_writer_begin_map(smc_writer_t *w, size_t count);
SMC_API void smc_writer_end_map(smc_writer_t *w);
/**
 * Custom value (spec §8): tag byte `tag` (128..255, else SMC_ERR_NOT_ENCODABLE), then
 * exactly one value, then smc_writer_end_custom.
 */
SMC_API void smc_writer_begin_custom(smc_writer_t *w, unsigned tag);
SMC_API void smc_writer_end_custom(smc_writer_t *w);

/**
 * Write a whole value tree (iteratively; no recursion). Fails with SMC_ERR_NOT_ENCODABLE for
 * largeInt, invalid UTF-8 strings, sizes above 0xFFFFFFFF or an unknown type, and with
 * SMC_ERR_DEPTH when nested deeper than SMC_MAX_DEPTH_LIMIT (this also stops cycles).
 */
SMC_API void smc_writer_put_value(smc_writer_t *w, const smc_value_t *v);

/** Bytes of the shortest size field for a size or count of `n` (spec §2.2): 1 below 254, 3
 *  (`fe` + u16) up to 0xFFFF, else 5 (`ff` + u32). What the writer writes. */
SMC_API size_t smc_size_field_len(uint64_t n);

/** Append raw bytes as they are (no tag; for envelope flags and tests). */
SMC_API void smc_writer_put_raw(smc_writer_t *w, const void *bytes, size_t len);

/** Bytes produced so far, including those that did not fit. */
SMC_API size_t smc_writer_size(const smc_writer_t *w);

/** First error so far (SMC_OK if none); BUFFER_FULL is reported only by finish. */
SMC_API smc_status_t smc_writer_status(const smc_writer_t *w);

/**
 * End writing. Checks that every container was closed (else SMC_ERR_USAGE).
 * @param written_or_needed optional: bytes written on success; the exact total size the
 *        output needs when the status is SMC_ERR_BUFFER_FULL; 0 on any other error.
 * @param err optional: status and offset (the output position where the error happened).
 * @return SMC_OK, SMC_ERR_BUFFER_FULL, or the first sticky error.
 */
SMC_API smc_status_t smc_writer_finish(smc_writer_t *w, size_t *written_or_needed,
                                       smc_error_t *err);

/**
 * Encode a value as a message (spec §9, §13) into buf[0..cap). `buf` may be NULL if cap is 0.
 * @param written_or_needed as for smc_writer_finish.
 * @return SMC_OK, SMC_ERR_BUFFER_FULL (with the exact size needed), SMC_ERR_NOT_ENCODABLE,
 *         SMC_ERR_DEPTH, SMC_ERR_USAGE (v is NULL).
 */
SMC_API smc_status_t smc_encode(const smc_value_t *v, uint8_t *buf, size_t cap,
                                size_t *written_or_needed, smc_error_t *err);

/** Exact canonical size of `v` as a message; 0 if it cannot be encoded (every encoding is ≥ 1
 * byte). */
SMC_API size_t smc_encoded_size(const smc_value_t *v);

#ifdef __cplusplus
}
#endif

#endif /* SMC_WRITER_H */
