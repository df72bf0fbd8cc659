/*
 * The HTML report: one self-contained page (inline CSS and a few lines of JavaScript, no
 * network), so it can be archived as a CI artifact and opened anywhere. Summary, a coloured
 * runners x sections matrix, every failure with its checks, and a per-vector grid. Every
 * text from a runner or a vector goes through the XML escaper (escape.c): a runner's output
 * must never become markup.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "report_causes.h"
#include "report_util.h"
#include "reports.h"
#include "results.h"

static const char k_css[] =
    "*{box-sizing:border-box}"
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;margin:0;"
    "color:#1f2328;background:#f6f8fa}"
    "header{background:#24292f;color:#fff;padding:18px 32px}"
    "header h1{margin:0;font-size:20px;font-weight:600}"
    "header .meta{color:#c9d1d9;font-size:12.5px;margin-top:4px}"
    "main{padding:20px 32px;max-width:1400px}"
    "section{background:#fff;border:1px solid #d0d7de;border-radius:8px;padding:16px 20px;"
    "margin-bottom:18px}"
    "h2{font-size:16px;margin:0 0 12px}"
    ".gate{display:inline-block;padding:6px 14px;border-radius:6px;font-weight:700;"
    "font-size:15px;margin-bottom:10px}"
    ".gate.ok{background:#dafbe1;color:#116329;border:1px solid #4ac26b}"
    ".gate.bad{background:#ffebe9;color:#a40e26;border:1px solid #ff8182}"
    ".notes{margin:4px 0 0 0;padding-left:20px;color:#57606a}"
    ".sum{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px;"
    "margin:3px 0}"
    ".sum b{display:inline-block;min-width:90px}"
    ".codec{color:#57606a}"
    "table{border-collapse:separate;border-spacing:3px}"
    "th{font-weight:600;text-align:left;padding:4px 8px;font-size:13px;color:#57606a}"
    "th.r{text-align:center;min-width:110px;color:#1f2328}"
    "td{padding:4px 8px;font-size:13px;border-radius:4px}"
    "td.sec{font-weight:600;white-space:nowrap}"
    "td.c{text-align:center;font-family:ui-monospace,monospace;min-width:110px}"
    ".pass{background:#2da44e;color:#fff}"
    ".fail{background:#cf222e;color:#fff}"
    ".xpass{background:#bf3989;color:#fff}"
    ".xfail{background:#fb8f44;color:#fff}"
    ".differs{background:#0969da;color:#fff}"
    ".placement{background:#8250df;color:#fff}"
    ".unsupported{background:#953800;color:#fff}"
    ".alt{margin:0 0 8px;padding:6px 10px;border-radius:4px;background:#ddf4ff;color:#0a3069}"
    ".skipped{background:#d4a72c;color:#fff}"
    ".na{background:#d0d7de;color:#57606a}"
    ".mixed{background:linear-gradient(90deg,#2da44e 0,#2da44e 70%,#0969da 70%);color:#fff}"
    ".legend span{display:inline-block;padding:2px 10px;border-radius:4px;margin:0 6px 6px 0;"
    "font-size:12px}"
    ".sub{color:#57606a;font-size:12px}"
    "details{border:1px solid #d0d7de;border-radius:6px;margin:6px 0;background:#fff}"
    "details>summary{cursor:pointer;padding:7px 12px;list-style:none;display:flex;gap:10px;"
    "align-items:center}"
    "details>summary::-webkit-details-marker{display:none}"
    "details>summary:before{content:'\\25B8';color:#57606a}"
    "details[open]>summary:before{content:'\\25BE'}"
    "details[open]>summary{border-bottom:1px solid #d0d7de;background:#f6f8fa}"
    ".tag{font-size:11.5px;padding:1px 7px;border-radius:10px;font-weight:600;white-space:nowrap}"
    ".id{font-family:ui-monospace,monospace;font-weight:600}"
    "pre{margin:0;padding:10px 14px;overflow-x:auto;"
    "font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;"
    "word-break:break-all}"
    ".k{color:#57606a}"
    ".exp{color:#116329}.act{color:#a40e26}"
    "button,input{font:inherit;font-size:13px;padding:4px 10px;border:1px solid #d0d7de;"
    "border-radius:6px;background:#f6f8fa;cursor:pointer}"
    "input{cursor:text;background:#fff;width:260px}"
    ".grid td.c{min-width:90px;font-size:12px;padding:2px 6px}"
    ".grid td.id{font-size:12px}"
    ".tools{display:flex;gap:8px;margin-bottom:10px;align-items:center}"
    ".body{padding:10px 14px}"
    ".desc{margin:0 0 8px}"
    ".chk{border-left:3px solid #cf222e;padding:4px 0 4px 12px;margin:10px 0}"
    ".chk-h{margin-bottom:6px}"
    ".kv{border-spacing:0 2px;width:100%}"
    ".kv th{width:80px;vertical-align:top;padding:3px 8px 3px 0}"
    ".kv td{padding:3px 8px;border-radius:4px;word-break:break-all}"
    ".kv td.exp{background:#dafbe1}.kv td.act{background:#ffebe9}"
    ".kv code,pre{font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}"
    ".lbl{font-size:11.5px;color:#57606a;margin:8px 0 2px;text-transform:uppercase;"
    "letter-spacing:.04em}"
    "pre.hex{background:#fff8c5;border-radius:4px;white-space:pre;overflow-x:auto}"
    "pre.stderr{background:#24292f;color:#e6edf3;border-radius:4px;max-height:220px;overflow:auto}"
    "pre.cmd{background:#f6f8fa;border:1px solid #d0d7de;border-radius:4px}";

/* The likely-causes table and the cause line of a failure (report_causes.h); apart from
 * k_css, which is at the length every C compiler must take. */
