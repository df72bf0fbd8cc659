/*
 * What is kept of a failing check's values (kept_value.h). A runner answering every check
 * with an 8 MiB wrong value drove the judge to 4.9 GB and a 1.58 GB JSON report for 54
 * vectors when failing values were kept in full; kept this way, each failing check holds at
 * most SMCJ_KEPT_TEXT bytes of each text and SMCJ_KEPT_BYTES of each byte string.
 */
#include "kept_value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "sha256.h"

/* "<prefix>… (N bytes in all, SHA-256 H)", or `t` itself when it is short enough. */
static char *cut_text(char *t)
{
    size_t len = t ? strlen(t) : 0;
    if (len <= SMCJ_KEPT_TEXT) {
        return t;
    }
    size_t keep = SMCJ_KEPT_TEXT;
    while (keep > 0 && ((unsigned char)t[keep] & 0xc0) == 0x80) {
        keep--; /* never half a UTF-8 sequence */
    }
    char hex[SMCJ_SHA256_HEX];
    smcj_sha256_hex((const uint8_t *)t, len, hex);
    char *cut = smcj_asprintf("%.*s… (%zu bytes in all, SHA-256 %s)", (int)keep, t, len, hex);
    free(t);
    return cut;
}

/* A copy of p[from, from + n) (n may be 0), or NULL out of memory (recorded). */
static uint8_t *window(const uint8_t *p, size_t from, size_t n)
{
    uint8_t *w = smcj_malloc(n + 1);
    if (w && n) {
        memcpy(w, p + from, n);
    }
    return w;
}

static size_t kept_of(size_t len, size_t from)
{
    size_t left = len > from ? len - from : 0;
    return left < SMCJ_KEPT_BYTES ? left : SMCJ_KEPT_BYTES;
}

void smcj_keep_bounded(smcj_check_t *c)
{
    if (c->expected && strlen(c->expected) > SMCJ_KEPT_TEXT) {
        c->expected = cut_text(c->expected);
        c->values_cut = true;
    }
    if (c->actual && strlen(c->actual) > SMCJ_KEPT_TEXT) {
        c->actual = cut_text(c->actual);
        c->values_cut = c->answer_cut = true;
    }
    size_t first = 0;
    while (c->exp_bytes && c->act_bytes && first < c->exp_len && first < c->act_len &&
           c->exp_bytes[first] == c->act_bytes[first]) {
        first++;
    }
    c->first_difference = first;
    c->bytes_from = 0;
    c->exp_kept = c->exp_len;
    c->act_kept = c->act_len;
    if ((!c->exp_bytes || c->exp_len <= SMCJ_KEPT_BYTES) &&
        (!c->act_bytes || c->act_len <= SMCJ_KEPT_BYTES)) {
        return;
    }
    size_t from = first > SMCJ_KEPT_BYTES / 2 ? first - SMCJ_KEPT_BYTES / 2 : 0;
    uint8_t *e = c->exp_bytes ? window(c->exp_bytes, from, kept_of(c->exp_len, from)) : NULL;
    uint8_t *a = c->act_bytes ? window(c->act_bytes, from, kept_of(c->act_len, from)) : NULL;
    free(c->exp_bytes);
    free(c->act_bytes);
    c->exp_bytes = e;
    c->act_bytes = a;
    c->bytes_from = from;
    c->exp_kept = e ? kept_of(c->exp_len, from) : 0;
    c->act_kept = a ? kept_of(c->act_len, from) : 0;
    c->values_cut = true;
    c->answer_cut = c->answer_cut || c->act_kept < c->act_len;
}

const char *smcj_kept_marker(const char *s)
{
    size_t n = strlen(s);
    /* "… (" is 5 bytes, "N bytes in all, SHA-256 " at least 24, the hash 64, ")" 1 */
    if (n < 5 + 24 + 64 + 1 || s[n - 1] != ')') {
        return NULL;
    }
    const char *m = strstr(s + (n > 160 ? n - 160 : 0), "… (");
    if (!m) {
        return NULL;
    }
    size_t size;
    char hex[SMCJ_SHA256_HEX];
    int end = 0;
    return sscanf(m, "… (%zu bytes in all, SHA-256 %64[0-9a-f])%n", &size, hex, &end) == 2 &&
                   m + end == s + n && strlen(hex) == 64
               ? m
               : NULL;
}
