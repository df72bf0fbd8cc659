/*
 * The text report on stdout, for people and CI logs: one protobuf-style summary line per
 * runner, the runners x sections matrix, then the first --max-details failures with expected
 * and actual values, a hex diff for wrong bytes, the runner's last stderr lines and a command
 * that replays the one vector. Long texts are cut (SMCJ_SHOWN_TEXT); the JSON report has all.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_causes.h"
#include "report_kinds.h"
#include "report_depth.h"
#include "complexity.h"
#include "report_util.h"
#include "reports.h"

/* Each line of `text` prefixed (stderr tails and multi-line values stay readable). Whatever
 * the text holds, every line it prints starts with `prefix`: a runner cannot print a line
 * of its own (texts from runners are made safe where they are kept, escape.h). */
static void indent_block(smct_buf_t *b, const char *prefix, const char *text)
{
    const char *p = text;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        smct_buf_puts(b, prefix);
        smcj_buf_safe_block(b, p, n);
        smct_buf_putc(b, '\n');
        p += n + (nl ? 1 : 0);
    }
}

/* One line of untrusted text (a vector file's description, a detail quoting a runner). */
static void line_text(smct_buf_t *b, const char *s)
{
    smcj_buf_excerpt_cstr(b, s, SMCJ_SHOWN_TEXT);
}

/* The summary line of one runner, then what a reader must know to trust it: what its
 * declaration changes in how it is judged (spec §1.4), the core features it lacks, handshake
 * words ignored. */
static void runner_line(smct_buf_t *b, const smcj_report_runner_t *mr)
{
    const smcj_report_runner_facts_t *r = &mr->facts;
    if (r->skip_reason) {
        smct_buf_printf(b, "%s: skipped: %s\n", r->name, r->skip_reason);
        return;
    }
    if (r->start_failed) {
        smct_buf_printf(b, "%s: could not start: ", r->name);
        line_text(b, r->start_error);
        smct_buf_putc(b, '\n');
        if (r->stderr_tail && r->stderr_tail[0]) {
            smct_buf_printf(b, "%s: runner stderr (quoted):\n", r->name);
            indent_block(b, "  | ", r->stderr_tail);
        }
        return;
    }
    smct_buf_printf(b, "%s: %s", r->name, smcj_or_empty(mr->summary));
    /* the codec's own words, quoted: it chose them (made safe by handshake.c) */
    smct_buf_printf(b, "   [codec \"%s\" %s, %s; %zu requests, %u restart%s, %.2f s]\n",
                    r->codec_name ? r->codec_name : "?", r->codec_version ? r->codec_version : "?",
                    r->codec_language ? r->codec_language : "?", r->requests_sent, r->restarts,
                    r->restarts == 1 ? "" : "s", r->seconds);
    if (r->gave_up || r->stop_reason) {
        smct_buf_printf(b, "%s: %s%s: %zu check%s not answered, each failed as %s\n", r->name,
                        r->gave_up ? "GIVEN UP, " : "", smcj_or_empty(r->stop_reason), r->n_unsent,
                        r->n_unsent == 1 ? "" : "s", smcj_reason_name(r->stop_kind));
    }
    smcj_memory_line(b, r);
    for (int g = 0; g < SMCJ_KINDS_GROUPS; g++) {
        if (mr->kind_line[g]) {
            smct_buf_printf(b, "%s: %s\n", r->name, mr->kind_line[g]);
        }
    }
    for (size_t k = 0; k < mr->notes.n; k++) {
        smct_buf_printf(b, "%s: note: %s\n", r->name, mr->notes.line[k]);
    }
    for (size_t k = 0; k < mr->self.n; k++) { /* a line of its own, not a note */
        smct_buf_printf(b, "%s: %s\n", r->name, mr->self.line[k]);
    }
    for (size_t k = 0; k < r->n_unsupported_features; k++) {
        const smcj_feature_verdict_t *f = &r->unsupported_features[k];
        smct_buf_printf(b, "%s: unsupported: ", r->name);
        smcj_feature_verdict_text(b, f);
        if (f->xfail_reason) {
            smct_buf_puts(b, " (expected failure: ");
            line_text(b, f->xfail_reason);
            smct_buf_putc(b, ')');
        }
        smct_buf_putc(b, '\n');
    }
    if (r->handshake_note) {
        smct_buf_printf(b, "%s: warning: %s\n", r->name, r->handshake_note);
    }
}

/* Passed/applicable per top-level spec section and runner, with letters for the rest, so the
 * section a codec gets wrong is visible at a glance. */
