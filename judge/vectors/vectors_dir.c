/*
 * Where the vectors are when --vectors is not given. The installed suite comes before any
 * folder named `vectors` near the current directory: a CI gate must judge against the vectors
 * released with its judge (protobuf's suite learnt that test data and runner out of sync give
 * failures nobody can debug), and the text report names the directory and version it used.
 */
#define _POSIX_C_SOURCE 200809L
#include "vectors_dir.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"

#ifndef SMCJ_DATA_FROM_BIN
#error "SMCJ_DATA_FROM_BIN (the path from the install BINDIR to share/smc) comes from CMake"
#endif

/* How many parents of the executable's directory may hold a checkout's `vectors/`: the smc
 * binary of a build tree is build/cli/smc, the runners' deeper (runners/swift/.build/...). */
enum { CHECKOUT_LEVELS = 6 };

static bool dir_has_vectors(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        return false;
    }
    bool found = false;
    struct dirent *de;
    while (!found && (de = readdir(d)) != NULL) {
        found = fnmatch("s[0-9][0-9]-*.json", de->d_name, 0) == 0;
    }
    closedir(d);
    return found;
}

/* `path` if it holds vectors; else NULL, with `path` freed and, when `tried` is given, added
 * to it. */
static char *try_dir(char *path, smct_buf_t *tried)
{
    if (!path || dir_has_vectors(path)) {
        return path; /* NULL: out of memory, recorded by smcj_asprintf */
    }
    if (tried) {
        smct_buf_printf(tried, "%s%s", tried->len ? ", " : "", path);
    }
    free(path);
    return NULL;
}

/* The directory of the running executable, symbolic links resolved (so `..` below is exact), or
 * false (no /proc: the installed and checkout places are then not looked at). */
static bool exe_dir(char *out, size_t size)
{
    ssize_t n = readlink("/proc/self/exe", out, size - 1);
    if (n <= 0 || (size_t)n >= size - 1) {
        return false;
    }
    out[n] = '\0';
    char *slash = strrchr(out, '/');
    if (!slash) {
        return false;
    }
    *slash = '\0';
    return true;
}

/* `dir`/`rel`/vectors with each leading "../" of `rel` taken off `dir`, so reports name
 * PREFIX/share/smc/vectors rather than PREFIX/bin/../share/smc/vectors. */
static char *installed_dir(const char *dir, const char *rel)
{
    char base[4096];
    snprintf(base, sizeof base, "%s", dir);
    while (strncmp(rel, "../", 3) == 0 || strcmp(rel, "..") == 0) {
        char *slash = strrchr(base, '/');
        if (!slash) {
            break;
        }
        *slash = '\0';
        rel += rel[2] == '/' ? 3 : 2;
    }
    return smcj_asprintf("%s%s%s/vectors", base, *rel ? "/" : "", rel);
}

char *smcj_vectors_dir_find(const char *given, smct_buf_t *tried)
{
    if (given) {
        return smcj_strdup(given);
    }
    const char *env = getenv("SMC_VECTORS_DIR");
    if (env && *env) {
        return smcj_strdup(env);
    }
    char dir[4096];
    bool have_exe = exe_dir(dir, sizeof dir);
    char *found = NULL;
    if (have_exe) {
        found = try_dir(installed_dir(dir, SMCJ_DATA_FROM_BIN), tried);
        if (!found && !smcj_out_of_memory()) {
            smct_buf_printf(tried, ", vectors/ in %s or its parents", dir[0] ? dir : "/");
        }
    }
    for (int up = 0; have_exe && !found && !smcj_out_of_memory() && up < CHECKOUT_LEVELS; up++) {
        found = try_dir(smcj_asprintf("%s/vectors", dir), NULL);
        char *slash = strrchr(dir, '/');
        if (!slash) {
            break;
        }
        *slash = '\0';
    }
    if (!found && !smcj_out_of_memory()) {
        found = try_dir(smcj_strdup("./vectors"), tried);
    }
    return found;
}
