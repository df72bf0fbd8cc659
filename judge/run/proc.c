/*
 * Runner child processes (proc.h): vfork + exec of /bin/sh -c COMMAND (or of the program
 * itself when the command is a path and plain words) in a session of its own, so a kill of its
 * process group reaches whatever the shell started (a JVM under a wrapper script), a terminal's ^C
 * reaches the judge only (which then kills its runners itself), and no runner has a controlling
 * terminal to write to. What escapes the group (a setsid() or double-forked grandchild) is
 * reparented to the judge, its subreaper, and killed by smcj_proc_sweep. Every child is reaped by
 * the judge: none outlives it.
 */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* vfork */
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031 /* Linux fcntl(2); hidden without _GNU_SOURCE */
#endif
#endif

#include "alloc.h"
#include "proc_scan.h"

double smcj_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void smcj_ignore_sigpipe(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, NULL);
}

static volatile sig_atomic_t g_interrupt_signal;
static struct sigaction g_old_int, g_old_term, g_old_hup;

static void on_interrupt(int sig)
{
    g_interrupt_signal = sig;
}

void smcj_catch_interrupts(bool restore)
{
    if (restore) {
        sigaction(SIGINT, &g_old_int, NULL);
        sigaction(SIGTERM, &g_old_term, NULL);
        sigaction(SIGHUP, &g_old_hup, NULL);
        return;
    }
    g_interrupt_signal = 0;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_interrupt; /* no SA_RESTART: poll() returns EINTR at once */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &g_old_int);
    sigaction(SIGTERM, &sa, &g_old_term);
    sigaction(SIGHUP, &sa, &g_old_hup);
}

int smcj_interrupted(void)
{
    return (int)g_interrupt_signal;
}

void smcj_proc_init(smcj_proc_t *p)
{
    p->pid = 0;
    p->in_fd = p->out_fd = p->err_fd = -1;
    p->reaped = false;
    p->wait_status = 0;
}

static void close_fd(int *fd)
{
    if (*fd >= 0) {
        while (close(*fd) != 0 && errno == EINTR) {
        }
        *fd = -1;
    }
}

/* Close-on-exec, so no runner inherits another's pipe ends (which would hide an EOF), and
 * non-blocking for the judge's ends, so one slow runner never stalls the others. */
static bool set_flags(int fd, bool nonblock)
{
    int fdfl = fcntl(fd, F_GETFD);
    if (fdfl < 0 || fcntl(fd, F_SETFD, fdfl | FD_CLOEXEC) < 0) {
        return false;
    }
    if (nonblock) {
        int fl = fcntl(fd, F_GETFL);
        if (fl < 0 || fcntl(fd, F_SETFL, fl | O_NONBLOCK) < 0) {
            return false;
        }
    }
    return true;
}

/*
 * A command that is one simple command (words, quotes, no operators, no assignments, not a
 * shell keyword or builtin) is run as `exec COMMAND`, so the shell is replaced by the runner:
 * Debian's dash does not do that by itself. Then the judge's child is the codec's process:
 * its exit status is its own, closing its stdout is an EOF, and a restart costs one process,
 * not two. Anything else (`cd x && java ...`) runs as written.
 */
static bool simple_command(const char *c)
{
    static const char *const k_first[] = {"if",    "for",    "while",  "until",    "case",  "{",
                                          "!",     "cd",     "export", "set",      "unset", ".",
                                          "eval",  "exec",   "trap",   "ulimit",   "umask", "read",
                                          "alias", "source", "time",   "function", "select"};
    if (strpbrk(c, ";&|()<>`\n#*?[]~") || strstr(c, "$(")) {
        return false;
    }
    while (*c == ' ' || *c == '\t') {
        c++;
    }
    size_t n = strcspn(c, " \t");
    if (n == 0 || memchr(c, '=', n)) {
        return false; /* empty, or VAR=value before the command */
    }
    for (size_t i = 0; i < sizeof k_first / sizeof k_first[0]; i++) {
        if (strlen(k_first[i]) == n && strncmp(c, k_first[i], n) == 0) {
            return false;
        }
    }
    return true;
}

/* Bigger pipes (Linux: up to 1 MiB unprivileged) for fewer system calls per large request
 * or answer; the default 64 KiB stays when refused. */
