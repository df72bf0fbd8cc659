/*
 * What the text, HTML and JSON reports share (report_util.h): the runners x sections matrix,
 * the hex diff around the first wrong byte, and the replay commands that rerun one vector
 * (or send one request by hand), so a failure can be reproduced without the judge's help.
 */
#define _POSIX_C_SOURCE 200809L
#include "report_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "handshake.h"
#include "kept_value.h"
#include "plan.h"

static void section_key(const char *section, bool top_level, char *out, size_t out_size)
{
    size_t n = strlen(section);
    if (top_level) {
        const char *dot = strchr(section, '.');
        n = dot ? (size_t)(dot - section) : n;
    }
    snprintf(out, out_size, "%.*s", (int)n, section);
}

/* Numeric order of dotted section numbers: 2 < 2.1 < 2.10 < 10. */
static int section_cmp(const void *pa, const void *pb)
{
    const char *a = *(const char *const *)pa, *b = *(const char *const *)pb;
    while (*a && *b) {
        char *ea, *eb;
        long x = strtol(a, &ea, 10), y = strtol(b, &eb, 10);
        if (x != y) {
            return x < y ? -1 : 1;
        }
        a = *ea == '.' ? ea + 1 : ea;
        b = *eb == '.' ? eb + 1 : eb;
        if (ea == a && eb == b) {
            break;
        }
    }
    return (*a != '\0') - (*b != '\0');
}

/* The cell counter a status adds to (SMCJ_STATUS_LIST), or NULL. */
static size_t *cell_counter(smcj_cell_t *c, smcj_status_t s)
{
#define SMCJ_ST_COUNTER(field) return &c->field;
#define SMCJ_ST_NO_COUNTER     return NULL;
#define SMCJ_STATUS_CASE(name, wire, css, flags, rank, heading, outside, junit, counter, cell)     \
    case SMCJ_ST_##name:                                                                           \
        cell
    switch (s) {
        SMCJ_STATUS_LIST(SMCJ_STATUS_CASE)
    case SMCJ_ST_COUNT:
        break;
    }
#undef SMCJ_STATUS_CASE
#undef SMCJ_ST_NO_COUNTER
#undef SMCJ_ST_COUNTER
    return NULL;
}

void smcj_matrix_build(smcj_matrix_t *m, const smcj_run_t *run, bool top_level)
{
    memset(m, 0, sizeof *m);
    const smcj_vectors_t *vs = run->vectors;
    char key[64];
    for (size_t i = 0; i < vs->count; i++) {
        if (!vs->v[i].selected) {
            continue;
        }
        section_key(vs->v[i].section, top_level, key, sizeof key);
        bool seen = false;
        for (size_t k = 0; k < m->n_rows && !seen; k++) {
            seen = strcmp(m->rows[k], key) == 0;
        }
        if (!seen) {
            size_t cap = m->n_rows;
            char *row = smcj_strdup(key);
            if (!row || !smcj_grow((void **)&m->rows, &cap, m->n_rows + 1, sizeof(char *))) {
                free(row);
                smcj_matrix_free(m); /* out of memory: an empty matrix, no report written */
                return;
            }
            m->rows[m->n_rows++] = row;
        }
    }
    qsort(m->rows, m->n_rows, sizeof(char *), section_cmp);
    m->n_runners = run->n_runners;
    m->top_level = top_level;
    m->cells = smcj_calloc(m->n_rows * (m->n_runners ? m->n_runners : 1) + 1, sizeof(smcj_cell_t));
    if (!m->cells) {
        smcj_matrix_free(m);
        return;
    }
    for (size_t i = 0; i < vs->count; i++) {
        if (!vs->v[i].selected) {
            continue;
        }
        size_t row = smcj_matrix_row_of(m, vs->v[i].section);
        row = row == SIZE_MAX ? m->n_rows : row; /* never: every selected section has a row */
        for (size_t ri = 0; ri < run->n_runners; ri++) {
            const smcj_runner_t *r = &run->runners[ri];
            if (!r->results) {
                continue;
            }
            smcj_cell_t *c = smcj_matrix_cell(m, row, ri);
            size_t *n = cell_counter(c, r->results[i].status);
            if (n) {
                (*n)++;
            }
            c->applicable += smcj_status_is(r->results[i].status, SMCJ_STF_APPLICABLE);
        }
    }
}

