/* The diagnosis in the reports (see report_causes.h). */
#define _POSIX_C_SOURCE 200809L
#include "report_causes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diag_replay.h"
#include "diagnosis.h"
#include "escape.h"
#include "report_kinds.h"
#include "report_util.h"
#include "results.h"
#include "smct_json.h"
#include "smct_json_writer.h"

/* Examples listed per cause and group in the JSON report and the HTML table. */
#define EXAMPLES 5

static const smcj_diagnosis_t *diag_of(const smcj_runner_t *r)
{
    return r->results ? r->diagnosis : NULL;
}

/* A vector that failed a check of the wire or of placement (the ones diagnosed), other than
 * one that differs as a listed implementation does (a permitted behaviour: not diagnosed). */
static bool failed(const smcj_runner_t *r, size_t vi)
{
    const smcj_result_t *res = &r->results[vi];
    return (res->outcome == SMCJ_OUT_FAIL || res->placement_check != SIZE_MAX) &&
           !(res->status == SMCJ_ST_DIFFERS && res->alt >= 0);
}

static const char *vid(const smcj_run_t *run, size_t vi)
{
    return run->vectors->v[vi].id;
}

/* The crashes and unclassified rejections among the vectors a cause explains, by kind: a
 * runner whose failures are crashes reads which crash each cause is (issue 28). */
static void cause_kinds_text(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r,
                             const smcj_cause_t *c)
{
    static const char *const what[] = {"unclassified rejections", "crashes"};
    for (int crashes = 1; crashes >= 0; crashes--) {
        smcj_kinds_t k;
        smcj_kinds_collect_of(run, r, crashes, c->vectors, c->n_vectors, &k);
        if (k.total) {
            smct_buf_printf(b, "; %s by kind: ", what[crashes]);
            smcj_kinds_text(b, &k);
        }
    }
}

/* ---- text ---- */

/* The diagnosed vectors that do not count against the gate, by status: a codec may pass and
 * still have causes named (its implementation-defined differences, its expected failures), and
 * the block must not read as if it had failed. */
static void outside_gate(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r)
{
    const char *sep = "  (of them, not counted against the gate:";
    for (smcj_status_t st = 0; st < SMCJ_ST_COUNT; st++) {
        const char *what = smcj_status_info(st)->outside;
        size_t n = 0;
        for (size_t vi = 0; what && vi < run->vectors->count; vi++) {
            n += r->results[vi].status == st && failed(r, vi);
        }
        if (n) {
            smct_buf_printf(b, "%s %zu %s", sep, n, what);
            sep = ";";
        }
    }
    if (*sep == ';') {
        smct_buf_puts(b, ")\n");
    }
}

/* ", contradicted by M passed checks (ID, …)" when the named causes fail checks the runner
 * passed and would pass them without this one (close to the runner's bug, not exactly it),
 * and how many of those are accidental passes (why it is named anyway). */
static void contradictions_text(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r,
                                const smcj_cause_t *c)
{
    if (!c->contradicted) {
        return;
    }
    /* the checks are in check order: a vector's checks are together, listed once */
    size_t n_vectors = 0, shown = 0;
    for (size_t k = 0; k < c->n_contra_checks; k++) {
        n_vectors += k == 0 || r->checks[c->contra_checks[k]].vector !=
                                   r->checks[c->contra_checks[k - 1]].vector;
    }
    smct_buf_printf(b, ", contradicted by %zu passed check%s of %zu vector%s (", c->contradicted,
                    c->contradicted == 1 ? "" : "s", n_vectors, n_vectors == 1 ? "" : "s");
    for (size_t k = 0; k < c->n_contra_checks && shown < EXAMPLES; k++) {
        size_t vi = r->checks[c->contra_checks[k]].vector;
        if (k == 0 || vi != r->checks[c->contra_checks[k - 1]].vector) {
            smct_buf_printf(b, "%s%s", shown++ ? ", " : "", vid(run, vi));
        }
    }
    if (n_vectors > shown) {
        smct_buf_printf(b, " and %zu more", n_vectors - shown);
    }
    smct_buf_putc(b, ')');
    if (c->n_accidental) {
        smct_buf_printf(b,
                        ", %zu of those checks accidental passes (rejected for another reason "
                        "the runner shows on valid vectors)",
                        c->n_accidental);
    }
}

