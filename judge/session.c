/* Runner sessions: one poll() loop over every runner (runners/PROTOCOL.md P.1–P.4). */
#define _POSIX_C_SOURCE 200809L
#include "session.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jbuf.h"
#include "plan.h"
#include "proc.h"
#include "smct_json.h"
#include "verdict.h"

/* P.4: give up after three consecutive restarts without a good response. */
#define MAX_CONSECUTIVE_RESTARTS 3u
#define STDERR_KEEP              16384u
#define STDERR_TAIL_LINES        20
#define STDERR_TAIL_BYTES        2048u
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
    smcj_proc_t proc;
    state_t state;
    bool first_start;
    smcj_buf_t out;    /* bytes not yet written to the runner's stdin */
    smcj_buf_t in;     /* bytes read from stdout, not yet a complete line */
    size_t in_scanned; /* prefix of `in` known to hold no '\n' */
    smcj_buf_t err;    /* the runner's recent stderr */
    bool stdin_broken;
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

static char *stderr_tail(const smcj_buf_t *err)
{
    if (err->len == 0) {
        return smcj_xstrdup("");
    }
    size_t start = err->len > STDERR_TAIL_BYTES ? err->len - STDERR_TAIL_BYTES : 0;
    int lines = 0;
    size_t i = err->len;
    if (i > 0 && err->data[i - 1] == '\n') {
        i--;
    }
    while (i > start) {
        if (err->data[i - 1] == '\n' && ++lines >= STDERR_TAIL_LINES) {
            break;
        }
        i--;
    }
    return smcj_xstrndup(err->data + i, err->len - i);
}

static void read_stderr(session_t *s)
{
    char chunk[8192];
    while (s->proc.err_fd >= 0) {
        ssize_t n = read(s->proc.err_fd, chunk, sizeof chunk);
        if (n > 0) {
            smcj_buf_append(&s->err, chunk, (size_t)n);
            if (s->err.len > 2 * STDERR_KEEP) {
                smcj_buf_consume(&s->err, s->err.len - STDERR_KEEP);
            }
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            if (n == 0) {
                close(s->proc.err_fd);
                s->proc.err_fd = -1;
            }
            return;
        }
    }
}

/* Collect what the runner wrote to stderr before it died or was killed (bounded wait). */
static void drain_stderr(session_t *s, double seconds)
{
    double deadline = smcj_now() + seconds;
    while (s->proc.err_fd >= 0) {
        double left = deadline - smcj_now();
        if (left <= 0) {
            break;
        }
        struct pollfd p = {s->proc.err_fd, POLLIN, 0};
        int rc = poll(&p, 1, (int)(left * 1000) + 1);
        if (rc < 0 && errno == EINTR) {
            continue;
        }
        if (rc <= 0) {
            break;
        }
        read_stderr(s);
    }
}

static void send_line(session_t *s, const smcj_buf_t *line)
{
    smcj_buf_append(&s->out, line->data, line->len);
    smcj_buf_putc(&s->out, '\n');
}

static void flush_out(session_t *s)
{
    while (s->out.len > 0 && s->proc.in_fd >= 0 && !s->stdin_broken) {
        ssize_t n = write(s->proc.in_fd, s->out.data, s->out.len);
        if (n > 0) {
            smcj_buf_consume(&s->out, (size_t)n);
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        } else {
            /* EPIPE: the runner closed stdin or died; its stdout EOF (or the timeout)
             * decides what happened, so nothing is attributed here. */
            s->stdin_broken = true;
            smcj_buf_clear(&s->out);
            return;
        }
    }
}

static bool spawn(session_t *s, char *err, size_t err_size)
{
    smcj_buf_clear(&s->out);
    smcj_buf_clear(&s->in);
    s->in_scanned = 0;
    s->stdin_broken = false;
    s->generation++;
    if (!smcj_proc_spawn(&s->proc, s->r->command, err, err_size)) {
        return false;
    }
    smcj_buf_t hello = {0};
    smcj_hello_line(&hello);
    send_line(s, &hello);
    smcj_buf_free(&hello);
    s->state = ST_HELLO;
    s->wait_since = smcj_now();
    flush_out(s);
    return true;
}

