/*
 * A runner's results released (options.h): at the top of the judge, because a runner holds
 * the parts of every room, the expected-failure list (verdict/), the diagnosis (diagnosis/)
 * and the complexity timings (complexity/), which the model (base/) must not know.
 */
#include "options.h"

#include <stdlib.h>

#include "alloc.h"
#include "complexity.h"
#include "diagnosis.h"
#include "xfail.h"

static void free_checks(smcj_check_t *checks, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        smcj_check_t *c = &checks[k];
        free(c->detail);
        free(c->expected);
        free(c->actual);
        free(c->exp_bytes);
        free(c->act_bytes);
        free(c->stderr_tail);
        free(c->lacks);
        free(c->replay_file);
        free(c->act_class);
        free(c->act_kind);
        free(c->own_hex);
    }
    free(checks);
}

void smcj_runner_free(smcj_runner_t *r)
{
    smcj_cx_runner_free(r->complexity);
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
    smcj_free_strs(r->without_host, r->n_without);
    smcj_free_strs(r->without_type, r->n_without);
    free(r->codec_version);
    free(r->codec_language);
    smcj_free_strs(r->decode_caps, r->n_decode_caps);
    smcj_free_strs(r->encode_caps, r->n_encode_caps);
    for (size_t e = 0; e < SMC_ENTRY_COUNT; e++) {
        smcj_free_strs(r->decl[e].caps[0], r->decl[e].n_caps[0]);
        smcj_free_strs(r->decl[e].caps[1], r->decl[e].n_caps[1]);
    }
    free(r->unsupported_features);
    free_checks(r->checks, r->n_checks);
    free_checks(r->probes, r->n_probes);
    smcj_diagnosis_free(r->diagnosis);
    free(r->results);
    free(r->stderr_tail);
    free(r->stop_reason);
}
