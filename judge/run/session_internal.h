/**
 * @file session_internal.h
 * @brief One runner's session, as the loop over all of them (session_loop.c) drives it:
 *        the protocol (session.c), the restart policy (session_policy.c) and the watch over
 *        its processes (session_watch.c). Internal to those files.
 */
#ifndef SMCJ_SESSION_INTERNAL_H
#define SMCJ_SESSION_INTERNAL_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "proc_scan.h"
#include "runner_io.h"
#include "session.h"

/* IDLE (skipped) or HELLO -> RUN -> BYE -> DONE; a restart goes back to HELLO, through
 * BACKOFF when the restarts before it got nothing done. */
typedef enum smcj_session_state {
    SMCJ_SESSION_IDLE = 0, /* not started (skipped runner) */
    SMCJ_SESSION_HELLO,    /* hello sent, waiting for the answer */
    SMCJ_SESSION_RUN,      /* requests flowing */
    SMCJ_SESSION_BYE,      /* bye sent, waiting for exit */
    SMCJ_SESSION_BACKOFF,  /* no process: waiting to start the next one */
    SMCJ_SESSION_DONE
} smcj_session_state_t;

/* The fds one session polls at most: the process's three, the spare's two, the dying ones. */
#define SMCJ_SESSION_FDS (5 + SMCJ_DYING_MAX)

/* Most processes of one runner the watch follows (sh, a wrapper, the codec, helpers). */
#define SMCJ_TREE_MAX 16

/* Pids a session has seen in its tree (session_tree.c): an escaped one is still its own. */
#define SMCJ_SEEN_MAX 64

/* The watch over a runner's processes (session_watch.c). */
typedef struct smcj_watch {
    pid_t tree[SMCJ_TREE_MAX]; /* the runner's process tree, root first, then what escaped it */
    size_t n_tree;
    size_t n_own;               /* tree[0..n_own): under the runner; the rest escaped it */
    pid_t roots[SMCJ_TREE_MAX]; /* the escaped ones that are children of the judge */
    size_t n_roots;
    double tree_at;           /* when `tree` was read (0: never for this process) */
    bool tree_read;           /* `tree` comes from /proc (else it is the started process alone) */
    double sample_at;         /* when the resident size was last summed */
    long sample_last_pid;     /* the last process id given out at that sum (0: unknown) */
    size_t n_fresh;           /* tree[n_tree - n_fresh..): found at that sum, counted by peak */
    double stdout_checked_at; /* wait_since of the request whose stdout was last checked */
    /* a length-bomb check in flight alone: the figures before it was sent */
    bool bomb;
    size_t bomb_check;
    pid_t before_pid[SMCJ_TREE_MAX]; /* the tree then */
    size_t n_before;
    long last_pid; /* the last process id given out then (-1: unknown) */
    smcj_mem_t before[SMCJ_TREE_MAX];
    uint64_t reaped_before[SMCJ_TREE_MAX]; /* faults of their reaped children then */
    bool have_before[SMCJ_TREE_MAX];
} smcj_watch_t;

/* The warm spare of a runner that has crashed (session_spare.c). */
typedef enum smcj_spare_state {
    SMCJ_SPARE_NONE = 0, /* none running (one is started after the next restart) */
    SMCJ_SPARE_HELLO,    /* started, hello sent */
    SMCJ_SPARE_READY,    /* answered hello: takes over at the next restart */
    SMCJ_SPARE_OFF       /* a spare failed its handshake: restarts start processes as they go */
} smcj_spare_state_t;

/* A crashed process finishing its death in the background (session_dying.c). */
typedef struct smcj_dying {
    bool used;
    smcj_runner_io_t io;
    size_t check; /* the check charged with the crash */
    char *what;
    double deadline;
} smcj_dying_t;

#define SMCJ_DYING_MAX 4

