/*
 * A codec for the C runner kit (runners/c) that is the reference codec with one of the faults
 * real C codecs have, chosen by the environment variable SMC_HOSTILE, for the judge's
 * robustness tests (issue 15; tests/test_hostile.py):
 *
 *   crash-permille=N  die by SIGSEGV on the inputs whose FNV-1a hash is below N per mille (a
 *                     codec that crashes on about N/10 % of the vectors), first appending the
 *                     input's hex to the file $SMC_HOSTILE_LOG
 *   over-read         read the byte just past the input on every decode (the kit places the
 *                     input at the very end of its allocation: AddressSanitizer reports it)
 *   bomb              allocate and fill the size an input declares before comparing it with
 *                     the bytes there are (a length bomb taken at its word, R15.2-3)
 *   reserve           allocate that size with calloc and never touch it, then free it and go
 *                     on: the "2 GiB for a 6-byte string header" decoder, which then reports
 *                     the right error
 *   fork-bomb         decode a length bomb in a forked child (a runner isolating its crashes)
 *                     that allocates and fills what the input declares, at most 400 MiB, and
 *                     is reaped before the answer: its memory is gone when the answer comes
 *   setsid-hold=MIB   at start, leave a grandchild in a session of its own (setsid) that
 *                     holds MIB MiB of resident memory until it is killed; its parent exits,
 *                     so it is reparented to the judge and leaves the runner's tree
 *
 * Everything else is the reference's: the reference runner file is compiled in here with
 * its smc_runner_codec() renamed. Like alias_codec.c it exists for the judge's tests (it
 * lives with the kit it plugs into, which the judge's layer may not include).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "smc_runner_codec.h"

/* the reference's entry point, under another name: this file defines smc_runner_codec() */
const smc_runner_codec_t *smc_hostile_reference_codec(void);
#define smc_runner_codec smc_hostile_reference_codec
#include "smc_runner_reference.c"
#undef smc_runner_codec

typedef enum fault {
    FAULT_NONE,
    FAULT_CRASH,
    FAULT_OVER_READ,
    FAULT_BOMB,
    FAULT_RESERVE,
    FAULT_FORK_BOMB
} fault_t;

static fault_t g_fault;
static void *volatile g_sink; /* what the faults allocate goes here: no compiler elides them */
static unsigned g_permille;
static const smc_runner_codec_t *g_ref;

static uint32_t fnv1a(const uint8_t *p, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h = (h ^ p[i]) * 16777619u;
    }
    return h;
}

static void log_and_crash(const uint8_t *data, size_t len)
{
    const char *path = getenv("SMC_HOSTILE_LOG");
    FILE *f = path ? fopen(path, "a") : NULL;
    if (f) {
        for (size_t i = 0; i < len; i++) {
            fprintf(f, "%02x", data[i]);
        }
        fputc('\n', f);
        fclose(f);
    }
    fprintf(stderr, "hostile codec: crashing on a %zu-byte input\n", len);
    fflush(stderr);
    raise(SIGSEGV);
}

/* The byte count the input's first size declares (spec §2.2: 254 → u16, 255 → u32), times
 * the element width of its tag; 0 when the first value has no size. */
static uint64_t declared(const uint8_t *d, size_t len)
{
    static const unsigned width[16] = {0, 0, 0, 0, 0, 0, 0, 1, 1, 4, 8, 8, 1, 2, 4, 0};
    if (len < 2 || d[0] >= 16 || width[d[0]] == 0) {
        return 0;
    }
    uint64_t n = d[1];
    if (d[1] == 254 && len >= 4) {
        n = (uint64_t)d[2] | (uint64_t)d[3] << 8;
    } else if (d[1] == 255 && len >= 6) {
        n = (uint64_t)d[2] | (uint64_t)d[3] << 8 | (uint64_t)d[4] << 16 | (uint64_t)d[5] << 24;
    }
    return n * width[d[0]];
}

