/*
 * /proc readers for the judge (proc_scan.h). Linux only; elsewhere every reader reports
 * "unknown" and the judge runs without memory figures, stray sweeps and the closed-stdout
 * test (a runner that closes stdout and keeps running is then a timeout).
 */
#define _POSIX_C_SOURCE 200809L
#include "proc_scan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"

/* Read a small /proc file into buf (NUL-terminated); its length, or -1. */
static ssize_t read_small(const char *path, char *buf, size_t size)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    size_t got = 0;
    while (got + 1 < size) {
        ssize_t n = read(fd, buf + got, size - 1 - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        got += (size_t)n;
    }
    close(fd);
    buf[got] = '\0';
    return (ssize_t)got;
}

/* "pid (comm) S ppid pgrp session ...": comm may hold spaces and parentheses, so the fields
 * are counted from the last ')'. */
static bool parse_stat(const char *text, smcj_pinfo_t *out)
{
    const char *close = strrchr(text, ')');
    if (!close) {
        return false;
    }
    char state;
    long ppid, pgid, sid;
    if (sscanf(close + 1, " %c %ld %ld %ld", &state, &ppid, &pgid, &sid) != 4) {
        return false;
    }
    out->pid = (pid_t)atol(text);
    out->state = state;
    out->ppid = (pid_t)ppid;
    out->pgid = (pid_t)pgid;
    out->sid = (pid_t)sid;
    return true;
}

/* One buffer for every scan of the run, grown once to the number of processes and kept: the
 * judge scans /proc at moments that depend on timing (a sweep after each crash, a memory
 * sample), and allocations that depend on timing would make the allocation-failure tests
 * (tests/failalloc.c) count differently from run to run. */
static smcj_pinfo_t *g_scan;
static size_t g_scan_cap;

bool smcj_pscan_take(smcj_pscan_t *s)
{
    memset(s, 0, sizeof *s);
    DIR *d = opendir("/proc");
    if (!d) {
        return false;
    }
    if (!g_scan && !smcj_grow((void **)&g_scan, &g_scan_cap, 4096, sizeof *g_scan)) {
        closedir(d);
        return false; /* out of memory (recorded) */
    }
    s->p = g_scan;
    struct dirent *de;
    bool ok = true;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] < '1' || de->d_name[0] > '9') {
            continue;
        }
        char path[300], text[512];
        snprintf(path, sizeof path, "/proc/%s/stat", de->d_name);
        smcj_pinfo_t pi;
        if (read_small(path, text, sizeof text) <= 0 || !parse_stat(text, &pi)) {
            continue; /* gone meanwhile */
        }
        if (s->n == g_scan_cap) {
            if (!smcj_grow((void **)&g_scan, &g_scan_cap, s->n + 1, sizeof *g_scan)) {
                ok = false; /* out of memory (recorded) */
                break;
            }
            s->p = g_scan;
        }
        s->p[s->n++] = pi;
    }
    closedir(d);
    if (!ok) {
        smcj_pscan_free(s);
    }
    return ok;
}

void smcj_pscan_free(smcj_pscan_t *s)
{
    memset(s, 0, sizeof *s); /* the buffer stays for the next scan */
}

void smcj_pscan_release(void)
{
    free(g_scan);
    g_scan = NULL;
    g_scan_cap = 0;
}

bool smcj_pinfo_read(pid_t pid, smcj_pinfo_t *out)
{
    char path[64], text[512];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    return read_small(path, text, sizeof text) > 0 && parse_stat(text, out);
}

bool smcj_last_pid(long *out)
{
    char text[32];
    if (read_small("/proc/sys/kernel/ns_last_pid", text, sizeof text) <= 0) {
        return false;
    }
    char *end;
    *out = strtol(text, &end, 10);
    return end != text && *out > 0;
}

size_t smcj_pscan_tree(const smcj_pscan_t *s, pid_t root, pid_t *out, size_t max)
{
    size_t n = 0;
    if (max == 0 || root <= 0) {
        return 0;
    }
    out[n++] = root;
    for (size_t k = 0; k < n; k++) { /* breadth first: out[k]'s children go to the end */
        for (size_t i = 0; i < s->n && n < max; i++) {
            if (s->p[i].ppid == out[k] && s->p[i].pid != root) {
                out[n++] = s->p[i].pid;
            }
        }
    }
    return n;
}

bool smcj_pscan_only_child(const smcj_pscan_t *s, pid_t pid, pid_t *child)
{
    size_t found = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (s->p[i].ppid == pid) {
            *child = s->p[i].pid;
            found++;
        }
    }
    return found == 1;
}

/* "VmRSS:\t  1234 kB" → bytes; 0 when the field is absent (kernel threads, zombies). */
static uint64_t status_field(const char *text, const char *name)
{
    const char *p = strstr(text, name);
    if (!p) {
        return 0;
    }
    return (uint64_t)strtoull(p + strlen(name), NULL, 10) * 1024u;
}

