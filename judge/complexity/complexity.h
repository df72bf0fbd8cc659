/**
 * @file complexity.h
 * @brief Complexity conformance (spec §15.4, R15.4-1): families of one shape at growing sizes
 *        (vectors/c15-complexity.json, spec/vectors.md V.8), timed on each runner by the CPU
 *        time of its process tree, and a verdict on how fast that time grows.
 *
 * The family file is data the generator writes (vectors/gen/complexity.py); the judge expands
 * each member from its shape and size (complexity_family.c) and refuses a member whose bytes
 * do not have the length and SHA-256 the generator recorded, so the two expansions check each
 * other. The timing (complexity_run.c) happens after the vector run, one runner at a time, in
 * a process of its own; the verdict (complexity_fit.c) is a pure function of the timings.
 */
#ifndef SMCJ_COMPLEXITY_H
#define SMCJ_COMPLEXITY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "complexity_family.h"
#include "smct_buf.h"
#include "smct_json_writer.h"

struct smcj_run;

/* ---- timings and verdicts ---- */

/** What one family came to on one runner. */
typedef enum smcj_cx_outcome {
    SMCJ_CX_PASS = 0,   /* time grows no faster than n log n allows */
    SMCJ_CX_FAIL,       /* clearly faster, on the best timings and on repetitions */
    SMCJ_CX_UNMEASURED, /* the runner did not decode a member (answer, crash): never a pass */
    SMCJ_CX_NA          /* the runner lacks the family's entry point */
} smcj_cx_outcome_t;

/** The best (smallest) CPU time of one member and of its baseline, in nanoseconds. */
typedef struct smcj_cx_timing {
    size_t index; /* into the family's members */
    size_t bytes;
    uint64_t best_ns, base_best_ns;
    uint64_t last_ns, base_last_ns; /* the latest repetition alone */
    unsigned runs, base_runs;
} smcj_cx_timing_t;

typedef struct smcj_cx_result {
    smcj_cx_outcome_t outcome;
    smcj_cx_timing_t lo, hi; /* the two sizes the growth is fitted on */
    double input_ratio;      /* hi.bytes / lo.bytes */
    double time_ratio;       /* codec time (baseline subtracted) at hi / at lo, best runs */
    double raw_ratio;        /* the same without the baseline */
    double exponent;         /* log time_ratio / log input_ratio */
    double last_ratio;       /* time_ratio of the latest repetition alone */
    unsigned failed_rounds;  /* repetitions that failed on their own (smcj_cx_latest_fails) */
    size_t sizes_probed;
    double cpu_seconds; /* the runner's CPU time this family cost */
    char *note;         /* why unmeasured / a fast family's "too fast" note, or NULL */
} smcj_cx_result_t;

/** One runner's complexity section. */
typedef struct smcj_cx_runner {
    smcj_cx_result_t *r; /* one per family */
    size_t n;
    size_t n_fail, n_pass, n_unmeasured, n_na;
    double seconds;    /* wall time of the runner's complexity phase */
    const char *clock; /* where the CPU time was read */
    char *problem;     /* the runner could not be started or greeted, or NULL */
} smcj_cx_runner_t;

/** The time ratio n log n allows for an input ratio k: 24 for k = 8 (k · 3^(log2 k / 3)). */
double smcj_cx_allowed_ratio(double k);
/** The members probed the growth is fitted on: `hi` the largest probed, `lo` the first below it
 *  whose timing is worth a ratio, then widened down to an input range of up to 8x (members
 *  of at least SMCJ_CX_FLOOR_NS) so that a step in per-byte cost between two neighbours (a
 *  cache or allocator size) is not read as growth. `t[i].best_ns` holds each probe. */
#define SMCJ_CX_FLOOR_NS 1500000ull /* 1.5 ms */
size_t smcj_cx_pick_lo(const smcj_cx_timing_t *t, size_t lo, size_t hi);
/** Fill res's ratios, exponent and outcome from res->lo and res->hi (complexity_fit.c). */
void smcj_cx_judge(smcj_cx_result_t *res);
/** Whether the latest repetition in res->lo and res->hi fails on its own (counted by the
 *  caller in res->failed_rounds, once per repetition, before smcj_cx_judge). */
bool smcj_cx_latest_fails(const smcj_cx_result_t *res);
/** After smcj_cx_judge: the best runs fail but the verdict is a pass, waiting for a second
 *  failing repetition (a failure near the line that more repetitions may confirm). */
bool smcj_cx_unconfirmed(const smcj_cx_result_t *res);
/** "linear" or "about n log n" for a pass, "quadratic" or "worse than quadratic" for a
 *  failure, by the fitted exponent. */
const char *smcj_cx_growth_name(double exponent, bool failed);
/** The line a person reads: "map of distinct keys: 8× input → 61× decode time (quadratic)". */
void smcj_cx_line(smct_buf_t *b, const smcj_cx_family_t *f, const smcj_cx_result_t *res);

/** Free one runner's section (NULL: nothing). */
void smcj_cx_runner_free(smcj_cx_runner_t *cx);

/**
 * The family file of a run: --complexity FILE, else c15-complexity.json of the vectors
 * directory if there is one (none: not checked, and the reports say so). False with a message
 * when a file given or found cannot be used: a setup error, before any runner starts.
 */
bool smcj_cx_load_for_run(smcj_cx_families_t *fs, const char *given, const char *vectors_dir,
                          char *err, size_t err_size);

/** After the gate is computed: a complexity failure fails a gate that includes the tier of
 *  the family file (recommended: the default gate), with a note per runner. */
void smcj_cx_gate(struct smcj_run *run);

/** Time every family on every runner of the run that ran (after the vector run). */
void smcj_cx_run(struct smcj_run *run, const smcj_cx_families_t *fs, double timeout);

/* ---- reports (complexity_report.c); struct smcj_runner is model.h's ---- */
struct smcj_runner;
/** The text report's section: the memory line and one line per family, per runner. */
void smcj_cx_text(smct_buf_t *b, const struct smcj_run *run);
/** The matrix cell of a runner: "passed/measured" with F (failed) and M (not measured). */
void smcj_cx_matrix_cell(char *cell, size_t size, const struct smcj_runner *r);
/** JSON: the run's `complexity` member (the families timed, NULL when none; `skipped`: by
 *  --no-complexity) and a runner's (cx: its figures, NULL when none), into the open object of
 *  w: from the figures alone, so the report model can hand them over without the run. */
void smcj_cx_json_run(smct_jw_t *w, const smcj_cx_families_t *fs, bool skipped);
void smcj_cx_json_runner(smct_jw_t *w, const smcj_cx_families_t *fs, const smcj_cx_runner_t *cx);
/** JUnit: one testcase per family; the counts for the runner's testsuite. */
void smcj_cx_junit(smct_buf_t *b, const struct smcj_run *run, const struct smcj_runner *r);
size_t smcj_cx_junit_count(const struct smcj_runner *r, size_t *failures, size_t *skipped);
/** HTML: the section with its table. */
void smcj_cx_html(smct_buf_t *b, const struct smcj_run *run);

#endif /* SMCJ_COMPLEXITY_H */
