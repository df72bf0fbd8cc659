/*
 * JUnit XML for CI systems: a testsuite per runner, a testcase per selected vector. Codec
 * mismatches are <failure>, harness failures (crash, timeout, protocol error) are <error>,
 * n/a, skips and expected failures are <skipped>; an entry of an expected-failure list that
 * matches no vector is a failing case of its own, so a stale list shows in the CI's UI.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_causes.h"
#include "report_kinds.h"
#include "complexity.h"
#include "report_util.h"
#include "reports.h"

static void attr(smct_buf_t *b, const char *name, const char *value)
{
    smct_buf_printf(b, " %s=\"", name);
    smcj_buf_xml_cstr(b, value);
    smct_buf_putc(b, '"');
}

static void failure_body(smct_buf_t *b, const smcj_vectors_t *vs, const smcj_report_runner_t *mr,
                         const smcj_report_row_t *row)
{
    size_t vi = row->vector;
    const smcj_vector_t *v = &vs->v[vi];
    smct_buf_t t = {0};
    smct_buf_printf(&t, "%s\ntier: %s, section %s, kind %s\n", v->description,
                    smcj_tier_name(v->tier), v->section, v->kind);
    if (row->why) {
        smct_buf_printf(&t, "%s\n", row->why);
    }
    if (row->cause) {
        smct_buf_printf(&t, "%s\n", row->cause);
    }
    for (size_t k = row->check_begin; k < row->check_end; k++) {
        const smcj_report_check_t *c = &mr->check_views[k];
        if (c->outcome != SMCJ_OUT_FAIL) {
            continue;
        }
        smct_buf_printf(&t, "\n[%s] %s: %s\n", c->label, smcj_reason_name(c->reason),
                        c->detail ? c->detail : "");
        if (c->reason == SMCJ_REASON_WRONG_BYTES && c->exp_bytes) {
            smcj_report_check_hexdiff(&t, "  ", c);
        } else {
            if (c->expected) {
                smct_buf_printf(&t, "  expected: ");
                smcj_buf_shown(&t, c->expected);
                smct_buf_putc(&t, '\n');
            }
            if (c->actual) {
                smct_buf_printf(&t, "  actual:   ");
                smcj_buf_shown(&t, c->actual);
                smct_buf_putc(&t, '\n');
            }
        }
        if (c->stderr_tail && c->stderr_tail[0]) {
            smct_buf_printf(&t, "  runner stderr:\n%s\n", c->stderr_tail);
        }
    }
    smct_buf_puts(&t, "\nreplay: ");
    smct_buf_puts(&t, row->replay);
    smct_buf_putc(&t, '\n');
    smcj_buf_ok(&t); /* a failed part records out of memory: no report */
    smcj_buf_xml_text(b, t.data, t.len);
    smct_buf_free(&t);
}

/* The message of a skipped case: why it did not run or does not count. */
static char *skip_message(const smcj_report_row_t *row, const char *detail)
{
    if (row->status == SMCJ_ST_XFAIL) {
        return smcj_asprintf("expected failure (%s): %s", smcj_reason_name(row->verdict_reason),
                             row->xfail_reason);
    }
    if (row->status == SMCJ_ST_UNSUPPORTED) {
        return smcj_asprintf("unsupported: %s",
                             detail ? detail : "a core feature the runner lacks");
    }
    if (row->status == SMCJ_ST_SKIPPED) {
        return smcj_asprintf("skipped by the runner: %s", detail ? detail : "");
    }
    return smcj_asprintf("n/a: %s", detail ? detail
                                           : "the runner lacks an entry point or mode this vector "
                                             "needs");
}

/* A failing case's element, type and message: the likely cause first, since it is what a CI
 * log shows of the message. Harness failures are <error>, codec mismatches <failure> (JUnit's
 * own split); placement (spec §3.3) and unclassified rejections (R1.4-15) have types of their
 * own, never merged with the wire-level ones. */
