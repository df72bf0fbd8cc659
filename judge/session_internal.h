/**
 * @file session_internal.h
 * @brief One runner's session (session.c), as the loop over all of them (session_loop.c)
 *        drives it. Internal to those two files.
 */
#ifndef SMCJ_SESSION_INTERNAL_H
#define SMCJ_SESSION_INTERNAL_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "runner_io.h"
#include "session.h"

/* IDLE (skipped) or HELLO -> RUN -> BYE -> DONE, with a respawn going back to HELLO. */
typedef enum smcj_session_state {
    SMCJ_SESSION_IDLE = 0, /* not started (skipped runner) */
    SMCJ_SESSION_HELLO,    /* hello sent, waiting for the answer */
    SMCJ_SESSION_RUN,      /* requests flowing */
    SMCJ_SESSION_BYE,      /* bye sent, waiting for exit */
    SMCJ_SESSION_DONE
} smcj_session_state_t;

typedef struct smcj_session {
    smcj_runner_t *r;
    const smcj_vectors_t *vs;
    const smcj_session_cfg_t *cfg;
    smcj_runner_io_t io; /* the current process and its pipes */
    smcj_session_state_t state;
    bool first_start;
    size_t *order;  /* indices of the checks to send, in order */
    uint64_t *seqs; /* seq sent for order[k] */
    size_t n_order;
    size_t head, next; /* in flight: order[head..next) */
    uint64_t seq;
    double wait_since; /* when the oldest outstanding request started waiting */
    double bye_deadline;
    unsigned consecutive_failures;
    unsigned generation; /* bumped on every respawn: stale buffered lines are dropped */
    double t0;
    smc_arena_t arena; /* scratch for one response */
} smcj_session_t;

/** Set up session `s` of runner `r` and, unless the runner is skipped, start it (P.1). */
void smcj_session_start(smcj_session_t *s, smcj_runner_t *r, const smcj_vectors_t *vs,
                        const smcj_session_cfg_t *cfg, double t0);

/** True while the session has a runner to drive (not IDLE, not DONE). */
bool smcj_session_active(const smcj_session_t *s);

/** When the session next needs attention without input: its timeout or bye deadline. */
double smcj_session_deadline(const smcj_session_t *s);

/** Append the session's fds to poll to `pfd` (room for 3); returns how many. */
size_t smcj_session_poll_fds(const smcj_session_t *s, struct pollfd *pfd);

/** One turn after poll(): read stderr, write stdin, take stdout's lines, check timeouts. */
void smcj_session_service(smcj_session_t *s, double t0);

/** Kill and reap whatever still runs, keep the runner's last stderr and wall time, free. */
void smcj_session_finish(smcj_session_t *s, double t0, double t1);

#endif /* SMCJ_SESSION_INTERNAL_H */
