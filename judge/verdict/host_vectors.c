/*
 * Host-type vectors (spec §17): planning their one check and writing its request; their
 * fields are loaded by vectors/host_vector_load.c. A host vector carries a vocabulary
 * (`host`) and a host value (`host_value`,
 * {"type": T, "value": X}); an encode-from-host vector also carries the bytes it must be
 * written as (`value` + `canonical`, loaded like any valid vector) or a refusal
 * (`error.class` not_encodable); a decode-to-host vector the bytes and the host value a
 * decoder of that language must produce. A runner that does not speak the vocabulary gets
 * the vector as n/a: a Swift runner cannot build a Kotlin `Long`, and saying so hides no
 * failure. One that speaks it but lacks a feature the value needs (a FloatArray without
 * float32list) is held to R1.4-13 like any runner: a clean refusal is `unsupported`.
 */
#define _POSIX_C_SOURCE 200809L
#include "host_vectors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expect.h"
#include "host_absent.h"
#include "plan.h"

bool smcj_runner_speaks(const smcj_runner_t *r, const char *host)
{
    return host && smcj_caps_have(r->hosts, r->n_hosts, host);
}

void smcj_host_expect(smcj_check_t *c, const smcj_runner_t *r, const smcj_vector_t *v)
{
    if (!r->entry_ok[SMC_ENTRY_MESSAGE]) {
        c->outcome = SMCJ_OUT_NA;
        c->detail = smcj_strdup("runner lacks the message entry point");
        return;
    }
    if (!smcj_runner_speaks(r, v->host)) {
        c->outcome = SMCJ_OUT_NA;
        c->detail = smcj_asprintf("runner does not speak the %s host vocabulary (P.1 hosts)",
                                  v->host ? v->host : "?");
        return;
    }
    /* spec §17.1: a type the runner states its API lacks; the check is still sent, and only a
     * non-value answer makes it n/a (host_verdict.c) */
    c->host_absent = smcj_host_absent_of(r, v);
    const smcj_decl_t *d = &r->decl[SMC_ENTRY_MESSAGE];
    /* The vector's bytes already follow its vocabulary's table (by value for a Dart int);
     * only Pigeon's convention writes every integer as int64 (R12.3-1). */
    c->width = d->pigeon_int64 ? SMCJ_INTS_INT64 : SMCJ_INTS_BY_TYPE;
    c->any_order = v->host_any_order || !smcj_declares(r, SMC_ENTRY_MESSAGE, 1, "map-order");
    c->cmp.unordered_maps =
        v->host_any_order || !smcj_declares(r, SMC_ENTRY_MESSAGE, 0, "map-order");
    /* R1.4-13 as for every vector: a value needing a feature the runner lacks may be
     * refused cleanly (unsupported), never turned into another one */
    smcj_expect_lacks(c, r, v, c->kind == SMCJ_CHECK_HOST_ENCODE ? 1 : 0);
}

void smcj_host_request_line(smct_buf_t *b, unsigned long long seq, const smcj_vector_t *v,
                            const smcj_check_t *c)
{
    /* a P.2 request line: protocol text, byte-exact as plan.c's (the replay command shows it
     * as sent); the host value and hex, checked when the vectors loaded, are appended as is */
    smct_buf_printf(b, "{\"seq\":%llu,\"op\":\"%s\",\"host\":", seq,
                    c->kind == SMCJ_CHECK_HOST_DECODE ? "host_decode" : "host_encode");
    smct_json_write_cstr(b, v->host);
    /* appended, not printed (plan.c: a message may be megabytes) */
    smct_buf_puts(b, c->kind == SMCJ_CHECK_HOST_DECODE ? ",\"hex\":\"" : ",\"host_value\":");
    smct_buf_puts(b, c->kind == SMCJ_CHECK_HOST_DECODE ? v->canonical_hex : v->host_value);
    smct_buf_puts(b, c->kind == SMCJ_CHECK_HOST_DECODE ? "\"}" : "}");
}
