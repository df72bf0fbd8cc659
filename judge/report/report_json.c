/*
 * The JSON report for machines: everything the run found, without the cuts of the people-
 * facing reports, in the shape of judge/report.schema.json (every test validates against it).
 * Field order and names are part of that contract: add fields, never rename them. Every
 * value goes through smct_json_writer, so the report is JSON whatever the run held.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "report_causes.h"
#include "report_kinds.h"
#include "report_depth.h"
#include "complexity.h"
#include "report_util.h"
#include "reports.h"
#include "smct_json.h"
#include "smct_json_writer.h"

static const char *outcome_name(smcj_outcome_t o)
{
    switch (o) {
    case SMCJ_OUT_PASS:
        return "pass";
    case SMCJ_OUT_FAIL:
        return "fail";
    case SMCJ_OUT_SKIPPED:
        return "skipped";
    case SMCJ_OUT_NA:
        return "n/a";
    case SMCJ_OUT_UNSUPPORTED:
        return "unsupported";
    case SMCJ_OUT_PENDING:
        break;
    }
    return "pending";
}

static void str_array(smct_jw_t *w, char *const *a, size_t n)
{
    smct_jw_array(w);
    for (size_t i = 0; i < n; i++) {
        smct_jw_str(w, a[i]);
    }
    smct_jw_end_array(w);
}

/* A member whose value is the text a report helper writes into a buffer. */
static void key_text(smct_jw_t *w, const char *key, smct_buf_t *text)
{
    smcj_buf_ok(text); /* a failed part records out of memory: no report */
    smct_jw_key(w, key);
    smct_jw_str_n(w, text->data, text->len);
    smct_buf_free(text);
}

static void key_seconds(smct_jw_t *w, const char *key, double seconds)
{
    smct_jw_key(w, key);
    smct_jw_real(w, seconds, 3);
}

/* The first byte where the expected and the actual encoding differ. */
static size_t first_difference(const smcj_report_check_t *c)
{
    size_t first = c->first_difference; /* of the whole strings (kept_value.h) */
    if (!c->values_cut) {
        for (first = 0;
             first < c->exp_len && first < c->act_len && c->exp_bytes[first] == c->act_bytes[first];
             first++) {
        }
    }
    return first;
}

/* One check; a failure carries everything needed to judge it without rerunning. */
static void check_json(smct_jw_t *w, const smcj_vectors_t *vs, const smcj_report_runner_t *mr,
                       size_t k)
{
    const smcj_report_check_t *c = &mr->check_views[k];
    const smcj_vector_t *v = &vs->v[c->vector];
    smct_jw_object(w);
    smct_jw_key_str(w, "check", c->label);
    smct_jw_key_str(w, "direction", c->direction);
    smct_jw_key_str(w, "mode", c->strict ? "strict" : "flutter");
    smct_jw_key_str(w, "outcome", outcome_name(c->outcome));
    smct_jw_key_str(w, "tier", smcj_tier_name(c->tier));
    smct_jw_key_bool(w, "placed", c->placed);
    if (c->placed) {
        smct_jw_key_u64(w, "shift", v->shift);
    }
    smct_jw_key_str(w, "order", c->order_alt >= 0 ? v->order_alts[c->order_alt].order : NULL);
    smct_jw_key(w, "alternative");
    if (c->alt >= 0) {
        smct_jw_i64(w, c->alt);
    } else {
        smct_jw_null(w);
    }
    if (c->outcome == SMCJ_OUT_FAIL) {
        smct_jw_key_str(w, "reason", smcj_reason_name(c->reason));
    }
    /* what the runner's declaration made this check expect (spec §1.4) */
    smct_jw_key_str(w, "lacks", c->lacks);
    smct_jw_key_bool(w, "robustness", c->robustness);
    smct_jw_key_bool(w, "accepted_bomb", c->accepted_bomb);
    if (c->detail) {
        smct_jw_key_str(w, "detail", c->detail);
    }
    if (c->outcome != SMCJ_OUT_FAIL && c->accepted_bomb) {
        /* a passing robustness check that accepted the input: what it accepted */
        smct_jw_key_str(w, "expected", c->expected);
        smct_jw_key_str(w, "actual", c->actual);
    }
    if (c->outcome == SMCJ_OUT_FAIL) {
        smct_jw_key_str(w, "expected", c->expected);
        smct_jw_key_str(w, "actual", c->actual);
        if (c->reason == SMCJ_REASON_WRONG_BYTES && c->exp_bytes) {
            smct_jw_key_u64(w, "first_difference", first_difference(c));
        }
        const char *diff = smcj_report_what_differs(mr, k);
        if (diff) {
            smct_jw_key_str(w, "what_differs", diff);
        }
        smct_jw_key_str(w, "stderr_tail", c->stderr_tail);
        if (c->kind != SMCJ_CHECK_HANDSHAKE) {
            smct_jw_key_str(w, "raw_command", mr->raw[k]);
        }
    }
    smct_jw_end_object(w);
}

