/*
 * `smc bench`: option parsing, loading the payload manifest (bench/payloads.json), and the
 * two outputs: a human table (default) and JSON lines (--json), one object per payload and
 * operation. Field meanings are in bench/README.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "smct_io.h"
#include "smct_json.h"

#ifndef SMC_BENCH_DEFAULT_MANIFEST
#define SMC_BENCH_DEFAULT_MANIFEST "bench/payloads.json"
#endif

#define MAX_PAYLOADS 64
#define MAX_FILTERS  32

static const char bench_help[] =
    "usage: smc bench [options] [FILE...]\n"
    "\n"
    "Times the reference codec on each payload: memcpy of the bytes (the floor), validate\n"
    "(reader, no tree), decode (arena over a reused block, then reset), decode_alias\n"
    "(SMC_ALIAS_INPUT, zero-copy), decode_malloc (arena that mallocs and frees its blocks),\n"
    "encode (tree -> bytes, reused buffer), encode_malloc (output malloc'ed and freed per\n"
    "message), roundtrip (decode + encode + reset), and on record payloads typed_decode\n"
    "(into C structs, bench_typed.h) and typed_encode (those structs back to bytes).\n"
    "\n"
    "Payloads: FILE... (decoded with --entry), else every payload of the manifest.\n"
    "  --manifest FILE      payload manifest (default $SMC_BENCH_MANIFEST, else the installed\n"
    "                       PREFIX/share/smc/bench/payloads.json, else\n"
    "                       " SMC_BENCH_DEFAULT_MANIFEST ")\n"
    "  --payload NAME       only this manifest payload (file name, '.bin' optional); repeatable\n"
    "  --entry E            entry point of FILE arguments: message (default), call, envelope\n"
    "  --ops LIST           comma-separated operations (default: all)\n"
    "  --samples N          samples per operation (default 200)\n"
    "  --min-sample-us N    each sample runs a batch lasting at least N µs (default 50)\n"
    "  --warmup-ms N        warm-up per operation (default 30)\n"
    "  --json               JSON lines on stdout instead of the table\n"
    "  --count-values       print payload, entry, bytes and value count only (no timing)\n"
    "  --callgrind-runs N   no timing: run each op once, then N times between callgrind\n"
    "                       client requests (zero, dump \"smc-bench PAYLOAD OP N\"); run\n"
    "                       under valgrind --tool=callgrind for instructions per op\n"
    "\n"
    "Exit status: 0 success, 1 a payload failed to decode/encode, 2 usage or I/O error.\n";

typedef struct options {
    const char *manifest;
    char manifest_buf[4096]; /* the installed manifest's path, when that is the default */
    const char *filters[MAX_FILTERS];
    unsigned filter_count;
    smc_entry_t entry;
    unsigned op_mask;
    bench_config_t cfg;
    bool json;
    bool count_only;
    const char *files[MAX_PAYLOADS];
    unsigned file_count;
} options_t;

static const char *entry_name(smc_entry_t e)
{
    switch (e) {
    case SMC_ENTRY_MESSAGE:
        return "message";
    case SMC_ENTRY_CALL:
        return "call";
    case SMC_ENTRY_ENVELOPE:
        return "envelope";
    }
    return "?";
}

static bool parse_entry(const char *s, size_t len, smc_entry_t *out)
{
    static const smc_entry_t all[] = {SMC_ENTRY_MESSAGE, SMC_ENTRY_CALL, SMC_ENTRY_ENVELOPE};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        const char *name = entry_name(all[i]);
        if (strlen(name) == len && memcmp(name, s, len) == 0) {
            *out = all[i];
            return true;
        }
    }
    return false;
}

static bool parse_u64(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno != 0 || end == s || *end != '\0' || s[0] == '-' || v < min || v > max) {
        return false;
    }
    *out = (uint64_t)v;
    return true;
}

static bool parse_ops(const char *list, unsigned *mask)
{
    *mask = 0;
    const char *s = list;
    while (*s != '\0') {
        size_t n = strcspn(s, ",");
        bool found = false;
        for (unsigned i = 0; i < BENCH_OP_COUNT; i++) {
            if (strlen(bench_op_names[i]) == n && memcmp(bench_op_names[i], s, n) == 0) {
                *mask |= 1u << i;
                found = true;
            }
        }
        if (!found) {
            return false;
        }
        s += n;
        if (*s == ',') {
            s++;
        }
    }
    return *mask != 0;
}

