/*
 * From checks to per-vector statuses and the gate (results.h). The policy, in one place: a
 * vector passes only if every applicable check passed; a crash, timeout or protocol error
 * fails at every tier (spec R1.4-8); a difference on an implementation-defined vector is
 * "differs", outside the gate unless --gate all; an expected failure that passes, or an
 * expected-failure entry that matches nothing, fails the run (protobuf's conformance rules),
 * so a list can never hide a fixed bug or a renamed vector.
 */
#define _POSIX_C_SOURCE 200809L
#include "results.h"

#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "escape.h"
#include "expect.h"
#include "host_vectors.h"
#include "profile.h"
#include "self_check.h"
#include "vectors.h"
#include "xfail.h"

bool smcj_reason_is_harness(smcj_reason_t r)
{
    /* RESOURCE: the runner hit --memory-limit, or reserved far more memory than a length-bomb
     * input implies (R1.4-9, R15.2-3); like a crash, it fails at every tier. JUDGE_ERROR: the
     * judge could not judge the check (a vector it cannot compare with): no verdict on the
     * codec, so never a pass, never n/a, never excused by a list, and the run fails at every
     * tier until the judge or the vector is fixed. */
    return r == SMCJ_REASON_CRASH || r == SMCJ_REASON_TIMEOUT || r == SMCJ_REASON_PROTOCOL_ERROR ||
           r == SMCJ_REASON_RESOURCE || r == SMCJ_REASON_JUDGE_ERROR;
}

void smcj_checks_of(const smcj_runner_t *r, size_t vi, size_t *begin, size_t *end)
{
    /* checks are appended vector by vector, in vector order: binary search the first */
    size_t lo = 0, hi = r->n_checks;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (r->checks[mid].vector < vi) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    size_t e = lo;
    while (e < r->n_checks && r->checks[e].vector == vi) {
        e++;
    }
    *begin = lo;
    *end = e;
}

/* One line of why the gate failed (or what it ignored), in the order found. */
static void note(smcj_run_t *run, char *text)
{
    size_t cap = run->n_gate_notes;
    if (!text ||
        !smcj_grow((void **)&run->gate_notes, &cap, run->n_gate_notes + 1, sizeof(char *))) {
        free(text); /* out of memory: recorded; no report is written */
        return;
    }
    run->gate_notes[run->n_gate_notes++] = text;
}

/* Whether a failure of a vector of `tier` with `reason` counts against the gate. */
static bool gated(const smcj_run_t *run, smcj_tier_t tier, smcj_reason_t reason)
{
    if (smcj_reason_is_harness(reason)) {
        return true; /* R1.4-8: crashing or hanging is never implementation-defined */
    }
    switch (tier) {
    case SMCJ_TIER_REQUIRED:
        return true;
    case SMCJ_TIER_RECOMMENDED:
        return run->gate >= SMCJ_GATE_RECOMMENDED;
    case SMCJ_TIER_IMPLDEF:
        return run->gate >= SMCJ_GATE_ALL;
    }
    return true;
}

smcj_tier_t smcj_placement_tier(smcj_reason_t reason)
{
    /* spec §3.3: another value, or accepting a rejected input, breaks R3.3-1 / R1.4-8, and
     * so does a crash or a hang (labelled required because it is gated at every tier: the
     * label and the gate must agree); failing with an error (any class, any offset, or an
     * unclassified rejection) only R3.3-5, a SHOULD */
    return reason == SMCJ_REASON_WRONG_VALUE || reason == SMCJ_REASON_UNEXPECTED_SUCCESS ||
                   smcj_reason_is_harness(reason)
               ? SMCJ_TIER_REQUIRED
               : SMCJ_TIER_RECOMMENDED;
}

smcj_tier_t smcj_check_tier(const smcj_check_t *c)
{
    if (smcj_reason_is_harness(c->reason)) {
        return SMCJ_TIER_REQUIRED; /* R1.4-8, a MUST on every vector: gated at every tier */
    }
    if (c->silent_loss && c->outcome == SMCJ_OUT_FAIL) {
        return SMCJ_TIER_REQUIRED; /* R1.4-13, a MUST: a loss is never implementation-defined */
    }
    if (c->reason == SMCJ_REASON_UNCLASSIFIED) {
        return SMCJ_TIER_RECOMMENDED; /* R1.4-15, a SHOULD, whatever the vector's tier */
    }
    return c->tier;
}

