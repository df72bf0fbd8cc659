/**
 * @file session.h
 * @brief Drive every runner process at once (runners/PROTOCOL.md P.1–P.4): handshake,
 *        pipelined requests, per-request timeouts, crash/hang/garbage isolation, respawn.
 */
#ifndef SMCJ_SESSION_H
#define SMCJ_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

typedef struct smcj_session_cfg {
    double timeout;       /* seconds per request (P.4) */
    double start_timeout; /* seconds for a handshake (JVMs start slowly) */
    size_t window;        /* requests in flight per runner */
    size_t max_line;      /* longest response line accepted */
    bool progress;        /* progress line on stderr */
} smcj_session_cfg_t;

/** Run every non-skipped runner of `run` over its planned checks; fills checks and runner stats. */
void smcj_sessions_run(smcj_run_t *run, const smcj_session_cfg_t *cfg);

#endif /* SMCJ_SESSION_H */