/* @return -1 help printed, 2 usage error, 0 ok. */
static int parse_args(int argc, char **argv, options_t *o)
{
    memset(o, 0, sizeof *o);
    o->manifest = bench_default_manifest(o->manifest_buf, sizeof o->manifest_buf);
    o->entry = SMC_ENTRY_MESSAGE;
    o->op_mask = (1u << BENCH_OP_COUNT) - 1;
    o->cfg.samples = 200;
    o->cfg.min_sample_ns = 50000;
    o->cfg.warmup_ns = 30000000;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n = 0;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(bench_help, stdout);
            return -1;
        } else if (strcmp(a, "--json") == 0) {
            o->json = true;
        } else if (strcmp(a, "--count-values") == 0) {
            o->count_only = true;
        } else if (val == NULL && strncmp(a, "--", 2) == 0) {
            fprintf(stderr, "error: %s needs a value (see smc bench --help)\n", a);
            return 2;
        } else if (strcmp(a, "--manifest") == 0) {
            o->manifest = argv[++i];
        } else if (strcmp(a, "--payload") == 0) {
            if (o->filter_count == MAX_FILTERS) {
                fprintf(stderr, "error: too many --payload options\n");
                return 2;
            }
            o->filters[o->filter_count++] = argv[++i];
        } else if (strcmp(a, "--entry") == 0) {
            if (!parse_entry(val, strlen(val), &o->entry)) {
                fprintf(stderr, "error: unknown entry '%s' (message, call, envelope)\n", val);
                return 2;
            }
            i++;
        } else if (strcmp(a, "--ops") == 0) {
            if (!parse_ops(val, &o->op_mask)) {
                fprintf(stderr, "error: bad --ops '%s' (see smc bench --help)\n", val);
                return 2;
            }
            i++;
        } else if (strcmp(a, "--samples") == 0 && parse_u64(val, 1, 1000000, &n)) {
            o->cfg.samples = (unsigned)n;
            i++;
        } else if (strcmp(a, "--min-sample-us") == 0 && parse_u64(val, 0, 10000000, &n)) {
            o->cfg.min_sample_ns = n * 1000;
            i++;
        } else if (strcmp(a, "--warmup-ms") == 0 && parse_u64(val, 0, 600000, &n)) {
            o->cfg.warmup_ns = n * 1000000;
            i++;
        } else if (strcmp(a, "--callgrind-runs") == 0 && parse_u64(val, 1, 1000, &n)) {
            if (!bench_callgrind_available()) {
                fprintf(stderr, "error: --callgrind-runs: built without valgrind/callgrind.h\n");
                return 2;
            }
            o->cfg.callgrind_runs = (unsigned)n;
            i++;
        } else if (strncmp(a, "--", 2) == 0) {
            fprintf(stderr, "error: unknown or invalid option '%s %s' (see smc bench --help)\n", a,
                    val);
            return 2;
        } else {
            if (o->file_count == MAX_PAYLOADS) {
                fprintf(stderr, "error: too many files\n");
                return 2;
            }
            o->files[o->file_count++] = a;
        }
    }
    return 0;
}

/* ---- payload loading ---- */

static bool load_bytes(const char *path, bench_payload_t *p)
{
    char errbuf[256];
    if (smct_read_file(path, SMCT_IO_DEFAULT_MAX_SIZE, &p->data, &p->len, errbuf, sizeof errbuf) !=
        SMCT_OK) {
        fprintf(stderr, "error: %s\n", errbuf);
        return false;
    }
    return true;
}

static void set_name(bench_payload_t *p, const char *path)
{
    const char *slash = strrchr(path, '/');
    snprintf(p->name, sizeof p->name, "%s", slash != NULL ? slash + 1 : path);
}

static bool wanted(const options_t *o, const char *file)
{
    if (o->filter_count == 0) {
        return true;
    }
    size_t flen = strlen(file);
    size_t stem = flen > 4 && strcmp(file + flen - 4, ".bin") == 0 ? flen - 4 : flen;
    for (unsigned i = 0; i < o->filter_count; i++) {
        size_t n = strlen(o->filters[i]);
        if ((n == flen && memcmp(o->filters[i], file, n) == 0) ||
            (n == stem && memcmp(o->filters[i], file, n) == 0)) {
            return true;
        }
    }
    return false;
}

/* Reads the manifest and loads the selected payloads (files relative to <manifest dir>/payloads/).
 */