/* Which failing check decides a vector: a harness failure anywhere (gated at every tier,
 * R1.4-8; it must not hide behind an earlier "differs"), else the most gated tier, else the
 * first. */
static bool decides_over(const smcj_check_t *c, const smcj_check_t *best)
{
    if (!best) {
        return true;
    }
    bool h = smcj_reason_is_harness(c->reason), hb = smcj_reason_is_harness(best->reason);
    if (h != hb) {
        return h;
    }
    return !h && smcj_check_tier(c) < smcj_check_tier(best);
}

/* The aligned check the placement check repeats: same kind and mode, not placed. */
static const smcj_check_t *aligned_twin(const smcj_runner_t *r, size_t b, size_t e,
                                        const smcj_check_t *p)
{
    for (size_t k = b; k < e; k++) {
        const smcj_check_t *c = &r->checks[k];
        if (!c->placed && c->kind == p->kind && c->strict == p->strict) {
            return c;
        }
    }
    return NULL;
}

/* A clean rejection of a vector needing a feature the runner lacks (spec R1.4-13). */
static bool clean_refusal(const smcj_check_t *c)
{
    return c->outcome == SMCJ_OUT_UNSUPPORTED || (c->outcome == SMCJ_OUT_NA && c->clean_refusal);
}

/* spec §3.3: true if the shifted decode did something the aligned one did not. */
static bool misplaced(const smcj_check_t *p, const smcj_check_t *twin)
{
    if (!twin || (p->outcome != SMCJ_OUT_FAIL && p->outcome != SMCJ_OUT_SKIPPED)) {
        return false;
    }
    if (twin->outcome == SMCJ_OUT_PASS) {
        return true;
    }
    /* an unclassified rejection when aligned (R1.4-15): the same, or a documented error,
     * when shifted is no placement fault; a value, a crash or another failure is */
    if (twin->outcome == SMCJ_OUT_FAIL && twin->reason == SMCJ_REASON_UNCLASSIFIED) {
        return p->outcome == SMCJ_OUT_SKIPPED ||
               (p->outcome == SMCJ_OUT_FAIL && p->reason != SMCJ_REASON_UNCLASSIFIED);
    }
    /* rejected cleanly when aligned, something else when shifted (a value, a crash) */
    if (clean_refusal(twin)) {
        return p->outcome == SMCJ_OUT_FAIL;
    }
    /* the aligned decode showed a listed alternative: the shifted one must show it too */
    return twin->outcome == SMCJ_OUT_FAIL && twin->alt >= 0 &&
           !(p->outcome == SMCJ_OUT_FAIL && p->alt == twin->alt);
}

static void count(smcj_runner_t *r, const smcj_result_t *res)
{
    size_t *n = smcj_status_counter(r, res->status);
    if (n) {
        (*n)++;
    }
    r->n_differs_listed += res->status == SMCJ_ST_DIFFERS && res->alt >= 0;
}

/*
 * spec §1.4 "The mandatory core", R1.4-17: an expected-failure list records wrong answers, known
 * bugs of a codec that runs. A crash, timeout, protocol error or resource failure breaks R1.4-8
 * on that input whatever the tier, and a skip or a clean refusal of a required vector means
 * the codec was never tested on it: no list excuses those (the run lists them as failures),
 * unless --allow-xfail-crashes says otherwise, which every report states.
 */
static bool may_excuse(const smcj_run_t *run, smcj_outcome_t outcome, smcj_reason_t reason,
                       smcj_tier_t vector_tier)
{
    if (run->allow_xfail_crashes) {
        return true;
    }
    switch (outcome) {
    case SMCJ_OUT_FAIL:
        return !smcj_reason_is_harness(reason);
    case SMCJ_OUT_SKIPPED:
    case SMCJ_OUT_UNSUPPORTED:
        return vector_tier != SMCJ_TIER_REQUIRED;
    case SMCJ_OUT_PASS:
    case SMCJ_OUT_NA:
    case SMCJ_OUT_PENDING:
        return true; /* nothing to excuse: a listed pass is an unexpected pass */
    }
    return true;
}

/* spec §1.4, R1.4-17: the required vectors of the message entry point (not the host-type
 * vectors of §17, which only the runners of one host vocabulary get). */
