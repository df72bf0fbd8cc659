/*
 * Expected-failure lists (xfail.h): protobuf's semantics, so a list is a record of known bugs
 * that cannot go stale. Lines are `vector-id  # reason` or `feature:WORD  # reason` (a core
 * feature the codec lacks, spec §1.4); the reason is kept for the reports and for
 * --write-xfail, which rewrites a list from a run without losing what people wrote.
 */
#define _POSIX_C_SOURCE 200809L
#include "xfail.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "input_file.h"
#include "smct_io.h"

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

static char *trim(char *s)
{
    while (is_space(*s)) {
        s++;
    }
    size_t n = strlen(s);
    while (n > 0 && is_space(s[n - 1])) {
        s[--n] = '\0';
    }
    return s;
}

/* A NUL or a space inside an entry is refused rather than guessed at: a list that does not
 * say exactly which vectors it excuses must not excuse any. */
bool smcj_xfail_load(smcj_xfail_t *x, const char *path, char *err, size_t err_size)
{
    memset(x, 0, sizeof *x);
    x->path = smcj_strdup(path);
    size_t len;
    uint8_t *data;
    smct_status_t st =
        x->path ? smcj_read_input_file(path, SMCJ_MAX_LIST_FILE, &data, &len, err, err_size)
                : SMCT_ERR_NOMEM;
    if (st == SMCT_ERR_NOMEM) {
        smcj_nomem();
    }
    if (st != SMCT_OK) {
        return false;
    }
    char *text = (char *)data;
    if (memchr(text, '\0', len)) {
        snprintf(err, err_size, "%s: contains a NUL byte", path);
        free(text);
        return false;
    }
    int line_no = 0;
    size_t cap = 0;
    char *next_line = text;
    while (next_line) {
        char *line = next_line;
        char *nl = strchr(line, '\n');
        next_line = nl ? nl + 1 : NULL;
        if (nl) {
            *nl = '\0';
        }
        line_no++;
        char *hash = strchr(line, '#');
        char *reason = NULL;
        if (hash) {
            *hash = '\0';
            reason = trim(hash + 1);
        }
        char *pat = trim(line);
        if (*pat == '\0') {
            continue;
        }
        if (strpbrk(pat, " \t")) {
            snprintf(err, err_size,
                     "%s: line %d: an entry is one vector id or glob, then `# reason`", path,
                     line_no);
            free(text);
            return false;
        }
        char *pattern = smcj_strdup(pat);
        char *why = smcj_strdup(reason && *reason ? reason : "(no reason given)");
        if (!pattern || !why ||
            !smcj_grow((void **)&x->entries, &cap, x->count + 1, sizeof *x->entries)) {
            free(pattern);
            free(why);
            free(text);
            snprintf(err, err_size, "out of memory");
            return false;
        }
        smcj_xfail_entry_t *e = &x->entries[x->count++];
        e->pattern = pattern;
        e->reason = why;
        e->line = line_no;
        e->is_feature = strncmp(pat, SMCJ_XFAIL_FEATURE, strlen(SMCJ_XFAIL_FEATURE)) == 0;
        e->is_glob = !e->is_feature && strpbrk(pat, "*?[") != NULL;
        e->matched = 0;
    }
    free(text);
    return true;
}

/* qsort has no context argument: the list being sorted. */
static const smcj_xfail_t *g_sort_list;
static int cmp_exact(const void *a, const void *b)
{
    const smcj_xfail_entry_t *e = g_sort_list->entries;
    return strcmp(e[*(const size_t *)a].pattern, e[*(const size_t *)b].pattern);
}