static void matrix(smct_buf_t *b, const smcj_report_model_t *model)
{
    const smcj_matrix_t *mp = &model->sections;
    smct_buf_puts(b, "\nMatrix: passed/applicable per spec section (F failures, A placement "
                     "failures, R unclassified rejections, X expected "
                     "failures, P unexpected passes, D differs, S skipped, U unsupported)\n");
    smct_buf_printf(b, "%-8s", "section");
    for (size_t ri = 0; ri < model->n_runners; ri++) {
        smct_buf_printf(b, " %-18.18s", model->runners[ri].facts.name);
    }
    smct_buf_putc(b, '\n');
    for (size_t row = 0; row < mp->n_rows; row++) {
        char label[32];
        snprintf(label, sizeof label, "§%s", mp->rows[row]);
        smct_buf_printf(b, "%-9s", label); /* § is two bytes, one column */
        for (size_t ri = 0; ri < model->n_runners; ri++) {
            const smcj_report_runner_t *mr = &model->runners[ri];
            char cell[64];
            if (!mr->ran) {
                snprintf(cell, sizeof cell, "%s", mr->facts.skip_reason ? "skipped" : "not run");
            } else {
                const smcj_cell_t *c = smcj_matrix_cell(mp, row, ri);
                int n = c->applicable
                            ? snprintf(cell, sizeof cell, "%zu/%zu", c->pass, c->applicable)
                            : snprintf(cell, sizeof cell, "n/a");
                size_t f = c->fail + c->fail_info;
                if (f && n > 0 && (size_t)n < sizeof cell) {
                    n += snprintf(cell + n, sizeof cell - (size_t)n, " F%zu", f);
                }
                if (c->placement && n > 0 && (size_t)n < sizeof cell) {
                    n += snprintf(cell + n, sizeof cell - (size_t)n, " A%zu", c->placement);
                }
                if (c->unclassified && n > 0 && (size_t)n < sizeof cell) {
                    n += snprintf(cell + n, sizeof cell - (size_t)n, " R%zu", c->unclassified);
                }
                if (c->xfail && n > 0 && (size_t)n < sizeof cell) {
                    n += snprintf(cell + n, sizeof cell - (size_t)n, " X%zu", c->xfail);
                }
                if (c->xpass && n > 0 && (size_t)n < sizeof cell) {
                    n += snprintf(cell + n, sizeof cell - (size_t)n, " P%zu", c->xpass);
                }
                if (c->differs && n > 0 && (size_t)n < sizeof cell) {
                    n += snprintf(cell + n, sizeof cell - (size_t)n, " D%zu", c->differs);
                }
                if (c->skipped && n > 0 && (size_t)n < sizeof cell) {
                    n += snprintf(cell + n, sizeof cell - (size_t)n, " S%zu", c->skipped);
                }
                if (c->unsupported && n > 0 && (size_t)n < sizeof cell) {
                    snprintf(cell + n, sizeof cell - (size_t)n, " U%zu", c->unsupported);
                }
            }
            smct_buf_printf(b, " %-18s", cell);
        }
        smct_buf_putc(b, '\n');
    }
    if (model->complexity) { /* spec §15.4: families passed/measured, F failed, M not measured */
        smct_buf_printf(b, "%-9s", "§15.4"); /* § is two bytes, one column */
        for (size_t ri = 0; ri < model->n_runners; ri++) {
            smct_buf_printf(b, " %-18s", model->runners[ri].cx_cell);
        }
        smct_buf_putc(b, '\n');
    }
}

/* One failing check: what was expected, what came, and how to see it again by hand. */
static void check_details(smct_buf_t *b, const smcj_report_runner_t *mr, size_t k)
{
    const smcj_report_check_t *c = &mr->check_views[k];
    smct_buf_printf(b, "  [%s] %s: ", c->label, smcj_reason_name(c->reason));
    line_text(b, c->detail);
    smct_buf_putc(b, '\n');
    const char *diff = smcj_report_what_differs(mr, k);
    if (diff) {
        smct_buf_printf(b, "    differs: %s\n", diff);
    }
    if (c->reason == SMCJ_REASON_WRONG_BYTES && c->exp_bytes) {
        smcj_report_check_hexdiff(b, "    ", c);
    } else {
        if (c->expected) {
            smct_buf_printf(b, "    expected: ");
            smcj_buf_shown(b, c->expected);
            smct_buf_putc(b, '\n');
        }
        if (c->actual) {
            smct_buf_printf(b, "    actual:   ");
            smcj_buf_shown(b, c->actual);
            smct_buf_putc(b, '\n');
        }
    }
    if (c->stderr_tail && c->stderr_tail[0]) {
        smct_buf_puts(b, "    runner stderr (quoted; first fatal lines, then the last ones):\n");
        indent_block(b, "      | ", c->stderr_tail);
    }
    if (c->kind != SMCJ_CHECK_HANDSHAKE) {
        smct_buf_puts(b, "    raw:    ");
        smct_buf_puts(b, mr->raw[k]);
        smct_buf_putc(b, '\n');
    }
}