static void grow_pipe(int fd)
{
#ifdef __linux__
    (void)fcntl(fd, F_SETPIPE_SZ, 1 << 20);
#else
    (void)fd;
#endif
}

/* At most this many words in a command the judge runs without a shell. */
#define DIRECT_ARGS_MAX 64

/*
 * A simple command whose words need no shell at all (no quotes, no `$`, no backslash) and
 * whose first word is a path (no builtin, no PATH search): split into argv for execv, so a
 * restart starts one program instead of /bin/sh and then the program, which is a third of
 * what a crashing C codec's restarts cost. Returns the argv (words in `buf`) or NULL.
 */
static char **direct_argv(const char *command, char *buf, size_t buf_size, char **argv)
{
    size_t len = strlen(command);
    if (!simple_command(command) || strpbrk(command, "'\"$\\") || len >= buf_size) {
        return NULL;
    }
    memcpy(buf, command, len + 1);
    size_t n = 0;
    for (char *w = strtok(buf, " \t"); w; w = strtok(NULL, " \t")) {
        if (n + 1 >= DIRECT_ARGS_MAX) {
            return NULL;
        }
        argv[n++] = w;
    }
    argv[n] = NULL;
    return n > 0 && strchr(argv[0], '/') ? argv : NULL;
}

bool smcj_proc_program(const char *command, char *out, size_t out_size)
{
    if (!simple_command(command)) {
        return false;
    }
    while (*command == ' ' || *command == '\t') {
        command++;
    }
    size_t n = strcspn(command, " \t");
    if (n >= out_size || memchr(command, '\'', n) || memchr(command, '"', n) ||
        memchr(command, '$', n) || memchr(command, '\\', n)) {
        return false; /* a word the shell would rewrite: only running it tells */
    }
    memcpy(out, command, n);
    out[n] = '\0';
    return true;
}

/* What the child needs, prepared before vfork: it may not allocate. */
typedef struct spawn_plan {
    int in_fd, out_fd, err_fd; /* the child's ends */
    pid_t parent;
    const char *line;  /* for /bin/sh -c */
    char *const *argv; /* or this, run directly */
    bool wrapped;      /* argv is the sandbox's: never fall back to a shell outside it */
} spawn_plan_t;

/* The sandbox's words (sandbox.h) every runner command is run after, or NULL. */
static char *const *g_wrapper;

void smcj_proc_set_wrapper(char *const *words)
{
    g_wrapper = words;
}

/* The sandbox's words, then the runner's argv or /bin/sh -c LINE, into `out` (NULL-ended;
 * the words of /bin/sh -c LINE are copied after the list, in the same block). */
static bool wrap_argv(char *const *direct, const char *line, char ***out)
{
    size_t n = 0, m = 0;
    while (g_wrapper[n]) {
        n++;
    }
    while (direct && direct[m]) {
        m++;
    }
    size_t count = n + (direct ? m : 3) + 1, tail = direct ? 0 : strlen(line) + 12;
    *out = smcj_malloc(count * sizeof **out + tail);
    if (!*out) {
        return false;
    }
    memcpy(*out, g_wrapper, n * sizeof **out);
    if (direct) {
        memcpy(*out + n, direct, m * sizeof **out);
    } else {
        char *text = (char *)(*out + count);
        memcpy(text, "/bin/sh\0-c\0", 11);
        memcpy(text + 11, line, tail - 11);
        (*out)[n] = text;
        (*out)[n + 1] = text + 8;
        (*out)[n + 2] = text + 11;
    }
    (*out)[count - 1] = NULL;
    return true;
}

/* Write a C string with write(2): the only output a vfork child may do. */
static void child_say(const char *text)
{
    ssize_t n = write(2, text, strlen(text));
    (void)n;
}

/*
 * The child between vfork and exec. It shares the judge's memory until exec, so it calls
 * only async-signal-safe functions, writes no variable but errno, and never returns. Every
 * signal is blocked (smcj_proc_spawn): the judge's handlers are reset to the default before
 * the mask is cleared, so none of them can run here on the judge's memory.
 */
