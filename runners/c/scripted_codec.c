/*
 * The C kit's scripted plug-in (runners/protocol-cases.json, run by scripts/tests/kit_cases.py):
 * its behaviour, its options and its host hook come from the environment, the same variables for
 * every kit's scripted plug-in:
 *
 *   SMC_PLUGIN_BEHAVIOUR  value | reject | throw-unexpected | crash | no-bytes | host-bugs
 *   SMC_PLUGIN_OPTIONS    comma-separated option words of P.1 (error-classes, shift, ...)
 *   SMC_PLUGIN_HOSTS      comma-separated vocabularies of the host hook; empty: no hook
 *   SMC_HOST_BUGS         host-bugs only: long-by-value (an SMC_TYPE_I64 that fits 32 bits
 *                         written as an int32), bytes-twice (a byte array's bytes written twice)
 *
 * `host-bugs` is libsmc with the host bugs of real ports in its host hook, so exactly the `c`
 * host-type vectors with such a node must fail (the `c` table has no Float: the third bug of
 * issue 25, a Float written as 4 bytes, has no C host type to live in).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smc_runner_codec.h"

typedef enum behaviour { B_VALUE, B_REJECT, B_THROW, B_CRASH, B_NO_BYTES, B_HOST_BUGS } behaviour_t;

static behaviour_t g_behaviour;
static bool g_long_by_value, g_bytes_twice;

/* The scripted failures (protocol-cases.json "behaviours"); B_VALUE and B_HOST_BUGS go on. */
static bool scripted_failure(smc_runner_report_t *report, smc_runner_status_t *st)
{
    switch (g_behaviour) {
    case B_REJECT:
        report->error_class = "truncated";
        report->has_offset = true;
        report->offset = 1;
        snprintf(report->message, sizeof report->message, "scripted rejection");
        *st = SMC_RUNNER_ERROR;
        return true;
    case B_THROW:
        report->kind = "scripted unexpected failure";
        snprintf(report->message, sizeof report->message, "a failure the codec survived");
        *st = SMC_RUNNER_CRASHED;
        return true;
    case B_CRASH: /* a codec that aborts: the kit must not survive it, nor answer for it */
        abort();
    case B_VALUE:
    case B_NO_BYTES:
    case B_HOST_BUGS:
        break;
    }
    return false;
}
static smc_runner_status_t one_byte(uint8_t byte, smc_arena_t *arena, uint8_t **out,
                                    size_t *out_len)
{
    *out = smc_arena_alloc(arena, 1);
    if (!*out) {
        return SMC_RUNNER_SKIPPED;
    }
    **out = byte;
    *out_len = 1;
    return SMC_RUNNER_OK;
}

static void inject(smc_value_t *v, smc_arena_t *arena)
{
    if (v->type == SMC_TYPE_I64 && g_long_by_value && v->i64 >= INT32_MIN && v->i64 <= INT32_MAX) {
        int32_t narrow = (int32_t)v->i64;
        v->type = SMC_TYPE_I32;
        v->i32 = narrow;
    } else if (v->type == SMC_TYPE_U8S && g_bytes_twice) {
        uint8_t *twice = smc_arena_alloc(arena, 2 * v->bytes.len + 1);
        if (twice) {
            memcpy(twice, v->bytes.ptr, v->bytes.len);
            memcpy(twice + v->bytes.len, v->bytes.ptr, v->bytes.len);
            v->bytes.ptr = twice;
            v->bytes.len *= 2;
        }
    } else if (v->type == SMC_TYPE_LIST) {
        for (size_t i = 0; i < v->list.count; i++) {
            inject(&v->list.items[i], arena);
        }
    } else if (v->type == SMC_TYPE_MAP) {
        for (size_t i = 0; i < 2 * v->map.count; i++) {
            inject(&v->map.entries[i], arena);
        }
    }
}

