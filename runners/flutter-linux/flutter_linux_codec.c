/* Flutter's Linux embedder codecs (libflutter_linux_gtk.so, loaded from $SMC_FLUTTER_ENGINE)
 * behind the C kit's interface (runners/c/smc_runner_codec.h). The message entry point is
 * FlStandardMessageCodec through fl_message_codec_encode/decode_message; calls and envelopes
 * are FlStandardMethodCodec's vfuncs, reached through the public FlMethodCodecClass because
 * the fl_method_codec_* wrappers are not exported. What is declared is what FlValue and these
 * codecs do (runners/PROTOCOL.md P.7, GLIB). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fl_api.h"
#include "fl_codecs.h"
#include "fl_host.h"
#include "fl_thread.h"
#include "fl_values.h"
#include "fl_version.h"
#include "smc_runner_codec.h"

typedef struct fl_runner {
    smc_fl_api_t api;
    smc_fl_codecs_t codecs;
    smc_gquark_t codec_domain; /* fl_message_codec_error_quark() */
    /* the host value of the last decode, for the round trip (PROTOCOL.md P.2) */
    smc_entry_t last_entry;
    smc_fl_value_t *last_value; /* message value, call args, envelope result or details */
    char *last_name;            /* call name, g_free */
    void *last_response;        /* FlMethodResponse, g_object_unref */
} fl_runner_t;

static fl_runner_t g_runner;

static void forget_last(fl_runner_t *r)
{
    if (r->last_value) {
        r->api.value_unref(r->last_value);
    }
    if (r->last_name) {
        r->api.g_free(r->last_name);
    }
    if (r->last_response) {
        r->api.g_object_unref(r->last_response);
    }
    r->last_value = NULL;
    r->last_name = NULL;
    r->last_response = NULL;
}

/* A message-codec GError code as a class of spec/errors.md: the codes name the fault
 * (P.7); FAILED names none. */
static const char *message_error_class(const fl_runner_t *r, const smc_gerror_t *e)
{
    if (e->domain != r->codec_domain) {
        return NULL;
    }
    switch (e->code) {
    case SMC_FL_CODEC_OUT_OF_DATA:
        return "truncated";
    case SMC_FL_CODEC_ADDITIONAL_DATA:
        return "trailing_bytes";
    case SMC_FL_CODEC_UNSUPPORTED_TYPE:
        return "unknown_tag";
    default:
        return NULL;
    }
}

/* The codec's documented rejection: its GError, as an error reply. For calls and envelopes
 * the class is left out (their option list has no error-classes): the method codec reports
 * its own faults with one code, and passes on the message codec's codes for nested values. */
static smc_runner_status_t from_gerror(fl_runner_t *r, smc_gerror_t *e, bool with_class,
                                       bool encoding, smc_runner_report_t *report)
{
    if (!e) {
        report->kind = "no GError";
        snprintf(report->message, sizeof report->message,
                 "the engine failed without setting its GError");
        return SMC_RUNNER_CRASHED;
    }
    if (with_class) {
        report->error_class = encoding ? "not_encodable" : message_error_class(r, e);
    }
    snprintf(report->message, sizeof report->message, "GError %d: %s", e->code,
             e->message ? e->message : "");
    r->api.g_error_free(e);
    return SMC_RUNNER_ERROR;
}

static smc_runner_status_t from_conv(smc_fl_conv_t c, const char *why, smc_runner_report_t *report)
{
    if (c == SMC_FL_CONV_NOMEM) {
        report->kind = "out of memory";
        snprintf(report->message, sizeof report->message, "the runner ran out of memory");
        return SMC_RUNNER_CRASHED;
    }
    snprintf(report->message, sizeof report->message, "%s", why);
    return SMC_RUNNER_SKIPPED;
}

/* A NUL-terminated copy for the API's `const gchar *` parameters; NULL when the text holds a
 * U+0000, which a C string cannot carry (the host cannot hold it: P.6, skipped). */
static char *c_string(const smc_bytes_t *b)
{
    if (memchr(b->ptr, 0, b->len)) {
        return NULL;
    }
    char *s = malloc(b->len + 1);
    if (s) {
        memcpy(s, b->ptr, b->len);
        s[b->len] = '\0';
    }
    return s;
}

