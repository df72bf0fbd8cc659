/* The diagnosis in the reports (see report_causes.h). */
#define _POSIX_C_SOURCE 200809L
#include "report_causes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "diagnosis.h"
#include "escape.h"
#include "report_util.h"
#include "smct_json.h"

/* Examples listed per cause and group in the JSON report and the HTML table. */
#define EXAMPLES 5

static const smcj_diagnosis_t *diag_of(const smcj_runner_t *r)
{
    return r->results ? r->diagnosis : NULL;
}

/* A vector that failed a check of the wire or of placement (the ones diagnosed). */
static bool failed(const smcj_runner_t *r, size_t vi)
{
    return r->results[vi].outcome == SMCJ_OUT_FAIL || r->results[vi].placement_check != SIZE_MAX;
}

static const char *vid(const smcj_run_t *run, size_t vi)
{
    return run->vectors->v[vi].id;
}

/* ---- text ---- */

/* The diagnosed vectors that do not count against the gate, by status: a codec may pass and
 * still have causes named (its implementation-defined differences, its expected failures), and
 * the block must not read as if it had failed. */
static void outside_gate(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r)
{
    static const struct {
        smcj_status_t status;
        const char *what;
    } ungated[] = {
        {SMCJ_ST_DIFFERS, "differ (implementation-defined, informational)"},
        {SMCJ_ST_XFAIL, "expected failures"},
        {SMCJ_ST_FAIL_INFO, "fail outside the gate"},
        {SMCJ_ST_PLACEMENT_INFO, "fail placement outside the gate"},
    };
    const char *sep = "  (of them, not counted against the gate:";
    for (size_t k = 0; k < sizeof ungated / sizeof ungated[0]; k++) {
        size_t n = 0;
        for (size_t vi = 0; vi < run->vectors->count; vi++) {
            n += r->results[vi].status == ungated[k].status && failed(r, vi);
        }
        if (n) {
            smct_buf_printf(b, "%s %zu %s", sep, n, ungated[k].what);
            sep = ";";
        }
    }
    if (*sep == ';') {
        smct_buf_puts(b, ")\n");
    }
}

