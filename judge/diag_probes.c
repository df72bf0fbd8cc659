/*
 * Diagnosis probes (diag_probes.h): a second session, after the verdicts, over copies of the
 * failing runners that hold only their command, whose checks are moved to the originals'
 * `probes` at the end.
 */
#include "diag_probes.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diagnosis.h"
#include "options.h"
#include "plan.h"
#include "self_check.h"
#include "verdict.h"

/* A handshake that failed plans no probe: there is nothing to learn. */
static void plan_nothing(smcj_runner_t *r, const smcj_vectors_t *vs, smcj_reason_t reason,
                         const char *detail)
{
    (void)r, (void)vs, (void)reason, (void)detail;
}

void smcj_diag_probes_run(smcj_run_t *run, const smcj_session_cfg_t *cfg)
{
    smcj_vectors_t *vs = run->vectors;
    /* --max-run-time bounds the whole run: the probes get what the verdicts left of it */
    double left = cfg->max_run_time > 0 ? cfg->max_run_time - run->seconds : 0;
    if (run->out_of_time || (cfg->max_run_time > 0 && left < 1)) {
        return;
    }
    size_t n_probe = 0;
    for (size_t i = 0; i < vs->count; i++) {
        smcj_vector_t *v = &vs->v[i];
        v->probe = smcj_diagnosis_probes_vector(v);
        n_probe += v->probe;
    }
    smcj_runner_t *copies = n_probe ? smcj_calloc(run->n_runners, sizeof *copies) : NULL;
    size_t *of = copies ? smcj_calloc(run->n_runners, sizeof *of) : NULL;
    size_t n = 0;
    for (size_t i = 0; of && i < run->n_runners; i++) {
        const smcj_runner_t *r = &run->runners[i];
        if (smcj_diagnosis_probes_runner(r, vs)) {
            copies[n].name = smcj_strdup(r->name);
            copies[n].command = smcj_strdup(r->command);
            of[n++] = i;
        }
    }
    if (n > 0 && !smcj_out_of_memory()) {
        static const smcj_session_hooks_t hooks = {
            smcj_plan_probes, plan_nothing, smcj_self_prepare, smcj_request_line, smcj_verdict};
        smcj_session_cfg_t c = *cfg;
        c.hooks = &hooks;
        c.progress = false;
        c.max_run_time = left;
        smcj_run_t probe_run = *run; /* what the session writes of it (time spent) is dropped */
        probe_run.runners = copies;
        probe_run.n_runners = n;
        smcj_sessions_run(&probe_run, &c);
        for (size_t k = 0; k < n; k++) {
            smcj_runner_t *r = &run->runners[of[k]];
            r->probes = copies[k].checks;
            r->n_probes = copies[k].n_checks;
            copies[k].checks = NULL;
            copies[k].n_checks = 0;
        }
    }
    for (size_t k = 0; copies && k < n; k++) {
        smcj_runner_free(&copies[k]);
    }
    free(copies);
    free(of);
    for (size_t i = 0; i < vs->count; i++) {
        vs->v[i].probe = false;
    }
}

void smcj_diag_probes_off(smcj_run_t *run)
{
    for (size_t i = 0; i < run->n_runners; i++) {
        smcj_runner_t *r = &run->runners[i];
        r->probes_off = smcj_diagnosis_probes_runner(r, run->vectors);
    }
}
