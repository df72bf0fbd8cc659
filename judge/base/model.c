/*
 * The judge's data model (model.h): the names every report prints for tiers, checks,
 * reasons and statuses, in one place so the text, JSON, JUnit and HTML reports cannot
 * disagree. A runner's results are released at the top (runner_free.c): they hold every
 * room's parts.
 */
#define _POSIX_C_SOURCE 200809L
#include "model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"

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
    case SMCJ_CHECK_SELF:
        snprintf(out, out_size, "self-consistency");
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
    case SMCJ_CHECK_SELF: /* value -> its own bytes -> value */
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

static const smcj_status_info_t k_status_info[] = {
#define SMCJ_STATUS_ROW(name, wire, css, flags, rank, heading, outside, junit, counter, cell)      \
    {wire, css, flags, rank, heading, outside, junit},
    SMCJ_STATUS_LIST(SMCJ_STATUS_ROW)
#undef SMCJ_STATUS_ROW
};

const smcj_status_info_t *smcj_status_info(smcj_status_t s)
{
    return &k_status_info[(size_t)s < SMCJ_ST_COUNT ? s : SMCJ_ST_NONE];
}

const char *smcj_status_name(smcj_status_t s)
{
    return (size_t)s < SMCJ_ST_COUNT ? k_status_info[s].name : "?";
}

bool smcj_status_is(smcj_status_t s, unsigned flags)
{
    return (smcj_status_info(s)->flags & flags) == flags;
}

unsigned smcj_status_max_rank(void)
{
    unsigned max = 0;
    for (size_t s = 0; s < SMCJ_ST_COUNT; s++) {
        max = k_status_info[s].rank > max ? k_status_info[s].rank : max;
    }
    return max;
}

size_t *smcj_status_counter(smcj_runner_t *r, smcj_status_t s)
{
#define SMCJ_ST_COUNTER(field) return &r->field;
#define SMCJ_ST_NO_COUNTER     return NULL;
#define SMCJ_STATUS_CASE(name, wire, css, flags, rank, heading, outside, junit, counter, cell)     \
    case SMCJ_ST_##name:                                                                           \
        counter
    switch (s) {
        SMCJ_STATUS_LIST(SMCJ_STATUS_CASE)
    case SMCJ_ST_COUNT:
        break;
    }
#undef SMCJ_STATUS_CASE
#undef SMCJ_ST_NO_COUNTER
#undef SMCJ_ST_COUNTER
    return NULL;
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

bool smcj_caps_have(char *const *caps, size_t n, const char *word)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(caps[i], word) == 0) {
            return true;
        }
    }
    return false;
}
