/*
 * One runner's session: the state machine of runners/PROTOCOL.md P.1-P.4, with up to `window`
 * requests in flight. A session is IDLE (skipped) or goes HELLO -> RUN -> BYE -> DONE; a
 * crash, hang, protocol error or memory overrun is charged to the request at the head of the
 * queue (the one the runner was answering), and session_policy.c replaces the process and
 * sends the rest of the queue again (P.4), or stops at a limit. The pipes are runner_io.c's,
 * the hello answer handshake.c's, the checks, their requests and each answer's verdict the
 * hooks' (session.h: the planner and verdict.c, which judge_main.c gives), the watch over the
 * runner's processes session_watch.c's, and the loop that drives every session at once
 * session_loop.c's.
 */
#define _POSIX_C_SOURCE 200809L
#include "session_internal.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alloc.h"
#include "escape.h"
#include "handshake.h"
#include "kept_value.h"
#include "proc.h"
#include "runner_io.h"
#include "smct_json.h"

/* JSON nesting accepted in responses: notation depth 128 needs < 400 (notation.md N.4). */
#define RESPONSE_MAX_DEPTH 2048u
/* Requests are rendered only while less than this waits for the runner's stdin: memory for
 * queued requests stays bounded by the largest one (a 64 MiB value is queued alone). */
#define OUT_QUEUE_MAX ((size_t)1 << 20)
/* A request that waited this long (or half its timeout) has the closed-stdout test. */
#define STDOUT_CHECK_AFTER 1.0

static void fill_window(smcj_session_t *s);

void smcj_session_new_head(smcj_session_t *s)
{
    s->wait_since = s->head_since = smcj_now();
    s->head_written = s->io.written_total;
}

bool smcj_session_spawn(smcj_session_t *s, char *err, size_t err_size)
{
    s->generation++;
    s->answers_this_process = 0;
    smcj_watch_reset(s);
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
    smcj_session_new_head(s);
    smcj_io_flush(&s->io);
    return true;
}

void smcj_session_resume(smcj_session_t *s)
{
    s->state = SMCJ_SESSION_RUN;
    smcj_session_new_head(s);
    smcj_watch_started(s);
    fill_window(s);
    if (s->r->restarts > 0) {
        smcj_spare_start(s); /* a runner that crashed once gets a warm spare */
    }
}

void smcj_session_skip_unsent(smcj_session_t *s)
{
    while (s->head < s->next && s->seqs[s->head] == 0) {
        s->head++;
    }
}

/* After the first good hello: plan the checks (they depend on the capabilities) and queue
 * the applicable ones. */
static void start_requests(smcj_session_t *s)
{
    smcj_runner_t *r = s->r;
    s->cfg->hooks->plan(r, s->vs);
    s->order = smcj_calloc(r->n_checks ? r->n_checks : 1, sizeof(size_t));
    s->seqs = smcj_calloc(r->n_checks ? r->n_checks : 1, sizeof(uint64_t));
    s->ends = smcj_calloc(r->n_checks ? r->n_checks : 1, sizeof(uint64_t));
    s->vector_fails = smcj_calloc(s->vs->count ? s->vs->count : 1, 1);
    if (!s->order || !s->seqs || !s->ends || !s->vector_fails || smcj_out_of_memory()) {
        s->state = SMCJ_SESSION_DONE; /* the loop stops and kills the runner */
        return;
    }
    /* the self-consistency checks last (self_check.c): each needs its encode check's answer */
    for (int self = 0; self < 2; self++) {
        for (size_t i = 0; i < r->n_checks; i++) {
            const smcj_check_t *c = &r->checks[i];
            if (c->outcome == SMCJ_OUT_PENDING && (c->kind == SMCJ_CHECK_SELF) == (self == 1)) {
                s->order[s->n_order++] = i;
            }
        }
    }
    r->started = true;
}

