/*
 * `smc conformance`: the order of a run. Options (options.c), then the vectors (vectors.c),
 * the expected-failure lists (xfail.c), every runner at once (session.c), the per-vector
 * statuses and the gate (results.c), and last the reports. Anything wrong before the runners
 * start is a setup error (exit 2) with one message, so a gate never runs on a half-read suite.
 */
#define _POSIX_C_SOURCE 200809L
#include "judge.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "complexity.h"
#include "escape.h"
#include "smct_io.h"
#include "diag_probes.h"
#include "diagnosis.h"
#include "manifest.h"
#include "model.h"
#include "options.h"
#include "plan.h"
#include "proc.h"
#include "protocol_check.h"
#include "report_util.h"
#include "reports.h"
#include "results.h"
#include "sandbox.h"
#include "self_check.h"
#include "session.h"
#include "setup.h"
#include "verdict.h"
#include "vectors.h"
#include "vectors_dir.h"
#include "xfail.h"

static bool any_match(char **list, size_t n, const char *s, int mode)
{
    for (size_t i = 0; i < n; i++) {
        bool m = mode == 0   ? fnmatch(list[i], s, 0) == 0
                 : mode == 1 ? strcmp(list[i], s) == 0
                             : smcj_section_matches(s, list[i]);
        if (m) {
            return true;
        }
    }
    return false;
}

static void select_vectors(smcj_vectors_t *vs, const smcj_opts_t *o)
{
    vs->selected = 0;
    for (size_t i = 0; i < vs->count; i++) {
        smcj_vector_t *v = &vs->v[i];
        bool sel = true;
        sel = sel && (o->n_only == 0 || any_match(o->only, o->n_only, v->id, 0));
        /* --tier matches a vector any of whose checks has that tier (V.2 by_mode) */
        sel = sel &&
              (o->n_tiers == 0 || any_match(o->tiers, o->n_tiers, smcj_tier_name(v->tier), 1) ||
               any_match(o->tiers, o->n_tiers, smcj_tier_name(v->mode_tier[0]), 1) ||
               any_match(o->tiers, o->n_tiers, smcj_tier_name(v->mode_tier[1]), 1));
        sel = sel && (o->n_sections == 0 || any_match(o->sections, o->n_sections, v->section, 2));
        if (sel && o->n_features) {
            bool f = false;
            for (size_t k = 0; k < o->n_features && !f; k++) {
                f = smcj_vector_has_feature(v, o->features[k]);
            }
            sel = f;
        }
        v->selected = sel;
        vs->selected += sel;
    }
}

/* How replay lines invoke the judge: the absolute executable, plus `conformance` when the
 * smc CLI dispatched to us (argv[0] is then the subcommand name). */
static char *judge_invocation(const char *argv0)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    const char *base = argv0 ? strrchr(argv0, '/') : NULL;
    base = base ? base + 1 : argv0;
    bool sub = base && strcmp(base, "conformance") == 0;
    if (n <= 0) {
        return smcj_strdup("smc conformance");
    }
    exe[n] = '\0';
    smct_buf_t b = {0};
    smcj_buf_sh_quote(&b, exe);
    if (sub) {
        smct_buf_puts(&b, " conformance");
    }
    return smcj_buf_take(&b);
}

/* The vectors and expected-failure lists the run needs; false (message printed) if any is
 * missing or malformed. */
