/*
 * The pipes of one runner process (runner_io.h). A runner may write anything at any pace:
 * megabytes of stderr, a response split over many reads, several responses in one read.
 * stdout is therefore buffered and cut into lines here, and stderr is read whenever it has
 * data so a chatty runner never blocks on a full pipe (and never stalls the judge).
 *
 * Both directions are linear in the bytes moved: writes advance an offset into the queue
 * (which is compacted only when the written part is at least half of it), and reads go
 * straight into the line buffer, whose unfinished line moves to the front only after a
 * complete line before it was taken.
 */
#define _POSIX_C_SOURCE 200809L
#include "runner_io.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

/* A buffer emptied of more than this is given back: one 64 MiB answer must not keep its
 * memory for the rest of the run. */
#define KEEP_EMPTY ((size_t)4u << 20)

/* Least free room offered to one read() of stdout; a long line grows the buffer by doubling,
 * so reads of a 64 MiB answer get ever larger room and few system calls. */
#define READ_ROOM 65536u

void smcj_io_init(smcj_runner_io_t *io)
{
    memset(io, 0, sizeof *io);
    smcj_proc_init(&io->proc);
}

bool smcj_io_start(smcj_runner_io_t *io, const char *command, char *err, size_t err_size)
{
    smct_buf_clear(&io->out);
    smct_buf_clear(&io->in);
    io->out_pos = 0;
    io->queued_total = io->written_total = 0;
    io->line_start = 0;
    io->in_scanned = 0;
    io->stdin_broken = false;
    return smcj_proc_spawn(&io->proc, command, err, err_size);
}

smct_buf_t *smcj_io_line_begin(smcj_runner_io_t *io)
{
    if (io->out_pos > 0 && io->out_pos >= io->out.len / 2) {
        /* the written half goes: each byte is moved at most once more than it is written */
        smct_buf_consume(&io->out, io->out_pos);
        io->out_pos = 0;
    }
    io->line_from = io->out.len;
    return &io->out;
}

uint64_t smcj_io_line_end(smcj_runner_io_t *io)
{
    smct_buf_putc(&io->out, '\n');
    smcj_buf_ok(&io->out); /* a lost request would look like a hang: record out of memory */
    io->queued_total += io->out.len - io->line_from;
    return io->queued_total;
}

uint64_t smcj_io_send_line(smcj_runner_io_t *io, const char *line, size_t len)
{
    smct_buf_append(smcj_io_line_begin(io), line, len);
    return smcj_io_line_end(io);
}

void smcj_io_flush(smcj_runner_io_t *io)
{
    while (io->out_pos < io->out.len && io->proc.in_fd >= 0 && !io->stdin_broken) {
        ssize_t n = write(io->proc.in_fd, io->out.data + io->out_pos, io->out.len - io->out_pos);
        if (n > 0) {
            io->out_pos += (size_t)n;
            io->written_total += (uint64_t)n;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        } else {
            /* EPIPE: the runner closed stdin or died; its stdout EOF (or the timeout)
             * decides what happened, so nothing is attributed here. */
            io->stdin_broken = true;
            break;
        }
    }
    if (io->out_pos >= io->out.len || io->stdin_broken) {
        smct_buf_clear(&io->out); /* all written (or nobody reads): start at the front */
        io->out_pos = 0;
        if (io->out.cap > KEEP_EMPTY) {
            smct_buf_free(&io->out);
        }
    }
}

bool smcj_io_wants_write(const smcj_runner_io_t *io)
{
    return io->out_pos < io->out.len && io->proc.in_fd >= 0 && !io->stdin_broken;
}

size_t smcj_io_queued(const smcj_runner_io_t *io)
{
    return io->out.len - io->out_pos;
}

smcj_io_read_t smcj_io_read_stdout(smcj_runner_io_t *io)
{
    for (;;) {
        if (io->proc.out_fd < 0) {
            return SMCJ_IO_AGAIN;
        }
        if (!smct_buf_reserve(&io->in, READ_ROOM)) {
            smcj_buf_ok(&io->in); /* out of memory (recorded): the session stops */
            return SMCJ_IO_AGAIN;
        }
        /* read straight into the buffer, into all the room it has (its NUL byte aside) */
        size_t room = io->in.cap - io->in.len - 1;
        ssize_t n = read(io->proc.out_fd, io->in.data + io->in.len, room);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return SMCJ_IO_AGAIN; /* EAGAIN */
        }
        if (n == 0) {
            return SMCJ_IO_EOF;
        }
        io->in.len += (size_t)n;
        io->in.data[io->in.len] = '\0';
        return SMCJ_IO_DATA;
    }
}

bool smcj_io_next_line(smcj_runner_io_t *io, const char **line, size_t *len)
{
    size_t from = io->in_scanned > io->line_start ? io->in_scanned : io->line_start;
    const char *nl = from < io->in.len ? memchr(io->in.data + from, '\n', io->in.len - from) : NULL;
    if (nl == NULL) {
        /* Only part of a line is left: keep it at the front, remember it holds no '\n'.
         * It moves only when a line before it was taken, so each byte moves at most once. */
        if (io->line_start > 0) {
            smct_buf_consume(&io->in, io->line_start);
            io->line_start = 0;
        }
        if (io->in.len == 0 && io->in.cap > KEEP_EMPTY) {
            smct_buf_free(&io->in);
        }
        io->in_scanned = io->in.len;
        return false;
    }
    size_t end = (size_t)(nl - io->in.data);
    *line = io->in.data + io->line_start;
    *len = end - io->line_start;
    io->line_start = end + 1;
    return true;
}

void smcj_io_line_done(smcj_runner_io_t *io)
{
    if (io->line_start == io->in.len && io->in.cap > KEEP_EMPTY) {
        smct_buf_free(&io->in); /* the line was the last thing read: its memory goes now */
        io->line_start = io->in_scanned = 0;
    }
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
            if (!smcj_stderr_add(&io->err, chunk, (size_t)n)) {
                return; /* out of memory (recorded) */
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
    return smcj_stderr_excerpt(&io->err);
}

void smcj_io_clear_stderr(smcj_runner_io_t *io)
{
    smcj_stderr_clear(&io->err);
}

void smcj_io_free(smcj_runner_io_t *io)
{
    smct_buf_free(&io->out);
    smct_buf_free(&io->in);
    smcj_stderr_free(&io->err);
}