static void send_bye(smcj_session_t *s)
{
    smct_buf_t bye = {0};
    /* the P.1 bye line: protocol text, a fixed shape */
    smct_buf_printf(&bye, "{\"seq\":%llu,\"op\":\"bye\"}", (unsigned long long)++s->seq);
    if (smcj_buf_ok(&bye)) {
        smcj_io_send_line(&s->io, bye.data, bye.len);
    }
    smct_buf_free(&bye);
    s->state = SMCJ_SESSION_BYE;
    s->bye_deadline = smcj_now() + 2.0;
}

/*
 * Keep `window` requests in flight (and at most OUT_QUEUE_MAX bytes queued); a length-bomb
 * check goes alone, so the memory measured around it is its own. Checks decided without
 * being sent (their vector used up its restarts) are passed over. When every check is
 * answered, say bye (P.1).
 */
static void fill_window(smcj_session_t *s)
{
    if (s->state != SMCJ_SESSION_RUN) {
        return;
    }
    smcj_session_skip_unsent(s);
    if (s->head == s->next) {
        smcj_session_new_head(s);
    }
    while (!s->watch.bomb && s->next < s->n_order && s->next - s->head < s->cfg->window &&
           smcj_io_queued(&s->io) < OUT_QUEUE_MAX) {
        size_t ci = s->order[s->next];
        smcj_check_t *c = &s->r->checks[ci];
        smcj_self_step_t step = SMCJ_SELF_SEND;
        if (c->kind == SMCJ_CHECK_SELF && c->outcome == SMCJ_OUT_PENDING &&
            !smcj_session_vector_spent(s, ci)) {
            step = s->cfg->hooks->prepare_self(s->r, ci);
            if (step == SMCJ_SELF_WAIT && s->head != s->next) {
                break; /* its encode answer is still in flight */
            }
            if (step == SMCJ_SELF_WAIT) { /* cannot happen: what it waits for was sent first */
                c->outcome = SMCJ_OUT_NA;
                c->detail = smcj_strdup("internal: its encode check was never answered");
            }
        }
        if (c->outcome != SMCJ_OUT_PENDING || smcj_session_vector_spent(s, ci)) {
            s->seqs[s->next] = 0; /* decided without being sent */
            s->head += s->head == s->next;
            s->next++;
            continue;
        }
        bool bomb = smcj_watch_is_bomb(s, c);
        if (bomb && s->head != s->next) {
            break; /* it waits until nothing else is in flight */
        }
        if (bomb) {
            smcj_watch_bomb_before(s, ci);
        }
        s->seqs[s->next] = ++s->seq;
        s->cfg->hooks->request_line(smcj_io_line_begin(&s->io), s->seqs[s->next], s->r, s->vs, c);
        s->ends[s->next] = smcj_io_line_end(&s->io);
        if (smcj_out_of_memory()) {
            break; /* out of memory: the loop stops before the runner is charged */
        }
        s->next++;
        s->r->requests_sent++;
    }
    if (s->head >= s->n_order && !smcj_out_of_memory()) {
        send_bye(s);
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
        s->reaped_one = true;
        s->cfg->hooks->plan_all_failed(r, s->vs, SMCJ_REASON_PROTOCOL_ERROR, bad);
        free(bad);
        s->state = SMCJ_SESSION_DONE;
        return;
    }
    if (bad) {
        smcj_session_failure(s, SMCJ_REASON_PROTOCOL_ERROR, bad);
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
    smcj_session_resume(s);
}

/* A check that passed keeps no large texts: the reports show expected and actual values of
 * failures (and of accepted bombs, which are summaries), and a 64 MiB value must not be kept
 * once per check. */
#define KEEP_PASSING_TEXT 65536u
static void drop_texts(smcj_check_t *c)
{
    size_t n = (c->expected ? strlen(c->expected) : 0) + (c->actual ? strlen(c->actual) : 0);
    if (c->outcome == SMCJ_OUT_FAIL || n <= KEEP_PASSING_TEXT) {
        return;
    }
    free(c->expected);
    free(c->actual);
    free(c->exp_bytes);
    free(c->act_bytes);
    c->expected = c->actual = NULL;
    c->exp_bytes = c->act_bytes = NULL;
    c->exp_len = c->act_len = 0;
}

/* The protocol fault of an answer to the head request (P.3, P.4), as a new string; NULL
 * when it is a well-formed answer. */
static char *answer_fault(const smcj_session_t *s, const smct_json_t *resp, bool parsed,
                          const smct_error_t *e, const char *shown)
{
    if (!parsed || resp->type != SMCT_JSON_OBJECT) {
        return smcj_asprintf("response is not a JSON object (%s): %s",
                             parsed ? "other JSON" : e->message, shown);
    }
    int64_t seq;
    uint64_t want = s->seqs[s->head];
    if (!smct_json_get_i64(smct_json_get(resp, "seq"), &seq) || seq < 0 || (uint64_t)seq != want) {
        return smcj_asprintf("wrong seq: expected %llu, got %s", (unsigned long long)want, shown);
    }
    const smct_json_t *st = smct_json_get(resp, "status");
    /* version 2 adds the crash, rejected and not_implemented answers (P.3) */
    bool v2_status =
        s->r->protocol >= 2 && (smct_json_is_str(st, "crash") || smct_json_is_str(st, "rejected") ||
                                smct_json_is_str(st, "not_implemented"));
    if (!smct_json_is_str(st, "ok") && !smct_json_is_str(st, "error") &&
        !smct_json_is_str(st, "skipped") && !v2_status) {
        return smcj_asprintf("unknown status: %s", shown);
    }
    return NULL;
}

/* P.3: the answer to the request at the head of the queue. */
static void on_response(smcj_session_t *s, const smct_json_t *resp, bool parsed,
                        const smct_error_t *e, const char *shown)
{
    smcj_runner_t *r = s->r;
    smcj_session_skip_unsent(s);
    if (s->head == s->next) {
        char *d = smcj_asprintf("a line arrived with no request outstanding: %s", shown);
        smcj_session_failure(s, SMCJ_REASON_PROTOCOL_ERROR, d);
        free(d);
        return;
    }
    char *fault = answer_fault(s, resp, parsed, e, shown);
    if (fault || smcj_out_of_memory()) {
        if (!smcj_out_of_memory()) {
            smcj_session_failure(s, SMCJ_REASON_PROTOCOL_ERROR, fault);
        }
        free(fault);
        return;
    }
    smcj_check_t *c = &r->checks[s->order[s->head]];
    s->cfg->hooks->answer(c, r, s->vs, resp, &s->arena);
    if (smcj_out_of_memory()) {
        s->state = SMCJ_SESSION_DONE; /* the verdict may be incomplete: the run stops without one */
        return;
    }
    char what[512];
    if (s->watch.bomb && s->watch.bomb_check == s->order[s->head] &&
        smcj_watch_bomb_after(s, what, sizeof what)) {
        smcj_session_failure(s, SMCJ_REASON_RESOURCE, what);
        return;
    }
    if (c->outcome == SMCJ_OUT_FAIL) {
        smcj_io_read_stderr(&s->io);
        free(c->stderr_tail);
        c->stderr_tail = smcj_io_stderr_tail(&s->io);
    }
    drop_texts(c);
    smcj_keep_bounded(c);     /* a failure's values: a bounded prefix, its size and SHA-256 */
    smcj_session_answered(s); /* a protocol-valid answer, whatever its verdict */
    s->head++;
    smcj_session_new_head(s);
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
    smcj_io_line_done(&s->io); /* `line` is not read again */
    bool parsed = st == SMCT_OK;
    if (s->state == SMCJ_SESSION_HELLO) {
        on_hello_answer(s, resp, parsed, shown);
    } else {
        on_response(s, resp, parsed, &e, shown);
    }
    smc_arena_reset(&s->arena); /* the answer's tree goes now, not at the next answer */
}

static void handle_line(smcj_session_t *s, const char *line, size_t len)
{
    if (s->state != SMCJ_SESSION_HELLO && s->state != SMCJ_SESSION_RUN) {
        return; /* the bye answer, or noise after it, or a run that is stopping */
    }
    if (smcj_out_of_memory()) {
        return;
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
                s->reaped_one = true;
                s->state = SMCJ_SESSION_DONE;
                return;
            }
            /* The runner closed stdout: it exited or is about to (P.4 crash). */
            const char *what = s->state == SMCJ_SESSION_HELLO
                                   ? "runner exited before answering hello"
                                   : "runner exited while answering";
            smcj_session_failure(s, SMCJ_REASON_CRASH, what);
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
        if (smcj_io_partial_line(&s->io) > 0) {
            s->wait_since = smcj_now(); /* an answer is arriving: the runner is not hanging */
        }
        if (smcj_io_partial_line(&s->io) > s->cfg->max_line) {
            char *d = smcj_asprintf("response line longer than %zu bytes", s->cfg->max_line);
            smcj_session_failure(s, SMCJ_REASON_PROTOCOL_ERROR, d);
            free(d);
            return;
        }
    }
}

