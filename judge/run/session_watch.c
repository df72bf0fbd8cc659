/*
 * The watch over a runner's processes (session_internal.h), from /proc (proc_scan.h):
 *
 *  - the memory limit: the resident size of the runner's process tree (session_tree.c: with
 *    the processes that escaped it) is summed every
 *    SAMPLE_EVERY seconds while it works; over --memory-limit, the request it is answering
 *    is charged `resource` and the process is replaced. Resident, not virtual, memory is
 *    what takes a machine down, and the JVM, Swift and every AddressSanitizer build reserve
 *    terabytes of address space they never touch (an RLIMIT_AS or RLIMIT_DATA limit would
 *    stop them at start);
 *  - length bombs (R15.2-3): a decode of a vector whose rules say the decoder must not
 *    allocate for a size it has not checked is sent alone; the peak address space and the
 *    peak resident size of every process of the runner's tree are read before and after it
 *    (the resident peak reset first), with the page faults of the children its processes
 *    reaped meanwhile (a decode in a forked child) and of the processes new since, and a
 *    growth of the tree, summed over its processes, far beyond the input (R1.4-9) fails the check
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
#include <unistd.h>

#include "alloc.h"
#include "proc_scan.h"
#include "session_internal.h"

#define SAMPLE_EVERY 0.02 /* seconds between two sums of the resident size */
#define TREE_EVERY   0.5  /* seconds between two reads of the process tree */
#define NEW_PIDS_MAX 4096 /* most process ids given out during a bomb that are looked at */

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
    smcj_tree_read(s, now); /* session_tree.c: with what escaped the runner */
}

