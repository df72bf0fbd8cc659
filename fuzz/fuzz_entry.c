/* Dispatch over the three entry points (spec §9–§11); see fuzz_entry.h. */
#include "fuzz_entry.h"

#include <string.h>

smc_status_t fuzz_entry_decode(fuzz_entry_t e, const uint8_t *data, size_t len,
                               const smc_decode_opts_t *opts, smc_arena_t *arena,
                               fuzz_result_t *out, smc_error_t *err)
{
    memset(out, 0, sizeof *out);
    switch (e) {
    case FUZZ_ENTRY_MESSAGE:
        return smc_decode(data, len, opts, arena, &out->value, err);
    case FUZZ_ENTRY_CALL:
        return smc_decode_method_call(data, len, opts, arena, &out->call, err);
    case FUZZ_ENTRY_ENVELOPE:
    default:
        return smc_decode_envelope(data, len, opts, arena, &out->env, err);
    }
}

smc_status_t fuzz_entry_encode(fuzz_entry_t e, const fuzz_result_t *r, uint8_t *buf, size_t cap,
                               size_t *written_or_needed, smc_error_t *err)
{
    switch (e) {
    case FUZZ_ENTRY_MESSAGE:
        return smc_encode(r->value, buf, cap, written_or_needed, err);
    case FUZZ_ENTRY_CALL:
        return smc_encode_method_call(&r->call, buf, cap, written_or_needed, err);
    case FUZZ_ENTRY_ENVELOPE:
    default:
        return smc_encode_envelope(&r->env, buf, cap, written_or_needed, err);
    }
}

static bool envelope_equal(const smc_envelope_t *a, const smc_envelope_t *b)
{
    if (a->is_error != b->is_error) {
        return false;
    }
    if (!a->is_error) {
        return smc_value_equal(a->result, b->result);
    }
    if (!fuzz_bytes_equal(a->code, b->code) || a->has_message != b->has_message ||
        (a->has_message && !fuzz_bytes_equal(a->message, b->message)) ||
        !smc_value_equal(a->details, b->details) || a->stacktrace_state != b->stacktrace_state) {
        return false;
    }
    return a->stacktrace_state != SMC_STACKTRACE_STRING ||
           fuzz_bytes_equal(a->stacktrace, b->stacktrace);
}

bool fuzz_entry_equal(fuzz_entry_t e, const fuzz_result_t *a, const fuzz_result_t *b)
{
    switch (e) {
    case FUZZ_ENTRY_MESSAGE:
        return smc_value_equal(a->value, b->value);
    case FUZZ_ENTRY_CALL:
        return fuzz_bytes_equal(a->call.name, b->call.name) &&
               smc_value_equal(a->call.args, b->call.args);
    case FUZZ_ENTRY_ENVELOPE:
    default:
        return envelope_equal(&a->env, &b->env);
    }
}

/* The value tree of a result: the message, the arguments, the result or the details. */
static const smc_value_t *result_tree(fuzz_entry_t e, const fuzz_result_t *r)
{
    switch (e) {
    case FUZZ_ENTRY_MESSAGE:
        return r->value;
    case FUZZ_ENTRY_CALL:
        return r->call.args;
    case FUZZ_ENTRY_ENVELOPE:
    default:
        return r->env.is_error ? r->env.details : r->env.result;
    }
}

bool fuzz_entry_has_largeint(fuzz_entry_t e, const fuzz_result_t *r)
{
    return fuzz_value_has_largeint(result_tree(e, r));
}

size_t fuzz_entry_depth(fuzz_entry_t e, const fuzz_result_t *r)
{
    return fuzz_tree_depth(result_tree(e, r));
}

static void check_text(smc_bytes_t t, const char *what, const uint8_t *lo, const uint8_t *hi)
{
    FUZZ_ASSERTF(t.len == 0 || t.ptr != NULL, "%s: non-empty with a NULL pointer", what);
    FUZZ_ASSERTF(fuzz_utf8_well_formed(t.ptr, t.len), "%s is not well-formed UTF-8 (spec §5.3)",
                 what);
    if (lo) {
        FUZZ_ASSERTF(fuzz_view_inside(t.ptr, t.len, lo, hi), "%s: aliased view outside the input",
                     what);
    }
}

void fuzz_entry_check(fuzz_entry_t e, const fuzz_result_t *r, const uint8_t *lo, const uint8_t *hi)
{
    fuzz_check_tree(result_tree(e, r), lo, hi);
    if (e == FUZZ_ENTRY_CALL) {
        check_text(r->call.name, "method name", lo, hi);
    } else if (e == FUZZ_ENTRY_ENVELOPE && r->env.is_error) {
        check_text(r->env.code, "error code", lo, hi);
        if (r->env.has_message) {
            check_text(r->env.message, "error message", lo, hi);
        }
        FUZZ_ASSERTF(r->env.stacktrace_state == SMC_STACKTRACE_ABSENT ||
                         r->env.stacktrace_state == SMC_STACKTRACE_NULL ||
                         r->env.stacktrace_state == SMC_STACKTRACE_STRING,
                     "stacktrace_state %d", r->env.stacktrace_state);
        if (r->env.stacktrace_state == SMC_STACKTRACE_STRING) {
            check_text(r->env.stacktrace, "stacktrace", lo, hi);
        }
    }
}

const char *fuzz_entry_name(fuzz_entry_t e)
{
    switch (e) {
    case FUZZ_ENTRY_MESSAGE:
        return "message";
    case FUZZ_ENTRY_CALL:
        return "call";
    case FUZZ_ENTRY_ENVELOPE:
    default:
        return "envelope";
    }
}