size_t smcj_matrix_row_of(const smcj_matrix_t *m, const char *section)
{
    char key[64];
    section_key(section, m->top_level, key, sizeof key);
    for (size_t row = 0; row < m->n_rows; row++) {
        if (strcmp(m->rows[row], key) == 0) {
            return row;
        }
    }
    return SIZE_MAX;
}

smcj_cell_t *smcj_matrix_cell(const smcj_matrix_t *m, size_t row, size_t runner)
{
    return &m->cells[row * m->n_runners + runner];
}

void smcj_matrix_free(smcj_matrix_t *m)
{
    for (size_t k = 0; k < m->n_rows; k++) {
        free(m->rows[k]);
    }
    free(m->rows);
    free(m->cells);
    memset(m, 0, sizeof *m);
}

/* Bytes [start, end) of a string of `len` bytes of which `kept` from offset `from` are at p. */
static void dump_line(smct_buf_t *b, const char *indent, const char *label, const uint8_t *p,
                      size_t len, size_t from, size_t kept, size_t start, size_t end)
{
    smct_buf_printf(b, "%s%-8s %s", indent, label, start > 0 ? "… " : "  ");
    for (size_t i = start; i < end; i++) {
        if (i < len && i >= from && i - from < kept) {
            smct_buf_printf(b, "%02x ", p[i - from]);
        } else {
            smct_buf_puts(b, i == len ? "|| " : "   "); /* || marks where the bytes end */
        }
    }
    if (end < len) {
        smct_buf_puts(b, "…");
    }
    smct_buf_putc(b, '\n');
}

/* ±16 bytes around the first difference, a `||` where the shorter string ends, and carets
 * under the first differing byte. */
void smcj_hexdiff(smct_buf_t *b, const char *indent, const uint8_t *exp, size_t exp_len,
                  const uint8_t *act, size_t act_len)
{
    size_t first = 0;
    while (first < exp_len && first < act_len && exp[first] == act[first]) {
        first++;
    }
    smcj_hexdiff_kept(b, indent, exp, exp_len, act, act_len, 0, exp_len, act_len, first);
}

void smcj_hexdiff_kept(smct_buf_t *b, const char *indent, const uint8_t *exp, size_t exp_len,
                       const uint8_t *act, size_t act_len, size_t from, size_t exp_kept,
                       size_t act_kept, size_t first)
{
    size_t longest = exp_len > act_len ? exp_len : act_len;
    size_t start = first >= 16 ? first - 16 : 0;
    size_t end = first + 17 < longest + 1 ? first + 17 : longest + 1;
    if (end > start + 33) {
        end = start + 33;
    }
    smct_buf_printf(b,
                    "%sfirst difference at offset %zu (0x%zx); expected %zu bytes, got %zu; dump "
                    "from offset %zu\n",
                    indent, first, first, exp_len, act_len, start);
    dump_line(b, indent, "expected", exp, exp_len, from, exp_kept, start, end);
    dump_line(b, indent, "actual", act, act_len, from, act_kept, start, end);
    smct_buf_printf(b, "%s%-8s   ", indent, "");
    for (size_t i = start; i < first; i++) {
        smct_buf_puts(b, "   ");
    }
    smct_buf_puts(b, "^^\n");
}

static const char *judge_invocation(const smcj_run_t *run)
{
    return run->argv0 ? run->argv0 : "smc conformance";
}

void smcj_replay_prefix(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r)
{
    smct_buf_printf(b, "%s --vectors ", judge_invocation(run));
    smcj_buf_sh_quote(b, run->vectors->dir);
    smct_buf_puts(b, " --runner ");
    char *spec = smcj_asprintf("%s=%s", r->name, r->command);
    smcj_buf_sh_quote(b, spec);
    free(spec);
    smct_buf_puts(b, " --only ");
}

void smcj_replay_command(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r,
                         const smcj_vector_t *v)
{
    smcj_replay_prefix(b, run, r);
    smcj_buf_sh_quote(b, v->id);
}

