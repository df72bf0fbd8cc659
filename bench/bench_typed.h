/**
 * @file bench_typed.h
 * @brief The typed-record benchmark (bench/README.md "Typed records"): the records of the
 *        b_anr_* and c_latlng_* payloads as the C structs generated code would declare,
 *        read with the pull reader (smc_reader.h) and written with the writer (smc_writer.h).
 *
 * Internal to the benchmark library. The Swift and Kotlin benches declare the same records
 * (runners/swift/Sources/smc-swift-bench/TypedRecords.swift,
 * runners/kotlin/src/bench/kotlin/dev/smc/bench/TypedRecords.kt) with the same field types,
 * so every codec does the same work on the same bytes.
 */
#ifndef SMC_BENCH_TYPED_H
#define SMC_BENCH_TYPED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smc/smc.h"

/** What a record payload holds, from its first tags: one record, or a List of records. */
typedef enum bench_shape {
    BENCH_SHAPE_NONE = 0, /* not a record payload: the typed ops do not apply */
    BENCH_SHAPE_ANR,
    BENCH_SHAPE_ANR_LIST,
    BENCH_SHAPE_LATLNG,
    BENCH_SHAPE_LATLNG_LIST
} bench_shape_t;

/** Custom tags of the records (spec §8; wire-format-notes §4.1 numbering). */
#define BENCH_TAG_ANR      129u /* the AllNullableTypes-like record: a 31-field list */
#define BENCH_TAG_ANR_ENUM 130u /* its enum: the index as an int32 */
#define BENCH_TAG_LATLNG   131u /* LatLng: [float64, float64] */

#define BENCH_ANR_FIELDS 31u

/** A nullable UTF-8 string, copied into the arena (owned). */
typedef struct bench_opt_str {
    smc_bytes_t s;
    bool present;
} bench_opt_str_t;

/** A map of nullable strings in wire order. */
typedef struct bench_str_map {
    bench_opt_str_t *keys;
    bench_opt_str_t *values;
    size_t count;
} bench_str_map_t;

typedef struct bench_i32_array {
    int32_t *v;
    size_t n;
} bench_i32_array_t;

typedef struct bench_i32_lists {
    bench_i32_array_t *v;
    size_t n;
} bench_i32_lists_t;

/**
 * The AllNullableTypes-like record. Field i is null unless bit i of `present` is set (the
 * field order is the wire order, BENCH_ANR_* in bench_typed.c). Strings, byte arrays and
 * typed arrays live in the decode arena (owned); typed arrays keep the library's
 * little-endian element view (smc_array_t, read with smc_i32s_at() and friends). `a_list`,
 * `an_object` and `an_empty_list` are generic fields (Pigeon's `List<Object?>` / `Object?`)
 * as value trees.
 */
typedef struct bench_anr {
    uint32_t present;
    bool a_bool, another_bool, third_bool;
    int32_t an_int, another_int;
    int32_t an_enum, another_enum; /* the enum index */
    int64_t an_int64, another_int64, a_nullable_int;
    double a_double, another_double, a_nullable_double, a_small_double;
    smc_bytes_t a_string, a_nullable_string, an_empty_string, another_string, an_emoji;
    smc_bytes_t a_byte_array, another_byte_array;
    smc_array_t a_4byte_array, another_4byte_array, a_8byte_array, a_float_array;
    const smc_value_t *a_list, *an_object, *an_empty_list;
    bench_str_map_t a_map, an_empty_map;
    bench_i32_lists_t nested_lists;
} bench_anr_t;

typedef struct bench_latlng {
    double latitude;
    double longitude;
} bench_latlng_t;

/** A decoded record payload: one record or an array of them, all in the decode arena. */
typedef struct bench_records {
    bench_shape_t shape;
    bench_anr_t *anr;
    bench_latlng_t *latlng;
    size_t count;
} bench_records_t;

/** The shape of a message payload (never fails; NONE for anything else). */
bench_shape_t bench_typed_shape(const uint8_t *data, size_t len);

/**
 * Decodes a record payload of `shape` into `arena` the way generated C code does it with
 * libsmc (and as Pigeon's GObject code does with an FlValue tree): smc_decode builds the
 * tree in the arena (every byte copied: owned), then each record is taken from its field
 * list by index, with a type check per field, into the struct.
 * @return false on malformed input or a value of the wrong type (reset the arena).
 */
bool bench_typed_decode(const uint8_t *data, size_t len, bench_shape_t shape, smc_arena_t *arena,
                        bench_records_t *out);

/**
 * The same records read item by item with the pull reader (smc_reader_next), with no tree
 * in between; typed arrays and strings are copied into the arena.
 */
bool bench_typed_decode_reader(const uint8_t *data, size_t len, bench_shape_t shape,
                               smc_arena_t *arena, bench_records_t *out);

/**
 * Encodes decoded records into buf[0..cap).
 * @return false on an encoder error or when the output does not fit.
 */
bool bench_typed_encode(const bench_records_t *records, uint8_t *buf, size_t cap, size_t *written);

#endif /* SMC_BENCH_TYPED_H */
