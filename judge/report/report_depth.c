/*
 * The depth ladder line of a report (report_depth.h). The rung's depth is read from its id,
 * which vectors never rename (vectors.md V.4); what the runner did on it from its result: a
 * value (it has no limit and its stack held), a crash or a hang (its stack did not), or an
 * error (a limit, or some other rejection).
 */
#define _POSIX_C_SOURCE 200809L
#include "report_depth.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "results.h"

#define LADDER_PREFIX "s15.1-ladder-"

typedef struct rungs {
    unsigned long decoded;  /* deepest rung decoded to a value, or 0 */
    unsigned long crashed;  /* shallowest rung crashed or hung on, or 0 */
    unsigned long rejected; /* shallowest rung rejected with an error, or 0 */
    unsigned long deepest;  /* deepest rung run */
    size_t n;               /* rungs run */
} rungs_t;

static const char *const k_kinds[] = {"list", "map", "custom"};
static const char *const k_plural[] = {"lists", "maps", "custom values"};

/* "50,000" */
static void with_commas(unsigned long n, char *out, size_t size)
{
    char digits[32];
    int len = snprintf(digits, sizeof digits, "%lu", n);
    size_t o = 0;
    for (int i = 0; i < len && o + 2 < size; i++) {
        if (i > 0 && (len - i) % 3 == 0) {
            out[o++] = ',';
        }
        out[o++] = digits[i];
    }
    out[o] = '\0';
}

/* The rung's depth if `id` is a rung of `kind`, else 0. */
static unsigned long rung_depth(const char *id, const char *kind)
{
    size_t p = strlen(LADDER_PREFIX), k = strlen(kind);
    if (strncmp(id, LADDER_PREFIX, p) != 0 || strncmp(id + p, kind, k) != 0 || id[p + k] != '-') {
        return 0;
    }
    char *end = NULL;
    unsigned long n = strtoul(id + p + k + 1, &end, 10);
    return end && *end == '\0' ? n : 0;
}

static bool decoded_to_value(const smcj_runner_t *r, size_t i)
{
    size_t b, e;
    smcj_checks_of(r, i, &b, &e);
    for (size_t k = b; k < e; k++) {
        if (r->checks[k].accepted_bomb) {
            return true;
        }
    }
    return false;
}

static void collect(const smcj_run_t *run, const smcj_runner_t *r, const char *kind, rungs_t *out)
{
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < run->vectors->count; i++) {
        const smcj_vector_t *v = &run->vectors->v[i];
        unsigned long depth = rung_depth(v->id, kind);
        const smcj_result_t *res = &r->results[i];
        if (!depth || !v->selected || res->status == SMCJ_ST_NONE || res->outcome == SMCJ_OUT_NA ||
            res->outcome == SMCJ_OUT_SKIPPED) {
            continue;
        }
        out->n++;
        out->deepest = depth > out->deepest ? depth : out->deepest;
        bool died = res->outcome == SMCJ_OUT_FAIL &&
                    (res->reason == SMCJ_REASON_CRASH || res->reason == SMCJ_REASON_TIMEOUT ||
                     res->reason == SMCJ_REASON_RESOURCE);
        if (died) {
            out->crashed = !out->crashed || depth < out->crashed ? depth : out->crashed;
        } else if (decoded_to_value(r, i)) {
            out->decoded = depth > out->decoded ? depth : out->decoded;
        } else {
            out->rejected = !out->rejected || depth < out->rejected ? depth : out->rejected;
        }
    }
}

static void kind_text(smct_buf_t *b, const char *plural, const rungs_t *g)
{
    char n[32];
    smct_buf_printf(b, "%s: ", plural);
    if (g->decoded) {
        with_commas(g->decoded, n, sizeof n);
        smct_buf_printf(b, "decodes %s levels", n);
    }
    if (g->crashed) {
        with_commas(g->crashed, n, sizeof n);
        smct_buf_printf(b, "%scrashes or hangs at %s", g->decoded ? ", " : "", n);
    }
    if (g->rejected) {
        with_commas(g->rejected, n, sizeof n);
        smct_buf_printf(b, "%srejects from %s levels on", g->decoded || g->crashed ? ", " : "", n);
    }
    if (!g->crashed && !g->rejected) {
        with_commas(g->deepest, n, sizeof n);
        smct_buf_printf(b, " (every rung, up to %s)", n);
    }
}

void smcj_depth_ladder_note(const smcj_run_t *run, const smcj_runner_t *r,
                            void (*emit)(void *ctx, const char *note), void *ctx)
{
    if (!r->results) {
        return;
    }
    smct_buf_t b = {0};
    bool any = false;
    for (size_t k = 0; k < sizeof k_kinds / sizeof *k_kinds; k++) {
        rungs_t g;
        collect(run, r, k_kinds[k], &g);
        if (!g.n) {
            continue;
        }
        smct_buf_puts(&b, any ? "; " : "depth ladder (spec §15.1, 256 to 50,000 levels): ");
        kind_text(&b, k_plural[k], &g);
        any = true;
    }
    char *line = smcj_buf_take(&b);
    if (any && line) {
        emit(ctx, line);
    }
    free(line);
}