/* The exact entry for `id`, by bisection, or NULL. */
static smcj_xfail_entry_t *find_exact(const smcj_xfail_t *x, const char *id)
{
    size_t lo = 0, hi = x->n_exact;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(x->entries[x->exact[mid]].pattern, id);
        if (c == 0) {
            return &x->entries[x->exact[mid]];
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return NULL;
}

/* Issue 26: a lookup per vector costs log(entries), not entries, and an id listed twice is
 * named (which reason would count?) rather than one line silently winning. */
static bool index_exact(smcj_xfail_t *x, char *err, size_t err_size)
{
    free(x->exact);
    x->n_exact = 0;
    x->exact = smcj_calloc(x->count ? x->count : 1, sizeof *x->exact);
    if (!x->exact) {
        snprintf(err, err_size, "out of memory");
        return false;
    }
    for (size_t k = 0; k < x->count; k++) {
        if (!x->entries[k].is_glob && !x->entries[k].is_feature) {
            x->exact[x->n_exact++] = k;
        }
    }
    g_sort_list = x;
    qsort(x->exact, x->n_exact, sizeof *x->exact, cmp_exact);
    for (size_t k = 1; k < x->n_exact; k++) {
        const smcj_xfail_entry_t *a = &x->entries[x->exact[k - 1]], *b = &x->entries[x->exact[k]];
        if (strcmp(a->pattern, b->pattern) == 0) {
            snprintf(err, err_size, "%s: lines %d and %d both list `%s`", x->path,
                     a->line < b->line ? a->line : b->line, a->line < b->line ? b->line : a->line,
                     a->pattern);
            return false;
        }
    }
    return true;
}

/* Counted over every loaded vector, not only the selected ones, so running a subset
 * (--only, --section) never makes a good list look stale. */
bool smcj_xfail_expand(smcj_xfail_t *x, const smcj_vectors_t *vs, char *err, size_t err_size)
{
    if (!index_exact(x, err, err_size)) {
        return false;
    }
    for (size_t k = 0; k < x->count; k++) {
        x->entries[k].matched = 0;
    }
    for (size_t i = 0; i < vs->count; i++) {
        smcj_xfail_entry_t *e = find_exact(x, vs->v[i].id);
        if (e) {
            e->matched++;
        }
    }
    for (size_t k = 0; k < x->count; k++) {
        smcj_xfail_entry_t *e = &x->entries[k];
        if (!e->is_glob) {
            continue;
        }
        for (size_t i = 0; i < vs->count; i++) {
            e->matched += fnmatch(e->pattern, vs->v[i].id, 0) == 0;
        }
        if (e->is_glob && e->matched > SMCJ_XFAIL_MAX_EXPANSION) {
            snprintf(err, err_size, "%s: `%s` matches %zu vectors; a glob may excuse at most %u",
                     x->path, e->pattern, e->matched, SMCJ_XFAIL_MAX_EXPANSION);
            return false;
        }
    }
    return true;
}

/* Exact ids first, so a vector listed by name keeps its own reason even when a glob also
 * matches it. */
const smcj_xfail_entry_t *smcj_xfail_lookup(const smcj_xfail_t *x, const char *id)
{
    const smcj_xfail_entry_t *e = find_exact(x, id);
    if (e) {
        return e;
    }
    for (size_t k = 0; k < x->count; k++) {
        if (x->entries[k].is_glob && fnmatch(x->entries[k].pattern, id, 0) == 0) {
            return &x->entries[k];
        }
    }
    return NULL;
}

smcj_xfail_entry_t *smcj_xfail_feature(smcj_xfail_t *x, const char *word)
{
    size_t n = strlen(SMCJ_XFAIL_FEATURE);
    for (size_t k = 0; k < x->count; k++) {
        if (x->entries[k].is_feature && strcmp(x->entries[k].pattern + n, word) == 0) {
            return &x->entries[k];
        }
    }
    return NULL;
}

/* Every vector that fails now, in vector order, with the reason people wrote when the old
 * list had one; new ones get a TODO naming the failure kind, to be triaged. */
void smcj_xfail_format(smct_buf_t *b, const smcj_runner_t *r, const smcj_vectors_t *vs,
                       bool include_differs)
{
    smct_buf_printf(b,
                    "# Expected failures of runner `%s` for `smc conformance --xfail %s=FILE`.\n"
                    "# One vector id per line, then `# reason`. Written by --write-xfail; keep the "
                    "reasons current.\n",
                    r->name, r->name);
    for (size_t k = 0; k < r->n_unsupported_features; k++) {
        const smcj_feature_verdict_t *f = &r->unsupported_features[k];
        if (f->xfail_reason) {
            smct_buf_printf(b, "%s%s  # %s\n", SMCJ_XFAIL_FEATURE, f->feature, f->xfail_reason);
        } else {
            smct_buf_printf(b, "%s%s  # TODO: triage (unsupported: %s, MUST)\n", SMCJ_XFAIL_FEATURE,
                            f->feature, f->rule);
        }
    }
    for (size_t i = 0; i < vs->count; i++) {
        const smcj_result_t *res = &r->results[i];
        bool failing = smcj_status_is(res->status, SMCJ_STF_FAILED) ||
                       (include_differs && res->status == SMCJ_ST_DIFFERS);
        if (!failing) {
            continue;
        }
        if (!res->excusable) {
            /* spec §1.4, R1.4-17: a line for it would excuse nothing; say why it is absent */
            smct_buf_printf(b, "# not listable: %s (%s): no list excuses it\n", vs->v[i].id,
                            res->reason == SMCJ_REASON_NONE ? "skipped"
                                                            : smcj_reason_name(res->reason));
            continue;
        }
        const smcj_xfail_entry_t *old =
            r->has_xfail ? smcj_xfail_lookup(&r->xfail, vs->v[i].id) : NULL;
        if (old) {
            smct_buf_printf(b, "%s  # %s\n", vs->v[i].id, old->reason);
        } else {
            smct_buf_printf(b, "%s  # TODO: triage (%s%s)\n", vs->v[i].id,
                            res->placement_check != SIZE_MAX ? "placement, " : "",
                            res->reason == SMCJ_REASON_NONE ? "skipped"
                                                            : smcj_reason_name(res->reason));
        }
    }
}

void smcj_xfail_free(smcj_xfail_t *x)
{
    for (size_t k = 0; k < x->count; k++) {
        free(x->entries[k].pattern);
        free(x->entries[k].reason);
    }
    free(x->entries);
    free(x->exact);
    free(x->path);
    memset(x, 0, sizeof *x);
}
