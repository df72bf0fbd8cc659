/*
 * smc-c-mutant-runner: the C runner kit over the variant codec of mutants/, with the bugs
 * named in $SMC_MUTANTS switched on (ids of spec/bugs-in-the-wild.md, comma-separated, each
 * optionally @decoder or @encoder). With SMC_MUTANTS unset or "none" it behaves exactly like
 * the reference runner. It declares the reference's capabilities, so a bug shows as
 * failures instead of hiding as n/a. The judge's diagnosis tests run it with one or two bugs
 * on and check that the report names them; the vector generator runs it to compute `catches`.
 *
 *   SMC_MUTANTS=pad-from-remaining,pad-extra-block smc-c-mutant-runner
 *   SMC_MUTANT_OFFSETS=0   no error offsets at all (not declared, none sent), like most ports
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smc_runner_codec.h"
#include "smcm_codec.h"

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
static const char *const k_encode_caps[] = {
    "int32",       "int64",        "int64-distinct",   "float64",      "float32list",
    "typed-lists", "nan-payload",  "embedded-nul",     "custom-types", "duplicate-map-keys",
    "map-order",   "method-codec", "error-stacktrace", "depth-limit",  NULL};

static smcm_bugs_t g_bugs;
static bool g_offsets = true;

static smc_runner_status_t not_modelled(smc_runner_report_t *report, const char *why)
{
    snprintf(report->message, sizeof report->message, "mutant: %s", why ? why : "not modelled");
    return SMC_RUNNER_SKIPPED;
}

static smc_runner_status_t mutant_decode(void *ctx, smc_entry_t entry, const uint8_t *data,
                                         size_t len, smc_runner_mode_t mode, smc_arena_t *arena,
                                         smc_runner_item_t *out, smc_runner_report_t *report)
{
    (void)ctx;
    smcm_answer_t a;
    /* pad-from-address counts from where the bytes really are: the kit's `shift` puts them
     * 1..7 bytes past an 8-aligned address */
    smcm_decode(g_bugs.decoder, entry, data, len, mode == SMC_RUNNER_STRICT,
                (unsigned)((uintptr_t)data & 7u), arena, &a);
    switch (a.kind) {
    case SMCM_VALUE:
        *out = a.doc;
        return SMC_RUNNER_OK;
    case SMCM_ERROR:
        if (a.fault != SMCM_FAULT_NONE) {
            /* a failure the codec does not document: a C kit answers it as a crash (P.3), named
             * by the catalogue's kind (the judge reads a host's names for it the same way) */
            report->kind = smcm_fault_id(a.fault);
            snprintf(report->message, sizeof report->message, "mutant decoder: %s", a.why);
            return SMC_RUNNER_CRASHED;
        }
        /* a class the bug does not determine: this runner's guess, said so in the message */
        report->error_class = a.error_class ? a.error_class : "truncated";
        report->has_offset = a.has_offset && g_offsets; /* a codec without offsets sends none */
        report->offset = a.offset;
        snprintf(report->message, sizeof report->message, "mutant decoder%s%s", a.why ? ": " : "",
                 a.why ? a.why : "");
        return SMC_RUNNER_ERROR;
    case SMCM_BYTES:
    case SMCM_UNKNOWN:
        break;
    }
    return not_modelled(report, a.why);
}

static smc_runner_status_t mutant_encode(void *ctx, const smc_runner_item_t *item,
                                         smc_arena_t *arena, uint8_t **out, size_t *out_len,
                                         smc_runner_report_t *report)
{
    (void)ctx;
    smcm_answer_t a;
    smcm_encode(g_bugs.encoder, item, arena, &a);
    switch (a.kind) {
    case SMCM_BYTES:
        if (a.len == 0) {
            /* null-encodes-empty: DART, JAVA and OBJC return no message at all (null, nil)
             * for a top-level null, which their runners answer as P.3 "no bytes", not "" */
            return SMC_RUNNER_NO_BYTES;
        }
        *out = a.bytes;
        *out_len = a.len;
        return SMC_RUNNER_OK;
    case SMCM_ERROR:
        report->error_class = a.error_class;
        report->has_offset = false;
        snprintf(report->message, sizeof report->message, "mutant encoder refused the value");
        return SMC_RUNNER_ERROR;
    case SMCM_VALUE:
    case SMCM_UNKNOWN:
        break;
    }
    return not_modelled(report, a.why);
}

/* The round trip (runners/PROTOCOL.md P.2): this codec's host value is the decoded tree, so it
 * is encoded again, by the variant encoder, as it came out of the variant decoder. */
static smc_runner_status_t mutant_reencode(void *ctx, const smc_runner_item_t *decoded,
                                           smc_arena_t *arena, uint8_t **out, size_t *out_len,
                                           smc_runner_report_t *report)
{
    return mutant_encode(ctx, decoded, arena, out, out_len, report);
}

const smc_runner_codec_t *smc_runner_codec(void)
{
    static char name[512];
    static smc_runner_codec_t codec = {.name = "smc-c-mutant",
                                       .version = SMC_VERSION_STRING,
                                       .language = "C",
                                       .entries = {true, true, true},
                                       .decode_caps = k_decode_caps,
                                       .encode_caps = k_encode_caps,
                                       .error_offsets = true,
                                       .decode = mutant_decode,
                                       .encode = mutant_encode,
                                       .reencode = mutant_reencode,
                                       .host_vocabularies = smc_runner_c_vocabulary,
                                       .host_encode = smc_runner_c_host_encode,
                                       .host_decode = smc_runner_c_host_decode,
                                       .shift = true,
                                       .error_classes = true};
    const char *list = getenv("SMC_MUTANTS");
    char err[256];
    if (!smcm_parse_bugs(list, &g_bugs, err, sizeof err)) {
        fprintf(stderr, "smc-c-mutant-runner: SMC_MUTANTS: %s\n", err);
        exit(2);
    }
    snprintf(name, sizeof name, "smc-c-mutant[%s]", list && *list ? list : "none");
    codec.name = name;
    const char *offsets = getenv("SMC_MUTANT_OFFSETS");
    g_offsets = !(offsets && strcmp(offsets, "0") == 0);
    codec.error_offsets = g_offsets;
    return &codec;
}
