/*
 * Crashes and unclassified rejections by kind (report_kinds.h). The kinds are the runner's
 * words (P.3 `kind`): they are kept as given (cut to 100 bytes by verdict.c) and escaped
 * wherever they are printed.
 */
#define _POSIX_C_SOURCE 200809L
#include "report_kinds.h"

#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "results.h"
#include "smct_json.h"

#define PROCESS_ENDED "(the runner process ended)"
#define OTHER_KINDS   "(other kinds)"

static bool counted(const smcj_check_t *c, bool crashes)
{
    if (crashes) {
        return c->outcome == SMCJ_OUT_FAIL && c->reason == SMCJ_REASON_CRASH;
    }
    return c->unclassified;
}

static void add(smcj_kinds_t *out, const char *kind)
{
    out->total++;
    for (size_t i = 0; i < out->n; i++) {
        if (strcmp(out->k[i].kind, kind) == 0) {
            out->k[i].count++;
            return;
        }
    }
    if (out->n < SMCJ_KINDS_MAX) {
        out->k[out->n++] = (smcj_kind_count_t){kind, 1};
        return;
    }
    out->k[SMCJ_KINDS_MAX].kind = OTHER_KINDS;
    out->k[SMCJ_KINDS_MAX].count++;
}

static int by_count(const void *a, const void *b)
{
    const smcj_kind_count_t *x = a, *y = b;
    if (x->count != y->count) {
        return x->count > y->count ? -1 : 1;
    }
    return strcmp(x->kind, y->kind);
}

void smcj_kinds_collect(const smcj_run_t *run, const smcj_runner_t *r, bool crashes,
                        smcj_kinds_t *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < r->n_checks; i++) {
        const smcj_check_t *c = &r->checks[i];
        if (!run->vectors->v[c->vector].selected || !counted(c, crashes)) {
            continue;
        }
        add(out, c->act_kind ? c->act_kind : crashes ? PROCESS_ENDED : "?");
    }
    qsort(out->k, out->n, sizeof out->k[0], by_count);
    if (out->k[SMCJ_KINDS_MAX].count) {
        out->k[out->n++] = out->k[SMCJ_KINDS_MAX]; /* last, whatever its count */
    }
}

void smcj_kinds_collect_of(const smcj_run_t *run, const smcj_runner_t *r, bool crashes,
                           const size_t *vectors, size_t n, smcj_kinds_t *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < n && r->checks; i++) {
        size_t cb, ce;
        smcj_checks_of(r, vectors[i], &cb, &ce);
        for (size_t ci = cb; ci < ce; ci++) {
            const smcj_check_t *c = &r->checks[ci];
            if (run->vectors->v[c->vector].selected && counted(c, crashes)) {
                add(out, c->act_kind ? c->act_kind : crashes ? PROCESS_ENDED : "?");
            }
        }
    }
    qsort(out->k, out->n, sizeof out->k[0], by_count);
    if (out->k[SMCJ_KINDS_MAX].count) {
        out->k[out->n++] = out->k[SMCJ_KINDS_MAX];
    }
}

void smcj_kinds_text(smct_buf_t *b, const smcj_kinds_t *k)
{
    for (size_t i = 0; i < k->n; i++) {
        smct_buf_puts(b, i ? ", " : "");
        smcj_buf_excerpt_cstr(b, k->k[i].kind, 100);
        smct_buf_printf(b, " %zu", k->k[i].count);
    }
}

void smcj_kinds_json(smct_jw_t *w, const smcj_kinds_t *k)
{
    smct_jw_array(w);
    for (size_t i = 0; i < k->n; i++) {
        smct_jw_object(w);
        smct_jw_key_str(w, "kind", k->k[i].kind);
        smct_jw_key_u64(w, "count", k->k[i].count);
        smct_jw_end_object(w);
    }
    smct_jw_end_array(w);
}

char *smcj_kinds_line(const smcj_kinds_t *k, bool crashes)
{
    if (k->total == 0) {
        return NULL;
    }
    smct_buf_t b = {0};
    smct_buf_printf(&b,
                    "%s by kind (%zu): ", crashes ? "crashes" : "unclassified rejections (R1.4-15)",
                    k->total);
    smcj_kinds_text(&b, k);
    return smcj_buf_take(&b);
}
