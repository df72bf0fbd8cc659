/*
 * The HTML report's failures (report_html.h): per runner, its failures grouped by likely
 * cause as the text report groups them (report_causes.h), then its unexpected passes. One
 * box per (runner, vector) holds every check of the vector: a row each, and the details of
 * each failing one once (a check failing the same way as an earlier one says so instead of
 * repeating them), so one bug failing four checks of a thousand vectors stays a small page.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "kept_value.h"
#include "report_causes.h"
#include "report_html.h"
#include "reports.h"

/* Bytes shown around the first difference of a byte diff (as the text's ±16). */
#define WINDOW_BEFORE 16u
#define WINDOW_AFTER  32u
/* The page stays small for a codec failing everything (a 1,200-failure run under 2 MB):
 * the longest input shown, expected/actual text shown, and raw command shown inline; the
 * JSON report and the replay commands have them all. */
#define INPUT_SHOWN 32u
#define TEXT_SHOWN  100u
#define RAW_SHOWN   240u

static void esc(smct_buf_t *b, const char *s)
{
    smcj_html_esc(b, s);
}

/* Element content (never an attribute): quotes need no entity there. */
static void content(smct_buf_t *b, const char *s, size_t len)
{
    smcj_buf_xml_content(b, s, len);
}

static const char *outcome_word(smcj_outcome_t o)
{
    static const char *const words[] = {"pending", "pass", "fail", "skipped", "n/a", "unsupported"};
    return (size_t)o < sizeof words / sizeof words[0] ? words[o] : "?";
}

/* The bytes a decode-side check sends, or NULL (an encode sends a value). */
static const uint8_t *check_input(const smcj_vector_t *v, const smcj_report_check_t *c, size_t *len)
{
    *len = 0;
    switch (c->kind) {
    case SMCJ_CHECK_DECODE:
    case SMCJ_CHECK_DECODE_STRICT:
    case SMCJ_CHECK_ROUNDTRIP:
    case SMCJ_CHECK_HOST_DECODE:
        *len = v->canonical_len;
        return v->canonical;
    case SMCJ_CHECK_ACCEPT:
    case SMCJ_CHECK_ACCEPT_STRICT:
        *len = v->accepted[c->index].len;
        return v->accepted[c->index].bytes;
    case SMCJ_CHECK_REJECT:
    case SMCJ_CHECK_LENIENT:
        *len = v->len;
        return v->bytes;
    case SMCJ_CHECK_ENCODE:
    case SMCJ_CHECK_HANDSHAKE:
    case SMCJ_CHECK_HOST_ENCODE:
    case SMCJ_CHECK_SELF: /* the codec's own bytes: in the check's detail (self_check.c) */
        break;
    }
    return NULL;
}

/* Hex of the bytes at offsets [from, to) of a string of which p holds len bytes from offset
 * `base` (a kept window, kept_value.h, or the whole string at 0), 8-byte groups; bytes that
 * differ from `other` (held the same way) or that it lacks are marked. */
static void hex_marked(smct_buf_t *b, const uint8_t *p, size_t len, const uint8_t *other,
                       size_t other_len, size_t base, size_t from, size_t to)
{
    bool marking = false;
    for (size_t i = from < base ? base : from; i < to && i - base < len; i++) {
        size_t j = i - base;
        bool differs = other && (j >= other_len || other[j] != p[j]);
        if (differs != marking) {
            smct_buf_puts(b, differs ? "<mark>" : "</mark>");
            marking = differs;
        }
        smct_buf_printf(b, "%s%02x", i == from ? "" : (i % 8 == 0 ? "  " : " "), p[j]);
    }
    if (marking) {
        smct_buf_puts(b, "</mark>");
    }
}

/* Expected and actual bytes around the first difference, the differing bytes marked; of
 * long strings the judge keeps a window around it (kept_value.h), which is what is shown. */