static const char k_css_causes[] =
    "table.causes{border-collapse:collapse;width:100%;margin-bottom:14px}"
    "table.causes td,table.causes th{border-bottom:1px solid #d0d7de;border-radius:0;"
    "vertical-align:top}"
    "table.causes tr.unexplained td{color:#57606a}"
    "h3{font-size:14px;margin:10px 0 6px}"
    "p.cause{margin:0 0 8px;padding:4px 8px;background:#ddf4ff;border-radius:4px}";

static const char k_js[] =
    "function setAll(o){document.querySelectorAll('#failures details').forEach(function(d){"
    "d.open=o;});}"
    "function filt(q){q=q.toLowerCase();"
    "document.querySelectorAll('#grid tbody tr').forEach(function(tr){"
    "tr.style.display=tr.dataset.id.indexOf(q)>=0?'':'none';});}"
    "function onlyBad(on){document.querySelectorAll('#grid tbody tr').forEach(function(tr){"
    "tr.style.display=(!on||tr.dataset.bad==='1')?'':'none';});}"
    "function openFailure(id){var d=document.getElementById(id);if(d){d.open=true;}}";

/* The CSS class of a status; an ungated failure is still red (it is a failure). */
static const char *status_class(smcj_status_t s)
{
    switch (s) {
    case SMCJ_ST_PASS:
        return "pass";
    case SMCJ_ST_FAIL:
        return "fail";
    case SMCJ_ST_FAIL_INFO:
        return "fail";
    case SMCJ_ST_DIFFERS:
        return "differs";
    case SMCJ_ST_XFAIL:
        return "xfail";
    case SMCJ_ST_XPASS:
        return "xpass";
    case SMCJ_ST_SKIPPED:
        return "skipped";
    case SMCJ_ST_NA:
        return "na";
    case SMCJ_ST_PLACEMENT:
    case SMCJ_ST_PLACEMENT_INFO:
        return "placement";
    case SMCJ_ST_UNSUPPORTED:
        return "unsupported";
    case SMCJ_ST_NONE:
        break;
    }
    return "na";
}

static void esc(smct_buf_t *b, const char *s)
{
    smcj_buf_xml_cstr(b, s);
}