/* The option words of P.1 the runner declared, in the protocol's order. */
static void options_json(smct_jw_t *w, const smcj_report_runner_facts_t *r)
{
    const smcj_decl_t *d = &r->decl[SMC_ENTRY_MESSAGE];
    const char *const options[] = {
        d->error_classes ? "error-classes" : NULL, d->error_offsets ? "error-offsets" : NULL,
        r->opt_shift ? "shift" : NULL, d->borrows_input ? "borrows-input" : NULL,
        d->pigeon_int64 ? "pigeon-int64" : NULL};
    smct_jw_array(w);
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        if (options[i]) {
            smct_jw_str(w, options[i]);
        }
    }
    smct_jw_end_array(w);
}

/* What the runner declared in its handshake (P.1): codec, entries, capabilities, options,
 * host vocabularies. */
static void handshake_json(smct_jw_t *w, const smcj_report_runner_facts_t *r)
{
    smct_jw_key(w, "codec");
    smct_jw_object(w);
    smct_jw_key_str(w, "name", r->codec_name);
    smct_jw_key_str(w, "version", r->codec_version);
    smct_jw_key_str(w, "language", r->codec_language);
    smct_jw_end_object(w);
    smct_jw_key(w, "entries");
    smct_jw_array(w);
    for (int e = 0; e < SMC_ENTRY_COUNT; e++) {
        if (r->entry_ok[e]) {
            smct_jw_str(w, smct_entry_name((smc_entry_t)e));
        }
    }
    smct_jw_end_array(w);
    smct_jw_key(w, "capabilities");
    smct_jw_object(w);
    smct_jw_key(w, "decode");
    str_array(w, r->decode_caps, r->n_decode_caps);
    smct_jw_key(w, "encode");
    str_array(w, r->encode_caps, r->n_encode_caps);
    smct_jw_end_object(w);
    smct_jw_key(w, "options");
    options_json(w, r);
    smct_jw_key_i64(w, "protocol", r->protocol);
    smct_jw_key(w, "hosts");
    str_array(w, r->hosts, r->n_hosts); /* P.1 `hosts`, as declared (spec §17) */
    smct_jw_key(w, "hosts_without");    /* P.1, spec §17.1: per vocabulary, as read */
    smct_jw_object(w);
    for (size_t i = 0; i < r->n_hosts; i++) {
        bool twice = false;
        for (size_t j = 0; j < i && !twice; j++) {
            twice = strcmp(r->hosts[j], r->hosts[i]) == 0; /* a vocabulary declared twice */
        }
        bool any = false;
        for (size_t k = 0; !twice && k < r->n_without; k++) {
            if (strcmp(r->without_host[k], r->hosts[i]) != 0) {
                continue;
            }
            if (!any) {
                smct_jw_key(w, r->hosts[i]);
                smct_jw_array(w);
                any = true;
            }
            smct_jw_str(w, r->without_type[k]);
        }
        if (any) {
            smct_jw_end_array(w);
        }
    }
    smct_jw_end_object(w);
}

