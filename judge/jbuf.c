/* Growable buffer and escaping (see jbuf.h). */
#define _POSIX_C_SOURCE 200809L
#include "jbuf.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void die_nomem(void)
{
    fputs("smc conformance: out of memory\n", stderr);
    exit(2);
}

void *smcj_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        die_nomem();
    }
    return p;
}

void *smcj_xcalloc(size_t count, size_t size)
{
    void *p = calloc(count ? count : 1, size ? size : 1);
    if (!p) {
        die_nomem();
    }
    return p;
}

void *smcj_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        die_nomem();
    }
    return q;
}

char *smcj_xstrdup(const char *s)
{
    return smcj_xstrndup(s, strlen(s));
}

char *smcj_xstrndup(const char *s, size_t n)
{
    char *p = smcj_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *smcj_xasprintf(const char *fmt, ...)
{
    smcj_buf_t b = {0};
    va_list ap;
    va_start(ap, fmt);
    smcj_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    return smcj_buf_steal(&b);
}

void smcj_buf_reserve(smcj_buf_t *b, size_t extra)
{
    if (extra > SIZE_MAX / 2 - b->len) {
        die_nomem();
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap) {
        return;
    }
    size_t cap = b->cap ? b->cap : 256;
    while (cap < need) {
        cap *= 2;
    }
    b->data = smcj_xrealloc(b->data, cap);
    b->cap = cap;
}

void smcj_buf_append(smcj_buf_t *b, const void *data, size_t len)
{
    smcj_buf_reserve(b, len);
    if (len) {
        memcpy(b->data + b->len, data, len);
    }
    b->len += len;
    b->data[b->len] = '\0';
}

void smcj_buf_puts(smcj_buf_t *b, const char *s)
{
    smcj_buf_append(b, s, strlen(s));
}

void smcj_buf_putc(smcj_buf_t *b, char c)
{
    smcj_buf_append(b, &c, 1);
}

void smcj_buf_vprintf(smcj_buf_t *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        return;
    }
    smcj_buf_reserve(b, (size_t)n);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void smcj_buf_printf(smcj_buf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    smcj_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void smcj_buf_consume(smcj_buf_t *b, size_t n)
{
    if (n >= b->len) {
        smcj_buf_clear(b);
        return;
    }
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
    b->data[b->len] = '\0';
}

void smcj_buf_clear(smcj_buf_t *b)
{
    b->len = 0;
    if (b->data) {
        b->data[0] = '\0';
    }
}

void smcj_buf_free(smcj_buf_t *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

char *smcj_buf_steal(smcj_buf_t *b)
{
    char *s = b->data ? b->data : smcj_xstrdup("");
    b->data = NULL;
    b->len = b->cap = 0;
    return s;
}

/* Length of a well-formed UTF-8 sequence at s (RFC 3629), or 0 if ill-formed. */
static size_t utf8_seq_len(const unsigned char *s, size_t avail)
{
    unsigned char c = s[0];
    size_t n;
    uint32_t cp;
    if (c < 0x80) {
        return 1;
    } else if (c >= 0xc2 && c <= 0xdf) {
        n = 2;
        cp = c & 0x1fu;
    } else if (c >= 0xe0 && c <= 0xef) {
        n = 3;
        cp = c & 0x0fu;
    } else if (c >= 0xf0 && c <= 0xf4) {
        n = 4;
        cp = c & 0x07u;
    } else {
        return 0;
    }
    if (avail < n) {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if ((s[i] & 0xc0) != 0x80) {
            return 0;
        }
        cp = cp << 6 | (s[i] & 0x3fu);
    }
    if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
        (n == 4 && (cp < 0x10000 || cp > 0x10ffff))) {
        return 0;
    }
    return n;
}

void smcj_buf_json_str(smcj_buf_t *b, const char *s, size_t len)
{
    static const char hexd[] = "0123456789abcdef";
    smcj_buf_reserve(b, len + 2);
    smcj_buf_putc(b, '"');
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        switch (c) {
        case '"':
            smcj_buf_puts(b, "\\\"");
            break;
        case '\\':
            smcj_buf_puts(b, "\\\\");
            break;
        case '\n':
            smcj_buf_puts(b, "\\n");
            break;
        case '\r':
            smcj_buf_puts(b, "\\r");
            break;
        case '\t':
            smcj_buf_puts(b, "\\t");
            break;
        case '\b':
            smcj_buf_puts(b, "\\b");
            break;
        case '\f':
            smcj_buf_puts(b, "\\f");
            break;
        default:
            if (c < 0x20 || c == 0x7f) {
                char e[7] = {'\\', 'u', '0', '0', hexd[c >> 4], hexd[c & 15], 0};
                smcj_buf_puts(b, e);
            } else if (c < 0x80) {
                smcj_buf_putc(b, (char)c);
            } else {
                /* runner output can be anything; JSON text must stay UTF-8 */
                size_t n = utf8_seq_len((const unsigned char *)s + i, len - i);
                if (n == 0) {
                    smcj_buf_puts(b, "\\ufffd");
                } else {
                    smcj_buf_append(b, s + i, n);
                    i += n - 1;
                }
            }
        }
    }
    smcj_buf_putc(b, '"');
}

void smcj_buf_json_cstr(smcj_buf_t *b, const char *s)
{
    if (!s) {
        smcj_buf_puts(b, "null");
    } else {
        smcj_buf_json_str(b, s, strlen(s));
    }
}

void smcj_buf_xml_text(smcj_buf_t *b, const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    while (i < len) {
        unsigned char c = u[i];
        switch (c) {
        case '&':
            smcj_buf_puts(b, "&amp;");
            i++;
            continue;
        case '<':
            smcj_buf_puts(b, "&lt;");
            i++;
            continue;
        case '>':
            smcj_buf_puts(b, "&gt;");
            i++;
            continue;
        case '"':
            smcj_buf_puts(b, "&quot;");
            i++;
            continue;
        case '\'':
            smcj_buf_puts(b, "&#39;");
            i++;
            continue;
        default:
            break;
        }
        if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
            smcj_buf_printf(b, "\\x%02x", c); /* XML 1.0 cannot carry these, even as &#..; */
            i++;
            continue;
        }
        size_t n = utf8_seq_len(u + i, len - i);
        if (n == 0) {
            smcj_buf_printf(b, "\\x%02x", c);
            i++;
            continue;
        }
        smcj_buf_append(b, u + i, n);
        i += n;
    }
}