static void html_note(void *ctx, const char *note)
{
    smct_buf_t *b = ctx;
    smct_buf_puts(b, "<li>");
    esc(b, note);
    smct_buf_puts(b, "</li>");
}

/* Under a runner's summary line: the core features it lacks (spec §1.4, each a verdict of its
 * own) and what its declaration changes in how it is judged. */
static void runner_notes(smct_buf_t *b, const smcj_runner_t *r)
{
    smct_buf_puts(b, "<ul class=\"notes\">");
    for (size_t k = 0; k < r->n_unsupported_features; k++) {
        const smcj_feature_verdict_t *f = &r->unsupported_features[k];
        smct_buf_printf(b, "<li><span class=\"tag %s\">unsupported</span> ",
                        f->xfail_reason ? "xfail" : "unsupported");
        smct_buf_t s = {0};
        smcj_feature_verdict_text(&s, f);
        esc(b, smcj_buf_text(&s));
        smct_buf_free(&s);
        if (f->xfail_reason) {
            smct_buf_puts(b, " — expected failure: ");
            esc(b, f->xfail_reason);
        }
        smct_buf_puts(b, "</li>");
    }
    smcj_declaration_notes(r, html_note, b);
    smct_buf_puts(b, "</ul>");
}

/* The gate verdict with its reasons, then one summary line per runner. */
static void summary(smct_buf_t *b, const smcj_run_t *run)
{
    smct_buf_puts(b, "<section><h2>Summary</h2>");
    smct_buf_printf(b, "<div class=\"gate %s\">%s</div>", run->gate_passed ? "ok" : "bad",
                    run->gate_passed ? "GATE PASSED" : "GATE FAILED");
    if (run->n_gate_notes) {
        smct_buf_puts(b, "<ul class=\"notes\">");
        for (size_t k = 0; k < run->n_gate_notes; k++) {
            smct_buf_puts(b, "<li>");
            esc(b, run->gate_notes[k]);
            smct_buf_puts(b, "</li>");
        }
        smct_buf_puts(b, "</ul>");
    }
    smct_buf_puts(b, "<div style=\"margin-top:10px\">");
    for (size_t ri = 0; ri < run->n_runners; ri++) {
        const smcj_runner_t *r = &run->runners[ri];
        smct_buf_puts(b, "<div class=\"sum\"><b>");
        esc(b, r->name);
        smct_buf_puts(b, "</b> ");
        if (r->skip_reason) {
            smct_buf_puts(b, "skipped: ");
            esc(b, r->skip_reason);
        } else if (r->start_failed) {
            smct_buf_puts(b, "<span class=\"act\">could not start: ");
            esc(b, r->start_error);
            smct_buf_puts(b, "</span>");
        } else {
            smct_buf_t s = {0};
            smcj_summary_counts(&s, r);
            esc(b, smcj_buf_text(&s));
            smct_buf_free(&s);
            smct_buf_puts(b, " <span class=\"codec\">— ");
            char *c = smcj_asprintf("%s %s (%s), %zu requests, %u restarts, %.2f s",
                                    r->codec_name ? r->codec_name : "?",
                                    r->codec_version ? r->codec_version : "?",
                                    r->codec_language ? r->codec_language : "?", r->requests_sent,
                                    r->restarts, r->seconds);
            esc(b, c);
            free(c);
            smct_buf_puts(b, "</span>");
            runner_notes(b, r);
        }
        smct_buf_puts(b, "</div>");
    }
    smct_buf_puts(b, "</div></section>\n");
}

static void legend(smct_buf_t *b)
{
    smct_buf_puts(
        b,
        "<div class=\"legend\"><span class=\"pass\">pass</span><span class=\"fail\">fail</span>"
        "<span class=\"xpass\">unexpected pass</span><span class=\"xfail\">expected failure</span>"
        "<span class=\"differs\">differs (implementation-defined)</span>"
        "<span class=\"placement\">placement (wrong only at a shifted address, spec §3.3)</span>"
        "<span class=\"skipped\">skipped</span><span class=\"unsupported\">unsupported (needs a "
        "core "
        "feature the runner lacks, spec §1.4)</span><span class=\"na\">n/a</span></div>");
}