static void record(smcj_check_t *c, smcj_reason_t reason, char *detail, const char *tail)
{
    c->outcome = SMCJ_OUT_FAIL;
    c->reason = reason;
    free(c->detail);
    c->detail = detail;
    free(c->stderr_tail);
    c->stderr_tail = tail ? smcj_xstrdup(tail) : NULL;
}

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
        while (!smcj_proc_try_reap(&s->proc) && smcj_now() < deadline) {
            if (s->proc.err_fd >= 0) {
                drain_stderr(s, 0.01);
            } else {
                struct timespec ts = {0, 5 * 1000 * 1000};
                nanosleep(&ts, NULL);
            }
        }
        drain_stderr(s, 0.2);
    } else {
        smcj_proc_terminate(&s->proc);
        drain_stderr(s, 0.2);
    }
    smcj_proc_kill(&s->proc);
    char status[128];
    smcj_proc_describe_status(&s->proc, status, sizeof status);
    char *detail =
        reason == SMCJ_REASON_CRASH ? smcj_xasprintf("%s (%s)", what, status) : smcj_xstrdup(what);
    char *tail = stderr_tail(&s->err);
    smcj_buf_clear(&s->err);

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

static bool json_str_array(const smct_json_t *j, char ***out, size_t *n)
{
    if (!j || j->type != SMCT_JSON_ARRAY) {
        return false;
    }
    *out = smcj_xcalloc(j->array.count, sizeof(char *));
    *n = 0;
    for (size_t i = 0; i < j->array.count; i++) {
        const smct_json_t *e = &j->array.items[i];
        if (e->type != SMCT_JSON_STRING) {
            return false;
        }
        (*out)[(*n)++] = smcj_xstrndup(e->str.ptr, e->str.len);
    }
    return true;
}

static void free_str_array(char **a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(a[i]);
    }
    free(a);
}

static char *opt_str(const smct_json_t *obj, const char *key)
{
    const smct_json_t *j = smct_json_get(obj, key);
    return j && j->type == SMCT_JSON_STRING ? smcj_xstrndup(j->str.ptr, j->str.len) : NULL;
}

/* Words a runner may declare (spec/vectors.md V.3 features, PROTOCOL.md P.1 options). */
static const char *const KNOWN_FEATURES[] = {"int32",
                                             "int64",
                                             "int64-distinct",
                                             "float64",
                                             "float32list",
                                             "typed-lists",
                                             "nan-payload",
                                             "embedded-nul",
                                             "custom-types",
                                             "largeint",
                                             "duplicate-map-keys",
                                             "map-order",
                                             "method-codec",
                                             "error-stacktrace",
                                             "strict-mode",
                                             "depth-limit"};
static const char *const KNOWN_OPTIONS[] = {"error-offsets", "shift"};

/* Appends to `b` every word of `words` not in `known`: a misspelt option or capability
 * would otherwise silently turn checks off (e.g. "error-offset": offsets never compared). */
static void unknown_words(smcj_buf_t *b, const char *what, char *const *words, size_t n,
                          const char *const *known, size_t n_known)
{
    for (size_t i = 0; i < n; i++) {
        bool found = false;
        for (size_t k = 0; k < n_known && !found; k++) {
            found = strcmp(words[i], known[k]) == 0;
        }
        if (!found) {
            smcj_buf_printf(b, "%sunknown %s \"", b->len ? "; " : "", what);
            smcj_buf_excerpt(b, words[i], strlen(words[i]), 60);
            smcj_buf_puts(b, "\" ignored");
        }
    }
}

