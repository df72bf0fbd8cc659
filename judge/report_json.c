/*
 * The JSON report for machines: everything the run found, without the cuts of the people-
 * facing reports, in the shape of judge/report.schema.json (every test validates against it).
 * Field order and names are part of that contract: add fields, never rename them.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "report_causes.h"
#include "report_util.h"
#include "reports.h"
#include "results.h"
#include "smct_json.h"

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

static void str_array(smct_buf_t *b, char *const *a, size_t n)
{
    smct_buf_putc(b, '[');
    for (size_t i = 0; i < n; i++) {
        if (i) {
            smct_buf_putc(b, ',');
        }
        smct_json_write_cstr(b, a[i]);
    }
    smct_buf_putc(b, ']');
}

/* One check; a failure carries everything needed to judge it without rerunning. */
static void check_json(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r,
                       const smcj_check_t *c)
{
    const smcj_vector_t *v = &run->vectors->v[c->vector];
    char label[64];
    smcj_check_label(c, label, sizeof label);
    smct_buf_puts(b, "{\"check\":");
    smct_json_write_cstr(b, label);
    smct_buf_printf(
        b, ",\"direction\":\"%s\",\"mode\":\"%s\",\"outcome\":\"%s\",\"tier\":\"%s\",\"placed\":%s",
        smcj_check_direction(c), c->strict ? "strict" : "flutter", outcome_name(c->outcome),
        smcj_tier_name(c->tier), c->placed ? "true" : "false");
    if (c->placed) {
        smct_buf_printf(b, ",\"shift\":%u", v->shift);
    }
    smct_buf_puts(b, ",\"order\":");
    smct_json_write_cstr(b, c->order_alt >= 0 ? v->order_alts[c->order_alt].order : NULL);
    if (c->alt >= 0) {
        smct_buf_printf(b, ",\"alternative\":%d", c->alt);
    } else {
        smct_buf_puts(b, ",\"alternative\":null");
    }
    if (c->outcome == SMCJ_OUT_FAIL) {
        smct_buf_printf(b, ",\"reason\":\"%s\"", smcj_reason_name(c->reason));
    }
    /* what the runner's declaration made this check expect (spec §1.4) */
    smct_buf_puts(b, ",\"lacks\":");
    smct_json_write_cstr(b, c->lacks);
    smct_buf_printf(b, ",\"robustness\":%s,\"accepted_bomb\":%s", c->robustness ? "true" : "false",
                    c->accepted_bomb ? "true" : "false");
    if (c->detail) {
        smct_buf_puts(b, ",\"detail\":");
        smct_json_write_cstr(b, c->detail);
    }
    if (c->outcome != SMCJ_OUT_FAIL && c->accepted_bomb) {
        /* a passing robustness check that accepted the input: what it accepted */
        smct_buf_puts(b, ",\"expected\":");
        smct_json_write_cstr(b, c->expected);
        smct_buf_puts(b, ",\"actual\":");
        smct_json_write_cstr(b, c->actual);
    }
    if (c->outcome == SMCJ_OUT_FAIL) {
        smct_buf_puts(b, ",\"expected\":");
        smct_json_write_cstr(b, c->expected);
        smct_buf_puts(b, ",\"actual\":");
        smct_json_write_cstr(b, c->actual);
        if (c->reason == SMCJ_REASON_WRONG_BYTES && c->exp_bytes) {
            size_t first = 0;
            while (first < c->exp_len && first < c->act_len &&
                   c->exp_bytes[first] == c->act_bytes[first]) {
                first++;
            }
            smct_buf_printf(b, ",\"first_difference\":%zu", first);
        }
        const char *diff = smcj_causes_what_differs(r, (size_t)(c - r->checks));
        if (diff) {
            smct_buf_puts(b, ",\"what_differs\":");
            smct_json_write_cstr(b, diff);
        }
        smct_buf_puts(b, ",\"stderr_tail\":");
        smct_json_write_cstr(b, c->stderr_tail);
        if (c->kind != SMCJ_CHECK_HANDSHAKE) {
            smct_buf_t raw = {0};
            smcj_raw_command(&raw, run, r, c);
            smct_buf_puts(b, ",\"raw_command\":");
            smcj_buf_ok(&raw); /* a failed part records out of memory: no report */
            smct_json_write_string(b, raw.data, raw.len);
            smct_buf_free(&raw);
        }
    }
    smct_buf_putc(b, '}');
}

/* What the runner declared in its handshake (P.1): codec, entries, capabilities, options,
 * host vocabularies. */
