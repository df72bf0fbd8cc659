/*
 * Setup checks (setup.h). They only look (stat, access): nothing is created or truncated, so
 * a check that passes leaves the file system as it was, and writing the reports at the end
 * can still fail (a full disk), which stays a setup error of its own.
 */
#define _POSIX_C_SOURCE 200809L
#include "setup.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "proc.h"

/* A file that exists must be a writable non-directory; else its folder must exist and take
 * new files. */
static bool writable(const char *option, const char *path, char *err, size_t err_size)
{
    struct stat st;
    if (stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, err_size, "cannot write %s %s: it is a directory", option, path);
            return false;
        }
        if (access(path, W_OK) != 0) {
            snprintf(err, err_size, "cannot write %s %s: %s", option, path, strerror(errno));
            return false;
        }
        return true;
    }
    const char *slash = strrchr(path, '/');
    char dir[4096];
    if (!slash) {
        snprintf(dir, sizeof dir, ".");
    } else if (slash == path) {
        snprintf(dir, sizeof dir, "/");
    } else if (snprintf(dir, sizeof dir, "%.*s", (int)(slash - path), path) >= (int)sizeof dir) {
        snprintf(err, err_size, "cannot write %s: the path is too long", option);
        return false;
    }
    int e = stat(dir, &st) != 0             ? errno
            : !S_ISDIR(st.st_mode)          ? ENOTDIR
            : access(dir, W_OK | X_OK) != 0 ? errno
                                            : 0;
    if (e) {
        snprintf(err, err_size, "cannot write %s %s: folder %s: %s", option, path, dir,
                 strerror(e));
        return false;
    }
    return true;
}

static bool runs(const char *file)
{
    struct stat st;
    return stat(file, &st) == 0 && S_ISREG(st.st_mode) && access(file, X_OK) == 0;
}

/* `program` as execvp would find it: a path as written, a name on PATH. */
static bool program_found(const char *program)
{
    if (strchr(program, '/')) {
        return runs(program);
    }
    const char *path = getenv("PATH");
    if (!path || !*path) {
        path = "/usr/bin:/bin";
    }
    char file[4096];
    for (const char *p = path; p; p = strchr(p, ':') ? strchr(p, ':') + 1 : NULL) {
        size_t n = strcspn(p, ":");
        int w = snprintf(file, sizeof file, "%.*s/%s", (int)(n ? n : 1), n ? p : ".", program);
        if (w > 0 && (size_t)w < sizeof file && runs(file)) {
            return true;
        }
    }
    return false;
}

static bool runner_ok(const smcj_runner_t *r, char *err, size_t err_size)
{
    char program[4096];
    if (r->skip_reason || !smcj_proc_program(r->command, program, sizeof program)) {
        return true; /* skipped, or a shell command only starting it can check */
    }
    if (program_found(program)) {
        return true;
    }
    struct stat st;
    const char *why = !strchr(program, '/')     ? "not found on PATH"
                      : stat(program, &st) != 0 ? "no such file"
                      : !S_ISREG(st.st_mode)    ? "not a file"
                                                : "not executable";
    snprintf(err, err_size, "runner %s: cannot run %s: %s", r->name, program, why);
    return false;
}

bool smcj_setup_check(const smcj_opts_t *o, char *err, size_t err_size)
{
    const char *const options[] = {"the --json report", "the --junit report", "the --html report"};
    const char *const paths[] = {o->json, o->junit, o->html};
    for (size_t k = 0; k < 3; k++) {
        if (paths[k] && !writable(options[k], paths[k], err, err_size)) {
            return false;
        }
    }
    for (size_t i = 0; i < o->n_runners; i++) {
        const smcj_runner_t *r = &o->runners[i];
        if (r->write_xfail_path &&
            !writable("the --write-xfail list", r->write_xfail_path, err, err_size)) {
            return false;
        }
        if (!runner_ok(r, err, err_size)) {
            return false;
        }
    }
    return true;
}
