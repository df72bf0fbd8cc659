/*
 * Every runner at once (session.h): one poll() loop over all sessions, because a JVM or Swift
 * runner spends most of its time starting or waiting on pipes, and running them in parallel
 * makes the whole run as long as the slowest runner instead of their sum. Each session's
 * protocol is session.c's. However the loop ends (done, interrupted, out of memory, out of
 * time), every runner is killed and reaped before smcj_sessions_run returns, and so is every
 * process that escaped a runner's process group: the judge is their subreaper (proc.h) and
 * sweeps them whenever a runner process ends and once more at the end.
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

/* Kill what escaped the runners whose processes ended (strays are children of the judge
 * that no session holds), and count them for the runner whose process ended. */
static void sweep(smcj_session_t *ss, size_t n, bool force, size_t *at_end, double *last)
{
    bool due = force;
    for (size_t i = 0; i < n && !due; i++) {
        due = ss[i].reaped_one;
    }
    /* at most once a second while runners run: a /proc scan per restart would cost a runner
     * that crashes on every vector more than its restarts do */
    if (!due || (!force && smcj_now() - *last < 1.0)) {
        return;
    }
    *last = smcj_now();
    pid_t live[64] = {0};
    size_t n_live = 0;
    bool all_known = true;
    for (size_t i = 0; i < n && all_known; i++) {
        if (n_live + SMCJ_DYING_MAX > sizeof live / sizeof live[0]) {
            all_known = false;
            break;
        }
        n_live += smcj_dying_pids(&ss[i], live + n_live);
        const smcj_proc_t *procs[2] = {&ss[i].io.proc, &ss[i].spare.proc};
        for (size_t k = 0; k < 2; k++) {
            if (procs[k]->pid > 0 && !procs[k]->reaped) {
                if (n_live == sizeof live / sizeof live[0]) {
                    all_known = false; /* too many runners to tell strays apart: at the end */
                    break;
                }
                live[n_live++] = procs[k]->pid;
            }
        }
    }
    if (!all_known) {
        return;
    }
    size_t killed = smcj_proc_sweep(live, n_live);
    if (force) {
        *at_end += killed; /* at the end no runner can be told apart */
        killed = 0;
    }
    for (size_t i = 0; i < n; i++) {
        if (ss[i].reaped_one && killed) {
            ss[i].r->strays += killed; /* the runner whose process just ended left them */
            killed = 0;
        }
        ss[i].reaped_one = false;
    }
}

/* --max-run-time: every runner still running stops; what it did not answer fails. */
static void out_of_time(smcj_run_t *run, smcj_session_t *ss, size_t n,
                        const smcj_session_cfg_t *cfg)
{
    char *why = smcj_asprintf("stopped: the run's time budget ran out (--max-run-time %g s)",
                              cfg->max_run_time);
    run->out_of_time = true;
    for (size_t i = 0; i < n; i++) {
        if (smcj_session_active(&ss[i])) {
            smcj_session_stop(&ss[i], SMCJ_REASON_TIMEOUT, why, false);
        }
    }
    free(why);
}

void smcj_sessions_run(smcj_run_t *run, const smcj_session_cfg_t *cfg)
{
    size_t n = run->n_runners;
    double t0 = smcj_now();
    smcj_session_t *ss = smcj_calloc(n ? n : 1, sizeof *ss);
    if (!ss) {
        return; /* out of memory before any runner started */
    }
    smcj_proc_adopt_orphans(true);
    for (size_t i = 0; i < n; i++) {
        ss[i].peers = ss; /* to tell a runner's escaped processes (session_tree.c) */
        ss[i].n_peers = n;
    }
    for (size_t i = 0; i < n; i++) {
        smcj_session_start(&ss[i], &run->runners[i], run->vectors, cfg, t0);
    }
    struct pollfd *pfd = smcj_calloc(SMCJ_SESSION_FDS * (n ? n : 1), sizeof *pfd);
    double last_progress = 0, last_sweep = 0;
    for (;;) {
        bool any_active = false;
        for (size_t i = 0; i < n && !any_active; i++) {
            any_active = smcj_session_active(&ss[i]);
        }
        if (!any_active || smcj_interrupted() || smcj_out_of_memory() || !pfd) {
            break; /* interrupted or out of memory: every child is killed and reaped below */
        }
        double now = smcj_now();
        if (cfg->max_run_time > 0 && now - t0 >= cfg->max_run_time) {
            out_of_time(run, ss, n, cfg);
            continue;
        }
        double deadline;
        size_t np = poll_set(ss, n, pfd, now, &deadline);
        if (cfg->max_run_time > 0 && t0 + cfg->max_run_time < deadline) {
            deadline = t0 + cfg->max_run_time;
        }
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
        sweep(ss, n, false, &run->strays, &last_sweep);
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
    sweep(ss, n, true, &run->strays, &last_sweep);
    smcj_proc_adopt_orphans(false);
    run->seconds = t1 - t0;
    free(ss);
    free(pfd);
}
