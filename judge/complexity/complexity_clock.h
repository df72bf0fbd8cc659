/**
 * @file complexity_clock.h
 * @brief The CPU time of a runner's process tree, for the complexity check (spec §15.4).
 */
#ifndef SMCJ_COMPLEXITY_CLOCK_H
#define SMCJ_COMPLEXITY_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

typedef enum smcj_cx_clock {
    SMCJ_CX_CLOCK_UNKNOWN = 0, /* not read yet: the first read picks one */
    SMCJ_CX_CLOCK_SCHEDSTAT,   /* nanoseconds per thread */
    SMCJ_CX_CLOCK_STAT         /* clock ticks per process */
} smcj_cx_clock_t;

/** The processes of the tree under `root` (root first), at most `max`; at least root. Read
 *  once per family: a scan of all of /proc costs milliseconds on a busy machine. */
size_t smcj_cx_tree(pid_t root, pid_t *tree, size_t max);

/** The CPU time the processes `tree` have used, in nanoseconds; false if /proc says nothing.
 *  `clock` is picked on the first call and kept, so two readings are comparable. */
bool smcj_cx_tree_cpu(const pid_t *tree, size_t n, smcj_cx_clock_t *clock, uint64_t *ns);

/** What the reports say the time was measured with. */
const char *smcj_cx_clock_name(smcj_cx_clock_t clock);

#endif /* SMCJ_COMPLEXITY_CLOCK_H */
