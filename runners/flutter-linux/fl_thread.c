/* The engine's thread of fl_thread.h. One long-lived thread, not one per call: the judge
 * times a decode by the CPU time of the runner's live threads (judge/complexity), which a
 * thread that has exited no longer shows. */
#define _POSIX_C_SOURCE 200809L /* pthread_attr_setstacksize, pthread_attr_setguardsize */
#include "fl_thread.h"

#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The main thread's stack is kept apart from what lies below it by the kernel's guard gap
 * (stack_guard_gap, 256 pages): the same here, so that a large frame past the end of the
 * stack still lands on the guard and ends in SIGSEGV, as on the platform thread. */
#define ENGINE_GUARD ((size_t)1 << 20)

typedef void (*job_fn_t)(void *job);

static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cond = PTHREAD_COND_INITIALIZER;
static job_fn_t g_fn;  /* the job to run, under g_lock */
static void *g_job;    /* its arguments and answer */
static bool g_pending; /* set by run_on_engine, cleared by the engine thread when done */
static smc_runner_codec_t g_inner; /* the codec's own calls */

static void *engine_main(void *unused)
{
    (void)unused;
    pthread_mutex_lock(&g_lock);
    for (;;) {
        while (!g_pending) {
            pthread_cond_wait(&g_cond, &g_lock);
        }
        job_fn_t fn = g_fn;
        void *job = g_job;
        pthread_mutex_unlock(&g_lock);
        fn(job);
        pthread_mutex_lock(&g_lock);
        g_pending = false;
        pthread_cond_broadcast(&g_cond);
    }
    return NULL;
}

/* Run fn(job) on the engine's thread and wait until it returns. */
static void run_on_engine(job_fn_t fn, void *job)
{
    pthread_mutex_lock(&g_lock);
    g_fn = fn;
    g_job = job;
    g_pending = true;
    pthread_cond_broadcast(&g_cond);
    while (g_pending) {
        pthread_cond_wait(&g_cond, &g_lock);
    }
    pthread_mutex_unlock(&g_lock);
}

/* ---- each codec call as a job: its arguments, and its answer ---- */

typedef struct {
    void *ctx;
    smc_entry_t entry;
    const uint8_t *data;
    size_t len;
    smc_runner_mode_t mode;
    smc_arena_t *arena;
    smc_runner_item_t *out;
    smc_runner_report_t *report;
    smc_runner_status_t status;
} decode_job_t;

static void decode_job(void *p)
{
    decode_job_t *j = p;
    j->status =
        g_inner.decode(j->ctx, j->entry, j->data, j->len, j->mode, j->arena, j->out, j->report);
}

static smc_runner_status_t on_engine_decode(void *ctx, smc_entry_t entry, const uint8_t *data,
                                            size_t len, smc_runner_mode_t mode, smc_arena_t *arena,
                                            smc_runner_item_t *out, smc_runner_report_t *report)
{
    decode_job_t j = {ctx, entry, data, len, mode, arena, out, report, SMC_RUNNER_SKIPPED};
    run_on_engine(decode_job, &j);
    return j.status;
}

/* encode and reencode: an item in, bytes out */
typedef struct {
    void *ctx;
    const smc_runner_item_t *item;
    smc_arena_t *arena;
    uint8_t **out;
    size_t *out_len;
    smc_runner_report_t *report;
    smc_runner_status_t status;
} encode_job_t;

static void encode_job(void *p)
{
    encode_job_t *j = p;
    j->status = g_inner.encode(j->ctx, j->item, j->arena, j->out, j->out_len, j->report);
}

static void reencode_job(void *p)
{
    encode_job_t *j = p;
    j->status = g_inner.reencode(j->ctx, j->item, j->arena, j->out, j->out_len, j->report);
}