typedef struct smcj_session {
    smcj_runner_t *r;
    const smcj_vectors_t *vs;
    const smcj_session_cfg_t *cfg;
    smcj_runner_io_t io; /* the current process and its pipes */
    smcj_session_state_t state;
    bool first_start;
    size_t *order;  /* indices of the checks to send, in order */
    uint64_t *seqs; /* seq sent for order[k]; 0: decided without being sent */
    uint64_t *ends; /* for order[k] in flight: io.queued_total at the end of its line */
    size_t n_order;
    size_t head, next; /* in flight: order[head..next) */
    uint64_t seq;
    double wait_since;     /* when the oldest outstanding request started waiting */
    double head_since;     /* when it became the oldest (its total time is bounded from here) */
    uint64_t head_written; /* io.written_total then */
    double bye_deadline;
    double respawn_at;     /* BACKOFF: when to start the next process */
    unsigned fruitless;    /* restarts in a row that got no answer and charged nothing */
    unsigned timeouts_row; /* timeouts since the last SMCJ_TIMEOUT_ROW_RESET answers */
    size_t answers_since_timeout;
    size_t answers_this_process;
    uint8_t *vector_fails; /* per vector: failures charged to its checks (saturating) */
    unsigned generation;   /* bumped on every respawn: stale buffered lines are dropped */
    bool reaped_one;       /* a process ended since the last stray sweep */
    double t0;
    smc_arena_t arena; /* scratch for one response */
    smcj_watch_t watch;
    smcj_runner_io_t spare; /* a started process that waits to replace a crashed one */
    smcj_spare_state_t spare_state;
    double spare_since;
    smcj_dying_t dying[SMCJ_DYING_MAX];
    struct smcj_session *peers; /* every session of the run (this one among them) */
    size_t n_peers;
    pid_t seen[SMCJ_SEEN_MAX]; /* pids seen in its tree, the last SMCJ_SEEN_MAX */
    size_t n_seen;
} smcj_session_t;

/* ---- session.c: the protocol ---- */

/** Set up session `s` of runner `r` and, unless the runner is skipped, start it (P.1). */
void smcj_session_start(smcj_session_t *s, smcj_runner_t *r, const smcj_vectors_t *vs,
                        const smcj_session_cfg_t *cfg, double t0);

/** The oldest outstanding request changed (or hello was sent): its clocks start now. */
void smcj_session_new_head(smcj_session_t *s);

/** Start (or restart) the runner process and send hello (P.1); false with a message. */
bool smcj_session_spawn(smcj_session_t *s, char *err, size_t err_size);

/** True while the session has a runner to drive (not IDLE, not DONE). */
bool smcj_session_active(const smcj_session_t *s);

/** When the session next needs attention without input: a timeout, the bye deadline, the
 *  end of a back-off, the next memory sample. */
double smcj_session_deadline(const smcj_session_t *s);

/** Append the session's fds (its spare's, its dying processes') to poll to `pfd` (room for
 *  SMCJ_SESSION_FDS); how many. */
size_t smcj_session_poll_fds(const smcj_session_t *s, struct pollfd *pfd);

/** One turn after poll(): read stderr, write stdin, take stdout's lines, check timeouts and
 *  memory, end a back-off. */
void smcj_session_service(smcj_session_t *s, double t0);

/** Kill and reap whatever still runs, keep the runner's last stderr and wall time, free. */
void smcj_session_finish(smcj_session_t *s, double t0, double t1);

/** The first request not answered yet, after the ones decided without being sent. */
void smcj_session_skip_unsent(smcj_session_t *s);

/** A new process has answered hello: requests flow again (the queue is sent from its head). */
void smcj_session_resume(smcj_session_t *s);

/* ---- session_spare.c: a warm spare after a restart ---- */

/** Start a spare process and send it hello, unless one runs or spares are off. */
void smcj_spare_start(smcj_session_t *s);

/** Make the spare the session's process: true if there was one. A ready one (its hello
 *  answered) leaves the state alone, for the caller to resume; one still starting puts the
 *  session in HELLO, waiting for its answer. */
bool smcj_spare_take(smcj_session_t *s);

/** Its fds to poll (room for 2); how many. */
size_t smcj_spare_poll_fds(const smcj_session_t *s, struct pollfd *pfd);

/** Read its stderr (kept for when it takes over) and its hello answer; end a spare that does
 *  not answer within --start-timeout. */
void smcj_spare_service(smcj_session_t *s);

/** Kill and reap the spare, free its buffers. */
void smcj_spare_end(smcj_session_t *s);

/* ---- session_dying.c: crashed processes that finish dying in the background ---- */