static void byte_diff(smct_buf_t *b, const smcj_report_check_t *c)
{
    size_t base = c->values_cut ? c->bytes_from : 0;
    size_t exp_n = c->values_cut ? c->exp_kept : c->exp_len;
    size_t act_n = c->values_cut ? c->act_kept : c->act_len;
    size_t first = 0;
    if (c->values_cut) {
        first = c->first_difference;
    } else {
        while (first < c->exp_len && first < c->act_len &&
               c->exp_bytes[first] == c->act_bytes[first]) {
            first++;
        }
    }
    size_t from = first > WINDOW_BEFORE ? (first - WINDOW_BEFORE) & ~(size_t)7 : 0;
    if (from < base) {
        from = base;
    }
    size_t to = first + WINDOW_AFTER;
    smct_buf_printf(b,
                    "<div class=\"lbl\">bytes: first difference at offset %zu; expected %zu, got "
                    "%zu; from offset %zu</div><pre class=\"hex\"><span class=\"k\">expected "
                    "</span>",
                    first, c->exp_len, c->act_len, from);
    hex_marked(b, c->exp_bytes, exp_n, c->act_bytes, act_n, base, from, to);
    smct_buf_puts(b, "\n<span class=\"k\">actual   </span>");
    hex_marked(b, c->act_bytes, act_n, c->exp_bytes, exp_n, base, from, to);
    smct_buf_puts(b, "</pre>");
}

/* The input of a decode, once per box (and again only for a check that sends other bytes). */
static void input_block(smct_buf_t *b, const uint8_t *p, size_t len, const char *what)
{
    smct_buf_printf(b, "<pre class=\"hex in\"><span class=\"k\">%s, %zu byte%s:</span> ", what, len,
                    len == 1 ? "" : "s");
    hex_marked(b, p, len, NULL, 0, 0, 0, len < INPUT_SHOWN ? len : INPUT_SHOWN);
    if (len > INPUT_SHOWN) {
        smct_buf_printf(b, " … (%zu more)", len - INPUT_SHOWN);
    }
    smct_buf_puts(b, "</pre>");
}

/* `s` as smcj_buf_shown shows it, cut at `max` bytes (never inside a UTF-8 sequence). */
static void shown_cut(smct_buf_t *b, const char *s, size_t max)
{
    size_t n = strlen(s), cut = n;
    if (n > max) {
        cut = max;
        while (cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80) {
            cut--;
        }
    }
    smcj_buf_safe_line(b, s, cut);
    const char *kept = cut < n ? smcj_kept_marker(s) : NULL;
    if (kept) { /* a value the judge kept a part of: the size and hash of the whole stay */
        smcj_buf_safe_line(b, kept, strlen(kept));
    } else if (cut < n) {
        smct_buf_printf(b, "… (%zu bytes in all; see the JSON report)", n);
    }
}

static void kv(smct_buf_t *b, const char *key, const char *cls, const char *value)
{
    smct_buf_printf(b, "<i>%s</i><code class=\"%s\">", key, cls);
    smct_buf_t t = {0};
    shown_cut(&t, value, TEXT_SHOWN);
    smcj_buf_ok(&t); /* a failed part records out of memory: no report */
    content(b, t.data, t.len);
    smct_buf_free(&t);
    smct_buf_puts(b, "</code>");
}

static bool same_text(const char *a, const char *b)
{
    return (a == NULL) == (b == NULL) && (!a || strcmp(a, b) == 0);
}

/* An earlier failing check of the box that failed exactly like c, or NULL. */
static const smcj_report_check_t *same_as(const smcj_report_runner_t *mr, size_t cb,
                                          const smcj_report_check_t *c)
{
    for (const smcj_report_check_t *e = &mr->check_views[cb]; e < c; e++) {
        if (e->outcome == SMCJ_OUT_FAIL && e->reason == c->reason &&
            same_text(e->detail, c->detail) && same_text(e->expected, c->expected) &&
            same_text(e->actual, c->actual)) {
            return e;
        }
    }
    return NULL;
}

/* One failing check's details: what differs, the byte diff or expected/actual, the input it
 * sent when not the box's, the runner's stderr and the request alone. */