/* A probe the runner refused: skipped, or failed without an answer (a crash, a hang, a limit
 * or a protocol error); it says nothing of what the runner decodes. */
static bool probe_refused(const smcj_check_t *c)
{
    return c->outcome == SMCJ_OUT_SKIPPED ||
           (c->outcome == SMCJ_OUT_FAIL && smcj_reason_is_harness(c->reason));
}

/* The diagnosis probes (diag_probes.h) the runner answered (`sent`) and refused; one that is
 * n/a for it, or that the time left never reached, is neither. */
static void probe_counts(const smcj_runner_t *r, size_t *sent, size_t *refused)
{
    *sent = *refused = 0;
    for (size_t i = 0; i < r->n_probes; i++) {
        const smcj_check_t *c = &r->probes[i];
        if (c->outcome == SMCJ_OUT_NA || c->outcome == SMCJ_OUT_PENDING) {
            continue;
        }
        *(probe_refused(c) ? refused : sent) += 1;
    }
}

char *smcj_probes_line(const smcj_runner_t *r)
{
    if (r->probes_off) {
        return smcj_strdup("the diagnosis ran without diagnosis probes (--no-probes): what the "
                           "runner refuses is learned from the selected vectors only");
    }
    size_t sent, refused;
    probe_counts(r, &sent, &refused);
    if (sent == 0 && refused == 0) {
        return NULL;
    }
    char *refusals = refused ? smcj_asprintf("; %zu refused (a crash, a limit or a skip: they "
                                             "say nothing)",
                                             refused)
                             : NULL;
    char *line = smcj_asprintf("%zu diagnosis probe%s sent after the verdicts: valid vectors "
                               "outside the selection, decoded only to learn what the runner "
                               "refuses; no verdict%s",
                               sent, sent == 1 ? "" : "s", smcj_or_empty(refusals));
    free(refusals);
    return line;
}

void smcj_causes_text(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r)
{
    const smcj_diagnosis_t *d = diag_of(r);
    if (!d || (d->failing == 0 && d->harness == 0)) {
        return;
    }
    if (d->failing == 0) { /* only harness and judge errors: no "0 of 0" block */
        smct_buf_printf(b,
                        "\n%s: likely causes: none replayable (%zu vector%s with a timeout, "
                        "protocol error, resource or judge error: no answer to replay)\n",
                        r->name, d->harness, d->harness == 1 ? "" : "s");
        return;
    }
    /* the heading's count is the summary line's: failing vectors named apart from those that
     * differ or fail outside the gate (which are diagnosed too) */
    size_t ungated = d->ungated;
    smct_buf_printf(b, "\n%s: likely causes of %zu %s vector%s", r->name, d->failing,
                    ungated ? "diagnosed" : "failing", d->failing == 1 ? "" : "s");
    if (ungated) {
        smct_buf_printf(b, " (%zu failing, %zu not counted against the gate)", d->failing - ungated,
                        ungated);
    }
    smct_buf_printf(b,
                    " (each failing check replayed through the catalogue of "
                    "spec/bugs-in-the-wild.md; %zu replays, %.2f s):\n",
                    d->replays, d->seconds);
    char *probes = smcj_probes_line(r);
    if (probes) {
        smct_buf_printf(b, "  (%s)\n", probes);
    }
    free(probes);
    outside_gate(b, run, r);
    if (d->n_causes == 0 && d->failing) {
        smct_buf_puts(b, "  no catalogued bug reproduces these failures\n");
    }
    for (size_t i = 0; i < d->n_causes; i++) {
        const smcj_cause_t *c = &d->causes[i];
        char *title = smcj_cause_title(c);
        smct_buf_printf(b, "  %s: explains %zu of %zu", smcj_or_empty(title), c->n_vectors,
                        d->failing);
        free(title);
        if (c->partners) {
            smct_buf_puts(b, " (some only together with");
            for (unsigned k = 0; k < SMCM_BUG_COUNT; k++) {
                if (c->partners & SMCM_BIT(k)) {
                    smct_buf_printf(b, " %s", smcm_entry((smcm_bug_t)k)->id);
                }
            }
            smct_buf_putc(b, ')');
        }
        contradictions_text(b, run, r, c);
        cause_kinds_text(b, run, r, c);
        if (c->n_vectors) {
            smct_buf_printf(b, " — example %s\n      replay: ", vid(run, c->vectors[0]));
            smcj_replay_command(b, run, r, &run->vectors->v[c->vectors[0]]);
        }
        smct_buf_putc(b, '\n');
    }
    size_t unexplained = d->failing - d->explained;
    if (unexplained || d->harness) {
        smct_buf_printf(b, "  unexplained: %zu of %zu failing vectors", unexplained, d->failing);
        if (d->harness) {
            smct_buf_printf(b,
                            ", and %zu with a timeout, protocol error, resource or judge error "
                            "(not replayable)",
                            d->harness);
        }
        smct_buf_puts(b, ":\n");
        if (d->not_replayed) {
            smct_buf_printf(b,
                            "    (%zu failing vector%s not replayed: an input over the "
                            "diagnosis's %zu KiB)\n",
                            d->not_replayed, d->not_replayed == 1 ? "" : "s",
                            SMCJ_REPLAY_MAX_INPUT >> 10);
        }
        if (d->as_reference) {
            smct_buf_printf(b,
                            "    (%zu failing check%s answered as a codec with no catalogued bug "
                            "answers: the runner's declaration does not match its codec)\n",
                            d->as_reference, d->as_reference == 1 ? " is" : "s are");
        }
        for (size_t g = 0; g < d->n_groups; g++) {
            const smcj_diag_group_t *grp = &d->groups[g];
            smct_buf_printf(b, "    %zu × %s — example %s\n", grp->n_vectors, grp->text,
                            vid(run, grp->vectors[0]));
        }
    }
}

