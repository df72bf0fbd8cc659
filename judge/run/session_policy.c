/*
 * The restart policy (session.h): what happens when a runner crashes, hangs, breaks the
 * protocol or overruns its memory. The one rule that matters: a failure is charged to the
 * request the runner was answering (answers come in order, one at a time, P.4), that
 * request gets its verdict, and the run goes on with a new process. Nothing else is ever
 * charged, so no vector is lost to another vector's crash; the limits only decide when
 * checks stop being sent, and every check that is not sent fails with the reason, visibly.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "proc.h"
#include "session_internal.h"

/* Back-off before the n-th restart in a row that got nothing done: 50 ms, doubling, at most
 * 2 s, so a runner that dies at start does not spin the machine. */
static double backoff(unsigned fruitless)
{
    double d = 0.05;
    for (unsigned i = 1; i < fruitless && d < 2.0; i++) {
        d *= 2;
    }
    return d < 2.0 ? d : 2.0;
}

/* Fail check `c` with a harness reason; the runner's stderr at that moment goes with it. */
static void record(smcj_check_t *c, smcj_reason_t reason, char *detail, const char *tail)
{
    c->outcome = SMCJ_OUT_FAIL;
    c->reason = reason;
    free(c->detail);
    c->detail = detail;
    free(c->stderr_tail);
    c->stderr_tail = tail ? smcj_strdup(tail) : NULL;
}

bool smcj_session_vector_spent(smcj_session_t *s, size_t ci)
{
    unsigned budget = s->cfg->max_restarts_per_vector;
    smcj_check_t *c = &s->r->checks[ci];
    if (budget == 0 || s->vector_fails[c->vector] < budget) {
        return false;
    }
    /* The vector has its verdict (a crash, a hang): its other checks would only cost more
     * restarts. Not applicable, with the reason, never a pass. */
    c->outcome = SMCJ_OUT_NA;
    free(c->detail);
    c->detail = smcj_asprintf("not sent: this vector's checks already failed the runner %u time%s "
                              "(--max-restarts-per-vector %u)",
                              s->vector_fails[c->vector],
                              s->vector_fails[c->vector] == 1 ? "" : "s", budget);
    return true;
}

void smcj_session_stop(smcj_session_t *s, smcj_reason_t kind, const char *why, bool gave_up)
{
    smcj_runner_t *r = s->r;
    smcj_proc_kill(&s->io.proc);
    smcj_spare_end(s);
    s->reaped_one = true;
    size_t unsent = 0;
    for (size_t k = s->head; s->order && k < s->n_order; k++) {
        smcj_check_t *c = &r->checks[s->order[k]];
        if (c->outcome != SMCJ_OUT_PENDING) {
            continue; /* decided without being sent */
        }
        record(c, kind, smcj_asprintf("not answered: %s", smcj_or_empty(why)), NULL);
        unsent++;
    }
    s->head = s->next = s->n_order;
    r->n_unsent += unsent;
    r->gave_up = r->gave_up || gave_up;
    r->stop_kind = kind;
    if (!r->stop_reason) {
        r->stop_reason = smcj_strdup(why);
    }
    s->state = SMCJ_SESSION_DONE;
}

void smcj_session_answered(smcj_session_t *s)
{
    s->fruitless = 0;
    s->answers_this_process++;
    if (++s->answers_since_timeout >= SMCJ_TIMEOUT_ROW_RESET) {
        s->timeouts_row = 0;
    }
}

/* Kill the process and wait for what it says last; a crashing one gets a moment to exit by
 * itself, so its real status and last stderr lines are known. */
static void end_process(smcj_session_t *s, smcj_reason_t reason)
{
    if (reason == SMCJ_REASON_CRASH) {
        double deadline = smcj_now() + 1.0;
        while (!smcj_proc_try_reap(&s->io.proc) && smcj_now() < deadline) {
            if (s->io.proc.err_fd >= 0) {
                smcj_io_drain_stderr(&s->io, 0.01);
            } else {
                struct timespec ts = {0, 5 * 1000 * 1000};
                nanosleep(&ts, NULL);
            }
        }
        smcj_io_drain_stderr(&s->io, 0.2);
    } else {
        smcj_proc_terminate(&s->io.proc);
        smcj_io_drain_stderr(&s->io, 0.2);
    }
    smcj_proc_kill(&s->io.proc);
    s->reaped_one = true;
}

/* The limits of session.h, after a failure charged to a request; true if one stopped the
 * runner. */