static void check_details(smct_buf_t *b, const smcj_vectors_t *vs, const smcj_report_runner_t *mr,
                          size_t k, const uint8_t *box_input)
{
    const smcj_report_check_t *c = &mr->check_views[k];
    const char *diff = smcj_report_what_differs(mr, k);
    if (diff) {
        smct_buf_puts(b, "<p class=\"differs-line\"><span class=\"k\">what differs:</span> ");
        esc(b, diff);
        smct_buf_puts(b, "</p>");
    }
    if (c->reason == SMCJ_REASON_WRONG_BYTES && c->exp_bytes && c->act_bytes) {
        byte_diff(b, c);
    } else if (c->expected || c->actual) {
        smct_buf_puts(b, "<div class=\"kv\">");
        if (c->expected) {
            kv(b, "expected", "exp", c->expected);
        }
        if (c->actual) {
            kv(b, "actual", "act", c->actual);
        }
        smct_buf_puts(b, "</div>");
    }
    size_t len;
    const uint8_t *in = check_input(&vs->v[c->vector], c, &len);
    if (in && in != box_input) {
        input_block(b, in, len, "this check's input");
    }
    if (c->stderr_tail && c->stderr_tail[0]) {
        smct_buf_puts(b,
                      "<div class=\"lbl\">runner stderr (last lines)</div><pre class=\"stderr\">");
        content(b, c->stderr_tail, strlen(c->stderr_tail));
        smct_buf_puts(b, "</pre>");
    }
    if (c->kind != SMCJ_CHECK_HANDSHAKE) {
        const char *raw = mr->raw[k];
        size_t raw_len = strlen(raw);
        if (raw_len <= RAW_SHOWN) {
            smct_buf_puts(b, "<pre class=\"cmd raw\">");
            content(b, raw, raw_len);
            smct_buf_puts(b, "</pre>");
        } else {
            smct_buf_printf(b,
                            "<p class=\"oth\">this request alone, raw: %zu bytes, in the text "
                            "report</p>",
                            raw_len);
        }
    }
}

/* Every check of the vector: a row for each failing one, followed by its details, then a
 * row per other outcome naming its checks ("pass: decode, encode, roundtrip"). */
static void checks_table(smct_buf_t *b, const smcj_vectors_t *vs, const smcj_report_runner_t *mr,
                         const smcj_report_row_t *row, const uint8_t *box_input)
{
    size_t cb = row->check_begin, ce = row->check_end;
    smct_buf_puts(b, "<table class=\"checks\">");
    for (size_t k = cb; k < ce; k++) {
        const smcj_report_check_t *c = &mr->check_views[k];
        if (c->outcome != SMCJ_OUT_FAIL && k != row->placement_check) {
            continue;
        }
        smct_buf_puts(b, "<tr><td>");
        esc(b, c->label);
        smct_buf_printf(b, "</td><td><span class=\"tag fail\">%s</span></td><td>",
                        smcj_reason_name(c->reason));
        const smcj_report_check_t *twin = same_as(mr, cb, c);
        if (twin) {
            smct_buf_puts(b, "<span class=\"sub\">the same as ");
            esc(b, twin->label);
            smct_buf_puts(b, "</span></td></tr>");
            continue;
        }
        esc(b, c->detail);
        smct_buf_puts(b, "</td></tr><tr class=\"more\"><td colspan=\"3\">");
        check_details(b, vs, mr, k, box_input);
        smct_buf_puts(b, "</td></tr>");
    }
    smct_buf_puts(b, "</table>");
    for (smcj_outcome_t o = SMCJ_OUT_PENDING; o <= SMCJ_OUT_UNSUPPORTED; o++) {
        bool any = false;
        for (size_t k = cb; k < ce; k++) {
            const smcj_report_check_t *c = &mr->check_views[k];
            if (c->outcome != o || o == SMCJ_OUT_FAIL || k == row->placement_check) {
                continue;
            }
            if (!any) {
                smct_buf_printf(b, "<p class=\"oth\">%s: ", outcome_word(o));
            }
            smct_buf_puts(b, any ? ", " : "");
            esc(b, c->label);
            any = true;
        }
        smct_buf_puts(b, any ? "</p>" : "");
    }
}

