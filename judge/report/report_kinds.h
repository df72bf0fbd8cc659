/**
 * @file report_kinds.h
 * @brief Crashes and unclassified rejections grouped by kind (runners/PROTOCOL.md P.3 `kind`),
 *        with counts, for every report: "StackOverflowError 12, RangeError 1,609" tells a
 *        codec author which failure to fix first, and one "crash" group did not.
 */
#ifndef SMCJ_REPORT_KINDS_H
#define SMCJ_REPORT_KINDS_H

#include <stdbool.h>
#include <stddef.h>

#include "alloc.h"
#include "model.h"
#include "smct_json_writer.h"

/** The most kinds kept apart; the rest are counted as one "(other kinds)" group, so a runner
 *  naming every failure differently costs the judge a bounded list. */
#define SMCJ_KINDS_MAX 32u

typedef struct smcj_kind_count {
    const char *kind; /* borrowed from a check (act_kind), or a static label */
    size_t count;
} smcj_kind_count_t;

typedef struct smcj_kinds {
    smcj_kind_count_t k[SMCJ_KINDS_MAX + 1]; /* the last slot: "(other kinds)" */
    size_t n;
    size_t total;
} smcj_kinds_t;

/**
 * The runner's checks of selected vectors, grouped by kind, most frequent first (ties by
 * name): `crashes` the checks that failed with `crash` (a crash answer's kind, or "(the
 * runner process ended)" for a process that died), else those answered `rejected` (P.3).
 */
void smcj_kinds_collect(const smcj_run_t *run, const smcj_runner_t *r, bool crashes,
                        smcj_kinds_t *out);

/** As smcj_kinds_collect, over the checks of vectors[0..n) only (ascending vector indices):
 *  the crashes and unclassified rejections of the vectors a diagnosis cause explains. */
void smcj_kinds_collect_of(const smcj_run_t *run, const smcj_runner_t *r, bool crashes,
                           const size_t *vectors, size_t n, smcj_kinds_t *out);

/** "RangeError 1609, IndexError 4": each kind escaped as untrusted text. */
void smcj_kinds_text(smct_buf_t *b, const smcj_kinds_t *k);

/** The group as one line, "crashes by kind (13): StackOverflowError 12, ..." or
 *  "unclassified rejections (R1.4-15) by kind (...): ...", as a heap string; NULL when the
 *  group is empty (or out of memory, recorded). */
char *smcj_kinds_line(const smcj_kinds_t *k, bool crashes);

/** The kinds as a JSON array of {"kind": K, "count": N}. */
void smcj_kinds_json(smct_jw_t *w, const smcj_kinds_t *k);

#endif /* SMCJ_REPORT_KINDS_H */
