/**
 * @file proc_scan.h
 * @brief What the judge reads about processes from /proc (Linux): the process tree of a
 *        runner, its memory, whether it still holds its stdout, and the judge's own children.
 *
 * The judge uses it to leave no process behind (strays, session.h), to enforce the memory
 * limit and measure the memory a decoder reserves (R1.4-9), and to tell a runner that closed
 * its stdout from one that hangs. Every function fails soft: where /proc is missing or a
 * process is gone, it returns false or 0 and the caller does without the figure.
 */
#ifndef SMCJ_PROC_SCAN_H
#define SMCJ_PROC_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/** One process as /proc/PID/stat shows it. */
typedef struct smcj_pinfo {
    pid_t pid, ppid, pgid, sid;
    char state; /* R, S, D, Z, ... */
} smcj_pinfo_t;

/** A snapshot of every process /proc lists. */
typedef struct smcj_pscan {
    smcj_pinfo_t *p;
    size_t n;
} smcj_pscan_t;

/** Take a snapshot; false (and an empty scan) when /proc cannot be read or out of memory.
 *  One snapshot at a time: each take reuses the buffer of the last. */
bool smcj_pscan_take(smcj_pscan_t *s);
void smcj_pscan_free(smcj_pscan_t *s);

/** Give back the snapshot buffer (at the end of a run). */
void smcj_pscan_release(void);

/**
 * The processes of the tree under `root` (root first, then breadth first), at most `max` of
 * them, written to `out`; returns how many. A process whose parent died was reparented and is
 * no longer in the tree (the judge is their subreaper: smcj_proc_sweep finds them).
 */
size_t smcj_pscan_tree(const smcj_pscan_t *s, pid_t root, pid_t *out, size_t max);

/** One process's /proc/PID/stat; false if it is gone. */
bool smcj_pinfo_read(pid_t pid, smcj_pinfo_t *out);

/** The last process id the kernel gave out (/proc/sys/kernel/ns_last_pid); false if unknown.
 *  The processes started between two readings have the ids between them (unless the ids
 *  wrapped around): they can be found without a scan of all of /proc. */
bool smcj_last_pid(long *out);

/** True if the snapshot shows `pid` with exactly one child, which it writes to `child`. */
bool smcj_pscan_only_child(const smcj_pscan_t *s, pid_t pid, pid_t *child);

/** Memory figures of one process, in bytes (/proc/PID/status). */
typedef struct smcj_mem {
    uint64_t rss;     /* VmRSS: resident now */
    uint64_t hwm;     /* VmHWM: peak resident (since start or the last reset) */
    uint64_t vm_size; /* VmSize: address space now */
    uint64_t vm_peak; /* VmPeak: peak address space */
} smcj_mem_t;

/** Read `pid`'s figures; false if it is gone or /proc does not say. */
bool smcj_mem_read(pid_t pid, smcj_mem_t *m);

/** Resident bytes of `pid` (/proc/PID/statm, cheap enough to read 50 times a second); 0 if
 *  unknown. */
uint64_t smcj_mem_rss(pid_t pid);

/** The memory `pid` made resident by page faults, in bytes (/proc/PID/stat: minflt and
 *  majflt times the page size): its own (`own`), and its waited-for children's (`reaped`: a
 *  child that decoded in a fork and was reaped leaves its faults there, and nothing else).
 *  A zombie still shows its own. False if `pid` is gone. */
bool smcj_mem_faults(pid_t pid, uint64_t *own, uint64_t *reaped);

/** Reset `pid`'s peak resident size to its current one (clear_refs 5); false if refused. */
bool smcj_mem_reset_peak(pid_t pid);

/** True if `pid` has an open fd on the pipe with inode `ino` (/proc/PID/fd); false if not,
 *  or if that cannot be read. */
bool smcj_holds_pipe(pid_t pid, uint64_t ino);

/** True if /proc/PID/fd of `pid` can be read (the holder test means something). */
bool smcj_fds_readable(pid_t pid);

/** True if `pid`'s stdout (fd 1) is closed or is /dev/null: it gave up its stdout. */
bool smcj_stdout_gone(pid_t pid);

/** True if `pid` is blocked waiting for a child (a shell running a command): its wait
 *  channel is do_wait, or it is in wait4/waitid (/proc/PID/wchan, /proc/PID/syscall). */
bool smcj_waits_for_child(pid_t pid);

#endif /* SMCJ_PROC_SCAN_H */