static bool load_inputs(smcj_opts_t *o, smcj_vectors_t *vs, char **dir)
{
    char err[1024];
    smct_buf_t tried = {0};
    *dir = smcj_vectors_dir_find(o->vectors, &tried);
    /* Out of memory is reported once, by smc_judge_main: not as a missing directory, or as
     * malformed vectors or lists, which the problems it causes would look like. */
    if (!*dir && smcj_buf_ok(&tried) && !smcj_out_of_memory()) {
        fprintf(stderr,
                "smc conformance: no vectors directory (give --vectors DIR or set "
                "SMC_VECTORS_DIR; looked in %s)\n",
                smcj_buf_text(&tried));
    }
    smct_buf_free(&tried);
    if (!*dir) {
        return false;
    }
    smct_buf_t errors = {0};
    bool loaded = smcj_vectors_load(vs, *dir, &errors);
    const char *problems = smcj_buf_text(&errors);
    const char *nl = strchr(problems, '\n');
    if (!loaded && !smcj_out_of_memory() && (!nl || !nl[1])) {
        /* one problem (a folder or file that cannot be read): a setup error, one line */
        fprintf(stderr, "smc conformance: setup error: %s%s", problems, nl ? "" : "\n");
    } else if (!loaded && !smcj_out_of_memory()) {
        fprintf(stderr, "smc conformance: refusing to run: the vectors in %s are malformed:\n%s",
                *dir, problems);
    }
    smct_buf_free(&errors);
    if (!loaded || smcj_out_of_memory()) {
        return false;
    }
    smcj_manifest_verify(vs); /* a modified set is reported and fails the gate (results.c) */
    if (vs->n_unknown_fields) {
        /* spec/vectors.md V.4: fields this judge does not know are ignored, never silently */
        fprintf(
            stderr,
            "smc conformance: warning: the vectors have field%s this judge does not know, ignored "
            "(spec/vectors.md V.4):",
            vs->n_unknown_fields == 1 ? "" : "s");
        for (size_t i = 0; i < vs->n_unknown_fields; i++) {
            fprintf(stderr, "%s %s", i ? "," : "", vs->unknown_fields[i]);
        }
        fputc('\n', stderr);
    }
    select_vectors(vs, o);
    if (vs->selected == 0) {
        fprintf(stderr, "smc conformance: no vector matches the filters (%zu vectors loaded)\n",
                vs->count);
        return false;
    }
    for (size_t i = 0; i < o->n_runners; i++) {
        smcj_runner_t *r = &o->runners[i];
        if (!r->xfail_path) {
            continue;
        }
        if (!smcj_xfail_load(&r->xfail, r->xfail_path, err, sizeof err) ||
            !smcj_xfail_expand(&r->xfail, vs, err, sizeof err)) {
            if (!smcj_out_of_memory()) {
                fprintf(stderr, "smc conformance: %s\n", err);
            }
            smcj_xfail_free(&r->xfail);
            return false;
        }
        r->has_xfail = true;
    }
    return true;
}

/* --replay-dir, else replay/ beside the first report file (the report folder), else none. */
static char *replay_dir_of(const smcj_opts_t *o)
{
    if (o->replay_dir) {
        return smcj_strdup(o->replay_dir);
    }
    const char *report = o->json ? o->json : o->html ? o->html : o->junit;
    if (!report) {
        return NULL;
    }
    const char *slash = strrchr(report, '/');
    if (!slash) {
        return smcj_strdup("replay");
    }
    return smcj_asprintf("%.*s/replay", (int)(slash - report), report);
}

/* Everything of the judge's own a runner must not reach (sandbox.h): the reports, the
 * expected-failure lists, the vector files, the replay folder, and the --sandbox-hide paths. */
static bool sandbox_start(smcj_sandbox_t *sb, const smcj_opts_t *o, const smcj_vectors_t *vs,
                          const char *replay_dir)
{
    size_t n = 0, cap = o->n_sandbox_hide + 2 * o->n_runners + vs->n_files + 7;
    char **hide = smcj_calloc(cap, sizeof *hide);
    char err[1024];
    bool ok = hide != NULL;
    const char *own[] = {o->json, o->junit, o->html, o->text, replay_dir};
    for (size_t k = 0; ok && k < sizeof own / sizeof own[0]; k++) {
        ok = !own[k] || (hide[n++] = smcj_strdup(own[k])) != NULL;
    }
    for (size_t i = 0; ok && i < o->n_runners; i++) {
        const smcj_runner_t *r = &o->runners[i];
        ok = (!r->xfail_path || (hide[n++] = smcj_strdup(r->xfail_path)) != NULL) &&
             (!r->write_xfail_path || (hide[n++] = smcj_strdup(r->write_xfail_path)) != NULL);
    }
    for (size_t i = 0; ok && i <= vs->n_files; i++) {
        hide[n] = i < vs->n_files ? smcj_strdup(vs->files[i])
                                  : smcj_asprintf("%s/MANIFEST.json", vs->dir);
        ok = hide[n++] != NULL;
    }
    for (size_t i = 0; ok && i < o->n_sandbox_hide; i++) {
        ok = (hide[n++] = smcj_strdup(o->sandbox_hide[i])) != NULL;
    }
    ok = ok && smcj_sandbox_prepare(sb, o->sandbox, hide, n, o->sandbox_write, o->n_sandbox_write,
                                    err, sizeof err);
    smcj_free_strs(hide, n);
    if (!ok && !smcj_out_of_memory()) {
        fprintf(stderr, "smc conformance: setup error: %s\n", err);
    } else if (ok && !sb->used && o->sandbox != SMCJ_SANDBOX_NONE) {
        /* said before anything runs: a log read from the top shows it first */
        fprintf(stderr, "smc conformance: no sandbox for the runners: %s\n", sb->note);
    }
    smcj_proc_set_wrapper(ok && sb->used ? sb->words : NULL);
    return ok;
}

