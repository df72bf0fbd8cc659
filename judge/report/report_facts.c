/*
 * The run's facts as the reports state them (report_facts.h): copied once, then printed.
 */
#include "report_facts.h"

#include "report_util.h"

void smcj_report_facts_of(smcj_report_facts_t *f, const smcj_run_t *run)
{
    *f = (smcj_report_facts_t){
        .vectors = run->vectors,
        .n_runners = run->n_runners,
        .gate = run->gate,
        .gate_passed = run->gate_passed,
        .exit_status = run->exit_status,
        .gate_notes = run->gate_notes,
        .n_gate_notes = run->n_gate_notes,
        .allow_xfail_crashes = run->allow_xfail_crashes,
        .allow_modified_vectors = run->allow_modified_vectors,
        .n_excused = run->n_excused,
        .n_excused_features = run->n_excused_features,
        .timeout = run->timeout,
        .max_run_time = run->max_run_time,
        .max_timeouts = run->max_timeouts,
        .max_restarts = run->max_restarts,
        .max_restarts_per_vector = run->max_restarts_per_vector,
        .memory_limit = run->memory_limit,
        .out_of_time = run->out_of_time,
        .strays = run->strays,
        .seconds = run->seconds,
        .started_at = run->started_at,
        .max_details = run->max_details,
        .list_na = run->list_na,
        .sandboxed = run->sandboxed,
        .sandbox_note = run->sandbox_note ? run->sandbox_note : "none",
    };
}

void smcj_vectors_integrity_line(smct_buf_t *b, const smcj_report_facts_t *f)
{
    const smcj_vectors_t *vs = f->vectors;
    if (vs->n_integrity == 0) {
        return;
    }
    /* issue 26: the first line must not read like a released set's; each problem is safe
     * text (file names escaped), one line */
    smct_buf_printf(b, "vectors MODIFIED (%s): not the released set of MANIFEST.json:",
                    f->allow_modified_vectors ? "allowed by --allow-modified-vectors"
                                              : "the gate refuses it");
    for (size_t k = 0; k < vs->n_integrity; k++) {
        smct_buf_puts(b, k ? "; " : " ");
        smcj_buf_excerpt_cstr(b, vs->integrity[k], 300);
    }
    smct_buf_putc(b, '\n');
}

void smcj_sandbox_line(smct_buf_t *b, const smcj_report_facts_t *f)
{
    /* bwrap's own message may be in the note: one safe line */
    smct_buf_printf(b, "sandbox: runners %s: ", f->sandboxed ? "sandboxed" : "NOT sandboxed");
    smcj_buf_excerpt_cstr(b, f->sandbox_note, 600);
    smct_buf_putc(b, '\n');
}

void smcj_limits_line(smct_buf_t *b, const smcj_report_facts_t *f)
{
    char mem[32];
    smcj_format_bytes(f->memory_limit, mem, sizeof mem);
    smct_buf_printf(b, "limits: --timeout %g s per request; --max-run-time ", f->timeout);
    smct_buf_printf(b, f->max_run_time > 0 ? "%g s" : "none", f->max_run_time);
    smct_buf_printf(b, "; --max-timeouts ");
    smct_buf_printf(b, f->max_timeouts ? "%u in a row" : "none", f->max_timeouts);
    smct_buf_printf(b, "; --max-restarts ");
    smct_buf_printf(b, f->max_restarts ? "%u" : "none", f->max_restarts);
    smct_buf_printf(b, f->max_restarts_per_vector ? " (%u per vector)" : " (none per vector)",
                    f->max_restarts_per_vector);
    smct_buf_printf(b, "; --memory-limit %s\n", f->memory_limit ? mem : "none");
    if (f->strays) {
        smct_buf_printf(b,
                        "killed at the end: %zu process%s that had left a runner's process "
                        "group (setsid, double fork)\n",
                        f->strays, f->strays == 1 ? "" : "es");
    }
}