/* One vector's failing checks (and its placement check) and the command that reruns it. */
static void vector_details(smct_buf_t *b, const smcj_vectors_t *vs, const smcj_report_runner_t *mr,
                           size_t i)
{
    const smcj_report_row_t *row = &mr->rows[mr->row_of[i]];
    const smcj_vector_t *v = &vs->v[i];
    const char *what = smcj_status_info(row->status)->heading;
    smcj_reason_t reason = row->verdict_reason;
    smct_buf_printf(b, "\n--- %s × %s  %s  [%s, §%s, %s, %s]\n", mr->facts.name, v->id, what,
                    smcj_tier_name(row->tier), v->section, v->kind,
                    reason == SMCJ_REASON_NONE ? "skipped" : smcj_reason_name(reason));
    smct_buf_puts(b, "  ");
    line_text(b, v->description);
    smct_buf_putc(b, '\n');
    if (row->why) {
        smct_buf_puts(b, "  ");
        line_text(b, row->why);
        smct_buf_putc(b, '\n');
    }
    if (v->focus) {
        smct_buf_puts(b, "  focus: ");
        line_text(b, v->focus);
        smct_buf_putc(b, '\n');
    }
    for (size_t k = row->check_begin; k < row->check_end; k++) {
        if (mr->check_views[k].outcome == SMCJ_OUT_FAIL || k == row->placement_check) {
            check_details(b, mr, k);
        }
    }
    if (mr->check_views[row->check].kind != SMCJ_CHECK_HANDSHAKE) {
        smct_buf_puts(b, "  replay: ");
        smct_buf_puts(b, row->replay);
        smct_buf_putc(b, '\n');
    }
}

/* Whether vector `i` of `mr` belongs in the differences section (true) or the failures one. */
static bool is_difference(const smcj_report_runner_t *mr, size_t i)
{
    return mr->rows[mr->row_of[i]].status == SMCJ_ST_DIFFERS;
}

/* Details grouped by likely cause (report_causes.h), up to --max-details vectors per cause,
 * then a count of the rest: the log of a bad runner must stay readable, and one bug's
 * hundreds of failures must not hide the next bug's. Implementation-defined differences
 * (informational, never a failure) get their own heading after the failures, so nothing
 * under "Failures" is one (issue 27). */
static void detail_section(smct_buf_t *b, const smcj_report_model_t *m, bool differences)
{
    int max_details = m->facts.max_details;
    size_t total = 0, shown = 0;
    for (size_t ri = 0; ri < m->n_runners; ri++) {
        for (size_t s = 0; s < SMCJ_ST_COUNT; s++) {
            total +=
                smcj_status_has_details((smcj_status_t)s) && (s == SMCJ_ST_DIFFERS) == differences
                    ? m->runners[ri].counts.status[s]
                    : 0;
        }
    }
    if (total == 0) {
        return;
    }
    if (differences) {
        smct_buf_printf(b,
                        "\nImplementation-defined differences (%zu; informational, not failures; "
                        "details of up to %d per cause):\n",
                        total, max_details);
    } else {
        smct_buf_printf(
            b,
            "\nFailures (%zu; by likely cause, details of up to %d per cause, --max-details N):\n",
            total, max_details);
    }
    for (size_t ri = 0; ri < m->n_runners && max_details > 0; ri++) {
        const smcj_report_runner_t *mr = &m->runners[ri];
        const smcj_report_runner_facts_t *r = &mr->facts;
        size_t n_groups = mr->n_groups;
        const smcj_detail_group_t *groups = mr->groups;
        for (size_t g = 0; g < n_groups; g++) {
            size_t in_section = 0;
            for (size_t k = 0; k < groups[g].n_vectors; k++) {
                in_section += is_difference(mr, groups[g].vectors[k]) == differences;
            }
            size_t n = in_section < (size_t)max_details ? in_section : (size_t)max_details;
            if (n == 0) {
                continue;
            }
            /* an unexplained group's label quotes the runner's answers: one safe line */
            smct_buf_printf(b, "\n=== %s × ", r->name);
            line_text(b, smcj_or_empty(groups[g].label));
            smct_buf_printf(b, ": %zu vector%s", in_section, in_section == 1 ? "" : "s");
            if (n < in_section) {
                smct_buf_printf(b, " (details of %zu)", n);
            }
            smct_buf_putc(b, '\n');
            for (size_t k = 0, listed = 0; k < groups[g].n_vectors && listed < n; k++) {
                if (is_difference(mr, groups[g].vectors[k]) == differences) {
                    vector_details(b, m->facts.vectors, mr, groups[g].vectors[k]);
                    listed++;
                }
            }
            shown += n;
        }
    }
    if (shown < total) {
        smct_buf_printf(b, "\n(%zu more not shown)\n", total - shown);
    }
}