/* P.1: validate the hello answer; on the first start, take the capabilities. NULL if fine. */
static char *take_handshake(session_t *s, const smct_json_t *resp)
{
    smcj_runner_t *r = s->r;
    int64_t seq, proto;
    if (!smct_json_get_i64(smct_json_get(resp, "seq"), &seq) || seq != 0) {
        return smcj_xstrdup("hello answer does not carry seq 0");
    }
    if (!smct_json_is_str(smct_json_get(resp, "status"), "ok")) {
        return smcj_xstrdup("hello answer status is not \"ok\"");
    }
    if (!smct_json_get_i64(smct_json_get(resp, "protocol"), &proto)) {
        return smcj_xstrdup("hello answer has no integer \"protocol\"");
    }
    if (proto != 1) {
        return smcj_xasprintf("runner speaks protocol %lld; this judge speaks protocol 1",
                              (long long)proto);
    }
    char **entries = NULL, **dec = NULL, **enc = NULL, **opts = NULL;
    size_t ne = 0, nd = 0, nn = 0, no = 0;
    const smct_json_t *caps = smct_json_get(resp, "capabilities");
    const smct_json_t *jopts = smct_json_get(resp, "options");
    bool ok = json_str_array(smct_json_get(resp, "entries"), &entries, &ne) &&
              json_str_array(smct_json_get(caps, "decode"), &dec, &nd) &&
              json_str_array(smct_json_get(caps, "encode"), &enc, &nn) &&
              (jopts == NULL || json_str_array(jopts, &opts, &no));
    if (!ok) {
        free_str_array(entries, ne);
        free_str_array(dec, nd);
        free_str_array(enc, nn);
        free_str_array(opts, no);
        return smcj_xstrdup("hello answer needs \"entries\", \"capabilities\": {\"decode\", "
                            "\"encode\"} as arrays of "
                            "strings, and \"options\" as an array of strings (P.1)");
    }
    if (!s->first_start) {
        /* A respawned runner is the same program; keep the first capabilities. */
        free_str_array(entries, ne);
        free_str_array(dec, nd);
        free_str_array(enc, nn);
        free_str_array(opts, no);
        return NULL;
    }
    const smct_json_t *codec = smct_json_get(resp, "codec");
    r->codec_name = opt_str(codec, "name");
    r->codec_version = opt_str(codec, "version");
    r->codec_language = opt_str(codec, "language");
    for (size_t i = 0; i < ne; i++) {
        smct_entry_t e;
        if (smct_entry_from_name(entries[i], strlen(entries[i]), &e)) {
            r->entry_ok[e] = true;
        }
    }
    free_str_array(entries, ne);
    r->decode_caps = dec;
    r->n_decode_caps = nd;
    r->encode_caps = enc;
    r->n_encode_caps = nn;
    smcj_buf_t note = {0};
    size_t nf = sizeof KNOWN_FEATURES / sizeof KNOWN_FEATURES[0];
    unknown_words(&note, "decode capability", dec, nd, KNOWN_FEATURES, nf);
    unknown_words(&note, "encode capability", enc, nn, KNOWN_FEATURES, nf);
    unknown_words(&note, "option", opts, no, KNOWN_OPTIONS,
                  sizeof KNOWN_OPTIONS / sizeof KNOWN_OPTIONS[0]);
    r->handshake_note = note.len ? smcj_buf_steal(&note) : NULL;
    r->opt_error_offsets = smcj_caps_have(opts, no, "error-offsets");
    r->opt_shift = smcj_caps_have(opts, no, "shift");
    r->map_order = smcj_caps_have(dec, nd, "map-order");
    free_str_array(opts, no);
    return NULL;
}

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

static void fill_window(session_t *s)
{
    if (s->state != ST_RUN) {
        return;
    }
    if (s->head == s->next) {
        s->wait_since = smcj_now();
    }
    smcj_buf_t line = {0};
    while (s->next < s->n_order && s->next - s->head < s->cfg->window) {
        smcj_buf_clear(&line);
        s->seqs[s->next] = ++s->seq;
        smcj_request_line(&line, s->seqs[s->next], s->r, s->vs, &s->r->checks[s->order[s->next]]);
        send_line(s, &line);
        s->next++;
        s->r->requests_sent++;
    }
    smcj_buf_free(&line);
    if (s->head >= s->n_order && s->state == ST_RUN) {
        smcj_buf_t bye = {0};
        smcj_buf_printf(&bye, "{\"seq\":%llu,\"op\":\"bye\"}", (unsigned long long)++s->seq);
        send_line(s, &bye);
        smcj_buf_free(&bye);
        s->state = ST_BYE;
        s->bye_deadline = smcj_now() + 2.0;
    }
    flush_out(s);
}

