/**
 * @file smct_json_writer.h
 * @brief smct_jw_t: a streaming JSON writer that can only produce well-formed JSON.
 *
 * The reports and the runner protocol are JSON read by other programs, so no caller pastes
 * JSON text together: every value goes through this writer, which tracks the open arrays
 * and objects, writes the commas and the colons, escapes every string and key (as
 * smct_json_write_string does) and refuses what JSON cannot hold: a key outside an object,
 * a value where a key is due, a second top-level value, a close that does not match, more
 * than SMCT_JW_MAX_DEPTH levels, a non-finite number. A refusal marks the output buffer
 * failed (smct_buf_ok() is false), so the caller's one check at the end, the same it makes
 * for out of memory, sees it; nothing more is written after it.
 *
 * Layout: compact, except where the caller asks for a line break (smct_jw_newline), which
 * goes after the comma between two items, so a long report stays readable line by line.
 */
#ifndef SMCT_JSON_WRITER_H
#define SMCT_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smct_buf.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Arrays and objects open at once; a report or a protocol line needs fewer than 16. */
#define SMCT_JW_MAX_DEPTH 64u

typedef struct smct_jw {
    smct_buf_t *out;
    uint32_t depth;                   /**< Containers open now. */
    uint8_t level[SMCT_JW_MAX_DEPTH]; /**< Per open container: kind, has items, comma written. */
    bool want_value;                  /**< A key was written: its value is due. */
    bool done;                        /**< The top-level value is complete. */
    bool refused; /**< A call would have broken the JSON: nothing written since. */
} smct_jw_t;

/** A writer appending one JSON text to `out` (which may already hold other text). */
void smct_jw_init(smct_jw_t *w, smct_buf_t *out);

/** True when one complete JSON value was written, nothing was refused and memory sufficed. */
bool smct_jw_ok(const smct_jw_t *w);

void smct_jw_object(smct_jw_t *w);
void smct_jw_end_object(smct_jw_t *w);
void smct_jw_array(smct_jw_t *w);
void smct_jw_end_array(smct_jw_t *w);

/** The key of the next member: only directly inside an object, and not twice in a row. */
void smct_jw_key(smct_jw_t *w, const char *key);

void smct_jw_null(smct_jw_t *w);
void smct_jw_bool(smct_jw_t *w, bool v);
void smct_jw_u64(smct_jw_t *w, uint64_t v);
void smct_jw_i64(smct_jw_t *w, int64_t v);

/** A number as printf's "%.*f" with `decimals` digits, or as "%g" when decimals < 0. A NaN or
 *  an infinity, which JSON has no number for, is refused. */
void smct_jw_real(smct_jw_t *w, double v, int decimals);

/** A string of `len` bytes (may contain NUL; ill-formed UTF-8 becomes U+FFFD, as in
 *  smct_json_write_string). */
void smct_jw_str_n(smct_jw_t *w, const void *s, size_t len);

/** A NUL-terminated string; NULL is written as null. */
void smct_jw_str(smct_jw_t *w, const char *s);

/** A string of the lower-case hex digits of `n` bytes. */
void smct_jw_hex(smct_jw_t *w, const uint8_t *bytes, size_t n);

/**
 * One complete JSON value already made by another of this library's JSON writers
 * (smct_notation_write, smct_json_write), inserted where a value is due. Only for those
 * writers' output: the text is not parsed again (a 16 MiB value would be parsed twice).
 */
void smct_jw_json(smct_jw_t *w, const char *json, size_t len);

/** A line break between items: after the comma when the open container has items, else at
 *  once (after the opening bracket, or after the top-level value). */
void smct_jw_newline(smct_jw_t *w);

/* Members in one call: the key, then the value as the functions above write it. */
void smct_jw_key_str(smct_jw_t *w, const char *key, const char *s);
void smct_jw_key_u64(smct_jw_t *w, const char *key, uint64_t v);
void smct_jw_key_i64(smct_jw_t *w, const char *key, int64_t v);
void smct_jw_key_bool(smct_jw_t *w, const char *key, bool v);
void smct_jw_key_null(smct_jw_t *w, const char *key);

#ifdef __cplusplus
}
#endif

#endif /* SMCT_JSON_WRITER_H */
