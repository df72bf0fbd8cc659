/**
 * @file runner_io.h
 * @brief The pipes of one runner process (runners/PROTOCOL.md P.2, P.4): buffered writes to
 *        its stdin, its stdout cut into lines, and a bounded record of its stderr that keeps
 *        the evidence of a crash (the first sanitizer, fatal-error or panic line).
 *
 * Every fd is non-blocking (proc.h), so no call here waits for the runner except
 * smcj_io_drain_stderr, which waits a bounded time. This layer knows bytes and lines only:
 * what a line means, and what a closed pipe means, is the session's job (session.c).
 *
 * Cost: every byte written to the runner is copied once into the queue and written once;
 * every byte read is read once into the line buffer and moved at most once (the unfinished
 * line is moved to the front when a line before it was taken). No buffer is ever shifted per
 * write or per line, so a 64 MiB line costs time linear in its size, and the line buffer
 * holds at most twice the longest line.
 */
#ifndef SMCJ_RUNNER_IO_H
#define SMCJ_RUNNER_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "escape.h"
#include "proc.h"
#include "stderr_record.h"

typedef struct smcj_runner_io {
    smcj_proc_t proc;
    smct_buf_t out;         /* queued for the runner's stdin: out[out_pos..) is not written yet */
    size_t out_pos;         /* bytes of `out` already written */
    bool stdin_broken;      /* a write failed (EPIPE): the runner stopped reading */
    uint64_t queued_total;  /* bytes ever queued for this process's stdin */
    uint64_t written_total; /* bytes of them written */
    size_t line_from;       /* smcj_io_line_begin: where the line being rendered starts */
    smct_buf_t in;          /* bytes read from stdout; in[line_start..) is not yet a whole line */
    size_t line_start;      /* start of the next line in `in` */
    size_t in_scanned;      /* in[line_start..in_scanned) is known to hold no '\n' */
    smcj_stderr_t err;      /* the runner's recent stderr and the evidence of a crash */
} smcj_runner_io_t;

/** Result of one smcj_io_read_stdout. */
typedef enum smcj_io_read {
    SMCJ_IO_AGAIN = 0, /* nothing to read now (or stdout already closed) */
    SMCJ_IO_DATA = 1,  /* bytes were appended; take the lines with smcj_io_next_line */
    SMCJ_IO_EOF = 2    /* the runner closed its stdout */
} smcj_io_read_t;

/** No process, every buffer empty. */
void smcj_io_init(smcj_runner_io_t *io);

/**
 * Start `/bin/sh -c command` with fresh stdin/stdout buffers (what the previous process left
 * unsent or unread belongs to it). The stderr record is kept: it is cleared where a failure
 * has been attributed. False with a message if the process could not be started.
 */
bool smcj_io_start(smcj_runner_io_t *io, const char *command, char *err, size_t err_size);

/** Queue `len` bytes and a '\n' for the runner's stdin; smcj_io_flush sends them. Returns
 *  queued_total after them: the line is all written once written_total reaches it. */
uint64_t smcj_io_send_line(smcj_runner_io_t *io, const char *line, size_t len);

/** Render a line straight into the queue (no copy of a 128 MiB request): append it to the
 *  buffer returned, then call smcj_io_line_end, which adds the '\n' and returns as
 *  smcj_io_send_line does. */
smct_buf_t *smcj_io_line_begin(smcj_runner_io_t *io);
uint64_t smcj_io_line_end(smcj_runner_io_t *io);

/** Write what the pipe takes now. After EPIPE the queue is dropped (see stdin_broken). */
void smcj_io_flush(smcj_runner_io_t *io);

/** True when queued bytes wait for the runner's stdin to accept them (poll for POLLOUT). */
bool smcj_io_wants_write(const smcj_runner_io_t *io);

/** Bytes queued for the runner's stdin and not yet written. */
size_t smcj_io_queued(const smcj_runner_io_t *io);

/** One read() of stdout into the line buffer. */
smcj_io_read_t smcj_io_read_stdout(smcj_runner_io_t *io);

/**
 * The next complete line (without its '\n') read so far, or false when only part of a line
 * is left. `*line` stays valid until the next read or start.
 */
bool smcj_io_next_line(smcj_runner_io_t *io, const char **line, size_t *len);

/** The last line taken has been parsed: if nothing follows it, a large buffer is given back
 *  at once (the parsed tree holds what is needed), before its verdict. */
void smcj_io_line_done(smcj_runner_io_t *io);

/** Bytes of the line the runner has not finished yet (to enforce the longest line). */
size_t smcj_io_partial_line(const smcj_runner_io_t *io);

/** Read what stderr holds now, keeping the last 16-32 KiB and the first fatal line. */
void smcj_io_read_stderr(smcj_runner_io_t *io);

/** Collect what a dying or killed runner wrote to stderr, waiting at most `seconds`. */
void smcj_io_drain_stderr(smcj_runner_io_t *io, double seconds);

/** The stderr excerpt a report shows, as a new string (smcj_stderr_excerpt). */
char *smcj_io_stderr_tail(const smcj_runner_io_t *io);

/** Forget the stderr record (after it was attributed to a failure). */
void smcj_io_clear_stderr(smcj_runner_io_t *io);

/** Release the buffers (the process must have been killed with smcj_proc_kill). */
void smcj_io_free(smcj_runner_io_t *io);

#endif /* SMCJ_RUNNER_IO_H */