static char *failure_message(const smcj_report_row_t *row, const smcj_report_check_t *fc,
                             const char **el, const char **type)
{
    bool is_error;
    smcj_report_row_junit(row, &is_error);
    *el = "failure";
    if (row->status == SMCJ_ST_XPASS) {
        *type = "unexpected_pass";
        return smcj_asprintf("unexpected pass: listed as an expected failure (%s) but passed",
                             row->xfail_reason);
    }
    const char *cause = row->cause;
    char *m;
    if (row->status == SMCJ_ST_UNCLASSIFIED) {
        *type = "unclassified_rejection";
        m = smcj_strdup(cause ? cause : "an unclassified rejection (spec R1.4-15, recommended)");
    } else if (row->status == SMCJ_ST_PLACEMENT) {
        *type = "placement";
        m = smcj_asprintf("%s%s%s", smcj_or_empty(cause), cause ? " — " : "",
                          smcj_or_empty(row->why));
    } else {
        *el = is_error ? "error" : "failure";
        *type = smcj_reason_name(row->verdict_reason);
        m = smcj_asprintf("%s%s%s", smcj_or_empty(cause), cause ? " — " : "",
                          fc && fc->detail ? fc->detail : "");
    }
    return m;
}

/* One testcase, shaped as its status's SMCJ_STATUS_LIST row says. */
static void one_case(smct_buf_t *b, const smcj_vectors_t *vs, const smcj_report_runner_t *mr,
                     const smcj_report_row_t *row)
{
    const smcj_vector_t *v = &vs->v[row->vector];
    char classname[128];
    snprintf(classname, sizeof classname, "%s.s%s", mr->facts.name, v->section);
    smct_buf_puts(b, "    <testcase");
    attr(b, "classname", classname);
    attr(b, "name", v->id);
    attr(b, "file", v->file);
    smct_buf_puts(b, " time=\"0\"");
    const smcj_report_check_t *fc = row->check != SIZE_MAX ? &mr->check_views[row->check] : NULL;
    /* an n/a without a deciding check: the reason the text report's n/a breakdown gives (its
     * first check's: a vocabulary it does not speak, a host type it states absent, P.1) */
    const char *detail = fc ? fc->detail : row->status == SMCJ_ST_NA ? row->na_detail : NULL;
    const smcj_status_info_t *info = smcj_status_info(row->status);
    switch (info->junit) {
    case SMCJ_JUNIT_NONE:
        smct_buf_puts(b, "/>\n");
        return;
    case SMCJ_JUNIT_SKIPPED: {
        char *m = skip_message(row, detail);
        smct_buf_puts(b, ">\n      <skipped");
        if (row->status == SMCJ_ST_UNSUPPORTED) {
            /* the runner's feature verdict (its own testcase, below) decides the gate */
            smct_buf_puts(b, " type=\"unsupported\"");
        }
        attr(b, "message", m);
        smct_buf_puts(b, "/>\n    </testcase>\n");
        free(m);
        return;
    }
    case SMCJ_JUNIT_OUTPUT:
        /* informational: the case passes the gate, the difference is recorded as output */
        smct_buf_printf(b, ">\n      <system-out>%s: ", info->heading);
        failure_body(b, vs, mr, row);
        smct_buf_puts(b, "</system-out>\n    </testcase>\n");
        return;
    case SMCJ_JUNIT_FAILURE: {
        const char *el, *type;
        char *m = failure_message(row, fc, &el, &type);
        smct_buf_printf(b, ">\n      <%s", el);
        attr(b, "type", type);
        attr(b, "message", m);
        free(m);
        if (row->status == SMCJ_ST_XPASS) {
            smct_buf_puts(b, "/>\n    </testcase>\n");
            return;
        }
        smct_buf_putc(b, '>');
        failure_body(b, vs, mr, row);
        smct_buf_printf(b, "</%s>\n    </testcase>\n", el);
        return;
    }
    }
}