static void handshake_json(smct_buf_t *b, const smcj_runner_t *r)
{
    smct_buf_puts(b, ",\"codec\":{\"name\":");
    smct_json_write_cstr(b, r->codec_name);
    smct_buf_puts(b, ",\"version\":");
    smct_json_write_cstr(b, r->codec_version);
    smct_buf_puts(b, ",\"language\":");
    smct_json_write_cstr(b, r->codec_language);
    smct_buf_puts(b, "},\"entries\":[");
    bool first = true;
    for (int e = 0; e < SMC_ENTRY_COUNT; e++) {
        if (r->entry_ok[e]) {
            smct_buf_printf(b, "%s\"%s\"", first ? "" : ",", smct_entry_name((smc_entry_t)e));
            first = false;
        }
    }
    smct_buf_puts(b, "],\"capabilities\":{\"decode\":");
    str_array(b, r->decode_caps, r->n_decode_caps);
    smct_buf_puts(b, ",\"encode\":");
    str_array(b, r->encode_caps, r->n_encode_caps);
    const smcj_decl_t *d = &r->decl[SMC_ENTRY_MESSAGE];
    const char *const options[] = {
        d->error_classes ? "error-classes" : NULL, d->error_offsets ? "error-offsets" : NULL,
        r->opt_shift ? "shift" : NULL, d->borrows_input ? "borrows-input" : NULL,
        d->pigeon_int64 ? "pigeon-int64" : NULL};
    smct_buf_puts(b, "},\"options\":[");
    first = true;
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++) {
        if (options[i]) {
            smct_buf_printf(b, "%s\"%s\"", first ? "" : ",", options[i]);
            first = false;
        }
    }
    smct_buf_printf(b, "],\"protocol\":%d,\"hosts\":", r->protocol);
    str_array(b, r->hosts, r->n_hosts); /* P.1 `hosts`, as declared (spec §17) */
}

/* The core features the runner lacks (spec §1.4, R1.4-11): each fails the gate unless the
 * expected-failure list has its `feature:` line. */
static void unsupported_json(smct_buf_t *b, const smcj_runner_t *r)
{
    smct_buf_puts(b, ",\"unsupported\":[");
    for (size_t k = 0; k < r->n_unsupported_features; k++) {
        const smcj_feature_verdict_t *f = &r->unsupported_features[k];
        smct_buf_printf(b,
                        "%s{\"feature\":\"%s\",\"rule\":\"%s\",\"group\":\"core\",\"decode\":%s,"
                        "\"encode\":%s,\"vectors\":%zu,\"xfail_reason\":",
                        k ? "," : "", f->feature, f->rule, f->decode ? "true" : "false",
                        f->encode ? "true" : "false", f->vectors);
        smct_json_write_cstr(b, f->xfail_reason);
        smct_buf_puts(b, ",\"text\":");
        smct_buf_t s = {0};
        smcj_feature_verdict_text(&s, f);
        smcj_buf_ok(&s);
        smct_json_write_string(b, s.data, s.len);
        smct_buf_free(&s);
        smct_buf_putc(b, '}');
    }
    smct_buf_putc(b, ']');
}

static void add_note(void *ctx, const char *note)
{
    smct_buf_t *b = ctx;
    smct_buf_puts(b, b->data && b->data[b->len - 1] == '[' ? "" : ",");
    smct_json_write_cstr(b, note);
}

