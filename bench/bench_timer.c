/*
 * Sampling and statistics. Each sample times a batch of back-to-back operations, sized so a
 * sample lasts at least min_sample_ns: clock reads (~20 ns) and timer granularity then stay
 * below 1% of what is measured even for 50 ns operations.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <time.h>

#include "bench.h"

uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int compare_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted samples (p in 0..100). */
static double percentile(const double *sorted, unsigned n, unsigned p)
{
    size_t index = ((size_t)(n - 1) * p + 50) / 100;
    return sorted[index];
}

static bool run_batch(bench_op_fn op, void *ctx, uint64_t batch, uint64_t *elapsed)
{
    uint64_t start = bench_now_ns();
    for (uint64_t i = 0; i < batch; i++) {
        if (!op(ctx)) {
            return false;
        }
    }
    *elapsed = bench_now_ns() - start;
    return true;
}

bool bench_measure(const bench_config_t *cfg, bench_op_fn op, void *ctx, bench_stats_t *out)
{
    /* Warm-up doubles as calibration: grow the batch until one lasts min_sample_ns, and keep
     * running until the warm-up time is spent (caches, branch predictors, CPU frequency). */
    uint64_t batch = 1, elapsed = 0;
    uint64_t warm_end = bench_now_ns() + cfg->warmup_ns;
    for (;;) {
        if (!run_batch(op, ctx, batch, &elapsed)) {
            return false;
        }
        if (elapsed < cfg->min_sample_ns && batch < ((uint64_t)1 << 30)) {
            batch *= 2;
        } else if (bench_now_ns() >= warm_end) {
            break;
        }
    }
    unsigned n = cfg->samples;
    double *per_op = (double *)malloc(n * sizeof *per_op);
    if (per_op == NULL) {
        return false;
    }
    for (unsigned s = 0; s < n; s++) {
        if (!run_batch(op, ctx, batch, &elapsed)) {
            free(per_op);
            return false;
        }
        per_op[s] = (double)elapsed / (double)batch;
    }
    qsort(per_op, n, sizeof *per_op, compare_double);
    out->median_ns = percentile(per_op, n, 50);
    out->p10_ns = percentile(per_op, n, 10);
    out->p90_ns = percentile(per_op, n, 90);
    out->samples = n;
    out->batch = batch;
    free(per_op);
    return true;
}