/* ---- failure details by cause ---- */

static void group_add(smcj_detail_group_t *g, size_t vi)
{
    if (smcj_grow((void **)&g->vectors, &g->cap, g->n_vectors + 1, sizeof *g->vectors)) {
        g->vectors[g->n_vectors++] = vi; /* on failure the run reports nothing (alloc.h) */
    }
}

smcj_detail_group_t *smcj_detail_groups(const smcj_run_t *run, const smcj_runner_t *r, size_t *n)
{
    const smcj_diagnosis_t *d = diag_of(r);
    size_t n_groups = 1 + (d ? d->n_causes + d->n_groups : 0);
    smcj_detail_group_t *g = smcj_calloc(n_groups, sizeof *g);
    *n = g ? n_groups : 0;
    if (!g) {
        return NULL;
    }
    for (size_t i = 0; d && i < d->n_causes; i++) {
        char *title = smcj_cause_title(&d->causes[i]);
        g[i].label = smcj_asprintf("likely cause: %s", smcj_or_empty(title));
        free(title);
    }
    for (size_t i = 0; d && i < d->n_groups; i++) {
        g[d->n_causes + i].label = smcj_asprintf("unexplained: %s", d->groups[i].text);
    }
    g[n_groups - 1].label = smcj_strdup(d ? "not diagnosed" : "failures");
    /* the failures in listing order (SMCJ_STATUS_LIST's rank), vector order within */
    for (unsigned rank = 1; rank <= smcj_status_max_rank(); rank++) {
        for (size_t vi = 0; r->results && vi < run->vectors->count; vi++) {
            const smcj_status_info_t *info = smcj_status_info(r->results[vi].status);
            if (info->rank != rank || !(info->flags & SMCJ_STF_DETAILS)) {
                continue;
            }
            size_t ci = smcj_first_cause_of(d, vi);
            if (ci != SIZE_MAX) {
                group_add(&g[ci], vi);
            } else if (d && d->group_of[vi] != SIZE_MAX) {
                group_add(&g[d->n_causes + d->group_of[vi]], vi);
            } else {
                group_add(&g[n_groups - 1], vi);
            }
        }
    }
    return g;
}

void smcj_detail_groups_free(smcj_detail_group_t *g, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(g[i].label);
        free(g[i].vectors);
    }
    free(g);
}

/* ---- JSON ---- */

