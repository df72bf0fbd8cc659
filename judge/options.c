/*
 * The command line of `smc conformance`. Every option is checked here, before anything
 * starts: a typo must be a usage error (exit 2), never a run with a default the user did not
 * mean, since a CI gate would then pass or fail for the wrong reason.
 */
#define _POSIX_C_SOURCE 200809L
#include "options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "escape.h"
#include "profile.h"

static const char k_usage[] =
    "usage: smc conformance [options]\n"
    "Run codec runners (runners/PROTOCOL.md) against the golden vectors and report.\n"
    "\n"
    "Vectors and runners:\n"
    "  --vectors DIR            vector directory (default: $SMC_VECTORS_DIR, else the installed "
    "share/smc/vectors, else a checkout's, else ./vectors)\n"
    "  --runner NAME=COMMAND    a runner, started with /bin/sh -c COMMAND (repeatable)\n"
    "  --allow-modified-vectors run a set that is not the released one (MANIFEST.json); "
    "stated in every\n"
    "                           report (default: such a set fails the gate)\n"
    "  --skip-runner NAME=WHY   list a runner as skipped with a reason, without starting it "
    "(repeatable)\n"
    "  --timeout SECONDS        per-request timeout (default 5)\n"
    "  --start-timeout SECONDS  timeout of a handshake (default 30: JVMs start slowly)\n"
    "  --window N               requests in flight per runner (default 64)\n"
    "  --max-line BYTES         longest response line accepted (default 64 MiB, or 8 bytes per "
    "byte of the\n"
    "                           longest vector input when more; longer is protocol_error)\n"
    "Limits (a crash or hang fails the request it happens on; the run goes on):\n"
    "  --max-run-time SECONDS   time for the whole run; what is not answered then fails as "
    "timeout (default 3600; 0: none)\n"
    "  --max-timeouts N         after N timeouts in a row (fewer than 64 answers between), a "
    "runner's\n"
    "                           unanswered requests fail as timeout without being sent "
    "(default 10; 0: none)\n"
    "  --max-restarts N         restarts per runner before its unanswered requests fail "
    "unsent (default 1000; 0: none)\n"
    "  --max-restarts-per-vector N   after N crashes/hangs on one vector, its other requests "
    "are not sent (default 1)\n"
    "  --memory-limit SIZE      resident memory per runner (all its processes), e.g. 512M, "
    "4G; over it the\n"
    "                           request fails as resource (default 2G; 0: none)\n";
/* The rest of --help (one literal of C's portable length each). */
static const char k_usage_more[] =
    "Sandbox (judge/README.md, \"Sandbox\"; every report says whether the runners ran in one):\n"
    "  --sandbox auto|bwrap|none   run every runner process in bubblewrap: read-only file "
    "system, own PID\n"
    "                           namespace, private /tmp, no network, the judge's files hidden "
    "(auto: where\n"
    "                           bwrap runs, else none and says why; default none)\n"
    "  --sandbox-hide PATH      also hide PATH from the runners (repeatable)\n"
    "  --sandbox-write DIR      let the runners write DIR (repeatable; not one that holds a "
    "report or list)\n"
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
    "  --allow-xfail-crashes    let expected-failure lists excuse crashes, timeouts, protocol "
    "errors, resource\n"
    "                           failures and required-tier skips (stated in every report; "
    "default: never)\n"
    "Reports:\n"
    "  --json FILE  --junit FILE  --html FILE   machine-readable, JUnit XML, self-contained HTML\n"
    "  --text FILE              the text report to FILE, written at the end as the others, not "
    "to stdout\n"
    "  --replay-dir DIR         where requests too long for a command line are written for "
    "replay\n"
    "                           (default: replay/ beside the first report file)\n"
    "  --max-details N          failure details printed on stdout per likely cause (default 2)\n"
    "  --list-na                list every not-applicable vector with its reason (default: counts "
    "per reason)\n"
    "  --no-diagnosis           do not name likely causes (spec/bugs-in-the-wild.md) of failures\n"
    "  --no-probes              send no diagnosis probes (valid vectors outside the selection,\n"
    "                           decoded after the verdicts to learn what a runner refuses);\n"
    "                           every report says the diagnosis ran without them\n"
    "  --no-complexity          do not time the complexity families (spec §15.4); reports say so\n"
    "  --complexity FILE        the complexity families (default: c15-complexity.json of the\n"
    "                           vectors directory; none there: not checked, reports say so)\n"
    "  --progress | --no-progress   progress line on stderr (default: when stderr is a terminal)\n"
    "\n"
    "Exit status: 0 gate passed, 1 gate failed, 2 usage or setup error (including a runner that "
    "could not start).\n";

/* Append a copy of `s` to a list option; false when out of memory. */
static bool push(char ***arr, size_t *n, const char *s)
{
    size_t cap = *n;
    char *copy = smcj_strdup(s);
    if (!copy || !smcj_grow((void **)arr, &cap, *n + 1, sizeof(char *))) {
        free(copy);
        return false;
    }
    (*arr)[(*n)++] = copy;
    return true;
}

