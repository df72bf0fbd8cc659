/*
 * The run's facts as the reports state them (report_facts.h): copied once, then printed.
 */
#include "report_facts.h"

#include <string.h>

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
        .complexity = run->complexity,
        .complexity_skipped = run->complexity_skipped,
    };
}

void smcj_report_runner_facts_of(smcj_report_runner_facts_t *f, const smcj_runner_t *r)
{
    *f = (smcj_report_runner_facts_t){
        .name = r->name,
        .command = r->command,
        .skip_reason = r->skip_reason,
        .started = r->started,
        .start_failed = r->start_failed,
        .handshake_bad = r->handshake_bad,
        .start_error = r->start_error,
        .codec_name = r->codec_name,
        .codec_version = r->codec_version,
        .codec_language = r->codec_language,
        .decode_caps = r->decode_caps,
        .n_decode_caps = r->n_decode_caps,
        .encode_caps = r->encode_caps,
        .n_encode_caps = r->n_encode_caps,
        .opt_shift = r->opt_shift,
        .protocol = r->protocol,
        .unsupported_features = r->unsupported_features,
        .n_unsupported_features = r->n_unsupported_features,
        .handshake_note = r->handshake_note,
        .hosts = r->hosts,
        .n_hosts = r->n_hosts,
        .without_host = r->without_host,
        .without_type = r->without_type,
        .n_without = r->n_without,
        .xfail = r->xfail,
        .has_xfail = r->has_xfail,
        .restarts = r->restarts,
        .timeouts = r->timeouts,
        .gave_up = r->gave_up,
        .stop_reason = r->stop_reason,
        .stop_kind = r->stop_kind,
        .n_unsent = r->n_unsent,
        .requests_sent = r->requests_sent,
        .seconds = r->seconds,
        .stderr_tail = r->stderr_tail,
        .peak_rss = r->peak_rss,
        .bomb_growth = r->bomb_growth,
        .bombs_measured = r->bombs_measured,
        .strays = r->strays,
        .n_robust = r->n_robust,
        .n_bombs_accepted = r->n_bombs_accepted,
        .n_self_checked = r->n_self_checked,
        .n_self_sent = r->n_self_sent,
        .n_self_failed = r->n_self_failed,
        .complexity = r->complexity,
    };
    memcpy(f->entry_ok, r->entry_ok, sizeof f->entry_ok);
    memcpy(f->decl, r->decl, sizeof f->decl);
}

void smcj_memory_line(smct_buf_t *b, const smcj_report_runner_facts_t *r)
{
    if (r->peak_rss) {
        char peak[32];
        smcj_format_bytes(r->peak_rss, peak, sizeof peak);
        smct_buf_printf(b, "%s: memory: peak resident %s", r->name, peak);
        if (r->bombs_measured) {
            char g[32];
            smcj_format_bytes(r->bomb_growth, g, sizeof g);
            smct_buf_printf(b, "; largest growth on a length-bomb input %s (%zu measured)", g,
                            r->bombs_measured);
        }
        smct_buf_putc(b, '\n');
    }
    if (r->strays) {
        smct_buf_printf(b,
                        "%s: killed %zu process%s that had left its process group (setsid, "
                        "double fork)\n",
                        r->name, r->strays, r->strays == 1 ? "" : "es");
    }
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
