/**
 * @file jbuf.h
 * @brief Growable byte buffer and the escaping helpers every report writer shares.
 *
 * Out of memory is not recoverable in the judge: the x* helpers print a message and exit
 * with status 2 (setup error) rather than produce a partial verdict.
 */
#ifndef SMCJ_JBUF_H
#define SMCJ_JBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct smcj_buf {
    char *data; /* always NUL-terminated when non-NULL (the NUL is not counted in len) */
    size_t len;
    size_t cap;
} smcj_buf_t;

void *smcj_xmalloc(size_t n);
void *smcj_xcalloc(size_t count, size_t size);
void *smcj_xrealloc(void *p, size_t n);
char *smcj_xstrdup(const char *s);
char *smcj_xstrndup(const char *s, size_t n);
/** printf into a new heap string. */
char *smcj_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

void smcj_buf_reserve(smcj_buf_t *b, size_t extra);
void smcj_buf_append(smcj_buf_t *b, const void *data, size_t len);
void smcj_buf_puts(smcj_buf_t *b, const char *s);
void smcj_buf_putc(smcj_buf_t *b, char c);
void smcj_buf_printf(smcj_buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void smcj_buf_vprintf(smcj_buf_t *b, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));
/** Remove the first n bytes. */
void smcj_buf_consume(smcj_buf_t *b, size_t n);
void smcj_buf_clear(smcj_buf_t *b);
void smcj_buf_free(smcj_buf_t *b);
/** Hand over the contents as a NUL-terminated heap string (never NULL); b becomes empty. */
char *smcj_buf_steal(smcj_buf_t *b);

/** A JSON string literal (with quotes) of `len` bytes; NUL and controls escaped as \u00XX. */
void smcj_buf_json_str(smcj_buf_t *b, const char *s, size_t len);
void smcj_buf_json_cstr(smcj_buf_t *b, const char *s); /* NULL → null */
/**
 * XML/HTML text or attribute content. Characters XML 1.0 cannot carry at all (controls
 * other than tab/newline/CR, NUL) become a visible `\xNN`; invalid UTF-8 bytes too.
 */
void smcj_buf_xml_text(smcj_buf_t *b, const char *s, size_t len);
void smcj_buf_xml_cstr(smcj_buf_t *b, const char *s);
/**
 * A printable excerpt of untrusted bytes (at most `max` of them): valid UTF-8 text is kept,
 * control bytes, backslashes and invalid UTF-8 become `\xNN`.
 */
void smcj_buf_excerpt(smcj_buf_t *b, const char *s, size_t len, size_t max);

/** Single-quote a string for /bin/sh: 'it'\''s'. */
void smcj_buf_sh_quote(smcj_buf_t *b, const char *s);

/** Lower-case hex of bytes. */
void smcj_buf_hex(smcj_buf_t *b, const uint8_t *bytes, size_t len);
/** Parse lower-case hex (even length, [0-9a-f]); false if malformed. *out is heap (may be NULL when
 * 0). */
bool smcj_hex_decode(const char *hex, size_t hex_len, uint8_t **out, size_t *out_len);

/** Write the buffer to a file path ("-" = stdout); false with errno-based message on failure. */
bool smcj_write_file(const char *path, const smcj_buf_t *b, char *err, size_t err_size);
/** Read a whole file; NULL with a message on failure. *len excludes the added NUL. */
char *smcj_read_file(const char *path, size_t *len, char *err, size_t err_size);

#endif /* SMCJ_JBUF_H */