/* Runner names appear in reports, file names and shell commands: keep them plain. */
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

static smcj_runner_t *find_runner(smcj_opts_t *o, const char *name, size_t n)
{
    for (size_t i = 0; i < o->n_runners; i++) {
        if (strlen(o->runners[i].name) == n && strncmp(o->runners[i].name, name, n) == 0) {
            return &o->runners[i];
        }
    }
    return NULL;
}

static bool add_runner(smcj_opts_t *o, const char *spec, bool skip, char *err, size_t err_size)
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
    size_t cap = o->n_runners;
    char *name = smcj_strndup(spec, n);
    char *rest = smcj_strdup(eq + 1);
    if (!name || !rest ||
        !smcj_grow((void **)&o->runners, &cap, o->n_runners + 1, sizeof *o->runners)) {
        free(name);
        free(rest);
        snprintf(err, err_size, "out of memory");
        return false;
    }
    smcj_runner_t *r = &o->runners[o->n_runners++];
    memset(r, 0, sizeof *r);
    r->name = name;
    if (skip) {
        r->skip_reason = rest;
    } else {
        r->command = rest;
    }
    return true;
}

/* A positive number of seconds, at most a day (a typo like 5000000 is an error). */
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

/* SECONDS for --max-run-time: 0 (no limit) or a positive number of seconds up to a week. */
static bool parse_run_time(const char *s, double *out)
{
    char *end;
    double d = strtod(s, &end);
    if (end == s || *end != '\0' || !(d >= 0) || d > 7 * 86400.0) {
        return false;
    }
    *out = d;
    return true;
}

/* SIZE: bytes, or with a K, M, G or T suffix (powers of 1024); "0" means no limit. At least
 * 1 MiB when not 0 (a smaller limit is a typo: no runtime starts in it). */
static bool parse_size(const char *s, unsigned long long *out)
{
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (end == s || s[0] == '-') {
        return false;
    }
    unsigned shift = 0;
    switch (*end) {
    case 'K':
    case 'k':
        shift = 10;
        end++;
        break;
    case 'M':
    case 'm':
        shift = 20;
        end++;
        break;
    case 'G':
    case 'g':
        shift = 30;
        end++;
        break;
    case 'T':
    case 't':
        shift = 40;
        end++;
        break;
    default:
        break;
    }
    if (*end == 'i' || *end == 'B') {
        end += *end == 'i' && end[1] == 'B' ? 2 : 1; /* 4GiB, 4GB */
    }
    if (*end != '\0' || v > (~0ull >> shift)) {
        return false;
    }
    v <<= shift;
    if (v != 0 && v < (1ull << 20)) {
        return false;
    }
    *out = v;
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

/* The options that take a value, as `--opt VALUE` or `--opt=VALUE`. */
static const char *const k_value_options[] = {"--vectors",       "--runner",
                                              "--skip-runner",   "--timeout",
                                              "--start-timeout", "--window",
                                              "--max-line",      "--max-details",
                                              "--gate",          "--only",
                                              "--tier",          "--feature",
                                              "--section",       "--xfail",
                                              "--write-xfail",   "--json",
                                              "--junit",         "--html",
                                              "--max-run-time",  "--max-timeouts",
                                              "--max-restarts",  "--max-restarts-per-vector",
                                              "--memory-limit",  "--replay-dir",
                                              "--text",          "--sandbox",
                                              "--sandbox-hide",  "--sandbox-write"};

/* Take the value `val` of option `name` (one of k_value_options): 0, or -1 with `err`. */
static int take_value(smcj_opts_t *o, const char *name, const char *val, char *err, size_t err_size)
{
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
    } else if (strcmp(name, "--max-run-time") == 0) {
        ok = parse_run_time(val, &o->max_run_time);
    } else if (strcmp(name, "--max-timeouts") == 0) {
        ok = parse_long(val, 0, 1000000, &o->max_timeouts);
    } else if (strcmp(name, "--max-restarts") == 0) {
        ok = parse_long(val, 0, 100000000, &o->max_restarts);
    } else if (strcmp(name, "--max-restarts-per-vector") == 0) {
        ok = parse_long(val, 0, 255, &o->max_restarts_per_vector);
    } else if (strcmp(name, "--memory-limit") == 0) {
        ok = parse_size(val, &o->memory_limit);
    } else if (strcmp(name, "--replay-dir") == 0) {
        o->replay_dir = val;
    } else if (strcmp(name, "--window") == 0) {
        ok = parse_long(val, 1, 100000, &o->window);
    } else if (strcmp(name, "--max-line") == 0) {
        ok = parse_long(val, 1024, 1L << 32, &o->max_line);
        o->max_line_given = ok;
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
        ok = push(&o->only, &o->n_only, val);
    } else if (strcmp(name, "--tier") == 0) {
        if (strcmp(val, "required") != 0 && strcmp(val, "recommended") != 0 &&
            strcmp(val, "implementation-defined") != 0) {
            ok = false;
        } else if (!push(&o->tiers, &o->n_tiers, val)) {
            snprintf(err, err_size, "out of memory");
            return -1;
        }
    } else if (strcmp(name, "--feature") == 0) {
        /* a word spec/vectors.md V.3 does not have is a usage error, as for --tier, not an
         * empty selection */
        ok = smcj_feature(val) != NULL && push(&o->features, &o->n_features, val);
    } else if (strcmp(name, "--section") == 0) {
        ok = push(&o->sections, &o->n_sections, val);
    } else if (strcmp(name, "--xfail") == 0) {
        ok = push(&o->xfail_specs, &o->n_xfail, val);
    } else if (strcmp(name, "--write-xfail") == 0) {
        ok = push(&o->write_specs, &o->n_write, val);
    } else if (strcmp(name, "--json") == 0) {
        o->json = val;
    } else if (strcmp(name, "--junit") == 0) {
        o->junit = val;
    } else if (strcmp(name, "--html") == 0) {
        o->html = val;
    } else if (strcmp(name, "--text") == 0) {
        o->text = val;
    } else if (strcmp(name, "--sandbox") == 0) {
        ok = smcj_sandbox_parse_mode(val, &o->sandbox);
    } else if (strcmp(name, "--sandbox-hide") == 0) {
        ok = push(&o->sandbox_hide, &o->n_sandbox_hide, val);
    } else if (strcmp(name, "--sandbox-write") == 0) {
        ok = push(&o->sandbox_write, &o->n_sandbox_write, val);
    } else {
        snprintf(err, err_size, "unknown option `%s`", name);
        return -1;
    }
    if (!ok && smcj_out_of_memory()) {
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    if (!ok) {
        snprintf(err, err_size, "bad value for %s: `%s`", name, val);
        return -1;
    }
    return 0;
}

int smcj_opts_parse(smcj_opts_t *o, int argc, char **argv, char *err, size_t err_size)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(k_usage, stdout);
            fputs(k_usage_more, stdout);
            return 1;
        }
        if (strcmp(a, "--list-na") == 0) {
            o->list_na = true;
            continue;
        }
        if (strcmp(a, "--no-diagnosis") == 0) {
            o->no_diagnosis = true;
            continue;
        }
        if (strcmp(a, "--no-probes") == 0) {
            o->no_probes = true;
            continue;
        }
        if (strcmp(a, "--no-complexity") == 0) {
            o->no_complexity = true;
            continue;
        }
        if (strcmp(a, "--complexity") == 0 && i + 1 < argc) {
            o->complexity = argv[++i];
            continue;
        }
        if (strcmp(a, "--allow-modified-vectors") == 0) {
            o->allow_modified_vectors = true;
            continue;
        }
        if (strcmp(a, "--allow-xfail-crashes") == 0) {
            o->allow_xfail_crashes = true;
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
        if (take_value(o, name, val, err, err_size) != 0) {
            return -1;
        }
    }
    if (o->n_runners == 0) {
        snprintf(err, err_size, "no runner given (--runner NAME=COMMAND)");
        return -1;
    }
    return 0;
}

