/*
 * A codec for scripts/tests/test_kits.py: its options differ by entry point (P.1 `per_entry`)
 * and its decoded message strings are views into the input (SMC_ALIAS_INPUT). The codec
 * declares borrows-input but its message entry replaces the options without it, so the kit
 * must overwrite a message's input before reading the answer (a message string then shows the
 * complemented bytes).
 */
#include <stdio.h>
#include <string.h>

#include "smc_runner_codec.h"

static const char *const k_caps[] = {"int32",       "int64",       "int64-distinct", "float64",
                                     "float32list", "typed-lists", "nan-payload",    "embedded-nul",
                                     "map-order",   NULL};
static const char *const k_call_caps[] = {"int32", "method-codec", NULL};
static const char *const k_call_options[] = {"error-classes", "borrows-input", NULL};
static const char *const k_message_options[] = {"error-classes", NULL};

static smc_runner_status_t options_decode(void *ctx, smc_entry_t entry, const uint8_t *data,
                                          size_t len, smc_runner_mode_t mode, smc_arena_t *arena,
                                          smc_runner_item_t *out, smc_runner_report_t *report)
{
    (void)ctx;
    (void)mode;
    smc_decode_opts_t opts = {SMC_ALIAS_INPUT | SMC_REJECT_CUSTOM, 0};
    smc_error_t err;
    smc_status_t st = smct_doc_decode(data, len, entry, &opts, arena, out, &err);
    if (st == SMC_OK) {
        return SMC_RUNNER_OK;
    }
    report->error_class = smc_status_class(st);
    snprintf(report->message, sizeof report->message, "%s", smc_status_str(st));
    return SMC_RUNNER_ERROR;
}

static smc_runner_status_t options_encode(void *ctx, const smc_runner_item_t *item,
                                          smc_arena_t *arena, uint8_t **out, size_t *out_len,
                                          smc_runner_report_t *report)
{
    (void)ctx;
    (void)item;
    (void)arena;
    (void)out;
    (void)out_len;
    snprintf(report->message, sizeof report->message, "this fixture only decodes");
    return SMC_RUNNER_SKIPPED;
}

const smc_runner_codec_t *smc_runner_codec(void)
{
    static const smc_runner_entry_options_t message = {.options = k_message_options};
    static const smc_runner_entry_options_t call = {.decode_caps = k_call_caps,
                                                    .options = k_call_options};
    static const smc_runner_codec_t codec = {
        .name = "options-fixture",
        .version = "0",
        .language = "C",
        .entries = {true, true, false},
        .decode_caps = k_caps,
        .encode_caps = k_caps,
        .decode = options_decode,
        .encode = options_encode,
        .no_shift = true,
        .borrows_input = true,
        .pigeon_int64 = true,
        .per_entry = {[SMC_ENTRY_MESSAGE] = &message, [SMC_ENTRY_CALL] = &call}};
    return &codec;
}
