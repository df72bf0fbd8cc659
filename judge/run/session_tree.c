/*
 * The process tree a runner's memory is measured over (session_internal.h): the processes
 * under the one the judge started, and the ones that escaped it.
 *
 * A runner's memory is its whole tree's, not its first process's (spec R1.4-9): a runner that
 * decodes in a forked child, or leaves a setsid() grandchild holding memory, must not hide
 * what they hold. A grandchild whose parent exited is reparented to the judge (its
 * subreaper, proc.h) and leaves the tree under the runner; it is counted with the runner that
 * had it in its tree before (the pids each session has seen), or, when one runner runs alone,
 * with that runner: there is nobody else it can belong to. With several runners at once, an
 * escaped process none of them was seen holding is counted for none (the stray sweep still
 * kills it).
 *
 * Where the machine offers it, a cgroup would count this without a scan; the judge does not
 * create one: an unprivileged CI job is not delegated a cgroup v2 subtree to create it in, and
 * a hybrid (v1 memory) machine has no v2 memory controller. The scan is what works on both.
 */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "proc.h"
#include "proc_scan.h"
#include "session_internal.h"

static bool has(const pid_t *list, size_t n, pid_t pid)
{
    for (size_t i = 0; i < n; i++) {
        if (list[i] == pid) {
            return true;
        }
    }
    return false;
}

static void remember(smcj_session_t *s, pid_t pid)
{
    if (!has(s->seen, s->n_seen < SMCJ_SEEN_MAX ? s->n_seen : SMCJ_SEEN_MAX, pid)) {
        s->seen[s->n_seen++ % SMCJ_SEEN_MAX] = pid;
    }
}

static bool seen(const smcj_session_t *s, pid_t pid)
{
    return has(s->seen, s->n_seen < SMCJ_SEEN_MAX ? s->n_seen : SMCJ_SEEN_MAX, pid);
}

/* A process some session runs (its runner, its spare, a dying one): not a stray. */
static bool runs_it(const smcj_session_t *peer, pid_t pid)
{
    pid_t dying[SMCJ_DYING_MAX];
    size_t n = smcj_dying_pids(peer, dying);
    return peer->io.proc.pid == pid || peer->spare.proc.pid == pid || has(dying, n, pid);
}

static bool is_stray(const smcj_session_t *s, pid_t pid)
{
    if (smcj_proc_is_foreign(pid)) {
        return false;
    }
    for (size_t i = 0; i < s->n_peers; i++) {
        if (runs_it(&s->peers[i], pid)) {
            return false;
        }
    }
    return s->n_peers > 0;
}

static bool runs_alone(const smcj_session_t *s)
{
    size_t active = 0;
    for (size_t i = 0; i < s->n_peers; i++) {
        active += smcj_session_active(&s->peers[i]);
    }
    return active == 1 && smcj_session_active(s);
}

void smcj_tree_read(smcj_session_t *s, double now)
{
    smcj_watch_t *w = &s->watch;
    smcj_pscan_t scan;
    w->n_tree = w->n_own = w->n_roots = 0;
    w->tree_at = now;
    w->tree_read = true;
    if (!smcj_pscan_take(&scan)) {
        return;
    }
    w->n_tree = smcj_pscan_tree(&scan, s->io.proc.pid, w->tree, SMCJ_TREE_MAX);
    w->n_own = w->n_tree;
    for (size_t i = 1; i < w->n_tree; i++) {
        remember(s, w->tree[i]);
    }
    pid_t judge = getpid();
    bool alone = runs_alone(s);
    for (size_t i = 0; i < scan.n && w->n_tree < SMCJ_TREE_MAX; i++) {
        const smcj_pinfo_t *p = &scan.p[i];
        if (p->ppid != judge || !is_stray(s, p->pid) || !(alone || seen(s, p->pid))) {
            continue;
        }
        size_t first = w->n_tree;
        w->roots[w->n_roots++] = p->pid;
        w->n_tree += smcj_pscan_tree(&scan, p->pid, w->tree + first, SMCJ_TREE_MAX - first);
        for (size_t k = first; k < w->n_tree; k++) {
            remember(s, w->tree[k]);
        }
    }
    smcj_pscan_free(&scan);
}

bool smcj_tree_owns_escaped(const smcj_session_t *s, pid_t pid)
{
    return is_stray(s, pid) && (runs_alone(s) || seen(s, pid));
}

size_t smcj_tree_kill_escaped(smcj_session_t *s)
{
    smcj_watch_t *w = &s->watch;
    /* the roots only: children of the judge, whose pids cannot be reused before the judge
     * reaps them; what they started is reparented to the judge and swept */
    for (size_t i = 0; i < w->n_roots; i++) {
        kill(w->roots[i], SIGKILL);
    }
    size_t n = w->n_roots;
    w->n_tree = w->n_own;
    w->n_roots = 0;
    return n;
}