/* The input the box shows once: the deciding check's, when it sends bytes. */
static const uint8_t *box_input(const smcj_vectors_t *vs, const smcj_report_runner_t *mr,
                                const smcj_report_row_t *row, size_t *len)
{
    *len = 0;
    return row->check == SIZE_MAX
               ? NULL
               : check_input(&vs->v[row->vector], &mr->check_views[row->check], len);
}

/* One (runner, vector) box; `cause` is its group's label, `cause_key` that label's index in
 * the cause filter. */
static void box(smct_buf_t *b, const smcj_vectors_t *vs, const smcj_report_runner_t *mr, size_t ri,
                size_t vi, const char *cause, size_t cause_key, const smcj_matrix_t *m)
{
    const smcj_report_row_t *row = &mr->rows[mr->row_of[vi]];
    const smcj_vector_t *v = &vs->v[vi];
    const char *tier = smcj_tier_name(row->tier);
    const char *status = smcj_status_name(row->status);
    size_t mrow = smcj_matrix_row_of(m, v->section);
    /* what the filters read (report_html.h): runner, matrix row, tier, status, cause */
    smct_buf_printf(b,
                    "<details class=\"failure\" id=\"f-%zu-%zu\" data-f=\"%zu %zu %d %d %zu\">"
                    "<summary><span class=\"tag %s\">%s</span><b>",
                    ri, vi, ri, mrow, (int)row->tier, (int)row->status, cause_key,
                    smcj_status_info(row->status)->css, status);
    esc(b, mr->facts.name);
    smct_buf_puts(b, "</b> × <span class=\"id\">");
    esc(b, v->id);
    smct_buf_printf(b, "</span><span class=\"sub\">%s · §", tier);
    esc(b, v->section);
    smct_buf_puts(b, " · ");
    esc(b, v->kind);
    smct_buf_printf(b, " · %s</span></summary><div class=\"body\"><p class=\"desc\">",
                    row->status == SMCJ_ST_XPASS ? "listed as an expected failure"
                    : row->verdict_reason == SMCJ_REASON_NONE
                        ? "skipped"
                        : smcj_reason_name(row->verdict_reason));
    esc(b, v->description);
    /* the vector's file is in the JSON report; the focus says where to look */
    if (v->focus) {
        smct_buf_puts(b, " <span class=\"sub\">(focus ");
        esc(b, v->focus);
        smct_buf_puts(b, ")</span>");
    }
    smct_buf_puts(b, "</p>");
    if (row->cause && strcmp(row->cause, cause) != 0) { /* the group's heading says it */
        smct_buf_puts(b, "<p class=\"cause\">");
        esc(b, row->cause);
        smct_buf_puts(b, "</p>");
    }
    if (row->why) { /* the shifted-input verdict, or the listed behaviour it matched */
        smct_buf_puts(b, "<p class=\"alt\">");
        esc(b, row->why);
        smct_buf_puts(b, "</p>");
    }
    if (row->status == SMCJ_ST_XPASS) {
        smct_buf_puts(b, "<p>This vector passes now but the expected-failure list says: <i>");
        esc(b, row->xfail_reason);
        smct_buf_puts(b, "</i>. Remove it from the list.</p>");
    }
    size_t in_len;
    const uint8_t *in = box_input(vs, mr, row, &in_len);
    if (in) {
        input_block(b, in, in_len, "input");
    }
    checks_table(b, vs, mr, row, in);
    if (row->check == SIZE_MAX || mr->check_views[row->check].kind != SMCJ_CHECK_HANDSHAKE) {
        /* the script writes the group's data-rerun and this id when the box opens: the same
         * command as the text report's, without a copy in every box */
        smct_buf_puts(b, "<pre class=\"cmd rerun\"></pre>");
    }
    smct_buf_puts(b, "</div></details>\n");
}