static int load_manifest(const options_t *o, bench_payload_t *out, unsigned *count)
{
    uint8_t *text = NULL;
    size_t len = 0;
    char errbuf[256];
    if (smct_read_file(o->manifest, SMCT_IO_DEFAULT_MAX_SIZE, &text, &len, errbuf, sizeof errbuf) !=
        SMCT_OK) {
        fprintf(stderr, "error: %s\n", errbuf);
        return 2;
    }
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smct_json_t *root = NULL;
    smct_error_t jerr;
    int rc = 0;
    if (smct_json_parse((const char *)text, len, NULL, &arena, &root, &jerr) != SMCT_OK) {
        fprintf(stderr, "error: %s: not JSON at offset %zu\n", o->manifest, jerr.offset);
        rc = 2;
        goto done;
    }
    const smct_json_t *list = smct_json_get(root, "payloads");
    const char *slash = strrchr(o->manifest, '/');
    int dir_len = slash != NULL ? (int)(slash - o->manifest) : 1;
    const char *dir = slash != NULL ? o->manifest : ".";
    for (size_t i = 0; i < smct_json_count(list); i++) {
        const smct_json_t *item = smct_json_at(list, i);
        const smct_json_t *file = smct_json_get(item, "file");
        const smct_json_t *entry = smct_json_get(item, "entry");
        if (file == NULL || file->type != SMCT_JSON_STRING || entry == NULL ||
            entry->type != SMCT_JSON_STRING) {
            fprintf(stderr, "error: %s: payload %zu needs string 'file' and 'entry'\n", o->manifest,
                    i);
            rc = 2;
            goto done;
        }
        if (!wanted(o, file->str.ptr)) {
            continue;
        }
        if (*count == MAX_PAYLOADS) {
            fprintf(stderr, "error: more than %d payloads\n", MAX_PAYLOADS);
            rc = 2;
            goto done;
        }
        bench_payload_t *p = &out[*count];
        memset(p, 0, sizeof *p);
        if (!parse_entry(entry->str.ptr, entry->str.len, &p->entry)) {
            fprintf(stderr, "error: %s: unknown entry '%s'\n", o->manifest, entry->str.ptr);
            rc = 2;
            goto done;
        }
        char path[4096];
        snprintf(path, sizeof path, "%.*s/payloads/%s", dir_len, dir, file->str.ptr);
        if (!load_bytes(path, p)) {
            rc = 2;
            goto done;
        }
        set_name(p, file->str.ptr);
        (*count)++;
    }
    if (*count == 0) {
        fprintf(stderr, "error: no payload selected from %s\n", o->manifest);
        rc = 2;
    }
done:
    smc_arena_free(&arena);
    smct_io_free(text);
    return rc;
}

/* ---- output ---- */

static void print_json_string(const char *s)
{
    putchar('"');
    for (; *s != '\0'; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            printf("\\%c", ch);
        } else if (ch < 0x20) {
            printf("\\u%04x", ch);
        } else {
            putchar(ch);
        }
    }
    putchar('"');
}

/* Callgrind mode: which dump holds the counts of this payload and op. */
static void print_callgrind_line(const bench_payload_t *p, unsigned op, unsigned runs)
{
    fputs("{\"codec\":\"smc-c\",\"payload\":", stdout);
    print_json_string(p->name);
    printf(",\"entry\":\"%s\",\"op\":\"%s\",\"bytes\":%zu,\"values\":%llu,"
           "\"callgrind_runs\":%u,\"callgrind_desc\":\"smc-bench ",
           entry_name(p->entry), bench_op_names[op], p->len, (unsigned long long)p->values, runs);
    printf("%s %s %u\"}\n", p->name, bench_op_names[op], runs);
}

static void print_json_line(const bench_payload_t *p, const bench_result_t *r, unsigned op)
{
    const bench_stats_t *s = &r->op[op];
    const bench_stats_t *m = &r->op[0];
    double mb_per_s = s->median_ns > 0 ? (double)p->len / s->median_ns * 1e3 : 0.0;
    fputs("{\"codec\":\"smc-c\",\"payload\":", stdout);
    print_json_string(p->name);
    printf(",\"entry\":\"%s\",\"op\":\"%s\",\"bytes\":%zu,\"values\":%llu,\"samples\":%u,"
           "\"iterations_per_sample\":%llu,\"median_ns\":%.1f,\"p10_ns\":%.1f,\"p90_ns\":%.1f,"
           "\"mb_per_s\":%.1f,\"ns_per_value\":%.3f",
           entry_name(p->entry), bench_op_names[op], p->len, (unsigned long long)p->values,
           s->samples, (unsigned long long)s->batch, s->median_ns, s->p10_ns, s->p90_ns, mb_per_s,
           p->values ? s->median_ns / (double)p->values : 0.0);
    if (r->ran[0] && m->median_ns > 0) {
        printf(",\"memcpy_ns\":%.1f,\"x_memcpy\":%.3f", m->median_ns, s->median_ns / m->median_ns);
    }
    fputs("}\n", stdout);
}

