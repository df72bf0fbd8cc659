/*
 * The HTML report: one self-contained page (inline CSS and a few lines of JavaScript, no
 * network), so it can be archived as a CI artifact and opened anywhere. Summary, a coloured
 * runners x sections matrix whose cells link to their failures, the likely causes, every
 * failure grouped by cause (report_html_failures.c) under filters by runner, section, tier,
 * status and cause, and a per-vector grid whose cells link to their boxes. Every text from a
 * runner or a vector goes through the XML escaper (escape.c): a runner's output must never
 * become markup, and the script reads it only as data (dataset, textContent).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "report_causes.h"
#include "report_html.h"
#include "smct_json_writer.h"
#include "report_kinds.h"
#include "complexity.h"
#include "report_util.h"
#include "report_depth.h"
#include "reports.h"

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

/* The failure boxes, the filters and the links (report_html_failures.c). */
static const char k_css_tool[] =
    "mark{background:#ff8182;color:#1f2328;border-radius:2px}"
    "pre.in{background:#f6f8fa;white-space:pre-wrap}"
    "pre.rerun:empty{display:none}"
    "pre.rerun:before{content:'rerun just this vector:';display:block;color:#57606a;"
    "font-size:11.5px}"
    "p.oth{margin:2px 0;color:#57606a}"
    "pre.raw:before{content:'this request alone, raw:';display:block;color:#57606a;"
    "font-size:11.5px}"
    "div.kv{display:grid;grid-template-columns:80px 1fr;gap:2px 0;margin:4px 0}"
    "div.kv i{font-style:normal;font-weight:600;color:#57606a;padding:3px 8px 3px 0}"
    "div.kv code{padding:3px 8px;border-radius:4px;word-break:break-all}"
    "div.kv code.exp{background:#dafbe1}div.kv code.act{background:#ffebe9}"
    "table.checks{width:100%;border-spacing:0 2px;margin:8px 0}"
    "table.checks td{vertical-align:top}"
    "table.checks tr:not(.more)>td:first-child{border-left:3px solid #cf222e}"
    "table.checks tr.more>td{padding:0 8px 8px 14px}"
    "p.differs-line{margin:4px 0;padding:4px 8px;background:#fff8c5;border-radius:4px}"
    "#filters{position:sticky;top:0;z-index:2;background:#fff;padding:8px 0;flex-wrap:wrap}"
    "#filters select{font:inherit;font-size:13px;padding:3px 6px;max-width:260px}"
    "td a{color:inherit;text-decoration:none;display:block}"
    "td a:hover{text-decoration:underline}"
    ".grid td{text-align:center;font-family:ui-monospace,monospace;min-width:90px;"
    "font-size:12px;padding:2px 6px}"
    ".grid td:first-child{text-align:left;font-weight:600}"
    ".grid td:nth-child(2){color:#57606a;font-family:inherit}"
    ".group h3{margin:14px 0 6px}";

/* The likely-causes table and the cause line of a failure (report_causes.h); apart from
 * k_css, which is at the length every C compiler must take. */
static const char k_css_causes[] =
    "table.causes{border-collapse:collapse;width:100%;margin-bottom:14px}"
    "table.causes td,table.causes th{border-bottom:1px solid #d0d7de;border-radius:0;"
    "vertical-align:top}"
    "table.causes tr.unexplained td{color:#57606a}"
    "h3{font-size:14px;margin:10px 0 6px}"
    "p.cause{margin:0 0 8px;padding:4px 8px;background:#ddf4ff;border-radius:4px}";

/* Filters and links: a filter hides boxes whose data differ; `#show:ri=0&row=3` (a matrix
 * cell) sets the filters; `#f-0-12` (a grid cell, a cause example) opens that box. */
