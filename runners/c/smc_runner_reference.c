/* The reference codec (ref-decoder/) behind the runner interface (smc_runner_codec.h). */
#include <stdio.h>
#include <string.h>

#include "smc_runner_codec.h"

/* Everything the reference can express when decoding (spec/vectors.md V.3)... */
static const char *const k_decode_caps[] = {"int32",
                                            "int64",
                                            "int64-distinct",
                                            "float64",
                                            "float32list",
                                            "typed-lists",
                                            "nan-payload",
                                            "embedded-nul",
                                            "custom-types",
                                            "largeint",
                                            "duplicate-map-keys",
                                            "map-order",
                                            "method-codec",
                                            "error-stacktrace",
                                            "strict-mode",
                                            "depth-limit",
                                            NULL};
/* ...and encoding: everything but largeint, which is never written (spec §4.4). */
static const char *const k_encode_caps[] = {
    "int32",       "int64",        "int64-distinct",   "float64",      "float32list",
    "typed-lists", "nan-payload",  "embedded-nul",     "custom-types", "duplicate-map-keys",
    "map-order",   "method-codec", "error-stacktrace", "depth-limit",  NULL};

static smc_runner_status_t from_status(smc_status_t st, const smc_error_t *err,
                                       smc_runner_report_t *report)
{
    if (st == SMC_OK) {
        return SMC_RUNNER_OK;
    }
    report->error_class = smc_status_class(st);
    report->has_offset = true;
    report->offset = err->offset;
    snprintf(report->message, sizeof report->message, "%s: %s", smc_status_name(st),
             smc_status_str(st));
    return SMC_RUNNER_ERROR;
}

static smc_runner_status_t ref_decode(void *ctx, smc_entry_t entry, const uint8_t *data, size_t len,
                                      smc_runner_mode_t mode, smc_arena_t *arena,
                                      smc_runner_item_t *out, smc_runner_report_t *report)
{
    (void)ctx;
    smc_decode_opts_t opts = {mode == SMC_RUNNER_STRICT ? SMC_MODE_STRICT : SMC_MODE_FLUTTER, 0};
    smc_error_t err = {SMC_OK, 0};
    smc_status_t st = SMC_ERR_USAGE;
    memset(out, 0, sizeof *out);
    out->entry = entry;
    switch (entry) {
    case SMC_ENTRY_MESSAGE:
        st = smc_decode(data, len, &opts, arena, &out->value, &err);
        break;
    case SMC_ENTRY_CALL:
        st = smc_decode_method_call(data, len, &opts, arena, &out->call, &err);
        break;
    case SMC_ENTRY_ENVELOPE:
        st = smc_decode_envelope(data, len, &opts, arena, &out->envelope, &err);
        break;
    }
    return from_status(st, &err, report);
}

static smc_status_t encode_into(const smc_runner_item_t *item, uint8_t *buf, size_t cap, size_t *n,
                                smc_error_t *err)
{
    switch (item->entry) {
    case SMC_ENTRY_MESSAGE:
        return smc_encode(item->value, buf, cap, n, err);
    case SMC_ENTRY_CALL:
        return smc_encode_method_call(&item->call, buf, cap, n, err);
    case SMC_ENTRY_ENVELOPE:
        return smc_encode_envelope(&item->envelope, buf, cap, n, err);
    }
    return SMC_ERR_USAGE;
}

static smc_runner_status_t ref_encode(void *ctx, const smc_runner_item_t *item, smc_arena_t *arena,
                                      uint8_t **out, size_t *out_len, smc_runner_report_t *report)
{
    (void)ctx;
    smc_error_t err = {SMC_OK, 0};
    size_t need = 0;
    /* size query first (the writer counts past a full buffer), then the real write */
    smc_status_t st = encode_into(item, NULL, 0, &need, &err);
    if (st == SMC_ERR_BUFFER_FULL || st == SMC_OK) {
        uint8_t *buf = smc_arena_alloc(arena, need ? need : 1);
        if (!buf) {
            /* not a refusal the codec documents: the runner's arena ran out */
            report->kind = "out of memory";
            snprintf(report->message, sizeof report->message, "out of memory for %zu bytes", need);
            return SMC_RUNNER_CRASHED;
        }
        st = encode_into(item, buf, need, out_len, &err);
        *out = buf;
    }
    smc_runner_status_t r = from_status(st, &err, report);
    report->has_offset =
        false; /* encoder offsets are output positions, not spec/errors.md offsets */
    return r;
}

/* The round trip: the reference's host value is the decoded tree itself, so encoding it again
 * is encoding what decode returned (runners/PROTOCOL.md P.2). */
static smc_runner_status_t ref_reencode(void *ctx, const smc_runner_item_t *decoded,
                                        smc_arena_t *arena, uint8_t **out, size_t *out_len,
                                        smc_runner_report_t *report)
{
    return ref_encode(ctx, decoded, arena, out, out_len, report);
}

const smc_runner_codec_t *smc_runner_codec(void)
{
    static const smc_runner_codec_t codec = {.name = "smc-c-reference",
                                             .version = SMC_VERSION_STRING,
                                             .language = "C",
                                             .entries = {true, true, true},
                                             .decode_caps = k_decode_caps,
                                             .encode_caps = k_encode_caps,
                                             .error_offsets = true,
                                             .decode = ref_decode,
                                             .encode = ref_encode,
                                             .reencode = ref_reencode,
                                             .host_vocabularies = smc_runner_c_vocabulary,
                                             .host_encode = smc_runner_c_host_encode,
                                             .host_decode = smc_runner_c_host_decode,
                                             .shift = true,
                                             .error_classes = true};
    return &codec;
}