static bool in_mandatory_core(const smcj_vector_t *v)
{
    return v->entry == SMC_ENTRY_MESSAGE && v->tier == SMCJ_TIER_REQUIRED && !v->is_host;
}

static void compute_one(smcj_run_t *run, smcj_runner_t *r, size_t i)
{
    const smcj_vector_t *v = &run->vectors->v[i];
    smcj_result_t *res = &r->results[i];
    res->first_check = SIZE_MAX;
    res->placement_check = SIZE_MAX;
    res->tier = v->tier;
    res->alt = -1;
    if (!v->selected) {
        res->status = SMCJ_ST_NONE;
        return;
    }
    size_t b, e;
    smcj_checks_of(r, i, &b, &e);
    const smcj_check_t *best = NULL, *placed = NULL;
    bool any_skip = false, any_pass = false, any_clean = false, unsupported = false;
    bool robust = false, bomb = false;
    size_t first_skip = SIZE_MAX, first_clean = SIZE_MAX;
    for (size_t k = b; k < e; k++) {
        const smcj_check_t *c = &r->checks[k];
        robust = robust || (c->robustness && c->outcome != SMCJ_OUT_NA);
        bomb = bomb || c->accepted_bomb;
        if (c->placed) {
            placed = c; /* judged apart from the wire-level checks, below */
            continue;
        }
        if (c->outcome == SMCJ_OUT_FAIL) {
            if (decides_over(c, best)) {
                best = c;
                res->first_check = k;
            }
        } else if (c->outcome == SMCJ_OUT_SKIPPED) {
            any_skip = true;
            first_skip = first_skip == SIZE_MAX ? k : first_skip;
        } else if (clean_refusal(c)) {
            any_clean = true;
            unsupported = unsupported || c->outcome == SMCJ_OUT_UNSUPPORTED;
            first_clean = first_clean == SIZE_MAX ? k : first_clean;
        } else if (c->outcome == SMCJ_OUT_PASS) {
            any_pass = true;
        }
    }
    r->n_robust += robust;
    r->n_bombs_accepted += bomb;
    /* A vector passes only if every applicable check passed; a skip is never a pass, and
     * neither is a clean rejection of a feature the runner lacks (spec R1.4-13). */
    res->outcome = best          ? SMCJ_OUT_FAIL
                   : any_skip    ? SMCJ_OUT_SKIPPED
                   : unsupported ? SMCJ_OUT_UNSUPPORTED
                   : any_clean   ? SMCJ_OUT_NA
                   : any_pass    ? SMCJ_OUT_PASS
                                 : SMCJ_OUT_NA;
    if (best) {
        res->reason = best->reason;
        res->tier = smcj_check_tier(best);
        res->alt = best->alt;
        res->host_merge = best->host_merge;
    }
    if (res->outcome == SMCJ_OUT_SKIPPED) {
        res->first_check = first_skip;
    } else if (!best && any_clean) {
        res->first_check = first_clean;
    }
    const smcj_xfail_entry_t *listed = r->has_xfail ? smcj_xfail_lookup(&r->xfail, v->id) : NULL;
    res->excusable = may_excuse(run, res->outcome, res->reason, v->tier);
    const smcj_xfail_entry_t *x = res->excusable ? listed : NULL;
    res->xfail_reason = x ? x->reason : NULL;
    switch (res->outcome) {
    case SMCJ_OUT_PASS:
        res->status = x ? SMCJ_ST_XPASS : SMCJ_ST_PASS;
        break;
    case SMCJ_OUT_FAIL:
        if (x) {
            res->status = SMCJ_ST_XFAIL;
        } else if (res->reason == SMCJ_REASON_UNCLASSIFIED) {
            /* counted apart: a rejection, only not the documented one (R1.4-15) */
            res->status = gated(run, res->tier, res->reason) ? SMCJ_ST_UNCLASSIFIED
                                                             : SMCJ_ST_UNCLASSIFIED_INFO;
        } else if (gated(run, res->tier, res->reason)) {
            res->status = SMCJ_ST_FAIL;
        } else {
            res->status = res->tier == SMCJ_TIER_IMPLDEF ? SMCJ_ST_DIFFERS : SMCJ_ST_FAIL_INFO;
        }
        break;
    case SMCJ_OUT_SKIPPED:
        /* A skip is never a pass (PROTOCOL.md P.3). What a host cannot express belongs in
         * the handshake's capabilities (n/a); a skip in a gated tier fails the gate unless
         * the expected-failure list names it, so a runner cannot pass by skipping. */
        if (x) {
            res->status = SMCJ_ST_XFAIL;
        } else {
            res->status = SMCJ_ST_SKIPPED;
            r->n_skipped_gated += gated(run, v->tier, SMCJ_REASON_NONE);
        }
        break;
    case SMCJ_OUT_UNSUPPORTED:
        /* the gate goes by the runner's feature verdict (feature_verdicts), not by this */
        res->status = x ? SMCJ_ST_XFAIL : SMCJ_ST_UNSUPPORTED;
        break;
    case SMCJ_OUT_NA:
    case SMCJ_OUT_PENDING:
        res->status = SMCJ_ST_NA;
        break;
    }
    /* spec §3.3: right at an aligned address and not at the shifted one is a placement
     * verdict of its own, only where the wire-level verdict is pass or differs, so the two
     * are never merged. */
    bool wire_ok = res->status == SMCJ_ST_PASS || res->status == SMCJ_ST_DIFFERS ||
                   res->status == SMCJ_ST_XPASS || res->status == SMCJ_ST_UNSUPPORTED ||
                   (res->status == SMCJ_ST_NA && any_clean);
    smcj_reason_t why =
        placed && placed->outcome != SMCJ_OUT_SKIPPED ? placed->reason : SMCJ_REASON_NONE;
    /* an unclassified rejection when aligned gives way only to a required placement fault */
    wire_ok = wire_ok ||
              ((res->status == SMCJ_ST_UNCLASSIFIED || res->status == SMCJ_ST_UNCLASSIFIED_INFO) &&
               smcj_placement_tier(why) == SMCJ_TIER_REQUIRED);
    if (placed && wire_ok && misplaced(placed, aligned_twin(r, b, e, placed))) {
        res->placement_check = (size_t)(placed - r->checks);
        res->placement_tier = smcj_placement_tier(why);
        res->reason = why;
        /* a crash or hang at the shifted address is R1.4-8's too */
        res->excusable = may_excuse(run, SMCJ_OUT_FAIL, why, v->tier);
        x = res->excusable ? listed : NULL;
        res->xfail_reason = x ? x->reason : NULL;
        if (x) {
            res->status = SMCJ_ST_XFAIL;
        } else {
            res->status =
                gated(run, res->placement_tier, why) ? SMCJ_ST_PLACEMENT : SMCJ_ST_PLACEMENT_INFO;
        }
    }
    res->xfail_refused = listed && !x;
    r->n_xfail_refused += res->xfail_refused;
    if (in_mandatory_core(v)) {
        r->n_core++;
        r->n_core_pass += res->status == SMCJ_ST_PASS;
    }
    count(r, res);
}

