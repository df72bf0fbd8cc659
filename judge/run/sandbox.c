/*
 * The runner sandbox (sandbox.h): which bwrap words wrap every runner command, and whether
 * bwrap runs here at all.
 *
 * Why these words: a runner is code of the repository being checked (docs/ci.md, threat
 * model), and without a sandbox it can write the reports, the expected-failure lists and the
 * vector files, signal the judge, and read the judge's open files through /proc/JUDGE/fd. A
 * read-only bind of / stops every write; a PID namespace with its own /proc hides the judge's
 * process (a pid the runner kills is one of its own namespace); a private /tmp gives runtimes
 * that need a scratch place one (the JVM's hsperfdata) without reaching the judge's; no
 * capabilities, so a root runner cannot remount what is read-only; a network namespace, so a
 * runner cannot reach a service of the machine. The judge's own files are hidden besides, so
 * a runner cannot read what its verdict is compared with either.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* realpath */
#include "sandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "alloc.h"
#include "proc.h"

/* A probe of bwrap that takes longer than this is a bwrap that does not work here. */
#define PROBE_SECONDS 10.0

bool smcj_sandbox_parse_mode(const char *word, smcj_sandbox_mode_t *mode)
{
    static const char *const k_words[] = {"none", "auto", "bwrap"};
    for (int i = 0; i < 3; i++) {
        if (strcmp(word, k_words[i]) == 0) {
            *mode = (smcj_sandbox_mode_t)i;
            return true;
        }
    }
    return false;
}

static bool push(smcj_sandbox_t *sb, const char *word)
{
    char *copy = smcj_strdup(word);
    if (!copy ||
        !smcj_grow((void **)&sb->words, &sb->cap_words, sb->n_words + 2, sizeof *sb->words)) {
        free(copy);
        return false;
    }
    sb->words[sb->n_words++] = copy;
    sb->words[sb->n_words] = NULL;
    return true;
}

/* bwrap's path on PATH, or NULL: the judge execs it without a shell. */
static char *find_on_path(const char *name)
{
    const char *path = getenv("PATH");
    for (const char *p = path ? path : "/usr/bin:/bin"; p && *p;) {
        size_t n = strcspn(p, ":");
        char *full = smcj_asprintf("%.*s/%s", (int)n, n ? p : ".", name);
        if (full && access(full, X_OK) == 0) {
            return full;
        }
        free(full);
        p += n + (p[n] == ':');
    }
    return NULL;
}

/* The absolute, link-free form of `path`, whose last part may not exist yet (a report the
 * judge writes later); NULL when not even its folder exists. */
static char *absolute(const char *path)
{
    char buf[PATH_MAX];
    if (realpath(path, buf)) {
        return smcj_strdup(buf);
    }
    const char *slash = strrchr(path, '/');
    char *dir =
        slash ? smcj_strndup(path, slash == path ? 1 : (size_t)(slash - path)) : smcj_strdup(".");
    char *out = NULL;
    if (dir && realpath(dir, buf)) {
        out = smcj_asprintf("%s/%s", strcmp(buf, "/") == 0 ? "" : buf, slash ? slash + 1 : path);
    }
    free(dir);
    return out;
}

static bool under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0' || n == 1);
}

/* Run `words` + /bin/sh -c : once; true if it exits 0, else the first line bwrap said. */
static bool probe(char **words, char *why, size_t why_size)
{
    int err_pipe[2];
    if (pipe(err_pipe) != 0) {
        snprintf(why, why_size, "pipe: %s", strerror(errno));
        return false;
    }
    pid_t pid = fork();
    if (pid == 0) {
        int null = open("/dev/null", O_RDWR);
        dup2(null, 0);
        dup2(null, 1);
        dup2(err_pipe[1], 2);
        close(err_pipe[0]);
        execv(words[0], words);
        _exit(127);
    }
    close(err_pipe[1]);
    if (pid < 0) {
        snprintf(why, why_size, "fork: %s", strerror(errno));
        close(err_pipe[0]);
        return false;
    }
    char said[512];
    size_t n = 0;
    double deadline = smcj_now() + PROBE_SECONDS;
    for (;;) {
        struct pollfd pfd = {err_pipe[0], POLLIN, 0};
        int left = (int)((deadline - smcj_now()) * 1000);
        if (left <= 0 || poll(&pfd, 1, left) <= 0) {
            if (left <= 0) {
                break;
            }
            continue;
        }
        ssize_t got = read(err_pipe[0], said + n, sizeof said - 1 - n);
        if (got <= 0 || (n += (size_t)got) >= sizeof said - 1) {
            break;
        }
    }
    close(err_pipe[0]);
    said[n] = '\0';
    said[strcspn(said, "\n")] = '\0';
    bool timed_out = smcj_now() >= deadline;
    if (timed_out) {
        kill(pid, SIGKILL);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
    }
    if (!timed_out && WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        return true;
    }
    snprintf(why, why_size, "%s",
             timed_out ? "it did not finish in 10 s"
             : said[0] ? said
                       : "it failed without a message");
    return false;
}