/* The distinct cause labels of the run, for the cause filter (borrowed from the groups). */
typedef struct cause_keys {
    const char **labels;
    size_t n;
} cause_keys_t;

static size_t cause_key(cause_keys_t *k, const char *label)
{
    for (size_t i = 0; i < k->n; i++) {
        if (strcmp(k->labels[i], label) == 0) {
            return i;
        }
    }
    k->labels[k->n] = label;
    return k->n++;
}

/* One group's heading and boxes. */
static void group(smct_buf_t *b, const smcj_report_model_t *model, size_t ri, const char *label,
                  size_t key, const size_t *vectors, size_t n, const smcj_matrix_t *m)
{
    if (n == 0) {
        return;
    }
    const smcj_report_runner_facts_t *r = &model->runners[ri].facts;
    const char *prefix = model->runners[ri].replay_prefix;
    smct_buf_puts(b, "<div class=\"group\" data-rerun=\"");
    smcj_buf_xml_text(b, prefix, strlen(prefix));
    smct_buf_puts(b, "\"><h3>");
    esc(b, r->name);
    smct_buf_puts(b, " × ");
    esc(b, label);
    smct_buf_printf(b, " <span class=\"sub\">%zu vector%s</span></h3>\n", n, n == 1 ? "" : "s");
    for (size_t k = 0; k < n; k++) {
        box(b, model->facts.vectors, &model->runners[ri], ri, vectors[k], label, key, m);
    }
    smct_buf_puts(b, "</div>\n");
}

/* One <select> of the filter bar; its options' values are what the boxes' data hold. */
static void select_open(smct_buf_t *b, const char *name, const char *what)
{
    smct_buf_printf(b,
                    "<select name=\"%s\" onchange=\"apply()\"><option value=\"\">any %s</option>",
                    name, what);
}

/* Filters by runner, section, tier, status and cause, and by id; they apply to the failures
 * and, where a vector has it (section, tier, id), to the grid. */
static void filters(smct_buf_t *b, const smcj_report_model_t *model, const smcj_matrix_t *m,
                    const cause_keys_t *keys)
{
    smct_buf_puts(b, "<div id=\"filters\" class=\"tools\"><b>Show</b>");
    select_open(b, "ri", "runner");
    for (size_t ri = 0; ri < model->n_runners; ri++) {
        smct_buf_printf(b, "<option value=\"%zu\">", ri);
        esc(b, model->runners[ri].facts.name);
        smct_buf_puts(b, "</option>");
    }
    smct_buf_puts(b, "</select>");
    select_open(b, "row", "section");
    for (size_t row = 0; row < m->n_rows; row++) {
        smct_buf_printf(b, "<option value=\"%zu\">§", row);
        esc(b, m->rows[row]);
        smct_buf_puts(b, "</option>");
    }
    smct_buf_puts(b, "</select>");
    select_open(b, "tier", "tier");
    for (smcj_tier_t t = SMCJ_TIER_REQUIRED; t <= SMCJ_TIER_IMPLDEF; t++) {
        smct_buf_printf(b, "<option value=\"%d\">%s</option>", (int)t, smcj_tier_name(t));
    }
    smct_buf_puts(b, "</select>");
    select_open(b, "status", "status");
    for (unsigned rank = 1; rank <= smcj_status_max_rank(); rank++) {
        for (smcj_status_t st = 0; st < SMCJ_ST_COUNT; st++) {
            if (smcj_status_info(st)->rank == rank) {
                smct_buf_printf(b, "<option value=\"%d\">%s</option>", (int)st,
                                smcj_status_name(st));
            }
        }
    }
    smct_buf_puts(b, "</select>");
    select_open(b, "cause", "cause");
    for (size_t k = 0; k < keys->n; k++) {
        smct_buf_printf(b, "<option value=\"%zu\">", k);
        esc(b, keys->labels[k]);
        smct_buf_puts(b, "</option>");
    }
    smct_buf_puts(b, "</select><input id=\"q\" placeholder=\"vector id contains\" "
                     "oninput=\"apply()\"><button onclick=\"clearAll()\">clear</button>"
                     "<span id=\"shown\" class=\"sub\"></span></div>\n");
}

