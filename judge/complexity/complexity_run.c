/*
 * Timing the complexity families on one runner after another (spec §15.4): a process of its
 * own per runner, one request at a time, the CPU time of the runner's process tree read
 * before and after each answer (complexity_clock.c).
 *
 * Per family: the members are probed in ascending size until one costs at least T_LO (the
 * smallest timing worth a ratio), then up to three doublings more (8x the input), stopping
 * early where a member costs more than T_CAP. The largest member probed and a smaller one (the
 * smallest worth timing, widened to 8x below the largest: smcj_cx_pick_lo) are then timed
 * again, interleaved with their baselines (a flat byte array of the same length: the
 * protocol's own cost), and the best run of each is kept. The verdict
 * (complexity_fit.c) is taken after every repetition: a clear pass or a failure that the
 * latest repetition confirms (the latest two, near the line) ends the family; else up to
 * MAX_ROUNDS.
 */
#define _POSIX_C_SOURCE 200809L
#include "complexity.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "complexity_clock.h"
#include "model.h"
#include "proc.h"
#include "runner_io.h"
#include "sha256.h"
#include "smc/smc.h"
#include "smct_hex.h"
#include "smct_json.h"

#define T_LO_NS          6000000ull   /* 6 ms: below it a ratio is mostly noise */
#define T_CAP_NS         800000000ull /* 0.8 s: a member costing more is not doubled again */
#define MAX_ROUNDS       5
#define FAMILY_BUDGET_NS 6000000000ull /* CPU time after which a family is not repeated again */
#define START_TIMEOUT    60.0

typedef struct conn {
    smcj_runner_io_t io;
    bool up;
    unsigned long long seq;
    smcj_cx_clock_t clock;
    pid_t tree[64]; /* the runner's processes, read when a family starts */
    size_t n_tree;
} conn_t;

typedef enum answer { ANS_OK, ANS_REFUSED, ANS_DIED, ANS_TIMEOUT, ANS_GARBLED } answer_t;

/* The status of an answer that starts the way the kits write it, `{"seq":N,"status":"W",`,
 * and ends with `}`: a multi-megabyte value need not be parsed to time it (whether it is the
 * right value is the value vectors' business). False for any other layout: parse it all. */
static bool quick_status(const char *line, size_t len, unsigned long long seq, char *status,
                         size_t status_size)
{
    char head[64];
    int n = snprintf(head, sizeof head, "{\"seq\":%llu,\"status\":\"", seq);
    if (n <= 0 || len < (size_t)n + 4 || memcmp(line, head, (size_t)n) != 0 ||
        line[len - 1] != '}') {
        return false;
    }
    const char *w = line + n, *end = memchr(w, '"', len - (size_t)n);
    if (!end || end - w >= (long)status_size || end[1] != ',') {
        return false;
    }
    for (const char *p = w; p < end; p++) {
        if ((*p < 'a' || *p > 'z') && *p != '_') {
            return false;
        }
    }
    snprintf(status, status_size, "%.*s", (int)(end - w), w);
    return true;
}

/* Wait for the answer to the line just queued; its status word goes to `status`. */
static answer_t await_line(conn_t *c, double timeout, char *status, size_t status_size)
{
    double deadline = smcj_now() + timeout;
    for (;;) {
        smcj_io_flush(&c->io);
        const char *line = NULL;
        size_t len = 0;
        bool have = smcj_io_next_line(&c->io, &line, &len);
        if (have && len > 4096 && quick_status(line, len, c->seq, status, status_size)) {
            smcj_io_line_done(&c->io);
            return strcmp(status, "ok") == 0 ? ANS_OK : ANS_REFUSED;
        }
        if (have) {
            smc_arena_t arena;
            smc_arena_init_allocator(&arena, NULL);
            smct_json_t *root = NULL;
            smct_error_t e;
            smct_json_opts_t jo = {0};
            bool ok = smct_json_parse(line, len, &jo, &arena, &root, &e) == SMCT_OK &&
                      root->type == SMCT_JSON_OBJECT;
            const smct_json_t *st = ok ? smct_json_get(root, "status") : NULL;
            uint64_t seq = 0;
            ok = ok && st && st->type == SMCT_JSON_STRING &&
                 smct_json_get_u64(smct_json_get(root, "seq"), &seq) && seq == c->seq;
            snprintf(status, status_size, "%s", ok ? st->str.ptr : "?");
            smc_arena_free(&arena);
            smcj_io_line_done(&c->io);
            return !ok ? ANS_GARBLED : strcmp(status, "ok") == 0 ? ANS_OK : ANS_REFUSED;
        }
        double left = deadline - smcj_now();
        if (left <= 0) {
            return ANS_TIMEOUT;
        }
        struct pollfd p[2] = {{c->io.proc.out_fd, POLLIN, 0}, {c->io.proc.err_fd, POLLIN, 0}};
        struct pollfd w = {c->io.proc.in_fd, POLLOUT, 0};
        struct pollfd all[3] = {p[0], p[1], w};
        nfds_t n = smcj_io_wants_write(&c->io) ? 3 : 2;
        int rc = poll(all, n, left > 1 ? 1000 : (int)(left * 1000) + 1);
        if (rc < 0 && errno != EINTR) {
            return ANS_DIED;
        }
        if (all[1].revents) {
            smcj_io_read_stderr(&c->io);
        }
        if (all[0].revents) {
            smcj_io_read_t r;
            while ((r = smcj_io_read_stdout(&c->io)) == SMCJ_IO_DATA) {
            }
            if (r == SMCJ_IO_EOF && !smcj_io_next_line(&c->io, &line, &len)) {
                return ANS_DIED;
            }
        }
        if (c->io.stdin_broken) {
            return ANS_DIED;
        }
    }
}