void smcj_replay_lines(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r,
                       const smcj_check_t *c)
{
    smcj_hello_line(b);
    smct_buf_putc(b, '\n');
    smcj_request_line(b, 1, r, run->vectors, c);
    smct_buf_putc(b, '\n');
}

/* The hello and the one request, piped into the runner's own command: the failing exchange,
 * reproducible without the judge. A request too long for a command line (one argument may
 * hold 128 KiB at most on Linux) is replayed from the file it was written to. */
void smcj_raw_command(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r,
                      const smcj_check_t *c)
{
    smct_buf_t hello = {0}, req = {0};
    smcj_hello_line(&hello);
    smcj_request_line(&req, 1, r, run->vectors, c);
    if (smcj_buf_ok(&req) && req.len > SMCJ_RAW_INLINE) {
        if (c->replay_file) {
            smct_buf_printf(b, "%s < ", r->command);
            smcj_buf_sh_quote(b, c->replay_file);
        } else {
            smct_buf_printf(b,
                            "(the request is %zu bytes, too long to show: give --replay-dir DIR, "
                            "or a --json/--html/--junit report, and it is written to a file "
                            "to replay)",
                            req.len);
        }
    } else {
        smct_buf_puts(b, "printf '%s\\n' ");
        smcj_buf_sh_quote(b, smcj_buf_ok(&hello) ? hello.data : NULL);
        smct_buf_putc(b, ' ');
        smcj_buf_sh_quote(b, smcj_buf_ok(&req) ? req.data : NULL);
        smct_buf_printf(b, " | %s", r->command);
    }
    smct_buf_free(&hello);
    smct_buf_free(&req);
}

void smcj_feature_verdict_text(smct_buf_t *b, const smcj_feature_verdict_t *f)
{
    smct_buf_printf(b, "%s (%s%s%s; %s, MUST) — %zu vector%s", f->feature,
                    f->decode ? "decode" : "", f->decode && f->encode ? ", " : "",
                    f->encode ? "encode" : "", f->rule, f->vectors, f->vectors == 1 ? "" : "s");
}

/* True if the runner declared `word` in `direction` for every entry point it implements. */
static bool declared_everywhere(const smcj_runner_t *r, int direction, const char *word)
{
    for (int e = 0; e < SMC_ENTRY_COUNT; e++) {
        const smcj_decl_t *d = &r->decl[e];
        bool has = false;
        for (size_t i = 0; i < d->n_caps[direction] && !has; i++) {
            has = strcmp(d->caps[direction][i], word) == 0;
        }
        if (r->entry_ok[e] && !has) {
            return false;
        }
    }
    return true;
}

/* True if some implemented entry point has the option `pick` says. */
static bool some_entry(const smcj_runner_t *r, bool (*pick)(const smcj_decl_t *d))
{
    for (int e = 0; e < SMC_ENTRY_COUNT; e++) {
        if (r->entry_ok[e] && pick(&r->decl[e])) {
            return true;
        }
    }
    return false;
}

/* "" when every entry the runner implements has `pick`, else " (call, envelope only)": a
 * note about one entry's declaration must not read as if it held for the whole run. */
static void entries_with(const smcj_runner_t *r, bool (*pick)(const smcj_decl_t *d), char *out,
                         size_t out_size)
{
    size_t n_ok = 0, n_pick = 0, len = 0;
    char names[64] = "";
    for (int e = 0; e < SMC_ENTRY_COUNT; e++) {
        if (!r->entry_ok[e]) {
            continue;
        }
        n_ok++;
        if (pick(&r->decl[e])) {
            int w = snprintf(names + len, sizeof names - len, "%s%s", n_pick++ ? ", " : "",
                             smct_entry_name((smc_entry_t)e));
            len += w > 0 && (size_t)w < sizeof names - len ? (size_t)w : 0;
        }
    }
    if (n_pick == n_ok) {
        out[0] = '\0';
    } else {
        snprintf(out, out_size, " (%s only)", names);
    }
}

static bool no_classes(const smcj_decl_t *d)
{
    return !d->error_classes;
}