static const char k_xpass_label[] = "unexpected passes (listed as expected failures)";

/* Per runner: its cause groups (report_causes.h), then its unexpected passes (listed, but in
 * no cause group: nothing failed). */
typedef struct runner_groups {
    const smcj_detail_group_t *g; /* the model's */
    size_t n;
    size_t *keys; /* the cause filter's index of each group's label */
    size_t *xpass;
    size_t n_xpass, xpass_key;
} runner_groups_t;

void smcj_html_failures(smct_buf_t *b, const smcj_report_model_t *model)
{
    const smcj_matrix_t *m = &model->subsections;
    size_t total = 0, n_labels = 1;
    runner_groups_t *rg = smcj_calloc(model->n_runners + 1, sizeof *rg);
    for (size_t ri = 0; rg && ri < model->n_runners; ri++) {
        const smcj_report_runner_t *mr = &model->runners[ri];
        for (size_t s = 0; s < SMCJ_ST_COUNT; s++) {
            total += smcj_status_info((smcj_status_t)s)->rank > 0 ? mr->counts.status[s] : 0;
        }
        if (mr->ran) {
            rg[ri].g = mr->groups;
            rg[ri].n = mr->n_groups;
            rg[ri].keys = smcj_calloc(rg[ri].n + 1, sizeof(size_t));
            rg[ri].xpass = smcj_calloc(mr->n_rows + 1, sizeof(size_t));
            for (size_t k = 0; rg[ri].xpass && k < mr->n_rows; k++) {
                if (mr->rows[k].status == SMCJ_ST_XPASS) {
                    rg[ri].xpass[rg[ri].n_xpass++] = mr->rows[k].vector;
                }
            }
            n_labels += rg[ri].n;
        }
    }
    cause_keys_t keys = {smcj_calloc(n_labels, sizeof(const char *)), 0};
    smct_buf_printf(b, "<section id=\"failures\"><h2>Failures and differences (%zu)</h2>", total);
    if (!rg || !keys.labels || total == 0) {
        smct_buf_puts(b, total ? "" : "<p class=\"sub\">None.</p>");
    } else {
        for (size_t ri = 0; ri < model->n_runners; ri++) {
            for (size_t g = 0; rg[ri].keys && g < rg[ri].n; g++) {
                rg[ri].keys[g] = cause_key(&keys, smcj_or_empty(rg[ri].g[g].label));
            }
            rg[ri].xpass_key = rg[ri].n_xpass ? cause_key(&keys, k_xpass_label) : 0;
        }
        smct_buf_puts(b, "<p class=\"sub\">By runner, then by likely cause as the text report "
                         "groups them; each box holds every check of one vector.</p>");
        filters(b, model, m, &keys);
        smct_buf_puts(b, "<div class=\"tools\"><button onclick=\"setAll(true)\">expand "
                         "shown</button><button onclick=\"setAll(false)\">collapse all</button>"
                         "</div>\n");
        for (size_t ri = 0; ri < model->n_runners; ri++) {
            for (size_t g = 0; rg[ri].keys && g < rg[ri].n; g++) {
                group(b, model, ri, smcj_or_empty(rg[ri].g[g].label), rg[ri].keys[g],
                      rg[ri].g[g].vectors, rg[ri].g[g].n_vectors, m);
            }
            group(b, model, ri, k_xpass_label, rg[ri].xpass_key, rg[ri].xpass, rg[ri].n_xpass, m);
        }
    }
    smct_buf_puts(b, "</section>\n");
    for (size_t ri = 0; rg && ri < model->n_runners; ri++) {
        free(rg[ri].keys);
        free(rg[ri].xpass);
    }
    free(rg);
    free((void *)keys.labels);
}