/* The core features the runner lacks (spec §1.4, R1.4-11): each fails the gate unless the
 * expected-failure list has its `feature:` line. */
static void unsupported_json(smct_jw_t *w, const smcj_report_runner_facts_t *r)
{
    smct_jw_key(w, "unsupported");
    smct_jw_array(w);
    for (size_t k = 0; k < r->n_unsupported_features; k++) {
        const smcj_feature_verdict_t *f = &r->unsupported_features[k];
        smct_jw_object(w);
        smct_jw_key_str(w, "feature", f->feature);
        smct_jw_key_str(w, "rule", f->rule);
        smct_jw_key_str(w, "group", "core");
        smct_jw_key_bool(w, "decode", f->decode);
        smct_jw_key_bool(w, "encode", f->encode);
        smct_jw_key_u64(w, "vectors", f->vectors);
        smct_jw_key_str(w, "xfail_reason", f->xfail_reason);
        smct_buf_t s = {0};
        smcj_feature_verdict_text(&s, f);
        key_text(w, "text", &s);
        smct_jw_end_object(w);
    }
    smct_jw_end_array(w);
}

/* Crashes and unclassified rejections by kind (P.3 `kind`), most frequent first: the model's. */
static void kinds_json(smct_jw_t *w, const smcj_report_runner_t *mr)
{
    smct_jw_key(w, "kinds");
    smct_jw_object(w);
    smct_jw_key(w, "crash");
    smcj_kinds_json(w, &mr->kinds[SMCJ_KINDS_CRASH]);
    smct_jw_key(w, "unclassified");
    smcj_kinds_json(w, &mr->kinds[SMCJ_KINDS_UNCLASSIFIED]);
    smct_jw_end_object(w);
}

/* The result's `alternative`: which listed behaviour (or none) it matched, in words. */
static void alternative_json(smct_jw_t *w, const smcj_vector_t *v, const smcj_report_row_t *row)
{
    smct_jw_key(w, "alternative");
    if (!row->alt_text) {
        smct_jw_null(w);
        return;
    }
    smct_jw_object(w);
    smct_jw_key_bool(w, "listed", row->alt >= 0);
    if (row->alt >= 0) {
        smct_jw_key_i64(w, "index", row->alt);
        char *who = smcj_alternative_who(v, row->alt);
        smct_jw_key_str(w, "who", who);
        free(who);
        smct_jw_key_str(w, "behaviour", v->alts[row->alt].behaviour);
    }
    smct_jw_key_str(w, "text", row->alt_text);
    smct_jw_end_object(w);
}

/* The result's `placement`: the shifted-input verdict (P.2), or null. */
static void placement_json(smct_jw_t *w, const smcj_vector_t *v, const smcj_report_row_t *row)
{
    smct_jw_key(w, "placement");
    if (!row->placement_text) {
        smct_jw_null(w);
        return;
    }
    smct_jw_object(w);
    smct_jw_key_str(w, "tier", smcj_tier_name(row->placement_tier));
    smct_jw_key_u64(w, "shift", v->shift);
    smct_jw_key_str(
        w, "reason",
        row->verdict_reason == SMCJ_REASON_NONE ? NULL : smcj_reason_name(row->verdict_reason));
    smct_jw_key_str(w, "text", row->placement_text);
    smct_jw_end_object(w);
}

