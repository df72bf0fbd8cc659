/**
 * @file diag_probes.h
 * @brief Diagnosis probes (issue 28): after the verdicts, the valid vectors outside the
 *        selection that the diagnosis needs are sent to a failing runner once, so what it
 *        learns of the runner (the features it refuses, diag_accidental.h) does not depend on
 *        which sections were selected.
 *
 * At the top of the judge: it runs a session (run/) with the planner's probe checks (verdict/)
 * for the diagnosis (diagnosis/). A probe is a flutter-mode decode of a valid vector whose value
 * holds a container element (the only thing a refused feature is learned from), sent only to a
 * runner with an entry that lacks `error-classes` (the only kind whose passes may be accidental).
 * The probes run in a session of their own, after every verdict is computed, on fresh runner
 * processes: they are never a verdict, never in a report's results or counts, cannot use a
 * selected vector's restart or timeout budget, and a probe that crashes or hangs says nothing
 * (it is no decode and no rejection); under --max-run-time they get what the verdicts left of
 * it, and none when it ran out. The text and JSON reports state how many were planned
 * (the diagnosis block; JSON `probes`).
 */
#ifndef SMCJ_DIAG_PROBES_H
#define SMCJ_DIAG_PROBES_H

#include "model.h"
#include "session.h"

/** Send the probes to every runner the diagnosis may excuse a pass of, into its
 *  `probes`; cfg is the verdicts' session configuration (its progress line is not shown). */
void smcj_diag_probes_run(smcj_run_t *run, const smcj_session_cfg_t *cfg);

/** --no-probes: send none, and mark each runner that would have been sent them
 *  (`probes_off`), so that its diagnosis says it ran without them. */
void smcj_diag_probes_off(smcj_run_t *run);

#endif /* SMCJ_DIAG_PROBES_H */