/* The run record the sessions fill and the reports read. */
static void start_run(smcj_run_t *run, smcj_opts_t *o, smcj_vectors_t *vs, const char *argv0)
{
    run->vectors = vs;
    run->runners = o->runners;
    run->n_runners = o->n_runners;
    run->gate = o->gate;
    run->allow_xfail_crashes = o->allow_xfail_crashes;
    run->allow_modified_vectors = o->allow_modified_vectors;
    run->timeout = o->timeout;
    run->max_run_time = o->max_run_time;
    run->max_timeouts = (unsigned)o->max_timeouts;
    run->max_restarts = (unsigned)o->max_restarts;
    run->max_restarts_per_vector = (unsigned)o->max_restarts_per_vector;
    run->memory_limit = (uint64_t)o->memory_limit;
    run->max_details = (int)o->max_details;
    run->list_na = o->list_na;
    run->argv0 = judge_invocation(argv0);
    char ts[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
    run->started_at = smcj_strdup(ts);
    run->replay_dir = replay_dir_of(o);
}

/* Replay files written at most, in all: a run of a hostile runner with big vectors must not
 * fill the disk. */
#define REPLAY_BUDGET ((size_t)512u << 20)

/* Failing checks whose request is too long for a command line get a replay file in the
 * replay folder, named after runner, vector and check (all plain words). */
static void plan_replays(smcj_run_t *run)
{
    size_t budget = REPLAY_BUDGET;
    smct_buf_t req = {0};
    for (size_t ri = 0; run->replay_dir && ri < run->n_runners; ri++) {
        smcj_runner_t *r = &run->runners[ri];
        for (size_t k = 0; k < r->n_checks && !smcj_out_of_memory(); k++) {
            smcj_check_t *c = &r->checks[k];
            if (c->outcome != SMCJ_OUT_FAIL || c->kind == SMCJ_CHECK_HANDSHAKE) {
                continue;
            }
            smct_buf_clear(&req);
            smcj_request_line(&req, 1, r, run->vectors, c);
            if (smcj_buf_ok(&req) && req.len > SMCJ_RAW_INLINE && req.len < budget) {
                c->replay_file = smcj_asprintf("%s/%s-%s-%zu.jsonl", run->replay_dir, r->name,
                                               run->vectors->v[c->vector].id, k);
                budget -= req.len;
            }
        }
    }
    smct_buf_free(&req);
}

/* mkdir -p */
static bool make_dirs(const char *dir, char *err, size_t err_size)
{
    char *p = smcj_strdup(dir);
    for (char *s = p ? p + 1 : NULL; s && *s; s++) {
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0777);
            *s = '/';
        }
    }
    bool ok = p && (mkdir(p, 0777) == 0 || errno == EEXIST);
    if (!ok && p) {
        snprintf(err, err_size, "cannot create %s: %s", dir, strerror(errno));
    }
    free(p);
    return ok;
}

/* Every planned replay file; false (each failure printed) if one could not be written. */
static bool write_replays(const smcj_run_t *run)
{
    bool ok = true, made = false;
    smct_buf_t text = {0};
    char err[1024];
    for (size_t ri = 0; ri < run->n_runners; ri++) {
        const smcj_runner_t *r = &run->runners[ri];
        for (size_t k = 0; k < r->n_checks; k++) {
            const smcj_check_t *c = &r->checks[k];
            if (!c->replay_file) {
                continue;
            }
            if (!made && !(made = make_dirs(run->replay_dir, err, sizeof err))) {
                fprintf(stderr, "smc conformance: %s\n", err);
                smct_buf_free(&text);
                return false;
            }
            smct_buf_clear(&text);
            smcj_replay_lines(&text, run, r, c);
            if (!smcj_buf_ok(&text) ||
                smct_write_file(c->replay_file, text.data, text.len, err, sizeof err) != SMCT_OK) {
                fprintf(stderr, "smc conformance: %s\n",
                        smcj_out_of_memory() ? "out of memory" : err);
                ok = false;
            }
        }
    }
    smct_buf_free(&text);
    return ok;
}

/* One output: a --write-xfail list or a report file (path), or the text report (NULL). */
typedef struct output {
    const char *path;
    smct_buf_t text;
} output_t;

static void free_outputs(output_t *outs, size_t n)
{
    for (size_t k = 0; outs && k < n; k++) {
        smct_buf_free(&outs[k].text);
    }
    free(outs);
}

