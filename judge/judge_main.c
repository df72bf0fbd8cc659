/* `smc conformance`: options, vector loading, runner sessions, verdicts, reports. */
#define _POSIX_C_SOURCE 200809L
#include "judge.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "jbuf.h"
#include "model.h"
#include "proc.h"
#include "reports.h"
#include "results.h"
#include "session.h"
#include "vectors.h"
#include "xfail.h"

static const char k_usage[] =
    "usage: smc conformance [options]\n"
    "Run codec runners (runners/PROTOCOL.md) against the golden vectors and report.\n"
    "\n"
    "Vectors and runners:\n"
    "  --vectors DIR            vector directory (default: $SMC_VECTORS_DIR, ./vectors, or near "
    "the executable)\n"
    "  --runner NAME=COMMAND    a runner, started with /bin/sh -c COMMAND (repeatable)\n"
    "  --skip-runner NAME=WHY   list a runner as skipped with a reason, without starting it "
    "(repeatable)\n"
    "  --timeout SECONDS        per-request timeout (default 5)\n"
    "  --start-timeout SECONDS  timeout of a handshake (default 30: JVMs start slowly)\n"
    "  --window N               requests in flight per runner (default 64)\n"
    "  --max-line BYTES         longest response line accepted (default 64 MiB; longer is "
    "protocol_error)\n"
    "Selection (a vector must pass every kind of filter given; repeat a filter to allow several "
    "values):\n"
    "  --only ID-GLOB           vector ids (fnmatch)\n"
    "  --tier TIER              required | recommended | implementation-defined\n"
    "  --feature WORD           vectors whose features include WORD\n"
    "  --section S              spec section prefix: 6 matches 6 and 6.2, not 16.1\n"
    "Verdict:\n"
    "  --gate required|recommended|all   tiers whose failures fail the run (default recommended)\n"
    "  --xfail NAME=FILE        expected failures of runner NAME (lines `vector-id  # reason`, "
    "globs allowed)\n"
    "  --write-xfail NAME=FILE  write NAME's corrected expected-failure list (current failures, "
    "old reasons kept)\n"
    "Reports:\n"
    "  --json FILE  --junit FILE  --html FILE   machine-readable, JUnit XML, self-contained HTML\n"
    "  --max-details N          failure details printed on stdout (default 20)\n"
    "  --list-na                list every not-applicable vector with its reason (default: counts "
    "per reason)\n"
    "  --progress | --no-progress   progress line on stderr (default: when stderr is a terminal)\n"
    "\n"
    "Exit status: 0 gate passed, 1 gate failed, 2 usage or setup error (including a runner that "
    "could not start).\n";

typedef struct opts {
    const char *vectors;
    smcj_runner_t *runners;
    size_t n_runners;
    char **only, **tiers, **features, **sections;
    size_t n_only, n_tiers, n_features, n_sections;
    char **xfail_specs, **write_specs;
    size_t n_xfail, n_write;
    const char *json, *junit, *html;
    double timeout, start_timeout;
    long window;
    long max_details;
    long max_line;
    int progress; /* -1 auto */
    bool list_na;
    smcj_gate_t gate;
} opts_t;

static void push(char ***arr, size_t *n, const char *s)
{
    *arr = smcj_xrealloc(*arr, (*n + 1) * sizeof(char *));
    (*arr)[(*n)++] = smcj_xstrdup(s);
}

static bool valid_name(const char *s, size_t n)
{
    if (n == 0) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-' || c == '.')) {
            return false;
        }
    }
    return true;
}

static smcj_runner_t *find_runner(opts_t *o, const char *name, size_t n)
{
    for (size_t i = 0; i < o->n_runners; i++) {
        if (strlen(o->runners[i].name) == n && strncmp(o->runners[i].name, name, n) == 0) {
            return &o->runners[i];
        }
    }
    return NULL;
}

