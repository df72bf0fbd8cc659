/*
 * Runner sessions: the state machine of runners/PROTOCOL.md P.1-P.4 for every runner at once,
 * in one poll() loop. Runners are driven in parallel, with up to `window` requests in flight
 * each, because a JVM or Swift runner spends most of its time starting or waiting on pipes.
 * Each session is IDLE (skipped) or goes HELLO -> RUN -> BYE -> DONE; a crash, hang or
 * protocol error is charged to the request at the head of the queue (the one the runner was
 * answering), the process is replaced and the rest of the queue sent again (P.4). The pipes
 * are runner_io.c's, the hello answer handshake.c's, and each answer's verdict verdict.c's.
 */
#define _POSIX_C_SOURCE 200809L
#include "session.h"

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

typedef enum state {
    ST_IDLE = 0, /* not started (skipped runner) */
    ST_HELLO,    /* hello sent, waiting for the answer */
    ST_RUN,      /* requests flowing */
    ST_BYE,      /* bye sent, waiting for exit */
    ST_DONE
} state_t;

typedef struct session {
    smcj_runner_t *r;
    const smcj_vectors_t *vs;
    const smcj_session_cfg_t *cfg;
    smcj_runner_io_t io; /* the current process and its pipes */
    state_t state;
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
} session_t;

/* Start (or restart) the runner and send hello (P.1). */
static bool spawn(session_t *s, char *err, size_t err_size)
{
    s->generation++;
    if (!smcj_io_start(&s->io, s->r->command, err, err_size)) {
        return false;
    }
    smct_buf_t hello = {0};
    smcj_hello_line(&hello);
    smcj_io_send_line(&s->io, hello.data, hello.len);
    smct_buf_free(&hello);
    s->state = ST_HELLO;
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
    c->stderr_tail = tail ? smcj_xstrdup(tail) : NULL;
}

/* P.4: after too many restarts, every check still queued fails with the reason. */
static void give_up(session_t *s, const char *why)
{
    for (size_t k = s->head; k < s->n_order; k++) {
        record(&s->r->checks[s->order[k]], SMCJ_REASON_PROTOCOL_ERROR,
               smcj_xasprintf("runner given up: %s", why), NULL);
    }
    s->head = s->next = s->n_order;
    s->r->gave_up = true;
    s->state = ST_DONE;
}

/*
 * The runner crashed, hung or broke the protocol (P.4). Attribute it to the request at the
 * head of the queue (the one the runner was working on), kill the process, and start a new
 * one unless the runner keeps failing.
 */