/* A runner that never ran: one "start" case, skipped or an error. */
static void start_case(smct_buf_t *cases, const smcj_report_runner_facts_t *r)
{
    smct_buf_puts(cases, "    <testcase");
    attr(cases, "classname", r->name);
    smct_buf_puts(cases, " name=\"start\" time=\"0\">\n");
    if (r->skip_reason) {
        smct_buf_puts(cases, "      <skipped");
        attr(cases, "message", r->skip_reason);
        smct_buf_puts(cases, "/>\n");
    } else {
        smct_buf_puts(cases, "      <error type=\"could_not_start\"");
        attr(cases, "message", r->start_error ? r->start_error : "");
        smct_buf_puts(cases, "/>\n");
    }
    smct_buf_puts(cases, "    </testcase>\n");
}

/* A case per selected vector (the model's rows), a case per core feature the runner lacks,
 * and a failing case per stale expected-failure entry. */
static void vector_cases(smct_buf_t *cases, const smcj_vectors_t *vs,
                         const smcj_report_runner_t *mr)
{
    const smcj_report_runner_facts_t *r = &mr->facts;
    for (size_t k = 0; k < mr->n_rows; k++) {
        one_case(cases, vs, mr, &mr->rows[k]);
    }
    /* spec §1.4, R1.4-11: a core feature the runner lacks is one failing case, unless the
     * expected-failure list names it */
    for (size_t k = 0; k < r->n_unsupported_features; k++) {
        const smcj_feature_verdict_t *f = &r->unsupported_features[k];
        smct_buf_t text = {0};
        smct_buf_puts(&text, "unsupported: ");
        smcj_feature_verdict_text(&text, f);
        smct_buf_puts(cases, "    <testcase");
        attr(cases, "classname", r->name);
        char *name = smcj_asprintf("feature:%s", f->feature);
        attr(cases, "name", name);
        free(name);
        if (f->xfail_reason) {
            char *m =
                smcj_asprintf("%s (expected failure: %s)", smcj_buf_text(&text), f->xfail_reason);
            smct_buf_puts(cases, " time=\"0\">\n      <skipped");
            attr(cases, "message", m);
            free(m);
        } else {
            smct_buf_puts(cases, " time=\"0\">\n      <failure type=\"unsupported\"");
            attr(cases, "message", smcj_buf_text(&text));
        }
        smct_buf_puts(cases, "/>\n    </testcase>\n");
        smct_buf_free(&text);
    }
    for (size_t k = 0; r->has_xfail && k < r->xfail.count; k++) {
        if (r->xfail.entries[k].matched) {
            continue;
        }
        char *m = smcj_asprintf("%s line %d: `%s` matches no vector", r->xfail.path,
                                r->xfail.entries[k].line, r->xfail.entries[k].pattern);
        smct_buf_puts(cases, "    <testcase");
        attr(cases, "classname", r->name);
        attr(cases, "name", r->xfail.entries[k].pattern);
        smct_buf_puts(cases, " time=\"0\">\n      <failure type=\"stale_expected_failure\"");
        attr(cases, "message", m);
        smct_buf_puts(cases, "/>\n    </testcase>\n");
        free(m);
    }
}

