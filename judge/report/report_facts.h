/**
 * @file report_facts.h
 * @brief What the run was, as every report states it: the vectors judged, the gate, the limits
 *        that bounded the runners, the sandbox, the clock. Copied from the run once, into the
 *        report model (report_model.h), so that no writer reads the run.
 */
#ifndef SMCJ_REPORT_FACTS_H
#define SMCJ_REPORT_FACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "escape.h"
#include "model.h"

typedef struct smcj_report_facts {
    const smcj_vectors_t *vectors; /* the vectors judged (the vectors room's, read only) */
    size_t n_runners;
    smcj_gate_t gate;
    bool gate_passed;
    int exit_status;
    char *const *gate_notes; /* why the gate failed, one line each (the run's) */
    size_t n_gate_notes;
    bool allow_xfail_crashes, allow_modified_vectors;
    size_t n_excused, n_excused_features;
    /* the limits that bound a hostile runner (session.h) */
    double timeout, max_run_time;
    unsigned max_timeouts, max_restarts, max_restarts_per_vector;
    uint64_t memory_limit;
    bool out_of_time;
    size_t strays;
    double seconds;         /* wall time of the runner phase */
    const char *started_at; /* UTC ISO-8601 */
    int max_details;        /* --max-details */
    bool list_na;           /* --list-na */
    bool sandboxed;
    const char *sandbox_note; /* never NULL: "none" when the run had none */
} smcj_report_facts_t;

/** The facts of a finished run. */
void smcj_report_facts_of(smcj_report_facts_t *f, const smcj_run_t *run);

/** When the vectors are not the released set (manifest.h): one line naming every problem. */
void smcj_vectors_integrity_line(smct_buf_t *b, const smcj_report_facts_t *f);

/** The limits that bounded the run (session.h), one line, and the strays killed at the end. */
void smcj_limits_line(smct_buf_t *b, const smcj_report_facts_t *f);

/** "sandbox: runners sandboxed: bwrap: ..." or "... NOT sandboxed: none (why)" (sandbox.h). */
void smcj_sandbox_line(smct_buf_t *b, const smcj_report_facts_t *f);

#endif /* SMCJ_REPORT_FACTS_H */