/*
 * spec §1.4, R1.4-11: one verdict per core feature the runner lacks, in a direction and at an
 * entry point it implements, with the selected vectors that need it. It goes by what the
 * runner declared, not by how those vectors came out: a codec that does not claim a MUST
 * feature does not conform, however many of its vectors pass.
 */
static void feature_verdicts(smcj_run_t *run, smcj_runner_t *r)
{
    const smcj_vectors_t *vs = run->vectors;
    size_t n_features;
    const smcj_feature_t *features = smcj_features(&n_features);
    for (size_t f = 0; f < n_features; f++) {
        if (features[f].group != SMCJ_GROUP_CORE) {
            continue;
        }
        smcj_feature_verdict_t fv = {features[f].word, features[f].rule, false, false, 0, NULL};
        for (size_t i = 0; i < vs->count; i++) {
            const smcj_vector_t *v = &vs->v[i];
            if (!v->selected || !r->entry_ok[v->entry] || !smcj_vector_has_feature(v, fv.feature)) {
                continue;
            }
            if (v->is_host && !smcj_runner_speaks(r, v->host)) {
                continue; /* spec §17: never sent to a runner without its vocabulary (n/a) */
            }
            /* a host-type vector (spec §17) is checked one way only */
            bool decodes = !v->is_host || v->host_decode;
            bool encodes = v->is_host ? !v->host_decode : v->is_valid;
            bool dec = decodes && !smcj_declares(r, v->entry, 0, fv.feature);
            bool enc = encodes && !smcj_declares(r, v->entry, 1, fv.feature);
            fv.decode = fv.decode || dec;
            fv.encode = fv.encode || enc;
            fv.vectors += dec || enc;
        }
        if (fv.vectors == 0) {
            continue;
        }
        smcj_xfail_entry_t *x = r->has_xfail ? smcj_xfail_feature(&r->xfail, fv.feature) : NULL;
        if (x) {
            x->matched = 1;
            fv.xfail_reason = x->reason;
        }
        size_t cap = r->n_unsupported_features;
        if (!smcj_grow((void **)&r->unsupported_features, &cap, r->n_unsupported_features + 1,
                       sizeof fv)) {
            return; /* out of memory (recorded) */
        }
        r->unsupported_features[r->n_unsupported_features++] = fv;
        r->n_features_unlisted += fv.xfail_reason == NULL;
    }
}