/**
 * Move the session's crashed process to a free slot, where it may finish its crash report
 * (an AddressSanitizer report with symbolized frames takes a fifth of a second) while the
 * run goes on; check `ci` gets the exit status and the stderr excerpt when it is reaped.
 * False (nothing moved) when no slot is free.
 */
bool smcj_dying_park(smcj_session_t *s, size_t ci, const char *what);

/** Their stderr fds to poll (room for SMCJ_DYING_MAX); how many. */
size_t smcj_dying_poll_fds(const smcj_session_t *s, struct pollfd *pfd);

/** Read their stderr; finish those that exited (or were given a second and are killed). */
void smcj_dying_service(smcj_session_t *s);

/** The nearest deadline of a dying process (a large value when none). */
double smcj_dying_deadline(const smcj_session_t *s);

/** Wait for every dying process (at most its deadline), then finish it. */
void smcj_dying_end(smcj_session_t *s);

/** Append the pids of the dying processes to `live` (room for SMCJ_DYING_MAX); how many. */
size_t smcj_dying_pids(const smcj_session_t *s, pid_t *live);

/* ---- session_policy.c: failures, restarts, limits ---- */

/**
 * The runner crashed, hung, broke the protocol or overran its memory (P.4): charge the
 * request it was answering, kill the process, and start another one, or stop when a limit
 * is reached (session.h).
 */
void smcj_session_failure(smcj_session_t *s, smcj_reason_t reason, const char *what);

/** Fail every check not answered yet with `kind` and "why" (a limit), kill the process and
 *  end the session. `gave_up`: the runner could not complete a handshake. */
void smcj_session_stop(smcj_session_t *s, smcj_reason_t kind, const char *why, bool gave_up);

/** A request was answered (protocol-valid): the rows of failures end. */
void smcj_session_answered(smcj_session_t *s);

/** True if check `ci` must not be sent: its vector used up its restarts (it is then marked). */
bool smcj_session_vector_spent(smcj_session_t *s, size_t ci);

/* ---- session_tree.c: the processes a runner's memory is measured over ---- */

/** Read the runner's tree: the processes under its process, then the escaped ones that are
 *  its (seen in its tree before, or it runs alone), with their descendants. */
void smcj_tree_read(smcj_session_t *s, double now);

/** True if `pid`, a child of the judge no session runs, counts with session `s` (it was seen
 *  in its tree, or `s` runs alone). */
bool smcj_tree_owns_escaped(const smcj_session_t *s, pid_t pid);

/** Kill the escaped processes of the tree last read (children of the judge: the sweep reaps
 *  them); how many. */
size_t smcj_tree_kill_escaped(smcj_session_t *s);

/* ---- session_watch.c: the runner's processes ---- */

/** Forget what was read about the previous process (after a spawn). */
void smcj_watch_reset(smcj_session_t *s);

/** The runner answered hello: read its process tree (the codec's process exists now). */
void smcj_watch_started(smcj_session_t *s);

/** Sum the resident size of the runner's processes when due; true if over the limit (the
 *  caller charges `resource`), with the figures in `what`. */
bool smcj_watch_memory(smcj_session_t *s, double now, char *what, size_t what_size);

/** When the next memory sample is due (a large value when there is nothing to watch). */
double smcj_watch_next(const smcj_session_t *s);

/**
 * A request has waited long: true if the runner can no longer answer because it closed its
 * stdout while a parent shell keeps the pipe open (the last process of its tree does not
 * hold it), with the process in `what`.
 */
bool smcj_watch_stdout_closed(smcj_session_t *s, char *what, size_t what_size);

/** True if check `c` decodes a length-bomb vector (R15.2-3): it is sent alone and measured. */
bool smcj_watch_is_bomb(const smcj_session_t *s, const smcj_check_t *c);

/** Before sending length-bomb check `ci` alone: read the figures, reset the peaks. */
void smcj_watch_bomb_before(smcj_session_t *s, size_t ci);

/**
 * After its answer and verdict: measure the growth; true when it is far beyond the input
 * (the caller charges `resource` and replaces the process, whose peak address space can never
 * be reset: a later bomb would not show), with the figure in `what`.
 */
bool smcj_watch_bomb_after(smcj_session_t *s, char *what, size_t what_size);

#endif /* SMCJ_SESSION_INTERNAL_H */
