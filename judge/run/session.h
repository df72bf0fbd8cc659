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
#include "smct_buf.h"
#include "smct_json.h"

/** Restarts in a row without an answer after which a runner is given up. */
#define SMCJ_MAX_FRUITLESS 5u
/** Answers that end a row of timeouts (a runner that answers once and hangs never does). */
#define SMCJ_TIMEOUT_ROW_RESET 64u
/** Bytes per second a request and its answer may move at least: with --timeout, they bound
 *  a request's whole time (P.4), however its bytes trickle. */
#define SMCJ_MIN_RATE (1024.0 * 1024.0)
/** Memory growth around a length-bomb check that is always in bounds (runtime noise). */
#define SMCJ_BOMB_SLACK ((uint64_t)256u << 20)
/** Growth allowed per input byte on top of it (R1.4-9: a constant times the input). */
#define SMCJ_BOMB_PER_BYTE 64u

/** What the session does with a self-consistency check when its turn comes. */
typedef enum smcj_self_step {
    SMCJ_SELF_WAIT = 0, /* the encode or decode check of its vector is not answered yet */
    SMCJ_SELF_SEND,     /* send it: c->own_hex (NULL: the canonical bytes) is what it decodes */
    SMCJ_SELF_DECIDED   /* decided without a request (n/a, or the decode check read the bytes) */
} smcj_self_step_t;

/**
 * What a session asks of the rooms above the run (judge_main.c fills it in with the planner
 * and the verdict): the session sends the requests and reads the answers, and each answer
 * goes back through `answer`; what a check expects and how an answer is judged are not the
 * run's to know.
 */
typedef struct smcj_session_hooks {
    /** After the first good hello: the runner's checks (they depend on its capabilities). */
    void (*plan)(smcj_runner_t *r, const smcj_vectors_t *vs);
    /** A first hello that failed: one placeholder check per vector, failed with `reason`. */
    void (*plan_all_failed)(smcj_runner_t *r, const smcj_vectors_t *vs, smcj_reason_t reason,
                            const char *detail);
    /** Self-consistency check `ci` is next: wait for its encode answer, send, or decided. */
    smcj_self_step_t (*prepare_self)(smcj_runner_t *r, size_t ci);
    /** The request line of check `c` (no newline), with sequence number `seq`. */
    void (*request_line)(smct_buf_t *b, uint64_t seq, const smcj_runner_t *r,
                         const smcj_vectors_t *vs, const smcj_check_t *c);
    /** A protocol-valid answer `resp` to check `c`: its verdict (`arena`: scratch space). */
    void (*answer)(smcj_check_t *c, const smcj_runner_t *r, const smcj_vectors_t *vs,
                   const smct_json_t *resp, smc_arena_t *arena);
} smcj_session_hooks_t;

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
    /* the planner and the verdict, every hook set */
    const smcj_session_hooks_t *hooks;
} smcj_session_cfg_t;

/** Run every non-skipped runner of `run` over its planned checks; fills checks and runner stats. */
void smcj_sessions_run(smcj_run_t *run, const smcj_session_cfg_t *cfg);

#endif /* SMCJ_SESSION_H */
