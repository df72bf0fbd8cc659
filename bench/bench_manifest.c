/*
 * Which payload manifest `smc bench` reads without --manifest: $SMC_BENCH_MANIFEST, then the
 * one installed beside the executable (PREFIX/share/smc/bench/payloads.json, found from
 * /proc/self/exe as the judge finds the installed vectors, so a copied prefix keeps working),
 * then the source tree's (a build-tree binary). Before, an installed smc pointed at the build
 * tree's manifest, which is gone once the build tree is (issue 27).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"

#ifndef SMC_BENCH_DEFAULT_MANIFEST
#define SMC_BENCH_DEFAULT_MANIFEST "bench/payloads.json"
#endif
#ifndef SMC_BENCH_DATA_FROM_BIN
#define SMC_BENCH_DATA_FROM_BIN "../share/smc"
#endif

/* PREFIX/bin/<rel>/bench/payloads.json for the running executable, or false. */
static bool installed_manifest(char *out, size_t size)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0 || (size_t)n >= sizeof exe - 1) {
        return false;
    }
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (slash == NULL) {
        return false;
    }
    *slash = '\0';
    /* Each leading "../" taken off the directory, so messages name PREFIX/share/smc/... */
    const char *rel = SMC_BENCH_DATA_FROM_BIN;
    while (strncmp(rel, "../", 3) == 0 && (slash = strrchr(exe, '/')) != NULL) {
        *slash = '\0';
        rel += 3;
    }
    int len = snprintf(out, size, "%s/%s/bench/payloads.json", exe, rel);
    return len > 0 && (size_t)len < size && access(out, R_OK) == 0;
}

const char *bench_default_manifest(char *buf, size_t size)
{
    const char *env = getenv("SMC_BENCH_MANIFEST");
    if (env != NULL && env[0] != '\0') {
        return env;
    }
    return installed_manifest(buf, size) ? buf : SMC_BENCH_DEFAULT_MANIFEST;
}
