/*
 * The judge's data model (model.h): the names every report prints for tiers, checks,
 * reasons and statuses, in one place so the text, JSON, JUnit and HTML reports cannot
 * disagree, and the release of a runner's results.
 */
#define _POSIX_C_SOURCE 200809L
#include "model.h"

#include "diagnosis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "xfail.h"

const char *smcj_tier_name(smcj_tier_t t)
{
    switch (t) {
    case SMCJ_TIER_REQUIRED:
        return "required";
    case SMCJ_TIER_RECOMMENDED:
        return "recommended";
    case SMCJ_TIER_IMPLDEF:
        return "implementation-defined";
    }
    return "?";
}

bool smcj_tier_of_name(const char *name, smcj_tier_t *out)
{
    static const smcj_tier_t all[] = {SMCJ_TIER_REQUIRED, SMCJ_TIER_RECOMMENDED, SMCJ_TIER_IMPLDEF};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        if (strcmp(name, smcj_tier_name(all[i])) == 0) {
            *out = all[i];
            return true;
        }
    }
    return false;
}

void smcj_check_label(const smcj_check_t *c, char *out, size_t out_size)
{
    if (c->placed) {
        snprintf(out, out_size, "placement: %s shifted",
                 c->kind == SMCJ_CHECK_REJECT ? "reject flutter" : "decode");
        return;
    }
    switch (c->kind) {
    case SMCJ_CHECK_DECODE:
        snprintf(out, out_size, "decode");
        break;
    case SMCJ_CHECK_DECODE_STRICT:
        snprintf(out, out_size, "decode strict");
        break;
    case SMCJ_CHECK_ENCODE:
        snprintf(out, out_size, "encode");
        break;
    case SMCJ_CHECK_ROUNDTRIP:
        snprintf(out, out_size, "roundtrip");
        break;
    case SMCJ_CHECK_ACCEPT:
        snprintf(out, out_size, "decode accepted[%zu]", c->index);
        break;
    case SMCJ_CHECK_ACCEPT_STRICT:
        snprintf(out, out_size, "decode accepted[%zu] strict", c->index);
        break;
    case SMCJ_CHECK_REJECT:
        snprintf(out, out_size, "reject %s", c->strict ? "strict" : "flutter");
        break;
    case SMCJ_CHECK_LENIENT:
        snprintf(out, out_size, "decode flutter (strict-only reject)");
        break;
    case SMCJ_CHECK_HANDSHAKE:
        snprintf(out, out_size, "handshake");
        break;
    case SMCJ_CHECK_HOST_ENCODE:
        snprintf(out, out_size, "encode from host");
        break;
    case SMCJ_CHECK_HOST_DECODE:
        snprintf(out, out_size, "decode to host");
        break;
    }
}

const char *smcj_check_direction(const smcj_check_t *c)
{
    switch (c->kind) {
    case SMCJ_CHECK_ENCODE:
    case SMCJ_CHECK_HOST_ENCODE:
        return "encode";
    case SMCJ_CHECK_ROUNDTRIP:
        return "roundtrip";
    case SMCJ_CHECK_HANDSHAKE:
        return "handshake";
    case SMCJ_CHECK_DECODE:
    case SMCJ_CHECK_DECODE_STRICT:
    case SMCJ_CHECK_ACCEPT:
    case SMCJ_CHECK_ACCEPT_STRICT:
    case SMCJ_CHECK_REJECT:
    case SMCJ_CHECK_LENIENT:
    case SMCJ_CHECK_HOST_DECODE:
        break;
    }
    return "decode";
}

const char *smcj_reason_name(smcj_reason_t r)
{
    static const char *const names[] = {
#define SMCJ_REASON_STR(name, str) str,
        SMCJ_REASON_LIST(SMCJ_REASON_STR)
#undef SMCJ_REASON_STR
    };
    return (size_t)r < SMCJ_REASON_COUNT ? names[r] : "?";
}

const char *smcj_status_name(smcj_status_t s)
{
    switch (s) {
    case SMCJ_ST_NONE:
        return "not-selected";
    case SMCJ_ST_PASS:
        return "pass";
    case SMCJ_ST_FAIL:
        return "fail";
    case SMCJ_ST_FAIL_INFO:
        return "fail-ungated";
    case SMCJ_ST_DIFFERS:
        return "differs";
    case SMCJ_ST_XFAIL:
        return "expected-failure";
    case SMCJ_ST_XPASS:
        return "unexpected-pass";
    case SMCJ_ST_SKIPPED:
        return "skipped";
    case SMCJ_ST_NA:
        return "n/a";
    case SMCJ_ST_PLACEMENT:
        return "placement";
    case SMCJ_ST_PLACEMENT_INFO:
        return "placement-ungated";
    case SMCJ_ST_UNSUPPORTED:
        return "unsupported";
    }
    return "?";
}

void smcj_format_bytes(uint64_t n, char *out, size_t out_size)
{
    static const char *const units[] = {"KiB", "MiB", "GiB", "TiB"};
    if (n < 1024) {
        snprintf(out, out_size, "%llu B", (unsigned long long)n);
        return;
    }
    double v = (double)n / 1024.0;
    size_t u = 0;
    while (v >= 1024.0 && u + 1 < sizeof units / sizeof units[0]) {
        v /= 1024.0;
        u++;
    }
    snprintf(out, out_size, "%.1f %s", v, units[u]);
}

void smcj_runner_free(smcj_runner_t *r)
{
    free(r->name);
    free(r->command);
    free(r->skip_reason);
    free(r->xfail_path);
    free(r->write_xfail_path);
    if (r->has_xfail) {
        smcj_xfail_free(&r->xfail);
    }
    free(r->start_error);
    free(r->codec_name);
    free(r->handshake_note);
    smcj_free_strs(r->hosts, r->n_hosts);
    free(r->codec_version);
    free(r->codec_language);
    smcj_free_strs(r->decode_caps, r->n_decode_caps);
    smcj_free_strs(r->encode_caps, r->n_encode_caps);
    for (size_t e = 0; e < SMC_ENTRY_COUNT; e++) {
        smcj_free_strs(r->decl[e].caps[0], r->decl[e].n_caps[0]);
        smcj_free_strs(r->decl[e].caps[1], r->decl[e].n_caps[1]);
    }
    free(r->unsupported_features);
    for (size_t k = 0; k < r->n_checks; k++) {
        smcj_check_t *c = &r->checks[k];
        free(c->detail);
        free(c->expected);
        free(c->actual);
        free(c->exp_bytes);
        free(c->act_bytes);
        free(c->stderr_tail);
        free(c->lacks);
        free(c->replay_file);
        free(c->act_class);
    }
    smcj_diagnosis_free(r->diagnosis);
    free(r->checks);
    free(r->results);
    free(r->stderr_tail);
    free(r->stop_reason);
}
