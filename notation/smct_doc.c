/* Entry-point dispatch over the reference library (see smct_doc.h). */
#include "smct_doc.h"

#include <string.h>

const char *smct_entry_name(smc_entry_t entry)
{
    switch (entry) {
    case SMC_ENTRY_MESSAGE:
        return "message";
    case SMC_ENTRY_CALL:
        return "call";
    case SMC_ENTRY_ENVELOPE:
        return "envelope";
    }
    return "?";
}

bool smct_entry_from_name(const char *name, size_t len, smc_entry_t *out)
{
    static const smc_entry_t all[] = {SMC_ENTRY_MESSAGE, SMC_ENTRY_CALL, SMC_ENTRY_ENVELOPE};
    if (name == NULL) {
        return false;
    }
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) {
        const char *n = smct_entry_name(all[i]);
        if (strlen(n) == len && memcmp(n, name, len) == 0) {
            *out = all[i];
            return true;
        }
    }
    return false;
}

smc_status_t smct_doc_decode(const uint8_t *data, size_t len, smc_entry_t entry,
                             const smc_decode_opts_t *opts, smc_arena_t *arena, smct_doc_t *out,
                             smc_error_t *err)
{
    memset(out, 0, sizeof *out);
    out->entry = entry;
    switch (entry) {
    case SMC_ENTRY_MESSAGE:
        return smc_decode(data, len, opts, arena, &out->value, err);
    case SMC_ENTRY_CALL:
        return smc_decode_method_call(data, len, opts, arena, &out->call, err);
    case SMC_ENTRY_ENVELOPE:
        return smc_decode_envelope(data, len, opts, arena, &out->envelope, err);
    }
    if (err != NULL) {
        err->status = SMC_ERR_USAGE;
        err->offset = 0;
    }
    return SMC_ERR_USAGE;
}

/* One encode attempt into buf[0..cap) for the doc's entry point. */
static smc_status_t encode_into(const smct_doc_t *doc, uint8_t *buf, size_t cap, size_t *n,
                                smc_error_t *err)
{
    switch (doc->entry) {
    case SMC_ENTRY_MESSAGE:
        return smc_encode(doc->value, buf, cap, n, err);
    case SMC_ENTRY_CALL:
        return smc_encode_method_call(&doc->call, buf, cap, n, err);
    case SMC_ENTRY_ENVELOPE:
        return smc_encode_envelope(&doc->envelope, buf, cap, n, err);
    }
    if (err != NULL) {
        err->status = SMC_ERR_USAGE;
        err->offset = 0;
    }
    return SMC_ERR_USAGE;
}

smc_status_t smct_doc_encode(const smct_doc_t *doc, smct_buf_t *out, smc_error_t *err)
{
    size_t needed = 0;
    /* First a size query (the writer counts exactly), then one encode into reserved room. */
    smc_status_t st = encode_into(doc, NULL, 0, &needed, err);
    if (st == SMC_OK && needed == 0) {
        return SMC_OK;
    }
    if (st != SMC_OK && st != SMC_ERR_BUFFER_FULL) {
        return st;
    }
    if (!smct_buf_reserve(out, needed)) {
        if (err != NULL) {
            err->status = SMC_ERR_NOMEM;
            err->offset = 0;
        }
        return SMC_ERR_NOMEM;
    }
    size_t written = 0;
    st = encode_into(doc, (uint8_t *)out->data + out->len, needed, &written, err);
    if (st != SMC_OK) {
        return st;
    }
    out->len += written;
    out->data[out->len] = '\0';
    return SMC_OK;
}

static bool bytes_equal(smc_bytes_t a, smc_bytes_t b)
{
    return a.len == b.len && (a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0);
}

/* NULL stands for null on the encode side (smc_envelope.h); compare accordingly. */
static bool value_equal_null_default(const smc_value_t *a, const smc_value_t *b)
{
    smc_value_t null_value;
    memset(&null_value, 0, sizeof null_value);
    null_value.type = SMC_TYPE_NULL;
    return smc_value_equal(a != NULL ? a : &null_value, b != NULL ? b : &null_value);
}

bool smct_doc_equal(const smct_doc_t *a, const smct_doc_t *b)
{
    if (a == NULL || b == NULL) {
        return a == b;
    }
    if (a->entry != b->entry) {
        return false;
    }
    switch (a->entry) {
    case SMC_ENTRY_MESSAGE:
        return smc_value_equal(a->value, b->value);
    case SMC_ENTRY_CALL:
        return bytes_equal(a->call.name, b->call.name) &&
               value_equal_null_default(a->call.args, b->call.args);
    case SMC_ENTRY_ENVELOPE: {
        const smc_envelope_t *x = &a->envelope;
        const smc_envelope_t *y = &b->envelope;
        if (x->is_error != y->is_error) {
            return false;
        }
        if (!x->is_error) {
            return value_equal_null_default(x->result, y->result);
        }
        if (!bytes_equal(x->code, y->code) || x->has_message != y->has_message ||
            (x->has_message && !bytes_equal(x->message, y->message)) ||
            x->stacktrace_state != y->stacktrace_state ||
            (x->stacktrace_state == SMC_STACKTRACE_STRING &&
             !bytes_equal(x->stacktrace, y->stacktrace))) {
            return false;
        }
        return value_equal_null_default(x->details, y->details);
    }
    }
    return false;
}
