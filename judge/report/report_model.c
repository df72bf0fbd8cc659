/*
 * The report model (report_model.h), built once after the run: the counts of every runner,
 * one row per selected vector, the failure groups by likely cause, the JUnit case counts and
 * the matrices. The four writers print from it; none of them counts.
 */
#define _POSIX_C_SOURCE 200809L
#include "report_model.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "complexity.h"
#include "diagnosis.h"
#include "report_depth.h"
#include "results.h"
#include "self_check.h"

/* The summary line (protobuf style), without the runner's name: from the counts alone. */
static void summary_text(smct_buf_t *b, const smcj_report_counts_t *n)
{
    const size_t *st = n->status;
    size_t fail = st[SMCJ_ST_FAIL] + st[SMCJ_ST_FAIL_INFO];
    size_t placement = st[SMCJ_ST_PLACEMENT] + st[SMCJ_ST_PLACEMENT_INFO];
    size_t unclassified = st[SMCJ_ST_UNCLASSIFIED] + st[SMCJ_ST_UNCLASSIFIED_INFO];
    smct_buf_printf(b, "%zu passed, %zu failed, %zu skipped, %zu n/a, %zu expected failure%s",
                    st[SMCJ_ST_PASS], fail, st[SMCJ_ST_SKIPPED], st[SMCJ_ST_NA], st[SMCJ_ST_XFAIL],
                    st[SMCJ_ST_XFAIL] == 1 ? "" : "s");
    if (st[SMCJ_ST_DIFFERS]) {
        smct_buf_printf(
            b, ", %zu differ (implementation-defined; %zu as a listed implementation does)",
            st[SMCJ_ST_DIFFERS], n->differs_listed);
    }
    if (placement) {
        smct_buf_printf(b, ", %zu placement failure%s (spec §3.3%s)", placement,
                        placement == 1 ? "" : "s",
                        st[SMCJ_ST_PLACEMENT_INFO] ? "; some outside the gate" : "");
    }
    if (unclassified) {
        smct_buf_printf(b, ", %zu unclassified rejection%s (R1.4-15, recommended%s)", unclassified,
                        unclassified == 1 ? "" : "s",
                        st[SMCJ_ST_UNCLASSIFIED] ? "" : "; outside the gate");
    }
    if (st[SMCJ_ST_XPASS]) {
        smct_buf_printf(b, ", %zu unexpected pass%s", st[SMCJ_ST_XPASS],
                        st[SMCJ_ST_XPASS] == 1 ? "" : "es");
    }
    if (st[SMCJ_ST_FAIL_INFO]) {
        smct_buf_printf(b, " (%zu outside the gate)", st[SMCJ_ST_FAIL_INFO]);
    }
    if (n->xfail_unmatched) {
        smct_buf_printf(b, ", %zu stale expected-failure entr%s", n->xfail_unmatched,
                        n->xfail_unmatched == 1 ? "y" : "ies");
    }
    if (st[SMCJ_ST_UNSUPPORTED]) {
        /* each vector is in one count; say so here, where "N passed, 0 failed" beside "N
         * unsupported" read as if one count held the other (issue 27) */
        smct_buf_printf(b,
                        ", %zu unsupported (not among the passed or failed: rejected cleanly for a "
                        "core feature the runner lacks, judged by its feature verdict)",
                        st[SMCJ_ST_UNSUPPORTED]);
    }
}

smcj_junit_shape_t smcj_report_row_junit(const smcj_report_row_t *row, bool *is_error)
{
    smcj_junit_shape_t shape = smcj_status_info(row->status)->junit;
    /* JUnit's own split: a harness failure (crash, timeout, protocol error) is an <error> */
    *is_error = shape == SMCJ_JUNIT_FAILURE && row->status == SMCJ_ST_FAIL &&
                smcj_reason_is_harness(row->reason);
    return shape;
}

