/**
 * @file escape.h
 * @brief Untrusted text made safe for the reports: XML/HTML text, shell quoting, and
 *        printable excerpts of a runner's bytes.
 */
#ifndef SMCJ_ESCAPE_H
#define SMCJ_ESCAPE_H

#include <stddef.h>

#include "smct_buf.h"

/**
 * XML/HTML text or attribute content. Characters XML 1.0 cannot carry at all (controls
 * other than tab/newline/CR, NUL) become a visible `\xNN`; invalid UTF-8 bytes too.
 */
void smcj_buf_xml_text(smct_buf_t *b, const char *s, size_t len);
void smcj_buf_xml_cstr(smct_buf_t *b, const char *s); /* NULL: nothing */

/**
 * A printable excerpt of untrusted bytes (at most `max` of them): valid UTF-8 text is kept,
 * control bytes, backslashes and invalid UTF-8 become `\xNN`.
 */
void smcj_buf_excerpt(smct_buf_t *b, const char *s, size_t len, size_t max);

/** Single-quote a string for /bin/sh: 'it'\''s'. NULL (a string that could not be built)
 *  fails `b`. */
void smcj_buf_sh_quote(smct_buf_t *b, const char *s);

#endif /* SMCJ_ESCAPE_H */