static smc_runner_status_t buggy_host_encode(void *ctx, const char *vocabulary,
                                             const smc_runner_host_value_t *hv, smc_arena_t *arena,
                                             uint8_t **out, size_t *out_len,
                                             smc_runner_report_t *report)
{
    (void)vocabulary;
    smc_runner_status_t failed;
    if (scripted_failure(report, &failed)) {
        return failed;
    }
    if (g_behaviour != B_HOST_BUGS) { /* the hook's marker: the kit answers what the hook says */
        return g_behaviour == B_NO_BYTES ? SMC_RUNNER_NO_BYTES
                                         : one_byte(0xaa, arena, out, out_len);
    }
    smc_runner_item_t item;
    memset(&item, 0, sizeof item);
    smc_runner_status_t st = smc_runner_c_host_to_item(hv, arena, &item, report);
    if (st != SMC_RUNNER_OK) {
        return st;
    }
    inject((smc_value_t *)item.value, arena);
    return smc_runner_codec()->encode(ctx, &item, arena, out, out_len, report);
}

static const char *const k_caps[] = {"int32",       "int64",       "int64-distinct", "float64",
                                     "float32list", "typed-lists", "nan-payload",    "embedded-nul",
                                     "map-order",   NULL};

static smc_runner_status_t rejected(smc_status_t st, smc_runner_report_t *report)
{
    report->error_class = smc_status_class(st);
    snprintf(report->message, sizeof report->message, "%s", smc_status_str(st));
    return SMC_RUNNER_ERROR;
}

static smc_runner_status_t plain_decode(void *ctx, smc_entry_t entry, const uint8_t *data,
                                        size_t len, smc_runner_mode_t mode, smc_arena_t *arena,
                                        smc_runner_item_t *out, smc_runner_report_t *report)
{
    (void)ctx;
    (void)mode;
    smc_runner_status_t failed;
    if (scripted_failure(report, &failed)) {
        return failed;
    }
    if (g_behaviour != B_HOST_BUGS) { /* a null message, whatever the input */
        memset(out, 0, sizeof *out);
        out->entry = entry;
        out->value = smc_arena_alloc(arena, sizeof *out->value);
        if (out->value) {
            memset(out->value, 0, sizeof *out->value);
            out->value->type = SMC_TYPE_NULL;
        }
        return out->value ? SMC_RUNNER_OK : SMC_RUNNER_SKIPPED;
    }
    smc_decode_opts_t opts = {SMC_REJECT_CUSTOM, 0};
    smc_error_t err;
    smc_status_t st = smct_doc_decode(data, len, entry, &opts, arena, out, &err);
    return st == SMC_OK ? SMC_RUNNER_OK : rejected(st, report);
}

static smc_runner_status_t plain_encode(void *ctx, const smc_runner_item_t *item,
                                        smc_arena_t *arena, uint8_t **out, size_t *out_len,
                                        smc_runner_report_t *report)
{
    (void)ctx;
    smc_runner_status_t failed;
    if (scripted_failure(report, &failed)) {
        return failed;
    }
    if (g_behaviour == B_NO_BYTES) {
        return SMC_RUNNER_NO_BYTES;
    }
    if (g_behaviour == B_VALUE) {
        return one_byte(0x00, arena, out, out_len);
    }
    smc_error_t err;
    size_t need = 0;
    smc_status_t st = smc_encode(item->value, NULL, 0, &need, &err);
    if (st != SMC_OK && st != SMC_ERR_BUFFER_FULL) {
        return rejected(st, report);
    }
    *out = smc_arena_alloc(arena, need + 1);
    st = *out ? smc_encode(item->value, *out, need, out_len, &err) : SMC_ERR_NOMEM;
    return st == SMC_OK ? SMC_RUNNER_OK : rejected(st, report);
}

