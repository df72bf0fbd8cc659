/*
 * An example of plugging a codec into smc-c-runner (see ../README.md): a message-only codec
 * whose host has no strict mode, no custom types and no error offsets. It delegates the
 * actual work to the reference library to stay short; a real port calls its own code here.
 * The judge's tests use it to check that narrower capabilities become n/a, never passes.
 */
#include <stdio.h>
#include <string.h>

#include "smc_runner_codec.h" /* installed: include/smc/runner/ */

static const char *const k_caps[] = {
    "int32",       "int64",        "int64-distinct",     "float64",   "float32list", "typed-lists",
    "nan-payload", "embedded-nul", "duplicate-map-keys", "map-order", "depth-limit", NULL};

static smc_runner_status_t report_error(smc_status_t st, smc_runner_report_t *report)
{
    report->error_class = smc_status_class(st);
    report->has_offset = false; /* this codec does not promise spec/errors.md offsets */
    snprintf(report->message, sizeof report->message, "%s", smc_status_str(st));
    return SMC_RUNNER_ERROR;
}

static smc_runner_status_t example_decode(void *ctx, smc_entry_t entry, const uint8_t *data,
                                          size_t len, smc_runner_mode_t mode, smc_arena_t *arena,
                                          smc_runner_item_t *out, smc_runner_report_t *report)
{
    (void)ctx;
    (void)mode; /* never asked for strict: "strict-mode" is not a capability */
    memset(out, 0, sizeof *out);
    out->entry = entry;
    smc_decode_opts_t opts = {SMC_REJECT_CUSTOM, 0};
    smc_status_t st = smc_decode(data, len, &opts, arena, &out->value, NULL);
    return st == SMC_OK ? SMC_RUNNER_OK : report_error(st, report);
}

/* True if `v` holds a custom value anywhere. The values handed to the encoder are at most as
 * deep as the kit's notation reader allows, so the recursion is bounded. */
static bool has_custom(const smc_value_t *v)
{
    if (v->type == SMC_TYPE_CUSTOM) {
        return true;
    }
    size_t n = v->type == SMC_TYPE_LIST  ? v->list.count
               : v->type == SMC_TYPE_MAP ? 2 * v->map.count
                                         : 0;
    const smc_value_t *items = v->type == SMC_TYPE_LIST ? v->list.items : v->map.entries;
    for (size_t i = 0; i < n; i++) {
        if (has_custom(&items[i])) {
            return true;
        }
    }
    return false;
}

static smc_runner_status_t example_encode(void *ctx, const smc_runner_item_t *item,
                                          smc_arena_t *arena, uint8_t **out, size_t *out_len,
                                          smc_runner_report_t *report)
{
    (void)ctx;
    /* a host without custom types cannot hold one, and a codec that wrote one could not read
     * it back (it decodes with SMC_REJECT_CUSTOM): spec R1.4-18 */
    if (item->value && has_custom(item->value)) {
        return report_error(SMC_ERR_NOT_ENCODABLE, report);
    }
    size_t need = smc_encoded_size(item->value);
    if (need == 0) {
        return report_error(SMC_ERR_NOT_ENCODABLE, report);
    }
    *out = smc_arena_alloc(arena, need);
    if (!*out) {
        return report_error(SMC_ERR_NOMEM, report);
    }
    smc_status_t st = smc_encode(item->value, *out, need, out_len, NULL);
    return st == SMC_OK ? SMC_RUNNER_OK : report_error(st, report);
}

/* The round trip: this codec's host value is the decoded tree itself. */
static smc_runner_status_t example_reencode(void *ctx, const smc_runner_item_t *decoded,
                                            smc_arena_t *arena, uint8_t **out, size_t *out_len,
                                            smc_runner_report_t *report)
{
    return example_encode(ctx, decoded, arena, out, out_len, report);
}

const smc_runner_codec_t *smc_runner_codec(void)
{
    static const smc_runner_codec_t codec = {
        .name = "example-message-only",
        .version = "0.0.1",
        .language = "C",
        .entries = {true, false, false},
        .decode_caps = k_caps,
        .encode_caps = k_caps,
        .decode = example_decode,
        .encode = example_encode,
        .reencode = example_reencode,
        /* the options (PROTOCOL.md P.1) are the author's choice */
        .error_classes = true,  /* errors name spec classes */
        .error_offsets = false, /* no spec/errors.md offsets */
        .shift = true,          /* take the placement check */
        .borrows_input = false, /* values own their bytes */
        .pigeon_int64 = false,  /* int32 range written as int32 */
        .per_entry = {NULL},    /* one entry point, nothing differs */
        /* host-type vectors (spec §17): the host value is the smc_value_t tree itself, so
         * the kit's `c` hook builds it and hands it to example_encode / example_decode */
        .host_vocabularies = smc_runner_c_vocabulary,
        .host_encode = smc_runner_c_host_encode,
        .host_decode = smc_runner_c_host_decode};
    return &codec;
}
