/**
 * @file smct_buf.h
 * @brief smct_buf_t: an append-only growable byte buffer with a sticky out-of-memory flag.
 *
 * Used for every output the tools produce (JSON lines, notation, hex, encoded bytes).
 * The contents are always followed by a NUL byte (not counted in `len`), so text can be
 * printed with "%s" when it holds no embedded NUL. After the first allocation failure the
 * buffer stops growing, every append does nothing and smct_buf_ok() returns false: callers
 * may append freely and check once at the end.
 */
#ifndef SMCT_BUF_H
#define SMCT_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__) || defined(__clang__)
#define SMCT_PRINTF(fmt_index, first_arg) __attribute__((format(printf, fmt_index, first_arg)))
#else
#define SMCT_PRINTF(fmt_index, first_arg)
#endif

/** Where a draining buffer hands its contents: false when they could not be taken. */
typedef bool (*smct_buf_drain_t)(void *ctx, const char *data, size_t len);

/** Growable buffer. Fields may be read; change them only through the functions. */
typedef struct smct_buf {
    char *data;  /**< NULL until the first append; then NUL-terminated at data[len]. */
    size_t len;  /**< Bytes appended so far (since the last drain, for a draining buffer). */
    size_t cap;  /**< Bytes allocated at data. */
    bool failed; /**< An allocation (or a drain) failed; contents are incomplete. */
    smct_buf_drain_t drain; /**< NULL, or where the contents go (smct_buf_set_drain). */
    void *drain_ctx;
    size_t drain_at;
} smct_buf_t;

/** An empty buffer (no allocation yet). Equivalent to zero-initialising the struct. */
void smct_buf_init(smct_buf_t *b);

/** Release the memory; the buffer is empty and usable again. */
void smct_buf_free(smct_buf_t *b);

/** Forget the contents (keep the memory) and clear the failure flag. */
void smct_buf_clear(smct_buf_t *b);

/** True when no allocation has failed since init/clear. */
bool smct_buf_ok(const smct_buf_t *b);

/**
 * Make the buffer stream: whenever an append would take it to `at` bytes or more, its contents
 * so far are handed to `drain` and it starts over, so it never holds much more than `at` bytes
 * (or one append). Only for output that is appended and never looked back at (the notation
 * writers are). A drain that returns false sets the failure flag. smct_buf_flush hands over
 * the rest.
 */
void smct_buf_set_drain(smct_buf_t *b, smct_buf_drain_t drain, void *ctx, size_t at);

/** Hand a draining buffer's contents to its drain now; false if the buffer has failed. */
bool smct_buf_flush(smct_buf_t *b);

/** Make room for `extra` more bytes; false (and the failure flag) on overflow or no memory. */
bool smct_buf_reserve(smct_buf_t *b, size_t extra);

/** Append `len` bytes (may contain NUL). `bytes` may be NULL when len is 0. */
void smct_buf_append(smct_buf_t *b, const void *bytes, size_t len);

/** Append a NUL-terminated string (without its terminator). */
void smct_buf_puts(smct_buf_t *b, const char *s);

/** Append one byte. */
void smct_buf_putc(smct_buf_t *b, char c);

/** Append printf-formatted text. */
void smct_buf_printf(smct_buf_t *b, const char *fmt, ...) SMCT_PRINTF(2, 3);

/** As smct_buf_printf, with a va_list (which it does not consume: it works on a copy). */
void smct_buf_vprintf(smct_buf_t *b, const char *fmt, va_list ap) SMCT_PRINTF(2, 0);

/** Remove the first `n` bytes (all of them if n >= len); the rest moves to the front. */
void smct_buf_consume(smct_buf_t *b, size_t n);

/**
 * Hand the contents over as a NUL-terminated heap string (free() it) and leave the buffer
 * empty. An empty buffer gives a new "" string. NULL when the buffer had failed (its text is
 * incomplete) or "" cannot be allocated; the buffer is emptied in every case.
 */
char *smct_buf_steal(smct_buf_t *b);

/** Append the decimal form of a signed / unsigned 64-bit integer. */
void smct_buf_put_i64(smct_buf_t *b, int64_t v);
void smct_buf_put_u64(smct_buf_t *b, uint64_t v);

/** The contents as a C string: "" when empty, never NULL. */
const char *smct_buf_cstr(const smct_buf_t *b);

/**
 * Make the heap array `*ptr` (room for `*cap` elements of `elem` bytes) hold at least `need`
 * elements, doubling from 16. False on size overflow or no memory; the array is then as it
 * was. The explicit stacks that replace recursion in the JSON code grow with it.
 */
bool smct_grow_array(void **ptr, size_t *cap, size_t need, size_t elem);

#ifdef __cplusplus
}
#endif

#endif /* SMCT_BUF_H */
