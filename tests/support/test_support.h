/*
 * Shared helpers of the cmocka suite: hex, the value notation (spec/notation.md, read by the
 * project's own reader, smct_notation.h),
 * a counting allocator with fail-nth injection, and assertions that check status, class
 * and offset together. Every decode assertion also runs the reader (smc_validate) and checks
 * that it reports the same status and offset, and that a failed decode left nothing behind.
 */
#ifndef SMC_TEST_SUPPORT_H
#define SMC_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "model.h"
#include "smc/smc.h"
#include "smct_json.h"

/* ---- bytes ---- */

typedef struct ts_buf {
    uint8_t *data;
    size_t len;
} ts_buf_t;

/* Lower-case hex (spaces ignored) → bytes; aborts the test on bad hex. Free with ts_buf_free. */
ts_buf_t ts_hex(const char *hex);
/* Concatenate hex pieces and a run: ts_hex_repeat("08fd", 0x00, 253, "") */
ts_buf_t ts_hex_repeat(const char *prefix, uint8_t fill, size_t count, const char *suffix);
void ts_buf_free(ts_buf_t *b);
/* Lower-case hex of bytes into a static buffer (for messages; truncated at 512 chars). */
const char *ts_to_hex(const uint8_t *data, size_t len);

/* ---- counting allocator (fail-nth injection) ---- */

typedef struct ts_alloc {
    size_t allocs;   /* successful allocations so far */
    size_t attempts; /* allocation calls so far */
    size_t live;     /* blocks not freed */
    size_t live_bytes;
    size_t peak_bytes;
    size_t fail_at;     /* 1-based attempt number to fail; 0: never */
    size_t max_size;    /* requests above this fail; 0: no limit */
    size_t total_bytes; /* every byte handed out so far (frees do not give it back) */
    bool has_budget;    /* a request that would take total_bytes above budget fails */
    size_t budget;
} ts_alloc_t;

void ts_alloc_init(ts_alloc_t *a);
smc_allocator_t ts_alloc_allocator(ts_alloc_t *a);

/* ---- notation ---- */

/* Parse a value in the notation into `arena` (the JSON tree is kept there too); fails the test
 * on invalid notation (spec/notation.md N.4), naming the offset and the reason. */
smc_value_t *ts_notation(smc_arena_t *arena, const char *json);
/* The same from an already parsed JSON value (smct_json_parse). */
smc_value_t *ts_notation_json(smc_arena_t *arena, const smct_json_t *json);

/* ---- assertions (file/line of the caller) ---- */

/* Decode must fail with `status` at `offset` under `flags` (also via the reader); the arena
 * must be left as it was and no allocation may leak. */
#define ts_assert_decode_error(hex, flags, status, offset)                                         \
    ts_assert_decode_error_at(hex, flags, status, offset, __FILE__, __LINE__)
void ts_assert_decode_error_at(const char *hex, uint32_t flags, smc_status_t status, size_t offset,
                               const char *file, int line);
/* Same for bytes. */
void ts_assert_decode_error_bytes(const uint8_t *data, size_t len, uint32_t flags,
                                  smc_status_t status, size_t offset, const char *file, int line);

/* Decode of `hex` under `flags` must give the notation value (exact, float bits included), in
 * copy and alias modes, at every memory shift 0..7 (spec §3.3: alignment by message offset). */
#define ts_assert_decodes_to(hex, flags, notation)                                                 \
    ts_assert_decodes_to_at(hex, flags, notation, __FILE__, __LINE__)
void ts_assert_decodes_to_at(const char *hex, uint32_t flags, const char *notation,
                             const char *file, int line);
void ts_assert_decodes_bytes_to_at(const uint8_t *data, size_t len, uint32_t flags,
                                   const char *notation, const char *file, int line);

/* Encoding the notation value must give exactly `hex`; smc_encoded_size agrees; one byte
 * less of buffer gives SMC_ERR_BUFFER_FULL with the exact size. */
#define ts_assert_encodes_to(notation, hex)                                                        \
    ts_assert_encodes_to_at(notation, hex, __FILE__, __LINE__)
void ts_assert_encodes_to_at(const char *notation, const char *hex, const char *file, int line);
void ts_assert_encodes_to_bytes_at(const char *notation, const uint8_t *data, size_t len,
                                   const char *file, int line);

/* Both directions, flutter and strict decode. */
#define ts_assert_canonical(notation, hex) ts_assert_canonical_at(notation, hex, __FILE__, __LINE__)
void ts_assert_canonical_at(const char *notation, const char *hex, const char *file, int line);
void ts_assert_canonical_bytes_at(const char *notation, const uint8_t *data, size_t len,
                                  const char *file, int line);

/* Encoding `v` must fail with `status`. */
#define ts_assert_encode_error(v, status) ts_assert_encode_error_at(v, status, __FILE__, __LINE__)
void ts_assert_encode_error_at(const smc_value_t *v, smc_status_t status, const char *file,
                               int line);

/* Value equality with a readable failure (types, bits). */
#define ts_assert_value_equal(expected, actual)                                                    \
    ts_assert_value_equal_at(expected, actual, __FILE__, __LINE__)
void ts_assert_value_equal_at(const smc_value_t *expected, const smc_value_t *actual,
                              const char *file, int line);

/* Walk `data` with the reader; count items. Returns SMC_OK or the reader's error. */
smc_status_t ts_reader_walk(const uint8_t *data, size_t len, uint32_t flags, size_t *items,
                            smc_error_t *err);

/* ---- the golden vectors (vectors/, read with the judge's loader; support/golden.c) ---- */

/* The vectors directory: $SMC_VECTORS_DIR, else the one tests/CMakeLists.txt names. */
const char *ts_vectors_dir(void);

/* Load `dir` with the judge's loader (judge/vectors/vectors.h); false, with every problem printed,
 * if the judge would refuse it. */
bool ts_golden_load(const char *dir, smcj_vectors_t *out);

typedef enum ts_direction {
    TS_BOTH = 0,       /* canonical: encode and decode asserted */
    TS_DECODE_ONLY = 1 /* accepted encoding (decode in flutter mode only) */
} ts_direction_t;

/* One message input with its value: a valid vector's canonical bytes or an accepted
 * encoding (spec/vectors.md V.2). Borrowed from the loaded vectors. */
typedef struct ts_vector {
    const char *id;       /* the vector's id, sNN.M-<slug> */
    const char *notation; /* value, compact notation */
    const uint8_t *bytes;
    size_t len;
    ts_direction_t direction;
} ts_vector_t;

/* Every valid message-entry vector, and each of its accepted encodings after it; set by
 * ts_golden_setup, empty before it. */
extern const ts_vector_t *ts_vectors;
extern size_t ts_vector_count;

/* cmocka group setup/teardown of the test programs that use ts_vectors: load the vectors once
 * (setup fails, and with it every test of the group, when they do not load). */
int ts_golden_setup(void **state);
int ts_golden_teardown(void **state);

/* Run ts_assert_canonical (or the flutter-mode decode of an accepted encoding) over every
 * input whose vector id starts with id_prefix; returns how many ran (none fails the test). */
size_t ts_run_vectors(const char *id_prefix);

#endif /* SMC_TEST_SUPPORT_H */
