/*
 * A warm spare for a runner that crashes (session_internal.h). Most of what a restart costs
 * is the new process starting: fork, exec, the runtime's start-up, the hello round trip, a
 * few milliseconds for a C runner, a second for a JVM. A codec that crashes on 5 % of the
 * vectors restarts hundreds of times, and its run took several times as long as a clean one.
 * So after a runner's first restart the judge keeps one more process started and handshaken
 * beside the working one; at the next crash it takes over at once, and the next spare starts
 * while the work goes on. A runner that never crashes never gets one. A spare that does not
 * complete its handshake turns spares off for the runner (its restarts then go as before,
 * and are charged as before: a spare's failure is never charged to a request).
 */
#define _POSIX_C_SOURCE 200809L
#include <string.h>

#include "alloc.h"
#include "handshake.h"
#include "session_internal.h"
#include "smct_json.h"

void smcj_spare_start(smcj_session_t *s)
{
    if (s->spare_state != SMCJ_SPARE_NONE || s->state != SMCJ_SESSION_RUN) {
        return;
    }
    char err[256];
    if (!smcj_io_start(&s->spare, s->r->command, err, sizeof err)) {
        s->spare_state = SMCJ_SPARE_OFF;
        return;
    }
    smct_buf_t hello = {0};
    smcj_hello_line(&hello);
    if (smcj_buf_ok(&hello)) {
        smcj_io_send_line(&s->spare, hello.data, hello.len);
    }
    smct_buf_free(&hello);
    smcj_io_flush(&s->spare);
    s->spare_state = SMCJ_SPARE_HELLO;
    s->spare_since = smcj_now();
}

void smcj_spare_end(smcj_session_t *s)
{
    smcj_proc_kill(&s->spare.proc);
    smcj_io_free(&s->spare);
    smcj_io_init(&s->spare);
    if (s->spare_state != SMCJ_SPARE_OFF) {
        s->spare_state = SMCJ_SPARE_NONE;
    }
    s->reaped_one = true;
}

/* A spare that fails its handshake: no more spares for this runner. */
static void spare_failed(smcj_session_t *s)
{
    smcj_spare_end(s);
    s->spare_state = SMCJ_SPARE_OFF;
}

bool smcj_spare_take(smcj_session_t *s)
{
    if (s->spare_state != SMCJ_SPARE_READY && s->spare_state != SMCJ_SPARE_HELLO) {
        return false;
    }
    bool ready = s->spare_state == SMCJ_SPARE_READY;
    smcj_io_free(&s->io); /* the old process is dead and reaped (smcj_session_failure) */
    s->io = s->spare;     /* what the spare wrote to stderr since it started goes with it */
    smcj_io_init(&s->spare);
    s->spare_state = SMCJ_SPARE_NONE;
    s->generation++;
    s->answers_this_process = 0;
    smcj_watch_reset(s);
    if (!ready) {
        /* Still starting: it is the restarted process now, its hello already sent, and its
         * answer is checked by the session as any restart's (and a failure charged as one);
         * its start-up time counts from when it was started. */
        s->state = SMCJ_SESSION_HELLO;
        s->wait_since = s->head_since = s->spare_since;
        s->head_written = s->io.written_total;
    }
    return true;
}

size_t smcj_spare_poll_fds(const smcj_session_t *s, struct pollfd *pfd)
{
    size_t np = 0;
    if (s->spare_state != SMCJ_SPARE_HELLO && s->spare_state != SMCJ_SPARE_READY) {
        return 0;
    }
    if (s->spare.proc.out_fd >= 0 && s->spare_state == SMCJ_SPARE_HELLO) {
        pfd[np++] = (struct pollfd){s->spare.proc.out_fd, POLLIN, 0};
    }
    if (s->spare.proc.err_fd >= 0) {
        pfd[np++] = (struct pollfd){s->spare.proc.err_fd, POLLIN, 0};
    }
    return np;
}

/* The spare's hello answer, checked as a restarted runner's is (P.1). */
static void take_hello(smcj_session_t *s, const char *line, size_t len)
{
    smc_arena_reset(&s->arena);
    smct_json_t *resp = NULL;
    smct_error_t e;
    smct_status_t st = smct_json_parse(line, len, NULL, &s->arena, &resp, &e);
    if (st == SMCT_ERR_NOMEM) {
        smcj_nomem();
        return;
    }
    char *bad = st == SMCT_OK && resp->type == SMCT_JSON_OBJECT
                    ? smcj_handshake_take(s->r, resp, false)
                    : smcj_strdup("not a JSON object");
    smc_arena_reset(&s->arena);
    if (bad || smcj_out_of_memory()) {
        smcj_free_strs(&bad, 1);
        spare_failed(s);
        return;
    }
    s->spare_state = SMCJ_SPARE_READY;
}

void smcj_spare_service(smcj_session_t *s)
{
    if (s->spare_state != SMCJ_SPARE_HELLO && s->spare_state != SMCJ_SPARE_READY) {
        return;
    }
    smcj_io_read_stderr(&s->spare);
    smcj_io_flush(&s->spare);
    if (smcj_proc_try_reap(&s->spare.proc) && s->spare.proc.pid > 0) {
        spare_failed(s); /* it died waiting */
        return;
    }
    if (s->spare_state == SMCJ_SPARE_READY) {
        return; /* anything it writes now is read once it takes over */
    }
    smcj_io_read_t got = smcj_io_read_stdout(&s->spare);
    const char *line;
    size_t len;
    if (got == SMCJ_IO_EOF) {
        spare_failed(s);
    } else if (smcj_io_next_line(&s->spare, &line, &len)) {
        take_hello(s, line, len);
    } else if (smcj_now() - s->spare_since > s->cfg->start_timeout ||
               smcj_io_partial_line(&s->spare) > s->cfg->max_line) {
        spare_failed(s);
    }
}