static void row_fill(smcj_report_row_t *row, const smcj_run_t *run, const smcj_runner_t *r,
                     size_t vi)
{
    const smcj_vector_t *v = &run->vectors->v[vi];
    const smcj_result_t *res = &r->results[vi];
    bool placement = res->placement_check != SIZE_MAX;
    bool failed = res->outcome == SMCJ_OUT_FAIL || placement;
    row->vector = vi;
    row->status = res->status;
    row->tier = placement ? res->placement_tier : res->tier;
    row->reason = failed ? res->reason : SMCJ_REASON_NONE;
    row->check = smcj_result_check(res);
    row->alt_text = smcj_alternative_text(v, res);
    row->placement_text = smcj_placement_text(v, res);
    row->why = placement ? row->placement_text : row->alt_text;
    row->aligned_failure = res->outcome == SMCJ_OUT_FAIL && !placement;
    row->xfail_reason = res->xfail_reason;
    row->verdict_reason = res->reason;
    row->placement_check = res->placement_check;
    row->placement_tier = res->placement_tier;
    row->alt = res->alt;
    row->failed = failed;
    /* out of memory is recorded (alloc.h): the model is not built then */
    (void)smcj_causes_of_vector(r, vi, &row->diagnosed, &row->cause_ids, &row->n_cause_ids,
                                &row->unexplained);
    smcj_checks_of(r, vi, &row->check_begin, &row->check_end);
    row->cause = smcj_cause_note(r, vi);
    smct_buf_t rp = {0};
    smcj_replay_command(&rp, run, r, v);
    row->replay = smcj_buf_ok(&rp) ? smcj_strdup(smcj_buf_text(&rp)) : NULL;
    smct_buf_free(&rp);
    if (res->status == SMCJ_ST_NA) {
        size_t cb, ce;
        smcj_checks_of(r, vi, &cb, &ce);
        row->na_detail = cb < ce ? r->checks[cb].detail : NULL;
    }
}

/* Every check as the reports show it. */
static bool checks_build(smcj_report_runner_t *mr, const smcj_runner_t *r)
{
    mr->check_views = smcj_calloc(r->n_checks + 1, sizeof *mr->check_views);
    if (!mr->check_views) {
        return false;
    }
    mr->n_check_views = r->n_checks;
    for (size_t k = 0; k < r->n_checks; k++) {
        const smcj_check_t *c = &r->checks[k];
        smcj_report_check_t *v = &mr->check_views[k];
        *v = (smcj_report_check_t){
            .direction = smcj_check_direction(c),
            .kind = c->kind,
            .vector = c->vector,
            .index = c->index,
            .strict = c->strict,
            .placed = c->placed,
            .tier = c->tier,
            .order_alt = c->order_alt,
            .alt = c->alt,
            .lacks = c->lacks,
            .robustness = c->robustness,
            .accepted_bomb = c->accepted_bomb,
            .outcome = c->outcome,
            .reason = c->reason,
            .detail = c->detail,
            .expected = c->expected,
            .actual = c->actual,
            .exp_bytes = c->exp_bytes,
            .act_bytes = c->act_bytes,
            .exp_len = c->exp_len,
            .act_len = c->act_len,
            .bytes_from = c->bytes_from,
            .exp_kept = c->exp_kept,
            .act_kept = c->act_kept,
            .first_difference = c->first_difference,
            .values_cut = c->values_cut,
            .stderr_tail = c->stderr_tail,
        };
        smcj_check_label(c, v->label, sizeof v->label);
    }
    return true;
}

void smcj_report_check_hexdiff(smct_buf_t *b, const char *indent, const smcj_report_check_t *c)
{
    if (!c->values_cut) {
        smcj_hexdiff(b, indent, c->exp_bytes, c->exp_len, c->act_bytes, c->act_len);
        return;
    }
    smcj_hexdiff_kept(b, indent, c->exp_bytes, c->exp_len, c->act_bytes, c->act_len, c->bytes_from,
                      c->exp_kept, c->act_kept, c->first_difference);
}

/* The replay commands the reports print: the group prefix, and the raw exchange of every
 * check whose details they show (a failing check, a placement check). */
