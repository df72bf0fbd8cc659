/*
 * The pipes of one runner process (runner_io.h). A runner may write anything at any pace:
 * megabytes of stderr, a response split over many reads, several responses in one read.
 * stdout is therefore buffered and cut into lines here, and stderr is read whenever it has
 * data so a chatty runner never blocks on a full pipe (and never stalls the judge).
 */
#define _POSIX_C_SOURCE 200809L
#include "runner_io.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

/* The stderr record keeps the last STDERR_KEEP..2*STDERR_KEEP bytes: enough for the tail
 * a report shows, and bounded whatever the runner writes. */
#define STDERR_KEEP       16384u
#define STDERR_TAIL_LINES 20
#define STDERR_TAIL_BYTES 2048u

void smcj_io_init(smcj_runner_io_t *io)
{
    memset(io, 0, sizeof *io);
    smcj_proc_init(&io->proc);
}

bool smcj_io_start(smcj_runner_io_t *io, const char *command, char *err, size_t err_size)
{
    smct_buf_clear(&io->out);
    smct_buf_clear(&io->in);
    io->line_start = 0;
    io->in_scanned = 0;
    io->stdin_broken = false;
    return smcj_proc_spawn(&io->proc, command, err, err_size);
}

void smcj_io_send_line(smcj_runner_io_t *io, const char *line, size_t len)
{
    smct_buf_append(&io->out, line, len);
    smct_buf_putc(&io->out, '\n');
    smcj_buf_ok(&io->out); /* a lost request would look like a hang: record out of memory */
}

void smcj_io_flush(smcj_runner_io_t *io)
{
    while (io->out.len > 0 && io->proc.in_fd >= 0 && !io->stdin_broken) {
        ssize_t n = write(io->proc.in_fd, io->out.data, io->out.len);
        if (n > 0) {
            smct_buf_consume(&io->out, (size_t)n);
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        } else {
            /* EPIPE: the runner closed stdin or died; its stdout EOF (or the timeout)
             * decides what happened, so nothing is attributed here. */
            io->stdin_broken = true;
            smct_buf_clear(&io->out);
            return;
        }
    }
}

bool smcj_io_wants_write(const smcj_runner_io_t *io)
{
    return io->out.len > 0 && io->proc.in_fd >= 0 && !io->stdin_broken;
}

smcj_io_read_t smcj_io_read_stdout(smcj_runner_io_t *io)
{
    char chunk[65536];
    for (;;) {
        if (io->proc.out_fd < 0) {
            return SMCJ_IO_AGAIN;
        }
        ssize_t n = read(io->proc.out_fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return SMCJ_IO_AGAIN; /* EAGAIN */
        }
        if (n == 0) {
            return SMCJ_IO_EOF;
        }
        smct_buf_append(&io->in, chunk, (size_t)n);
        if (!smcj_buf_ok(&io->in)) {
            return SMCJ_IO_AGAIN; /* out of memory (recorded): the session stops */
        }
        return SMCJ_IO_DATA;
    }
}

bool smcj_io_next_line(smcj_runner_io_t *io, const char **line, size_t *len)
{
    size_t from = io->in_scanned > io->line_start ? io->in_scanned : io->line_start;
    const char *nl = from < io->in.len ? memchr(io->in.data + from, '\n', io->in.len - from) : NULL;
    if (nl == NULL) {
        /* Only part of a line is left: keep it at the front, remember it holds no '\n'. */
        smct_buf_consume(&io->in, io->line_start);
        io->line_start = 0;
        io->in_scanned = io->in.len;
        return false;
    }
    size_t end = (size_t)(nl - io->in.data);
    *line = io->in.data + io->line_start;
    *len = end - io->line_start;
    io->line_start = end + 1;
    return true;
}

size_t smcj_io_partial_line(const smcj_runner_io_t *io)
{
    return io->in.len - io->line_start;
}

void smcj_io_read_stderr(smcj_runner_io_t *io)
{
    char chunk[8192];
    while (io->proc.err_fd >= 0) {
        ssize_t n = read(io->proc.err_fd, chunk, sizeof chunk);
        if (n > 0) {
            smct_buf_append(&io->err, chunk, (size_t)n);
            if (!smcj_buf_ok(&io->err)) {
                return; /* out of memory (recorded) */
            }
            if (io->err.len > 2 * STDERR_KEEP) {
                smct_buf_consume(&io->err, io->err.len - STDERR_KEEP);
            }
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            if (n == 0) {
                close(io->proc.err_fd);
                io->proc.err_fd = -1;
            }
            return;
        }
    }
}

void smcj_io_drain_stderr(smcj_runner_io_t *io, double seconds)
{
    double deadline = smcj_now() + seconds;
    while (io->proc.err_fd >= 0) {
        double left = deadline - smcj_now();
        if (left <= 0) {
            break;
        }
        struct pollfd p = {io->proc.err_fd, POLLIN, 0};
        int rc = poll(&p, 1, (int)(left * 1000) + 1);
        if (rc < 0 && errno == EINTR) {
            continue;
        }
        if (rc <= 0) {
            break;
        }
        smcj_io_read_stderr(io);
    }
}

char *smcj_io_stderr_tail(const smcj_runner_io_t *io)
{
    const smct_buf_t *err = &io->err;
    if (err->len == 0) {
        return smcj_strdup("");
    }
    size_t start = err->len > STDERR_TAIL_BYTES ? err->len - STDERR_TAIL_BYTES : 0;
    int lines = 0;
    size_t i = err->len;
    if (i > 0 && err->data[i - 1] == '\n') {
        i--; /* the final newline does not start a line of its own */
    }
    while (i > start) {
        if (err->data[i - 1] == '\n' && ++lines >= STDERR_TAIL_LINES) {
            break;
        }
        i--;
    }
    return smcj_strndup(err->data + i, err->len - i);
}

void smcj_io_clear_stderr(smcj_runner_io_t *io)
{
    smct_buf_clear(&io->err);
}

void smcj_io_free(smcj_runner_io_t *io)
{
    smct_buf_free(&io->out);
    smct_buf_free(&io->in);
    smct_buf_free(&io->err);
}