static bool no_offsets(const smcj_decl_t *d)
{
    return d->error_classes && !d->error_offsets;
}
static bool no_shift(const smcj_decl_t *d)
{
    return !d->shift;
}
static bool borrows(const smcj_decl_t *d)
{
    return d->borrows_input;
}
static bool pigeon(const smcj_decl_t *d)
{
    return d->pigeon_int64;
}

/* P.1 hosts_without (spec §17.1): what the runner states its codec's API lacks, and how many
 * vectors that made n/a, so a statement is never an unseen way to test less. */
static void hosts_without_note(const smcj_runner_t *r, void (*emit)(void *ctx, const char *note),
                               void *ctx)
{
    size_t na = 0;
    for (size_t k = 0; k < r->n_checks; k++) {
        const smcj_check_t *c = &r->checks[k];
        na += c->host_absent && c->outcome == SMCJ_OUT_NA && !c->placed;
    }
    smct_buf_t b = {0};
    smct_buf_puts(&b, "states its codec's API has no");
    for (size_t i = 0; i < r->n_without; i++) {
        smct_buf_printf(&b, "%s %s %s", i ? "," : "", r->without_host[i], r->without_type[i]);
    }
    smct_buf_printf(&b, " (P.1 hosts_without; spec §17.1): %zu host vector%s not applicable", na,
                    na == 1 ? "" : "s");
    if (smcj_buf_ok(&b)) {
        emit(ctx, b.data);
    }
    smct_buf_free(&b);
}

void smcj_declaration_notes(const smcj_runner_t *r, void (*emit)(void *ctx, const char *note),
                            void *ctx)
{
    if (!r->started) {
        return;
    }
    char only[96], note[320];
    if (some_entry(r, no_classes)) {
        entries_with(r, no_classes, only, sizeof only);
        snprintf(note, sizeof note,
                 "error classes not compared%s, only whether an input was rejected (no "
                 "error-classes, P.1; spec R1.4-14)",
                 only);
        emit(ctx, note);
    }
    if (some_entry(r, no_offsets)) {
        entries_with(r, no_offsets, only, sizeof only);
        snprintf(note, sizeof note,
                 "error offsets not compared%s (the runner does not declare the error-offsets "
                 "option, P.1)",
                 only);
        emit(ctx, note);
    }
    if (some_entry(r, no_shift)) {
        entries_with(r, no_shift, only, sizeof only);
        snprintf(note, sizeof note,
                 "placement not tested%s (the runner does not declare the shift option, P.1; "
                 "spec §3.3)",
                 only);
        emit(ctx, note);
    }
    bool one_int_decode = !declared_everywhere(r, 0, "int64-distinct");
    bool one_int_encode = !declared_everywhere(r, 1, "int64-distinct") && !some_entry(r, pigeon);
    if (one_int_decode || one_int_encode) {
        emit(ctx, one_int_decode && one_int_encode
                      ? "one integer type: integers compared by value, encoded widths by R4.2-4 "
                        "(no int64-distinct; spec §1.4)"
                  : one_int_decode ? "one integer type when decoding: integers compared by value "
                                     "(no int64-distinct; spec §1.4)"
                                   : "one integer type when encoding: widths by R4.2-4 (no "
                                     "int64-distinct; spec §1.4)");
    }
    if (!declared_everywhere(r, 0, "map-order") || !declared_everywhere(r, 1, "map-order")) {
        emit(ctx, "maps without order: compared as multisets, encoded maps canonical for some "
                  "order of their "
                  "entries (no map-order; spec §1.4)");
    }
    if (some_entry(r, pigeon)) {
        emit(ctx, "encodes every integer as int64, Pigeon's convention (pigeon-int64; spec §12.3, "
                  "R12.3-1)");
    }
    if (some_entry(r, borrows)) {
        emit(ctx, "borrows its input: decoded values may be views into the caller's bytes, so the "
                  "ownership "
                  "check is skipped (borrows-input, P.2)");
    }
    if (r->n_without) {
        hosts_without_note(r, emit, ctx);
    }
    if (r->n_robust) {
        char line[256];
        snprintf(line, sizeof line,
                 "no depth-limit: %zu nesting vector%s checked for R1.4-8 only (a value or an "
                 "error, no crash, no hang); %zu accepted, decoded to a value (deep inputs and "
                 "bombs)",
                 r->n_robust, r->n_robust == 1 ? "" : "s", r->n_bombs_accepted);
        emit(ctx, line);
    }
}