bool smcj_mem_read(pid_t pid, smcj_mem_t *m)
{
    char path[64], text[4096];
    snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
    memset(m, 0, sizeof *m);
    if (read_small(path, text, sizeof text) <= 0) {
        return false;
    }
    m->rss = status_field(text, "\nVmRSS:");
    m->hwm = status_field(text, "\nVmHWM:");
    m->vm_size = status_field(text, "\nVmSize:");
    m->vm_peak = status_field(text, "\nVmPeak:");
    return m->vm_peak != 0;
}

uint64_t smcj_mem_rss(pid_t pid)
{
    char path[64], text[256];
    snprintf(path, sizeof path, "/proc/%ld/statm", (long)pid);
    unsigned long long size, resident;
    if (read_small(path, text, sizeof text) <= 0 ||
        sscanf(text, "%llu %llu", &size, &resident) != 2) {
        return 0;
    }
    long page = sysconf(_SC_PAGESIZE);
    return (uint64_t)resident * (uint64_t)(page > 0 ? page : 4096);
}

bool smcj_mem_faults(pid_t pid, uint64_t *own, uint64_t *reaped)
{
    char path[64], text[1024];
    snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
    *own = *reaped = 0;
    const char *close = read_small(path, text, sizeof text) > 0 ? strrchr(text, ')') : NULL;
    unsigned long long minflt, cminflt, majflt, cmajflt;
    /* after the comm: state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt */
    if (!close || sscanf(close + 1, " %*c %*d %*d %*d %*d %*d %*u %llu %llu %llu %llu", &minflt,
                         &cminflt, &majflt, &cmajflt) != 4) {
        return false;
    }
    long page = sysconf(_SC_PAGESIZE);
    uint64_t size = (uint64_t)(page > 0 ? page : 4096);
    *own = (uint64_t)(minflt + majflt) * size;
    *reaped = (uint64_t)(cminflt + cmajflt) * size;
    return true;
}

bool smcj_mem_reset_peak(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/clear_refs", (long)pid);
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        return false;
    }
    bool ok = write(fd, "5", 1) == 1; /* 5: reset the peak resident size (proc(5)) */
    close(fd);
    return ok;
}

bool smcj_fds_readable(pid_t pid)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/fd", (long)pid);
    DIR *d = opendir(path);
    if (!d) {
        return false;
    }
    closedir(d);
    return true;
}

bool smcj_holds_pipe(pid_t pid, uint64_t ino)
{
    char path[64], want[64];
    snprintf(path, sizeof path, "/proc/%ld/fd", (long)pid);
    snprintf(want, sizeof want, "pipe:[%llu]", (unsigned long long)ino);
    DIR *d = opendir(path);
    if (!d) {
        return false;
    }
    bool found = false;
    struct dirent *de;
    while (!found && (de = readdir(d)) != NULL) {
        if (de->d_name[0] < '0' || de->d_name[0] > '9') {
            continue;
        }
        char link[400], target[128];
        snprintf(link, sizeof link, "%s/%s", path, de->d_name);
        ssize_t n = readlink(link, target, sizeof target - 1);
        if (n > 0) {
            target[n] = '\0';
            found = strcmp(target, want) == 0;
        }
    }
    closedir(d);
    return found;
}

bool smcj_stdout_gone(pid_t pid)
{
    char path[64], target[64];
    snprintf(path, sizeof path, "/proc/%ld/fd/1", (long)pid);
    ssize_t n = readlink(path, target, sizeof target - 1);
    if (n < 0) {
        return errno == ENOENT && smcj_fds_readable(pid); /* fd 1 closed */
    }
    target[n] = '\0';
    return strcmp(target, "/dev/null") == 0;
}

/* The wait system calls by number, where the kernel shows no wait channel. */
static bool is_wait_syscall(long nr)
{
#if defined(__x86_64__)
    return nr == 61 || nr == 247; /* wait4, waitid */
#elif defined(__aarch64__) || (defined(__riscv) && __riscv_xlen == 64)
    return nr == 260 || nr == 95; /* wait4, waitid */
#elif defined(__i386__)
    return nr == 7 || nr == 114 || nr == 284; /* waitpid, wait4, waitid */
#else
    (void)nr;
    return false;
#endif
}

bool smcj_waits_for_child(pid_t pid)
{
    char path[64], text[256];
    snprintf(path, sizeof path, "/proc/%ld/wchan", (long)pid);
    if (read_small(path, text, sizeof text) > 0 && strcmp(text, "0") != 0) {
        return strncmp(text, "do_wait", 7) == 0;
    }
    snprintf(path, sizeof path, "/proc/%ld/syscall", (long)pid);
    if (read_small(path, text, sizeof text) > 0) {
        return is_wait_syscall(strtol(text, NULL, 10));
    }
    return false;
}