static void conn_close(conn_t *c)
{
    if (c->up) {
        char bye[64];
        int n = snprintf(bye, sizeof bye, "{\"seq\":%llu,\"op\":\"bye\"}", ++c->seq);
        smcj_io_send_line(&c->io, bye, (size_t)n);
        smcj_io_flush(&c->io);
        smcj_proc_close_stdin(&c->io.proc);
        smcj_proc_finish(&c->io.proc, 2.0);
    } else {
        smcj_proc_kill(&c->io.proc);
    }
    c->up = false;
}

static bool conn_open(conn_t *c, const smcj_runner_t *r, char *err, size_t err_size)
{
    if (!smcj_io_start(&c->io, r->command, err, err_size)) {
        return false;
    }
    c->seq = 0;
    static const char k_hello[] = "{\"seq\":0,\"op\":\"hello\",\"protocol\":1,\"protocols\":[1,2]}";
    smcj_io_send_line(&c->io, k_hello, sizeof k_hello - 1);
    char status[32];
    answer_t a = await_line(c, START_TIMEOUT, status, sizeof status);
    if (a != ANS_OK) {
        snprintf(err, err_size, "the runner did not answer hello for the complexity check (%s)",
                 a == ANS_TIMEOUT ? "timeout"
                 : a == ANS_DIED  ? "it exited"
                                  : status);
        smcj_proc_kill(&c->io.proc);
        return false;
    }
    c->up = true;
    return true;
}

/* One decode of `bytes`, timed. */
static answer_t timed_decode(conn_t *c, const smcj_cx_family_t *f, const smct_buf_t *bytes,
                             bool baseline, double timeout, uint64_t *ns, char *status,
                             size_t status_size)
{
    smct_buf_t *line = smcj_io_line_begin(&c->io);
    /* a P.2 request line: protocol text, byte-exact as plan.c's, its hex written from the
     * bytes straight into the queue (a timed family's input is megabytes) */
    smct_buf_printf(line, "{\"seq\":%llu,\"op\":\"decode\",\"entry\":\"%s\",\"hex\":\"", ++c->seq,
                    f->entry == SMC_ENTRY_ENVELOPE ? "envelope" : "message");
    smct_buf_put_hex(line, (const uint8_t *)bytes->data, bytes->len);
    smct_buf_puts(line, "\"}");
    uint64_t before = 0, after = 0;
    double wall0 = smcj_now();
    smcj_cx_tree_cpu(c->tree, c->n_tree, &c->clock, &before);
    smcj_io_line_end(&c->io);
    answer_t a = await_line(c, timeout, status, status_size);
    smcj_cx_tree_cpu(c->tree, c->n_tree, &c->clock, &after);
    *ns = after > before ? after - before : 0;
    if (getenv("SMCJ_CX_TRACE")) { /* the judge's own tests: each timing, to see the fit */
        fprintf(stderr, "complexity: %s %zu bytes%s: %s, %.3f ms CPU, %.3f ms wall\n", f->id,
                bytes->len, baseline ? " (baseline)" : "", status, (double)*ns / 1e6,
                (smcj_now() - wall0) * 1e3);
    }
    if (a == ANS_DIED || a == ANS_TIMEOUT || a == ANS_GARBLED) {
        smcj_io_drain_stderr(&c->io, 0.5);
        smcj_proc_kill(&c->io.proc);
        c->up = false;
    }
    return a;
}

typedef struct fam_state {
    const smcj_cx_family_t *f;
    smct_buf_t *members; /* expanded lazily, one per member */
    smct_buf_t *bases;
    smcj_cx_timing_t *t;
    uint64_t spent_ns;
} fam_state_t;

