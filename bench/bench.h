/**
 * @file bench.h
 * @brief `smc bench`: timing of the reference codec on the payloads of bench/payloads.json.
 *
 * Internal to the benchmark library (target smc_bench_lib); the CLI only knows
 * smc_bench_main (smc_bench.h). Definitions (value count, ops, statistics) are in bench/README.md.
 */
#ifndef SMC_BENCH_H
#define SMC_BENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smc/smc.h"
#include "smc_bench.h"

/** One payload, loaded, with everything the operations need prepared once. */
typedef struct bench_payload {
    char name[128];
    smc_entry_t entry;
    uint8_t *data; /* the bytes, malloc'ed (8-aligned by malloc, like a typical channel buffer) */
    size_t len;
    uint64_t values; /* value count, bench/README.md "Definitions" */
} bench_payload_t;

/** Timing knobs. */
typedef struct bench_config {
    unsigned samples;       /* samples per operation (>= 1; 200 by default) */
    uint64_t min_sample_ns; /* batch size is chosen so one sample lasts at least this */
    uint64_t warmup_ns;     /* warm-up time per operation */
    /* > 0: no timing; instead each operation runs once, then this many times between
     * callgrind client requests (zero the counters, dump them as "smc-bench PAYLOAD OP N"),
     * for instruction counts under `valgrind --tool=callgrind` (bench/README.md). */
    unsigned callgrind_runs;
} bench_config_t;

/** Statistics of one operation on one payload; times are per operation. */
typedef struct bench_stats {
    double median_ns;
    double p10_ns;
    double p90_ns;
    unsigned samples;
    uint64_t batch; /* operations per sample */
} bench_stats_t;

/** An operation under test: returns false on a codec error (the run then reports it). */
typedef bool (*bench_op_fn)(void *ctx);

/** Monotonic clock in nanoseconds. */
uint64_t bench_now_ns(void);

/**
 * Warm up, calibrate the batch size, take cfg->samples samples and compute statistics.
 * @return false if `op` failed at any point.
 */
bool bench_measure(const bench_config_t *cfg, bench_op_fn op, void *ctx, bench_stats_t *out);

/** Names of the operations, in the order bench_run_payload reports them. */
#define BENCH_OP_COUNT 11
extern const char *const bench_op_names[BENCH_OP_COUNT];

/** Result of one payload: stats per op, and which ops ran. */
typedef struct bench_result {
    bench_stats_t op[BENCH_OP_COUNT];
    bool ran[BENCH_OP_COUNT];
    bool failed;
    char error[160];
} bench_result_t;

/**
 * Count values of a payload: every tag byte on the wire (each scalar, string, container
 * header, custom wrapper; for calls and envelopes the name, code, message and stacktrace too)
 * plus every element of a typed list or Uint8List. Also checks that the payload is valid.
 */
bool bench_count_values(const bench_payload_t *p, uint64_t *values, smc_error_t *err);

/** True when this build can count instructions (valgrind/callgrind.h was found). */
bool bench_callgrind_available(void);

/* The manifest read without --manifest: $SMC_BENCH_MANIFEST, else the installed
 * share/smc/bench/payloads.json beside the executable (written into `buf`), else the source
 * tree's (bench_manifest.c). */
const char *bench_default_manifest(char *buf, size_t size);

/**
 * Run every operation selected in `op_mask` (bit i = bench_op_names[i]) on one payload. The
 * typed operations run only on record payloads (bench_typed.h); elsewhere they are skipped.
 */
void bench_run_payload(const bench_config_t *cfg, const bench_payload_t *p, unsigned op_mask,
                       bench_result_t *res);

#endif /* SMC_BENCH_H */
