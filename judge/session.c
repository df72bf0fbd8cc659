/*
 * One runner's session: the state machine of runners/PROTOCOL.md P.1-P.4, with up to `window`
 * requests in flight. A session is IDLE (skipped) or goes HELLO -> RUN -> BYE -> DONE; a
 * crash, hang or protocol error is charged to the request at the head of the queue (the one
 * the runner was answering), the process is replaced and the rest of the queue sent again
 * (P.4). The pipes are runner_io.c's, the hello answer handshake.c's, each answer's verdict
 * verdict.c's, and the loop that drives every session at once session_loop.c's.
 */
#define _POSIX_C_SOURCE 200809L
#include "session_internal.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "handshake.h"
#include "alloc.h"
#include "escape.h"
#include "plan.h"
#include "proc.h"
#include "runner_io.h"
#include "smct_json.h"
#include "verdict.h"

/* P.4: give up after three consecutive restarts without a good response. */
#define MAX_CONSECUTIVE_RESTARTS 3u
/* JSON nesting accepted in responses: notation depth 128 needs < 400 (notation.md N.4). */
#define RESPONSE_MAX_DEPTH 2048u

/* Start (or restart) the runner and send hello (P.1). */
static bool spawn(smcj_session_t *s, char *err, size_t err_size)
{
    s->generation++;
    if (!smcj_io_start(&s->io, s->r->command, err, err_size)) {
        return false;
    }
    smct_buf_t hello = {0};
    smcj_hello_line(&hello);
    if (smcj_buf_ok(&hello)) {
        smcj_io_send_line(&s->io, hello.data, hello.len);
    }
    smct_buf_free(&hello);
    s->state = SMCJ_SESSION_HELLO;
    s->wait_since = smcj_now();
    smcj_io_flush(&s->io);
    return true;
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

/* P.4: after too many restarts, every check still queued fails with the reason. */
static void give_up(smcj_session_t *s, const char *why)
{
    for (size_t k = s->head; k < s->n_order; k++) {
        record(&s->r->checks[s->order[k]], SMCJ_REASON_PROTOCOL_ERROR,
               smcj_asprintf("runner given up: %s", smcj_or_empty(why)), NULL);
    }
    s->head = s->next = s->n_order;
    s->r->gave_up = true;
    s->state = SMCJ_SESSION_DONE;
}

/*
 * The runner crashed, hung or broke the protocol (P.4). Attribute it to the request at the
 * head of the queue (the one the runner was working on), kill the process, and start a new
 * one unless the runner keeps failing.
 */
static void failure(smcj_session_t *s, smcj_reason_t reason, const char *what)
{
    smcj_runner_t *r = s->r;
    if (reason == SMCJ_REASON_CRASH) {
        /* It is exiting by itself: wait briefly for its real status and last words. */
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
    char status[128];
    smcj_proc_describe_status(&s->io.proc, status, sizeof status);
    what = smcj_or_empty(what); /* NULL when its text could not be allocated */
    char *detail =
        reason == SMCJ_REASON_CRASH ? smcj_asprintf("%s (%s)", what, status) : smcj_strdup(what);
    char *tail = smcj_io_stderr_tail(&s->io);
    smcj_io_clear_stderr(&s->io);
    if (smcj_out_of_memory()) {
        /* The process is dead and reaped; the run stops without a verdict (alloc.h), so do
         * not start another one. */
        free(detail);
        free(tail);
        s->state = SMCJ_SESSION_DONE;
        return;
    }

    if (s->first_start && s->state == SMCJ_SESSION_HELLO) {
        /* Never answered the first hello: the runner could not start at all. */
        r->start_failed = true;
        r->start_error = smcj_asprintf("%s%s%s", detail, tail[0] ? "; stderr: " : "", tail);
        free(detail);
        free(tail);
        s->state = SMCJ_SESSION_DONE;
        return;
    }
    if (s->state == SMCJ_SESSION_RUN && s->head < s->next) {
        record(&r->checks[s->order[s->head]], reason, smcj_strdup(detail), tail);
        s->head++;
    }
    s->next = s->head; /* requests after the failed one are sent again to the new process */
    s->consecutive_failures++;
    if (s->consecutive_failures > MAX_CONSECUTIVE_RESTARTS) {
        char *why = smcj_asprintf("%u consecutive restarts without a good response; last: %s",
                                  MAX_CONSECUTIVE_RESTARTS, detail);
        give_up(s, why);
        free(why);
    } else if (s->head >= s->n_order && s->state == SMCJ_SESSION_RUN) {
        s->state = SMCJ_SESSION_DONE; /* nothing left to run: no need for a new process */
    } else {
        char err[256];
        r->restarts++;
        if (!spawn(s, err, sizeof err)) {
            give_up(s, err);
        }
    }
    free(detail);
    free(tail);
}

/* After the first good hello: plan the checks (they depend on the capabilities) and queue
 * the applicable ones. */
static void start_requests(smcj_session_t *s)
{
    smcj_runner_t *r = s->r;
    smcj_plan(r, s->vs);
    s->order = smcj_calloc(r->n_checks, sizeof(size_t));
    s->seqs = smcj_calloc(r->n_checks, sizeof(uint64_t));
    if (!s->order || !s->seqs || smcj_out_of_memory()) {
        s->state = SMCJ_SESSION_DONE; /* the loop stops and kills the runner */
        return;
    }
    for (size_t i = 0; i < r->n_checks; i++) {
        if (r->checks[i].outcome == SMCJ_OUT_PENDING) {
            s->order[s->n_order++] = i;
        }
    }
    r->started = true;
}

/* Keep `window` requests in flight; when the queue is empty, say bye (P.1). */
static void fill_window(smcj_session_t *s)
{
    if (s->state != SMCJ_SESSION_RUN) {
        return;
    }
    if (s->head == s->next) {
        s->wait_since = smcj_now();
    }
    smct_buf_t line = {0};
    while (s->next < s->n_order && s->next - s->head < s->cfg->window) {
        smct_buf_clear(&line);
        s->seqs[s->next] = ++s->seq;
        smcj_request_line(&line, s->seqs[s->next], s->r, s->vs, &s->r->checks[s->order[s->next]]);
        if (!smcj_buf_ok(&line)) {
            break; /* out of memory: the loop stops before the runner is charged */
        }
        smcj_io_send_line(&s->io, line.data, line.len);
        s->next++;
        s->r->requests_sent++;
    }
    smct_buf_free(&line);
    if (s->head >= s->n_order && s->state == SMCJ_SESSION_RUN && !smcj_out_of_memory()) {
        smct_buf_t bye = {0};
        smct_buf_printf(&bye, "{\"seq\":%llu,\"op\":\"bye\"}", (unsigned long long)++s->seq);
        if (smcj_buf_ok(&bye)) {
            smcj_io_send_line(&s->io, bye.data, bye.len);
        }
        smct_buf_free(&bye);
        s->state = SMCJ_SESSION_BYE;
        s->bye_deadline = smcj_now() + 2.0;
    }
    smcj_io_flush(&s->io);
}

/* P.1: the answer to hello. A first answer that is not the protocol stops the runner for
 * good; after a respawn it is one more failure of the runner (P.4). */
static void on_hello_answer(smcj_session_t *s, const smct_json_t *resp, bool parsed,
                            const char *shown)
{
    smcj_runner_t *r = s->r;
    char *bad = NULL;
    if (!parsed || resp->type != SMCT_JSON_OBJECT) {
        bad = smcj_asprintf("hello answer is not a JSON object: %s", shown);
    } else {
        bad = smcj_handshake_take(r, resp, s->first_start);
    }
    if (smcj_out_of_memory()) {
        free(bad); /* no verdict on the runner: the loop stops and kills it */
        s->state = SMCJ_SESSION_DONE;
        return;
    }
    if (bad && s->first_start) {
        /* P.1: the judge stops the runner and reports protocol_error for all its vectors. */
        r->handshake_bad = true;
        r->start_error = smcj_strdup(bad);
        smcj_proc_terminate(&s->io.proc);
        smcj_io_drain_stderr(&s->io, 0.1);
        smcj_proc_kill(&s->io.proc);
        smcj_plan_all_failed(r, s->vs, SMCJ_REASON_PROTOCOL_ERROR, bad);
        free(bad);
        s->state = SMCJ_SESSION_DONE;
        return;
    }
    if (bad) {
        failure(s, SMCJ_REASON_PROTOCOL_ERROR, bad);
        free(bad);
        return;
    }
    if (s->first_start) {
        start_requests(s);
        s->first_start = false;
        if (s->state == SMCJ_SESSION_DONE) {
            return; /* out of memory */
        }
    }
    s->state = SMCJ_SESSION_RUN;
    s->wait_since = smcj_now();
    fill_window(s);
}

/* P.3: the answer to the request at the head of the queue. */
static void on_response(smcj_session_t *s, const smct_json_t *resp, bool parsed,
                        const smct_error_t *e, const char *shown)
{
    smcj_runner_t *r = s->r;
    if (s->head == s->next) {
        char *d = smcj_asprintf("a line arrived with no request outstanding: %s", shown);
        failure(s, SMCJ_REASON_PROTOCOL_ERROR, d);
        free(d);
        return;
    }
    if (!parsed || resp->type != SMCT_JSON_OBJECT) {
        char *d = smcj_asprintf("response is not a JSON object (%s): %s",
                                parsed ? "other JSON" : e->message, shown);
        failure(s, SMCJ_REASON_PROTOCOL_ERROR, d);
        free(d);
        return;
    }
    int64_t seq;
    uint64_t want = s->seqs[s->head];
    if (!smct_json_get_i64(smct_json_get(resp, "seq"), &seq) || seq < 0 || (uint64_t)seq != want) {
        char *d =
            smcj_asprintf("wrong seq: expected %llu, got %s", (unsigned long long)want, shown);
        failure(s, SMCJ_REASON_PROTOCOL_ERROR, d);
        free(d);
        return;
    }
    const smct_json_t *st = smct_json_get(resp, "status");
    /* version 2 adds the crash and not_implemented answers (P.3) */
    bool v2_status = r->protocol >= 2 &&
                     (smct_json_is_str(st, "crash") || smct_json_is_str(st, "not_implemented"));
    if (!smct_json_is_str(st, "ok") && !smct_json_is_str(st, "error") &&
        !smct_json_is_str(st, "skipped") && !v2_status) {
        char *d = smcj_asprintf("unknown status: %s", shown);
        failure(s, SMCJ_REASON_PROTOCOL_ERROR, d);
        free(d);
        return;
    }
    smcj_check_t *c = &r->checks[s->order[s->head]];
    smcj_verdict(c, r, s->vs, resp, &s->arena);
    if (smcj_out_of_memory()) {
        s->state = SMCJ_SESSION_DONE; /* the verdict may be incomplete: the run stops without one */
        return;
    }
    if (c->outcome == SMCJ_OUT_FAIL) {
        smcj_io_read_stderr(&s->io);
        free(c->stderr_tail);
        c->stderr_tail = smcj_io_stderr_tail(&s->io);
    }
    s->consecutive_failures = 0; /* a protocol-valid answer, whatever its verdict */
    s->head++;
    s->wait_since = smcj_now();
    fill_window(s);
}

static void handle_parsed_line(smcj_session_t *s, const char *line, size_t len, const char *shown)
{
    smc_arena_reset(&s->arena);
    smct_json_opts_t jo = {RESPONSE_MAX_DEPTH};
    smct_json_t *resp = NULL;
    smct_error_t e;
    smct_status_t st = smct_json_parse(line, len, &jo, &s->arena, &resp, &e);
    if (st == SMCT_ERR_NOMEM) {
        smcj_nomem(); /* not the runner's fault: no verdict on it */
        return;
    }
    bool parsed = st == SMCT_OK;
    if (s->state == SMCJ_SESSION_HELLO) {
        on_hello_answer(s, resp, parsed, shown);
    } else {
        on_response(s, resp, parsed, &e, shown);
    }
}

static void handle_line(smcj_session_t *s, const char *line, size_t len)
{
    if (s->state == SMCJ_SESSION_BYE || s->state == SMCJ_SESSION_DONE || smcj_out_of_memory()) {
        return; /* the bye answer, or noise after it, or a run that is stopping */
    }
    smct_buf_t ex = {0}; /* what the runner sent, made safe to print in any report */
    smcj_buf_excerpt(&ex, line, len, 200);
    const char *shown = smcj_buf_text(&ex);
    if (!smcj_out_of_memory()) {
        handle_parsed_line(s, line, len, shown);
    }
    smct_buf_free(&ex);
}

static void read_stdout(smcj_session_t *s)
{
    for (;;) {
        smcj_io_read_t got = smcj_io_read_stdout(&s->io);
        if (got == SMCJ_IO_AGAIN) {
            return;
        }
        if (got == SMCJ_IO_EOF) {
            if (s->state == SMCJ_SESSION_BYE) {
                smcj_proc_finish(&s->io.proc, 1.0);
                s->state = SMCJ_SESSION_DONE;
                return;
            }
            /* The runner closed stdout: it exited or is about to (P.4 crash). */
            const char *what = s->state == SMCJ_SESSION_HELLO
                                   ? "runner exited before answering hello"
                                   : "runner exited while answering";
            failure(s, SMCJ_REASON_CRASH, what);
            return;
        }
        unsigned gen = s->generation;
        const char *line;
        size_t len;
        while (smcj_io_next_line(&s->io, &line, &len)) {
            handle_line(s, line, len);
            if (gen != s->generation || s->state == SMCJ_SESSION_DONE) {
                return; /* respawned or finished: the rest belonged to the old process */
            }
        }
        if (smcj_io_partial_line(&s->io) > s->cfg->max_line) {
            char *d = smcj_asprintf("response line longer than %zu bytes", s->cfg->max_line);
            failure(s, SMCJ_REASON_PROTOCOL_ERROR, d);
            free(d);
            return;
        }
    }
}

/* P.4: no answer in time is a hang, charged to the oldest request; a runner that does not
 * exit after bye is killed. */
static void check_timeout(smcj_session_t *s, double now)
{
    if (s->state == SMCJ_SESSION_BYE && now >= s->bye_deadline) {
        smcj_proc_kill(&s->io.proc);
        s->state = SMCJ_SESSION_DONE;
        return;
    }
    double limit = s->state == SMCJ_SESSION_HELLO ? s->cfg->start_timeout : s->cfg->timeout;
    bool waiting =
        s->state == SMCJ_SESSION_HELLO || (s->state == SMCJ_SESSION_RUN && s->head < s->next);
    if (waiting && now - s->wait_since >= limit) {
        char *d = smcj_asprintf("no answer within %g s (%s)", limit,
                                s->state == SMCJ_SESSION_HELLO ? "hello" : "request");
        failure(s, SMCJ_REASON_TIMEOUT, d);
        free(d);
    }
}

/* The session API of session_internal.h, for the loop in session_loop.c. */

void smcj_session_start(smcj_session_t *s, smcj_runner_t *r, const smcj_vectors_t *vs,
                        const smcj_session_cfg_t *cfg, double t0)
{
    s->r = r;
    s->vs = vs;
    s->cfg = cfg;
    s->first_start = true;
    s->t0 = t0;
    smcj_io_init(&s->io);
    smc_arena_init_allocator(&s->arena, NULL);
    if (r->skip_reason) {
        s->state = SMCJ_SESSION_IDLE;
        return;
    }
    char err[256];
    if (smcj_out_of_memory()) {
        s->state = SMCJ_SESSION_DONE; /* start no more runners: the run stops */
    } else if (!spawn(s, err, sizeof err)) {
        r->start_failed = true;
        r->start_error = smcj_strdup(err);
        s->state = SMCJ_SESSION_DONE;
    }
}

bool smcj_session_active(const smcj_session_t *s)
{
    return s->state != SMCJ_SESSION_IDLE && s->state != SMCJ_SESSION_DONE;
}

double smcj_session_deadline(const smcj_session_t *s)
{
    double limit = s->state == SMCJ_SESSION_HELLO ? s->cfg->start_timeout : s->cfg->timeout;
    return s->state == SMCJ_SESSION_BYE ? s->bye_deadline : s->wait_since + limit;
}

size_t smcj_session_poll_fds(const smcj_session_t *s, struct pollfd *pfd)
{
    size_t np = 0;
    if (s->io.proc.out_fd >= 0) {
        pfd[np++] = (struct pollfd){s->io.proc.out_fd, POLLIN, 0};
    }
    if (s->io.proc.err_fd >= 0) {
        pfd[np++] = (struct pollfd){s->io.proc.err_fd, POLLIN, 0};
    }
    if (smcj_io_wants_write(&s->io)) {
        pfd[np++] = (struct pollfd){s->io.proc.in_fd, POLLOUT, 0};
    }
    return np;
}

/* Every read and write is non-blocking, so trying all of them is simpler than matching poll
 * results to sessions, and as cheap. */
void smcj_session_service(smcj_session_t *s, double t0)
{
    smcj_io_read_stderr(&s->io);
    smcj_io_flush(&s->io);
    read_stdout(s);
    if (smcj_session_active(s)) {
        check_timeout(s, smcj_now());
    }
    if (s->state == SMCJ_SESSION_DONE) {
        s->r->seconds = smcj_now() - t0; /* this runner's own wall time */
    }
}

void smcj_session_finish(smcj_session_t *s, double t0, double t1)
{
    smcj_proc_kill(&s->io.proc); /* no-op when already reaped; never leaves a child behind */
    smcj_io_read_stderr(&s->io);
    s->r->stderr_tail = smcj_io_stderr_tail(&s->io);
    if (s->r->seconds == 0 && s->state != SMCJ_SESSION_IDLE) {
        s->r->seconds = t1 - t0;
    }
    smcj_io_free(&s->io);
    free(s->order);
    free(s->seqs);
    smc_arena_free(&s->arena);
}
