/*
 * Every runner at once (session.h): one poll() loop over all sessions, because a JVM or Swift
 * runner spends most of its time starting or waiting on pipes, and running them in parallel
 * makes the whole run as long as the slowest runner instead of their sum. Each session's
 * protocol is session.c's. However the loop ends (done, interrupted, out of memory), every
 * runner is killed and reaped before smcj_sessions_run returns.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "alloc.h"
#include "proc.h"
#include "session_internal.h"

/* The progress line on stderr (only when asked or a terminal): answered/queued per runner. */
static void progress(smcj_session_t *ss, size_t n, bool final)
{
    smct_buf_t b = {0};
    smct_buf_puts(&b, "\r\033[K[smc conformance]");
    for (size_t i = 0; i < n; i++) {
        if (ss[i].state == SMCJ_SESSION_IDLE) {
            continue;
        }
        smct_buf_printf(&b, "  %s %zu/%zu", ss[i].r->name, ss[i].head, ss[i].n_order);
    }
    if (final) {
        smct_buf_putc(&b, '\n');
    }
    fputs(smcj_buf_text(&b), stderr);
    fflush(stderr);
    smct_buf_free(&b);
}

/* The fds of the active sessions to poll, and the nearest deadline (at most 1 s away). */
static size_t poll_set(smcj_session_t *ss, size_t n, struct pollfd *pfd, double now,
                       double *deadline)
{
    size_t np = 0;
    *deadline = now + 1.0;
    for (size_t i = 0; i < n; i++) {
        if (!smcj_session_active(&ss[i])) {
            continue;
        }
        double d = smcj_session_deadline(&ss[i]);
        if (d < *deadline) {
            *deadline = d;
        }
        np += smcj_session_poll_fds(&ss[i], pfd + np);
    }
    return np;
}

void smcj_sessions_run(smcj_run_t *run, const smcj_session_cfg_t *cfg)
{
    size_t n = run->n_runners;
    double t0 = smcj_now();
    smcj_session_t *ss = smcj_calloc(n ? n : 1, sizeof *ss);
    if (!ss) {
        return; /* out of memory before any runner started */
    }
    for (size_t i = 0; i < n; i++) {
        smcj_session_start(&ss[i], &run->runners[i], run->vectors, cfg, t0);
    }
    struct pollfd *pfd = smcj_calloc(3 * (n ? n : 1), sizeof *pfd);
    double last_progress = 0;
    for (;;) {
        bool any_active = false;
        for (size_t i = 0; i < n && !any_active; i++) {
            any_active = smcj_session_active(&ss[i]);
        }
        if (!any_active || smcj_interrupted() || smcj_out_of_memory() || !pfd) {
            break; /* interrupted or out of memory: every child is killed and reaped below */
        }
        double now = smcj_now();
        double deadline;
        size_t np = poll_set(ss, n, pfd, now, &deadline);
        double wait = deadline - now;
        int ms = wait <= 0 ? 0 : (int)(wait * 1000.0) + 1;
        int rc = poll(pfd, (nfds_t)np, ms);
        if (rc < 0 && errno != EINTR) {
            perror("smc conformance: poll");
            break;
        }
        for (size_t i = 0; i < n; i++) {
            if (smcj_session_active(&ss[i])) {
                smcj_session_service(&ss[i], t0);
            }
        }
        if (cfg->progress && smcj_now() - last_progress > 0.1) {
            progress(ss, n, false);
            last_progress = smcj_now();
        }
    }
    if (cfg->progress) {
        progress(ss, n, true);
    }
    double t1 = smcj_now();
    for (size_t i = 0; i < n; i++) {
        smcj_session_finish(&ss[i], t0, t1);
    }
    run->seconds = t1 - t0;
    free(ss);
    free(pfd);
}