/* One vector's result: status, tier, alternative, placement, replay, and its checks. */
static void result_json(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r, size_t i)
{
    const smcj_vector_t *v = &run->vectors->v[i];
    const smcj_result_t *res = &r->results[i];
    smct_buf_puts(b, "{\"id\":");
    smct_json_write_cstr(b, v->id);
    smct_buf_printf(b, ",\"tier\":\"%s\",\"requirements\":", smcj_tier_name(v->tier));
    str_array(b, v->requirements, v->n_requirements);
    smct_buf_puts(b, ",\"section\":");
    smct_json_write_cstr(b, v->section);
    bool placement = res->placement_check != SIZE_MAX;
    smct_buf_printf(
        b, ",\"status\":\"%s\",\"verdict_tier\":\"%s\",\"reason\":", smcj_status_name(res->status),
        smcj_tier_name(placement ? res->placement_tier : res->tier));
    if ((res->outcome == SMCJ_OUT_FAIL || placement) && res->reason != SMCJ_REASON_NONE) {
        smct_buf_printf(b, "\"%s\"", smcj_reason_name(res->reason));
    } else {
        smct_buf_puts(b, "null");
    }
    char *alt = smcj_alternative_text(v, res);
    if (alt) {
        smct_buf_printf(b, ",\"alternative\":{\"listed\":%s", res->alt >= 0 ? "true" : "false");
        if (res->alt >= 0) {
            smct_buf_printf(b, ",\"index\":%d,\"who\":", res->alt);
            char *who = smcj_alternative_who(v, res->alt);
            smct_json_write_cstr(b, who);
            free(who);
            smct_buf_puts(b, ",\"behaviour\":");
            smct_json_write_cstr(b, v->alts[res->alt].behaviour);
        }
        smct_buf_puts(b, ",\"text\":");
        smct_json_write_cstr(b, alt);
        smct_buf_putc(b, '}');
        free(alt);
    } else {
        smct_buf_puts(b, ",\"alternative\":null");
    }
    char *pl = smcj_placement_text(v, res);
    if (pl) {
        smct_buf_printf(b, ",\"placement\":{\"tier\":\"%s\",\"shift\":%u,\"reason\":",
                        smcj_tier_name(res->placement_tier), v->shift);
        if (res->reason == SMCJ_REASON_NONE) {
            smct_buf_puts(b, "null");
        } else {
            smct_buf_printf(b, "\"%s\"", smcj_reason_name(res->reason));
        }
        smct_buf_puts(b, ",\"text\":");
        smct_json_write_cstr(b, pl);
        smct_buf_putc(b, '}');
        free(pl);
    } else {
        smct_buf_puts(b, ",\"placement\":null");
    }
    smct_buf_puts(b, ",\"xfail_reason\":");
    smct_json_write_cstr(b, res->xfail_reason);
    if (res->outcome == SMCJ_OUT_FAIL || placement) {
        smct_buf_puts(b, ",\"replay\":");
        smct_buf_t rp = {0};
        smcj_replay_command(&rp, run, r, v);
        smcj_buf_ok(&rp);
        smct_json_write_string(b, rp.data, rp.len);
        smct_buf_free(&rp);
        smcj_causes_json_result(b, r, i);
    }
    smct_buf_puts(b, ",\"checks\":[");
    size_t cb, ce;
    smcj_checks_of(r, i, &cb, &ce);
    for (size_t k = cb; k < ce; k++) {
        if (k > cb) {
            smct_buf_putc(b, ',');
        }
        check_json(b, run, r, &r->checks[k]);
    }
    smct_buf_puts(b, "]}");
}