void smcj_causes_text(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r)
{
    const smcj_diagnosis_t *d = diag_of(r);
    if (!d || (d->failing == 0 && d->harness == 0)) {
        return;
    }
    smct_buf_printf(
        b,
        "\n%s: likely causes of %zu failing vector%s (each failing check replayed through the "
        "catalogue of spec/bugs-in-the-wild.md; %zu replays, %.2f s):\n",
        r->name, d->failing, d->failing == 1 ? "" : "s", d->replays, d->seconds);
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
        if (c->contradicted && d->contradicted_together) {
            /* it explains these, but is not quite this runner's bug: say so */
            smct_buf_printf(
                b, " (though a codec with it would also fail %zu check%s this runner passed)",
                c->contradicted, c->contradicted == 1 ? "" : "s");
        }
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
            smct_buf_printf(b, ", and %zu with a crash, timeout or protocol error (not replayable)",
                            d->harness);
        }
        smct_buf_puts(b, ":\n");
        if (d->as_reference) {
            smct_buf_printf(b,
                            "    (%zu failing check%s answered as a codec with no catalogued bug "
                            "answers: the runner's declaration does not match its codec)\n",
                            d->as_reference, d->as_reference == 1 ? " is" : "s are");
        }
        for (size_t g = 0; g < d->n_groups; g++) {
            const smcj_group_t *grp = &d->groups[g];
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
    static const smcj_status_t order[] = {SMCJ_ST_FAIL, SMCJ_ST_PLACEMENT, SMCJ_ST_FAIL_INFO,
                                          SMCJ_ST_PLACEMENT_INFO, SMCJ_ST_DIFFERS};
    for (size_t o = 0; o < sizeof order / sizeof order[0]; o++) {
        for (size_t vi = 0; r->results && vi < run->vectors->count; vi++) {
            if (r->results[vi].status != order[o]) {
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

static void id_array(smct_buf_t *b, const smcj_run_t *run, const size_t *vectors, size_t n,
                     size_t max)
{
    smct_buf_putc(b, '[');
    for (size_t i = 0; i < n && i < max; i++) {
        if (i) {
            smct_buf_putc(b, ',');
        }
        smct_json_write_cstr(b, vid(run, vectors[i]));
    }
    smct_buf_putc(b, ']');
}

static void cause_json(smct_buf_t *b, const smcj_run_t *run, const smcj_cause_t *c)
{
    const smcm_entry_t *e = smcm_entry(c->bug);
    smct_buf_puts(b, "{\"id\":");
    smct_json_write_cstr(b, e->id);
    smct_buf_puts(b, ",\"what\":");
    smct_json_write_cstr(b, e->what);
    smct_buf_puts(b, ",\"section\":");
    smct_json_write_cstr(b, e->section);
    smct_buf_puts(b, ",\"requirement\":");
    smct_json_write_cstr(b, e->requirement);
    smct_buf_puts(b, ",\"shipped\":");
    smct_json_write_cstr(b, e->shipped);
    smct_buf_printf(b, ",\"where\":[%s%s%s]", (c->where & SMCM_DEC) ? "\"decoder\"" : "",
                    (c->where & SMCM_DEC) && (c->where & SMCM_ENC) ? "," : "",
                    (c->where & SMCM_ENC) ? "\"encoder\"" : "");
    smct_buf_puts(b, ",\"together_with\":[");
    bool first = true;
    for (unsigned k = 0; k < SMCM_BUG_COUNT; k++) {
        if (c->partners & SMCM_BIT(k)) {
            smct_buf_puts(b, first ? "" : ",");
            smct_json_write_cstr(b, smcm_entry((smcm_bug_t)k)->id);
            first = false;
        }
    }
    smct_buf_printf(b, "],\"explains\":%zu,\"checks\":%zu,\"contradicted\":%zu,\"vectors\":",
                    c->n_vectors, c->checks, c->contradicted);
    id_array(b, run, c->vectors, c->n_vectors, SIZE_MAX);
    smct_buf_putc(b, '}');
}

void smcj_causes_json(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r)
{
    const smcj_diagnosis_t *d = diag_of(r);
    if (!d) {
        return;
    }
    smct_buf_printf(b,
                    ",\"diagnosis\":{\"failing\":%zu,\"explained\":%zu,\"not_replayable\":%zu,"
                    "\"as_reference\":%zu,\"contradicted_together\":%zu,\"replays\":%zu,"
                    "\"seconds\":%.3f,\"causes\":[",
                    d->failing, d->explained, d->harness, d->as_reference, d->contradicted_together,
                    d->replays, d->seconds);
    for (size_t i = 0; i < d->n_causes; i++) {
        smct_buf_puts(b, i ? "," : "");
        cause_json(b, run, &d->causes[i]);
    }
    smct_buf_puts(b, "],\"unexplained\":[");
    for (size_t g = 0; g < d->n_groups; g++) {
        const smcj_group_t *grp = &d->groups[g];
        smct_buf_puts(b, g ? ",{\"signature\":" : "{\"signature\":");
        smct_json_write_cstr(b, grp->text);
        smct_buf_printf(b, ",\"count\":%zu,\"vectors\":", grp->n_vectors);
        id_array(b, run, grp->vectors, grp->n_vectors, SIZE_MAX);
        smct_buf_putc(b, '}');
    }
    smct_buf_puts(b, "]}");
}

void smcj_causes_json_result(smct_buf_t *b, const smcj_runner_t *r, size_t vi)
{
    const smcj_diagnosis_t *d = diag_of(r);
    if (!d || !failed(r, vi)) {
        return;
    }
    smct_buf_puts(b, ",\"causes\":[");
    bool first = true;
    for (size_t i = 0; i < d->n_causes; i++) {
        if (d->by_vector[vi] & SMCM_BIT(d->causes[i].bug)) {
            smct_buf_puts(b, first ? "" : ",");
            smct_json_write_cstr(b, smcm_entry(d->causes[i].bug)->id);
            first = false;
        }
    }
    smct_buf_puts(b, "],\"unexplained\":");
    if (d->group_of[vi] != SIZE_MAX) {
        smct_json_write_cstr(b, d->groups[d->group_of[vi]].text);
    } else {
        smct_buf_puts(b, "null");
    }
}

const char *smcj_causes_what_differs(const smcj_runner_t *r, size_t ci)
{
    const smcj_diagnosis_t *d = diag_of(r);
    return d && ci < d->n_checks ? d->what_differs[ci] : NULL;
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
    smct_buf_puts(b, "<table class=\"causes\"><thead><tr><th>cause</th><th>spec</th><th>where</th>"
                     "<th>explains</th><th>shipped by</th><th>examples</th></tr></thead><tbody>");
    for (size_t i = 0; i < d->n_causes; i++) {
        const smcj_cause_t *c = &d->causes[i];
        const smcm_entry_t *e = smcm_entry(c->bug);
        smct_buf_puts(b, "<tr><td><b>");
        html_text(b, e->what);
        smct_buf_puts(b, "</b> <code>");
        html_text(b, e->id);
        smct_buf_printf(b, "</code></td><td>§%s %s</td><td>%s</td><td>%zu of %zu</td><td>",
                        e->section, e->requirement, smcj_cause_where(c) + 3, c->n_vectors,
                        d->failing);
        html_text(b, e->shipped);
        smct_buf_puts(b, "</td><td>");
        html_examples(b, run, ri, c->vectors, c->n_vectors);
        smct_buf_puts(b, "</td></tr>");
    }
    for (size_t g = 0; g < d->n_groups; g++) {
        const smcj_group_t *grp = &d->groups[g];
        smct_buf_puts(b, "<tr class=\"unexplained\"><td colspan=\"3\">unexplained: ");
        html_text(b, grp->text);
        smct_buf_printf(b, "</td><td>%zu</td><td></td><td>", grp->n_vectors);
        html_examples(b, run, ri, grp->vectors, grp->n_vectors);
        smct_buf_puts(b, "</td></tr>");
    }
    smct_buf_puts(b, "</tbody></table>");
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
