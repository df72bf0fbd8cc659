/**
 * @file stderr_record.h
 * @brief A bounded record of what a runner wrote to stderr, which keeps the evidence of a
 *        crash: the first sanitizer, fatal-error, panic or uncaught-exception line and the
 *        lines after it, and the recent tail.
 *
 * Why both: after an AddressSanitizer report the last lines are its shadow-byte legend, after
 * a Swift crash a register dump, after a JVM exception the bottom of a stack trace. The line
 * that says what happened ("ERROR: AddressSanitizer: heap-buffer-overflow", "runtime
 * error: ...", "Fatal error: Index out of range", "panicked at ...", "Exception in thread
 * ...") comes first and is what a reader needs; the tail says what the runner did last.
 * Memory is bounded whatever the runner writes: 32 KiB of tail, 4 KiB of evidence.
 */
#ifndef SMCJ_STDERR_RECORD_H
#define SMCJ_STDERR_RECORD_H

#include <stdbool.h>
#include <stddef.h>

#include "smct_buf.h"

typedef struct smcj_stderr {
    smct_buf_t tail;         /* the last 16-32 KiB written */
    size_t seen;             /* bytes written since the record was cleared */
    smct_buf_t evidence;     /* the first fatal line (from its start) and the lines after it */
    size_t evidence_at;      /* where `evidence` starts in the stream (a `seen` count) */
    unsigned evidence_lines; /* newlines in `evidence` */
    bool evidence_open;      /* still taking the lines after the fatal one */
} smcj_stderr_t;

/** Append `len` bytes the runner wrote. False when out of memory (recorded). */
bool smcj_stderr_add(smcj_stderr_t *e, const char *bytes, size_t len);

/**
 * The excerpt for a report, as a new string (NULL when out of memory): the evidence block,
 * a line `[… N bytes …]` when bytes lie between it and the tail, and the last 20 lines (at
 * most 2 KiB); everything passed through smcj_buf_safe_block. "" when nothing was written.
 */
char *smcj_stderr_excerpt(const smcj_stderr_t *e);

/** Forget everything (after it was attributed to a failure). */
void smcj_stderr_clear(smcj_stderr_t *e);

/** Release the memory. */
void smcj_stderr_free(smcj_stderr_t *e);

#endif /* SMCJ_STDERR_RECORD_H */