/* A matrix cell's colour: the worst status in it wins, so one failure is never lost in a
 * green section. */
static const char *cell_class(const smcj_cell_t *c)
{
    if (c->fail + c->fail_info) {
        return "fail";
    }
    if (c->placement) {
        return "placement";
    }
    if (c->xpass) {
        return "xpass";
    }
    if (c->xfail) {
        return "xfail";
    }
    if (c->skipped) {
        return "skipped";
    }
    if (c->unsupported) {
        return "unsupported";
    }
    if (c->differs) {
        return c->pass ? "mixed" : "differs";
    }
    if (c->pass) {
        return "pass";
    }
    return "na";
}

/* Runners x sections (6.2, not only 6): passed/applicable, the breakdown on hover. */
static void matrix(smct_buf_t *b, const smcj_run_t *run)
{
    smcj_matrix_t m;
    smcj_matrix_build(&m, run, false);
    smct_buf_puts(b, "<section><h2>Runners × spec sections</h2><p class=\"sub\">Each cell: vectors "
                     "passed / vectors "
                     "applicable to that runner (n/a vectors need a feature, entry point or "
                     "host vocabulary (spec §17) the runner does not declare). "
                     "Hover a cell for the breakdown.</p>");
    legend(b);
    smct_buf_puts(b, "<table id=\"matrix\"><thead><tr><th>section</th><th>vectors</th>");
    for (size_t ri = 0; ri < run->n_runners; ri++) {
        smct_buf_puts(b, "<th class=\"r\">");
        esc(b, run->runners[ri].name);
        smct_buf_puts(b, "</th>");
    }
    smct_buf_puts(b, "</tr></thead><tbody>\n");
    for (size_t row = 0; row < m.n_rows; row++) {
        size_t nvec = 0;
        for (size_t i = 0; i < run->vectors->count; i++) {
            nvec +=
                run->vectors->v[i].selected && strcmp(run->vectors->v[i].section, m.rows[row]) == 0;
        }
        smct_buf_printf(b, "<tr><td class=\"sec\">§%s</td><td class=\"sub\">%zu</td>", m.rows[row],
                        nvec);
        for (size_t ri = 0; ri < run->n_runners; ri++) {
            const smcj_runner_t *r = &run->runners[ri];
            if (!r->results) {
                smct_buf_printf(b, "<td class=\"c %s\">%s</td>",
                                r->skip_reason ? "skipped" : "fail",
                                r->skip_reason ? "skipped" : "not run");
                continue;
            }
            const smcj_cell_t *c = smcj_matrix_cell(&m, row, ri);
            smct_buf_printf(b,
                            "<td class=\"c %s\" title=\"pass %zu, fail %zu, placement %zu, differs "
                            "%zu, expected "
                            "failures %zu, unexpected passes %zu, skipped %zu, n/a %zu\">",
                            cell_class(c), c->pass, c->fail + c->fail_info, c->placement,
                            c->differs, c->xfail, c->xpass, c->skipped, c->na);
            if (c->applicable == 0) {
                smct_buf_puts(b, "n/a");
            } else {
                smct_buf_printf(b, "%zu/%zu", c->pass, c->applicable);
                if (c->fail + c->fail_info) {
                    smct_buf_printf(b, " ✗%zu", c->fail + c->fail_info);
                }
                if (c->placement) {
                    smct_buf_printf(b, " ⇥%zu", c->placement);
                }
                if (c->differs) {
                    smct_buf_printf(b, " ≠%zu", c->differs);
                }
            }
            smct_buf_puts(b, "</td>");
        }
        smct_buf_puts(b, "</tr>\n");
    }
    smct_buf_puts(b, "</tbody></table></section>\n");
    smcj_matrix_free(&m);
}

static void kv(smct_buf_t *b, const char *key, const char *cls, const char *value)
{
    smct_buf_printf(b, "<tr><th>%s</th><td class=\"%s\"><code>", key, cls);
    smct_buf_t t = {0};
    smcj_buf_shown(&t, value);
    esc(b, smcj_buf_text(&t));
    smct_buf_free(&t);
    smct_buf_puts(b, "</code></td></tr>");
}