/* Expand member i and its baseline (once); false if it is not the generator's member. */
static bool expand(fam_state_t *s, size_t i, char *note, size_t note_size)
{
    const smcj_cx_member_t *m = &s->f->members[i];
    if (s->members[i].len == 0) {
        smcj_cx_expand(&s->members[i], s->f->shape, m->n);
        if (s->f->entry == SMC_ENTRY_ENVELOPE) { /* a success envelope holding the bytes */
            smct_buf_putc(&s->bases[i], 0x00);
        }
        smcj_cx_baseline(&s->bases[i], s->members[i].len - s->bases[i].len);
        char hex[SMCJ_SHA256_HEX];
        if (!smcj_buf_ok(&s->members[i]) || !smcj_buf_ok(&s->bases[i])) {
            snprintf(note, note_size, "out of memory expanding n=%llu", (unsigned long long)m->n);
            return false;
        }
        smcj_sha256_hex((const uint8_t *)s->members[i].data, s->members[i].len, hex);
        if (s->members[i].len != m->bytes || strcmp(hex, m->sha256) != 0) {
            snprintf(note, note_size,
                     "the judge's expansion of n=%llu (%zu bytes, SHA-256 %.12s) is not the "
                     "generator's (%zu bytes, %.12s): family file and judge disagree",
                     (unsigned long long)m->n, s->members[i].len, hex, m->bytes, m->sha256);
            return false;
        }
    }
    return true;
}

/* Time member i once, and its baseline too when `with_base`; the outcome that ends the
 * family, or PASS to go on. */
static smcj_cx_outcome_t time_once(conn_t *c, fam_state_t *s, size_t i, bool with_base,
                                   double timeout, char *note, size_t note_size)
{
    char status[32];
    smcj_cx_timing_t *tm = &s->t[i];
    if (!expand(s, i, note, note_size)) {
        return SMCJ_CX_UNMEASURED;
    }
    for (int which = 0; which < (with_base ? 2 : 1); which++) {
        const smct_buf_t *bytes = which ? &s->bases[i] : &s->members[i];
        uint64_t ns = 0;
        answer_t a = timed_decode(c, s->f, bytes, which, timeout, &ns, status, sizeof status);
        s->spent_ns += ns;
        if (a != ANS_OK) {
            const char *what =
                which ? "its baseline (a byte array of the same length)" : "the member";
            snprintf(note, note_size, "%s of %zu bytes (n=%llu): %s", what, bytes->len,
                     (unsigned long long)s->f->members[i].n,
                     a == ANS_TIMEOUT   ? "no answer in time"
                     : a == ANS_DIED    ? "the runner died"
                     : a == ANS_GARBLED ? "an answer that is not the protocol"
                                        : status);
            /* a clean refusal is the value vectors' business; no answer at all is a failure */
            return a == ANS_REFUSED && tm->runs == 0 && i == 0 ? SMCJ_CX_UNMEASURED : SMCJ_CX_FAIL;
        }
        if (which) {
            tm->base_best_ns = tm->base_runs == 0 || ns < tm->base_best_ns ? ns : tm->base_best_ns;
            tm->base_last_ns = ns;
            tm->base_runs++;
        } else {
            tm->best_ns = tm->runs == 0 || ns < tm->best_ns ? ns : tm->best_ns;
            tm->last_ns = ns;
            tm->runs++;
        }
    }
    tm->index = i;
    tm->bytes = s->members[i].len;
    return SMCJ_CX_PASS;
}

static void set_note(smcj_cx_result_t *res, const char *note)
{
    free(res->note);
    res->note = note && *note ? smcj_strdup(note) : NULL;
}