/* One vector's result: status, tier, alternative, placement, replay, and its checks. */
static void result_json(smct_jw_t *w, const smcj_vectors_t *vs, const smcj_report_runner_t *mr,
                        const smcj_report_row_t *row)
{
    const smcj_vector_t *v = &vs->v[row->vector];
    smct_jw_object(w);
    smct_jw_key_str(w, "id", v->id);
    smct_jw_key_str(w, "tier", smcj_tier_name(v->tier));
    smct_jw_key(w, "requirements");
    str_array(w, v->requirements, v->n_requirements);
    smct_jw_key_str(w, "section", v->section);
    smct_jw_key_str(w, "status", smcj_status_name(row->status));
    smct_jw_key_str(w, "verdict_tier", smcj_tier_name(row->tier));
    smct_jw_key_str(w, "reason",
                    row->reason != SMCJ_REASON_NONE ? smcj_reason_name(row->reason) : NULL);
    alternative_json(w, v, row); /* the texts are the model's (one computation) */
    placement_json(w, v, row);
    smct_jw_key_str(w, "xfail_reason", row->xfail_reason);
    if (row->failed) {
        smct_jw_key_str(w, "replay", row->replay);
    }
    if (row->failed && row->diagnosed) {
        smct_jw_key(w, "causes");
        smct_jw_array(w);
        for (size_t k = 0; k < row->n_cause_ids; k++) {
            smct_jw_str(w, row->cause_ids[k]);
        }
        smct_jw_end_array(w);
        smct_jw_key_str(w, "unexplained", row->unexplained);
    }
    smct_jw_key(w, "checks");
    smct_jw_array(w);
    for (size_t k = row->check_begin; k < row->check_end; k++) {
        check_json(w, vs, mr, k);
    }
    smct_jw_end_array(w);
    smct_jw_end_object(w);
}

/* The runner's `counts`: every status and the figures beside them. */
static void counts_json(smct_jw_t *w, const smcj_report_runner_t *mr)
{
    const smcj_report_runner_facts_t *r = &mr->facts;
    const size_t *st = mr->counts.status;
    smct_jw_key(w, "counts");
    smct_jw_object(w);
    smct_jw_key_u64(w, "pass", st[SMCJ_ST_PASS]);
    smct_jw_key_u64(w, "fail", st[SMCJ_ST_FAIL]);
    smct_jw_key_u64(w, "fail_ungated", st[SMCJ_ST_FAIL_INFO]);
    smct_jw_key_u64(w, "differs", st[SMCJ_ST_DIFFERS]);
    smct_jw_key_u64(w, "differs_listed", mr->counts.differs_listed);
    smct_jw_key_u64(w, "placement", st[SMCJ_ST_PLACEMENT]);
    smct_jw_key_u64(w, "placement_ungated", st[SMCJ_ST_PLACEMENT_INFO]);
    smct_jw_key_u64(w, "unclassified", st[SMCJ_ST_UNCLASSIFIED]);
    smct_jw_key_u64(w, "unclassified_ungated", st[SMCJ_ST_UNCLASSIFIED_INFO]);
    smct_jw_key_u64(w, "expected_failure", st[SMCJ_ST_XFAIL]);
    smct_jw_key_u64(w, "unexpected_pass", st[SMCJ_ST_XPASS]);
    smct_jw_key_u64(w, "skipped", st[SMCJ_ST_SKIPPED]);
    smct_jw_key_u64(w, "na", st[SMCJ_ST_NA]);
    smct_jw_key_u64(w, "unsupported", st[SMCJ_ST_UNSUPPORTED]);
    smct_jw_key_u64(w, "robustness_only", r->n_robust);
    smct_jw_key_u64(w, "bombs_accepted", r->n_bombs_accepted);
    smct_jw_end_object(w);
}

/* The runner's `xfail`: its expected-failure list and the lines no failure matched. */
static void xfail_json(smct_jw_t *w, const smcj_report_runner_facts_t *r)
{
    smct_jw_key(w, "xfail");
    if (!r->has_xfail) {
        smct_jw_null(w);
        return;
    }
    smct_jw_object(w);
    smct_jw_key_str(w, "path", r->xfail.path);
    smct_jw_key(w, "unmatched");
    smct_jw_array(w);
    for (size_t k = 0; k < r->xfail.count; k++) {
        if (r->xfail.entries[k].matched == 0) {
            smct_jw_object(w);
            smct_jw_key_str(w, "pattern", r->xfail.entries[k].pattern);
            smct_jw_key_i64(w, "line", r->xfail.entries[k].line);
            smct_jw_end_object(w);
        }
    }
    smct_jw_end_array(w);
    smct_jw_end_object(w);
}