static bool replays_build(smcj_report_runner_t *mr, const smcj_run_t *run, const smcj_runner_t *r)
{
    smct_buf_t b = {0};
    smcj_replay_prefix(&b, run, r);
    mr->replay_prefix = smcj_buf_ok(&b) ? smcj_strdup(smcj_buf_text(&b)) : NULL;
    mr->raw = smcj_calloc(r->n_checks + 1, sizeof *mr->raw);
    if (!mr->replay_prefix || !mr->raw) {
        smct_buf_free(&b);
        return false;
    }
    mr->n_raw = r->n_checks;
    bool ok = true;
    for (size_t k = 0; k < r->n_checks && ok; k++) {
        const smcj_check_t *c = &r->checks[k];
        bool shown = c->outcome == SMCJ_OUT_FAIL || r->results[c->vector].placement_check == k;
        if (!shown || c->kind == SMCJ_CHECK_HANDSHAKE) {
            continue;
        }
        smct_buf_clear(&b);
        smcj_raw_command(&b, run, r, c);
        mr->raw[k] = smcj_buf_ok(&b) ? smcj_strdup(smcj_buf_text(&b)) : NULL;
        ok = mr->raw[k] != NULL;
    }
    smct_buf_free(&b);
    return ok;
}

/* The text a buffer holds, kept (NULL when out of memory), and the buffer freed. */
static char *text_of(smct_buf_t *b)
{
    char *s = smcj_buf_ok(b) ? smcj_strdup(smcj_buf_text(b)) : NULL;
    smct_buf_free(b);
    return s;
}

/* The diagnosis as the reports show it: the text block, the HTML table, what differs. */
static bool causes_build(smcj_report_runner_t *mr, const smcj_run_t *run, const smcj_runner_t *r,
                         size_t ri)
{
    smct_buf_t b = {0};
    smcj_causes_text(&b, run, r);
    mr->causes_text = text_of(&b);
    smcj_causes_html(&b, run, r, ri);
    mr->causes_html = text_of(&b);
    if (r->results && r->diagnosis) {
        mr->what_differs = r->diagnosis->what_differs;
        mr->n_what_differs = r->diagnosis->n_checks;
    }
    return mr->causes_text && mr->causes_html &&
           smcj_report_diagnosis_build(&mr->diagnosis, run, r);
}

/* A line handed over by a note function (report_util.h, report_depth.h, self_check.h), kept. */
static void keep_line(void *ctx, const char *line)
{
    smcj_report_lines_t *l = ctx;
    char *copy = smcj_strdup(line);
    if (copy && smcj_grow((void **)&l->line, &l->cap, l->n + 1, sizeof *l->line)) {
        l->line[l->n++] = copy;
    } else {
        free(copy); /* out of memory, recorded: no report is written */
    }
}

static void lines_free(smcj_report_lines_t *l)
{
    smcj_free_strs(l->line, l->n);
    memset(l, 0, sizeof *l);
}

/* The n/a rows by reason, in the order first met: a runner that declares too little is seen
 * to test too little (never a silent n/a). */
static bool na_build(smcj_report_runner_t *mr)
{
    size_t cap = 0;
    for (size_t k = 0; k < mr->n_rows; k++) {
        const smcj_report_row_t *row = &mr->rows[k];
        if (row->status != SMCJ_ST_NA) {
            continue;
        }
        const char *why = row->na_detail ? row->na_detail : "not applicable";
        size_t i = 0;
        while (i < mr->n_na && strcmp(mr->na[i].reason, why) != 0) {
            i++;
        }
        if (i == mr->n_na) {
            if (!smcj_grow((void **)&mr->na, &cap, mr->n_na + 1, sizeof *mr->na)) {
                return false;
            }
            mr->na[mr->n_na++] = (smcj_report_na_t){why, 0};
        }
        mr->na[i].count++;
        mr->na_total++;
    }
    return true;
}

/* Crashes and unclassified rejections by kind, and their lines (report_kinds.h). */
static void kinds_build(smcj_report_runner_t *mr, const smcj_run_t *run, const smcj_runner_t *r)
{
    for (int g = 0; g < SMCJ_KINDS_GROUPS; g++) {
        smcj_kinds_collect(run, r, g == SMCJ_KINDS_CRASH, &mr->kinds[g]);
        mr->kind_line[g] = r->checks ? smcj_kinds_line(&mr->kinds[g], g == SMCJ_KINDS_CRASH) : NULL;
    }
}