static smc_runner_status_t scripted_host_decode(void *ctx, const char *vocabulary,
                                                const uint8_t *data, size_t len, smc_arena_t *arena,
                                                smc_runner_host_value_t **out,
                                                smc_runner_report_t *report)
{
    smc_runner_status_t failed;
    if (scripted_failure(report, &failed)) {
        return failed;
    }
    if (g_behaviour == B_HOST_BUGS) {
        return smc_runner_c_host_decode(ctx, vocabulary, data, len, arena, out, report);
    }
    *out = smc_arena_alloc(arena, sizeof **out);
    if (!*out) {
        return SMC_RUNNER_SKIPPED;
    }
    memset(*out, 0, sizeof **out);
    (*out)->type = "SMC_TYPE_STR";
    (*out)->literal = SMC_RUNNER_LITERAL_TEXT;
    (*out)->text = "hook";
    (*out)->text_len = 4;
    return SMC_RUNNER_OK;
}

/* Whether the comma-separated list `list` holds `word`. */
static bool listed(const char *list, const char *word)
{
    size_t n = strlen(word);
    for (const char *p = list; p && *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, word, n) == 0) {
            return true;
        }
        p = end ? end + 1 : NULL;
    }
    return false;
}

/* The NULL-terminated words of a comma-separated list (modified in place). */
static const char *const *split(char *list, const char **words, size_t cap)
{
    size_t n = 0;
    for (char *p = list; p && *p && n + 1 < cap;) {
        char *end = strchr(p, ',');
        if (end) {
            *end = '\0';
        }
        words[n++] = p;
        p = end ? end + 1 : NULL;
    }
    words[n] = NULL;
    return n ? words : NULL;
}

const smc_runner_codec_t *smc_runner_codec(void)
{
    static smc_runner_codec_t codec = {.name = "scripted-plugin",
                                       .version = "0",
                                       .language = "C",
                                       .entries = {true, false, false},
                                       .decode_caps = k_caps,
                                       .encode_caps = k_caps,
                                       .decode = plain_decode,
                                       .encode = plain_encode,
                                       .host_encode = buggy_host_encode,
                                       .host_decode = scripted_host_decode};
    static bool ready;
    static const char *hosts[8];
    static char host_list[256];
    static const char *without[16];
    static char without_list[512];
    if (!ready) {
        ready = true;
        const char *b = getenv("SMC_PLUGIN_BEHAVIOUR");
        b = b ? b : "value";
        g_behaviour = strcmp(b, "reject") == 0             ? B_REJECT
                      : strcmp(b, "throw-unexpected") == 0 ? B_THROW
                      : strcmp(b, "crash") == 0            ? B_CRASH
                      : strcmp(b, "no-bytes") == 0         ? B_NO_BYTES
                      : strcmp(b, "host-bugs") == 0        ? B_HOST_BUGS
                                                           : B_VALUE;
        const char *options = getenv("SMC_PLUGIN_OPTIONS");
        codec.error_classes = listed(options, "error-classes");
        codec.error_offsets = listed(options, "error-offsets");
        codec.shift = listed(options, "shift");
        codec.borrows_input = listed(options, "borrows-input");
        codec.pigeon_int64 = listed(options, "pigeon-int64");
        const char *bugs = getenv("SMC_HOST_BUGS");
        g_long_by_value = listed(bugs, "long-by-value");
        g_bytes_twice = listed(bugs, "bytes-twice");
        snprintf(host_list, sizeof host_list, "%s",
                 getenv("SMC_PLUGIN_HOSTS") ? getenv("SMC_PLUGIN_HOSTS") : "");
        codec.host_vocabularies = split(host_list, hosts, sizeof hosts / sizeof hosts[0]);
        /* spec §17.1: "vocabulary:Type" words its API lacks (P.1 hosts_without) */
        snprintf(without_list, sizeof without_list, "%s",
                 getenv("SMC_PLUGIN_HOSTS_WITHOUT") ? getenv("SMC_PLUGIN_HOSTS_WITHOUT") : "");
        codec.host_types_without = split(without_list, without, sizeof without / sizeof without[0]);
        if (!codec.host_vocabularies) { /* no hook at all */
            codec.host_encode = NULL;
            codec.host_decode = NULL;
        }
    }
    return &codec;
}
