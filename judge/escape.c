/*
 * Text made safe for the reports (escape.h). A runner's output can be any bytes: invalid
 * UTF-8, control characters, terminal escapes, markup. Whatever of it a report shows goes
 * through one of these, so no report is broken or made to lie by what a runner printed.
 * UTF-8 well-formedness is notation's (smct_utf8.h); JSON strings are smct_json_write_string.
 */
#define _POSIX_C_SOURCE 200809L
#include "escape.h"

#include <string.h>

#include "smct_utf8.h"

void smcj_buf_xml_text(smct_buf_t *b, const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        unsigned char c = u[i];
        switch (c) {
        case '&':
            smct_buf_puts(b, "&amp;");
            i++;
            continue;
        case '<':
            smct_buf_puts(b, "&lt;");
            i++;
            continue;
        case '>':
            smct_buf_puts(b, "&gt;");
            i++;
            continue;
        case '"':
            smct_buf_puts(b, "&quot;");
            i++;
            continue;
        case '\'':
            smct_buf_puts(b, "&#39;");
            i++;
            continue;
        default:
            break;
        }
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
            smct_buf_printf(b, "\\x%02x", c); /* XML 1.0 cannot carry these, even as &#..; */
            i++;
            continue;
        }
        size_t n = smct_utf8_seq_len(u + i, len - i);
        if (n == 0) {
            smct_buf_printf(b, "\\x%02x", c);
            i++;
            continue;
        }
        smct_buf_append(b, u + i, n);
        i += n;
    }
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

void smcj_buf_excerpt(smct_buf_t *b, const char *s, size_t len, size_t max)
{
    size_t n = len > max ? max : len;
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        size_t k = c >= 0x80 ? smct_utf8_seq_len((const uint8_t *)s + i, len - i) : 1;
        if (c >= 0x20 && c != 0x7f && k > 0 && c != '\\') {
            smct_buf_append(b, s + i, k);
            i += k;
        } else if (c == '\\') {
            smct_buf_puts(b, "\\\\");
            i++;
        } else {
            smct_buf_printf(b, "\\x%02x", c);
            i++;
        }
    }
    if (len > n) {
        smct_buf_printf(b, "… (%zu bytes in all)", len);
    }
}
