/*
 * The `c` vocabulary's host hook (spec §17.8) for codecs whose host value is the smc_value_t
 * tree itself (the reference and this directory's fixtures): a `c` host value names the
 * smc_type_t of every node, so building it is reading it as notation (runner_host.c), and
 * describing a decoded tree is writing its notation as host values.
 */
#include <stdio.h>
#include <string.h>

#include "runner_host.h"
#include "runner_host_value.h"
#include "smc_runner_codec.h"
#include "smct_notation.h"

const char *const smc_runner_c_vocabulary[] = {"c", NULL};

static smc_runner_status_t not_c(smc_runner_report_t *report, const char *why)
{
    snprintf(report->message, sizeof report->message, "%s", why);
    return SMC_RUNNER_SKIPPED;
}

smc_runner_status_t smc_runner_c_host_to_item(const smc_runner_host_value_t *hv, smc_arena_t *arena,
                                              smc_runner_item_t *out, smc_runner_report_t *report)
{
    smct_buf_t host, text;
    smct_buf_init(&host);
    smct_buf_init(&text);
    smct_json_t *hjson = NULL, *njson = NULL;
    smct_error_t e;
    bool ok = smc_runner_host_value_write(&host, hv) && smct_buf_ok(&host) &&
              smct_json_parse(host.data, host.len, NULL, arena, &hjson, &e) == SMCT_OK &&
              smc_runner_host_to_notation(hjson, &text) && smct_buf_ok(&text) &&
              smct_json_parse(text.data, text.len, NULL, arena, &njson, &e) == SMCT_OK &&
              smct_notation_read(njson, SMC_ENTRY_MESSAGE, arena, out, &e) == SMCT_OK;
    smct_buf_free(&host);
    smct_buf_free(&text);
    return ok ? SMC_RUNNER_OK : not_c(report, "not a c host value (spec §17.8)");
}

smc_runner_status_t smc_runner_c_host_of_item(const smc_runner_item_t *item, smc_arena_t *arena,
                                              smc_runner_host_value_t **out,
                                              smc_runner_report_t *report)
{
    smct_buf_t text, host;
    smct_buf_init(&text);
    smct_buf_init(&host);
    smct_json_t *njson = NULL, *hjson = NULL;
    smct_error_t e;
    bool ok = smct_notation_write(&text, item, SMCT_NOTATION_COMPACT, &e) == SMCT_OK &&
              smct_buf_ok(&text) &&
              smct_json_parse(text.data, text.len, NULL, arena, &njson, &e) == SMCT_OK &&
              smc_runner_notation_to_host(njson, &host) && smct_buf_ok(&host) &&
              smct_json_parse(host.data, host.len, NULL, arena, &hjson, &e) == SMCT_OK &&
              (*out = smc_runner_host_value_read(hjson, arena)) != NULL;
    smct_buf_free(&text);
    smct_buf_free(&host);
    return ok ? SMC_RUNNER_OK : not_c(report, "the decoded value has a node with no c host type");
}

smc_runner_status_t smc_runner_c_host_encode(void *ctx, const char *vocabulary,
                                             const smc_runner_host_value_t *hv, smc_arena_t *arena,
                                             uint8_t **out, size_t *out_len,
                                             smc_runner_report_t *report)
{
    (void)vocabulary;
    smc_runner_item_t item;
    memset(&item, 0, sizeof item);
    smc_runner_status_t st = smc_runner_c_host_to_item(hv, arena, &item, report);
    if (st != SMC_RUNNER_OK) {
        return st;
    }
    return smc_runner_codec()->encode(ctx, &item, arena, out, out_len, report);
}

smc_runner_status_t smc_runner_c_host_decode(void *ctx, const char *vocabulary, const uint8_t *data,
                                             size_t len, smc_arena_t *arena,
                                             smc_runner_host_value_t **out,
                                             smc_runner_report_t *report)
{
    (void)vocabulary;
    smc_runner_item_t item;
    memset(&item, 0, sizeof item);
    smc_runner_status_t st = smc_runner_codec()->decode(ctx, SMC_ENTRY_MESSAGE, data, len,
                                                        SMC_RUNNER_FLUTTER, arena, &item, report);
    if (st != SMC_RUNNER_OK) {
        return st;
    }
    return smc_runner_c_host_of_item(&item, arena, out, report);
}