bool smcj_status_has_details(smcj_status_t s)
{
    return smcj_status_is(s, SMCJ_STF_DETAILS);
}

size_t smcj_result_check(const smcj_result_t *res)
{
    return res->placement_check != SIZE_MAX ? res->placement_check : res->first_check;
}

static bool same_outcome(const smcj_alternative_t *a, const smcj_alternative_t *b)
{
    if (a->kind != b->kind) {
        return false;
    }
    if (a->kind == SMCJ_ALT_VALUE) {
        return strcmp(a->value_text, b->value_text) == 0;
    }
    return a->kind == SMCJ_ALT_ERROR && (a->cls == NULL) == (b->cls == NULL) &&
           (!a->cls || strcmp(a->cls, b->cls) == 0) && a->has_offset == b->has_offset &&
           (!a->has_offset || a->offset == b->offset);
}

char *smcj_alternative_who(const smcj_vector_t *v, int alt)
{
    smct_buf_t b = {0};
    for (size_t k = 0; alt >= 0 && k < v->n_alts; k++) {
        if (same_outcome(&v->alts[k], &v->alts[alt])) {
            smct_buf_printf(&b, "%s%s", b.len ? ", " : "", v->alts[k].who);
        }
    }
    return smcj_buf_take(&b);
}

char *smcj_alternative_text(const smcj_vector_t *v, const smcj_result_t *res)
{
    if (res->status != SMCJ_ST_DIFFERS) {
        return NULL;
    }
    if ((res->alt < 0 || (size_t)res->alt >= v->n_alts) && res->host_merge) {
        /* R7.3-2 permits it for any vector whose keys are equal by value for the host; the
         * vector need not list it (the notes list what other codecs do, not this) */
        return smcj_strdup("keeps one of the keys equal by value for a host with one integer "
                           "type, with the first or the last value (spec §7.3, R7.3-2)");
    }
    if (res->alt < 0 || (size_t)res->alt >= v->n_alts) {
        return smcj_strdup("none of the listed behaviours");
    }
    /* every listed behaviour with this outcome: "behaves like JAVA: ...; GLIB: ..." */
    smct_buf_t b = {0};
    smct_buf_puts(&b, "behaves like ");
    bool first = true;
    for (size_t k = 0; k < v->n_alts; k++) {
        if (same_outcome(&v->alts[k], &v->alts[res->alt])) {
            smct_buf_printf(&b, "%s%s: %s", first ? "" : "; ", v->alts[k].who,
                            v->alts[k].behaviour);
            first = false;
        }
    }
    return smcj_buf_take(&b);
}

char *smcj_placement_text(const smcj_vector_t *v, const smcj_result_t *res)
{
    if (res->placement_check == SIZE_MAX) {
        return NULL;
    }
    return smcj_asprintf(
        "placement (%s): %s at %u byte%s past an aligned address, right at an aligned one",
        smcj_tier_name(res->placement_tier),
        res->reason == SMCJ_REASON_NONE ? "skipped" : smcj_reason_name(res->reason), v->shift,
        v->shift == 1 ? "" : "s");
}

void smcj_buf_shown(smct_buf_t *b, const char *s)
{
    size_t n = strlen(s);
    if (n <= SMCJ_SHOWN_TEXT) {
        smcj_buf_safe_line(b, s, n);
        return;
    }
    size_t cut = SMCJ_SHOWN_TEXT;
    while (cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80) {
        cut--; /* never split a UTF-8 sequence */
    }
    smcj_buf_safe_line(b, s, cut);
    const char *kept = smcj_kept_marker(s); /* the size and hash of the whole value stay */
    if (kept) {
        smcj_buf_safe_line(b, kept, strlen(kept));
    } else {
        smct_buf_printf(b, "… (%zu bytes in all; see the JSON report)", n);
    }
}