/* The runner's command, codec and restarts as suite properties. */
static void suite_properties(smct_buf_t *body, const smcj_report_facts_t *f,
                             const smcj_report_runner_t *mr)
{
    const smcj_report_runner_facts_t *r = &mr->facts;
    smct_buf_puts(body, "    <properties>\n      <property name=\"command\"");
    attr(body, "value", r->command);
    smct_buf_puts(body, "/>\n");
    if (r->codec_name) {
        smct_buf_puts(body, "      <property name=\"codec\"");
        char *cv =
            smcj_asprintf("%s %s (%s)", r->codec_name, r->codec_version ? r->codec_version : "?",
                          r->codec_language ? r->codec_language : "?");
        attr(body, "value", cv);
        free(cv);
        smct_buf_puts(body, "/>\n");
    }
    static const char *const kind_names[] = {"crashes-by-kind", "unclassified-rejections-by-kind"};
    for (int g = 0; g < SMCJ_KINDS_GROUPS; g++) {
        if (mr->kind_line[g]) {
            smct_buf_printf(body, "      <property name=\"%s\"", kind_names[g]);
            attr(body, "value", mr->kind_line[g]);
            smct_buf_puts(body, "/>\n");
        }
    }
    /* the diagnosis probes, as the other reports state them (issue 28) */
    if (mr->diagnosis.probes_line) {
        smct_buf_puts(body, "      <property name=\"diagnosis-probes\"");
        attr(body, "value", mr->diagnosis.probes_line);
        smct_buf_puts(body, "/>\n");
    }
    /* issue 26: a CI system that shows only this file must see a set that is not released */
    smct_buf_puts(body, "      <property name=\"vectors\"");
    attr(body, "value",
         f->vectors->n_integrity
             ? (f->allow_modified_vectors ? "MODIFIED (allowed by --allow-modified-vectors)"
                                          : "MODIFIED (the gate refuses it)")
             : "released");
    smct_buf_puts(body, "/>\n");
    /* whether the runner could reach the judge's files (sandbox.h) */
    smct_buf_puts(body, "      <property name=\"sandbox\"");
    char *sb =
        smcj_asprintf("%s: %s", f->sandboxed ? "sandboxed" : "NOT sandboxed", f->sandbox_note);
    attr(body, "value", sb ? sb : "?");
    free(sb);
    smct_buf_puts(body, "/>\n");
    /* excused is not passed: a CI system that shows only the counts must still see it */
    smct_buf_printf(body,
                    "      <property name=\"expected_failures\" value=\"%zu\"/>\n"
                    "      <property name=\"features_excused\" value=\"%zu\"/>\n",
                    mr->counts.status[SMCJ_ST_XFAIL], mr->counts.features_excused);
    /* spec R1.4-18: what it could not read back of its own bytes */
    smct_buf_printf(body,
                    "      <property name=\"self_consistency_failed\" value=\"%zu\"/>\n"
                    "      <property name=\"self_consistency_checked\" value=\"%zu\"/>\n",
                    r->n_self_failed, r->n_self_checked);
    smct_buf_printf(body, "      <property name=\"restarts\" value=\"%u\"/>\n    </properties>\n",
                    r->restarts);
}

/* One runner's <testsuite>, its counts the model's (report_model.h). */
static void runner_suite(smct_buf_t *body, const smcj_report_model_t *m,
                         const smcj_report_runner_t *mr)
{
    const smcj_report_runner_facts_t *r = &mr->facts;
    const smcj_report_counts_t *n = &mr->counts;
    smct_buf_t cases = {0};
    if (!mr->ran) {
        start_case(&cases, r);
    } else {
        vector_cases(&cases, m->facts.vectors, mr);
        smct_buf_puts(&cases, mr->cx_junit); /* spec §15.4 */
    }
    smct_buf_puts(body, "  <testsuite");
    attr(body, "name", r->name);
    smct_buf_printf(body,
                    " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\"",
                    n->cases, n->case_failures, n->case_errors, n->case_skipped, r->seconds);
    attr(body, "timestamp", m->facts.started_at);
    smct_buf_puts(body, ">\n");
    if (r->command) {
        suite_properties(body, &m->facts, mr);
    }
    smcj_buf_append_buf(body, &cases);
    smct_buf_free(&cases);
    smct_buf_puts(body, "  </testsuite>\n");
}

void smcj_report_junit(smct_buf_t *b, const smcj_report_model_t *m)
{
    const smcj_report_counts_t *total = &m->total;
    smct_buf_t body = {0};
    for (size_t ri = 0; ri < m->n_runners; ri++) {
        runner_suite(&body, m, &m->runners[ri]);
    }
    smct_buf_puts(b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    smct_buf_printf(b,
                    "<testsuites name=\"smc conformance\" tests=\"%zu\" failures=\"%zu\" "
                    "errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\">\n",
                    total->cases, total->case_failures, total->case_errors, total->case_skipped,
                    m->facts.seconds);
    smcj_buf_append_buf(b, &body);
    smct_buf_puts(b, "</testsuites>\n");
    smct_buf_free(&body);
}