static void failure(session_t *s, smcj_reason_t reason, const char *what)
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
    char *detail =
        reason == SMCJ_REASON_CRASH ? smcj_xasprintf("%s (%s)", what, status) : smcj_xstrdup(what);
    char *tail = smcj_io_stderr_tail(&s->io);
    smcj_io_clear_stderr(&s->io);

    if (s->first_start && s->state == ST_HELLO) {
        /* Never answered the first hello: the runner could not start at all. */
        r->start_failed = true;
        r->start_error = smcj_xasprintf("%s%s%s", detail, tail[0] ? "; stderr: " : "", tail);
        free(detail);
        free(tail);
        s->state = ST_DONE;
        return;
    }
    if (s->state == ST_RUN && s->head < s->next) {
        record(&r->checks[s->order[s->head]], reason, smcj_xstrdup(detail), tail);
        s->head++;
    }
    s->next = s->head; /* requests after the failed one are sent again to the new process */
    s->consecutive_failures++;
    if (s->consecutive_failures > MAX_CONSECUTIVE_RESTARTS) {
        char *why = smcj_xasprintf("%u consecutive restarts without a good response; last: %s",
                                   MAX_CONSECUTIVE_RESTARTS, detail);
        give_up(s, why);
        free(why);
    } else if (s->head >= s->n_order && s->state == ST_RUN) {
        s->state = ST_DONE; /* nothing left to run: no need for a new process */
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
static void start_requests(session_t *s)
{
    smcj_runner_t *r = s->r;
    smcj_plan(r, s->vs);
    s->order = smcj_xcalloc(r->n_checks, sizeof(size_t));
    s->seqs = smcj_xcalloc(r->n_checks, sizeof(uint64_t));
    for (size_t i = 0; i < r->n_checks; i++) {
        if (r->checks[i].outcome == SMCJ_OUT_PENDING) {
            s->order[s->n_order++] = i;
        }
    }
    r->started = true;
}

/* Keep `window` requests in flight; when the queue is empty, say bye (P.1). */
static void fill_window(session_t *s)
{
    if (s->state != ST_RUN) {
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
        smcj_io_send_line(&s->io, line.data, line.len);
        s->next++;
        s->r->requests_sent++;
    }
    smct_buf_free(&line);
    if (s->head >= s->n_order && s->state == ST_RUN) {
        smct_buf_t bye = {0};
        smct_buf_printf(&bye, "{\"seq\":%llu,\"op\":\"bye\"}", (unsigned long long)++s->seq);
        smcj_io_send_line(&s->io, bye.data, bye.len);
        smct_buf_free(&bye);
        s->state = ST_BYE;
        s->bye_deadline = smcj_now() + 2.0;
    }
    smcj_io_flush(&s->io);
}

/* P.1: the answer to hello. A first answer that is not the protocol stops the runner for
 * good; after a respawn it is one more failure of the runner (P.4). */
static void on_hello_answer(session_t *s, const smct_json_t *resp, bool parsed, const char *shown)
{
    smcj_runner_t *r = s->r;
    char *bad = NULL;
    if (!parsed || resp->type != SMCT_JSON_OBJECT) {
        bad = smcj_xasprintf("hello answer is not a JSON object: %s", shown);
    } else {
        bad = smcj_handshake_take(r, resp, s->first_start);
    }
    if (bad && s->first_start) {
        /* P.1: the judge stops the runner and reports protocol_error for all its vectors. */
        r->handshake_bad = true;
        r->start_error = smcj_xstrdup(bad);
        smcj_proc_terminate(&s->io.proc);
        smcj_io_drain_stderr(&s->io, 0.1);
        smcj_proc_kill(&s->io.proc);
        smcj_plan_all_failed(r, s->vs, SMCJ_REASON_PROTOCOL_ERROR, bad);
        free(bad);
        s->state = ST_DONE;
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
    }
    s->state = ST_RUN;
    s->wait_since = smcj_now();
    fill_window(s);
}

/* P.3: the answer to the request at the head of the queue. */
static void on_response(session_t *s, const smct_json_t *resp, bool parsed, const smct_error_t *e,
                        const char *shown)
{
    smcj_runner_t *r = s->r;
    if (s->head == s->next) {
        char *d = smcj_xasprintf("a line arrived with no request outstanding: %s", shown);
        failure(s, SMCJ_REASON_PROTOCOL_ERROR, d);
        free(d);
        return;
    }
    if (!parsed || resp->type != SMCT_JSON_OBJECT) {
        char *d = smcj_xasprintf("response is not a JSON object (%s): %s",
                                 parsed ? "other JSON" : e->message, shown);
        failure(s, SMCJ_REASON_PROTOCOL_ERROR, d);
        free(d);
        return;
    }
    int64_t seq;
    uint64_t want = s->seqs[s->head];
    if (!smct_json_get_i64(smct_json_get(resp, "seq"), &seq) || seq < 0 || (uint64_t)seq != want) {
        char *d =
            smcj_xasprintf("wrong seq: expected %llu, got %s", (unsigned long long)want, shown);
        failure(s, SMCJ_REASON_PROTOCOL_ERROR, d);
        free(d);
        return;
    }
    const smct_json_t *st = smct_json_get(resp, "status");
    if (!smct_json_is_str(st, "ok") && !smct_json_is_str(st, "error") &&
        !smct_json_is_str(st, "skipped")) {
        char *d = smcj_xasprintf("unknown status: %s", shown);
        failure(s, SMCJ_REASON_PROTOCOL_ERROR, d);
        free(d);
        return;
    }
    smcj_check_t *c = &r->checks[s->order[s->head]];
    smcj_verdict(c, r, s->vs, resp, &s->arena);
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

static void handle_parsed_line(session_t *s, const char *line, size_t len, const char *shown)
{
    smc_arena_reset(&s->arena);
    smct_json_opts_t jo = {RESPONSE_MAX_DEPTH};
    smct_json_t *resp = NULL;
    smct_error_t e;
    bool parsed = smct_json_parse(line, len, &jo, &s->arena, &resp, &e) == SMCT_OK;
    if (s->state == ST_HELLO) {
        on_hello_answer(s, resp, parsed, shown);
    } else {
        on_response(s, resp, parsed, &e, shown);
    }
}

static void handle_line(session_t *s, const char *line, size_t len)
{
    if (s->state == ST_BYE || s->state == ST_DONE) {
        return; /* the bye answer, or noise after it: nothing left to judge */
    }
    smct_buf_t ex = {0}; /* what the runner sent, made safe to print in any report */
    smcj_buf_excerpt(&ex, line, len, 200);
    handle_parsed_line(s, line, len, ex.data ? ex.data : "");
    smct_buf_free(&ex);
}

static void read_stdout(session_t *s)
{
    for (;;) {
        smcj_io_read_t got = smcj_io_read_stdout(&s->io);
        if (got == SMCJ_IO_AGAIN) {
            return;
        }
        if (got == SMCJ_IO_EOF) {
            if (s->state == ST_BYE) {
                smcj_proc_finish(&s->io.proc, 1.0);
                s->state = ST_DONE;
                return;
            }
            /* The runner closed stdout: it exited or is about to (P.4 crash). */
            const char *what = s->state == ST_HELLO ? "runner exited before answering hello"
                                                    : "runner exited while answering";
            failure(s, SMCJ_REASON_CRASH, what);
            return;
        }
        unsigned gen = s->generation;
        const char *line;
        size_t len;
        while (smcj_io_next_line(&s->io, &line, &len)) {
            handle_line(s, line, len);
            if (gen != s->generation || s->state == ST_DONE) {
                return; /* respawned or finished: the rest belonged to the old process */
            }
        }
        if (smcj_io_partial_line(&s->io) > s->cfg->max_line) {
            char *d = smcj_xasprintf("response line longer than %zu bytes", s->cfg->max_line);
            failure(s, SMCJ_REASON_PROTOCOL_ERROR, d);
            free(d);
            return;
        }
    }
}

/* P.4: no answer in time is a hang, charged to the oldest request; a runner that does not
 * exit after bye is killed. */
static void check_timeout(session_t *s, double now)
{
    if (s->state == ST_BYE && now >= s->bye_deadline) {
        smcj_proc_kill(&s->io.proc);
        s->state = ST_DONE;
        return;
    }
    double limit = s->state == ST_HELLO ? s->cfg->start_timeout : s->cfg->timeout;
    bool waiting = s->state == ST_HELLO || (s->state == ST_RUN && s->head < s->next);
    if (waiting && now - s->wait_since >= limit) {
        char *d = smcj_xasprintf("no answer within %g s (%s)", limit,
                                 s->state == ST_HELLO ? "hello" : "request");
        failure(s, SMCJ_REASON_TIMEOUT, d);
        free(d);
    }
}

/* The progress line on stderr (only when asked or a terminal): answered/queued per runner. */
static void progress(session_t *ss, size_t n, bool final)
{
    smct_buf_t b = {0};
    smct_buf_puts(&b, "\r\033[K[smc conformance]");
    for (size_t i = 0; i < n; i++) {
        if (ss[i].state == ST_IDLE) {
            continue;
        }
        smct_buf_printf(&b, "  %s %zu/%zu", ss[i].r->name, ss[i].head, ss[i].n_order);
    }
    if (final) {
        smct_buf_putc(&b, '\n');
    }
    fputs(b.data, stderr);
    fflush(stderr);
    smct_buf_free(&b);
}

/* Set up every session and start every runner that is not skipped. */
static session_t *start_sessions(smcj_run_t *run, const smcj_session_cfg_t *cfg, double t0)
{
    size_t n = run->n_runners;
    session_t *ss = smcj_xcalloc(n ? n : 1, sizeof *ss);
    for (size_t i = 0; i < n; i++) {
        session_t *s = &ss[i];
        s->r = &run->runners[i];
        s->vs = run->vectors;
        s->cfg = cfg;
        s->first_start = true;
        s->t0 = t0;
        smcj_io_init(&s->io);
        smc_arena_init_allocator(&s->arena, NULL);
        if (s->r->skip_reason) {
            s->state = ST_IDLE;
            continue;
        }
        char err[256];
        if (!spawn(s, err, sizeof err)) {
            s->r->start_failed = true;
            s->r->start_error = smcj_xstrdup(err);
            s->state = ST_DONE;
        }
    }
    return ss;
}

static bool active(const session_t *s)
{
    return s->state != ST_IDLE && s->state != ST_DONE;
}

/* The fds of the active sessions to poll, and the nearest deadline (at most 1 s away). */
static size_t poll_set(session_t *ss, size_t n, struct pollfd *pfd, double now, double *deadline)
{
    size_t np = 0;
    *deadline = now + 1.0;
    for (size_t i = 0; i < n; i++) {
        session_t *s = &ss[i];
        if (!active(s)) {
            continue;
        }
        double limit = s->state == ST_HELLO ? s->cfg->start_timeout : s->cfg->timeout;
        double d = s->state == ST_BYE ? s->bye_deadline : s->wait_since + limit;
        if (d < *deadline) {
            *deadline = d;
        }
        if (s->io.proc.out_fd >= 0) {
            pfd[np++] = (struct pollfd){s->io.proc.out_fd, POLLIN, 0};
        }
        if (s->io.proc.err_fd >= 0) {
            pfd[np++] = (struct pollfd){s->io.proc.err_fd, POLLIN, 0};
        }
        if (smcj_io_wants_write(&s->io)) {
            pfd[np++] = (struct pollfd){s->io.proc.in_fd, POLLOUT, 0};
        }
    }
    return np;
}

/* One turn for session `s` after poll(): every read and write is non-blocking, so trying all
 * of them is simpler than matching poll results to sessions, and as cheap. */
static void service(session_t *s, double t0)
{
    smcj_io_read_stderr(&s->io);
    smcj_io_flush(&s->io);
    read_stdout(s);
    if (active(s)) {
        check_timeout(s, smcj_now());
    }
    if (s->state == ST_DONE) {
        s->r->seconds = smcj_now() - t0; /* this runner's own wall time */
    }
}

/* Kill whatever still runs (interrupt or error), keep each runner's last stderr, free. */
static void finish_sessions(session_t *ss, size_t n, double t0, double t1)
{
    for (size_t i = 0; i < n; i++) {
        session_t *s = &ss[i];
        smcj_proc_kill(&s->io.proc); /* no-op when already reaped; never leaves a child behind */
        smcj_io_read_stderr(&s->io);
        s->r->stderr_tail = smcj_io_stderr_tail(&s->io);
        if (s->r->seconds == 0 && s->state != ST_IDLE) {
            s->r->seconds = t1 - t0;
        }
        smcj_io_free(&s->io);
        free(s->order);
        free(s->seqs);
        smc_arena_free(&s->arena);
    }
    free(ss);
}

void smcj_sessions_run(smcj_run_t *run, const smcj_session_cfg_t *cfg)
{
    size_t n = run->n_runners;
    double t0 = smcj_now();
    session_t *ss = start_sessions(run, cfg, t0);
    struct pollfd *pfd = smcj_xcalloc(3 * (n ? n : 1), sizeof *pfd);
    double last_progress = 0;
    for (;;) {
        bool any_active = false;
        for (size_t i = 0; i < n && !any_active; i++) {
            any_active = active(&ss[i]);
        }
        if (!any_active || smcj_interrupted()) {
            break; /* interrupted: every child is killed below */
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
            if (active(&ss[i])) {
                service(&ss[i], t0);
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
    finish_sessions(ss, n, t0, t1);
    run->seconds = t1 - t0;
    free(pfd);
}