static bool waiting(const smcj_session_t *s)
{
    return s->state == SMCJ_SESSION_HELLO || (s->state == SMCJ_SESSION_RUN && s->head < s->next);
}

static double limit_of(const smcj_session_t *s)
{
    return s->state == SMCJ_SESSION_HELLO ? s->cfg->start_timeout : s->cfg->timeout;
}

/* P.4: the whole time of the oldest request, however its bytes trickle: the timeout, and the
 * time its bytes (and those sent behind it) take at SMCJ_MIN_RATE. A runner that keeps
 * sending a byte just before each timeout would otherwise hold a request until
 * --max-run-time. */
static double total_limit(const smcj_session_t *s)
{
    uint64_t moved = s->io.written_total - s->head_written + smcj_io_partial_line(&s->io);
    return limit_of(s) + (double)moved / SMCJ_MIN_RATE;
}

/* A runner that closed its stdout behind a shell that keeps it open cannot answer: a crash
 * (P.4), found well before the timeout would call it a hang. */
static bool stdout_closed(smcj_session_t *s)
{
    char what[256];
    if (!smcj_watch_stdout_closed(s, what, sizeof what)) {
        return false;
    }
    smcj_session_failure(s, SMCJ_REASON_CRASH, what);
    return true;
}

/* P.4: no answer in time is a hang, charged to the oldest request; a runner that does not
 * exit after bye is killed. The clock of a request restarts while its bytes are still being
 * written to the runner and while its answer is arriving: a 64 MiB value takes the time it
 * takes to move, and only a runner that does nothing for the whole timeout is hanging. */