static smc_runner_status_t copy_bytes(fl_runner_t *r, void *bytes, smc_arena_t *arena,
                                      uint8_t **out, size_t *out_len, smc_runner_report_t *report)
{
    size_t n = 0;
    const void *data = r->api.g_bytes_get_data(bytes, &n);
    uint8_t *buf = smc_arena_alloc(arena, n ? n : 1);
    if (!buf) {
        r->api.g_bytes_unref(bytes);
        report->kind = "out of memory";
        snprintf(report->message, sizeof report->message, "out of memory for %zu bytes", n);
        return SMC_RUNNER_CRASHED;
    }
    if (n) {
        memcpy(buf, data, n);
    }
    r->api.g_bytes_unref(bytes);
    *out = buf;
    *out_len = n;
    return SMC_RUNNER_OK;
}

/* ---- decode ---- */

/* A copy of the C string `s` in the arena, as smc_bytes_t (NULL ptr when out of memory). */
static smc_bytes_t arena_text(smc_arena_t *arena, const char *s)
{
    size_t n = strlen(s);
    uint8_t *p = smc_arena_alloc(arena, n ? n : 1);
    if (p && n) {
        memcpy(p, s, n);
    }
    return (smc_bytes_t){p, n};
}

static smc_runner_status_t to_item(fl_runner_t *r, smc_fl_value_t *v, smc_arena_t *arena,
                                   smc_value_t **dst, smc_runner_report_t *report)
{
    char why[160] = "";
    smc_fl_conv_t c = smc_fl_to_smc(&r->api, v, arena, dst, why, sizeof why);
    return c == SMC_FL_CONV_OK ? SMC_RUNNER_OK : from_conv(c, why, report);
}

static smc_runner_status_t decode_response(fl_runner_t *r, void *response, smc_arena_t *arena,
                                           smc_runner_item_t *out, smc_runner_report_t *report)
{
    const smc_fl_api_t *a = &r->api;
    smc_envelope_t *env = &out->envelope;
    if (smc_fl_is_a(a, response, a->method_not_implemented_response_get_type())) {
        snprintf(report->message, sizeof report->message, "FlMethodNotImplementedResponse");
        return SMC_RUNNER_NOT_IMPLEMENTED;
    }
    if (smc_fl_is_a(a, response, a->method_success_response_get_type())) {
        smc_fl_value_t *v = a->method_success_response_get_result(response);
        return to_item(r, v, arena, &env->result, report);
    }
    if (!smc_fl_is_a(a, response, a->method_error_response_get_type())) {
        report->kind = "unknown FlMethodResponse";
        snprintf(report->message, sizeof report->message, "a response of no known class");
        return SMC_RUNNER_CRASHED;
    }
    env->is_error = true;
    const char *code = a->method_error_response_get_code(response);
    const char *msg = a->method_error_response_get_message(response);
    env->code = arena_text(arena, code ? code : "");
    env->has_message = msg != NULL;
    if (msg) {
        env->message = arena_text(arena, msg);
    }
    smc_fl_value_t *details = a->method_error_response_get_details(response);
    if (!details) {
        env->details = smc_value_make_null(arena);
        return SMC_RUNNER_OK;
    }
    return to_item(r, details, arena, &env->details, report);
}

static smc_runner_status_t fl_decode(void *ctx, smc_entry_t entry, const uint8_t *data, size_t len,
                                     smc_runner_mode_t mode, smc_arena_t *arena,
                                     smc_runner_item_t *out, smc_runner_report_t *report)
{
    (void)mode; /* no strict-mode is declared: only flutter mode is ever asked for */
    fl_runner_t *r = ctx;
    const smc_fl_api_t *a = &r->api;
    forget_last(r);
    memset(out, 0, sizeof *out);
    out->entry = entry;
    r->last_entry = entry;
    /* no copy: the codec reads the kit's placed bytes, so a read past them is seen (P.2) */
    void *bytes = a->g_bytes_new_static(data, len);
    smc_gerror_t *e = NULL;
    switch (entry) {
    case SMC_ENTRY_MESSAGE: {
        smc_fl_value_t *v = a->message_codec_decode_message(r->codecs.message, bytes, &e);
        a->g_bytes_unref(bytes);
        if (!v) {
            return from_gerror(r, e, true, false, report);
        }
        r->last_value = v;
        return to_item(r, v, arena, &out->value, report);
    }
    case SMC_ENTRY_CALL: {
        char *name = NULL;
        smc_fl_value_t *args = NULL;
        int ok = r->codecs.calls->decode_method_call(r->codecs.method, bytes, &name, &args, &e);
        a->g_bytes_unref(bytes);
        if (!ok) {
            return from_gerror(r, e, false, false, report);
        }
        r->last_name = name;
        r->last_value = args;
        out->call.name = arena_text(arena, name);
        if (!args) {
            out->call.args = smc_value_make_null(arena);
            return SMC_RUNNER_OK;
        }
        return to_item(r, args, arena, &out->call.args, report);
    }
    case SMC_ENTRY_ENVELOPE: {
        /* the engine's fl_method_codec_decode_response reads an empty message as "not
         * implemented" before it calls the vfunc (D32); the runner calls the vfunc, so it
         * does the same first */
        if (len == 0) {
            a->g_bytes_unref(bytes);
            snprintf(report->message, sizeof report->message,
                     "an empty response is FlMethodNotImplementedResponse");
            return SMC_RUNNER_NOT_IMPLEMENTED;
        }
        void *response = r->codecs.calls->decode_response(r->codecs.method, bytes, &e);
        a->g_bytes_unref(bytes);
        if (!response) {
            return from_gerror(r, e, false, false, report);
        }
        r->last_response = response;
        return decode_response(r, response, arena, out, report);
    }
    }
    return SMC_RUNNER_SKIPPED;
}

