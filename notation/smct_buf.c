/* Growable output buffer with a sticky failure flag (see smct_buf.h). */
#include "smct_buf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void smct_buf_init(smct_buf_t *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->failed = false;
    b->drain = NULL;
    b->drain_ctx = NULL;
    b->drain_at = 0;
}

void smct_buf_set_drain(smct_buf_t *b, smct_buf_drain_t drain, void *ctx, size_t at)
{
    b->drain = drain;
    b->drain_ctx = ctx;
    b->drain_at = at;
}

bool smct_buf_flush(smct_buf_t *b)
{
    if (!b->failed && b->drain != NULL && b->len > 0) {
        if (!b->drain(b->drain_ctx, b->data, b->len)) {
            b->failed = true;
        }
        b->len = 0;
        b->data[0] = '\0';
    }
    return !b->failed;
}

void smct_buf_free(smct_buf_t *b)
{
    free(b->data);
    smct_buf_init(b);
}

void smct_buf_clear(smct_buf_t *b)
{
    b->len = 0;
    b->failed = false;
    if (b->data != NULL) {
        b->data[0] = '\0';
    }
}

bool smct_buf_ok(const smct_buf_t *b)
{
    return !b->failed;
}

bool smct_buf_reserve(smct_buf_t *b, size_t extra)
{
    if (b->failed) {
        return false;
    }
    if (b->drain != NULL && b->len > 0 && (extra >= b->drain_at || b->len >= b->drain_at - extra) &&
        !smct_buf_flush(b)) {
        return false; /* streaming: hand over what is there before growing */
    }
    /* One byte more than asked for keeps room for the NUL terminator. */
    if (extra >= SIZE_MAX - b->len) {
        b->failed = true;
        return false;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap) {
        return true;
    }
    size_t cap = b->cap < 64 ? 64 : b->cap;
    while (cap < need) {
        if (cap > SIZE_MAX / 2) {
            cap = need;
            break;
        }
        cap *= 2;
    }
    char *p = realloc(b->data, cap);
    if (p == NULL) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    return true;
}

void smct_buf_append(smct_buf_t *b, const void *bytes, size_t len)
{
    if (!smct_buf_reserve(b, len)) {
        return;
    }
    if (len > 0) {
        memcpy(b->data + b->len, bytes, len);
    }
    b->len += len;
    b->data[b->len] = '\0';
}

void smct_buf_puts(smct_buf_t *b, const char *s)
{
    smct_buf_append(b, s, strlen(s));
}

void smct_buf_putc(smct_buf_t *b, char c)
{
    smct_buf_append(b, &c, 1);
}

void smct_buf_vprintf(smct_buf_t *b, const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    char small[128];
    int n = vsnprintf(small, sizeof small, fmt, ap2);
    va_end(ap2);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if ((size_t)n < sizeof small) {
        smct_buf_append(b, small, (size_t)n);
        return;
    }
    if (!smct_buf_reserve(b, (size_t)n)) {
        return;
    }
    va_copy(ap2, ap);
    (void)vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    b->len += (size_t)n;
}

void smct_buf_printf(smct_buf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    smct_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

void smct_buf_consume(smct_buf_t *b, size_t n)
{
    if (n >= b->len) {
        b->len = 0;
    } else if (n > 0) {
        memmove(b->data, b->data + n, b->len - n);
        b->len -= n;
    }
    if (b->data != NULL) {
        b->data[b->len] = '\0';
    }
}

char *smct_buf_steal(smct_buf_t *b)
{
    char *s = b->failed ? NULL : b->data;
    if (b->failed) {
        free(b->data);
    } else if (s == NULL) {
        s = calloc(1, 1); /* an empty buffer never allocated: hand over "" all the same */
    }
    smct_buf_init(b);
    return s;
}

void smct_buf_put_u64(smct_buf_t *b, uint64_t v)
{
    char digits[24];
    size_t i = sizeof digits;
    do {
        digits[--i] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v != 0);
    smct_buf_append(b, digits + i, sizeof digits - i);
}

void smct_buf_put_i64(smct_buf_t *b, int64_t v)
{
    if (v < 0) {
        smct_buf_putc(b, '-');
        /* Negate in unsigned arithmetic so INT64_MIN does not overflow. */
        smct_buf_put_u64(b, (uint64_t)0 - (uint64_t)v);
    } else {
        smct_buf_put_u64(b, (uint64_t)v);
    }
}

const char *smct_buf_cstr(const smct_buf_t *b)
{
    return b->data != NULL ? b->data : "";
}

bool smct_grow_array(void **ptr, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) {
        return true;
    }
    size_t n = *cap < 16 ? 16 : *cap;
    while (n < need) {
        if (n > SIZE_MAX / 2 / elem) {
            return false;
        }
        n *= 2;
    }
    void *q = realloc(*ptr, n * elem);
    if (q == NULL) {
        return false;
    }
    *ptr = q;
    *cap = n;
    return true;
}
