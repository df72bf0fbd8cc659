/*
 * Crashed processes finishing their death in the background (session_internal.h). A
 * process that crashes is often still writing its report when its stdout closes: an
 * AddressSanitizer report with symbolized frames, a JVM's hs_err file, a Swift backtrace.
 * Waiting for each one before going on made a codec that crashes hundreds of times take
 * minutes; now the crash is charged at once (the request it was answering is known, P.4),
 * the run goes on with a new process, and the dying one gets up to a second to exit, after
 * which its exit status and the evidence in its stderr are added to the check it crashed on.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "session_internal.h"

#define DYING_GRACE 1.0 /* seconds a crashed process may take to exit by itself */

bool smcj_dying_park(smcj_session_t *s, size_t ci, const char *what)
{
    for (size_t i = 0; i < SMCJ_DYING_MAX; i++) {
        smcj_dying_t *d = &s->dying[i];
        if (d->used) {
            continue;
        }
        d->what = smcj_strdup(smcj_or_empty(what));
        if (!d->what) {
            return false; /* out of memory (recorded) */
        }
        d->used = true;
        d->io = s->io;
        d->check = ci;
        d->deadline = smcj_now() + DYING_GRACE;
        smcj_proc_close_stdin(&d->io.proc); /* nothing more for it to read */
        smcj_io_init(&s->io);
        return true;
    }
    return false;
}

/* Its status and evidence to its check; the process is reaped and its pipes closed. */
static void finish(smcj_session_t *s, smcj_dying_t *d)
{
    smcj_proc_kill(&d->io.proc); /* a no-op when it exited; else it had its second */
    s->reaped_one = true;
    char status[128];
    smcj_proc_describe_status(&d->io.proc, status, sizeof status);
    smcj_check_t *c = &s->r->checks[d->check];
    char *detail = smcj_asprintf("%s (%s)", d->what, status);
    char *tail = smcj_io_stderr_tail(&d->io);
    if (detail) {
        free(c->detail);
        c->detail = detail;
    }
    if (tail) {
        free(c->stderr_tail);
        c->stderr_tail = tail;
    }
    free(d->what);
    smcj_io_free(&d->io);
    memset(d, 0, sizeof *d);
}

size_t smcj_dying_poll_fds(const smcj_session_t *s, struct pollfd *pfd)
{
    size_t np = 0;
    for (size_t i = 0; i < SMCJ_DYING_MAX; i++) {
        if (s->dying[i].used && s->dying[i].io.proc.err_fd >= 0) {
            pfd[np++] = (struct pollfd){s->dying[i].io.proc.err_fd, POLLIN, 0};
        }
    }
    return np;
}

void smcj_dying_service(smcj_session_t *s)
{
    double now = smcj_now();
    for (size_t i = 0; i < SMCJ_DYING_MAX; i++) {
        smcj_dying_t *d = &s->dying[i];
        if (!d->used) {
            continue;
        }
        smcj_io_read_stderr(&d->io);
        /* done when it exited and every writer of its stderr is gone, or at its deadline */
        if ((smcj_proc_try_reap(&d->io.proc) && d->io.proc.err_fd < 0) || now >= d->deadline) {
            finish(s, d);
        }
    }
}

double smcj_dying_deadline(const smcj_session_t *s)
{
    double t = smcj_now() + 1.0;
    for (size_t i = 0; i < SMCJ_DYING_MAX; i++) {
        if (s->dying[i].used && s->dying[i].deadline < t) {
            t = s->dying[i].deadline;
        }
    }
    return t;
}

void smcj_dying_end(smcj_session_t *s)
{
    for (size_t i = 0; i < SMCJ_DYING_MAX; i++) {
        smcj_dying_t *d = &s->dying[i];
        while (d->used && !smcj_interrupted()) {
            double left = d->deadline - smcj_now();
            if (left <= 0 || (smcj_proc_try_reap(&d->io.proc) && d->io.proc.err_fd < 0)) {
                break;
            }
            smcj_io_drain_stderr(&d->io, left < 0.05 ? left : 0.05);
        }
        if (d->used) {
            finish(s, d);
        }
    }
}

size_t smcj_dying_pids(const smcj_session_t *s, pid_t *live)
{
    size_t n = 0;
    for (size_t i = 0; i < SMCJ_DYING_MAX; i++) {
        if (s->dying[i].used && s->dying[i].io.proc.pid > 0 && !s->dying[i].io.proc.reaped) {
            live[n++] = s->dying[i].io.proc.pid;
        }
    }
    return n;
}