/* --write-xfail lists, the text report and the report files, in the order they are written,
 * all built in memory first: running out of memory while building them writes nothing, as
 * no report is better than a partial one. NULL (out of memory recorded) if they cannot all
 * be built. */
static output_t *build_outputs(const smcj_run_t *run, const smcj_opts_t *o, size_t *n_out)
{
    output_t *outs = smcj_calloc(o->n_runners + 4, sizeof *outs);
    size_t n = 0;
    if (!outs) {
        return NULL;
    }
    for (size_t i = 0; i < o->n_runners; i++) {
        const smcj_runner_t *r = &o->runners[i];
        if (r->write_xfail_path && r->results) {
            outs[n].path = r->write_xfail_path;
            smcj_xfail_format(&outs[n++].text, r, run->vectors, o->gate == SMCJ_GATE_ALL);
        }
    }
    /* one model of the run, read by every writer: their counts cannot disagree */
    smcj_report_model_t model;
    if (smcj_report_model_build(&model, run)) {
        outs[n].path = o->text; /* NULL: stdout */
        smcj_report_text(&outs[n++].text, &model);
        const char *paths[] = {o->json, o->junit, o->html};
        void (*writers[])(smct_buf_t *, const smcj_report_model_t *) = {
            smcj_report_json, smcj_report_junit, smcj_report_html};
        for (size_t k = 0; k < 3; k++) {
            if (paths[k]) {
                outs[n].path = paths[k];
                writers[k](&outs[n++].text, &model);
            }
        }
    }
    smcj_report_model_free(&model);
    *n_out = n;
    bool ok = !smcj_out_of_memory();
    for (size_t k = 0; k < n; k++) {
        ok = smcj_buf_ok(&outs[k].text) && ok; /* records out of memory */
    }
    if (!ok) {
        free_outputs(outs, n);
        return NULL;
    }
    return outs;
}

/* Write every output in order; false if a file could not be written (each failure printed).
 * Like before files, the text report goes to stdout (unless --text), whose errors (a closed
 * pipe) do not change the verdict. */
static bool write_outputs(const smcj_opts_t *o, const output_t *outs, size_t n)
{
    bool io_ok = true;
    for (size_t i = 0; i < o->n_runners; i++) {
        const smcj_runner_t *r = &o->runners[i];
        if (r->write_xfail_path && !r->results) {
            fprintf(stderr, "smc conformance: not writing %s: runner %s did not run\n",
                    r->write_xfail_path, r->name);
        }
    }
    for (size_t k = 0; k < n; k++) {
        char err[1024];
        if (outs[k].path == NULL) {
            fwrite(outs[k].text.data, 1, outs[k].text.len, stdout);
            fflush(stdout);
        } else if (smct_write_file(outs[k].path, outs[k].text.data, outs[k].text.len, err,
                                   sizeof err) != SMCT_OK) {
            fprintf(stderr, "smc conformance: %s\n", err);
            io_ok = false;
        }
    }
    return io_ok;
}

static void free_run(smcj_run_t *run)
{
    for (size_t i = 0; i < run->n_gate_notes; i++) {
        free(run->gate_notes[i]);
    }
    free(run->gate_notes);
    free(run->argv0);
    free(run->started_at);
    free(run->replay_dir);
}

/* The longest answer a right runner can give is a round trip of the longest input: its
 * value (a string of control characters is written as \u00XX, 6 bytes per byte) and its
 * bytes again (2 hex digits per byte). Unless --max-line says otherwise, lines up to 8 bytes
 * per input byte are taken, never less than 64 MiB. */
static size_t default_max_line(const smcj_vectors_t *vs, size_t given)
{
    size_t longest = 0;
    for (size_t i = 0; i < vs->count; i++) {
        const smcj_vector_t *v = &vs->v[i];
        size_t n = v->canonical_len > v->len ? v->canonical_len : v->len;
        for (size_t k = 0; k < v->n_accepted; k++) {
            n = v->accepted[k].len > n ? v->accepted[k].len : n;
        }
        longest = n > longest ? n : longest;
    }
    size_t want = longest <= (SIZE_MAX - (1u << 20)) / 8 ? 8 * longest + (1u << 20) : SIZE_MAX;
    return want > given ? want : given;
}