/* One runner: how it ran, what it declared, its counts, every selected vector's result. */
static void runner_json(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r)
{
    const smcj_vectors_t *vs = run->vectors;
    smct_buf_puts(b, "{\"name\":");
    smct_json_write_cstr(b, r->name);
    smct_buf_puts(b, ",\"command\":");
    smct_json_write_cstr(b, r->command);
    const char *state = r->skip_reason     ? "skipped"
                        : r->start_failed  ? "could-not-start"
                        : r->handshake_bad ? "bad-handshake"
                                           : "ran";
    smct_buf_printf(b, ",\"state\":\"%s\",\"skip_reason\":", state);
    smct_json_write_cstr(b, r->skip_reason);
    smct_buf_puts(b, ",\"start_error\":");
    smct_json_write_cstr(b, r->start_error);
    if (r->started) {
        handshake_json(b, r);
    } else {
        smct_buf_puts(b, ",\"codec\":null");
    }
    smct_buf_printf(b, ",\"restarts\":%u,\"gave_up\":%s,\"requests\":%zu,\"seconds\":%.3f",
                    r->restarts, r->gave_up ? "true" : "false", r->requests_sent, r->seconds);
    if (r->stop_reason) {
        smct_buf_puts(b, ",\"stopped\":{\"reason\":");
        smct_json_write_cstr(b, r->stop_reason);
        smct_buf_printf(b, ",\"kind\":\"%s\",\"unanswered\":%zu}", smcj_reason_name(r->stop_kind),
                        r->n_unsent);
    } else {
        smct_buf_puts(b, ",\"stopped\":null");
    }
    smct_buf_printf(b,
                    ",\"timeouts\":%u,\"strays\":%zu,\"memory\":{\"peak_resident\":%llu,"
                    "\"bomb_growth\":%llu,\"bombs_measured\":%zu}",
                    r->timeouts, r->strays, (unsigned long long)r->peak_rss,
                    (unsigned long long)r->bomb_growth, r->bombs_measured);
    smct_buf_printf(b,
                    ",\"counts\":{\"pass\":%zu,\"fail\":%zu,\"fail_ungated\":%zu,\"differs\":%zu,"
                    "\"differs_listed\":%zu,"
                    "\"placement\":%zu,\"placement_ungated\":%zu,"
                    "\"expected_failure\":%zu,\"unexpected_pass\":%zu,\"skipped\":%zu,\"na\":%zu,"
                    "\"unsupported\":%zu,\"robustness_only\":%zu,\"bombs_accepted\":%zu}",
                    r->n_pass, r->n_fail, r->n_fail_info, r->n_differs, r->n_differs_listed,
                    r->n_placement, r->n_placement_info, r->n_xfail, r->n_xpass, r->n_skipped,
                    r->n_na, r->n_unsupported, r->n_robust, r->n_bombs_accepted);
    unsupported_json(b, r);
    smct_buf_puts(b, ",\"notes\":[");
    smcj_declaration_notes(r, add_note, b);
    smct_buf_putc(b, ']');
    smct_buf_puts(b, ",\"summary\":");
    if (r->results) {
        smct_buf_t s = {0};
        smcj_summary_counts(&s, r);
        smcj_buf_ok(&s);
        smct_json_write_string(b, s.data, s.len);
        smct_buf_free(&s);
    } else {
        smct_buf_puts(b, "null");
    }
    smct_buf_puts(b, ",\"xfail\":");
    if (r->has_xfail) {
        smct_buf_puts(b, "{\"path\":");
        smct_json_write_cstr(b, r->xfail.path);
        smct_buf_puts(b, ",\"unmatched\":[");
        bool first = true;
        for (size_t k = 0; k < r->xfail.count; k++) {
            if (r->xfail.entries[k].matched == 0) {
                smct_buf_printf(b, "%s{\"pattern\":", first ? "" : ",");
                smct_json_write_cstr(b, r->xfail.entries[k].pattern);
                smct_buf_printf(b, ",\"line\":%d}", r->xfail.entries[k].line);
                first = false;
            }
        }
        smct_buf_puts(b, "]}");
    } else {
        smct_buf_puts(b, "null");
    }
    smct_buf_puts(b, ",\"stderr_tail\":");
    smct_json_write_cstr(b, r->stderr_tail);
    smcj_causes_json(b, run, r);
    smct_buf_puts(b, ",\"results\":[");
    bool first = true;
    for (size_t i = 0; r->results && i < vs->count; i++) {
        const smcj_result_t *res = &r->results[i];
        if (res->status == SMCJ_ST_NONE) {
            continue;
        }
        smct_buf_puts(b, first ? "" : ",\n");
        first = false;
        result_json(b, run, r, i);
    }
    smct_buf_puts(b, "]}");
}

void smcj_report_json(smct_buf_t *b, const smcj_run_t *run)
{
    static const char *const gates[] = {"required", "recommended", "all"};
    const smcj_vectors_t *vs = run->vectors;
    smct_buf_puts(
        b, "{\"report_format\":4,\"tool\":\"smc conformance\",\"protocol\":2,\"started_at\":");
    smct_json_write_cstr(b, run->started_at);
    smct_buf_printf(b, ",\"seconds\":%.3f,\"timeout\":%g", run->seconds, run->timeout);
    smct_buf_printf(b,
                    ",\"limits\":{\"max_run_time\":%g,\"max_timeouts\":%u,\"max_restarts\":%u,"
                    "\"max_restarts_per_vector\":%u,\"memory_limit\":%llu,\"out_of_time\":%s},"
                    "\"strays\":%zu",
                    run->max_run_time, run->max_timeouts, run->max_restarts,
                    run->max_restarts_per_vector, (unsigned long long)run->memory_limit,
                    run->out_of_time ? "true" : "false", run->strays);
    smct_buf_puts(b, ",\"vectors\":{\"dir\":");
    smct_json_write_cstr(b, vs->dir);
    smct_buf_puts(b, ",\"version\":");
    smct_json_write_cstr(b, vs->version ? vs->version : "unknown");
    smct_buf_puts(b, ",\"files\":");
    str_array(b, vs->files, vs->n_files);
    smct_buf_printf(b, ",\"total\":%zu,\"selected\":%zu}", vs->count, vs->selected);
    smct_buf_printf(b, ",\"gate\":{\"policy\":\"%s\",\"passed\":%s,\"exit_status\":%d,\"notes\":",
                    gates[run->gate], run->gate_passed ? "true" : "false", run->exit_status);
    str_array(b, run->gate_notes, run->n_gate_notes);
    smct_buf_puts(b, "},\"runners\":[\n");
    for (size_t ri = 0; ri < run->n_runners; ri++) {
        if (ri) {
            smct_buf_puts(b, ",\n");
        }
        runner_json(b, run, &run->runners[ri]);
    }
    smct_buf_puts(b, "]}\n");
}