static smc_runner_status_t on_engine_encode(void *ctx, const smc_runner_item_t *item,
                                            smc_arena_t *arena, uint8_t **out, size_t *out_len,
                                            smc_runner_report_t *report)
{
    encode_job_t j = {ctx, item, arena, out, out_len, report, SMC_RUNNER_SKIPPED};
    run_on_engine(encode_job, &j);
    return j.status;
}

static smc_runner_status_t on_engine_reencode(void *ctx, const smc_runner_item_t *decoded,
                                              smc_arena_t *arena, uint8_t **out, size_t *out_len,
                                              smc_runner_report_t *report)
{
    encode_job_t j = {ctx, decoded, arena, out, out_len, report, SMC_RUNNER_SKIPPED};
    run_on_engine(reencode_job, &j);
    return j.status;
}

typedef struct {
    void *ctx;
    const char *vocabulary;
    const smc_runner_host_value_t *hv;
    smc_arena_t *arena;
    uint8_t **out;
    size_t *out_len;
    smc_runner_report_t *report;
    smc_runner_status_t status;
} host_encode_job_t;

static void host_encode_job(void *p)
{
    host_encode_job_t *j = p;
    j->status =
        g_inner.host_encode(j->ctx, j->vocabulary, j->hv, j->arena, j->out, j->out_len, j->report);
}

static smc_runner_status_t on_engine_host_encode(void *ctx, const char *vocabulary,
                                                 const smc_runner_host_value_t *hv,
                                                 smc_arena_t *arena, uint8_t **out, size_t *out_len,
                                                 smc_runner_report_t *report)
{
    host_encode_job_t j = {ctx, vocabulary, hv, arena, out, out_len, report, SMC_RUNNER_SKIPPED};
    run_on_engine(host_encode_job, &j);
    return j.status;
}

typedef struct {
    void *ctx;
    const char *vocabulary;
    const uint8_t *data;
    size_t len;
    smc_arena_t *arena;
    smc_runner_host_value_t **out;
    smc_runner_report_t *report;
    smc_runner_status_t status;
} host_decode_job_t;

static void host_decode_job(void *p)
{
    host_decode_job_t *j = p;
    j->status =
        g_inner.host_decode(j->ctx, j->vocabulary, j->data, j->len, j->arena, j->out, j->report);
}

static smc_runner_status_t on_engine_host_decode(void *ctx, const char *vocabulary,
                                                 const uint8_t *data, size_t len,
                                                 smc_arena_t *arena, smc_runner_host_value_t **out,
                                                 smc_runner_report_t *report)
{
    host_decode_job_t j = {ctx, vocabulary, data, len, arena, out, report, SMC_RUNNER_SKIPPED};
    run_on_engine(host_decode_job, &j);
    return j.status;
}

bool smc_fl_thread_wrap(smc_runner_codec_t *codec, char *err, size_t err_size)
{
    g_inner = *codec;
    pthread_attr_t attr;
    pthread_t thread;
    int rc = pthread_attr_init(&attr);
    if (rc == 0) {
        rc = pthread_attr_setstacksize(&attr, SMC_FL_ENGINE_STACK);
    }
    if (rc == 0) {
        rc = pthread_attr_setguardsize(&attr, ENGINE_GUARD);
    }
    if (rc == 0) {
        rc = pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    }
    if (rc == 0) {
        rc = pthread_create(&thread, &attr, engine_main, NULL);
    }
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        snprintf(err, err_size, "no engine thread with a %zu-byte stack: %s", SMC_FL_ENGINE_STACK,
                 strerror(rc));
        return false;
    }
    codec->decode = g_inner.decode ? on_engine_decode : NULL;
    codec->encode = g_inner.encode ? on_engine_encode : NULL;
    codec->reencode = g_inner.reencode ? on_engine_reencode : NULL;
    codec->host_encode = g_inner.host_encode ? on_engine_host_encode : NULL;
    codec->host_decode = g_inner.host_decode ? on_engine_host_decode : NULL;
    return true;
}
