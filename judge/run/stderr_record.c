/*
 * The bounded stderr record of one runner (stderr_record.h). The markers are the first line
 * of each toolchain's crash report: a marker seen in the stream opens the evidence block at
 * the start of its line, which then takes the next EVIDENCE_LINES lines (at most
 * EVIDENCE_BYTES). Only the first marker since the last clear counts: the first report is the
 * cause, later ones are often consequences.
 */
#define _POSIX_C_SOURCE 200809L
#include "stderr_record.h"

#include <string.h>

#include "alloc.h"
#include "escape.h"

/* The tail keeps the last TAIL_KEEP..2*TAIL_KEEP bytes: enough for what a report shows. */
#define TAIL_KEEP      16384u
#define TAIL_LINES     20
#define TAIL_BYTES     2048u
#define EVIDENCE_LINES 9u /* the marker's line and the 8 after it */
#define EVIDENCE_BYTES 4096u
#define MARKER_MAX     40u /* longest marker, for matches split across two writes */

/* The first line of a crash report in each toolchain the suite meets. */
static const char *const k_markers[] = {
    "ERROR: AddressSanitizer",           /* ASan: heap-buffer-overflow, SEGV, ... */
    "ERROR: LeakSanitizer",              /* LSan */
    "WARNING: MemorySanitizer",          /* MSan */
    "WARNING: ThreadSanitizer",          /* TSan */
    "runtime error:",                    /* UBSan: "file.c:12:5: runtime error: ..." */
    "Fatal error",                       /* Swift: "Fatal error: Index out of range" */
    "panicked at",                       /* Rust: "thread 'main' panicked at src/lib.rs:..." */
    "Exception in thread",               /* JVM: uncaught exception */
    "Unhandled exception",               /* Dart VM */
    "Traceback (most recent call last)", /* Python */
    "terminate called",                  /* C++: uncaught exception */
    "Assertion `",                       /* glibc assert() */
    "fatal error:",                      /* Go runtime */
};

/* The first occurrence of any marker in h[0..n), or NULL. */
static const char *find_marker(const char *h, size_t n)
{
    const char *best = NULL;
    for (size_t k = 0; k < sizeof k_markers / sizeof k_markers[0]; k++) {
        size_t m = strlen(k_markers[k]);
        for (size_t i = 0; i + m <= n && (!best || h + i < best); i++) {
            const char *p = memchr(h + i, k_markers[k][0], n - m + 1 - i);
            if (!p) {
                break;
            }
            if (memcmp(p, k_markers[k], m) == 0) {
                best = !best || p < best ? p : best;
                break;
            }
            i = (size_t)(p - h);
        }
    }
    return best;
}

/* Add to the open evidence block what `s[0..n)` holds up to its line limit. */
static void take_evidence(smcj_stderr_t *e, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && e->evidence_lines < EVIDENCE_LINES && e->evidence.len + i < EVIDENCE_BYTES) {
        if (s[i++] == '\n') {
            e->evidence_lines++;
        }
    }
    smct_buf_append(&e->evidence, s, i);
    if (e->evidence_lines >= EVIDENCE_LINES || e->evidence.len >= EVIDENCE_BYTES) {
        e->evidence_open = false;
    }
}

bool smcj_stderr_add(smcj_stderr_t *e, const char *bytes, size_t len)
{
    size_t old = e->tail.len;
    smct_buf_append(&e->tail, bytes, len);
    if (!smcj_buf_ok(&e->tail)) {
        return false; /* out of memory (recorded) */
    }
    e->seen += len;
    if (e->evidence_open) {
        take_evidence(e, bytes, len);
    } else if (e->evidence.len == 0) {
        size_t from = old > MARKER_MAX ? old - MARKER_MAX : 0;
        const char *m = find_marker(e->tail.data + from, e->tail.len - from);
        if (m) {
            size_t at = (size_t)(m - e->tail.data);
            while (at > 0 && e->tail.data[at - 1] != '\n') {
                at--; /* the whole line: "file.c:12: runtime error: ..." */
            }
            e->evidence_at = e->seen - (e->tail.len - at);
            e->evidence_open = true;
            take_evidence(e, e->tail.data + at, e->tail.len - at);
        }
    }
    if (!smcj_buf_ok(&e->evidence)) {
        return false;
    }
    if (e->tail.len > 2 * TAIL_KEEP) {
        smct_buf_consume(&e->tail, e->tail.len - TAIL_KEEP); /* once per TAIL_KEEP bytes */
    }
    return true;
}

/* Where the excerpt's tail starts in e->tail: the last TAIL_LINES lines, at most TAIL_BYTES. */
static size_t tail_start(const smcj_stderr_t *e)
{
    const smct_buf_t *t = &e->tail;
    size_t start = t->len > TAIL_BYTES ? t->len - TAIL_BYTES : 0;
    int lines = 0;
    size_t i = t->len;
    if (i > 0 && t->data[i - 1] == '\n') {
        i--; /* the final newline does not start a line of its own */
    }
    while (i > start) {
        if (t->data[i - 1] == '\n' && ++lines >= TAIL_LINES) {
            break;
        }
        i--;
    }
    return i;
}

char *smcj_stderr_excerpt(const smcj_stderr_t *e)
{
    smct_buf_t b = {0};
    size_t ts = e->tail.len ? tail_start(e) : 0;
    size_t base = e->seen - e->tail.len; /* stream position of e->tail.data[0] */
    size_t tail_at = base + ts;
    if (e->evidence.len && e->evidence_at < tail_at) {
        size_t ev_end = e->evidence_at + e->evidence.len;
        smcj_buf_safe_block(&b, e->evidence.data, e->evidence.len);
        if (e->evidence.data[e->evidence.len - 1] != '\n') {
            smct_buf_putc(&b, '\n');
        }
        if (ev_end < tail_at) {
            smct_buf_printf(&b, "[… %zu bytes …]\n", tail_at - ev_end);
        } else {
            ts += ev_end - tail_at; /* the tail goes on where the evidence stops */
        }
    }
    if (ts < e->tail.len) {
        smcj_buf_safe_block(&b, e->tail.data + ts, e->tail.len - ts);
    }
    return smcj_buf_take(&b);
}

void smcj_stderr_clear(smcj_stderr_t *e)
{
    smct_buf_clear(&e->tail);
    smct_buf_clear(&e->evidence);
    e->seen = 0;
    e->evidence_at = 0;
    e->evidence_lines = 0;
    e->evidence_open = false;
}

void smcj_stderr_free(smcj_stderr_t *e)
{
    smct_buf_free(&e->tail);
    smct_buf_free(&e->evidence);
    memset(e, 0, sizeof *e);
}