static void print_table_header(const options_t *o)
{
    printf("smc bench: %u samples per op, each >= %llu us of work, %llu ms warm-up; times per "
           "operation (median [p10..p90])\n",
           o->cfg.samples, (unsigned long long)(o->cfg.min_sample_ns / 1000),
           (unsigned long long)(o->cfg.warmup_ns / 1000000));
    printf("%-22s %-8s %9s %8s  %-19s %11s %21s %9s %9s %8s\n", "payload", "entry", "bytes",
           "values", "op", "median ns", "p10..p90 ns", "MB/s", "ns/value", "xmemcpy");
}

static void print_table_rows(const bench_payload_t *p, const bench_result_t *r)
{
    bool first = true;
    for (unsigned i = 0; i < BENCH_OP_COUNT; i++) {
        if (!r->ran[i]) {
            continue;
        }
        const bench_stats_t *s = &r->op[i];
        char spread[48];
        snprintf(spread, sizeof spread, "%.0f..%.0f", s->p10_ns, s->p90_ns);
        char ratio[16] = "";
        if (r->ran[0] && r->op[0].median_ns > 0) {
            snprintf(ratio, sizeof ratio, "%.2f", s->median_ns / r->op[0].median_ns);
        }
        printf("%-22s %-8s %9zu %8llu  %-19s %11.0f %21s %9.1f %9.3f %8s\n", first ? p->name : "",
               first ? entry_name(p->entry) : "", p->len, (unsigned long long)p->values,
               bench_op_names[i], s->median_ns, spread,
               s->median_ns > 0 ? (double)p->len / s->median_ns * 1e3 : 0.0,
               p->values ? s->median_ns / (double)p->values : 0.0, ratio);
        first = false;
    }
    fflush(stdout);
}

int smc_bench_main(int argc, char **argv)
{
    options_t o;
    int rc = parse_args(argc, argv, &o);
    if (rc != 0) {
        return rc < 0 ? 0 : rc;
    }
    static bench_payload_t payloads[MAX_PAYLOADS];
    unsigned count = 0;
    if (o.file_count > 0) {
        for (unsigned i = 0; i < o.file_count; i++) {
            memset(&payloads[i], 0, sizeof payloads[i]);
            if (!load_bytes(o.files[i], &payloads[i])) {
                return 2;
            }
            set_name(&payloads[i], o.files[i]);
            payloads[i].entry = o.entry;
            count++;
        }
    } else if ((rc = load_manifest(&o, payloads, &count)) != 0) {
        return rc;
    }

    int exit_code = 0;
    if (!o.json && !o.count_only && o.cfg.callgrind_runs == 0) {
        print_table_header(&o);
    }
    for (unsigned i = 0; i < count; i++) {
        bench_payload_t *p = &payloads[i];
        smc_error_t err;
        if (!bench_count_values(p, &p->values, &err)) {
            fprintf(stderr, "error: %s is not a valid %s: %s at offset %zu\n", p->name,
                    entry_name(p->entry), smc_status_class(err.status), err.offset);
            exit_code = 1;
            continue;
        }
        if (o.count_only) {
            printf("{\"payload\":");
            print_json_string(p->name);
            printf(",\"entry\":\"%s\",\"bytes\":%zu,\"values\":%llu}\n", entry_name(p->entry),
                   p->len, (unsigned long long)p->values);
            continue;
        }
        bench_result_t r;
        bench_run_payload(&o.cfg, p, o.op_mask, &r);
        if (r.failed) {
            fprintf(stderr, "error: %s: %s\n", p->name, r.error);
            exit_code = 1;
        }
        if (o.cfg.callgrind_runs > 0) {
            for (unsigned op = 0; op < BENCH_OP_COUNT; op++) {
                if (r.ran[op]) {
                    print_callgrind_line(p, op, o.cfg.callgrind_runs);
                }
            }
            fflush(stdout);
        } else if (o.json) {
            for (unsigned op = 0; op < BENCH_OP_COUNT; op++) {
                if (r.ran[op]) {
                    print_json_line(p, &r, op);
                }
            }
            fflush(stdout);
        } else {
            print_table_rows(p, &r);
        }
    }
    for (unsigned i = 0; i < count; i++) {
        smct_io_free(payloads[i].data);
    }
    return exit_code;
}