static bool add_runner(opts_t *o, const char *spec, bool skip, char *err, size_t err_size)
{
    const char *eq = strchr(spec, '=');
    if (!eq || !valid_name(spec, (size_t)(eq - spec)) || eq[1] == '\0') {
        snprintf(err, err_size, "%s wants NAME=%s (NAME: letters, digits, _ . -), got `%s`",
                 skip ? "--skip-runner" : "--runner", skip ? "REASON" : "COMMAND", spec);
        return false;
    }
    size_t n = (size_t)(eq - spec);
    if (find_runner(o, spec, n)) {
        snprintf(err, err_size, "runner `%.*s` given twice", (int)n, spec);
        return false;
    }
    o->runners = smcj_xrealloc(o->runners, (o->n_runners + 1) * sizeof *o->runners);
    smcj_runner_t *r = &o->runners[o->n_runners++];
    memset(r, 0, sizeof *r);
    r->name = smcj_xstrndup(spec, n);
    if (skip) {
        r->skip_reason = smcj_xstrdup(eq + 1);
    } else {
        r->command = smcj_xstrdup(eq + 1);
    }
    return true;
}

static bool parse_number(const char *s, double *out)
{
    char *end;
    double d = strtod(s, &end);
    if (end == s || *end != '\0' || !(d > 0) || d > 86400) {
        return false;
    }
    *out = d;
    return true;
}

static bool parse_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < lo || v > hi) {
        return false;
    }
    *out = v;
    return true;
}

/* 0 ok, 1 help printed, -1 error (message in err). */
static int parse_args(opts_t *o, int argc, char **argv, char *err, size_t err_size)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(k_usage, stdout);
            return 1;
        }
        if (strcmp(a, "--list-na") == 0) {
            o->list_na = true;
            continue;
        }
        if (strcmp(a, "--progress") == 0) {
            o->progress = 1;
            continue;
        }
        if (strcmp(a, "--no-progress") == 0) {
            o->progress = 0;
            continue;
        }
        if (strncmp(a, "--", 2) != 0) {
            snprintf(err, err_size, "unexpected argument `%s`", a);
            return -1;
        }
        /* --opt VALUE or --opt=VALUE */
        static const char *const k_value_options[] = {
            "--vectors", "--runner",   "--skip-runner", "--timeout", "--start-timeout",
            "--window",  "--max-line", "--max-details", "--gate",    "--only",
            "--tier",    "--feature",  "--section",     "--xfail",   "--write-xfail",
            "--json",    "--junit",    "--html"};
        char name[64];
        const char *val;
        const char *eq = strchr(a, '=');
        snprintf(name, sizeof name, "%.*s", eq ? (int)(eq - a) : (int)strlen(a), a);
        bool known = false;
        for (size_t k = 0; k < sizeof k_value_options / sizeof k_value_options[0]; k++) {
            known = known || strcmp(name, k_value_options[k]) == 0;
        }
        if (!known) {
            snprintf(err, err_size, "unknown option `%s`", name);
            return -1;
        }
        if (eq) {
            val = eq + 1;
        } else {
            if (i + 1 >= argc) {
                snprintf(err, err_size, "%s needs a value", a);
                return -1;
            }
            val = argv[++i];
        }
        bool ok = true;
        if (strcmp(name, "--vectors") == 0) {
            o->vectors = val;
        } else if (strcmp(name, "--runner") == 0 || strcmp(name, "--skip-runner") == 0) {
            if (!add_runner(o, val, strcmp(name, "--skip-runner") == 0, err, err_size)) {
                return -1;
            }
        } else if (strcmp(name, "--timeout") == 0) {
            ok = parse_number(val, &o->timeout);
        } else if (strcmp(name, "--start-timeout") == 0) {
            ok = parse_number(val, &o->start_timeout);
        } else if (strcmp(name, "--window") == 0) {
            ok = parse_long(val, 1, 100000, &o->window);
        } else if (strcmp(name, "--max-line") == 0) {
            ok = parse_long(val, 1024, 1L << 30, &o->max_line);
        } else if (strcmp(name, "--max-details") == 0) {
            ok = parse_long(val, 0, 1000000, &o->max_details);
        } else if (strcmp(name, "--gate") == 0) {
            if (strcmp(val, "required") == 0) {
                o->gate = SMCJ_GATE_REQUIRED;
            } else if (strcmp(val, "recommended") == 0) {
                o->gate = SMCJ_GATE_RECOMMENDED;
            } else if (strcmp(val, "all") == 0) {
                o->gate = SMCJ_GATE_ALL;
            } else {
                ok = false;
            }
        } else if (strcmp(name, "--only") == 0) {
            push(&o->only, &o->n_only, val);
        } else if (strcmp(name, "--tier") == 0) {
            ok = strcmp(val, "required") == 0 || strcmp(val, "recommended") == 0 ||
                 strcmp(val, "implementation-defined") == 0;
            push(&o->tiers, &o->n_tiers, val);
        } else if (strcmp(name, "--feature") == 0) {
            push(&o->features, &o->n_features, val);
        } else if (strcmp(name, "--section") == 0) {
            push(&o->sections, &o->n_sections, val);
        } else if (strcmp(name, "--xfail") == 0) {
            push(&o->xfail_specs, &o->n_xfail, val);
        } else if (strcmp(name, "--write-xfail") == 0) {
            push(&o->write_specs, &o->n_write, val);
        } else if (strcmp(name, "--json") == 0) {
            o->json = val;
        } else if (strcmp(name, "--junit") == 0) {
            o->junit = val;
        } else if (strcmp(name, "--html") == 0) {
            o->html = val;
        } else {
            snprintf(err, err_size, "unknown option `%s`", name);
            return -1;
        }
        if (!ok) {
            snprintf(err, err_size, "bad value for %s: `%s`", name, val);
            return -1;
        }
    }
    if (o->n_runners == 0) {
        snprintf(err, err_size, "no runner given (--runner NAME=COMMAND)");
        return -1;
    }
    return 0;
}