/* How the runner's processes went: restarts, requests, time, stops, timeouts, memory. */
static void process_json(smct_jw_t *w, const smcj_report_runner_facts_t *r)
{
    smct_jw_key_u64(w, "restarts", r->restarts);
    smct_jw_key_bool(w, "gave_up", r->gave_up);
    smct_jw_key_u64(w, "requests", r->requests_sent);
    key_seconds(w, "seconds", r->seconds);
    smct_jw_key(w, "stopped");
    if (r->stop_reason) {
        smct_jw_object(w);
        smct_jw_key_str(w, "reason", r->stop_reason);
        smct_jw_key_str(w, "kind", smcj_reason_name(r->stop_kind));
        smct_jw_key_u64(w, "unanswered", r->n_unsent);
        smct_jw_end_object(w);
    } else {
        smct_jw_null(w);
    }
    smct_jw_key_u64(w, "timeouts", r->timeouts);
    smct_jw_key_u64(w, "strays", r->strays);
    smct_jw_key(w, "memory");
    smct_jw_object(w);
    smct_jw_key_u64(w, "peak_resident", r->peak_rss);
    smct_jw_key_u64(w, "bomb_growth", r->bomb_growth);
    smct_jw_key_u64(w, "bombs_measured", r->bombs_measured);
    smct_jw_end_object(w);
}

/* One runner: how it ran, what it declared, its counts, every selected vector's result. */
static void runner_json(smct_jw_t *w, const smcj_report_facts_t *f, const smcj_report_runner_t *mr)
{
    const smcj_report_runner_facts_t *r = &mr->facts;
    smct_jw_object(w);
    smct_jw_key_str(w, "name", r->name);
    smct_jw_key_str(w, "command", r->command);
    const char *state = r->skip_reason     ? "skipped"
                        : r->start_failed  ? "could-not-start"
                        : r->handshake_bad ? "bad-handshake"
                                           : "ran";
    smct_jw_key_str(w, "state", state);
    smct_jw_key_str(w, "skip_reason", r->skip_reason);
    smct_jw_key_str(w, "start_error", r->start_error);
    if (r->started) {
        handshake_json(w, r);
    } else {
        smct_jw_key_null(w, "codec");
    }
    process_json(w, r);
    smcj_cx_json_runner(w, f->complexity, r->complexity);
    counts_json(w, mr);
    unsupported_json(w, r);
    kinds_json(w, mr);
    smct_jw_key(w, "notes");
    smct_jw_array(w);
    for (size_t k = 0; k < mr->notes.n; k++) {
        smct_jw_str(w, mr->notes.line[k]);
    }
    smct_jw_end_array(w);
    smct_jw_key(w, "self_consistency");
    smct_jw_object(w);
    smct_jw_key_u64(w, "checked", r->n_self_checked);
    smct_jw_key_u64(w, "sent", r->n_self_sent);
    smct_jw_key_u64(w, "failed", r->n_self_failed);
    smct_jw_end_object(w);
    smct_jw_key_str(w, "summary", mr->summary); /* null when it did not run */
    xfail_json(w, r);
    smct_jw_key_str(w, "stderr_tail", r->stderr_tail);
    smcj_causes_json(w, f->vectors, &mr->diagnosis);
    smct_jw_key(w, "results");
    smct_jw_array(w);
    for (size_t k = 0; k < mr->n_rows; k++) {
        if (k) {
            smct_jw_newline(w); /* one result a line */
        }
        result_json(w, f->vectors, mr, &mr->rows[k]);
    }
    smct_jw_end_array(w);
    smct_jw_end_object(w);
}