/* ---- encode ---- */

static smc_runner_status_t encode_value(fl_runner_t *r, smc_fl_value_t *v, smc_arena_t *arena,
                                        uint8_t **out, size_t *out_len, smc_runner_report_t *report)
{
    smc_gerror_t *e = NULL;
    void *bytes = r->api.message_codec_encode_message(r->codecs.message, v, &e);
    if (!bytes) {
        return from_gerror(r, e, true, true, report);
    }
    return copy_bytes(r, bytes, arena, out, out_len, report);
}

static smc_runner_status_t encode_call(fl_runner_t *r, const char *name, smc_fl_value_t *args,
                                       smc_arena_t *arena, uint8_t **out, size_t *out_len,
                                       smc_runner_report_t *report)
{
    smc_gerror_t *e = NULL;
    void *bytes = r->codecs.calls->encode_method_call(r->codecs.method, name, args, &e);
    if (!bytes) {
        return from_gerror(r, e, false, true, report);
    }
    return copy_bytes(r, bytes, arena, out, out_len, report);
}

static smc_runner_status_t encode_envelope(fl_runner_t *r, bool is_error, smc_fl_value_t *v,
                                           const char *code, const char *message,
                                           smc_arena_t *arena, uint8_t **out, size_t *out_len,
                                           smc_runner_report_t *report)
{
    smc_gerror_t *e = NULL;
    void *bytes =
        is_error ? r->codecs.calls->encode_error_envelope(r->codecs.method, code, message, v, &e)
                 : r->codecs.calls->encode_success_envelope(r->codecs.method, v, &e);
    if (!bytes) {
        return from_gerror(r, e, false, true, report);
    }
    return copy_bytes(r, bytes, arena, out, out_len, report);
}

static smc_runner_status_t build(fl_runner_t *r, const smc_value_t *v, smc_fl_value_t **fv,
                                 smc_runner_report_t *report)
{
    char why[160] = "";
    smc_fl_conv_t c = smc_fl_from_smc(&r->api, v, fv, why, sizeof why);
    return c == SMC_FL_CONV_OK ? SMC_RUNNER_OK : from_conv(c, why, report);
}

static smc_runner_status_t no_c_string(smc_runner_report_t *report, const char *what)
{
    snprintf(report->message, sizeof report->message,
             "the %s holds U+0000, which the API's const gchar* cannot carry", what);
    return SMC_RUNNER_SKIPPED;
}

