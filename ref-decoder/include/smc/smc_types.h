/**
 * @file smc_types.h
 * @brief The value model: types numbered by wire tag, byte views, the value tree node,
 *        decode options, typed-array accessors, and a small builder API.
 *
 * A decoded message is a tree of smc_value_t nodes. Every node and every byte it points to
 * lives in an smc_arena_t (smc_value.h) or, with SMC_ALIAS_INPUT, in the caller's input.
 * Float values are kept as raw IEEE-754 bit patterns, so NaN payloads and -0.0 survive a
 * decode/encode round trip unchanged (spec §4.3).
 */
#ifndef SMC_TYPES_H
#define SMC_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "smc/smc_export.h"
#include "smc/smc_status.h"
#include "smc/smc_wire_types.h" /* smc_type_t, generated from spec/wire-types.json */

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Hard upper bound on any nesting depth (decode_opts.max_depth, the reader, the writer
 * and smc_encode). The reader and writer keep one small counter per open container inline,
 * so this bounds their size; the tree decoder and encoder keep an explicit stack of this
 * many frames on the C stack (16 bytes each) and never recurse. Spec §15.1 requires 64 and
 * recommends rejecting more than 128.
 */
#define SMC_MAX_DEPTH_LIMIT 512u

/** A view of bytes owned by someone else (arena or input). `ptr` may be NULL if `len` is 0. */
typedef struct smc_bytes {
    const uint8_t *ptr;
    size_t len;
} smc_bytes_t;

/**
 * A typed array (Int32List, Int64List, Float64List, Float32List): `count` elements stored
 * as raw little-endian bytes at `data` (4 or 8 bytes each). `data` carries no alignment
 * guarantee (with SMC_ALIAS_INPUT it points into the input, aligned relative to the message
 * start, not in memory), so read elements only through smc_i32s_at() and friends.
 */
typedef struct smc_array {
    const uint8_t *data;
    size_t count;
} smc_array_t;

typedef struct smc_value smc_value_t;

/** List payload: `count` values at `items`. */
typedef struct smc_list {
    smc_value_t *items;
    size_t count;
} smc_list_t;

/** Map payload: `count` pairs; `entries` holds 2*count values, key, value, key, ... in wire order.
 */
typedef struct smc_map {
    smc_value_t *entries;
    size_t count;
} smc_map_t;

/** Custom payload (spec §8): exactly one nested value. */
typedef struct smc_custom {
    smc_value_t *payload;
} smc_custom_t;

/**
 * One node of a value tree. `type` selects the union member:
 * BOOL→boolean, I32→i32, I64→i64, F64→f64_bits, STR/LARGEINT/U8S→bytes,
 * I32S/I64S/F64S/F32S→array, LIST→list, MAP→map, CUSTOM→custom (+custom_tag 128..255).
 * Strings and largeInt text are UTF-8 without a terminator and may contain U+0000.
 */
struct smc_value {
    smc_type_t type;
    uint8_t custom_tag; /**< 128..255 for SMC_TYPE_CUSTOM, 0 otherwise. */
    union {
        bool boolean;
        int32_t i32;
        int64_t i64;
        uint64_t f64_bits; /**< IEEE-754 binary64 bit pattern. */
        smc_bytes_t bytes;
        smc_array_t array;
        smc_list_t list;
        smc_map_t map;
        smc_custom_t custom;
    };
};

/* ---- decode options (used by smc_decode, the reader and the envelope decoders) ---- */

#define SMC_STRICT_SIZE     0x01u /**< Reject non-minimal size forms: not_canonical (spec §2.2). */
#define SMC_STRICT_PADDING  0x02u /**< Reject non-zero padding bytes: not_canonical (spec §3.3). */
#define SMC_REJECT_LARGEINT 0x04u /**< Tag 0x05 is unknown_tag (spec §4.4). */
#define SMC_REJECT_CUSTOM   0x08u /**< Tags 0x80..0xff are unknown_tag (spec §8.1). */
/**
 * Strings, largeInt text, byte arrays and typed arrays point into the input instead of
 * being copied into the arena (zero-copy, O(1) per value). The input must then outlive the
 * tree. Ignored by the reader, which always returns views.
 */
#define SMC_ALIAS_INPUT 0x10u

/** Flutter-compatible mode (default, spec §1.2). */
#define SMC_MODE_FLUTTER 0u
/** Canonical bytes only (spec §1.2, §13). */
#define SMC_MODE_STRICT (SMC_STRICT_SIZE | SMC_STRICT_PADDING | SMC_REJECT_LARGEINT)

/** Options of every decoder. A NULL pointer means {SMC_MODE_FLUTTER, 0}. */
typedef struct smc_decode_opts {
    uint32_t flags;     /**< SMC_* flag bits above. Unknown bits → SMC_ERR_USAGE. */
    uint32_t max_depth; /**< 0 → SMC_DEFAULT_MAX_DEPTH (smc_version.h); > SMC_MAX_DEPTH_LIMIT →
                           SMC_ERR_USAGE. */
} smc_decode_opts_t;

/* ---- typed-array element accessors (host-endianness independent) ---- */

/** Element i (< a->count) of an Int32List. */
static inline int32_t smc_i32s_at(const smc_array_t *a, size_t i)
{
    const uint8_t *p = a->data + 4 * i;
    uint32_t u = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    int32_t s;
    memcpy(&s, &u, sizeof s); /* int32_t is two's complement by definition */
    return s;
}