/* Attach --xfail or (`write`) --write-xfail paths to their runners. */
static bool attach_lists(smcj_opts_t *o, char **specs, size_t n, bool write, char *err,
                         size_t err_size)
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
        *slot = smcj_strdup(eq + 1);
        if (!*slot) {
            snprintf(err, err_size, "out of memory");
            return false;
        }
    }
    return true;
}

bool smcj_opts_attach_lists(smcj_opts_t *o, char *err, size_t err_size)
{
    return attach_lists(o, o->xfail_specs, o->n_xfail, false, err, err_size) &&
           attach_lists(o, o->write_specs, o->n_write, true, err, err_size);
}

void smcj_opts_init(smcj_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->timeout = 5.0;
    o->start_timeout = 30.0;
    o->window = 64;
    o->max_run_time = 3600;
    o->max_timeouts = 10;
    o->max_restarts = 1000;
    o->max_restarts_per_vector = 1;
    o->memory_limit = SMCJ_DEFAULT_MEMORY_LIMIT;
    o->max_details = 2; /* per cause: one bug's failures must not hide the next's */
    o->max_line = 64L << 20;
    o->progress = -1;
    o->gate = SMCJ_GATE_RECOMMENDED;
}

void smcj_opts_free(smcj_opts_t *o)
{
    for (size_t i = 0; i < o->n_runners; i++) {
        smcj_runner_free(&o->runners[i]);
    }
    free(o->runners);
    smcj_free_strs(o->only, o->n_only);
    smcj_free_strs(o->tiers, o->n_tiers);
    smcj_free_strs(o->features, o->n_features);
    smcj_free_strs(o->sections, o->n_sections);
    smcj_free_strs(o->xfail_specs, o->n_xfail);
    smcj_free_strs(o->write_specs, o->n_write);
    smcj_free_strs(o->sandbox_hide, o->n_sandbox_hide);
    smcj_free_strs(o->sandbox_write, o->n_sandbox_write);
    memset(o, 0, sizeof *o);
}
