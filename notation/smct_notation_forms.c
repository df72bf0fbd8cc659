/*
 * The method call and envelope forms of the value notation (spec/notation.md N.2), read and
 * written, and the dispatch by entry point (message, call, envelope) that the CLI, the judge
 * and the C runner use. Values inside a form go through the value reader and writer.
 */
#include <stdlib.h>
#include <string.h>

#include "smct_hex.h"
#include "smct_notation_internal.h"
#include "smct_utf8.h"

/* A string, a ["strbytes", H] array, or JSON null (N.2 MESSAGE / STACKTRACE). */
static smct_status_t read_opt_string(const smct_json_t *j, smc_arena_t *arena, bool *present,
                                     smc_bytes_t *out, const char *what, smct_error_t *err)
{
    if (j->type == SMCT_JSON_NULL) {
        *present = false;
        out->ptr = NULL;
        out->len = 0;
        return SMCT_OK;
    }
    if (j->type == SMCT_JSON_ARRAY && j->array.count > 0 &&
        smct_json_is_str(&j->array.items[0], "strbytes")) {
        *present = true;
        return smct_notation_read_strbytes(j, arena, out, err);
    }
    if (j->type != SMCT_JSON_STRING) {
        return smct_notation_bad(err, j->offset, what);
    }
    out->ptr = smct_notation_arena_copy(arena, j->str.ptr, j->str.len);
    if (out->ptr == NULL) {
        return smct_notation_nomem(err, j->offset);
    }
    out->len = j->str.len;
    *present = true;
    return SMCT_OK;
}

static smct_status_t read_string(const smct_json_t *j, smc_arena_t *arena, smc_bytes_t *out,
                                 const char *what, smct_error_t *err)
{
    bool present = false;
    if (j->type == SMCT_JSON_NULL) {
        return smct_notation_bad(err, j->offset, what);
    }
    return read_opt_string(j, arena, &present, out, what, err);
}

static smct_status_t read_call(const smct_json_t *j, smc_arena_t *arena, smc_method_call_t *call,
                               smct_error_t *err)
{
    smct_status_t st =
        smct_notation_want_count(j, 3, "call needs a name and an arguments value",
                                 "call has exactly a name and one arguments value", err);
    if (st == SMCT_OK) {
        st = read_string(&j->array.items[1], arena, &call->name, "method name must be a string",
                         err);
    }
    if (st == SMCT_OK) {
        st = smct_notation_read_value(&j->array.items[2], arena, &call->args, err);
    }
    return st;
}

static smct_status_t read_envelope(const smct_json_t *j, smc_arena_t *arena, smc_envelope_t *env,
                                   smct_error_t *err)
{
    const smct_json_t *w = &j->array.items[0];
    smct_status_t st;
    if (smct_json_is_str(w, "success")) {
        st = smct_notation_want_count(j, 2, "success needs a result value",
                                      "success has exactly one result value", err);
        if (st == SMCT_OK) {
            env->is_error = false;
            st = smct_notation_read_value(&j->array.items[1], arena, &env->result, err);
        }
        return st;
    }
    /* error = "error", CODE, MESSAGE|null, DETAILS [, STACKTRACE|null] */
    if (j->array.count < 4) {
        return smct_notation_bad(err, j->end - 1,
                                 "error needs a code, a message (or null) and details");
    }
    if (j->array.count > 5) {
        return smct_notation_bad(err, j->array.items[5].offset,
                                 "error has at most code, message, details and stacktrace");
    }
    env->is_error = true;
    st = read_string(&j->array.items[1], arena, &env->code, "error code must be a string", err);
    if (st == SMCT_OK) {
        st = read_opt_string(&j->array.items[2], arena, &env->has_message, &env->message,
                             "error message must be a string or null", err);
    }
    if (st == SMCT_OK) {
        st = smct_notation_read_value(&j->array.items[3], arena, &env->details, err);
    }
    if (st == SMCT_OK) {
        env->stacktrace_state = SMC_STACKTRACE_ABSENT;
        if (j->array.count == 5) {
            bool present = false;
            st = read_opt_string(&j->array.items[4], arena, &present, &env->stacktrace,
                                 "stacktrace must be a string or null", err);
            if (st == SMCT_OK) {
                env->stacktrace_state = present ? SMC_STACKTRACE_STRING : SMC_STACKTRACE_NULL;
            }
        }
    }
    return st;
}