static void check_timeout(smcj_session_t *s, double now)
{
    if (s->state == SMCJ_SESSION_BYE && now >= s->bye_deadline) {
        smcj_proc_kill(&s->io.proc);
        s->reaped_one = true;
        s->state = SMCJ_SESSION_DONE;
        return;
    }
    if (!waiting(s)) {
        return;
    }
    double limit = limit_of(s), waited = now - s->wait_since;
    double check_after = limit / 2 < STDOUT_CHECK_AFTER ? limit / 2 : STDOUT_CHECK_AFTER;
    if (waited >= check_after && s->watch.stdout_checked_at != s->wait_since) {
        s->watch.stdout_checked_at = s->wait_since;
        if (stdout_closed(s)) {
            return;
        }
    }
    if (waited >= limit && !stdout_closed(s)) {
        char *d = smcj_asprintf("no answer within %g s (%s)", limit,
                                s->state == SMCJ_SESSION_HELLO ? "hello" : "request");
        smcj_session_failure(s, SMCJ_REASON_TIMEOUT, d);
        free(d);
    } else if (now >= s->head_since + total_limit(s) && !stdout_closed(s)) {
        char *d = smcj_asprintf("answer not complete within %.3g s (%s; the limit is the "
                                "timeout of %g s and 1 s per MiB moved: a runner that trickles "
                                "its answer byte by byte; P.4)",
                                now - s->head_since,
                                s->state == SMCJ_SESSION_HELLO ? "hello" : "request", limit);
        smcj_session_failure(s, SMCJ_REASON_TIMEOUT, d);
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
    r->bomb_vector = SIZE_MAX;
    smcj_io_init(&s->io);
    smcj_io_init(&s->spare);
    smc_arena_init_allocator(&s->arena, NULL);
    if (r->skip_reason) {
        s->state = SMCJ_SESSION_IDLE;
        return;
    }
    char err[256];
    if (smcj_out_of_memory()) {
        s->state = SMCJ_SESSION_DONE; /* start no more runners: the run stops */
    } else if (!smcj_session_spawn(s, err, sizeof err)) {
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
    switch (s->state) {
    case SMCJ_SESSION_BYE:
        return s->bye_deadline < smcj_dying_deadline(s) ? s->bye_deadline : smcj_dying_deadline(s);
    case SMCJ_SESSION_BACKOFF:
        return s->respawn_at < smcj_dying_deadline(s) ? s->respawn_at : smcj_dying_deadline(s);
    case SMCJ_SESSION_HELLO:
    case SMCJ_SESSION_RUN: {
        double d = s->wait_since + limit_of(s);
        double total = s->head_since + total_limit(s);
        d = waiting(s) && total < d ? total : d;
        double check = s->wait_since + (limit_of(s) / 2 < STDOUT_CHECK_AFTER ? limit_of(s) / 2
                                                                             : STDOUT_CHECK_AFTER);
        if (waiting(s) && s->watch.stdout_checked_at != s->wait_since && check < d) {
            d = check;
        }
        double m = smcj_watch_next(s);
        d = m < d ? m : d;
        m = smcj_dying_deadline(s);
        return m < d ? m : d;
    }
    case SMCJ_SESSION_IDLE:
    case SMCJ_SESSION_DONE:
        break;
    }
    return smcj_now() + 1.0;
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
    np += smcj_spare_poll_fds(s, pfd + np);
    return np + smcj_dying_poll_fds(s, pfd + np);
}

/* Every read and write is non-blocking, so trying all of them is simpler than matching poll
 * results to sessions, and as cheap. */
void smcj_session_service(smcj_session_t *s, double t0)
{
    if (s->state == SMCJ_SESSION_BACKOFF) {
        char err[256];
        if (smcj_now() >= s->respawn_at && !smcj_session_spawn(s, err, sizeof err)) {
            smcj_session_stop(s, SMCJ_REASON_PROTOCOL_ERROR, err, true);
        }
    } else {
        smcj_io_read_stderr(&s->io);
        uint64_t written = s->io.written_total;
        smcj_io_flush(&s->io);
        if (s->state == SMCJ_SESSION_RUN && s->head < s->next && s->io.written_total > written &&
            written < s->ends[s->head]) {
            s->wait_since = smcj_now(); /* its request is still being taken: no hang yet */
        }
        fill_window(s); /* the queue may have room again */
        read_stdout(s);
        char what[256];
        if ((s->state == SMCJ_SESSION_HELLO || s->state == SMCJ_SESSION_RUN) &&
            smcj_watch_memory(s, smcj_now(), what, sizeof what)) {
            smcj_session_failure(s, SMCJ_REASON_RESOURCE, what);
        }
        if (smcj_session_active(s) && s->state != SMCJ_SESSION_BACKOFF) {
            check_timeout(s, smcj_now());
        }
    }
    smcj_spare_service(s);
    smcj_dying_service(s);
    if (s->state == SMCJ_SESSION_DONE) {
        smcj_spare_end(s);
        s->r->seconds = smcj_now() - t0; /* this runner's own wall time */
    }
}

void smcj_session_finish(smcj_session_t *s, double t0, double t1)
{
    smcj_proc_kill(&s->io.proc); /* no-op when already reaped; never leaves a child behind */
    smcj_spare_end(s);
    smcj_dying_end(s);
    smcj_io_read_stderr(&s->io);
    char *tail = smcj_io_stderr_tail(&s->io);
    if (!s->r->stderr_tail || (tail && tail[0])) {
        free(s->r->stderr_tail); /* a start failure keeps the excerpt it was reported with */
        s->r->stderr_tail = tail;
    } else {
        free(tail);
    }
    if (s->r->seconds == 0 && s->state != SMCJ_SESSION_IDLE) {
        s->r->seconds = t1 - t0;
    }
    smcj_io_free(&s->io);
    free(s->order);
    free(s->seqs);
    free(s->ends);
    free(s->vector_fails);
    smc_arena_free(&s->arena);
}
