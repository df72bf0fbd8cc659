/**
 * @file escape.h
 * @brief Untrusted text made safe for the reports: XML/HTML text, shell quoting, and
 *        printable excerpts and blocks of a runner's (or a vector file's) bytes.
 *
 * Everything a runner sends (names, messages, values, stderr) and every free text of a
 * vector file reaches a report through one of these, so no report can be broken, and no
 * line of the text report can be forged (a "GATE PASSED" line, a terminal escape that
 * rewrites the screen, a bidirectional override that reorders what is shown).
 */
#ifndef SMCJ_ESCAPE_H
#define SMCJ_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>

#include "smct_buf.h"

/**
 * XML/HTML text or attribute content. Every character outside XML 1.0's Char production
 * (controls other than tab/newline/CR, U+FFFE, U+FFFF) becomes a visible `\xNN` or `\uXXXX`;
 * invalid UTF-8 bytes become `\xNN`. The result is always well-formed XML character data.
 */
void smcj_buf_xml_text(smct_buf_t *b, const char *s, size_t len);
void smcj_buf_xml_cstr(smct_buf_t *b, const char *s); /* NULL: nothing */

/**
 * A printable one-line excerpt of untrusted bytes (at most `max` of them): valid UTF-8 text
 * is kept; control characters (C0 including newline and tab, DEL, C1), bidirectional
 * formatting characters, line/paragraph separators, U+FFFE/U+FFFF and backslashes become
 * `\xNN` / `\uXXXX` / `\\`, invalid UTF-8 bytes `\xNN`. Longer input ends with a note of
 * its length.
 */
void smcj_buf_excerpt(smct_buf_t *b, const char *s, size_t len, size_t max);

/** smcj_buf_excerpt of a C string (NULL: nothing), up to `max` bytes. */
void smcj_buf_excerpt_cstr(smct_buf_t *b, const char *s, size_t max);

/**
 * Untrusted text that may span lines (a runner's stderr): as smcj_buf_excerpt, but newlines
 * and tabs are kept, backslashes too (so sanitizer reports stay readable), and there is no
 * length limit. NUL bytes become `\x00` instead of ending the text.
 */
void smcj_buf_safe_block(smct_buf_t *b, const char *s, size_t len);

/** One line of text that is already escaped in its own way (compact JSON, notation): as
 *  smcj_buf_excerpt without a length limit, backslashes kept. */
void smcj_buf_safe_line(smct_buf_t *b, const char *s, size_t len);

/** True if `s` (NUL-terminated) holds nothing smcj_buf_excerpt would escape. */
bool smcj_text_is_plain(const char *s);

/** Single-quote a string for /bin/sh: 'it'\''s'. NULL (a string that could not be built)
 *  fails `b`. */
void smcj_buf_sh_quote(smct_buf_t *b, const char *s);

#endif /* SMCJ_ESCAPE_H */