static bool limit_reached(smcj_session_t *s, smcj_reason_t reason)
{
    const smcj_session_cfg_t *cfg = s->cfg;
    smcj_runner_t *r = s->r;
    char *why = NULL;
    smcj_reason_t kind = reason;
    if (reason == SMCJ_REASON_TIMEOUT && cfg->max_timeouts &&
        s->timeouts_row >= cfg->max_timeouts) {
        why = smcj_asprintf("stopped after %u timeouts in a row (--max-timeouts %u)",
                            s->timeouts_row, cfg->max_timeouts);
        kind = SMCJ_REASON_TIMEOUT;
    } else if (cfg->max_restarts && r->restarts >= cfg->max_restarts) {
        why = smcj_asprintf("stopped after %u restarts (--max-restarts %u)", r->restarts,
                            cfg->max_restarts);
    }
    if (!why) {
        return false;
    }
    smcj_session_stop(s, kind, why, false);
    free(why);
    return true;
}

/* A crash charged to check `ci` whose process may finish dying in the background
 * (session_dying.c): its status and stderr come later. */
static bool park_crash(smcj_session_t *s, smcj_reason_t reason, const char *what, size_t *ci)
{
    if (reason != SMCJ_REASON_CRASH || s->state != SMCJ_SESSION_RUN) {
        return false;
    }
    smcj_session_skip_unsent(s);
    if (s->head >= s->next) {
        return false;
    }
    *ci = s->order[s->head];
    return smcj_dying_park(s, *ci, what);
}

void smcj_session_failure(smcj_session_t *s, smcj_reason_t reason, const char *what)
{
    smcj_runner_t *r = s->r;
    what = smcj_or_empty(what); /* NULL when its text could not be allocated */
    size_t parked_check;
    bool parked = park_crash(s, reason, what, &parked_check);
    char *detail, *tail;
    if (parked) {
        detail = smcj_asprintf("%s (exit status not known yet)", what);
        tail = smcj_strdup("");
    } else {
        end_process(s, reason);
        char status[128];
        smcj_proc_describe_status(&s->io.proc, status, sizeof status);
        detail = reason == SMCJ_REASON_CRASH ? smcj_asprintf("%s (%s)", what, status)
                                             : smcj_strdup(what);
        tail = smcj_io_stderr_tail(&s->io);
        smcj_io_clear_stderr(&s->io);
    }
    s->watch.bomb = false; /* a length-bomb measurement ends with the process */
    if (smcj_out_of_memory()) {
        /* The process is dead (or dying, and reaped at the end); the run stops without a
         * verdict (alloc.h), so do not start another one. */
        free(detail);
        free(tail);
        s->state = SMCJ_SESSION_DONE;
        return;
    }
    if (s->first_start && s->state == SMCJ_SESSION_HELLO) {
        /* Never answered the first hello: the runner could not start at all. The stderr
         * excerpt is kept apart (r->stderr_tail), so the one-line error stays one line. */
        r->start_failed = true;
        r->start_error = detail;
        free(r->stderr_tail);
        r->stderr_tail = tail;
        s->state = SMCJ_SESSION_DONE;
        return;
    }
    bool charged = false;
    if (s->state == SMCJ_SESSION_RUN) {
        smcj_session_skip_unsent(s);
        charged = s->head < s->next;
    }
    if (charged) {
        smcj_check_t *c = &r->checks[s->order[s->head]];
        record(c, reason, smcj_strdup(detail), parked ? NULL : tail);
        if (s->vector_fails[c->vector] < 255) {
            s->vector_fails[c->vector]++;
        }
        s->head++;
        s->fruitless = 0;
        if (reason == SMCJ_REASON_TIMEOUT) {
            r->timeouts++;
            s->timeouts_row++;
            s->answers_since_timeout = 0;
        }
    } else {
        s->fruitless++; /* a failed handshake after a restart, or a crash with nothing asked */
    }
    s->next = s->head; /* requests after the failed one are sent again to the new process */
    smcj_session_skip_unsent(s);
    if (!charged && s->fruitless >= SMCJ_MAX_FRUITLESS) {
        char *why = smcj_asprintf(
            "given up: %u restarts in a row without completing a handshake or answering; last: %s",
            s->fruitless, detail);
        smcj_session_stop(s, SMCJ_REASON_PROTOCOL_ERROR, why, true);
        free(why);
    } else if (s->head >= s->n_order && s->state == SMCJ_SESSION_RUN) {
        s->state = SMCJ_SESSION_DONE; /* nothing left to run: no need for a new process */
    } else if (!(charged && limit_reached(s, reason))) {
        r->restarts++;
        char err[256];
        if (!charged) {
            s->state = SMCJ_SESSION_BACKOFF;
            s->respawn_at = smcj_now() + backoff(s->fruitless);
        } else if (smcj_spare_take(s)) {
            if (s->state != SMCJ_SESSION_HELLO) {
                smcj_session_resume(s); /* the warm spare takes over: no start-up to wait for */
            }
        } else if (!smcj_session_spawn(s, err, sizeof err)) {
            smcj_session_stop(s, SMCJ_REASON_PROTOCOL_ERROR, err, true);
        }
    }
    free(detail);
    free(tail);
}
