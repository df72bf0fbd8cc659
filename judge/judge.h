/**
 * @file judge.h
 * @brief `smc conformance`: runs runner processes (runners/PROTOCOL.md) against the golden
 *        vectors (spec/vectors.md) and reports per runner, per vector, per check.
 *
 * The judge is a static library (`smc_judge`) so the `smc` CLI can dispatch to it.
 */
#ifndef SMC_JUDGE_H
#define SMC_JUDGE_H

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Entry point of `smc conformance ARGS...`.
 * @param argc, argv  the arguments after the CLI's own dispatch: argv[0] is the command
 *                    name ("conformance" or the program name), argv[1..] the options.
 * @return 0 when the gate passed, 1 when it failed, 2 on a usage or setup error or when
 *         memory ran out (never exit(): every runner is killed and reaped first).
 */
int smc_judge_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif /* SMC_JUDGE_H */