/* The JUnit cases of one runner that ran, counted as report_junit.c writes them. */
static void junit_counts(smcj_report_counts_t *n, const smcj_report_runner_t *mr,
                         const smcj_runner_t *r)
{
    for (size_t k = 0; k < mr->n_rows; k++) {
        bool is_error;
        smcj_junit_shape_t shape = smcj_report_row_junit(&mr->rows[k], &is_error);
        n->cases++;
        n->case_errors += is_error;
        n->case_failures += shape == SMCJ_JUNIT_FAILURE && !is_error;
        n->case_skipped += shape == SMCJ_JUNIT_SKIPPED;
    }
    /* spec R1.4-11: a case per core feature it lacks, skipped when a `feature:` line names it */
    n->cases += n->features;
    n->case_skipped += n->features_excused;
    n->case_failures += n->features - n->features_excused;
    /* a stale expected-failure line is a failing case of its own */
    n->cases += n->xfail_unmatched;
    n->case_failures += n->xfail_unmatched;
    size_t cx_fail = 0, cx_skip = 0;
    n->cases += smcj_cx_junit_count(r, &cx_fail, &cx_skip); /* spec §15.4 */
    n->case_failures += cx_fail;
    n->case_skipped += cx_skip;
}

static bool runner_build(smcj_report_runner_t *mr, const smcj_run_t *run, const smcj_runner_t *r,
                         size_t ri)
{
    smcj_report_counts_t *n = &mr->counts;
    smcj_report_runner_facts_of(&mr->facts, r);
    mr->ran = r->results != NULL;
    /* for every runner, as the writers printed them before the model held them */
    kinds_build(mr, run, r);
    smcj_declaration_notes(r, keep_line, &mr->notes);
    smcj_depth_ladder_note(run, r, keep_line, &mr->notes);
    smcj_self_note(r, keep_line, &mr->self);
    if (!causes_build(mr, run, r, ri)) {
        return false;
    }
    smct_buf_t cx = {0};
    if (mr->ran) {
        smcj_cx_junit(&cx, run, r);
    }
    mr->cx_junit = text_of(&cx);
    smcj_cx_matrix_cell(mr->cx_cell, sizeof mr->cx_cell, r);
    if (!mr->cx_junit) {
        return false;
    }
    if (!mr->ran) {
        /* one "start" case: skipped (--skip-runner) or an error (it could not start) */
        n->cases = 1;
        n->case_skipped = r->skip_reason != NULL;
        n->case_errors = r->skip_reason == NULL;
        return true;
    }
    const smcj_vectors_t *vs = run->vectors;
    mr->row_of = smcj_calloc(vs->count + 1, sizeof *mr->row_of);
    mr->rows = smcj_calloc(vs->count + 1, sizeof *mr->rows);
    if (!mr->row_of || !mr->rows) {
        return false;
    }
    for (size_t vi = 0; vi < vs->count; vi++) {
        mr->row_of[vi] = SIZE_MAX;
        if (r->results[vi].status == SMCJ_ST_NONE) {
            continue;
        }
        smcj_report_row_t *row = &mr->rows[mr->n_rows];
        row_fill(row, run, r, vi);
        mr->row_of[vi] = mr->n_rows++;
        n->status[row->status]++;
        n->differs_listed += row->status == SMCJ_ST_DIFFERS && r->results[vi].alt >= 0;
    }
    n->xfail_unmatched = r->n_xfail_unmatched;
    n->features = r->n_unsupported_features;
    for (size_t k = 0; k < r->n_unsupported_features; k++) {
        n->features_excused += r->unsupported_features[k].xfail_reason != NULL;
    }
    junit_counts(n, mr, r);
    smct_buf_t s = {0};
    summary_text(&s, n);
    mr->summary = smcj_buf_ok(&s) ? smcj_strdup(smcj_buf_text(&s)) : NULL;
    smct_buf_free(&s);
    for (size_t k = 0; k < mr->n_rows; k++) {
        if (!mr->rows[k].replay) {
            return false;
        }
    }
    mr->groups = smcj_detail_groups(run, r, &mr->n_groups);
    return na_build(mr) && mr->summary != NULL && mr->groups != NULL && replays_build(mr, run, r) &&
           checks_build(mr, r);
}

