/*
 * The complexity verdict as a pure function of timings (spec §15.4, R15.4-1;
 * judge/complexity/complexity_fit.c): which two members the growth is fitted on, and what the
 * ratio between them comes to. Timings are written here, so every case is exact; the judge's
 * timing of real runners is test_complexity.py's.
 */
#include <stdio.h>
#include <stdlib.h>

#include "complexity.h"

static int failures;

static void check(int ok, const char *what)
{
    printf("%s: %s\n", ok ? "ok" : "FAIL", what);
    failures += !ok;
}

#define N_MEMBERS 11

/* Eleven doubling members from 4 KiB to 4 MiB, each timed three times at ns_per_byte(i) (and
 * twice a baseline of base_per_byte): the probe and two full repetitions. */
static void timings(smcj_cx_timing_t t[N_MEMBERS], const double ns_per_byte[N_MEMBERS],
                    double base_per_byte)
{
    for (size_t i = 0; i < N_MEMBERS; i++) {
        size_t bytes = (size_t)4096 << i;
        uint64_t ns = (uint64_t)(ns_per_byte[i] * (double)bytes);
        uint64_t base = (uint64_t)(base_per_byte * (double)bytes);
        t[i] = (smcj_cx_timing_t){.index = i,
                                  .bytes = bytes,
                                  .best_ns = ns,
                                  .last_ns = ns,
                                  .base_best_ns = base,
                                  .base_last_ns = base,
                                  .runs = 3,
                                  .base_runs = 2};
    }
}

static smcj_cx_outcome_t judge_range(const smcj_cx_timing_t *t, size_t lo, size_t hi)
{
    smcj_cx_result_t res = {0};
    res.lo = t[lo];
    res.hi = t[hi];
    /* every repetition here has the same timings: all of them fail on their own, or none */
    res.failed_rounds = smcj_cx_latest_fails(&res) ? 2 : 0;
    smcj_cx_judge(&res);
    return res.outcome;
}

/* The first member the judge's probe would take as worth a ratio (6 ms), as complexity_run.c. */
static size_t first_timeable(const smcj_cx_timing_t *t)
{
    for (size_t i = 0; i < N_MEMBERS; i++) {
        if (t[i].best_ns >= 6000000u) {
            return i;
        }
    }
    return N_MEMBERS - 1;
}

int main(void)
{
    smcj_cx_timing_t t[N_MEMBERS];

    /* Measured in a fresh-clone CI run: the Swift runner's long string cost 6.5 ns a byte at
     * 2 MiB (13.7 ms), 9.6 ns a byte at 4 MiB (40.1 ms), under 6 ms at 1 MiB, its baseline more
     * than that. Linear, with steps in per-byte cost at the largest members. */
    double swift[N_MEMBERS];
    for (size_t i = 0; i < N_MEMBERS; i++) {
        swift[i] = i < N_MEMBERS - 2 ? 5.5 : i < N_MEMBERS - 1 ? 6.53 : 9.55;
    }
    timings(t, swift, 12.0);
    size_t lo0 = first_timeable(t), hi = N_MEMBERS - 1;
    check(lo0 == 9, "the first member worth timing is the 2 MiB one, beside the largest");
    check(judge_range(t, lo0, hi) == SMCJ_CX_FAIL,
          "fitted on the two neighbours alone, the step reads as growth (2x input, 2.9x time)");
    size_t lo = smcj_cx_pick_lo(t, lo0, hi);
    check(lo == hi - 3, "the range is widened to 8x below the largest member");
    check(judge_range(t, lo, hi) == SMCJ_CX_PASS, "and over 8x the linear codec passes");

    /* A quadratic codec (time ∝ n²) reaching 6 ms at the same member still fails over 8x. */
    double quad[N_MEMBERS];
    for (size_t i = 0; i < N_MEMBERS; i++) {
        quad[i] = 6.53 * (double)((size_t)1 << i) / 512.0;
    }
    timings(t, quad, 1.0);
    lo0 = first_timeable(t);
    lo = smcj_cx_pick_lo(t, lo0, hi);
    check(judge_range(t, lo, hi) == SMCJ_CX_FAIL, "a quadratic codec fails over the widened range");

    /* Near the line a failure needs two repetitions failing on their own, any two; far over
     * it, the latest alone. */
    timings(t, swift, 12.0);
    smcj_cx_result_t res = {.lo = t[9], .hi = t[10]};
    check(smcj_cx_latest_fails(&res), "the neighbours' repetition fails on its own");
    res.failed_rounds = 1;
    smcj_cx_judge(&res);
    check(res.outcome == SMCJ_CX_PASS && smcj_cx_unconfirmed(&res),
          "near the line, one failing repetition is a pass waiting for confirmation");
    res.failed_rounds = 2;
    smcj_cx_judge(&res);
    check(res.outcome == SMCJ_CX_FAIL, "and two of them fail it");
    timings(t, quad, 1.0);
    res = (smcj_cx_result_t){.lo = t[3], .hi = t[10], .failed_rounds = 1};
    smcj_cx_judge(&res);
    check(res.outcome == SMCJ_CX_FAIL, "far over the line, one failing repetition is enough");

    /* Widening stops at members too fast to time (under SMCJ_CX_FLOOR_NS). */
    double fast[N_MEMBERS];
    for (size_t i = 0; i < N_MEMBERS; i++) {
        fast[i] = i >= 9 ? 6.53 : 0.01;
    }
    timings(t, fast, 0.0);
    check(smcj_cx_pick_lo(t, 9, hi) == 9, "no member under 1.5 ms is taken as the smaller one");
    check(smcj_cx_pick_lo(t, hi, hi) == hi - 1,
          "the first member worth timing being the largest, its neighbour is the smaller one");
    check(smcj_cx_pick_lo(t, 0, 0) == 0, "a family of one member has no range");
    check(smcj_cx_pick_lo(t, 2, 8) == 2, "a range of 8x or more is left as it is");

    printf("%s\n", failures ? "cx_fit_test: FAILED" : "cx_fit_test: all passed");
    return failures ? 1 : 0;
}