static void time_family(conn_t *c, fam_state_t *s, smcj_cx_result_t *res, double timeout)
{
    char note[512] = "";
    size_t lo = SIZE_MAX, hi = 0;
    const smcj_cx_family_t *f = s->f;
    for (size_t i = 0; i < f->n_members; i++) {
        smcj_cx_outcome_t o = time_once(c, s, i, false, timeout, note, sizeof note);
        res->sizes_probed = i + 1;
        if (o != SMCJ_CX_PASS) {
            res->outcome = o;
            set_note(res, note);
            if (o == SMCJ_CX_FAIL && i > 0) {
                char more[640];
                snprintf(more, sizeof more, "%s; the member half its size cost %.1f ms of CPU",
                         note, (double)s->t[i - 1].best_ns / 1e6);
                set_note(res, more);
            }
            return;
        }
        hi = i;
        lo = lo == SIZE_MAX && s->t[i].best_ns >= T_LO_NS ? i : lo;
        if ((lo != SIZE_MAX && i >= lo + 3) || s->t[i].best_ns >= T_CAP_NS) {
            break;
        }
    }
    if (lo == SIZE_MAX) {
        res->lo = res->hi = s->t[hi];
        res->outcome = SMCJ_CX_PASS;
        snprintf(note, sizeof note, "too fast to time: the largest member (%zu bytes) cost %.1f ms",
                 s->t[hi].bytes, (double)s->t[hi].best_ns / 1e6);
        set_note(res, note);
        return;
    }
    lo = smcj_cx_pick_lo(s->t, lo, hi);
    for (int round = 2; round <= MAX_ROUNDS && lo != hi; round++) {
        smcj_cx_outcome_t o = time_once(c, s, lo, true, timeout, note, sizeof note);
        o = o == SMCJ_CX_PASS ? time_once(c, s, hi, true, timeout, note, sizeof note) : o;
        if (o != SMCJ_CX_PASS) {
            res->outcome = o;
            set_note(res, note);
            return;
        }
        res->lo = s->t[lo];
        res->hi = s->t[hi];
        res->failed_rounds += smcj_cx_latest_fails(res);
        smcj_cx_judge(res);
        double allowed = smcj_cx_allowed_ratio(res->input_ratio);
        bool clear_pass = res->time_ratio < 0.75 * allowed && res->last_ratio < 0.75 * allowed;
        /* a failure near the line waiting for a second failing repetition is never cut
         * short by the budget (that would pass it unconfirmed); MAX_ROUNDS still bounds it */
        bool over_budget = s->spent_ns > FAMILY_BUDGET_NS && !smcj_cx_unconfirmed(res);
        if (res->outcome == SMCJ_CX_FAIL || clear_pass || over_budget) {
            break;
        }
    }
    res->lo = s->t[lo];
    res->hi = s->t[hi];
    smcj_cx_judge(res);
}

static void run_family(conn_t *c, const smcj_runner_t *r, const smcj_cx_family_t *f,
                       smcj_cx_result_t *res, double timeout)
{
    memset(res, 0, sizeof *res);
    if (!r->entry_ok[f->entry]) {
        res->outcome = SMCJ_CX_NA;
        set_note(res, f->entry == SMC_ENTRY_ENVELOPE ? "the runner has no envelope entry"
                                                     : "the runner has no message entry");
        return;
    }
    char err[512];
    if (!c->up && !conn_open(c, r, err, sizeof err)) {
        res->outcome = SMCJ_CX_UNMEASURED;
        set_note(res, err);
        return;
    }
    c->n_tree = smcj_cx_tree(c->io.proc.pid, c->tree, sizeof c->tree / sizeof c->tree[0]);
    fam_state_t s = {f, smcj_calloc(f->n_members, sizeof(smct_buf_t)),
                     smcj_calloc(f->n_members, sizeof(smct_buf_t)),
                     smcj_calloc(f->n_members, sizeof(smcj_cx_timing_t)), 0};
    if (s.members && s.bases && s.t) {
        time_family(c, &s, res, timeout);
    }
    res->cpu_seconds = (double)s.spent_ns / 1e9;
    for (size_t i = 0; s.members && s.bases && i < f->n_members; i++) {
        smct_buf_free(&s.members[i]);
        smct_buf_free(&s.bases[i]);
    }
    free(s.members);
    free(s.bases);
    free(s.t);
}

void smcj_cx_run(smcj_run_t *run, const smcj_cx_families_t *fs, double timeout)
{
    for (size_t ri = 0; ri < run->n_runners && !smcj_interrupted(); ri++) {
        smcj_runner_t *r = &run->runners[ri];
        if (!r->started || r->skip_reason) {
            continue;
        }
        smcj_cx_runner_t *cx = smcj_calloc(1, sizeof *cx);
        cx = cx ? cx : NULL;
        if (!cx || !(cx->r = smcj_calloc(fs->n ? fs->n : 1, sizeof *cx->r))) {
            free(cx);
            return;
        }
        r->complexity = cx;
        cx->n = fs->n;
        double t0 = smcj_now();
        conn_t c;
        memset(&c, 0, sizeof c);
        smcj_io_init(&c.io);
        for (size_t k = 0; k < fs->n && !smcj_interrupted(); k++) {
            run_family(&c, r, &fs->f[k], &cx->r[k], timeout);
            smcj_cx_result_t *res = &cx->r[k];
            cx->n_fail += res->outcome == SMCJ_CX_FAIL;
            cx->n_pass += res->outcome == SMCJ_CX_PASS;
            cx->n_unmeasured += res->outcome == SMCJ_CX_UNMEASURED;
            cx->n_na += res->outcome == SMCJ_CX_NA;
        }
        conn_close(&c);
        smcj_io_free(&c.io);
        cx->clock = smcj_cx_clock_name(c.clock);
        cx->seconds = smcj_now() - t0;
    }
}

void smcj_cx_runner_free(smcj_cx_runner_t *cx)
{
    for (size_t k = 0; cx && k < cx->n; k++) {
        free(cx->r[k].note);
    }
    if (cx) {
        free(cx->r);
        free(cx->problem);
    }
    free(cx);
}