static const char k_js[] =
    "var K=['ri','row','tier','status','cause'];"
    "function vid(d){return d.querySelector('summary .id').textContent;}"
    "function $$(s){return Array.prototype.slice.call(document.querySelectorAll(s));}"
    "function setAll(o){$$('#failures details.failure').forEach(function(d){d.open=o&&!d.hidden;"
    "});}"
    "function want(){var f={};$$('#filters select').forEach(function(s){if(s.value!=='')"
    "f[s.name]=s.value;});return f;}"
    "function apply(){var f=want(),n=0,qe=document.getElementById('q'),"
    "q=qe?qe.value.toLowerCase():'',bad=document.getElementById('bad');"
    "$$('#failures details.failure').forEach(function(d){var ok=true,v=d.dataset.f.split(' ');"
    "for(var k in f){if(v[K.indexOf(k)]!==f[k]){ok=false;}}"
    "if(q&&vid(d).toLowerCase().indexOf(q)<0){ok=false;}d.hidden=!ok;n+=ok?1:0;});"
    "$$('#failures .group').forEach(function(g){"
    "g.hidden=!g.querySelector('details.failure:not([hidden])');});"
    "var s=document.getElementById('shown');if(s){s.textContent=n+' shown';}"
    "$$('#grid tbody tr').forEach(function(tr){var id=tr.cells[0].textContent.toLowerCase();"
    "tr.hidden=!((!f.row||tr.dataset.row===f.row)&&(!f.tier||tr.dataset.tier===f.tier)"
    "&&(!q||id.indexOf(q)>=0)&&(!bad||!bad.checked||tr.dataset.bad==='1'));});}"
    "function clearAll(){$$('#filters select').forEach(function(s){s.value='';});"
    "var q=document.getElementById('q');if(q){q.value='';}apply();}"
    "function go(){var h=decodeURIComponent(location.hash.slice(1));"
    "if(h.indexOf('show:')===0){var f={};h.slice(5).split('&').forEach(function(p){"
    "var i=p.indexOf('=');if(i>0){f[p.slice(0,i)]=p.slice(i+1);}});"
    "$$('#filters select').forEach(function(s){s.value=f[s.name]||'';});"
    "var q=document.getElementById('q');if(q){q.value='';}apply();"
    "var t=document.getElementById('failures');if(t){t.scrollIntoView();}}"
    "else if(h.indexOf('f-')===0){var d=document.getElementById(h);"
    "if(d){if(d.hidden){clearAll();}d.open=true;d.scrollIntoView();}}}"
    "function openFailure(id){var d=document.getElementById(id);if(d){if(d.hidden){clearAll();}"
    "d.open=true;}}"
    "window.addEventListener('hashchange',go);"
    "document.addEventListener('DOMContentLoaded',function(){grid();apply();go();"
    "document.body.dataset.ready='1';});";

/* The grid from its data (grid() below), and the rerun command of a box that opens. */
static const char k_js_grid[] =
    "function td(tr,x){var c=document.createElement('td');c.textContent=x;tr.appendChild(c);"
    "return c;}"
    "function grid(){var g=document.getElementById('griddata'),"
    "t=document.querySelector('#grid tbody');if(!g||!t||t.rows.length||!g.dataset.ids){return;}"
    "var ids=g.dataset.ids.split(' '),vi=g.dataset.vi.split(' '),rows=g.dataset.rows.split(' '),"
    "ti=g.dataset.tiers,n=+g.dataset.runners,"
    "TN=['required','recommended','implementation-defined'],f=document.createDocumentFragment();"
    "for(var i=0;i<ids.length;i++){var tr=document.createElement('tr'),bad=0;"
    "tr.dataset.row=rows[i];tr.dataset.tier=ti.charCodeAt(i)-97;td(tr,ids[i]);"
    "td(tr,TN[tr.dataset.tier]);"
    "for(var r=0;r<n;r++){var S=g.dataset['s'+r],W=g.dataset['w'+r],c;"
    "if(!S){td(tr,'\\u2014').className='na';continue;}"
    "var s=ST[S.charCodeAt(i)-97],w=W.charAt(i),word=w==='-'?s[0]:RS[w.charCodeAt(0)-97];"
    "if(s[2]){c=document.createElement('td');var a=document.createElement('a');"
    "a.href='#f-'+r+'-'+vi[i];a.textContent=word;c.appendChild(a);tr.appendChild(c);}"
    "else{c=td(tr,word);}c.className=s[1];if(s[0]!=='pass'&&s[0]!=='n/a'){bad=1;}}"
    "tr.dataset.bad=bad;f.appendChild(tr);}t.appendChild(f);}"
    "function shq(s){return \"'\"+s.split(\"'\").join(\"'\\\\''\")+\"'\";}"
    "document.addEventListener('toggle',function(e){var d=e.target;"
    "if(!d.open||!d.classList||!d.classList.contains('failure')){return;}"
    "var p=d.querySelector('pre.rerun'),g=d.closest('.group');"
    "if(p&&g&&!p.textContent){p.textContent=g.dataset.rerun+shq(vid(d));}},true);";

