/**
 * @file smc_bench.h
 * @brief `smc bench`: the one function of the benchmark library (target smc_bench_lib) that
 *        the `smc` CLI calls. Everything else is internal (bench.h, bench/README.md).
 */
#ifndef SMC_BENCH_MAIN_H
#define SMC_BENCH_MAIN_H

/** Entry point of `smc bench` (argv[0] is "bench"). Exit 0 ok, 1 a payload failed, 2 usage. */
int smc_bench_main(int argc, char **argv);

#endif /* SMC_BENCH_MAIN_H */