/* The run's `vectors`: which set was judged and whether it is the released one. */
static void vectors_json(smct_jw_t *w, const smcj_report_facts_t *f)
{
    const smcj_vectors_t *vs = f->vectors;
    smct_jw_key(w, "vectors");
    smct_jw_object(w);
    smct_jw_key_str(w, "dir", vs->dir);
    smct_jw_key_str(w, "version", vs->version ? vs->version : "unknown");
    smct_jw_key(w, "files");
    str_array(w, vs->files, vs->n_files);
    smct_jw_key_u64(w, "total", vs->count);
    smct_jw_key_u64(w, "selected", vs->selected);
    smct_jw_key_bool(w, "released", vs->n_integrity == 0);
    smct_jw_key_bool(w, "allow_modified", f->allow_modified_vectors);
    smct_jw_key(w, "integrity");
    str_array(w, vs->integrity, vs->n_integrity);
    smct_jw_end_object(w);
}

/* The run's `limits` and `gate`. */
static void limits_and_gate_json(smct_jw_t *w, const smcj_report_facts_t *f)
{
    static const char *const gates[] = {"required", "recommended", "all"};
    smct_jw_key(w, "limits");
    smct_jw_object(w);
    smct_jw_key(w, "max_run_time");
    smct_jw_real(w, f->max_run_time, -1);
    smct_jw_key_u64(w, "max_timeouts", f->max_timeouts);
    smct_jw_key_u64(w, "max_restarts", f->max_restarts);
    smct_jw_key_u64(w, "max_restarts_per_vector", f->max_restarts_per_vector);
    smct_jw_key_u64(w, "memory_limit", f->memory_limit);
    smct_jw_key_bool(w, "out_of_time", f->out_of_time);
    smct_jw_end_object(w);
    smct_jw_key_u64(w, "strays", f->strays);
    smct_jw_key(w, "sandbox");
    smct_jw_object(w);
    smct_jw_key_bool(w, "used", f->sandboxed);
    smct_jw_key_str(w, "note", f->sandbox_note);
    smct_jw_end_object(w);
    vectors_json(w, f);
    smct_jw_key(w, "gate");
    smct_jw_object(w);
    smct_jw_key_str(w, "policy", gates[f->gate]);
    smct_jw_key_bool(w, "passed", f->gate_passed);
    smct_jw_key_i64(w, "exit_status", f->exit_status);
    smct_jw_key(w, "notes");
    str_array(w, f->gate_notes, f->n_gate_notes);
    smct_jw_key_u64(w, "excused", f->n_excused);
    smct_jw_key_u64(w, "excused_features", f->n_excused_features);
    smct_jw_key_bool(w, "allow_xfail_crashes", f->allow_xfail_crashes);
    smct_jw_end_object(w);
}

void smcj_report_json(smct_buf_t *b, const smcj_report_model_t *m)
{
    smct_jw_t w;
    smct_jw_init(&w, b);
    smct_jw_object(&w);
    smct_jw_key_u64(&w, "report_format", 4);
    smct_jw_key_str(&w, "tool", "smc conformance");
    smct_jw_key_u64(&w, "protocol", 2);
    smct_jw_key_str(&w, "started_at", m->facts.started_at);
    key_seconds(&w, "seconds", m->facts.seconds);
    smct_jw_key(&w, "timeout");
    smct_jw_real(&w, m->facts.timeout, -1);
    limits_and_gate_json(&w, &m->facts);
    smcj_cx_json_run(&w, m->facts.complexity, m->facts.complexity_skipped);
    smct_jw_key(&w, "runners");
    smct_jw_array(&w);
    smct_jw_newline(&w);
    for (size_t ri = 0; ri < m->n_runners; ri++) {
        if (ri) {
            smct_jw_newline(&w);
        }
        runner_json(&w, &m->facts, &m->runners[ri]);
    }
    smct_jw_end_array(&w);
    smct_jw_end_object(&w);
    smct_jw_newline(&w);
    smcj_buf_ok(b); /* a refusal of the writer fails the report, as out of memory does */
}
