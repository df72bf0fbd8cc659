/**
 * @file proc.h
 * @brief One runner child process: /bin/sh -c COMMAND with three non-blocking pipes, and
 *        the sweep that leaves no descendant of a runner alive.
 *
 * The child runs in a session (and process group) of its own so that killing the group also
 * kills whatever the shell started (runners are often `sh -c 'cd x && exec java ...'`), and
 * it has no controlling terminal. On Linux it dies with the judge (PR_SET_PDEATHSIG), and the
 * judge is the subreaper of everything it starts (PR_SET_CHILD_SUBREAPER): a grandchild
 * that calls setsid() or double-forks out of the group is reparented to the judge, not to
 * init, and smcj_proc_sweep kills it. Every pipe end the judge keeps is close-on-exec, so
 * one runner never inherits another runner's pipes (which would hide an EOF). SIGPIPE is
 * reset to its default in the child.
 */
#ifndef SMCJ_PROC_H
#define SMCJ_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

typedef struct smcj_proc {
    pid_t pid;       /* > 0 while a child exists (running or not yet reaped) */
    int in_fd;       /* judge → child stdin; -1 when closed */
    int out_fd;      /* child stdout → judge; -1 when closed */
    int err_fd;      /* child stderr → judge; -1 when closed */
    bool reaped;     /* waitpid collected the status */
    int wait_status; /* valid when reaped */
} smcj_proc_t;

/** A process record with no child and every fd -1. */
void smcj_proc_init(smcj_proc_t *p);

/** Start `/bin/sh -c command`. False with a message (fork/pipe failure) otherwise. */
bool smcj_proc_spawn(smcj_proc_t *p, const char *command, char *err, size_t err_size);

/**
 * The program a runner command starts, as written (a path or a name looked up on PATH), when
 * the command is one simple command whose first word the shell would not rewrite; false
 * otherwise (`cd x && ...`, `$JAVA ...`): then only starting it can tell.
 */
bool smcj_proc_program(const char *command, char *out, size_t out_size);

/**
 * Run every later command after `words` (the sandbox's: `bwrap OPTIONS --`, sandbox.h, ending
 * with NULL; they must live until the last spawn), or as they are with NULL. A direct command
 * follows the words as its argv, any other as /bin/sh -c LINE.
 */
void smcj_proc_set_wrapper(char *const *words);

/** Close the child's stdin (the runner sees EOF). */
void smcj_proc_close_stdin(smcj_proc_t *p);

/** Non-blocking reap; true once the child's status is known. */
bool smcj_proc_try_reap(smcj_proc_t *p);

/**
 * Wait up to `seconds` for the child to exit on its own (after `bye` or a closed stdin),
 * then SIGKILL its process group; always reaps and closes every fd.
 */
void smcj_proc_finish(smcj_proc_t *p, double seconds);

/** SIGKILL the child's process group now and reap it; the pipes stay open (to drain stderr). */
void smcj_proc_terminate(smcj_proc_t *p);

/** SIGKILL the child's process group now, reap it and close every fd. */
void smcj_proc_kill(smcj_proc_t *p);

/** "exit status 3", "killed by signal 11 (SIGSEGV)", or "still running". */
void smcj_proc_describe_status(const smcj_proc_t *p, char *out, size_t out_size);

/**
 * Make the judge the subreaper of its descendants (`on`), remembering the children it already
 * has (never touched by a sweep); `off` restores the previous setting. Linux only; elsewhere a
 * no-op (an escaped grandchild is then init's).
 */
void smcj_proc_adopt_orphans(bool on);

/**
 * Kill and reap every child of the judge that is not in `live` (the runner processes still
 * in use) and did not exist before smcj_proc_adopt_orphans(true): the descendants of runners
 * that escaped their process group and were reparented to the judge. Repeats until none is
 * left (at most 32 rounds). Returns how many it killed.
 */
size_t smcj_proc_sweep(const pid_t *live, size_t n_live);

/** True if `pid` was a child of the judge before smcj_proc_adopt_orphans(true): not a
 *  runner's, never swept nor counted in a runner's memory. */
bool smcj_proc_is_foreign(pid_t pid);

/** Monotonic seconds. */
double smcj_now(void);

/** Ignore SIGPIPE in the judge (a dead runner's pipe gives EPIPE, not death). */
void smcj_ignore_sigpipe(void);

/**
 * Catch SIGINT/SIGTERM/SIGHUP so the judge can kill its runners (they live in their own
 * process groups and would not see a terminal's ^C) before it exits; `restore` puts the
 * previous handlers back.
 */
void smcj_catch_interrupts(bool restore);

/** The signal that interrupted the run, or 0. */
int smcj_interrupted(void);

#endif /* SMCJ_PROC_H */
