/**
 * @file session.h
 * @brief Drive every runner process at once (runners/PROTOCOL.md P.1–P.4): handshake,
 *        pipelined requests, per-request timeouts, crash/hang/garbage isolation, restarts,
 *        and the limits that bound a hostile runner.
 *
 * The restart policy never loses a vector: a crash, hang, protocol error or memory overrun
 * is charged to the request the runner was answering, the process is replaced, and the run
 * goes on, so every vector gets a verdict of its own. What bounds a hostile runner:
 *
 *  - per vector: after `max_restarts_per_vector` failures charged to one vector's checks,
 *    its other checks are not sent (the vector has its verdict: it crashed or hung);
 *  - per runner: after `max_restarts` restarts, or `max_timeouts` timeouts in a row (fewer
 *    than SMCJ_TIMEOUT_ROW_RESET answers between two), its checks not yet answered fail
 *    without being sent, with that reason, and the reports say so in one line;
 *  - per run: after `max_run_time` seconds the same happens to every runner still running;
 *  - a runner is given up only when it cannot complete a handshake (and answer): after
 *    SMCJ_MAX_FRUITLESS restarts in a row that got no answer, with a back-off between them;
 *  - memory: a runner whose process tree holds more than `memory_limit` resident bytes is
 *    killed and the request is charged `resource`; around every length-bomb check (R15.2-3)
 *    the judge measures the runner's memory growth and charges `resource` when it is far more
 *    than the input implies (R1.4-9).
 */
#ifndef SMCJ_SESSION_H
#define SMCJ_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

/** Restarts in a row without an answer after which a runner is given up. */
#define SMCJ_MAX_FRUITLESS 5u
/** Answers that end a row of timeouts (a runner that answers once and hangs never does). */
#define SMCJ_TIMEOUT_ROW_RESET 64u
/** Memory growth around a length-bomb check that is always in bounds (runtime noise). */
#define SMCJ_BOMB_SLACK ((uint64_t)256u << 20)
/** Growth allowed per input byte on top of it (R1.4-9: a constant times the input). */
#define SMCJ_BOMB_PER_BYTE 64u

typedef struct smcj_session_cfg {
    double timeout;                   /* seconds per request (P.4) */
    double start_timeout;             /* seconds for a handshake (JVMs start slowly) */
    size_t window;                    /* requests in flight per runner */
    size_t max_line;                  /* longest response line accepted */
    bool progress;                    /* progress line on stderr */
    double max_run_time;              /* seconds for the whole run; 0: no limit */
    unsigned max_timeouts;            /* 0: no limit */
    unsigned max_restarts;            /* 0: no limit */
    unsigned max_restarts_per_vector; /* 0: no limit */
    uint64_t memory_limit;            /* resident bytes per runner; 0: none */
} smcj_session_cfg_t;

/** Run every non-skipped runner of `run` over its planned checks; fills checks and runner stats. */
void smcj_sessions_run(smcj_run_t *run, const smcj_session_cfg_t *cfg);

#endif /* SMCJ_SESSION_H */
