/*
 * Runner child processes (proc.h): fork + exec of /bin/sh -c COMMAND in its own process
 * group, so a kill reaches whatever the shell started (a JVM under a wrapper script), and so a
 * terminal's ^C reaches the judge only, which then kills its runners itself. Every child is
 * reaped by the judge: none outlives it.
 */
#define _POSIX_C_SOURCE 200809L
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

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

bool smcj_proc_spawn(smcj_proc_t *p, const char *command, char *err, size_t err_size)
{
    int in_pipe[2] = {-1, -1}, out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
    smcj_proc_init(p);
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
    fflush(NULL); /* no duplicated stdio buffers in the child */
    pid_t pid = fork();
    if (pid < 0) {
        snprintf(err, err_size, "fork: %s", strerror(errno));
        goto fail;
    }
    if (pid == 0) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_DFL;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGPIPE, &sa, NULL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        setpgid(0, 0);
        if (dup2(in_pipe[0], 0) < 0 || dup2(out_pipe[1], 1) < 0 || dup2(err_pipe[1], 2) < 0) {
            _exit(127);
        }
        execl("/bin/sh", "sh", "-c", command, (char *)NULL);
        _exit(127);
    }
    setpgid(pid, pid); /* also in the parent, so a kill right after fork hits the group */
    close_fd(&in_pipe[0]);
    close_fd(&out_pipe[1]);
    close_fd(&err_pipe[1]);
    p->pid = pid;
    p->in_fd = in_pipe[1];
    p->out_fd = out_pipe[0];
    p->err_fd = err_pipe[0];
    return true;
fail:
    for (int i = 0; i < 2; i++) {
        close_fd(&in_pipe[i]);
        close_fd(&out_pipe[i]);
        close_fd(&err_pipe[i]);
    }
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

/* SIGKILL, not SIGTERM: a runner that is being charged with a hang or a protocol error gets
 * no chance to print more, and its process group goes with it. */
void smcj_proc_terminate(smcj_proc_t *p)
{
    if (p->pid > 0) {
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