static void id_array(smct_jw_t *w, const smcj_vectors_t *vs, const size_t *vectors, size_t n)
{
    smct_jw_array(w);
    for (size_t i = 0; i < n; i++) {
        smct_jw_str(w, vs->v[vectors[i]].id);
    }
    smct_jw_end_array(w);
}

/* The vectors of checks (indices in r->checks), in their order. */
static size_t *vectors_of_checks(const smcj_runner_t *r, const size_t *checks, size_t n)
{
    size_t *v = smcj_calloc(n + 1, sizeof *v);
    for (size_t k = 0; v && k < n; k++) {
        v[k] = r->checks[checks[k]].vector;
    }
    return v;
}

bool smcj_report_diagnosis_build(smcj_report_diagnosis_t *out, const smcj_run_t *run,
                                 const smcj_runner_t *r)
{
    memset(out, 0, sizeof *out);
    probe_counts(r, &out->probes, &out->probes_refused);
    out->probes_off = r->probes_off;
    out->probes_line = smcj_probes_line(r);
    const smcj_diagnosis_t *d = diag_of(r);
    if (!d) {
        return true;
    }
    out->d = d;
    out->causes = smcj_calloc(d->n_causes + 1, sizeof *out->causes);
    if (!out->causes) {
        return false;
    }
    for (size_t i = 0; i < d->n_causes; i++) {
        const smcj_cause_t *c = &d->causes[i];
        smcj_report_cause_t *rc = &out->causes[i];
        rc->cause = c;
        rc->contradicted_by = vectors_of_checks(r, c->contra_checks, c->n_contra_checks);
        rc->n_contradicted_by = c->n_contra_checks;
        rc->accidental = vectors_of_checks(r, c->accidental_checks, c->n_accidental);
        rc->n_accidental = c->n_accidental;
        smcj_kinds_collect_of(run, r, true, c->vectors, c->n_vectors, &rc->crashes);
        smcj_kinds_collect_of(run, r, false, c->vectors, c->n_vectors, &rc->rejections);
        if (!rc->contradicted_by || !rc->accidental) {
            return false;
        }
    }
    return true;
}

void smcj_report_diagnosis_free(smcj_report_diagnosis_t *dm)
{
    for (size_t i = 0; dm->causes && dm->d && i < dm->d->n_causes; i++) {
        free(dm->causes[i].contradicted_by);
        free(dm->causes[i].accidental);
    }
    free(dm->causes);
    free(dm->probes_line);
    memset(dm, 0, sizeof *dm);
}

static void cause_json(smct_jw_t *w, const smcj_vectors_t *vs, const smcj_report_cause_t *rc)
{
    const smcj_cause_t *c = rc->cause;
    const smcm_entry_t *e = smcm_entry(c->bug);
    smct_jw_object(w);
    smct_jw_key_str(w, "id", e->id);
    smct_jw_key_str(w, "what", e->what);
    smct_jw_key_str(w, "section", e->section);
    smct_jw_key_str(w, "requirement", e->requirement);
    smct_jw_key_str(w, "shipped", e->shipped);
    smct_jw_key(w, "where");
    smct_jw_array(w);
    if (c->where & SMCM_DEC) {
        smct_jw_str(w, "decoder");
    }
    if (c->where & SMCM_ENC) {
        smct_jw_str(w, "encoder");
    }
    smct_jw_end_array(w);
    smct_jw_key(w, "together_with");
    smct_jw_array(w);
    for (unsigned k = 0; k < SMCM_BUG_COUNT; k++) {
        if (c->partners & SMCM_BIT(k)) {
            smct_jw_str(w, smcm_entry((smcm_bug_t)k)->id);
        }
    }
    smct_jw_end_array(w);
    smct_jw_key_u64(w, "explains", c->n_vectors);
    smct_jw_key_u64(w, "checks", c->checks);
    smct_jw_key_u64(w, "contradicted", c->contradicted);
    smct_jw_key(w, "vectors");
    id_array(w, vs, c->vectors, c->n_vectors);
    smct_jw_key(w, "contradicted_by");
    id_array(w, vs, rc->contradicted_by, rc->n_contradicted_by);
    smct_jw_key(w, "accidental_passes");
    id_array(w, vs, rc->accidental, rc->n_accidental);
    /* the members named literally, one call each: judge_report_schema_fields reads them so */
    smct_jw_key(w, "crashes_by_kind");
    smcj_kinds_json(w, &rc->crashes);
    smct_jw_key(w, "rejections_by_kind");
    smcj_kinds_json(w, &rc->rejections);
    smct_jw_end_object(w);
}