static void details(smct_buf_t *b, const smcj_report_model_t *m)
{
    detail_section(b, m, false);
    detail_section(b, m, true);
}

/* A vector a runner cannot express is never a pass (PROTOCOL.md P.1); say which and why, grouped
 * by reason (the detail of the vector's first n/a check: the missing feature or entry). */
/* n/a is never silent: a count per reason (or with --list-na every vector), so a runner that
 * declares too little is seen to test too little. */
static void not_applicable(smct_buf_t *b, const smcj_report_model_t *m)
{
    const smcj_report_facts_t *f = &m->facts; /* --list-na and the vector ids */
    for (size_t ri = 0; ri < m->n_runners; ri++) {
        const smcj_report_runner_t *mr = &m->runners[ri];
        if (mr->na_total == 0) {
            continue;
        }
        smct_buf_printf(b, "\n%s: %zu vectors not applicable (never counted as passed)%s:\n",
                        mr->facts.name, mr->na_total, f->list_na ? "" : "; --list-na names each");
        for (size_t k = 0; k < mr->n_na; k++) {
            smct_buf_printf(b, "  %6zu  %s\n", mr->na[k].count, mr->na[k].reason);
            for (size_t i = 0; f->list_na && i < mr->n_rows; i++) {
                const smcj_report_row_t *row = &mr->rows[i];
                /* a row without a detail is counted under "not applicable", never named */
                if (row->status == SMCJ_ST_NA && row->na_detail &&
                    strcmp(row->na_detail, mr->na[k].reason) == 0) {
                    smct_buf_printf(b, "          %s\n", f->vectors->v[row->vector].id);
                }
            }
        }
    }
}

/* spec §1.1: which behaviour each runner showed on the implementation-defined vectors it
 * differs on, grouped ("41  behaves like CPP, GLIB: keeps the raw bytes"). */
static void differs_summary(smct_buf_t *b, const smcj_report_model_t *m)
{
    for (size_t ri = 0; ri < m->n_runners; ri++) {
        const smcj_report_runner_t *mr = &m->runners[ri];
        const smcj_report_runner_facts_t *r = &mr->facts;
        size_t n_differs = mr->counts.status[SMCJ_ST_DIFFERS];
        if (!mr->ran || n_differs == 0) {
            continue;
        }
        const char **texts = NULL;
        size_t *counts = NULL, n = 0;
        for (size_t row = 0; row < mr->n_rows; row++) {
            const char *t = mr->rows[row].status == SMCJ_ST_DIFFERS ? mr->rows[row].why : NULL;
            if (!t) {
                continue;
            }
            size_t k = 0;
            while (k < n && strcmp(texts[k], t) != 0) {
                k++;
            }
            if (k == n) {
                size_t tcap = n, ccap = n;
                if (!smcj_grow((void **)&texts, &tcap, n + 1, sizeof *texts) ||
                    !smcj_grow((void **)&counts, &ccap, n + 1, sizeof *counts)) {
                    b->failed = true; /* out of memory: this report is not written */
                    break;
                }
                texts[n] = t;
                counts[n++] = 0;
            }
            counts[k]++;
        }
        smct_buf_printf(
            b,
            "\n%s: %zu implementation-defined vector%s decoded another way than the spec decides "
            "(informational, spec §1.1):\n",
            r->name, n_differs, n_differs == 1 ? "" : "s");
        for (size_t k = 0; k < n; k++) {
            smct_buf_printf(b, "  %6zu  ", counts[k]);
            line_text(b, texts[k]);
            smct_buf_putc(b, '\n');
        }
        free((void *)texts); /* the texts are the model's */
        free(counts);
    }
}

