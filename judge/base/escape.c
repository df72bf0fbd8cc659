/*
 * Text made safe for the reports (escape.h). A runner's output can be any bytes: invalid
 * UTF-8, control characters, terminal escapes, markup, bidirectional overrides, characters
 * XML cannot hold. Whatever of it a report shows goes through one of these, so no report is
 * broken or made to lie by what a runner printed. One classifier decides what is unsafe in
 * text (unsafe_in_text), one what XML cannot carry (xml_char), so the reports agree.
 * UTF-8 well-formedness is notation's (smct_utf8.h); JSON strings are smct_json_write_string.
 */
#define _POSIX_C_SOURCE 200809L
#include "escape.h"

#include <stdint.h>
#include <string.h>

#include "smct_utf8.h"

/* The code point of the well-formed n-byte sequence at u. */
static uint32_t code_point(const unsigned char *u, size_t n)
{
    switch (n) {
    case 1:
        return u[0];
    case 2:
        return (uint32_t)(u[0] & 0x1f) << 6 | (u[1] & 0x3f);
    case 3:
        return (uint32_t)(u[0] & 0x0f) << 12 | (uint32_t)(u[1] & 0x3f) << 6 | (u[2] & 0x3f);
    default:
        return (uint32_t)(u[0] & 0x07) << 18 | (uint32_t)(u[1] & 0x3f) << 12 |
               (uint32_t)(u[2] & 0x3f) << 6 | (u[3] & 0x3f);
    }
}

/* XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]
 * (surrogates never reach here: they are not well-formed UTF-8). */
static bool xml_char(uint32_t cp)
{
    return cp == 0x9 || cp == 0xa || cp == 0xd || (cp >= 0x20 && cp <= 0xfffd) || cp >= 0x10000;
}

/* What a terminal or a reader of the text report could be fooled by: C0 and C1 controls
 * (ESC and CSI start terminal escapes; CR and newline start a new line), DEL, the line and
 * paragraph separators, the bidirectional formatting characters (which reorder what is
 * shown, "Trojan Source"), and the noncharacters U+FFFE and U+FFFF. */
static bool invisible(uint32_t cp)
{
    size_t lo = 0, hi = smcj_n_invisible_ranges;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (cp < smcj_invisible_ranges[mid].lo) {
            hi = mid;
        } else if (cp > smcj_invisible_ranges[mid].hi) {
            lo = mid + 1;
        } else {
            return true;
        }
    }
    return false;
}

/* Issue 26: besides the list above, every character Unicode makes invisible (a bidi mark such
 * as U+061C, a zero-width joiner, a tag) comes from a generated table, not a hand list. */
static bool unsafe_in_text(uint32_t cp)
{
    /* (the table holds nothing below U+00A0 that the first tests do not catch: ASCII text
     * never pays for its search) */
    return cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp <= 0x9f) || cp == 0x200e || cp == 0x200f ||
           (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfffe ||
           cp == 0xffff || (cp >= 0xa0 && invisible(cp));
}

static void put_escape(smct_buf_t *b, uint32_t cp)
{
    if (cp < 0x100) {
        smct_buf_printf(b, "\\x%02x", (unsigned)cp);
    } else {
        smct_buf_printf(b, "\\u%04x", (unsigned)cp);
    }
}

/* XML escaping; `quotes`: quotes too (an attribute), else only what text content needs. */
static void xml_escape(smct_buf_t *b, const char *s, size_t len, bool quotes)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        unsigned char c = u[i];
        const char *entity = c == '&'              ? "&amp;"
                             : c == '<'            ? "&lt;"
                             : c == '>'            ? "&gt;"
                             : quotes && c == '"'  ? "&quot;"
                             : quotes && c == '\'' ? "&#39;"
                                                   : NULL;
        if (entity) {
            smct_buf_puts(b, entity);
            i++;
            continue;
        }
        size_t n = smct_utf8_seq_len(u + i, len - i);
        if (n == 0) {
            put_escape(b, c); /* not UTF-8: shown as the byte it is */
            i++;
            continue;
        }
        uint32_t cp = code_point(u + i, n);
        if (!xml_char(cp) || cp == 0x7f || (cp >= 0xa0 && invisible(cp))) {
            /* XML 1.0 cannot carry the first, not even as &#..;, and a reader cannot see the
             * last (a bidi mark reorders what a CI page shows: issue 26) */
            put_escape(b, cp);
        } else {
            smct_buf_append(b, u + i, n);
        }
        i += n;
    }
}

void smcj_buf_xml_text(smct_buf_t *b, const char *s, size_t len)
{
    xml_escape(b, s, len, true);
}

void smcj_buf_xml_content(smct_buf_t *b, const char *s, size_t len)
{
    xml_escape(b, s, len, false);
}

void smcj_buf_xml_cstr(smct_buf_t *b, const char *s)
{
    if (s) {
        smcj_buf_xml_text(b, s, strlen(s));
    }
}

void smcj_buf_sh_quote(smct_buf_t *b, const char *s)
{
    if (s == NULL) {
        b->failed = true; /* the string could not be built (out of memory) */
        return;
    }
    smct_buf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\'') {
            smct_buf_puts(b, "'\\''");
        } else {
            smct_buf_putc(b, *s);
        }
    }
    smct_buf_putc(b, '\'');
}

/* The safe text of s[0..n) of a string of `len` bytes: `block` keeps newlines and tabs (a
 * multi-line record); `backslash` keeps backslashes as they are (JSON text, stderr), else
 * they are doubled so every escape in the result is one of ours. */
static void safe_text(smct_buf_t *b, const char *s, size_t n, size_t len, bool block,
                      bool backslash)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < n) {
        size_t k = smct_utf8_seq_len(u + i, len - i);
        if (k == 0) {
            put_escape(b, u[i]);
            i++;
            continue;
        }
        uint32_t cp = code_point(u + i, k);
        if ((block && (cp == '\n' || cp == '\t')) || (backslash && cp == '\\')) {
            smct_buf_putc(b, (char)cp);
        } else if (cp == '\\') {
            smct_buf_puts(b, "\\\\");
        } else if (unsafe_in_text(cp)) {
            put_escape(b, cp);
        } else {
            smct_buf_append(b, u + i, k);
        }
        i += k;
    }
}

void smcj_buf_excerpt(smct_buf_t *b, const char *s, size_t len, size_t max)
{
    size_t n = len > max ? max : len;
    while (n > 0 && n < len && ((unsigned char)s[n] & 0xc0) == 0x80) {
        n--; /* never cut inside a UTF-8 sequence (it would show as bytes) */
    }
    safe_text(b, s, n, len, false, false);
    if (len > n) {
        smct_buf_printf(b, "… (%zu bytes in all)", len);
    }
}

void smcj_buf_excerpt_cstr(smct_buf_t *b, const char *s, size_t max)
{
    if (s) {
        smcj_buf_excerpt(b, s, strlen(s), max);
    }
}

void smcj_buf_safe_block(smct_buf_t *b, const char *s, size_t len)
{
    safe_text(b, s, len, len, true, true);
}

void smcj_buf_safe_line(smct_buf_t *b, const char *s, size_t len)
{
    safe_text(b, s, len, len, false, true);
}

bool smcj_text_is_plain(const char *s)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t len = strlen(s);
    for (size_t i = 0; i < len;) {
        size_t k = smct_utf8_seq_len(u + i, len - i);
        if (k == 0 || u[i] == '\\' || unsafe_in_text(code_point(u + i, k))) {
            return false;
        }
        i += k;
    }
    return true;
}
