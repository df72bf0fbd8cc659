/*
 * The watch over a runner's processes (session_internal.h), from /proc (proc_scan.h):
 *
 *  - the memory limit: the resident size of the runner's process tree is summed every
 *    SAMPLE_EVERY seconds while it works; over --memory-limit, the request it is answering
 *    is charged `resource` and the process is replaced. Resident, not virtual, memory is
 *    what takes a machine down, and the JVM, Swift and every AddressSanitizer build reserve
 *    terabytes of address space they never touch (an RLIMIT_AS or RLIMIT_DATA limit would
 *    stop them at start);
 *  - length bombs (R15.2-3): a decode of a vector whose rules say the decoder must not
 *    allocate for a size it has not checked is sent alone; the peak address space and the
 *    peak resident size of every process of the runner are read before and after it (the
 *    resident peak reset first), and a growth far beyond the input (R1.4-9) fails the check
 *    as `resource`, with the figure. A decoder that callocs 2 GiB for a 6-byte input and then
 *    reports `truncated` no longer passes;
 *  - a closed stdout: a runner started through a shell that does not exec it can close its
 *    stdout and go on running while the shell keeps the pipe open, so the judge sees no EOF.
 *    When every process still holding the pipe waits for a child, and a process of the tree
 *    has given up its stdout (closed it, or exited), nobody can answer: that is a crash.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "proc_scan.h"
#include "session_internal.h"

#define SAMPLE_EVERY 0.02 /* seconds between two sums of the resident size */
#define TREE_EVERY   0.5  /* seconds between two reads of the process tree */

void smcj_watch_reset(smcj_session_t *s)
{
    memset(&s->watch, 0, sizeof s->watch);
    s->watch.stdout_checked_at = -1;
}

static bool alive(const smcj_session_t *s)
{
    return s->io.proc.pid > 0 && !s->io.proc.reaped;
}

static void refresh_tree(smcj_session_t *s, double now)
{
    smcj_pscan_t scan;
    s->watch.n_tree = 0;
    s->watch.tree_at = now;
    s->watch.tree_read = true;
    if (smcj_pscan_take(&scan)) {
        s->watch.n_tree = smcj_pscan_tree(&scan, s->io.proc.pid, s->watch.tree, SMCJ_TREE_MAX);
        smcj_pscan_free(&scan);
    }
}

void smcj_watch_started(smcj_session_t *s)
{
    /* Until the tree is first read (TREE_EVERY from now: a /proc scan per restart would cost a
     * runner that crashes on every vector more than its restarts), the process the judge
     * started is the tree; a shell that runs the codec as its child shows its child then. */
    s->watch.n_tree = 1;
    s->watch.tree[0] = s->io.proc.pid;
    s->watch.tree_at = smcj_now();
}

double smcj_watch_next(const smcj_session_t *s)
{
    if (!s->cfg->memory_limit || !alive(s)) {
        return smcj_now() + 1.0;
    }
    return s->watch.sample_at + SAMPLE_EVERY;
}

bool smcj_watch_memory(smcj_session_t *s, double now, char *what, size_t what_size)
{
    uint64_t limit = s->cfg->memory_limit;
    if (!limit || !alive(s) || now < s->watch.sample_at + SAMPLE_EVERY) {
        return false;
    }
    s->watch.sample_at = now;
    if (s->watch.tree_at == 0) {
        /* a process still starting (it has not answered hello): itself, for now, as after
         * its hello; a /proc scan here would come with every restart */
        smcj_watch_started(s);
    } else if (now >= s->watch.tree_at + TREE_EVERY) {
        refresh_tree(s, now);
    }
    uint64_t sum = 0;
    for (size_t i = 0; i < s->watch.n_tree; i++) {
        sum += smcj_mem_rss(s->watch.tree[i]);
    }
    if (sum > s->r->peak_rss) {
        s->r->peak_rss = sum;
    }
    if (sum <= limit) {
        return false;
    }
    char got[32], lim[32];
    smcj_format_bytes(sum, got, sizeof got);
    smcj_format_bytes(limit, lim, sizeof lim);
    snprintf(what, what_size,
             "the runner's processes held %s of resident memory, over --memory-limit %s "
             "(killed; spec R1.4-9)",
             got, lim);
    return true;
}