/* Attach --xfail / --write-xfail paths to their runners. */
static bool attach_lists(opts_t *o, char **specs, size_t n, bool write, char *err, size_t err_size)
{
    for (size_t k = 0; k < n; k++) {
        const char *eq = strchr(specs[k], '=');
        smcj_runner_t *r = eq ? find_runner(o, specs[k], (size_t)(eq - specs[k])) : NULL;
        if (!r || eq[1] == '\0') {
            snprintf(err, err_size,
                     "%s `%s`: want NAME=FILE with NAME a runner given by --runner/--skip-runner",
                     write ? "--write-xfail" : "--xfail", specs[k]);
            return false;
        }
        char **slot = write ? &r->write_xfail_path : &r->xfail_path;
        if (*slot) {
            snprintf(err, err_size, "two %s lists for runner `%s`",
                     write ? "--write-xfail" : "--xfail", r->name);
            return false;
        }
        *slot = smcj_xstrdup(eq + 1);
    }
    return true;
}

static bool dir_has_vectors(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        return false;
    }
    bool found = false;
    struct dirent *de;
    while (!found && (de = readdir(d)) != NULL) {
        found = fnmatch("s[0-9][0-9]-*.json", de->d_name, 0) == 0;
    }
    closedir(d);
    return found;
}

/* --vectors, $SMC_VECTORS_DIR, ./vectors, then `vectors/` in the executable's directory or its
 * parents. */
static char *resolve_vectors_dir(const char *given)
{
    if (given) {
        return smcj_xstrdup(given);
    }
    const char *env = getenv("SMC_VECTORS_DIR");
    if (env && *env) {
        return smcj_xstrdup(env);
    }
    if (dir_has_vectors("vectors")) {
        return smcj_xstrdup("vectors");
    }
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        for (int up = 0; up < 6; up++) {
            char *slash = strrchr(exe, '/');
            if (!slash) {
                break;
            }
            *slash = '\0';
            char *cand = smcj_xasprintf("%s/vectors", exe[0] ? exe : "/");
            if (dir_has_vectors(cand)) {
                return cand;
            }
            free(cand);
            cand = smcj_xasprintf("%s/share/smc/vectors", exe[0] ? exe : "/");
            if (dir_has_vectors(cand)) {
                return cand;
            }
            free(cand);
        }
    }
    return NULL;
}

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

