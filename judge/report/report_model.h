/**
 * @file report_model.h
 * @brief The report model: what the four writers print, built once after the run from its
 *        results, verdicts, diagnosis and complexity figures.
 *
 * Every count a report shows comes from here (the summary line, the JSON `counts`, JUnit's
 * tests/failures/errors/skipped, the matrices, the kinds and the n/a reasons), so no writer can
 * count differently from another: the writers (reports.h) are functions of this model and print,
 * never count. The model holds no pointer to the run: what a writer prints of a runner, a
 * vector's result or a check is copied (or borrowed as plain strings and bytes) here, so a
 * writer cannot read the run (scripts/check_layers.py fails on a line of one that does).
 */
#ifndef SMCJ_REPORT_MODEL_H
#define SMCJ_REPORT_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"
#include "report_causes.h"
#include "report_facts.h"
#include "report_kinds.h"
#include "report_util.h"

/** One runner's counts (the verdict's, results.c) and the JUnit testcases they make. */
typedef struct smcj_report_counts {
    size_t status[SMCJ_ST_COUNT]; /* selected vectors of each status (NONE: 0) */
    size_t differs_listed;        /* DIFFERS in a way a vector's notes name */
    size_t xfail_unmatched;       /* expected-failure lines that match no vector */
    size_t features;              /* core features it lacks (spec R1.4-11) */
    size_t features_excused;      /* of those, named by a `feature:` line */
    /* JUnit: a case per selected vector, feature verdict, stale list line, complexity family
     * (or one "start" case for a runner that never ran) */
    size_t cases, case_failures, case_errors, case_skipped;
} smcj_report_counts_t;

/** One check of one runner as the reports show it: its name, mode and outcome, and for a
 *  failure what was expected and what came (the strings and bytes the run's, borrowed). The
 *  names are the check's (model.h), so a writer reads it as it would there. */
typedef struct smcj_report_check {
    char label[64];        /* smcj_check_label: "decode", "reject strict", ... */
    const char *direction; /* smcj_check_direction */
    smcj_check_kind_t kind;
    size_t vector, index; /* its vector; accepted[index] for ACCEPT/ACCEPT_STRICT */
    bool strict, placed;
    smcj_tier_t tier;
    int order_alt, alt;
    const char *lacks;
    bool robustness, accepted_bomb;
    smcj_outcome_t outcome;
    smcj_reason_t reason;
    const char *detail, *expected, *actual;
    const uint8_t *exp_bytes, *act_bytes;
    size_t exp_len, act_len;
    size_t bytes_from, exp_kept, act_kept, first_difference;
    bool values_cut;
    const char *stderr_tail;
} smcj_report_check_t;

/** One selected vector of one runner, as every report lists it. */
typedef struct smcj_report_row {
    size_t vector; /* index into facts.vectors->v */
    smcj_status_t status;
    smcj_tier_t tier;     /* the verdict's tier: the placement tier for a placement failure */
    smcj_reason_t reason; /* of a failure (placement included), else SMCJ_REASON_NONE */
    size_t check;         /* the deciding check (smcj_result_check), or SIZE_MAX */
    const char *why;      /* placement_text for a placement failure, else alt_text */
    char *alt_text;       /* the listed behaviour it matched, in words (report_util.h), or NULL */
    char *placement_text; /* the shifted-input verdict (P.2, spec §3.3), or NULL */
    char *cause;          /* the diagnosis's note (smcj_cause_note), or NULL */
    char *replay;         /* the command that reruns the vector (smcj_replay_command) */
    const char *xfail_reason;      /* the expected-failure line's reason that names it, or NULL */
    smcj_reason_t verdict_reason;  /* the verdict's reason, also of a listed (expected) failure */
    size_t check_begin, check_end; /* its checks: check_views[check_begin .. check_end) */
    size_t placement_check;        /* the placement check that failed it (§3.3), or SIZE_MAX */
    smcj_tier_t placement_tier;    /* that check's tier */
    int alt;                       /* the listed behaviour it matched (notes.alternatives), or -1 */
    bool failed;                   /* a check failed (a placement check included) */
    /* the diagnosis of it (smcj_causes_of_vector): whether it was diagnosed, the causes that
     * explain it, its unexplained group's signature */
    bool diagnosed;
    const char **cause_ids;
    size_t n_cause_ids;
    const char *unexplained;
    bool aligned_failure; /* its aligned checks failed and its placement did not decide: the
                             HTML grid's cell names the reason */
    /* n/a: the detail of the vector's first check (the missing feature or entry), borrowed
     * from the run; NULL otherwise or when that check has none */
    const char *na_detail;
} smcj_report_row_t;

/** Lines of text the model holds (heap strings). */
typedef struct smcj_report_lines {
    char **line;
    size_t n, cap;
} smcj_report_lines_t;

