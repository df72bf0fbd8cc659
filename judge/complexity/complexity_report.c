/*
 * The complexity section of every report (spec §15.3, §15.4): one line a person reads per
 * family and runner, the memory growth measured on length bombs beside it, and the gate.
 * Kept apart from the report writers so that each of them makes one call.
 */
#define _POSIX_C_SOURCE 200809L
#include "complexity.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "escape.h"
#include "model.h"
#include "smct_json.h"

#define FAMILY_FILE "c15-complexity.json"

bool smcj_cx_load_for_run(smcj_cx_families_t *fs, const char *given, const char *vectors_dir,
                          char *err, size_t err_size)
{
    memset(fs, 0, sizeof *fs);
    char *path = given ? smcj_strdup(given) : smcj_asprintf("%s/%s", vectors_dir, FAMILY_FILE);
    struct stat st;
    bool ok = true;
    if (path && (given || stat(path, &st) == 0)) {
        ok = smcj_cx_load(fs, path, err, err_size);
    }
    free(path);
    return ok;
}

static const char *outcome_word(smcj_cx_outcome_t o)
{
    return o == SMCJ_CX_PASS   ? "pass"
           : o == SMCJ_CX_FAIL ? "fail"
           : o == SMCJ_CX_NA   ? "na"
                               : "unmeasured";
}

static bool gated(const smcj_run_t *run)
{
    const char *tier = run->complexity ? run->complexity->tier : "recommended";
    return run->gate == SMCJ_GATE_ALL ||
           (run->gate == SMCJ_GATE_RECOMMENDED && strcmp(tier, "impl-defined") != 0) ||
           strcmp(tier, "required") == 0;
}

void smcj_cx_gate(smcj_run_t *run)
{
    for (size_t ri = 0; run->complexity && ri < run->n_runners; ri++) {
        const smcj_runner_t *r = &run->runners[ri];
        const smcj_cx_runner_t *cx = r->complexity;
        if (!cx || cx->n_fail == 0) {
            continue;
        }
        smct_buf_t b = {0};
        smct_buf_printf(&b, "%s: %zu complexity famil%s grow%s faster than n log n (spec %s, %s)%s",
                        r->name, cx->n_fail, cx->n_fail == 1 ? "y" : "ies",
                        cx->n_fail == 1 ? "s" : "", run->complexity->requirement,
                        run->complexity->tier, gated(run) ? "" : "; not gated by --gate required");
        char *text = smcj_buf_take(&b);
        size_t cap = run->n_gate_notes;
        if (text &&
            smcj_grow((void **)&run->gate_notes, &cap, run->n_gate_notes + 1, sizeof(char *))) {
            run->gate_notes[run->n_gate_notes++] = text;
        } else {
            free(text);
        }
        if (gated(run) && run->exit_status == 0) {
            run->gate_passed = false;
            run->exit_status = 1;
        }
    }
}

/* "not checked (--no-complexity)" or "not checked: no c15-complexity.json in DIR", or NULL. */
static const char *not_checked_of(const smcj_cx_families_t *fs, bool skipped)
{
    return skipped ? "not checked (--no-complexity)"
           : !fs   ? "not checked (the vectors have no " FAMILY_FILE ")"
                   : NULL;
}

static const char *not_checked(const smcj_run_t *run)
{
    return not_checked_of(run->complexity, run->complexity_skipped);
}

void smcj_cx_text(smct_buf_t *b, const smcj_run_t *run)
{
    smct_buf_puts(b, "\nComplexity and memory (spec §15.3, §15.4): ");
    if (not_checked(run)) {
        smct_buf_printf(b, "time growth %s\n", not_checked(run));
    } else {
        smct_buf_printf(b,
                        "%s, %s; time is the runner's CPU time less a flat byte array's "
                        "of the same length; a family fails when 8\xc3\x97 input costs more "
                        "than 24\xc3\x97 time\n",
                        run->complexity->requirement, run->complexity->tier);
    }
    for (size_t ri = 0; ri < run->n_runners; ri++) {
        const smcj_runner_t *r = &run->runners[ri];
        if (!r->results) {
            continue;
        }
        char g[32];
        smcj_format_bytes(r->bomb_growth, g, sizeof g);
        smct_buf_printf(b, "%s: memory: largest growth on a length-bomb input %s (%zu measured)\n",
                        r->name, r->bombs_measured ? g : "not measured", r->bombs_measured);
        const smcj_cx_runner_t *cx = r->complexity;
        for (size_t k = 0; cx && k < cx->n; k++) {
            smct_buf_printf(b, "%s: %s ", r->name,
                            cx->r[k].outcome == SMCJ_CX_FAIL   ? "FAIL"
                            : cx->r[k].outcome == SMCJ_CX_PASS ? "pass"
                            : cx->r[k].outcome == SMCJ_CX_NA   ? "n/a "
                                                               : "not measured");
            smcj_cx_line(b, &run->complexity->f[k], &cx->r[k]);
            smct_buf_putc(b, '\n');
        }
        if (cx) {
            smct_buf_printf(b,
                            "%s: complexity: %zu passed, %zu failed, %zu not measured, %zu n/a "
                            "(%.1f s; %s)\n",
                            r->name, cx->n_pass, cx->n_fail, cx->n_unmeasured, cx->n_na,
                            cx->seconds, cx->clock);
        }
    }
}

