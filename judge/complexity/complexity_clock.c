/*
 * The CPU time of a runner's process tree (spec §15.4): the sum over its processes and their
 * threads of the time the scheduler ran them. CPU time barely moves when other processes
 * compete for the cores, where wall time doubles; the scheduler's per-thread figure
 * (/proc/PID/task/TID/schedstat, nanoseconds) is used where the kernel keeps it, else the
 * process's utime + stime (/proc/PID/stat, clock ticks of 10 ms).
 */
#define _POSIX_C_SOURCE 200809L
#include "complexity_clock.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc_scan.h"

static bool read_u64_line(const char *path, uint64_t *out)
{
    FILE *f = fopen(path, "r");
    unsigned long long v = 0;
    bool ok = f && fscanf(f, "%llu", &v) == 1;
    if (f) {
        fclose(f);
    }
    *out = v;
    return ok;
}

/* Every thread's run time of one process, in nanoseconds; false if schedstat is missing. */
static bool schedstat_ns(pid_t pid, uint64_t *sum)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(path);
    if (!d) {
        return false;
    }
    bool any = false;
    struct dirent *de;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] < '0' || de->d_name[0] > '9') {
            continue;
        }
        char p[128];
        uint64_t ns = 0;
        snprintf(p, sizeof p, "/proc/%d/task/%.20s/schedstat", (int)pid, de->d_name);
        if (read_u64_line(p, &ns)) {
            *sum += ns;
            any = true;
        }
    }
    closedir(d);
    return any;
}

/* utime + stime of a process (all its threads, living and dead), in nanoseconds. */
static bool stat_ns(pid_t pid, uint64_t *sum)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
    if (f) {
        fclose(f);
    }
    buf[n] = '\0';
    const char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    unsigned long long ut = 0, st = 0;
    if (!p ||
        sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2) {
        return false;
    }
    long hz = sysconf(_SC_CLK_TCK);
    *sum += (ut + st) * (uint64_t)(1000000000L / (hz > 0 ? hz : 100));
    return true;
}

size_t smcj_cx_tree(pid_t root, pid_t *tree, size_t max)
{
    smcj_pscan_t scan = {0};
    size_t n = smcj_pscan_take(&scan) ? smcj_pscan_tree(&scan, root, tree, max) : 0;
    if (n == 0 && max > 0) {
        tree[n++] = root;
    }
    return n;
}

bool smcj_cx_tree_cpu(const pid_t *tree, size_t n, smcj_cx_clock_t *clock, uint64_t *ns)
{
    uint64_t sum = 0;
    bool ok = false;
    for (size_t i = 0; i < n; i++) {
        bool got = *clock != SMCJ_CX_CLOCK_STAT && schedstat_ns(tree[i], &sum);
        if (!got && *clock == SMCJ_CX_CLOCK_UNKNOWN && i == 0) {
            *clock = SMCJ_CX_CLOCK_STAT; /* this kernel keeps no schedstat: ticks from now on */
        }
        got = got || (*clock == SMCJ_CX_CLOCK_STAT && stat_ns(tree[i], &sum));
        if (got && *clock == SMCJ_CX_CLOCK_UNKNOWN) {
            *clock = SMCJ_CX_CLOCK_SCHEDSTAT;
        }
        ok = ok || got;
    }
    *ns = sum;
    return ok;
}

const char *smcj_cx_clock_name(smcj_cx_clock_t clock)
{
    return clock == SMCJ_CX_CLOCK_SCHEDSTAT ? "CPU time of the runner's threads "
                                              "(/proc/PID/task/TID/schedstat)"
           : clock == SMCJ_CX_CLOCK_STAT    ? "CPU time of the runner's processes "
                                              "(/proc/PID/stat utime+stime, 10 ms ticks)"
                                            : "no CPU clock";
}
