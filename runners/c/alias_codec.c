/*
 * A codec whose decoded values are views into the caller's bytes: the reference decoder with
 * SMC_ALIAS_INPUT (strings, byte arrays and typed lists point into the input). Flutter's Dart
 * ReadBuffer does the same with typed data. It exists for the judge's tests of the ownership
 * check (runners/PROTOCOL.md P.2): declared honestly (`borrows-input`) it passes; with
 * SMC_ALIAS_UNDECLARED=1 in its environment it does not declare it, the runner overwrites the
 * input before reading the value, and every vector with a payload fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smc_runner_codec.h"

static const char *const k_caps[] = {"int32",
                                     "int64",
                                     "int64-distinct",
                                     "float64",
                                     "float32list",
                                     "typed-lists",
                                     "nan-payload",
                                     "embedded-nul",
                                     "custom-types",
                                     "duplicate-map-keys",
                                     "map-order",
                                     "depth-limit",
                                     NULL};

static smc_runner_status_t alias_decode(void *ctx, smc_entry_t entry, const uint8_t *data,
                                        size_t len, smc_runner_mode_t mode, smc_arena_t *arena,
                                        smc_runner_item_t *out, smc_runner_report_t *report)
{
    (void)ctx;
    (void)mode; /* no strict-mode capability: always flutter */
    memset(out, 0, sizeof *out);
    out->entry = entry;
    smc_decode_opts_t opts = {SMC_ALIAS_INPUT, 0};
    smc_error_t err = {SMC_OK, 0};
    smc_status_t st = smc_decode(data, len, &opts, arena, &out->value, &err);
    if (st == SMC_OK) {
        return SMC_RUNNER_OK;
    }
    report->error_class = smc_status_class(st);
    report->has_offset = true;
    report->offset = err.offset;
    snprintf(report->message, sizeof report->message, "%s", smc_status_str(st));
    return SMC_RUNNER_ERROR;
}

static smc_runner_status_t alias_encode(void *ctx, const smc_runner_item_t *item,
                                        smc_arena_t *arena, uint8_t **out, size_t *out_len,
                                        smc_runner_report_t *report)
{
    (void)ctx;
    size_t need = smc_encoded_size(item->value);
    *out = need ? smc_arena_alloc(arena, need) : NULL;
    smc_status_t st =
        need ? smc_encode(item->value, *out, need, out_len, NULL) : SMC_ERR_NOT_ENCODABLE;
    if (st == SMC_OK) {
        return SMC_RUNNER_OK;
    }
    report->error_class = smc_status_class(st);
    snprintf(report->message, sizeof report->message, "%s", smc_status_str(st));
    return SMC_RUNNER_ERROR;
}

const smc_runner_codec_t *smc_runner_codec(void)
{
    static smc_runner_codec_t codec = {.name = "alias-views",
                                       .version = "0.0.1",
                                       .language = "C",
                                       .entries = {true, false, false},
                                       .decode_caps = k_caps,
                                       .encode_caps = k_caps,
                                       .error_offsets = true,
                                       .decode = alias_decode,
                                       .encode = alias_encode,
                                       .reencode = alias_encode,
                                       .host_vocabularies = smc_runner_c_vocabulary,
                                       .host_encode = smc_runner_c_host_encode,
                                       .host_decode = smc_runner_c_host_decode,
                                       .shift = true,
                                       .error_classes = true,
                                       .borrows_input = true};
    const char *undeclared = getenv("SMC_ALIAS_UNDECLARED");
    codec.borrows_input = !(undeclared && strcmp(undeclared, "1") == 0);
    return &codec;
}