/* The length-bomb faults: allocate what the input declares when it declares more than it has. */
static void take_declared(const uint8_t *data, size_t len)
{
    uint64_t want = declared(data, len);
    if (want <= len) {
        return;
    }
    if (g_fault == FAULT_RESERVE) {
        void *p = calloc(1, (size_t)want); /* address space only: never touched */
        g_sink = p;
        fprintf(stderr, "hostile codec: reserved %llu bytes for a %zu-byte input (%s)\n",
                (unsigned long long)want, len, p ? "got them" : "refused");
        free(p);
        return;
    }
    volatile uint8_t *p = malloc((size_t)want);
    g_sink = (void *)(uintptr_t)p;
    for (uint64_t i = 0; p && i < want; i += 4096) {
        p[i] = 0xab; /* every page touched: resident */
    }
    free((void *)(uintptr_t)p);
}

#define FORK_BOMB_MAX ((size_t)400 << 20)

static void touch(size_t bytes)
{
    volatile uint8_t *p = malloc(bytes);
    g_sink = (void *)(uintptr_t)p;
    for (size_t i = 0; p && i < bytes; i += 4096) {
        p[i] = 0xcd;
    }
}

/* The `bomb` fault (at most FORK_BOMB_MAX) in a forked child, reaped before the decode goes
 * on. */
static void take_declared_in_child(const uint8_t *data, size_t len)
{
    if (declared(data, len) <= len) {
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        uint64_t want = declared(data, len);
        touch(want < FORK_BOMB_MAX ? (size_t)want : FORK_BOMB_MAX);
        _exit(0); /* no stdio flush: the parent's buffered answer lines are not the child's */
    }
    while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
}

/* A grandchild in a session of its own, holding `mib` MiB until it is killed. */
static void leave_holder(unsigned long mib)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (fork() == 0) {
            (void)setsid();
            int null = open("/dev/null", O_RDWR);
            dup2(null, 0);
            dup2(null, 1);
            dup2(null, 2);
            touch((size_t)mib << 20);
            alarm(600); /* ends on its own if nobody kills it */
            for (;;) {
                pause();
            }
        }
        _exit(0); /* the holder is reparented: it leaves the runner's tree */
    }
    while (pid > 0 && waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
    }
}

static smc_runner_status_t hostile_decode(void *ctx, smc_entry_t entry, const uint8_t *data,
                                          size_t len, smc_runner_mode_t mode, smc_arena_t *arena,
                                          smc_runner_item_t *out, smc_runner_report_t *report)
{
    switch (g_fault) {
    case FAULT_CRASH:
        if (fnv1a(data, len) % 1000u < g_permille) {
            log_and_crash(data, len);
        }
        break;
    case FAULT_OVER_READ: {
        volatile uint8_t past = data[len]; /* one byte past the input */
        (void)past;
        break;
    }
    case FAULT_BOMB:
    case FAULT_RESERVE:
        take_declared(data, len);
        break;
    case FAULT_FORK_BOMB:
        take_declared_in_child(data, len);
        break;
    case FAULT_NONE:
        break;
    }
    return g_ref->decode(ctx, entry, data, len, mode, arena, out, report);
}

const smc_runner_codec_t *smc_runner_codec(void)
{
    static smc_runner_codec_t codec;
    g_ref = smc_hostile_reference_codec();
    codec = *g_ref;
    codec.name = "smc-hostile";
    codec.decode = hostile_decode;
    const char *mode = getenv("SMC_HOSTILE");
    if (mode && strncmp(mode, "crash-permille=", 15) == 0) {
        g_fault = FAULT_CRASH;
        g_permille = (unsigned)strtoul(mode + 15, NULL, 10);
    } else if (mode && strcmp(mode, "over-read") == 0) {
        g_fault = FAULT_OVER_READ;
    } else if (mode && strcmp(mode, "bomb") == 0) {
        g_fault = FAULT_BOMB;
    } else if (mode && strcmp(mode, "reserve") == 0) {
        g_fault = FAULT_RESERVE;
    } else if (mode && strcmp(mode, "fork-bomb") == 0) {
        g_fault = FAULT_FORK_BOMB;
    } else if (mode && strncmp(mode, "setsid-hold=", 12) == 0) {
        leave_holder(strtoul(mode + 12, NULL, 10));
    }
    return &codec;
}