/* One failing check: expected/actual, hex diff, stderr tail and the replay commands. */
static void check_block(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r,
                        const smcj_check_t *c)
{
    char label[64];
    smcj_check_label(c, label, sizeof label);
    smct_buf_printf(
        b, "<div class=\"chk\"><div class=\"chk-h\"><span class=\"tag fail\">%s</span> <b>",
        smcj_reason_name(c->reason));
    esc(b, label);
    smct_buf_puts(b, "</b> ");
    esc(b, c->detail);
    smct_buf_puts(b, "</div>");
    if (c->reason == SMCJ_REASON_WRONG_BYTES && c->exp_bytes) {
        smct_buf_t t = {0};
        smcj_hexdiff(&t, "", c->exp_bytes, c->exp_len, c->act_bytes, c->act_len);
        smct_buf_puts(b, "<pre class=\"hex\">");
        smcj_buf_ok(&t); /* a failed part records out of memory: no report */
        smcj_buf_xml_text(b, t.data, t.len);
        smct_buf_puts(b, "</pre>");
        smct_buf_free(&t);
    }
    if (c->expected || c->actual) {
        smct_buf_puts(b, "<table class=\"kv\">");
        if (c->expected) {
            kv(b, "expected", "exp", c->expected);
        }
        if (c->actual) {
            kv(b, "actual", "act", c->actual);
        }
        smct_buf_puts(b, "</table>");
    }
    if (c->stderr_tail && c->stderr_tail[0]) {
        smct_buf_puts(b,
                      "<div class=\"lbl\">runner stderr (last lines)</div><pre class=\"stderr\">");
        esc(b, c->stderr_tail);
        smct_buf_puts(b, "</pre>");
    }
    if (c->kind != SMCJ_CHECK_HANDSHAKE) {
        smct_buf_t t = {0};
        smcj_raw_command(&t, run, r, c);
        smct_buf_puts(b, "<div class=\"lbl\">this request alone, raw</div><pre class=\"cmd\">");
        smcj_buf_ok(&t); /* a failed part records out of memory: no report */
        smcj_buf_xml_text(b, t.data, t.len);
        smct_buf_puts(b, "</pre>");
        smct_buf_free(&t);
    }
    smct_buf_puts(b, "</div>");
}

/* The diagnosis of each runner that failed something: one row per likely cause. */
static void causes(smct_buf_t *b, const smcj_run_t *run)
{
    smct_buf_t t = {0};
    for (size_t ri = 0; ri < run->n_runners; ri++) {
        smcj_causes_html(&t, run, &run->runners[ri], ri);
    }
    if (t.len) {
        smct_buf_puts(
            b, "<section id=\"causes\"><h2>Likely causes</h2><p class=\"sub\">Each failing check "
               "replayed through the catalogue of known bugs (spec/bugs-in-the-wild.md); a cause "
               "is named when a codec with that bug gives exactly the runner's answers.</p>");
        smcj_buf_append_buf(b, &t);
        smct_buf_puts(b, "</section>\n");
    }
    smct_buf_free(&t);
}