static void select_vectors(smcj_vectors_t *vs, const opts_t *o)
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
        return smcj_xstrdup("smc conformance");
    }
    exe[n] = '\0';
    smcj_buf_t b = {0};
    smcj_buf_sh_quote(&b, exe);
    if (sub) {
        smcj_buf_puts(&b, " conformance");
    }
    return smcj_buf_steal(&b);
}

static void free_strs(char **a, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(a[i]);
    }
    free(a);
}

static void free_runner(smcj_runner_t *r)
{
    free(r->name);
    free(r->command);
    free(r->skip_reason);
    free(r->xfail_path);
    free(r->write_xfail_path);
    if (r->has_xfail) {
        smcj_xfail_free(&r->xfail);
    }
    free(r->start_error);
    free(r->codec_name);
    free(r->handshake_note);
    free(r->codec_version);
    free(r->codec_language);
    free_strs(r->decode_caps, r->n_decode_caps);
    free_strs(r->encode_caps, r->n_encode_caps);
    for (size_t k = 0; k < r->n_checks; k++) {
        smcj_check_t *c = &r->checks[k];
        free(c->detail);
        free(c->expected);
        free(c->actual);
        free(c->exp_bytes);
        free(c->act_bytes);
        free(c->stderr_tail);
    }
    free(r->checks);
    free(r->results);
    free(r->stderr_tail);
}

static bool write_report(const char *path, void (*writer)(smcj_buf_t *, const smcj_run_t *),
                         const smcj_run_t *run)
{
    smcj_buf_t b = {0};
    writer(&b, run);
    char err[512];
    bool ok = smcj_write_file(path, &b, err, sizeof err);
    if (!ok) {
        fprintf(stderr, "smc conformance: %s\n", err);
    }
    smcj_buf_free(&b);
    return ok;
}