void smcj_watch_started(smcj_session_t *s)
{
    /* Until the tree is first read (TREE_EVERY from now: a /proc scan per restart would cost a
     * runner that crashes on every vector more than its restarts), the process the judge
     * started is the tree; a shell that runs the codec as its child shows its child then. */
    s->watch.n_tree = s->watch.n_own = 1;
    s->watch.n_roots = 0;
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

/*
 * The processes the tree gained since the last sum: the ids given out meanwhile whose parent
 * is in the tree (a fork per request, which may live less than a tree read's TREE_EVERY).
 * Seen within SAMPLE_EVERY of its start, such a child is counted by its peak (VmHWM): what it
 * held at most since it started. A child that starts and exits between two sums is not seen
 * (judge/README.md, "Memory": the residual). With too many ids given out (a busy machine),
 * none is looked at: the next tree read finds the ones alive.
 */
static void add_fresh(smcj_session_t *s)
{
    smcj_watch_t *w = &s->watch;
    long last;
    w->n_fresh = 0;
    if (!smcj_last_pid(&last)) {
        return;
    }
    long from = w->sample_last_pid;
    w->sample_last_pid = last;
    if (from <= 0 || last <= from || last - from > NEW_PIDS_MAX) {
        return;
    }
    for (long pid = from + 1; pid <= last && w->n_tree < SMCJ_TREE_MAX; pid++) {
        smcj_pinfo_t p;
        bool known = false;
        for (size_t i = 0; i < w->n_tree && !known; i++) {
            known = w->tree[i] == (pid_t)pid;
        }
        if (known || !smcj_pinfo_read((pid_t)pid, &p)) {
            continue;
        }
        for (size_t i = 0; i < w->n_tree; i++) {
            if (w->tree[i] == p.ppid) {
                w->tree[w->n_tree++] = (pid_t)pid;
                w->n_fresh++;
                break;
            }
        }
    }
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
    add_fresh(s);
    uint64_t sum = 0;
    for (size_t i = 0; i < s->watch.n_tree; i++) {
        smcj_mem_t m;
        bool fresh = i >= s->watch.n_tree - s->watch.n_fresh;
        sum += fresh && smcj_mem_read(s->watch.tree[i], &m) ? (m.hwm > m.rss ? m.hwm : m.rss)
                                                            : smcj_mem_rss(s->watch.tree[i]);
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
    /* the escaped ones are not in the process group the failure kills */
    size_t escaped = smcj_tree_kill_escaped(s);
    s->r->strays += escaped;
    snprintf(what, what_size,
             "the runner's processes held %s of resident memory, over --memory-limit %s "
             "(killed%s; spec R1.4-9)",
             got, lim, escaped ? ", with the ones that escaped its process group" : "");
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
    /* the processes started from here on have the ids after this one (no scan of /proc per
     * bomb: a full scan reads every process of the machine) */
    if (!smcj_last_pid(&w->last_pid)) {
        w->last_pid = -1;
    }
    w->bomb = true;
    w->bomb_check = ci;
    w->n_before = w->n_tree;
    for (size_t i = 0; i < w->n_tree; i++) {
        uint64_t own;
        w->before_pid[i] = w->tree[i];
        smcj_mem_reset_peak(w->tree[i]); /* the resident peak from here on */
        w->have_before[i] = smcj_mem_read(w->tree[i], &w->before[i]) &&
                            smcj_mem_faults(w->tree[i], &own, &w->reaped_before[i]);
    }
}

static bool in_tree(const smcj_watch_t *w, pid_t pid)
{
    for (size_t i = 0; i < w->n_tree; i++) {
        if (w->tree[i] == pid) {
            return true;
        }
    }
    return false;
}

/* The tree after a bomb: the processes there before, and those started since (the ids given
 * out meanwhile) whose parent is in the tree, or that escaped to the judge and are the
 * runner's. With the ids wrapped around, or too many given out (a busy machine), no new
 * process is counted: only the children reaped meanwhile, by their faults. */
static void find_new(smcj_session_t *s)
{
    smcj_watch_t *w = &s->watch;
    memcpy(w->tree, w->before_pid, w->n_before * sizeof w->tree[0]);
    w->n_tree = w->n_before;
    long last;
    if (w->last_pid < 0 || !smcj_last_pid(&last) || last < w->last_pid ||
        last - w->last_pid > NEW_PIDS_MAX) {
        return;
    }
    pid_t judge = getpid();
    for (long pid = w->last_pid + 1; pid <= last && w->n_tree < SMCJ_TREE_MAX; pid++) {
        smcj_pinfo_t p;
        if (smcj_pinfo_read((pid_t)pid, &p) &&
            (in_tree(w, p.ppid) || (p.ppid == judge && smcj_tree_owns_escaped(s, p.pid)))) {
            w->tree[w->n_tree++] = p.pid;
        }
    }
}

static size_t index_before(const smcj_watch_t *w, pid_t pid)
{
    for (size_t i = 0; i < w->n_before; i++) {
        if (w->before_pid[i] == pid) {
            return i;
        }
    }
    return SIZE_MAX;
}

static uint64_t above(uint64_t now, uint64_t then)
{
    return now > then ? now - then : 0;
}

/* The growth of the runner's tree across a length-bomb check, in `growth` (the larger of the
 * address space reserved and the memory made resident, summed over the processes) and
 * `resident`; false if nothing could be measured. A process there before counts by its
 * peaks, and by the faults of the children it reaped meanwhile (a decode in a fork leaves
 * nothing else); a process new since counts by its own faults (a fork shares its parent's
 * pages until it touches them) and the address space it holds beyond its parent's. */
static bool tree_growth(smcj_session_t *s, uint64_t *growth, uint64_t *resident)
{
    smcj_watch_t *w = &s->watch;
    bool measured = false;
    *growth = *resident = 0;
    for (size_t i = 0; i < w->n_tree; i++) {
        smcj_mem_t after;
        uint64_t own, reaped;
        bool mem = smcj_mem_read(w->tree[i], &after); /* false for a zombie */
        if (!smcj_mem_faults(w->tree[i], &own, &reaped)) {
            continue; /* gone */
        }
        size_t b = index_before(w, w->tree[i]);
        uint64_t vm, res;
        if (b != SIZE_MAX) {
            if (!w->have_before[b] || !mem) {
                continue;
            }
            measured = true;
            uint64_t children = above(reaped, w->reaped_before[b]);
            vm = above(after.vm_peak, w->before[b].vm_peak);
            res = above(after.hwm, w->before[b].rss) + children;
            vm += children;
        } else {
            /* a fork starts with the address space of the runner's process (before[0]) */
            uint64_t base = w->n_before && w->have_before[0] ? w->before[0].vm_size : 0;
            res = own;
            vm = mem ? above(after.vm_peak, base) : 0;
        }
        *growth += vm > res ? vm : res;
        *resident += res;
    }
    return measured;
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
    uint64_t growth, resident;
    find_new(s);
    if (!tree_growth(s, &growth, &resident)) {
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
    /* Say which figure it is: reserving address space (a malloc of the declared size that is
     * never touched) is what a length bomb does first, and the resident peak may stay small. */
    char got[32], res[32];
    smcj_format_bytes(growth, got, sizeof got);
    smcj_format_bytes(resident, res, sizeof res);
    snprintf(what, what_size,
             "the decoder took %s more memory (%s; resident peak %s more) for a %zu-byte input "
             "whose sizes it must check before allocating (spec R15.2-3, R1.4-9); its answer: "
             "%.200s",
             got, growth > resident ? "address space reserved" : "resident", res, len,
             c->outcome == SMCJ_OUT_PASS ? "right" : smcj_or_empty(c->detail));
    return true;
}