bool smcj_watch_stdout_closed(smcj_session_t *s, char *what, size_t what_size)
{
    struct stat st;
    if (!alive(s) || s->io.proc.out_fd < 0 || fstat(s->io.proc.out_fd, &st) != 0) {
        return false;
    }
    smcj_pscan_t scan;
    if (!smcj_pscan_take(&scan)) {
        return false;
    }
    pid_t tree[SMCJ_TREE_MAX];
    size_t n = smcj_pscan_tree(&scan, s->io.proc.pid, tree, SMCJ_TREE_MAX);
    bool holders_wait = smcj_fds_readable(s->io.proc.pid);
    pid_t gone = 0;
    char gone_state = 0;
    for (size_t i = 0; i < n && holders_wait; i++) {
        char state = 0;
        for (size_t k = 0; k < scan.n; k++) {
            state = scan.p[k].pid == tree[i] ? scan.p[k].state : state;
        }
        if (state == 'Z') {
            gone = gone ? gone : tree[i];
            gone_state = gone == tree[i] ? 'Z' : gone_state;
        } else if (smcj_holds_pipe(tree[i], (uint64_t)st.st_ino)) {
            holders_wait = smcj_waits_for_child(tree[i]);
        } else if (!gone && smcj_stdout_gone(tree[i])) {
            gone = tree[i];
        }
    }
    smcj_pscan_free(&scan);
    if (!holders_wait || !gone) {
        return false;
    }
    snprintf(what, what_size,
             "the runner %s (process %ld) while the shell that started it keeps the pipe "
             "open: nobody can answer",
             gone_state == 'Z' ? "exited" : "closed its stdout and runs on", (long)gone);
    return true;
}

/* spec R15.2-3: the rule of the vectors whose declared sizes the input cannot hold. */
static bool is_length_bomb(const smcj_vector_t *v)
{
    for (size_t i = 0; i < v->n_requirements; i++) {
        if (strcmp(v->requirements[i], "R15.2-3") == 0) {
            return true;
        }
    }
    return false;
}

bool smcj_watch_is_bomb(const smcj_session_t *s, const smcj_check_t *c)
{
    return c->kind != SMCJ_CHECK_ENCODE && c->kind != SMCJ_CHECK_HANDSHAKE &&
           is_length_bomb(&s->vs->v[c->vector]);
}

void smcj_watch_bomb_before(smcj_session_t *s, size_t ci)
{
    smcj_watch_t *w = &s->watch;
    if (!alive(s)) {
        return;
    }
    double now = smcj_now();
    if (now >= w->tree_at + TREE_EVERY || !w->tree_read) {
        refresh_tree(s, now); /* a shell with the codec as its child: find the child */
    }
    w->bomb = true;
    w->bomb_check = ci;
    for (size_t i = 0; i < w->n_tree; i++) {
        smcj_mem_reset_peak(w->tree[i]); /* the resident peak from here on */
        w->have_before[i] = smcj_mem_read(w->tree[i], &w->before[i]);
    }
}

/* The input the check hands the decoder. */
static size_t input_len(const smcj_vector_t *v, const smcj_check_t *c)
{
    if (c->kind == SMCJ_CHECK_ACCEPT || c->kind == SMCJ_CHECK_ACCEPT_STRICT) {
        return v->accepted[c->index].len;
    }
    return v->is_valid ? v->canonical_len : v->len;
}

bool smcj_watch_bomb_after(smcj_session_t *s, char *what, size_t what_size)
{
    smcj_watch_t *w = &s->watch;
    smcj_runner_t *r = s->r;
    smcj_check_t *c = &r->checks[w->bomb_check];
    w->bomb = false;
    uint64_t growth = 0;
    bool measured = false;
    for (size_t i = 0; i < w->n_tree; i++) {
        smcj_mem_t after;
        if (!w->have_before[i] || !smcj_mem_read(w->tree[i], &after)) {
            continue;
        }
        measured = true;
        const smcj_mem_t *b = &w->before[i];
        uint64_t vm = after.vm_peak > b->vm_peak ? after.vm_peak - b->vm_peak : 0;
        uint64_t res = after.hwm > b->rss ? after.hwm - b->rss : 0;
        growth = vm > growth ? vm : growth;
        growth = res > growth ? res : growth;
    }
    if (!measured) {
        return false;
    }
    r->bombs_measured++;
    if (growth > r->bomb_growth || r->bomb_vector == SIZE_MAX) {
        r->bomb_growth = growth;
        r->bomb_vector = c->vector;
    }
    size_t len = input_len(&s->vs->v[c->vector], c);
    if (growth <= SMCJ_BOMB_SLACK + (uint64_t)len * SMCJ_BOMB_PER_BYTE) {
        return false;
    }
    char got[32];
    smcj_format_bytes(growth, got, sizeof got);
    snprintf(what, what_size,
             "the decoder took %s more memory for a %zu-byte input whose sizes it must check "
             "before allocating (spec R15.2-3, R1.4-9); its answer: %.200s",
             got, len, c->outcome == SMCJ_OUT_PASS ? "right" : smcj_or_empty(c->detail));
    return true;
}