void smcj_html_esc(smct_buf_t *b, const char *s)
{
    smcj_buf_xml_cstr(b, s);
}

static void esc(smct_buf_t *b, const char *s)
{
    smcj_html_esc(b, s);
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
static void runner_notes(smct_buf_t *b, const smcj_report_runner_t *mr)
{
    const smcj_report_runner_facts_t *r = &mr->facts;
    smct_buf_puts(b, "<ul class=\"notes\">");
    for (int g = 0; g < SMCJ_KINDS_GROUPS; g++) {
        if (mr->kind_line[g]) {
            html_note(b, mr->kind_line[g]);
        }
    }
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
    for (size_t k = 0; k < mr->notes.n; k++) {
        html_note(b, mr->notes.line[k]);
    }
    for (size_t k = 0; k < mr->self.n; k++) {
        html_note(b, mr->self.line[k]);
    }
    smct_buf_puts(b, "</ul>");
}

/* The gate verdict with its reasons, then one summary line per runner. */
static void summary(smct_buf_t *b, const smcj_report_model_t *m)
{
    const smcj_report_facts_t *f = &m->facts;
    smct_buf_puts(b, "<section><h2>Summary</h2>");
    smct_buf_printf(b, "<div class=\"gate %s\">%s</div>", f->gate_passed ? "ok" : "bad",
                    f->gate_passed ? "GATE PASSED" : "GATE FAILED");
    if (f->n_gate_notes) {
        smct_buf_puts(b, "<ul class=\"notes\">");
        for (size_t k = 0; k < f->n_gate_notes; k++) {
            smct_buf_puts(b, "<li>");
            esc(b, f->gate_notes[k]);
            smct_buf_puts(b, "</li>");
        }
        smct_buf_puts(b, "</ul>");
    }
    smct_buf_puts(b, "<div style=\"margin-top:10px\">");
    for (size_t ri = 0; ri < m->n_runners; ri++) {
        const smcj_report_runner_facts_t *r = &m->runners[ri].facts;
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
            esc(b, smcj_or_empty(m->runners[ri].summary));
            smct_buf_puts(b, " <span class=\"codec\">— ");
            char *c = smcj_asprintf("%s %s (%s), %zu requests, %u restarts, %.2f s",
                                    r->codec_name ? r->codec_name : "?",
                                    r->codec_version ? r->codec_version : "?",
                                    r->codec_language ? r->codec_language : "?", r->requests_sent,
                                    r->restarts, r->seconds);
            esc(b, c);
            free(c);
            smct_buf_puts(b, "</span>");
            runner_notes(b, &m->runners[ri]);
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
    if (c->unclassified) {
        return "fail";
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

/* The failures of a cell the failures section lists (SMCJ_STATUS_LIST rank). */
static size_t cell_listed(const smcj_cell_t *c)
{
    return c->fail + c->fail_info + c->placement + c->unclassified + c->differs + c->xpass;
}

/* Runners x sections (6.2, not only 6): passed/applicable, the breakdown on hover; a cell
 * with failures links to them (the failures filtered to that runner and section). */
static void matrix(smct_buf_t *b, const smcj_report_model_t *model)
{
    const smcj_matrix_t m = model->subsections;
    smct_buf_puts(b, "<section><h2>Runners × spec sections</h2><p class=\"sub\">Each cell: vectors "
                     "passed / vectors "
                     "applicable to that runner (n/a vectors need a feature, entry point or "
                     "host vocabulary (spec §17) the runner does not declare). "
                     "Hover a cell for the breakdown; click one with failures to list them.</p>");
    legend(b);
    smct_buf_puts(b, "<table id=\"matrix\"><thead><tr><th>section</th><th>vectors</th>");
    for (size_t ri = 0; ri < model->n_runners; ri++) {
        smct_buf_puts(b, "<th class=\"r\">");
        esc(b, model->runners[ri].facts.name);
        smct_buf_puts(b, "</th>");
    }
    smct_buf_puts(b, "</tr></thead><tbody>\n");
    for (size_t row = 0; row < m.n_rows; row++) {
        smct_buf_printf(b, "<tr><td class=\"sec\">§%s</td><td class=\"sub\">%zu</td>", m.rows[row],
                        model->subsection_vectors[row]);
        for (size_t ri = 0; ri < model->n_runners; ri++) {
            const smcj_report_runner_facts_t *r = &model->runners[ri].facts;
            if (!model->runners[ri].ran) {
                smct_buf_printf(b, "<td class=\"c %s\">%s</td>",
                                r->skip_reason ? "skipped" : "fail",
                                r->skip_reason ? "skipped" : "not run");
                continue;
            }
            const smcj_cell_t *c = smcj_matrix_cell(&m, row, ri);
            smct_buf_printf(b,
                            "<td class=\"c %s\" title=\"pass %zu, fail %zu, placement %zu, "
                            "unclassified rejections %zu, differs %zu, expected "
                            "failures %zu, unexpected passes %zu, skipped %zu, n/a %zu\">",
                            cell_class(c), c->pass, c->fail + c->fail_info, c->placement,
                            c->unclassified, c->differs, c->xfail, c->xpass, c->skipped, c->na);
            if (cell_listed(c)) {
                smct_buf_printf(b, "<a href=\"#show:ri=%zu&amp;row=%zu\">", ri, row);
            }
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
                if (c->unclassified) {
                    smct_buf_printf(b, " R%zu", c->unclassified);
                }
                if (c->differs) {
                    smct_buf_printf(b, " ≠%zu", c->differs);
                }
            }
            smct_buf_puts(b, cell_listed(c) ? "</a></td>" : "</td>");
        }
        smct_buf_puts(b, "</tr>\n");
    }
    smct_buf_puts(b, "</tbody></table></section>\n");
}

/* The diagnosis of each runner that failed something: one row per likely cause. */
static void causes(smct_buf_t *b, const smcj_report_model_t *model)
{
    smct_buf_t t = {0};
    for (size_t ri = 0; ri < model->n_runners; ri++) {
        smct_buf_puts(&t, model->runners[ri].causes_html);
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

/* The grid's statuses and reasons for the script (SMCJ_STATUS_LIST, SMCJ_REASON_LIST): a
 * status's wire name, CSS class and whether the failures list it; the reason names. */
static void grid_tables(smct_buf_t *b)
{
    /* two JSON arrays, each a value of the JSON writer (smct_json_writer.h) */
    smct_jw_t w;
    smct_buf_puts(b, "<script>var ST=");
    smct_jw_init(&w, b);
    smct_jw_array(&w);
    for (smcj_status_t st = 0; st < SMCJ_ST_COUNT; st++) {
        const smcj_status_info_t *info = smcj_status_info(st);
        smct_jw_array(&w);
        smct_jw_str(&w, info->name);
        smct_jw_str(&w, info->css);
        smct_jw_u64(&w, info->rank > 0);
        smct_jw_end_array(&w);
    }
    smct_jw_end_array(&w);
    smct_buf_puts(b, ",RS=");
    smct_jw_init(&w, b);
    smct_jw_array(&w);
    for (smcj_reason_t rs = 0; rs < SMCJ_REASON_COUNT; rs++) {
        smct_jw_str(&w, smcj_reason_name(rs));
    }
    smct_jw_end_array(&w);
    smct_buf_puts(b, ";</script>");
}

/* Vectors x runners, under the filters (section, tier, id) and a switch to show only what
 * went wrong; a cell whose vector has a failure box links to it. The rows are data the
 * script turns into a table (a row of markup per vector would be most of a large page):
 * the selected vectors' ids, indices, matrix rows and tiers ('a' + tier), and per runner a
 * letter per vector for its status ('a' + status) and one for the word its cell shows ('a' +
 * the failing check's reason, '-' for the status's own name). */
static void grid(smct_buf_t *b, const smcj_report_model_t *model)
{
    const smcj_matrix_t *m = &model->subsections;
    const smcj_vectors_t *vs = model->facts.vectors;
    smct_buf_printf(b,
                    "<section><details id=\"all\"><summary><h2 style=\"margin:0\">All vectors "
                    "(%zu)</h2></summary><div style=\"padding:12px\"><div class=\"tools\"><label>"
                    "<input id=\"bad\" type=\"checkbox\" style=\"width:auto\" "
                    "onchange=\"apply()\"> only vectors that did not pass</label></div>"
                    "<table class=\"grid\" id=\"grid\"><thead><tr><th>vector</th><th>tier</th>",
                    vs->selected);
    for (size_t ri = 0; ri < model->n_runners; ri++) {
        smct_buf_puts(b, "<th class=\"r\">");
        esc(b, model->runners[ri].facts.name);
        smct_buf_puts(b, "</th>");
    }
    smct_buf_puts(b, "</tr></thead><tbody></tbody></table></div></details>");
    smct_buf_printf(b, "<div id=\"griddata\" hidden data-runners=\"%zu\" data-ids=\"",
                    model->n_runners);
    const char *sep = "";
    for (size_t i = 0; i < vs->count; i++) {
        if (vs->v[i].selected) {
            smct_buf_puts(b, sep);
            esc(b, vs->v[i].id);
            sep = " ";
        }
    }
    smct_buf_puts(b, "\" data-vi=\"");
    sep = "";
    for (size_t i = 0; i < vs->count; i++) {
        if (vs->v[i].selected) {
            smct_buf_printf(b, "%s%zu", sep, i);
            sep = " ";
        }
    }
    smct_buf_puts(b, "\" data-rows=\"");
    sep = "";
    for (size_t i = 0; i < vs->count; i++) {
        if (vs->v[i].selected) {
            smct_buf_printf(b, "%s%zu", sep, smcj_matrix_row_of(m, vs->v[i].section));
            sep = " ";
        }
    }
    smct_buf_puts(b, "\" data-tiers=\"");
    for (size_t i = 0; i < vs->count; i++) {
        if (vs->v[i].selected) {
            smct_buf_putc(b, (char)('a' + vs->v[i].tier));
        }
    }
    smct_buf_putc(b, '"');
    for (size_t ri = 0; ri < model->n_runners; ri++) {
        const smcj_report_runner_t *mr = &model->runners[ri];
        if (!mr->ran) {
            continue;
        }
        /* a row per selected vector, in vector order: the columns of data-ids */
        smct_buf_printf(b, " data-s%zu=\"", ri);
        for (size_t k = 0; k < mr->n_rows; k++) {
            smct_buf_putc(b, (char)('a' + mr->rows[k].status));
        }
        smct_buf_printf(b, "\" data-w%zu=\"", ri);
        for (size_t k = 0; k < mr->n_rows; k++) {
            const smcj_report_row_t *row = &mr->rows[k];
            smct_buf_putc(b, row->aligned_failure ? (char)('a' + row->reason) : '-');
        }
        smct_buf_putc(b, '"');
    }
    smct_buf_puts(b, "></div>");
    grid_tables(b);
    smct_buf_puts(b, "</section>\n");
}

void smcj_report_html(smct_buf_t *b, const smcj_report_model_t *model)
{
    const smcj_report_facts_t *f = &model->facts;
    static const char *const gates[] = {"required", "recommended", "all"};
    smct_buf_printf(b,
                    "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                    "<title>smc conformance "
                    "report</title><style>%s%s%s</style><script>%s%s</script></head><body>\n",
                    k_css, k_css_causes, k_css_tool, k_js, k_js_grid);
    smct_buf_puts(b, "<header><h1>smc conformance report</h1><div class=\"meta\">");
    char *meta = smcj_asprintf(
        "%s · %zu of %zu vectors from %zu files in %s%s · gate: %s · %zu runner%s · %.2f s · "
        "runners %s: %s",
        f->started_at, f->vectors->selected, f->vectors->count, f->vectors->n_files,
        f->vectors->dir, f->vectors->n_integrity ? " (MODIFIED: not the released set)" : "",
        gates[f->gate], f->n_runners, f->n_runners == 1 ? "" : "s", f->seconds,
        f->sandboxed ? "sandboxed" : "NOT sandboxed", f->sandbox_note);
    esc(b, meta);
    free(meta);
    smct_buf_puts(b, "</div></header><main>\n");
    summary(b, model);
    matrix(b, model);
    smct_buf_puts(b, "<section>");
    smct_buf_puts(b, model->cx_html); /* spec §15.4 */
    smct_buf_puts(b, "</section>\n");
    causes(b, model);
    smcj_html_failures(b, model);
    grid(b, model);
    smct_buf_puts(b, "</main></body></html>\n");
}