static smc_runner_status_t fl_encode(void *ctx, const smc_runner_item_t *item, smc_arena_t *arena,
                                     uint8_t **out, size_t *out_len, smc_runner_report_t *report)
{
    fl_runner_t *r = ctx;
    smc_fl_value_t *v = NULL;
    smc_runner_status_t st;
    switch (item->entry) {
    case SMC_ENTRY_MESSAGE:
        st = build(r, item->value, &v, report);
        if (st == SMC_RUNNER_OK) {
            st = encode_value(r, v, arena, out, out_len, report);
            r->api.value_unref(v);
        }
        return st;
    case SMC_ENTRY_CALL: {
        char *name = c_string(&item->call.name);
        if (!name) {
            return no_c_string(report, "method name");
        }
        st = build(r, item->call.args, &v, report);
        if (st == SMC_RUNNER_OK) {
            st = encode_call(r, name, v, arena, out, out_len, report);
            r->api.value_unref(v);
        }
        free(name);
        return st;
    }
    case SMC_ENTRY_ENVELOPE: {
        const smc_envelope_t *env = &item->envelope;
        if (!env->is_error) {
            st = build(r, env->result, &v, report);
            if (st == SMC_RUNNER_OK) {
                st = encode_envelope(r, false, v, NULL, NULL, arena, out, out_len, report);
                r->api.value_unref(v);
            }
            return st;
        }
        if (env->stacktrace_state != SMC_STACKTRACE_ABSENT) {
            /* fl_method_codec's error envelope has code, message and details only */
            snprintf(report->message, sizeof report->message,
                     "FlMethodCodec writes no stacktrace (error-stacktrace not declared)");
            return SMC_RUNNER_SKIPPED;
        }
        char *code = c_string(&env->code);
        char *message = env->has_message ? c_string(&env->message) : NULL;
        if (!code || (env->has_message && !message)) {
            free(code);
            free(message);
            return no_c_string(report, code ? "error message" : "error code");
        }
        st = build(r, env->details, &v, report);
        if (st == SMC_RUNNER_OK) {
            st = encode_envelope(r, true, v, code, message, arena, out, out_len, report);
            r->api.value_unref(v);
        }
        free(code);
        free(message);
        return st;
    }
    }
    return SMC_RUNNER_SKIPPED;
}

/* The round trip: encode again the FlValue (and names) the last decode produced. */
static smc_runner_status_t fl_reencode(void *ctx, const smc_runner_item_t *decoded,
                                       smc_arena_t *arena, uint8_t **out, size_t *out_len,
                                       smc_runner_report_t *report)
{
    (void)decoded;
    fl_runner_t *r = ctx;
    const smc_fl_api_t *a = &r->api;
    switch (r->last_entry) {
    case SMC_ENTRY_MESSAGE:
        return encode_value(r, r->last_value, arena, out, out_len, report);
    case SMC_ENTRY_CALL:
        return encode_call(r, r->last_name, r->last_value, arena, out, out_len, report);
    case SMC_ENTRY_ENVELOPE: {
        void *resp = r->last_response;
        if (smc_fl_is_a(a, resp, a->method_success_response_get_type())) {
            return encode_envelope(r, false, a->method_success_response_get_result(resp), NULL,
                                   NULL, arena, out, out_len, report);
        }
        if (smc_fl_is_a(a, resp, a->method_error_response_get_type())) {
            return encode_envelope(r, true, a->method_error_response_get_details(resp),
                                   a->method_error_response_get_code(resp),
                                   a->method_error_response_get_message(resp), arena, out, out_len,
                                   report);
        }
        snprintf(report->message, sizeof report->message,
                 "a not-implemented response has no envelope to write");
        return SMC_RUNNER_SKIPPED;
    }
    }
    return SMC_RUNNER_SKIPPED;
}

/* ---- the host hook: the glib vocabulary (spec §17.7, PROTOCOL.md P.2) ---- */

/* host_encode: the FlValue of exactly the named types, made with fl_value_new_*, written by
 * the engine's message codec. */
static smc_runner_status_t fl_host_encode(void *ctx, const char *vocabulary,
                                          const smc_runner_host_value_t *hv, smc_arena_t *arena,
                                          uint8_t **out, size_t *out_len,
                                          smc_runner_report_t *report)
{
    (void)vocabulary; /* only "glib" is declared; the kit skips every other */
    fl_runner_t *r = ctx;
    smc_fl_value_t *v = NULL;
    char why[160] = "";
    smc_fl_conv_t c = smc_fl_host_build(&r->api, hv, &v, why, sizeof why);
    if (c != SMC_FL_CONV_OK) {
        return from_conv(c, why, report);
    }
    smc_runner_status_t st = encode_value(r, v, arena, out, out_len, report);
    r->api.value_unref(v);
    return st;
}