void smcj_causes_json(smct_jw_t *w, const smcj_vectors_t *vs, const smcj_report_diagnosis_t *dm)
{
    const smcj_diagnosis_t *d = dm->d;
    if (!d) {
        return;
    }
    smct_jw_key(w, "diagnosis");
    smct_jw_object(w);
    smct_jw_key_u64(w, "failing", d->failing);
    smct_jw_key_u64(w, "explained", d->explained);
    smct_jw_key_u64(w, "not_replayable", d->harness);
    smct_jw_key_u64(w, "not_replayed", d->not_replayed);
    smct_jw_key_u64(w, "replay_limit", SMCJ_REPLAY_MAX_INPUT);
    smct_jw_key_u64(w, "as_reference", d->as_reference);
    smct_jw_key_u64(w, "probes", dm->probes);
    smct_jw_key_u64(w, "probes_refused", dm->probes_refused);
    smct_jw_key(w, "probes_off");
    smct_jw_bool(w, dm->probes_off);
    smct_jw_key_u64(w, "contradicted_together", d->contradicted_together);
    smct_jw_key_u64(w, "replays", d->replays);
    smct_jw_key(w, "seconds");
    smct_jw_real(w, d->seconds, 3);
    smct_jw_key(w, "causes");
    smct_jw_array(w);
    for (size_t i = 0; i < d->n_causes; i++) {
        cause_json(w, vs, &dm->causes[i]);
    }
    smct_jw_end_array(w);
    smct_jw_key(w, "unexplained");
    smct_jw_array(w);
    for (size_t g = 0; g < d->n_groups; g++) {
        const smcj_diag_group_t *grp = &d->groups[g];
        smct_jw_object(w);
        smct_jw_key_str(w, "signature", grp->text);
        smct_jw_key_u64(w, "count", grp->n_vectors);
        smct_jw_key(w, "vectors");
        id_array(w, vs, grp->vectors, grp->n_vectors);
        smct_jw_end_object(w);
    }
    smct_jw_end_array(w);
    smct_jw_end_object(w);
}

bool smcj_causes_of_vector(const smcj_runner_t *r, size_t vi, bool *diagnosed, const char ***ids,
                           size_t *n_ids, const char **unexplained)
{
    const smcj_diagnosis_t *d = diag_of(r);
    *diagnosed = d && failed(r, vi);
    *ids = NULL;
    *n_ids = 0;
    *unexplained = NULL;
    if (!*diagnosed) {
        return true;
    }
    size_t n = 0;
    for (size_t i = 0; i < d->n_causes; i++) {
        n += (d->by_vector[vi] & SMCM_BIT(d->causes[i].bug)) != 0;
    }
    if (n) {
        *ids = smcj_calloc(n, sizeof **ids);
        if (!*ids) {
            return false;
        }
        for (size_t i = 0; i < d->n_causes; i++) {
            if (d->by_vector[vi] & SMCM_BIT(d->causes[i].bug)) {
                (*ids)[(*n_ids)++] = smcm_entry(d->causes[i].bug)->id;
            }
        }
    }
    *unexplained = d->group_of[vi] != SIZE_MAX ? d->groups[d->group_of[vi]].text : NULL;
    return true;
}

/* ---- HTML ---- */

static void html_text(smct_buf_t *b, const char *s)
{
    smcj_buf_xml_text(b, s, strlen(s));
}

static void html_examples(smct_buf_t *b, const smcj_run_t *run, size_t ri, const size_t *vectors,
                          size_t n)
{
    for (size_t i = 0; i < n && i < EXAMPLES; i++) {
        smct_buf_printf(b, "%s<a href=\"#f-%zu-%zu\" onclick=\"openFailure('f-%zu-%zu')\">",
                        i ? ", " : "", ri, vectors[i], ri, vectors[i]);
        html_text(b, vid(run, vectors[i]));
        smct_buf_puts(b, "</a>");
    }
    if (n > EXAMPLES) {
        smct_buf_printf(b, " … (%zu in all)", n);
    }
}