static void child_exec(const spawn_plan_t *p)
{
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    for (int sig = 1; sig < NSIG; sig++) {
        struct sigaction cur;
        if (sig == SIGKILL || sig == SIGSTOP || sigaction(sig, NULL, &cur) != 0) {
            continue;
        }
        bool caught = cur.sa_handler != SIG_DFL && cur.sa_handler != SIG_IGN;
        if (caught || sig == SIGPIPE) {
            sigaction(sig, &dfl, NULL); /* the judge's handlers and its SIGPIPE ignore */
        }
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* A session of its own: a new process group (killed as one), and no controlling
     * terminal (so nothing it prints can reach the judge's terminal). */
    setsid();
#ifdef __linux__
    /* If the judge dies without killing it (SIGKILL), the runner dies too. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != p->parent) {
        _exit(127); /* the judge died before the line above */
    }
#endif
    if (dup2(p->in_fd, 0) < 0 || dup2(p->out_fd, 1) < 0 || dup2(p->err_fd, 2) < 0) {
        _exit(127);
    }
    if (!p->argv) {
        execl("/bin/sh", "sh", "-c", p->line, (char *)NULL);
        _exit(127);
    }
    execv(p->argv[0], p->argv);
    if (errno == ENOEXEC && !p->wrapped) {
        execl("/bin/sh", "sh", "-c", p->line, (char *)NULL); /* a script without #!: sh runs it */
    }
    /* as a shell says it: 127 for a program that is not there, 126 for one that cannot run */
    int e = errno;
    child_say("smc: cannot run ");
    child_say(p->argv[0]);
    child_say(e == ENOENT   ? ": not found\n"
              : e == EACCES ? ": permission denied\n"
                            : ": cannot execute\n");
    _exit(e == ENOENT || e == ENOTDIR ? 127 : 126);
}

bool smcj_proc_spawn(smcj_proc_t *p, const char *command, char *err, size_t err_size)
{
    int in_pipe[2] = {-1, -1}, out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
    smcj_proc_init(p);
    /* built before vfork: no malloc after */
    char *exec_line = simple_command(command) ? smcj_asprintf("exec %s", command) : NULL;
    size_t words_size = strlen(command) + 1;
    char *words = smcj_malloc(words_size);
    char **argv_buf = smcj_calloc(DIRECT_ARGS_MAX, sizeof(char *));
    spawn_plan_t plan = {0};
    plan.line = exec_line ? exec_line : command;
    plan.argv = words && argv_buf ? direct_argv(command, words, words_size, argv_buf) : NULL;
    char **wrapped = NULL;
    if (g_wrapper && !wrap_argv(plan.argv, plan.line, &wrapped)) {
        snprintf(err, err_size, "out of memory");
        goto fail;
    }
    plan.argv = wrapped ? wrapped : plan.argv;
    plan.wrapped = wrapped != NULL;
    plan.parent = getpid();
    /* The judge is single-threaded, so setting FD_CLOEXEC right after pipe() is race-free. */
    if (pipe(in_pipe) != 0 || pipe(out_pipe) != 0 || pipe(err_pipe) != 0) {
        snprintf(err, err_size, "pipe: %s", strerror(errno));
        goto fail;
    }
    if (!set_flags(in_pipe[0], false) || !set_flags(in_pipe[1], true) ||
        !set_flags(out_pipe[0], true) || !set_flags(out_pipe[1], false) ||
        !set_flags(err_pipe[0], true) || !set_flags(err_pipe[1], false)) {
        snprintf(err, err_size, "fcntl: %s", strerror(errno));
        goto fail;
    }
    grow_pipe(in_pipe[1]);
    grow_pipe(out_pipe[0]);
    plan.in_fd = in_pipe[0];
    plan.out_fd = out_pipe[1];
    plan.err_fd = err_pipe[1];
    fflush(NULL); /* nothing buffered twice */
    /* vfork: no copy of the judge's page tables (a fifth of a restart's cost when the judge
     * holds the whole vector set); no signal reaches the child before it resets handlers. */
    sigset_t all, old;
    sigfillset(&all);
    sigprocmask(SIG_SETMASK, &all, &old);
    pid_t pid = vfork();
    if (pid == 0) {
        child_exec(&plan);
    }
    int spawn_errno = errno;
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (pid < 0) {
        snprintf(err, err_size, "vfork: %s", strerror(spawn_errno));
        goto fail;
    }
    /* No setpgid() here: it would make the child a group leader, and setsid() would fail in
     * it. A kill before the child's setsid() reaches it by pid (smcj_proc_terminate). */
    close_fd(&in_pipe[0]);
    close_fd(&out_pipe[1]);
    close_fd(&err_pipe[1]);
    p->pid = pid;
    p->in_fd = in_pipe[1];
    p->out_fd = out_pipe[0];
    p->err_fd = err_pipe[0];
    free(exec_line);
    free(words);
    free(argv_buf);
    free(wrapped);
    return true;
fail:
    for (int i = 0; i < 2; i++) {
        close_fd(&in_pipe[i]);
        close_fd(&out_pipe[i]);
        close_fd(&err_pipe[i]);
    }
    free(exec_line);
    free(words);
    free(argv_buf);
    free(wrapped);
    return false;
}

void smcj_proc_close_stdin(smcj_proc_t *p)
{
    close_fd(&p->in_fd);
}

bool smcj_proc_try_reap(smcj_proc_t *p)
{
    if (p->pid <= 0) {
        return true;
    }
    if (p->reaped) {
        return true;
    }
    int st;
    pid_t r;
    do {
        r = waitpid(p->pid, &st, WNOHANG);
    } while (r < 0 && errno == EINTR);
    if (r == p->pid || (r < 0 && errno == ECHILD)) {
        p->reaped = true;
        p->wait_status = r == p->pid ? st : 0;
        return true;
    }
    return false;
}

static void reap_blocking(smcj_proc_t *p)
{
    if (p->pid <= 0 || p->reaped) {
        return;
    }
    int st;
    pid_t r;
    do {
        r = waitpid(p->pid, &st, 0);
    } while (r < 0 && errno == EINTR);
    p->reaped = true;
    p->wait_status = r == p->pid ? st : 0;
}

/* The process groups of the runner processes killed last: their members may still be dying
 * when a sweep sees them, and are reaped without being counted as escaped. */
static pid_t g_killed_groups[16];
static unsigned g_killed_next;

/* SIGKILL, not SIGTERM: a runner that is being charged with a hang or a protocol error gets
 * no chance to print more, and its process group goes with it. */
void smcj_proc_terminate(smcj_proc_t *p)
{
    if (p->pid > 0) {
        g_killed_groups[g_killed_next++ % 16] = p->pid; /* its group id: it leads the group */
        if (!p->reaped) {
            kill(-p->pid, SIGKILL); /* the whole group: sh and whatever it started */
            kill(p->pid, SIGKILL);
        } else {
            kill(-p->pid, SIGKILL); /* leftovers of the group, if any (ESRCH otherwise) */
        }
        reap_blocking(p);
    }
}

void smcj_proc_kill(smcj_proc_t *p)
{
    smcj_proc_terminate(p);
    close_fd(&p->in_fd);
    close_fd(&p->out_fd);
    close_fd(&p->err_fd);
}

void smcj_proc_finish(smcj_proc_t *p, double seconds)
{
    close_fd(&p->in_fd);
    double deadline = smcj_now() + seconds;
    while (p->pid > 0 && !smcj_proc_try_reap(p) && smcj_now() < deadline) {
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    smcj_proc_kill(p);
}

static const char *signal_name(int sig)
{
    switch (sig) {
    case SIGSEGV:
        return "SIGSEGV";
    case SIGABRT:
        return "SIGABRT";
    case SIGKILL:
        return "SIGKILL";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGILL:
        return "SIGILL";
    case SIGTERM:
        return "SIGTERM";
    case SIGPIPE:
        return "SIGPIPE";
    case SIGINT:
        return "SIGINT";
    default:
        return "signal";
    }
}

void smcj_proc_describe_status(const smcj_proc_t *p, char *out, size_t out_size)
{
    if (!p->reaped) {
        snprintf(out, out_size, "still running");
    } else if (WIFEXITED(p->wait_status)) {
        int code = WEXITSTATUS(p->wait_status);
        if (code > 128 && code < 128 + 65) {
            /* /bin/sh reports a child killed by signal N as exit status 128+N */
            snprintf(out, out_size, "exit status %d: the command was killed by signal %d (%s)",
                     code, code - 128, signal_name(code - 128));
        } else {
            snprintf(out, out_size, "exit status %d", code);
        }
    } else if (WIFSIGNALED(p->wait_status)) {
        int sig = WTERMSIG(p->wait_status);
        snprintf(out, out_size, "killed by signal %d (%s)", sig, signal_name(sig));
    } else {
        snprintf(out, out_size, "wait status 0x%x", (unsigned)p->wait_status);
    }
}

/* ---- strays: what escaped a runner's process group ---- */

static pid_t *g_foreign; /* the judge's children from before the run: never killed */
static size_t g_n_foreign;
static int g_old_subreaper = -1;

static bool in_list(const pid_t *list, size_t n, pid_t pid)
{
    for (size_t i = 0; i < n; i++) {
        if (list[i] == pid) {
            return true;
        }
    }
    return false;
}

bool smcj_proc_is_foreign(pid_t pid)
{
    return in_list(g_foreign, g_n_foreign, pid);
}

void smcj_proc_adopt_orphans(bool on)
{
#ifdef __linux__
    if (on) {
        int old = 0;
        g_old_subreaper = prctl(PR_GET_CHILD_SUBREAPER, &old) == 0 ? old : -1;
        (void)prctl(PR_SET_CHILD_SUBREAPER, 1);
        smcj_pscan_t s;
        free(g_foreign);
        g_foreign = NULL;
        g_n_foreign = 0;
        if (smcj_pscan_take(&s)) {
            size_t cap = 0;
            for (size_t i = 0; i < s.n; i++) {
                if (s.p[i].ppid == getpid() &&
                    smcj_grow((void **)&g_foreign, &cap, g_n_foreign + 1, sizeof *g_foreign)) {
                    g_foreign[g_n_foreign++] = s.p[i].pid;
                }
            }
            smcj_pscan_free(&s);
        }
    } else {
        if (g_old_subreaper >= 0) {
            (void)prctl(PR_SET_CHILD_SUBREAPER, g_old_subreaper);
        }
        free(g_foreign);
        g_foreign = NULL;
        g_n_foreign = 0;
        smcj_pscan_release();
    }
#else
    (void)on;
#endif
}

/* SIGKILL `pid` (and its group, when it leads one), then reap it within about a second. */
static void kill_stray(const smcj_pinfo_t *p)
{
    if (p->pgid == p->pid) {
        kill(-p->pid, SIGKILL);
    }
    kill(p->pid, SIGKILL);
    double deadline = smcj_now() + 1.0;
    for (;;) {
        pid_t r = waitpid(p->pid, NULL, WNOHANG);
        if (r == p->pid || (r < 0 && errno != EINTR) || smcj_now() > deadline) {
            return;
        }
        struct timespec ts = {0, 1000 * 1000};
        nanosleep(&ts, NULL);
    }
}

size_t smcj_proc_sweep(const pid_t *live, size_t n_live)
{
    size_t killed = 0; /* live processes: the zombies of killed groups are only reaped */
    /* Each round kills the strays it sees; their children are reparented to the judge when
     * they die and are seen by the next round. A bounded number of rounds: a fork bomb
     * cannot keep the judge here forever (its leftovers are killed by the next sweep). */
    pid_t self = getpid();
    for (int round = 0; round < 32; round++) {
        smcj_pscan_t s;
        if (!smcj_pscan_take(&s)) {
            break;
        }
        size_t live_ones = 0;
        for (size_t i = 0; i < s.n; i++) {
            const smcj_pinfo_t *p = &s.p[i];
            if (p->ppid != self || in_list(live, n_live, p->pid) ||
                in_list(g_foreign, g_n_foreign, p->pid)) {
                continue;
            }
            kill_stray(p);
            live_ones += p->state != 'Z';
            /* a zombie, or a member of a runner's group already killed, is only reaped */
            killed += p->state != 'Z' && !in_list(g_killed_groups, 16, p->pgid);
        }
        smcj_pscan_free(&s);
        if (live_ones == 0) {
            break; /* a zombie has no children left to be reparented: nothing more to find */
        }
    }
    return killed;
}