/** Bit pattern of element i (< a->count) of a Float32List. */
static inline uint32_t smc_f32s_bits_at(const smc_array_t *a, size_t i)
{
    const uint8_t *p = a->data + 4 * i;
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/** Bit pattern of element i (< a->count) of a Float64List (or raw bits of an Int64List element). */
static inline uint64_t smc_f64s_bits_at(const smc_array_t *a, size_t i)
{
    const uint8_t *p = a->data + 8 * i;
    uint64_t u = 0;
    for (int k = 7; k >= 0; k--) {
        u = u << 8 | p[k];
    }
    return u;
}

/** Element i (< a->count) of an Int64List. */
static inline int64_t smc_i64s_at(const smc_array_t *a, size_t i)
{
    uint64_t u = smc_f64s_bits_at(a, i);
    int64_t s;
    memcpy(&s, &u, sizeof s);
    return s;
}

/** Reinterpret binary64 bits as a double (and back). */
static inline double smc_f64_from_bits(uint64_t bits)
{
    double d;
    memcpy(&d, &bits, sizeof d);
    return d;
}
static inline uint64_t smc_f64_to_bits(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    return bits;
}
/** Reinterpret binary32 bits as a float (and back). */
static inline float smc_f32_from_bits(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}
static inline uint32_t smc_f32_to_bits(float f)
{
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits;
}

/* ---- values: comparison, names, builders ---- */

/** Arena that owns tree nodes and copied bytes; defined in smc_value.h. */
typedef struct smc_arena smc_arena_t;

/**
 * Exact structural equality: same types (i32 ≠ i64), same custom tags, same bytes, same
 * float bit patterns (NaN == NaN when the bits match; 0.0 ≠ -0.0), same element order
 * (maps compare entry by entry in order). Iterative: deep trees do not use the C stack.
 * NULL equals only NULL.
 */
SMC_API bool smc_value_equal(const smc_value_t *a, const smc_value_t *b);

/** The notation type word of a type ("null", "bool", "i32", ..., "custom"); "?" if unknown. */
SMC_API const char *smc_type_name(smc_type_t type);

/** The spec's name of a type ("null", "bool", "int32", "largeInt", "float64", "string",
 *  "Uint8List", ..., "List", "Map", "custom"); "?" if unknown. Same list as smc_type_name. */
SMC_API const char *smc_type_title(smc_type_t type);

/** Library version string, e.g. "0.1.0" (same as SMC_VERSION_STRING in smc_version.h). */
SMC_API const char *smc_version(void);

/*
 * Builders. Each allocates one node (and copies any bytes) in `arena` and returns it, or
 * NULL if the arena is out of memory. Node contents may be copied by value into a parent's
 * items/entries (`list->list.items[i] = *child`): pointers inside stay valid while the arena
 * lives. Builders do not validate (a string may hold invalid UTF-8; the encoder rejects it).
 */
SMC_API smc_value_t *smc_value_make_null(smc_arena_t *arena);
SMC_API smc_value_t *smc_value_make_bool(smc_arena_t *arena, bool v);
SMC_API smc_value_t *smc_value_make_i32(smc_arena_t *arena, int32_t v);
SMC_API smc_value_t *smc_value_make_i64(smc_arena_t *arena, int64_t v);
SMC_API smc_value_t *smc_value_make_f64_bits(smc_arena_t *arena, uint64_t bits);
SMC_API smc_value_t *smc_value_make_f64(smc_arena_t *arena, double v);
/** String of `len` bytes copied from `s` (UTF-8, not terminated). */
SMC_API smc_value_t *smc_value_make_str(smc_arena_t *arena, const void *s, size_t len);
/** largeInt text (decode-only type; smc_encode rejects it with SMC_ERR_NOT_ENCODABLE). */
SMC_API smc_value_t *smc_value_make_largeint(smc_arena_t *arena, const void *s, size_t len);
SMC_API smc_value_t *smc_value_make_u8s(smc_arena_t *arena, const void *bytes, size_t len);
/** Typed arrays from host values; stored as little-endian bytes. `vals` may be NULL if count is 0.
 */
SMC_API smc_value_t *smc_value_make_i32s(smc_arena_t *arena, const int32_t *vals, size_t count);
SMC_API smc_value_t *smc_value_make_i64s(smc_arena_t *arena, const int64_t *vals, size_t count);
SMC_API smc_value_t *smc_value_make_f64s_bits(smc_arena_t *arena, const uint64_t *bits,
                                              size_t count);
SMC_API smc_value_t *smc_value_make_f32s_bits(smc_arena_t *arena, const uint32_t *bits,
                                              size_t count);
/** Typed array of `type` (I32S, I64S, F64S, F32S) from raw little-endian element bytes (copied). */
SMC_API smc_value_t *smc_value_make_array_le(smc_arena_t *arena, smc_type_t type,
                                             const uint8_t *le_bytes, size_t count);
/** List of `count` items, all initialised to null; fill `items[i]`. */
SMC_API smc_value_t *smc_value_make_list(smc_arena_t *arena, size_t count);
/** Map of `count` pairs, all keys and values initialised to null; fill `entries[2i]`,
 * `entries[2i+1]`. */
SMC_API smc_value_t *smc_value_make_map(smc_arena_t *arena, size_t count);
/** Custom value with `tag` and `payload` (the pointer is stored, not copied; NULL → a new null
 * node). */
SMC_API smc_value_t *smc_value_make_custom(smc_arena_t *arena, uint8_t tag, smc_value_t *payload);

#ifdef __cplusplus
}
#endif

#endif /* SMC_TYPES_H */
