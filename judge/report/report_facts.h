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
    /* spec §15.4 (complexity.h): the families timed, or NULL; whether --no-complexity */
    const struct smcj_cx_families *complexity;
    bool complexity_skipped;
} smcj_report_facts_t;

/** What a runner was and did, as the reports state it: its command, its declaration (P.1),
 *  how its session went (restarts, stops, memory). The strings and arrays are the run's,
 *  borrowed; the names are the runner's (model.h), so a writer reads them as it would there. */
typedef struct smcj_report_runner_facts {
    const char *name, *command;
    const char *skip_reason; /* --skip-runner: never started */
    bool started, start_failed, handshake_bad;
    const char *start_error;
    const char *codec_name, *codec_version, *codec_language;
    bool entry_ok[SMC_ENTRY_COUNT];
    char *const *decode_caps;
    size_t n_decode_caps;
    char *const *encode_caps;
    size_t n_encode_caps;
    bool opt_shift;
    int protocol;
    smcj_decl_t decl[SMC_ENTRY_COUNT];
    const smcj_feature_verdict_t *unsupported_features; /* core features it lacks */
    size_t n_unsupported_features;
    const char *handshake_note;
    char *const *hosts;
    size_t n_hosts;
    char *const *without_host, *const *without_type;
    size_t n_without;
    smcj_xfail_t xfail; /* its expected-failure list (the entries borrowed) */
    bool has_xfail;
    unsigned restarts, timeouts;
    bool gave_up;
    const char *stop_reason;
    smcj_reason_t stop_kind;
    size_t n_unsent, requests_sent;
    double seconds;
    const char *stderr_tail;
    uint64_t peak_rss, bomb_growth;
    size_t bombs_measured, strays;
    size_t n_robust, n_bombs_accepted;
    size_t n_self_checked, n_self_sent, n_self_failed;
    const struct smcj_cx_runner *complexity; /* its time growth figures (complexity.h), or NULL */
} smcj_report_runner_facts_t;

/** The facts of runner r. */
void smcj_report_runner_facts_of(smcj_report_runner_facts_t *f, const smcj_runner_t *r);

/** "NAME: memory: peak resident 143.2 MiB; largest growth on a length-bomb input ..." and the
 *  escaped processes killed, when known. */
void smcj_memory_line(smct_buf_t *b, const smcj_report_runner_facts_t *r);

/** The facts of a finished run. */
void smcj_report_facts_of(smcj_report_facts_t *f, const smcj_run_t *run);

/** When the vectors are not the released set (manifest.h): one line naming every problem. */
void smcj_vectors_integrity_line(smct_buf_t *b, const smcj_report_facts_t *f);

/** The limits that bounded the run (session.h), one line, and the strays killed at the end. */
void smcj_limits_line(smct_buf_t *b, const smcj_report_facts_t *f);

/** "sandbox: runners sandboxed: bwrap: ..." or "... NOT sandboxed: none (why)" (sandbox.h). */
void smcj_sandbox_line(smct_buf_t *b, const smcj_report_facts_t *f);

#endif /* SMCJ_REPORT_FACTS_H */