void smcj_causes_html(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r, size_t ri)
{
    const smcj_diagnosis_t *d = diag_of(r);
    if (!d || (d->failing == 0 && d->harness == 0)) {
        return;
    }
    smct_buf_puts(b, "<h3>");
    html_text(b, r->name);
    smct_buf_printf(b, ": likely causes of %zu failing vector%s</h3>", d->failing,
                    d->failing == 1 ? "" : "s");
    char *probes = smcj_probes_line(r);
    if (probes) {
        smct_buf_puts(b, "<p class=\"sub probes\">");
        html_text(b, probes);
        smct_buf_puts(b, "</p>");
    }
    free(probes);
    smct_buf_puts(b, "<table class=\"causes\"><thead><tr><th>cause</th><th>spec</th><th>where</th>"
                     "<th>explains</th><th>shipped by</th><th>examples</th></tr></thead><tbody>");
    for (size_t i = 0; i < d->n_causes; i++) {
        const smcj_cause_t *c = &d->causes[i];
        const smcm_entry_t *e = smcm_entry(c->bug);
        smct_buf_puts(b, "<tr><td><b>");
        html_text(b, e->what);
        smct_buf_puts(b, "</b> <code>");
        html_text(b, e->id);
        smct_buf_printf(b, "</code></td><td>§%s %s</td><td>%s</td><td>%zu of %zu", e->section,
                        e->requirement, smcj_cause_where(c) + 3, c->n_vectors, d->failing);
        smct_buf_t kinds = {0};
        contradictions_text(&kinds, run, r, c);
        cause_kinds_text(&kinds, run, r, c);
        if (kinds.len) {
            html_text(b, smct_buf_cstr(&kinds));
        }
        smct_buf_free(&kinds);
        smct_buf_puts(b, "</td><td>");
        html_text(b, e->shipped);
        smct_buf_puts(b, "</td><td>");
        html_examples(b, run, ri, c->vectors, c->n_vectors);
        smct_buf_puts(b, "</td></tr>");
    }
    for (size_t g = 0; g < d->n_groups; g++) {
        const smcj_diag_group_t *grp = &d->groups[g];
        smct_buf_puts(b, "<tr class=\"unexplained\"><td colspan=\"3\">unexplained: ");
        html_text(b, grp->text);
        smct_buf_printf(b, "</td><td>%zu</td><td></td><td>", grp->n_vectors);
        html_examples(b, run, ri, grp->vectors, grp->n_vectors);
        smct_buf_puts(b, "</td></tr>");
    }
    smct_buf_puts(b, "</tbody></table>");
    if (d->not_replayed) {
        smct_buf_printf(
            b, "<p>%zu failing vector%s not replayed: an input over the diagnosis's %zu KiB.</p>",
            d->not_replayed, d->not_replayed == 1 ? "" : "s", SMCJ_REPLAY_MAX_INPUT >> 10);
    }
}

/* ---- JUnit ---- */

char *smcj_cause_note(const smcj_runner_t *r, size_t vi)
{
    const smcj_diagnosis_t *d = diag_of(r);
    if (!d || !failed(r, vi)) {
        return NULL;
    }
    smct_buf_t b = {0};
    for (size_t i = 0; i < d->n_causes; i++) {
        if (d->by_vector[vi] & SMCM_BIT(d->causes[i].bug)) {
            char *title = smcj_cause_title(&d->causes[i]);
            smct_buf_printf(&b, "%s%s", b.len ? "; " : "likely cause: ", smcj_or_empty(title));
            free(title);
        }
    }
    if (d->group_of[vi] != SIZE_MAX) {
        smct_buf_printf(&b, "%sno catalogued bug explains: %s", b.len ? "; " : "",
                        d->groups[d->group_of[vi]].text);
    }
    if (b.len == 0) {
        smct_buf_free(&b);
        return NULL;
    }
    return smcj_buf_take(&b);
}