/* Every vector with details (no --max-details cut: the page is for digging), collapsed. */
static void failures(smct_buf_t *b, const smcj_run_t *run)
{
    size_t total = 0;
    for (size_t ri = 0; ri < run->n_runners; ri++) {
        const smcj_runner_t *r = &run->runners[ri];
        for (size_t i = 0; r->results && i < run->vectors->count; i++) {
            total += smcj_status_has_details(r->results[i].status) ||
                     r->results[i].status == SMCJ_ST_XPASS;
        }
    }
    smct_buf_printf(b, "<section id=\"failures\"><h2>Failures and differences (%zu)</h2>", total);
    if (total == 0) {
        smct_buf_puts(b, "<p class=\"sub\">None.</p></section>\n");
        return;
    }
    smct_buf_puts(b, "<div class=\"tools\"><button onclick=\"setAll(true)\">expand all</button>"
                     "<button onclick=\"setAll(false)\">collapse all</button></div>");
    static const smcj_status_t order[] = {SMCJ_ST_FAIL,           SMCJ_ST_PLACEMENT,
                                          SMCJ_ST_XPASS,          SMCJ_ST_FAIL_INFO,
                                          SMCJ_ST_PLACEMENT_INFO, SMCJ_ST_DIFFERS};
    for (size_t o = 0; o < sizeof order / sizeof order[0]; o++) {
        for (size_t ri = 0; ri < run->n_runners; ri++) {
            const smcj_runner_t *r = &run->runners[ri];
            for (size_t i = 0; r->results && i < run->vectors->count; i++) {
                const smcj_result_t *res = &r->results[i];
                if (res->status != order[o]) {
                    continue;
                }
                const smcj_vector_t *v = &run->vectors->v[i];
                smct_buf_printf(b,
                                "<details class=\"failure\" id=\"f-%zu-%zu\"><summary><span "
                                "class=\"tag %s\">%s</span>",
                                ri, i, status_class(res->status), smcj_status_name(res->status));
                smct_buf_puts(b, "<b>");
                esc(b, r->name);
                smct_buf_puts(b, "</b> × <span class=\"id\">");
                esc(b, v->id);
                bool placement = res->placement_check != SIZE_MAX;
                smct_buf_printf(b, "</span><span class=\"sub\">%s · §%s · %s</span>",
                                smcj_tier_name(placement ? res->placement_tier : res->tier),
                                v->section,
                                res->status == SMCJ_ST_XPASS      ? "listed as an expected failure"
                                : res->reason == SMCJ_REASON_NONE ? "skipped"
                                                                  : smcj_reason_name(res->reason));
                smct_buf_puts(b, "</summary><div class=\"body\"><p class=\"desc\">");
                esc(b, v->description);
                smct_buf_printf(b, " <span class=\"sub\">(%s, ", v->kind);
                esc(b, v->file); /* a file name is any bytes the directory holds */
                if (v->focus) {
                    smct_buf_puts(b, "; focus ");
                    esc(b, v->focus);
                }
                smct_buf_puts(b, ")</span></p>");
                char *cause = smcj_cause_note(r, i);
                if (cause) {
                    smct_buf_puts(b, "<p class=\"cause\">");
                    esc(b, cause);
                    smct_buf_puts(b, "</p>");
                    free(cause);
                }
                char *note =
                    placement ? smcj_placement_text(v, res) : smcj_alternative_text(v, res);
                if (note) {
                    smct_buf_puts(b, "<p class=\"alt\">");
                    esc(b, note);
                    smct_buf_puts(b, "</p>");
                    free(note);
                }
                if (res->status == SMCJ_ST_XPASS) {
                    smct_buf_puts(
                        b, "<p>This vector passes now but the expected-failure list says: <i>");
                    esc(b, res->xfail_reason);
                    smct_buf_puts(b, "</i>. Remove it from the list.</p>");
                }
                size_t cb, ce;
                smcj_checks_of(r, i, &cb, &ce);
                for (size_t k = cb; k < ce; k++) {
                    if (r->checks[k].outcome == SMCJ_OUT_FAIL ||
                        (placement && k == res->placement_check)) {
                        check_block(b, run, r, &r->checks[k]);
                    }
                }
                if (res->status != SMCJ_ST_XPASS && res->first_check != SIZE_MAX &&
                    r->checks[res->first_check].kind == SMCJ_CHECK_HANDSHAKE) {
                    smct_buf_puts(b, "</div></details>\n");
                    continue;
                }
                smct_buf_t rp = {0};
                smcj_replay_command(&rp, run, r, v);
                smct_buf_puts(b,
                              "<div class=\"lbl\">rerun just this vector</div><pre class=\"cmd\">");
                smcj_buf_ok(&rp);
                smcj_buf_xml_text(b, rp.data, rp.len);
                smct_buf_free(&rp);
                smct_buf_puts(b, "</pre></div></details>\n");
            }
        }
    }
    smct_buf_puts(b, "</section>\n");
}