smc_entry_t smct_notation_guess_entry(const smct_json_t *json)
{
    const smct_json_t *w = smct_json_at(json, 0);
    if (smct_json_is_str(w, "call")) {
        return SMC_ENTRY_CALL;
    }
    if (smct_json_is_str(w, "success") || smct_json_is_str(w, "error")) {
        return SMC_ENTRY_ENVELOPE;
    }
    return SMC_ENTRY_MESSAGE;
}

smct_status_t smct_notation_read(const smct_json_t *json, smc_entry_t entry, smc_arena_t *arena,
                                 smct_doc_t *out, smct_error_t *err)
{
    if (json == NULL || arena == NULL || out == NULL) {
        return smct_error_set(err, SMCT_ERR_USAGE, 0, "invalid arguments");
    }
    memset(out, 0, sizeof *out);
    out->entry = entry;
    if (entry == SMC_ENTRY_MESSAGE) {
        return smct_notation_read_value(json, arena, &out->value, err);
    }
    if (entry != SMC_ENTRY_CALL && entry != SMC_ENTRY_ENVELOPE) {
        return smct_error_set(err, SMCT_ERR_USAGE, 0, "unknown entry point");
    }
    if (json->type != SMCT_JSON_ARRAY) {
        return smct_notation_bad(
            err, json->offset,
            entry == SMC_ENTRY_CALL
                ? "a method call must be a JSON array [\"call\", NAME, V]"
                : "an envelope must be a JSON array [\"success\", V] or [\"error\", ...]");
    }
    if (json->array.count == 0) {
        return smct_notation_bad(err, json->end - 1, "missing form word");
    }
    const smct_json_t *w = &json->array.items[0];
    smct_status_t st;
    if (entry == SMC_ENTRY_CALL) {
        if (!smct_json_is_str(w, "call")) {
            return smct_notation_bad(err, w->offset, "a method call starts with \"call\"");
        }
        st = read_call(json, arena, &out->call, err);
    } else {
        if (!smct_json_is_str(w, "success") && !smct_json_is_str(w, "error")) {
            return smct_notation_bad(err, w->offset,
                                     "an envelope starts with \"success\" or \"error\"");
        }
        st = read_envelope(json, arena, &out->envelope, err);
    }
    if (st == SMCT_OK) {
        smct_error_set(err, SMCT_OK, 0, "ok");
    }
    return st;
}

smct_status_t smct_notation_parse(const char *text, size_t len, smc_entry_t entry,
                                  smc_arena_t *arena, smct_doc_t *out, smct_error_t *err)
{
    smct_json_t *json;
    smct_status_t st = smct_json_parse(text, len, NULL, arena, &json, err);
    if (st != SMCT_OK) {
        if (out != NULL) {
            memset(out, 0, sizeof *out);
            out->entry = entry;
        }
        return st;
    }
    return smct_notation_read(json, entry, arena, out, err);
}

/* A name, code, message or stacktrace: a JSON string, or ["strbytes","H"] if not UTF-8 (N.2). */
static smct_status_t put_text(smct_buf_t *b, smc_bytes_t s, smct_error_t *err)
{
    (void)err;
    if (!smct_utf8_valid(s.ptr, s.len, NULL)) {
        smct_buf_puts(b, "[\"strbytes\",\"");
        smct_buf_put_hex(b, s.ptr, s.len);
        smct_buf_puts(b, "\"]");
        return SMCT_OK;
    }
    smct_json_write_string(b, s.ptr, s.len);
    return SMCT_OK;
}