static void compute_runner(smcj_run_t *run, smcj_runner_t *r)
{
    const smcj_vectors_t *vs = run->vectors;
    r->results = smcj_calloc(vs->count ? vs->count : 1, sizeof(smcj_result_t));
    for (size_t i = 0; r->results && i < vs->count; i++) {
        compute_one(run, r, i);
    }
    feature_verdicts(run, r);
    smcj_self_count(r);
    if (r->has_xfail) {
        for (size_t k = 0; k < r->xfail.count; k++) {
            if (r->xfail.entries[k].matched == 0) {
                r->n_xfail_unmatched++;
            }
        }
    }
}

/*
 * spec §1.4, R1.4-16 and R1.4-17: no pass without a test. A codec without the message entry
 * point (which every StandardMethodCodec holds) does not conform, and a run in which not one vector
 * of the mandatory core passed has tested nothing, however many failures a list excuses.
 * What a list could not excuse is named, so the failures it causes are not a surprise.
 */
static void core_verdict(smcj_run_t *run, smcj_runner_t *r)
{
    r->no_message_entry = r->started && !r->handshake_bad && !r->entry_ok[SMC_ENTRY_MESSAGE];
    if (r->no_message_entry) {
        note(run, smcj_asprintf("%s: no `message` entry point (every codec has one; spec §1.4, "
                                "R1.4-16): it does not conform",
                                r->name));
    }
    if (r->n_core > 0 && r->n_core_pass == 0) {
        note(run, smcj_asprintf("%s: not one of the %zu selected vectors of the mandatory core "
                                "(required, message entry point; spec §1.4, R1.4-17) passed",
                                r->name, r->n_core));
    }
    size_t features = r->n_unsupported_features - r->n_features_unlisted;
    run->n_excused += r->n_xfail;
    run->n_excused_features += features;
    /* what a list excused is counted on the verdict line by the text report's xfail summary
     * ("(k: 2 expected failures listed in FILE)"), in the JSON and the JUnit properties */
    if (r->n_xfail_refused) {
        note(run, smcj_asprintf("%s: %zu listed vector%s in %s not excused: a crash, timeout, "
                                "protocol error, resource failure or required-tier skip or "
                                "refusal is never an expected failure (spec §1.4, R1.4-17)",
                                r->name, r->n_xfail_refused, r->n_xfail_refused == 1 ? "" : "s",
                                r->xfail.path));
    }
}

/* Exit status 2 when a runner could not start at all: that is a setup error (a wrong
 * command), not a verdict on a codec. */