/** One reason n/a vectors share (the text report's breakdown, JUnit's skip message). */
typedef struct smcj_report_na {
    const char *reason; /* a row's na_detail, or "not applicable" (static) when it has none */
    size_t count;
} smcj_report_na_t;

/** Which kinds: crashes, or unclassified rejections (R1.4-15), report_kinds.h. */
enum { SMCJ_KINDS_CRASH, SMCJ_KINDS_UNCLASSIFIED, SMCJ_KINDS_GROUPS };

/** One runner of the model. */
typedef struct smcj_report_runner {
    smcj_report_runner_facts_t facts; /* what it was and did: what the writers state of it */
    bool ran;                         /* it has results (it started) */
    smcj_report_counts_t counts;
    char *summary;           /* "12 passed, 1 failed, ...": NULL when it did not run */
    smcj_report_row_t *rows; /* every selected vector, in vector order */
    size_t n_rows;
    size_t *row_of;              /* vector index → its row, SIZE_MAX when not selected */
    smcj_detail_group_t *groups; /* the failure details by likely cause (report_causes.h) */
    size_t n_groups;
    /* crashes and unclassified rejections of selected vectors by kind, and the line every
     * report shows for a group that is not empty ("crashes by kind (13): ..."; else NULL) */
    smcj_kinds_t kinds[SMCJ_KINDS_GROUPS];
    char *kind_line[SMCJ_KINDS_GROUPS];
    smcj_report_na_t *na; /* the n/a vectors by reason, in the order first met */
    size_t n_na, na_total;
    smcj_report_lines_t notes; /* what its declaration changes, then the depth ladder note */
    smcj_report_lines_t self;  /* its self-consistency line (smcj_self_note), if any */
    /* the replay command up to a vector's quoted id (smcj_replay_prefix): an HTML group's */
    char *replay_prefix;
    /* per check of the run: the hello and that request alone piped into the runner's command
     * (smcj_raw_command) for a failing check and a placement check (no handshake), else NULL */
    char **raw;
    size_t n_raw;
    smcj_report_check_t *check_views; /* every check of the run (indexed like the run's) */
    size_t n_check_views;
    /* the diagnosis (report_causes.h): the text report's "likely causes" block and the HTML
     * causes table of this runner ("" when it has none), and per check what differs in a
     * failing one (borrowed from the diagnosis; NULL when none) */
    char *causes_text, *causes_html;
    char *const *what_differs;
    size_t n_what_differs;
    smcj_report_diagnosis_t diagnosis; /* the JSON report's `diagnosis` */
    /* spec §15.4 (complexity.h): its JUnit cases and its text matrix cell */
    char *cx_junit;
    char cx_cell[64];
} smcj_report_runner_t;

typedef struct smcj_report_model {
    smcj_report_facts_t facts;     /* what the run was: vectors, gate, limits, sandbox, clock */
    smcj_report_runner_t *runners; /* one per runner of the run, in its order */
    size_t n_runners;
    smcj_report_counts_t total; /* the JUnit totals of every runner (the <testsuites>) */
    smcj_matrix_t sections;     /* runners × top-level sections ("6"): the text report */
    smcj_matrix_t subsections;  /* runners × sections ("6.2"): the HTML report */
    size_t *subsection_vectors; /* per row of subsections: the selected vectors of that section */
    /* spec §15.4 (complexity.h): whether families were timed, the text and HTML blocks */
    bool complexity;
    char *cx_text, *cx_html;
} smcj_report_model_t;

/** Build the model of a finished run (verdicts, diagnosis and complexity in). False when out
 *  of memory (recorded, alloc.h): no report is written then. Free with smcj_report_model_free
 *  in either case. */
bool smcj_report_model_build(smcj_report_model_t *m, const smcj_run_t *run);
void smcj_report_model_free(smcj_report_model_t *m);

/** The row of vector `vi` for runner `ri`, or NULL when the vector is not selected or the
 *  runner did not run. */
const smcj_report_row_t *smcj_report_row(const smcj_report_model_t *m, size_t ri, size_t vi);

/** What differs in check `check` of runner `mr` (diag_bytes.h, diag_values.h), or NULL. */
const char *smcj_report_what_differs(const smcj_report_runner_t *mr, size_t check);

/** The hex diff of a wrong_bytes check, from what is kept of its bytes (smcj_hexdiff_kept). */
void smcj_report_check_hexdiff(smct_buf_t *b, const char *indent, const smcj_report_check_t *c);

/** How JUnit shows a row (its status's SMCJ_STATUS_LIST column); *is_error: a <failure>
 *  that is an <error>, a harness failure (crash, timeout, protocol error; R1.4-8). */
smcj_junit_shape_t smcj_report_row_junit(const smcj_report_row_t *row, bool *is_error);

#endif /* SMCJ_REPORT_MODEL_H */