/* Vectors x runners, filterable by id, with a switch to show only what went wrong. */
static void grid(smct_buf_t *b, const smcj_run_t *run)
{
    smct_buf_printf(
        b,
        "<section><details><summary><h2 style=\"margin:0\">All vectors (%zu)</h2></summary>"
        "<div style=\"padding:12px\"><div class=\"tools\"><input placeholder=\"filter by id\" "
        "oninput=\"filt(this.value)\"><label><input type=\"checkbox\" style=\"width:auto\" "
        "onchange=\"onlyBad(this.checked)\"> only vectors that did not pass</label></div>"
        "<table class=\"grid\" id=\"grid\"><thead><tr><th>vector</th><th>tier</th>",
        run->vectors->selected);
    for (size_t ri = 0; ri < run->n_runners; ri++) {
        smct_buf_puts(b, "<th class=\"r\">");
        esc(b, run->runners[ri].name);
        smct_buf_puts(b, "</th>");
    }
    smct_buf_puts(b, "</tr></thead><tbody>\n");
    for (size_t i = 0; i < run->vectors->count; i++) {
        const smcj_vector_t *v = &run->vectors->v[i];
        if (!v->selected) {
            continue;
        }
        bool bad = false;
        for (size_t ri = 0; ri < run->n_runners; ri++) {
            const smcj_runner_t *r = &run->runners[ri];
            bad = bad || (r->results && r->results[i].status != SMCJ_ST_PASS &&
                          r->results[i].status != SMCJ_ST_NA);
        }
        smct_buf_printf(b, "<tr data-id=\"%s\" data-bad=\"%d\"><td class=\"id\" title=\"", v->id,
                        bad ? 1 : 0);
        esc(b, v->description);
        smct_buf_printf(b, "\">%s</td><td class=\"sub\">%s</td>", v->id, smcj_tier_name(v->tier));
        for (size_t ri = 0; ri < run->n_runners; ri++) {
            const smcj_runner_t *r = &run->runners[ri];
            if (!r->results) {
                smct_buf_puts(b, "<td class=\"c na\">—</td>");
                continue;
            }
            const smcj_result_t *res = &r->results[i];
            char *alt = smcj_alternative_text(v, res);
            smct_buf_printf(b, "<td class=\"c %s\"", status_class(res->status));
            if (alt) {
                smct_buf_puts(b, " title=\"");
                esc(b, alt);
                smct_buf_putc(b, '"');
                free(alt);
            }
            smct_buf_printf(b, ">%s</td>",
                            res->outcome == SMCJ_OUT_FAIL && res->placement_check == SIZE_MAX
                                ? smcj_reason_name(res->reason)
                                : smcj_status_name(res->status));
        }
        smct_buf_puts(b, "</tr>\n");
    }
    smct_buf_puts(b, "</tbody></table></div></details></section>\n");
}

void smcj_report_html(smct_buf_t *b, const smcj_run_t *run)
{
    static const char *const gates[] = {"required", "recommended", "all"};
    smct_buf_printf(b,
                    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                    "<title>smc conformance "
                    "report</title><style>%s%s</style><script>%s</script></head><body>\n",
                    k_css, k_css_causes, k_js);
    smct_buf_puts(b, "<header><h1>smc conformance report</h1><div class=\"meta\">");
    char *meta = smcj_asprintf(
        "%s · %zu of %zu vectors from %zu files in %s · gate: %s · %zu runner%s · %.2f s",
        run->started_at, run->vectors->selected, run->vectors->count, run->vectors->n_files,
        run->vectors->dir, gates[run->gate], run->n_runners, run->n_runners == 1 ? "" : "s",
        run->seconds);
    esc(b, meta);
    free(meta);
    smct_buf_puts(b, "</div></header><main>\n");
    summary(b, run);
    matrix(b, run);
    causes(b, run);
    failures(b, run);
    grid(b, run);
    smct_buf_puts(b, "</main></body></html>\n");
}