/* The fixed words; `net` adds the network namespace. */
static bool base_words(smcj_sandbox_t *sb, const char *bwrap, bool net)
{
    static const char *const k_words[] = {"--die-with-parent",
                                          "--unshare-pid",
                                          "--unshare-ipc",
                                          "--unshare-uts",
                                          "--cap-drop",
                                          "ALL",
                                          "--ro-bind",
                                          "/",
                                          "/",
                                          "--dev",
                                          "/dev",
                                          "--proc",
                                          "/proc",
                                          "--tmpfs",
                                          "/tmp"};
    bool ok = push(sb, bwrap);
    for (size_t i = 0; ok && i < sizeof k_words / sizeof k_words[0]; i++) {
        ok = push(sb, k_words[i]);
    }
    return ok && (!net || push(sb, "--unshare-net"));
}

static void clear_words(smcj_sandbox_t *sb)
{
    smcj_free_strs(sb->words, sb->n_words);
    sb->words = NULL;
    sb->n_words = sb->cap_words = 0;
}

/* The binds after the fixed words: write folders, then the hidden paths over them. */
static bool path_words(smcj_sandbox_t *sb, char *const *hide, size_t n_hide, char *const *write,
                       size_t n_write, char *err, size_t err_size)
{
    char **dirs = smcj_calloc(n_write + 1, sizeof *dirs);
    bool ok = dirs != NULL;
    for (size_t i = 0; ok && i < n_write; i++) {
        struct stat st;
        dirs[i] = absolute(write[i]);
        if (!dirs[i] || stat(dirs[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
            snprintf(err, err_size, "--sandbox-write %s: not a folder", write[i]);
            ok = false;
            break;
        }
        ok = push(sb, "--bind") && push(sb, dirs[i]) && push(sb, dirs[i]);
    }
    for (size_t i = 0; ok && i < n_hide; i++) {
        char *p = absolute(hide[i]);
        struct stat st;
        for (size_t k = 0; p && k < n_write && ok; k++) {
            if (under(p, dirs[k]) || under(dirs[k], p)) {
                snprintf(err, err_size,
                         "--sandbox-write %s holds %s, which the runner must not reach", write[k],
                         hide[i]);
                ok = false;
            }
        }
        if (ok && p && !under(p, "/tmp") && stat(p, &st) == 0) {
            ok = S_ISDIR(st.st_mode)
                     ? push(sb, "--tmpfs") && push(sb, p) && push(sb, "--remount-ro") && push(sb, p)
                     : push(sb, "--ro-bind") && push(sb, "/dev/null") && push(sb, p);
        }
        free(p);
    }
    smcj_free_strs(dirs, n_write);
    return ok && push(sb, "--");
}

bool smcj_sandbox_prepare(smcj_sandbox_t *sb, smcj_sandbox_mode_t mode, char *const *hide,
                          size_t n_hide, char *const *write, size_t n_write, char *err,
                          size_t err_size)
{
    memset(sb, 0, sizeof *sb);
    if (mode == SMCJ_SANDBOX_NONE) {
        sb->note = smcj_strdup("none (--sandbox none)");
        return sb->note != NULL;
    }
    char *bwrap = find_on_path("bwrap");
    char why[640] = ""; /* the probe's reason (why_net) and a prefix */
    bool works = false, net = true;
    if (!bwrap) {
        snprintf(why, sizeof why, "bwrap is not on PATH (Debian and Ubuntu: package bubblewrap)");
    } else {
        char why_net[600] = "";
        works = base_words(sb, bwrap, true) && push(sb, "/bin/sh") && push(sb, "-c") &&
                push(sb, ":") && probe(sb->words, why_net, sizeof why_net);
        if (!works && !smcj_out_of_memory()) {
            /* some machines let bwrap make every namespace but a network one */
            clear_words(sb);
            works = base_words(sb, bwrap, false) && push(sb, "/bin/sh") && push(sb, "-c") &&
                    push(sb, ":") && probe(sb->words, why, sizeof why);
            net = false;
        }
        /* with a network namespace refused, that is the reason to state; with none at all,
         * the first refusal */
        snprintf(why, sizeof why, "bwrap cannot run here: %s", why_net);
        clear_words(sb);
    }
    if (!works) {
        free(bwrap);
        if (mode == SMCJ_SANDBOX_BWRAP) {
            snprintf(err, err_size, "--sandbox bwrap: %s", why);
            return false;
        }
        sb->note = smcj_asprintf("none (--sandbox auto): %s", why);
        return sb->note != NULL;
    }
    bool ok =
        base_words(sb, bwrap, net) && path_words(sb, hide, n_hide, write, n_write, err, err_size);
    free(bwrap);
    if (!ok) {
        clear_words(sb);
        if (smcj_out_of_memory()) {
            snprintf(err, err_size, "out of memory");
        }
        return false;
    }
    sb->used = true;
    sb->network_off = net;
    sb->note = smcj_asprintf(
        "bwrap: read-only file system, own PID namespace, private /tmp, no capabilities, "
        "the judge's files hidden, %s%s%s",
        net ? "no network" : "network NOT isolated (", net ? "" : why, net ? "" : ")");
    return sb->note != NULL;
}

void smcj_sandbox_free(smcj_sandbox_t *sb)
{
    clear_words(sb);
    free(sb->note);
    memset(sb, 0, sizeof *sb);
}