/* Values that may be NULL on the encode side mean null (smc_envelope.h). */
static const smc_value_t *or_null(const smc_value_t *v)
{
    static const smc_value_t null_value = {.type = SMC_TYPE_NULL};
    return v != NULL ? v : &null_value;
}

smct_status_t smct_notation_write_call(smct_buf_t *b, const smc_method_call_t *call, unsigned flags,
                                       smct_error_t *err)
{
    if (b == NULL || call == NULL) {
        return smct_error_set(err, SMCT_ERR_USAGE, 0, "invalid arguments");
    }
    const char *s = (flags & SMCT_NOTATION_PRETTY) ? ", " : ",";
    smct_buf_puts(b, "[\"call\"");
    smct_buf_puts(b, s);
    smct_status_t st = put_text(b, call->name, err);
    if (st == SMCT_OK) {
        smct_buf_puts(b, s);
        st = smct_notation_write_value(b, or_null(call->args), flags, err);
    }
    smct_buf_putc(b, ']');
    return smct_notation_finish(b, st, err);
}

smct_status_t smct_notation_write_envelope(smct_buf_t *b, const smc_envelope_t *env, unsigned flags,
                                           smct_error_t *err)
{
    if (b == NULL || env == NULL) {
        return smct_error_set(err, SMCT_ERR_USAGE, 0, "invalid arguments");
    }
    const char *s = (flags & SMCT_NOTATION_PRETTY) ? ", " : ",";
    smct_status_t st = SMCT_OK;
    if (!env->is_error) {
        smct_buf_puts(b, "[\"success\"");
        smct_buf_puts(b, s);
        st = smct_notation_write_value(b, or_null(env->result), flags, err);
        smct_buf_putc(b, ']');
        return smct_notation_finish(b, st, err);
    }
    if (env->stacktrace_state != SMC_STACKTRACE_ABSENT &&
        env->stacktrace_state != SMC_STACKTRACE_NULL &&
        env->stacktrace_state != SMC_STACKTRACE_STRING) {
        return smct_error_set(err, SMCT_ERR_USAGE, 0, "invalid arguments");
    }
    smct_buf_puts(b, "[\"error\"");
    smct_buf_puts(b, s);
    st = put_text(b, env->code, err);
    if (st == SMCT_OK) {
        smct_buf_puts(b, s);
        if (env->has_message) {
            st = put_text(b, env->message, err);
        } else {
            smct_buf_puts(b, "null");
        }
    }
    if (st == SMCT_OK) {
        smct_buf_puts(b, s);
        st = smct_notation_write_value(b, or_null(env->details), flags, err);
    }
    if (st == SMCT_OK && env->stacktrace_state != SMC_STACKTRACE_ABSENT) {
        smct_buf_puts(b, s);
        if (env->stacktrace_state == SMC_STACKTRACE_STRING) {
            st = put_text(b, env->stacktrace, err);
        } else {
            smct_buf_puts(b, "null");
        }
    }
    smct_buf_putc(b, ']');
    return smct_notation_finish(b, st, err);
}

smct_status_t smct_notation_write(smct_buf_t *b, const smct_doc_t *doc, unsigned flags,
                                  smct_error_t *err)
{
    if (b == NULL || doc == NULL) {
        return smct_error_set(err, SMCT_ERR_USAGE, 0, "invalid arguments");
    }
    switch (doc->entry) {
    case SMC_ENTRY_MESSAGE:
        return smct_notation_write_value(b, doc->value, flags, err);
    case SMC_ENTRY_CALL:
        return smct_notation_write_call(b, &doc->call, flags, err);
    case SMC_ENTRY_ENVELOPE:
        return smct_notation_write_envelope(b, &doc->envelope, flags, err);
    }
    return smct_error_set(err, SMCT_ERR_USAGE, 0, "invalid arguments");
}