void smcj_cx_matrix_cell(char *cell, size_t size, const smcj_runner_t *r)
{
    const smcj_cx_runner_t *cx = r->complexity;
    if (!cx) {
        snprintf(cell, size, "%s", r->skip_reason ? "skipped" : "not run");
        return;
    }
    int n = snprintf(cell, size, "%zu/%zu", cx->n_pass, cx->n_pass + cx->n_fail + cx->n_unmeasured);
    if (cx->n_fail && n > 0 && (size_t)n < size) {
        n += snprintf(cell + n, size - (size_t)n, " F%zu", cx->n_fail);
    }
    if (cx->n_unmeasured && n > 0 && (size_t)n < size) {
        snprintf(cell + n, size - (size_t)n, " M%zu", cx->n_unmeasured);
    }
}

void smcj_cx_json_run(smct_jw_t *w, const smcj_cx_families_t *fs, bool skipped)
{
    const char *why = not_checked_of(fs, skipped);
    smct_jw_key(w, "complexity");
    smct_jw_object(w);
    smct_jw_key_bool(w, "checked", !why);
    smct_jw_key_str(w, "skipped", why ? why : "");
    smct_jw_key_str(w, "file", fs ? fs->path : "");
    smct_jw_key_str(w, "requirement", fs ? fs->requirement : "");
    smct_jw_key_str(w, "tier", fs ? fs->tier : "");
    smct_jw_end_object(w);
}

/* The `small` or `large` member: one probe size's bytes, best CPU times and runs. */
static void cx_probe_json(smct_jw_t *w, const char *key, const smcj_cx_timing_t *p)
{
    smct_jw_key(w, key);
    smct_jw_object(w);
    smct_jw_key_u64(w, "bytes", p->bytes);
    smct_jw_key_u64(w, "cpu_ns", p->best_ns);
    smct_jw_key_u64(w, "baseline_ns", p->base_best_ns);
    smct_jw_key_u64(w, "runs", p->runs);
    smct_jw_end_object(w);
}

static void cx_key_real(smct_jw_t *w, const char *key, double v)
{
    smct_jw_key(w, key);
    smct_jw_real(w, v, 3);
}

void smcj_cx_json_runner(smct_jw_t *w, const smcj_cx_families_t *fs, const smcj_cx_runner_t *cx)
{
    smct_jw_key(w, "complexity");
    if (!cx) {
        smct_jw_null(w);
        return;
    }
    smct_jw_object(w);
    smct_jw_key_u64(w, "passed", cx->n_pass);
    smct_jw_key_u64(w, "failed", cx->n_fail);
    smct_jw_key_u64(w, "unmeasured", cx->n_unmeasured);
    smct_jw_key_u64(w, "na", cx->n_na);
    cx_key_real(w, "seconds", cx->seconds);
    smct_jw_key_str(w, "clock", cx->clock ? cx->clock : "");
    smct_jw_key(w, "families");
    smct_jw_array(w);
    for (size_t k = 0; k < cx->n; k++) {
        const smcj_cx_result_t *res = &cx->r[k];
        const smcj_cx_family_t *f = &fs->f[k];
        smct_buf_t line = {0};
        smcj_cx_line(&line, f, res);
        smct_jw_object(w);
        smct_jw_key_str(w, "id", f->id);
        smct_jw_key_str(w, "outcome", outcome_word(res->outcome));
        smct_jw_key_str(w, "line", smcj_buf_text(&line));
        cx_key_real(w, "input_ratio", res->input_ratio);
        cx_key_real(w, "time_ratio", res->time_ratio);
        cx_key_real(w, "raw_ratio", res->raw_ratio);
        cx_key_real(w, "repeat_ratio", res->last_ratio);
        cx_key_real(w, "exponent", res->exponent);
        smct_jw_key_u64(w, "sizes_probed", res->sizes_probed);
        cx_probe_json(w, "small", &res->lo);
        cx_probe_json(w, "large", &res->hi);
        cx_key_real(w, "cpu_seconds", res->cpu_seconds);
        smct_jw_key_str(w, "note", res->note);
        smct_jw_end_object(w);
        smct_buf_free(&line);
    }
    smct_jw_end_array(w);
    smct_jw_end_object(w);
}