/* host_decode: the engine's message codec decodes; every node is named by fl_value_get_type. */
static smc_runner_status_t fl_host_decode(void *ctx, const char *vocabulary, const uint8_t *data,
                                          size_t len, smc_arena_t *arena,
                                          smc_runner_host_value_t **out,
                                          smc_runner_report_t *report)
{
    (void)vocabulary;
    fl_runner_t *r = ctx;
    const smc_fl_api_t *a = &r->api;
    void *bytes = a->g_bytes_new_static(data, len);
    smc_gerror_t *e = NULL;
    smc_fl_value_t *v = a->message_codec_decode_message(r->codecs.message, bytes, &e);
    a->g_bytes_unref(bytes);
    if (!v) {
        return from_gerror(r, e, true, false, report);
    }
    char why[160] = "";
    smc_fl_conv_t c = smc_fl_host_describe(a, v, arena, out, why, sizeof why);
    a->value_unref(v);
    return c == SMC_FL_CONV_OK ? SMC_RUNNER_OK : from_conv(c, why, report);
}

/* ---- the declaration (P.7, GLIB) ---- */

/* FlValue has one integer type (no int64-distinct), cuts strings at U+0000 (no embedded-nul,
 * D12), keeps one value per key (no duplicate-map-keys, D15), and keeps insertion order
 * (map-order). No tag 5, no strict mode, no depth limit; error envelopes have three elements
 * (no error-stacktrace). custom-types only through the subclass of fl_codecs.c, float32list
 * only on engines that have FL_VALUE_TYPE_FLOAT32_LIST. */
static const char *g_caps[16];
static const char *const k_options_method[] = {"shift", NULL};
static const smc_runner_entry_options_t k_method_entry = {NULL, NULL, k_options_method};
static char g_version[128];

static void declare(const fl_runner_t *r)
{
    size_t n = 0;
    const char *base[] = {"int32",       "int64",     "float64",     "typed-lists",
                          "nan-payload", "map-order", "method-codec"};
    for (size_t i = 0; i < sizeof base / sizeof base[0]; i++) {
        g_caps[n++] = base[i];
    }
    if (r->api.value_new_float32_list && r->api.value_get_float32_list) {
        g_caps[n++] = "float32list";
    }
    if (r->codecs.custom) {
        g_caps[n++] = "custom-types";
    }
    g_caps[n] = NULL;
}

const smc_runner_codec_t *smc_runner_codec(void)
{
    static smc_runner_codec_t codec;
    if (codec.name) {
        return &codec;
    }
    const char *path = getenv("SMC_FLUTTER_ENGINE");
    char err[512] = "";
    if (!path || !*path) {
        fprintf(stderr, "smc-flutter-linux-runner: set SMC_FLUTTER_ENGINE to the path of a "
                        "libflutter_linux_gtk.so (runners/flutter-linux/README.md)\n");
        exit(2);
    }
    if (!smc_fl_api_load(path, &g_runner.api, err, sizeof err) ||
        !smc_fl_codecs_make(&g_runner.api, &g_runner.codecs, err, sizeof err)) {
        fprintf(stderr, "smc-flutter-linux-runner: %s\n", err);
        exit(2);
    }
    g_runner.codec_domain = g_runner.api.message_codec_error_quark();
    if (!g_runner.codecs.custom) {
        fprintf(stderr, "smc-flutter-linux-runner: no custom-types: %s\n",
                g_runner.codecs.custom_note);
    }
    char dart[64] = "";
    if (!smc_fl_dart_version(path, dart, sizeof dart)) {
        snprintf(dart, sizeof dart, "unknown");
    }
    snprintf(g_version, sizeof g_version, "engine with Dart %s", dart);
    declare(&g_runner);
    codec = (smc_runner_codec_t){.name = "libflutter_linux_gtk",
                                 .version = g_version,
                                 .language = "C (GLib)",
                                 .entries = {true, true, true},
                                 .decode_caps = g_caps,
                                 .encode_caps = g_caps,
                                 .error_offsets = false,
                                 .ctx = &g_runner,
                                 .decode = fl_decode,
                                 .encode = fl_encode,
                                 .reencode = fl_reencode,
                                 .error_classes = true,
                                 .per_entry = {NULL, &k_method_entry, &k_method_entry},
                                 .shift = true,
                                 /* FlValue's types are the glib vocabulary (fl_host.h) */
                                 .host_vocabularies = smc_fl_glib_vocabulary,
                                 .host_encode = fl_host_encode,
                                 .host_decode = fl_host_decode};
    /* the engine recurses on the stack it is called on: a fixed one (fl_thread.h) */
    if (!smc_fl_thread_wrap(&codec, err, sizeof err)) {
        fprintf(stderr, "smc-flutter-linux-runner: %s\n", err);
        exit(2);
    }
    return &codec;
}