void smcj_buf_xml_cstr(smcj_buf_t *b, const char *s)
{
    if (s) {
        smcj_buf_xml_text(b, s, strlen(s));
    }
}

void smcj_buf_sh_quote(smcj_buf_t *b, const char *s)
{
    smcj_buf_putc(b, '\'');
    for (; *s; s++) {
        if (*s == '\'') {
            smcj_buf_puts(b, "'\\''");
        } else {
            smcj_buf_putc(b, *s);
        }
    }
    smcj_buf_putc(b, '\'');
}

void smcj_buf_hex(smcj_buf_t *b, const uint8_t *bytes, size_t len)
{
    static const char hexd[] = "0123456789abcdef";
    smcj_buf_reserve(b, 2 * len);
    for (size_t i = 0; i < len; i++) {
        b->data[b->len++] = hexd[bytes[i] >> 4];
        b->data[b->len++] = hexd[bytes[i] & 15];
    }
    b->data[b->len] = '\0';
}

static int hex_nibble(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    return -1;
}

bool smcj_hex_decode(const char *hex, size_t hex_len, uint8_t **out, size_t *out_len)
{
    *out = NULL;
    *out_len = 0;
    if (hex_len % 2) {
        return false;
    }
    uint8_t *p = smcj_xmalloc(hex_len / 2 + 1);
    for (size_t i = 0; i < hex_len; i += 2) {
        int hi = hex_nibble(hex[i]);
        int lo = hex_nibble(hex[i + 1]);
        if (hi < 0 || lo < 0) {
            free(p);
            return false;
        }
        p[i / 2] = (uint8_t)(hi << 4 | lo);
    }
    *out = p;
    *out_len = hex_len / 2;
    return true;
}

bool smcj_write_file(const char *path, const smcj_buf_t *b, char *err, size_t err_size)
{
    bool to_stdout = strcmp(path, "-") == 0;
    FILE *f = to_stdout ? stdout : fopen(path, "wb");
    if (!f) {
        snprintf(err, err_size, "cannot write %s: %s", path, strerror(errno));
        return false;
    }
    size_t n = b->len ? fwrite(b->data, 1, b->len, f) : 0;
    bool ok = n == b->len;
    if (to_stdout) {
        ok = fflush(f) == 0 && ok;
    } else {
        ok = fclose(f) == 0 && ok;
    }
    if (!ok) {
        snprintf(err, err_size, "cannot write %s: %s", path, strerror(errno));
    }
    return ok;
}

char *smcj_read_file(const char *path, size_t *len, char *err, size_t err_size)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, err_size, "cannot open %s: %s", path, strerror(errno));
        return NULL;
    }
    smcj_buf_t b = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        smcj_buf_append(&b, chunk, n);
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (bad) {
        snprintf(err, err_size, "cannot read %s", path);
        smcj_buf_free(&b);
        return NULL;
    }
    *len = b.len;
    return smcj_buf_steal(&b);
}

void smcj_buf_excerpt(smcj_buf_t *b, const char *s, size_t len, size_t max)
{
    size_t n = len > max ? max : len;
    size_t i = 0;
    while (i < n) {
        unsigned char c = (unsigned char)s[i];
        size_t k = c >= 0x80 ? utf8_seq_len((const unsigned char *)s + i, len - i) : 1;
        if (c >= 0x20 && c != 0x7f && k > 0 && c != '\\') {
            smcj_buf_append(b, s + i, k);
            i += k;
        } else if (c == '\\') {
            smcj_buf_puts(b, "\\\\");
            i++;
        } else {
            smcj_buf_printf(b, "\\x%02x", c);
            i++;
        }
    }
    if (len > n) {
        smcj_buf_printf(b, "… (%zu bytes in all)", len);
    }
}