int smc_judge_main(int argc, char **argv)
{
    smcj_ignore_sigpipe();
    opts_t o;
    memset(&o, 0, sizeof o);
    o.timeout = 5.0;
    o.start_timeout = 30.0;
    o.window = 64;
    o.max_details = 20;
    o.max_line = 64L << 20;
    o.progress = -1;
    o.gate = SMCJ_GATE_RECOMMENDED;
    char err[1024];
    int status = 2;
    smcj_vectors_t vs;
    memset(&vs, 0, sizeof vs);
    smcj_run_t run;
    memset(&run, 0, sizeof run);
    char *dir = NULL;

    int pr = parse_args(&o, argc, argv, err, sizeof err);
    if (pr != 0) {
        if (pr < 0) {
            fprintf(stderr, "smc conformance: %s\n(see smc conformance --help)\n", err);
        }
        status = pr > 0 ? 0 : 2;
        goto out;
    }
    if (!attach_lists(&o, o.xfail_specs, o.n_xfail, false, err, sizeof err) ||
        !attach_lists(&o, o.write_specs, o.n_write, true, err, sizeof err)) {
        fprintf(stderr, "smc conformance: %s\n", err);
        goto out;
    }
    dir = resolve_vectors_dir(o.vectors);
    if (!dir) {
        fprintf(
            stderr,
            "smc conformance: no vectors directory (give --vectors DIR or set SMC_VECTORS_DIR)\n");
        goto out;
    }
    smcj_buf_t errors = {0};
    if (!smcj_vectors_load(&vs, dir, &errors)) {
        fprintf(stderr, "smc conformance: refusing to run: the vectors in %s are malformed:\n%s",
                dir, errors.data ? errors.data : "");
        smcj_buf_free(&errors);
        goto out;
    }
    smcj_buf_free(&errors);
    if (vs.n_unknown_fields) {
        /* spec/vectors.md V.4: fields this judge does not know are ignored, never silently */
        fprintf(
            stderr,
            "smc conformance: warning: the vectors have field%s this judge does not know, ignored "
            "(spec/vectors.md V.4):",
            vs.n_unknown_fields == 1 ? "" : "s");
        for (size_t i = 0; i < vs.n_unknown_fields; i++) {
            fprintf(stderr, "%s %s", i ? "," : "", vs.unknown_fields[i]);
        }
        fputc('\n', stderr);
    }
    select_vectors(&vs, &o);
    if (vs.selected == 0) {
        fprintf(stderr, "smc conformance: no vector matches the filters (%zu vectors loaded)\n",
                vs.count);
        goto out;
    }
    for (size_t i = 0; i < o.n_runners; i++) {
        smcj_runner_t *r = &o.runners[i];
        if (!r->xfail_path) {
            continue;
        }
        if (!smcj_xfail_load(&r->xfail, r->xfail_path, err, sizeof err) ||
            !smcj_xfail_expand(&r->xfail, &vs, err, sizeof err)) {
            fprintf(stderr, "smc conformance: %s\n", err);
            smcj_xfail_free(&r->xfail);
            goto out;
        }
        r->has_xfail = true;
    }

    run.vectors = &vs;
    run.runners = o.runners;
    run.n_runners = o.n_runners;
    run.gate = o.gate;
    run.timeout = o.timeout;
    run.max_details = (int)o.max_details;
    run.list_na = o.list_na;
    run.argv0 = judge_invocation(argc > 0 ? argv[0] : NULL);
    char ts[32];
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%SZ", &tm);
    run.started_at = smcj_xstrdup(ts);

    smcj_session_cfg_t cfg = {o.timeout, o.start_timeout, (size_t)o.window, (size_t)o.max_line,
                              o.progress == 1 || (o.progress == -1 && isatty(2))};
    smcj_catch_interrupts(false);
    smcj_sessions_run(&run, &cfg);
    smcj_catch_interrupts(true);
    if (smcj_interrupted()) {
        fprintf(stderr, "smc conformance: interrupted by signal %d; runners killed, no report\n",
                smcj_interrupted());
        status = 2;
        goto out;
    }
    smcj_results_compute(&run);

    bool io_ok = true;
    for (size_t i = 0; i < o.n_runners; i++) {
        smcj_runner_t *r = &o.runners[i];
        if (!r->write_xfail_path) {
            continue;
        }
        if (!r->results) {
            fprintf(stderr, "smc conformance: not writing %s: runner %s did not run\n",
                    r->write_xfail_path, r->name);
            continue;
        }
        if (!smcj_xfail_write(r, &vs, r->write_xfail_path, o.gate == SMCJ_GATE_ALL, err,
                              sizeof err)) {
            fprintf(stderr, "smc conformance: %s\n", err);
            io_ok = false;
        }
    }
    smcj_buf_t text = {0};
    smcj_report_text(&text, &run);
    fwrite(text.data, 1, text.len, stdout);
    fflush(stdout);
    smcj_buf_free(&text);
    if (o.json) {
        io_ok = write_report(o.json, smcj_report_json, &run) && io_ok;
    }
    if (o.junit) {
        io_ok = write_report(o.junit, smcj_report_junit, &run) && io_ok;
    }
    if (o.html) {
        io_ok = write_report(o.html, smcj_report_html, &run) && io_ok;
    }
    status = io_ok ? run.exit_status : 2;

out:
    for (size_t i = 0; i < o.n_runners; i++) {
        free_runner(&o.runners[i]);
    }
    free(o.runners);
    free_strs(o.only, o.n_only);
    free_strs(o.tiers, o.n_tiers);
    free_strs(o.features, o.n_features);
    free_strs(o.sections, o.n_sections);
    free_strs(o.xfail_specs, o.n_xfail);
    free_strs(o.write_specs, o.n_write);
    free_strs(run.gate_notes, run.n_gate_notes);
    free(run.argv0);
    free(run.started_at);
    free(dir);
    smcj_vectors_free(&vs);
    return status;
}