/* Entries of expected-failure lists that match no vector (they fail the gate). */
static void xfail_problems(smct_buf_t *b, const smcj_report_model_t *m)
{
    const smcj_vectors_t *vs = m->facts.vectors;
    for (size_t ri = 0; ri < m->n_runners; ri++) {
        const smcj_report_runner_t *mr = &m->runners[ri];
        const smcj_report_runner_facts_t *r = &mr->facts;
        if (mr->counts.status[SMCJ_ST_XPASS]) {
            smct_buf_printf(
                b, "\n%s: unexpected passes (listed in %s, but they pass now; remove them):\n",
                r->name, r->xfail.path);
            for (size_t k = 0; k < mr->n_rows; k++) {
                if (mr->rows[k].status == SMCJ_ST_XPASS) {
                    smct_buf_printf(b, "  %s  # ", vs->v[mr->rows[k].vector].id);
                    line_text(b, mr->rows[k].xfail_reason);
                    smct_buf_putc(b, '\n');
                }
            }
        }
        if (mr->counts.xfail_unmatched) {
            smct_buf_printf(
                b, "\n%s: entries of %s that match no vector (stale; remove or fix them):\n",
                r->name, r->xfail.path);
            for (size_t k = 0; k < r->xfail.count; k++) {
                if (r->xfail.entries[k].matched == 0) {
                    smct_buf_printf(b, "  line %d: ", r->xfail.entries[k].line);
                    line_text(b, r->xfail.entries[k].pattern);
                    smct_buf_putc(b, '\n');
                }
            }
        }
    }
}

/* The expected failures the gate excused and the list that excused them, on the verdict line
 * itself, so a pass that needed a list never reads like a clean one. */
static void xfail_summary(smct_buf_t *b, const smcj_report_model_t *m)
{
    size_t shown = 0;
    for (size_t ri = 0; ri < m->n_runners; ri++) {
        const smcj_report_runner_t *mr = &m->runners[ri];
        const smcj_report_runner_facts_t *r = &mr->facts;
        size_t n = mr->counts.status[SMCJ_ST_XFAIL] + mr->counts.features_excused;
        if (!r->has_xfail || !mr->ran) {
            continue;
        }
        smct_buf_puts(b, shown++ ? "; " : " (");
        line_text(b, r->name);
        smct_buf_printf(b, ": %zu expected failure%s listed in ", n, n == 1 ? "" : "s");
        line_text(b, r->xfail.path);
    }
    if (shown) {
        smct_buf_putc(b, ')');
    }
}

void smcj_report_text(smct_buf_t *b, const smcj_report_model_t *m)
{
    const smcj_report_facts_t *f = &m->facts;
    const smcj_vectors_t *vs = f->vectors;
    static const char *const gates[] = {"required", "recommended", "all"};
    smct_buf_printf(b,
                    "smc conformance: vectors %s from %s (%zu files): %zu of %zu selected; gate: "
                    "%s; %.2f s",
                    vs->version ? vs->version : "unknown", vs->dir, vs->n_files, vs->selected,
                    vs->count, gates[f->gate], f->seconds);
    if (vs->n_integrity) {
        /* the end of the first line, so that nothing reads it as the released set */
        smct_buf_printf(b, "; vectors MODIFIED (%zu problem%s)", vs->n_integrity,
                        vs->n_integrity == 1 ? "" : "s");
    }
    smct_buf_putc(b, '\n');
    smcj_vectors_integrity_line(b, f);
    smcj_sandbox_line(b, f);
    smcj_limits_line(b, f);
    for (size_t ri = 0; ri < m->n_runners; ri++) {
        runner_line(b, &m->runners[ri]);
    }
    smct_buf_puts(b, m->cx_text);
    matrix(b, m);
    not_applicable(b, m);
    differs_summary(b, m);
    for (size_t ri = 0; ri < m->n_runners; ri++) {
        smct_buf_puts(b, m->runners[ri].causes_text);
    }
    details(b, m);
    xfail_problems(b, m);
    /* The verdict line, last, and only the judge's: every note on it is one safe line. */
    smct_buf_printf(b, "\n%s", f->gate_passed ? "GATE PASSED" : "GATE FAILED");
    for (size_t k = 0; k < f->n_gate_notes; k++) {
        smct_buf_puts(b, k ? "; " : ": ");
        line_text(b, f->gate_notes[k]);
    }
    xfail_summary(b, m);
    smct_buf_putc(b, '\n');
}
