/**
 * @file report_depth.h
 * @brief The depth a runner survives, read off the depth ladder (spec §15.1, D22): the
 *        `s15.1-ladder-KIND-N` vectors nest lists, maps and custom values N levels deep,
 *        N from 256 to 50,000. A report line says, per kind, the deepest rung the runner
 *        decoded, the first one it crashed or hung on, or that it rejected them all.
 */
#ifndef SMCJ_REPORT_DEPTH_H
#define SMCJ_REPORT_DEPTH_H

#include "model.h"

/**
 * Emit one line ("depth ladder (spec §15.1): lists: decodes 2,000 levels, crashes at
 * 5,000; ...") for runner `r`, or nothing when no rung of the ladder was run.
 */
void smcj_depth_ladder_note(const smcj_run_t *run, const smcj_runner_t *r,
                            void (*emit)(void *ctx, const char *note), void *ctx);

#endif /* SMCJ_REPORT_DEPTH_H */