int smc_judge_main(int argc, char **argv)
{
    smcj_ignore_sigpipe();
    smcj_alloc_reset();
    smcj_opts_t o;
    smcj_opts_init(&o);
    char err[1024];
    int status = 2;
    smcj_vectors_t vs;
    memset(&vs, 0, sizeof vs);
    smcj_run_t run;
    memset(&run, 0, sizeof run);
    char *dir = NULL;
    smcj_cx_families_t cx_families;
    memset(&cx_families, 0, sizeof cx_families);
    smcj_sandbox_t sandbox;
    memset(&sandbox, 0, sizeof sandbox);

    int pr = smcj_opts_parse(&o, argc, argv, err, sizeof err);
    if (pr != 0) {
        if (pr < 0 && !smcj_out_of_memory()) {
            fprintf(stderr, "smc conformance: %s\n(see smc conformance --help)\n", err);
        }
        status = pr > 0 ? 0 : 2;
        goto out;
    }
    if (!smcj_opts_attach_lists(&o, err, sizeof err)) {
        if (!smcj_out_of_memory()) {
            fprintf(stderr, "smc conformance: %s\n", err);
        }
        goto out;
    }
    if (!smcj_setup_check(&o, err, sizeof err)) {
        fprintf(stderr, "smc conformance: setup error: %s\n", err);
        goto out;
    }
    if (!load_inputs(&o, &vs, &dir)) {
        goto out;
    }
    if (!o.no_complexity &&
        !smcj_cx_load_for_run(&cx_families, o.complexity, dir, err, sizeof err)) {
        fprintf(stderr, "smc conformance: setup error: %s\n", err);
        goto out;
    }
    start_run(&run, &o, &vs, argc > 0 ? argv[0] : NULL);
    run.complexity_skipped = o.no_complexity;
    run.complexity = cx_families.n ? &cx_families : NULL;
    if (smcj_out_of_memory() || !sandbox_start(&sandbox, &o, &vs, run.replay_dir)) {
        goto out;
    }
    run.sandboxed = sandbox.used;
    run.sandbox_note = sandbox.note;
    /* the run room sends and reads; the checks and the verdicts are the rooms above it */
    static const smcj_session_hooks_t hooks = {smcj_plan, smcj_plan_all_failed, smcj_self_prepare,
                                               smcj_request_line, smcj_verdict};
    smcj_session_cfg_t cfg = {o.timeout,
                              o.start_timeout,
                              (size_t)o.window,
                              o.max_line_given ? (size_t)o.max_line
                                               : default_max_line(&vs, (size_t)o.max_line),
                              o.progress == 1 || (o.progress == -1 && isatty(2)),
                              o.max_run_time,
                              (unsigned)o.max_timeouts,
                              (unsigned)o.max_restarts,
                              (unsigned)o.max_restarts_per_vector,
                              (uint64_t)o.memory_limit,
                              &hooks};
    smcj_catch_interrupts(false);
    smcj_sessions_run(&run, &cfg);
    if (run.complexity && !smcj_interrupted() && !smcj_out_of_memory()) {
        smcj_cx_run(&run, run.complexity, 4 * o.timeout); /* spec §15.4 */
    }
    smcj_catch_interrupts(true);
    if (smcj_interrupted()) {
        fprintf(stderr, "smc conformance: interrupted by signal %d; runners killed, no report\n",
                smcj_interrupted());
        goto out;
    }
    if (smcj_out_of_memory()) {
        goto out; /* the sessions have killed and reaped every runner */
    }
    smcj_results_compute(&run);
    smcj_cx_gate(&run);
    plan_replays(&run);
    if (!o.no_diagnosis && !smcj_out_of_memory()) {
        smcj_catch_interrupts(false);
        if (o.no_probes) {
            smcj_diag_probes_off(&run);
        } else {
            smcj_diag_probes_run(&run, &cfg); /* after every verdict: none of them changes */
        }
        smcj_catch_interrupts(true);
        if (smcj_interrupted()) {
            fprintf(stderr,
                    "smc conformance: interrupted by signal %d; runners killed, no report\n",
                    smcj_interrupted());
            goto out;
        }
        smcj_diagnose_run(&run); /* explains failures; never changes a verdict */
    }
    size_t n_out = 0;
    output_t *outs = smcj_out_of_memory() ? NULL : build_outputs(&run, &o, &n_out);
    if (outs) {
        bool replays = write_replays(&run);
        status = write_outputs(&o, outs, n_out) && replays ? run.exit_status : 2;
        free_outputs(outs, n_out);
    }

out:
    if (smcj_out_of_memory()) {
        fprintf(stderr, "smc conformance: out of memory; runners killed, no report\n");
        status = 2;
    }
    smcj_proc_set_wrapper(NULL);
    smcj_sandbox_free(&sandbox);
    smcj_opts_free(&o);
    free_run(&run);
    free(dir);
    smcj_vectors_free(&vs);
    smcj_cx_families_free(&cx_families);
    smcj_protocol_schema_free();
    return status;
}