bool smcj_report_model_build(smcj_report_model_t *m, const smcj_run_t *run)
{
    memset(m, 0, sizeof *m);
    smcj_report_facts_of(&m->facts, run);
    smct_buf_t cx = {0};
    m->complexity = run->complexity != NULL;
    smcj_cx_text(&cx, run);
    m->cx_text = text_of(&cx);
    smcj_cx_html(&cx, run);
    m->cx_html = text_of(&cx);
    if (!m->cx_text || !m->cx_html) {
        return false;
    }
    m->runners = smcj_calloc(run->n_runners + 1, sizeof *m->runners);
    if (!m->runners) {
        return false;
    }
    m->n_runners = run->n_runners;
    bool ok = true;
    for (size_t ri = 0; ri < run->n_runners && ok; ri++) {
        ok = runner_build(&m->runners[ri], run, &run->runners[ri], ri);
        const smcj_report_counts_t *n = &m->runners[ri].counts;
        m->total.cases += n->cases;
        m->total.case_failures += n->case_failures;
        m->total.case_errors += n->case_errors;
        m->total.case_skipped += n->case_skipped;
    }
    smcj_matrix_build(&m->sections, run, true);
    smcj_matrix_build(&m->subsections, run, false);
    const smcj_vectors_t *vs = run->vectors;
    m->subsection_vectors = smcj_calloc(m->subsections.n_rows + 1, sizeof *m->subsection_vectors);
    for (size_t row = 0; m->subsection_vectors && row < m->subsections.n_rows; row++) {
        for (size_t i = 0; i < vs->count; i++) {
            m->subsection_vectors[row] +=
                vs->v[i].selected && strcmp(vs->v[i].section, m->subsections.rows[row]) == 0;
        }
    }
    ok = ok && m->subsection_vectors != NULL;
    return ok && !smcj_out_of_memory();
}

void smcj_report_model_free(smcj_report_model_t *m)
{
    for (size_t ri = 0; m->runners && ri < m->n_runners; ri++) {
        smcj_report_runner_t *mr = &m->runners[ri];
        for (size_t k = 0; mr->rows && k < mr->n_rows; k++) {
            free(mr->rows[k].alt_text);
            free(mr->rows[k].placement_text);
            free(mr->rows[k].cause);
            free(mr->rows[k].replay);
            free((void *)mr->rows[k].cause_ids);
        }
        smcj_free_strs(mr->raw, mr->n_raw);
        free(mr->replay_prefix);
        free(mr->causes_text);
        free(mr->causes_html);
        smcj_report_diagnosis_free(&mr->diagnosis);
        free(mr->check_views);
        free(mr->cx_junit);
        free(mr->rows);
        free(mr->row_of);
        free(mr->summary);
        smcj_detail_groups_free(mr->groups, mr->n_groups);
        for (int g = 0; g < SMCJ_KINDS_GROUPS; g++) {
            free(mr->kind_line[g]);
        }
        free(mr->na);
        lines_free(&mr->notes);
        lines_free(&mr->self);
    }
    free(m->runners);
    smcj_matrix_free(&m->sections);
    smcj_matrix_free(&m->subsections);
    free(m->subsection_vectors);
    free(m->cx_text);
    free(m->cx_html);
    memset(m, 0, sizeof *m);
}

const char *smcj_report_what_differs(const smcj_report_runner_t *mr, size_t check)
{
    return check < mr->n_what_differs ? mr->what_differs[check] : NULL;
}

const smcj_report_row_t *smcj_report_row(const smcj_report_model_t *m, size_t ri, size_t vi)
{
    const smcj_report_runner_t *mr = &m->runners[ri];
    if (!mr->ran || mr->row_of[vi] == SIZE_MAX) {
        return NULL;
    }
    return &mr->rows[mr->row_of[vi]];
}