static void handle_parsed_line(session_t *s, const char *line, size_t len, const char *shown)
{
    smcj_runner_t *r = s->r;
    smc_arena_reset(&s->arena);
    smct_json_opts_t jo = {RESPONSE_MAX_DEPTH};
    smct_json_t *resp = NULL;
    smct_error_t e;
    bool parsed = smct_json_parse(line, len, &jo, &s->arena, &resp, &e) == SMCT_OK;
    if (s->state == ST_HELLO) {
        char *bad = NULL;
        if (!parsed || resp->type != SMCT_JSON_OBJECT) {
            bad = smcj_xasprintf("hello answer is not a JSON object: %s", shown);
        } else {
            bad = take_handshake(s, resp);
        }
        if (bad && s->first_start) {
            /* P.1: the judge stops the runner and reports protocol_error for all its vectors. */
            r->handshake_bad = true;
            r->start_error = smcj_xstrdup(bad);
            smcj_proc_terminate(&s->proc);
            drain_stderr(s, 0.1);
            smcj_proc_kill(&s->proc);
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
        return;
    }
    /* ST_RUN */
    if (s->head == s->next) {
        char *d = smcj_xasprintf("a line arrived with no request outstanding: %s", shown);
        failure(s, SMCJ_REASON_PROTOCOL_ERROR, d);
        free(d);
        return;
    }
    if (!parsed || resp->type != SMCT_JSON_OBJECT) {
        char *d = smcj_xasprintf("response is not a JSON object (%s): %s",
                                 parsed ? "other JSON" : e.message, shown);
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
        read_stderr(s);
        free(c->stderr_tail);
        c->stderr_tail = stderr_tail(&s->err);
    }
    s->consecutive_failures = 0; /* a protocol-valid answer, whatever its verdict */
    s->head++;
    s->wait_since = smcj_now();
    fill_window(s);
}

static void handle_line(session_t *s, const char *line, size_t len)
{
    if (s->state == ST_BYE || s->state == ST_DONE) {
        return; /* the bye answer, or noise after it: nothing left to judge */
    }
    smcj_buf_t ex = {0}; /* what the runner sent, made safe to print in any report */
    smcj_buf_excerpt(&ex, line, len, 200);
    handle_parsed_line(s, line, len, ex.data ? ex.data : "");
    smcj_buf_free(&ex);
}

static void read_stdout(session_t *s)
{
    char chunk[65536];
    for (;;) {
        if (s->proc.out_fd < 0) {
            return;
        }
        ssize_t n = read(s->proc.out_fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return; /* EAGAIN */
        }
        if (n == 0) {
            if (s->state == ST_BYE) {
                smcj_proc_finish(&s->proc, 1.0);
                s->state = ST_DONE;
                return;
            }
            /* The runner closed stdout: it exited or is about to (P.4 crash). */
            const char *what = s->state == ST_HELLO ? "runner exited before answering hello"
                                                    : "runner exited while answering";
            failure(s, SMCJ_REASON_CRASH, what);
            return;
        }
        smcj_buf_append(&s->in, chunk, (size_t)n);
        unsigned gen = s->generation;
        size_t start = 0;
        for (size_t i = s->in_scanned; i < s->in.len; i++) {
            if (s->in.data[i] == '\n') {
                handle_line(s, s->in.data + start, i - start);
                if (gen != s->generation || s->state == ST_DONE) {
                    return; /* respawned or finished: the rest belonged to the old process */
                }
                start = i + 1;
            }
        }
        smcj_buf_consume(&s->in, start);
        s->in_scanned = s->in.len;
        if (s->in.len > s->cfg->max_line) {
            char *d = smcj_xasprintf("response line longer than %zu bytes", s->cfg->max_line);
            failure(s, SMCJ_REASON_PROTOCOL_ERROR, d);
            free(d);
            return;
        }
    }
}

static void check_timeout(session_t *s, double now)
{
    if (s->state == ST_BYE && now >= s->bye_deadline) {
        smcj_proc_kill(&s->proc);
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

static void progress(session_t *ss, size_t n, bool final)
{
    smcj_buf_t b = {0};
    smcj_buf_puts(&b, "\r\033[K[smc conformance]");
    for (size_t i = 0; i < n; i++) {
        if (ss[i].state == ST_IDLE) {
            continue;
        }
        smcj_buf_printf(&b, "  %s %zu/%zu", ss[i].r->name, ss[i].head, ss[i].n_order);
    }
    if (final) {
        smcj_buf_putc(&b, '\n');
    }
    fputs(b.data, stderr);
    fflush(stderr);
    smcj_buf_free(&b);
}

void smcj_sessions_run(smcj_run_t *run, const smcj_session_cfg_t *cfg)
{
    size_t n = run->n_runners;
    session_t *ss = smcj_xcalloc(n ? n : 1, sizeof *ss);
    double t0 = smcj_now();
    for (size_t i = 0; i < n; i++) {
        session_t *s = &ss[i];
        s->r = &run->runners[i];
        s->vs = run->vectors;
        s->cfg = cfg;
        s->first_start = true;
        s->t0 = t0;
        smcj_proc_init(&s->proc);
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
    struct pollfd *pfd = smcj_xcalloc(3 * (n ? n : 1), sizeof *pfd);
    double last_progress = 0;
    for (;;) {
        size_t np = 0;
        bool active = false;
        double now = smcj_now();
        double next_deadline = now + 1.0;
        for (size_t i = 0; i < n; i++) {
            session_t *s = &ss[i];
            if (s->state == ST_IDLE || s->state == ST_DONE) {
                continue;
            }
            active = true;
            double limit = s->state == ST_HELLO ? cfg->start_timeout : cfg->timeout;
            double d = s->state == ST_BYE ? s->bye_deadline : s->wait_since + limit;
            if (d < next_deadline) {
                next_deadline = d;
            }
            if (s->proc.out_fd >= 0) {
                pfd[np++] = (struct pollfd){s->proc.out_fd, POLLIN, 0};
            }
            if (s->proc.err_fd >= 0) {
                pfd[np++] = (struct pollfd){s->proc.err_fd, POLLIN, 0};
            }
            if (s->out.len > 0 && s->proc.in_fd >= 0 && !s->stdin_broken) {
                pfd[np++] = (struct pollfd){s->proc.in_fd, POLLOUT, 0};
            }
        }
        if (!active || smcj_interrupted()) {
            break; /* interrupted: every child is killed below */
        }
        double wait = next_deadline - now;
        int ms = wait <= 0 ? 0 : (int)(wait * 1000.0) + 1;
        int rc = poll(pfd, (nfds_t)np, ms);
        if (rc < 0 && errno != EINTR) {
            perror("smc conformance: poll");
            break;
        }
        /* Service every session whose fds are ready (simplest: try them all; reads are
         * non-blocking). */
        for (size_t i = 0; i < n; i++) {
            session_t *s = &ss[i];
            if (s->state == ST_IDLE || s->state == ST_DONE) {
                continue;
            }
            read_stderr(s);
            flush_out(s);
            read_stdout(s);
            if (s->state != ST_DONE && s->state != ST_IDLE) {
                check_timeout(s, smcj_now());
            }
            if (s->state == ST_DONE) {
                s->r->seconds = smcj_now() - t0; /* this runner's own wall time */
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
        session_t *s = &ss[i];
        smcj_proc_kill(&s->proc); /* no-op when already reaped; never leaves a child behind */
        read_stderr(s);
        s->r->stderr_tail = stderr_tail(&s->err);
        if (s->r->seconds == 0 && s->state != ST_IDLE) {
            s->r->seconds = t1 - t0;
        }
        smcj_buf_free(&s->out);
        smcj_buf_free(&s->in);
        smcj_buf_free(&s->err);
        free(s->order);
        free(s->seqs);
        smc_arena_free(&s->arena);
    }
    run->seconds = t1 - t0;
    free(pfd);
    free(ss);
}
