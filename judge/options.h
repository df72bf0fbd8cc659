/**
 * @file options.h
 * @brief The command line of `smc conformance` (its --help text is the reference).
 */
#ifndef SMCJ_OPTIONS_H
#define SMCJ_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"
#include "sandbox.h"

/** The default --memory-limit: 2 GiB resident per runner (its whole process tree). The
 *  reference runners (C, Swift, Kotlin on the JVM, Dart) stay below 200 MiB on the full
 *  vector set; a codec that needs more for the vectors is itself a finding (R1.4-9). */
#define SMCJ_DEFAULT_MEMORY_LIMIT (2ull << 30)

typedef struct smcj_opts {
    const char *vectors;    /* --vectors, or NULL: look in the usual places */
    smcj_runner_t *runners; /* --runner and --skip-runner, in command-line order */
    size_t n_runners;
    char **only, **tiers, **features, **sections;
    size_t n_only, n_tiers, n_features, n_sections;
    char **xfail_specs, **write_specs;
    size_t n_xfail, n_write;
    const char *json, *junit, *html;
    const char *text; /* --text: the text report to this file, not stdout */
    double timeout, start_timeout;
    double max_run_time;             /* 0: none */
    long max_timeouts;               /* 0: none */
    long max_restarts;               /* 0: none */
    long max_restarts_per_vector;    /* 0: none */
    unsigned long long memory_limit; /* resident bytes per runner; 0: none */
    const char *replay_dir;          /* --replay-dir, or NULL: next to the first report file */
    long window;
    long max_details;
    long max_line;
    bool max_line_given; /* else it grows with the longest vector input (judge_main.c) */
    int progress;        /* -1 auto */
    bool list_na;
    bool no_diagnosis;           /* --no-diagnosis: no likely causes in the reports */
    bool no_probes;              /* --no-probes: a diagnosis without diagnosis probes */
    bool no_complexity;          /* --no-complexity: the families of spec §15.4 not timed */
    const char *complexity;      /* --complexity FILE, or NULL: the vectors' c15-complexity.json */
    bool allow_xfail_crashes;    /* --allow-xfail-crashes: lists may excuse what R1.4-8 forbids */
    bool allow_modified_vectors; /* --allow-modified-vectors: a set not the released one */
    smcj_gate_t gate;
    smcj_sandbox_mode_t sandbox;          /* --sandbox: none unless asked (gate.sh asks for auto) */
    char **sandbox_hide, **sandbox_write; /* --sandbox-hide PATH, --sandbox-write DIR */
    size_t n_sandbox_hide, n_sandbox_write;
} smcj_opts_t;

/** The defaults: timeout 5 s, handshake 30 s, window 64, 20 details, lines up to 64 MiB,
 *  progress when stderr is a terminal, gate "recommended", and the limits of session.h:
 *  run time 3600 s, 10 timeouts in a row, 1000 restarts, 1 restart per vector, 2 GiB of
 *  resident memory per runner (SMCJ_DEFAULT_MEMORY_LIMIT). */
void smcj_opts_init(smcj_opts_t *o);

/**
 * Parse argv[1..argc). 0 when the run can go on, 1 when --help was printed, -1 with a
 * message in `err` for a usage error. Runners are created (smcj_runner_t) as given.
 */
int smcj_opts_parse(smcj_opts_t *o, int argc, char **argv, char *err, size_t err_size);

/** Give each runner its --xfail and --write-xfail path; false with a message in `err`. */
bool smcj_opts_attach_lists(smcj_opts_t *o, char *err, size_t err_size);

/** Free the lists and the runners. */
void smcj_opts_free(smcj_opts_t *o);

/** Free everything a runner holds (not the struct itself; runner_free.c). */
void smcj_runner_free(smcj_runner_t *r);

#endif /* SMCJ_OPTIONS_H */