void smcj_results_compute(smcj_run_t *run)
{
    bool start_failed = false;
    bool failed = false;
    const smcj_vectors_t *vs = run->vectors;
    if (vs->n_integrity) {
        /* issue 26: a trimmed or edited set could drop exactly the vectors a codec fails */
        note(run, smcj_asprintf("vectors: %s (%zu problem%s; first: %s)%s",
                                run->allow_modified_vectors ? "MODIFIED, allowed by "
                                                              "--allow-modified-vectors"
                                                            : "MODIFIED: not the released set",
                                vs->n_integrity, vs->n_integrity == 1 ? "" : "s", vs->integrity[0],
                                run->allow_modified_vectors ? "" : "; the gate refuses it"));
        failed = !run->allow_modified_vectors;
    }
    if (run->allow_xfail_crashes) {
        note(run, smcj_asprintf("--allow-xfail-crashes: expected-failure lists may excuse crashes, "
                                "timeouts, protocol errors, resource failures and required-tier "
                                "skips (spec §1.4, R1.4-17 forbids it)"));
    }
    for (size_t i = 0; i < run->n_runners; i++) {
        smcj_runner_t *r = &run->runners[i];
        if (r->skip_reason) {
            continue;
        }
        if (r->start_failed) {
            start_failed = true;
            note(run,
                 smcj_asprintf("%s: could not start: %s", r->name, smcj_or_empty(r->start_error)));
            continue;
        }
        compute_runner(run, r);
        if (r->handshake_bad) {
            note(run,
                 smcj_asprintf("%s: handshake failed: %s", r->name, smcj_or_empty(r->start_error)));
        }
        if (r->n_fail) {
            note(run, smcj_asprintf("%s: %zu unexpected failure%s", r->name, r->n_fail,
                                    r->n_fail == 1 ? "" : "s"));
        }
        for (size_t k = 0; k < r->n_unsupported_features; k++) {
            const smcj_feature_verdict_t *f = &r->unsupported_features[k];
            if (!f->xfail_reason) {
                note(run,
                     smcj_asprintf("%s: unsupported: %s (%s%s%s; %s, MUST) — %zu vector%s", r->name,
                                   f->feature, f->decode ? "decode" : "",
                                   f->decode && f->encode ? ", " : "", f->encode ? "encode" : "",
                                   f->rule, f->vectors, f->vectors == 1 ? "" : "s"));
            }
        }
        if (r->n_unclassified) {
            note(run, smcj_asprintf("%s: %zu unclassified rejection%s (rejected, but not with the "
                                    "codec's documented error; spec R1.4-15, recommended)",
                                    r->name, r->n_unclassified, r->n_unclassified == 1 ? "" : "s"));
        }
        if (r->n_placement) {
            note(run,
                 smcj_asprintf(
                     "%s: %zu placement failure%s (right at an aligned address, not 1-7 bytes past "
                     "one; spec §3.3)",
                     r->name, r->n_placement, r->n_placement == 1 ? "" : "s"));
        }
        if (r->n_xpass) {
            note(run,
                 smcj_asprintf("%s: %zu unexpected pass%s (listed in %s but passed; remove them)",
                               r->name, r->n_xpass, r->n_xpass == 1 ? "" : "es", r->xfail.path));
        }
        if (r->n_xfail_unmatched) {
            note(run, smcj_asprintf("%s: %zu entr%s of %s match%s no vector", r->name,
                                    r->n_xfail_unmatched, r->n_xfail_unmatched == 1 ? "y" : "ies",
                                    r->xfail.path, r->n_xfail_unmatched == 1 ? "es" : ""));
        }
        if (r->n_skipped_gated) {
            note(run,
                 smcj_asprintf("%s: %zu skipped vector%s in gated tiers (declare the missing "
                               "capability in the "
                               "handshake, or list them as expected failures)",
                               r->name, r->n_skipped_gated, r->n_skipped_gated == 1 ? "" : "s"));
        }
        if (r->gave_up || r->stop_reason) {
            note(run, smcj_asprintf("%s: %s; %zu check%s without an answer", r->name,
                                    smcj_or_empty(r->stop_reason), r->n_unsent,
                                    r->n_unsent == 1 ? "" : "s"));
        }
        core_verdict(run, r);
        size_t tested = r->n_pass + r->n_fail + r->n_fail_info + r->n_differs + r->n_xfail +
                        r->n_xpass + r->n_placement + r->n_placement_info + r->n_unclassified +
                        r->n_unclassified_info;
        if (tested == 0 && run->vectors->selected > 0) {
            note(run,
                 smcj_asprintf("%s: nothing was tested (every selected vector was n/a or skipped)",
                               r->name));
            failed = true;
        }
        failed = failed || r->no_message_entry || r->n_xfail_refused ||
                 (r->n_core > 0 && r->n_core_pass == 0) || r->n_fail || r->n_placement ||
                 r->n_unclassified || r->n_skipped_gated || r->n_xpass || r->n_xfail_unmatched ||
                 r->n_features_unlisted || r->handshake_bad || r->gave_up || r->stop_reason;
    }
    run->gate_passed = !failed && !start_failed;
    run->exit_status = start_failed ? 2 : failed ? 1 : 0;
}