void smcj_cx_junit(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r)
{
    const smcj_cx_runner_t *cx = r->complexity;
    for (size_t k = 0; cx && k < cx->n; k++) {
        const smcj_cx_result_t *res = &cx->r[k];
        const smcj_cx_family_t *f = &run->complexity->f[k];
        smct_buf_t line = {0};
        smcj_cx_line(&line, f, res);
        smct_buf_puts(b, "    <testcase classname=\"");
        smcj_buf_xml_cstr(b, r->name);
        smct_buf_puts(b, ".complexity\" name=\"");
        smcj_buf_xml_cstr(b, f->id);
        smct_buf_printf(b, "\" time=\"%.3f\">", res->cpu_seconds);
        if (res->outcome == SMCJ_CX_FAIL) {
            smct_buf_puts(b, "<failure message=\"");
            smcj_buf_xml_cstr(b, smcj_buf_text(&line));
            smct_buf_puts(b, "\"/>");
        } else if (res->outcome != SMCJ_CX_PASS) {
            smct_buf_puts(b, "<skipped message=\"");
            smcj_buf_xml_cstr(b, smcj_buf_text(&line));
            smct_buf_puts(b, "\"/>");
        } else {
            smct_buf_puts(b, "<system-out>");
            smcj_buf_xml_cstr(b, smcj_buf_text(&line));
            smct_buf_puts(b, "</system-out>");
        }
        smct_buf_puts(b, "</testcase>\n");
        smct_buf_free(&line);
    }
}

size_t smcj_cx_junit_count(const smcj_runner_t *r, size_t *failures, size_t *skipped)
{
    const smcj_cx_runner_t *cx = r->complexity;
    *failures = cx ? cx->n_fail : 0;
    *skipped = cx ? cx->n_unmeasured + cx->n_na : 0;
    return cx ? cx->n : 0;
}

void smcj_cx_html(smct_buf_t *b, const smcj_run_t *run)
{
    smct_buf_puts(b, "<h2 id=\"complexity\">Complexity and memory (spec §15.3, §15.4)</h2>\n<p>");
    if (not_checked(run)) {
        smct_buf_puts(b, "Time growth ");
        smcj_buf_xml_cstr(b, not_checked(run));
        smct_buf_puts(b, ".</p>\n");
    } else {
        smcj_buf_xml_cstr(b, run->complexity->requirement);
        smct_buf_puts(b, ", ");
        smcj_buf_xml_cstr(b, run->complexity->tier);
        smct_buf_puts(b, ": the runner's CPU time less a flat byte array's of the same length; "
                         "a family fails when 8&#215; input costs more than 24&#215; time.</p>\n");
    }
    smct_buf_puts(b, "<table><tr><th>runner</th><th>verdict</th><th>family</th></tr>\n");
    for (size_t ri = 0; ri < run->n_runners; ri++) {
        const smcj_runner_t *r = &run->runners[ri];
        if (!r->results) {
            continue;
        }
        char g[32];
        smcj_format_bytes(r->bomb_growth, g, sizeof g);
        smct_buf_puts(b, "<tr><td>");
        smcj_buf_xml_cstr(b, r->name);
        smct_buf_printf(b,
                        "</td><td>memory</td><td>largest growth on a length-bomb input %s "
                        "(%zu measured)</td></tr>\n",
                        r->bombs_measured ? g : "not measured", r->bombs_measured);
        const smcj_cx_runner_t *cx = r->complexity;
        for (size_t k = 0; cx && k < cx->n; k++) {
            smct_buf_t line = {0};
            smcj_cx_line(&line, &run->complexity->f[k], &cx->r[k]);
            smct_buf_puts(b, "<tr><td>");
            smcj_buf_xml_cstr(b, r->name);
            smct_buf_printf(b, "</td><td class=\"%s\">%s</td><td>",
                            cx->r[k].outcome == SMCJ_CX_FAIL ? "fail" : "pass",
                            outcome_word(cx->r[k].outcome));
            smcj_buf_xml_cstr(b, smcj_buf_text(&line));
            smct_buf_puts(b, "</td></tr>\n");
            smct_buf_free(&line);
        }
    }
    smct_buf_puts(b, "</table>\n");
}
