/*
 * Expectations per check (expect.h). The groups come from spec §1.4's table (profile.c); the
 * rules for each group are the spec's: R1.4-13 (lacking a feature: reject or refuse cleanly,
 * never another value), R4.2-4 (one integer type: widths by value), R7.2-2 (unordered maps:
 * the host's iteration order), R7.3-2 (one entry per key), R1.4-8 (every codec, every input).
 */
#define _POSIX_C_SOURCE 200809L
#include "expect.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "plan.h"
#include "profile.h"
#include "vectors.h"

bool smcj_declares(const smcj_runner_t *r, smc_entry_t entry, int direction, const char *word)
{
    const smcj_decl_t *d = &r->decl[entry];
    return smcj_caps_have(d->caps[direction], d->n_caps[direction], word);
}

static void add_lack(smcj_check_t *c, const char *word)
{
    char *joined = c->lacks ? smcj_asprintf("%s, %s", c->lacks, word) : smcj_strdup(word);
    free(c->lacks);
    c->lacks = joined;
}

void smcj_expect(smcj_check_t *c, const smcj_runner_t *r, const smcj_vector_t *v)
{
    smc_entry_t e = v->entry;
    const smcj_decl_t *d = &r->decl[e];
    bool decodes = c->kind != SMCJ_CHECK_ENCODE;
    bool encodes = c->kind == SMCJ_CHECK_ENCODE || c->kind == SMCJ_CHECK_ROUNDTRIP;
    bool dec_order = smcj_declares(r, e, 0, "map-order"),
         enc_order = smcj_declares(r, e, 1, "map-order");
    bool dec_ints = smcj_declares(r, e, 0, "int64-distinct"),
         enc_ints = smcj_declares(r, e, 1, "int64-distinct");

    /* host features (spec §1.4): how results compare */
    c->cmp.unordered_maps = !dec_order;
    c->cmp.ints_by_value = !dec_ints;
    if (c->kind == SMCJ_CHECK_ENCODE) {
        c->width = d->pigeon_int64 ? SMCJ_INTS_INT64
                   : enc_ints      ? SMCJ_INTS_BY_TYPE
                                   : SMCJ_INTS_BY_VALUE;
        /* version 1 took map-order from the decode capabilities for encoding too (P.5) */
        c->any_order = r->protocol >= 2 ? !enc_order : !(dec_order && enc_order);
    } else if (c->kind == SMCJ_CHECK_ROUNDTRIP) {
        /* the host value the decode produced is what is encoded again */
        c->width = d->pigeon_int64        ? SMCJ_INTS_INT64
                   : dec_ints && enc_ints ? SMCJ_INTS_BY_TYPE
                                          : SMCJ_INTS_BY_VALUE;
        c->any_order = !dec_order || !enc_order;
    }

    for (size_t i = 0; i < v->n_features; i++) {
        const char *f = v->features[i];
        const smcj_feature_t *info = smcj_feature(f);
        if (!info || strcmp(f, "strict-mode") == 0 || strcmp(f, "method-codec") == 0) {
            continue; /* strict checks are n/a without strict mode; the method codec is an entry */
        }
        if (strcmp(f, "depth-limit") == 0) {
            if (decodes && !smcj_declares(r, e, 0, f)) {
                c->robustness = true; /* R1.4-8 for everyone; depth_limit compared only with it */
                c->tier = SMCJ_TIER_REQUIRED;
            }
            continue;
        }
        if (info->group == SMCJ_GROUP_HOST) {
            /* a host map holds one entry per key, and a one-integer host merges i32 1 and
             * i64 1: such a value cannot even be built for its encoder, which may skip it.
             * Only such a value: a one-integer host can build `i64 5`, and must write it. */
            bool unbuildable = strcmp(f, "duplicate-map-keys") == 0 ||
                               (strcmp(f, "int64-distinct") == 0 && v->has_value &&
                                smcj_doc_has_merged_keys(&v->value, (smcj_cmp_t){false, true}));
            if (encodes && !smcj_declares(r, e, 1, f) && unbuildable) {
                c->skip_is_clean = true;
            }
            continue;
        }
        bool missing =
            (decodes && !smcj_declares(r, e, 0, f)) || (encodes && !smcj_declares(r, e, 1, f));
        if (missing) {
            add_lack(c, f);
            c->lacks_core = c->lacks_core || info->group == SMCJ_GROUP_CORE;
        }
    }
}

void smcj_expect_lacks(smcj_check_t *c, const smcj_runner_t *r, const smcj_vector_t *v,
                       int direction)
{
    for (size_t i = 0; i < v->n_features; i++) {
        const char *f = v->features[i];
        const smcj_feature_t *info = smcj_feature(f);
        if (!info || info->group == SMCJ_GROUP_HOST || strcmp(f, "strict-mode") == 0 ||
            strcmp(f, "method-codec") == 0 || strcmp(f, "depth-limit") == 0) {
            continue; /* how results compare, or requests a host check never makes */
        }
        if (!smcj_declares(r, v->entry, direction, f)) {
            add_lack(c, f);
            c->lacks_core = c->lacks_core || info->group == SMCJ_GROUP_CORE;
        }
    }
}
