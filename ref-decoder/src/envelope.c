/*
 * Method calls (spec §10) and envelopes (spec §11). Each element's tag is checked before
 * the element is decoded (spec/errors.md §14.2), so a wrong tag there is bad_envelope.
 * Alignment counts from the first byte of the buffer (the name tag or the flag byte).
 */
#include "smc_internal.h"

typedef struct ctx {
    smci_input_t in;
    uint32_t flags;
    uint32_t max_depth;
    smc_arena_t *arena;
    size_t err_off;
} ctx_t;

/* Decode one value into a fresh arena node. */
static smc_status_t decode_node(ctx_t *c, smc_value_t **out)
{
    if (!smci_has(&c->in, 1)) {
        c->err_off = smci_length(&c->in); /* check first: no allocation for a missing value */
        return SMC_ERR_TRUNCATED;
    }
    smc_value_t *node = (smc_value_t *)smci_arena_alloc_need(
        c->arena, sizeof *node, smci_decode_need(smci_remaining(&c->in), 0));
    if (node == NULL) {
        c->err_off = smci_offset(&c->in);
        return SMC_ERR_NOMEM;
    }
    *out = node;
    return smci_decode_value(&c->in, c->flags, c->max_depth, c->arena, node, &c->err_off);
}

/* A string element whose tag must be 0x07 (or 0x00 when null_ok). `bad` is the
 * bad_envelope status for any other tag. Sets *is_null for 0x00. */
static smc_status_t decode_text(ctx_t *c, bool null_ok, smc_status_t bad, bool *is_null,
                                smc_bytes_t *out)
{
    if (!smci_has(&c->in, 1)) {
        c->err_off = smci_length(&c->in);
        return SMC_ERR_TRUNCATED;
    }
    uint8_t tag = c->in.p[0];
    *is_null = false;
    if (null_ok && tag == SMCI_TAG_NULL) {
        c->in.p += 1;
        *is_null = true;
        out->ptr = NULL;
        out->len = 0;
        return SMC_OK;
    }
    if (tag != SMCI_TAG_STR) {
        c->err_off = smci_offset(&c->in);
        return bad;
    }
    smc_item_t it;
    smc_status_t st = smci_read_item(&c->in, c->flags, true, &it, &c->err_off);
    if (st != SMC_OK) {
        return st;
    }
    out->len = it.bytes.len;
    st = smci_bytes_store(c->arena, c->flags, it.bytes.ptr, it.bytes.len, &out->ptr,
                          smci_decode_need_copy(it.bytes.len, smci_remaining(&c->in), 0));
    if (st != SMC_OK) {
        c->err_off = it.offset;
    }
    return st;
}

static smc_status_t ctx_init(ctx_t *c, const uint8_t *data, size_t len,
                             const smc_decode_opts_t *opts, smc_arena_t *arena, const void *out)
{
    static const uint8_t empty[1] = {0};
    if (arena == NULL || out == NULL || (data == NULL && len != 0) ||
        smci_opts_resolve(opts, &c->flags, &c->max_depth) != SMC_OK) {
        return SMC_ERR_USAGE;
    }
    if (data == NULL) {
        data = empty;
    }
    c->in.base = data;
    c->in.p = data;
    c->in.end = data + len;
    c->arena = arena;
    c->err_off = 0;
    return SMC_OK;
}

static smc_status_t finish(ctx_t *c, smc_status_t st, smci_arena_mark_t mark, smc_error_t *err)
{
    if (st == SMC_OK && c->in.p != c->in.end) {
        st = SMC_ERR_TRAILING_BYTES;
        c->err_off = smci_offset(&c->in);
    }
    smci_arena_end(c->arena, mark, st == SMC_OK);
    smci_set_error(err, st, st == SMC_OK ? 0 : c->err_off);
    return st;
}

smc_status_t smc_decode_method_call(const uint8_t *data, size_t len, const smc_decode_opts_t *opts,
                                    smc_arena_t *arena, smc_method_call_t *out, smc_error_t *err)
{
    ctx_t c;
    if (out != NULL) {
        memset(out, 0, sizeof *out);
    }
    if (ctx_init(&c, data, len, opts, arena, out) != SMC_OK) {
        smci_set_error(err, SMC_ERR_USAGE, 0);
        return SMC_ERR_USAGE;
    }
    smci_arena_mark_t mark = smci_arena_begin(arena, len);
    bool is_null;
    /* spec §10.1: name (tag 0x07 checked first), then one arguments value. */
    smc_status_t st = decode_text(&c, false, SMC_ERR_BAD_METHOD_NAME, &is_null, &out->name);
    if (st == SMC_OK) {
        st = decode_node(&c, &out->args);
    }
    st = finish(&c, st, mark, err);
    if (st != SMC_OK) {
        memset(out, 0, sizeof *out);
    }
    return st;
}

smc_status_t smc_decode_envelope(const uint8_t *data, size_t len, const smc_decode_opts_t *opts,
                                 smc_arena_t *arena, smc_envelope_t *out, smc_error_t *err)
{
    ctx_t c;
    if (out != NULL) {
        memset(out, 0, sizeof *out);
    }
    if (ctx_init(&c, data, len, opts, arena, out) != SMC_OK) {
        smci_set_error(err, SMC_ERR_USAGE, 0);
        return SMC_ERR_USAGE;
    }
    smci_arena_mark_t mark = smci_arena_begin(arena, len);
    smc_status_t st = SMC_OK;
    bool is_null;
    if (!smci_has(&c.in, 1)) {
        st = SMC_ERR_TRUNCATED; /* spec §11.4: empty envelope */
        c.err_off = 0;
    } else if (c.in.p[0] > 1) {
        st = SMC_ERR_BAD_ENVELOPE_FLAG; /* spec §11.4 */
        c.err_off = 0;
    } else if (c.in.p[0] == 0) {
        c.in.p += 1; /* spec §11.1: success, the flag byte counts for alignment */
        st = decode_node(&c, &out->result);
    } else {
        c.in.p += 1; /* spec §11.2: error */
        out->is_error = true;
        st = decode_text(&c, false, SMC_ERR_BAD_ERROR_CODE, &is_null, &out->code);
        if (st == SMC_OK) {
            st = decode_text(&c, true, SMC_ERR_BAD_ERROR_MESSAGE, &is_null, &out->message);
            out->has_message = !is_null;
        }
        if (st == SMC_OK) {
            st = decode_node(&c, &out->details);
        }
        if (st == SMC_OK && smci_has(&c.in, 1)) {
            /* spec §11.3: optional 4th element, a string or null */
            st = decode_text(&c, true, SMC_ERR_BAD_STACKTRACE, &is_null, &out->stacktrace);
            out->stacktrace_state = is_null ? SMC_STACKTRACE_NULL : SMC_STACKTRACE_STRING;
        }
    }
    st = finish(&c, st, mark, err);
    if (st != SMC_OK) {
        memset(out, 0, sizeof *out);
    }
    return st;
}

/* ---- encoders ---- */

static smc_status_t put_opt_value(smc_writer_t *w, const smc_value_t *v)
{
    if (v == NULL) {
        smc_writer_put_null(w);
    } else {
        smc_writer_put_value(w, v);
    }
    return smc_writer_status(w);
}

smc_status_t smc_encode_method_call(const smc_method_call_t *call, uint8_t *buf, size_t cap,
                                    size_t *written_or_needed, smc_error_t *err)
{
    smc_writer_t w;
    smc_writer_init(&w, buf, cap);
    if (call == NULL || (call->name.ptr == NULL && call->name.len != 0)) {
        w.error.status = SMC_ERR_USAGE;
        return smc_writer_finish(&w, written_or_needed, err);
    }
    smc_writer_put_str(&w, call->name.ptr, call->name.len);
    put_opt_value(&w, call->args);
    return smc_writer_finish(&w, written_or_needed, err);
}

smc_status_t smc_encode_envelope(const smc_envelope_t *env, uint8_t *buf, size_t cap,
                                 size_t *written_or_needed, smc_error_t *err)
{
    smc_writer_t w;
    smc_writer_init(&w, buf, cap);
    if (env == NULL || (env->is_error && (env->stacktrace_state < SMC_STACKTRACE_ABSENT ||
                                          env->stacktrace_state > SMC_STACKTRACE_STRING))) {
        w.error.status = SMC_ERR_USAGE;
        return smc_writer_finish(&w, written_or_needed, err);
    }
    uint8_t flag = env->is_error ? 1 : 0;
    smc_writer_put_raw(&w, &flag, 1);
    if (!env->is_error) {
        put_opt_value(&w, env->result);
        return smc_writer_finish(&w, written_or_needed, err);
    }
    smc_writer_put_str(&w, env->code.ptr, env->code.len);
    if (env->has_message) {
        smc_writer_put_str(&w, env->message.ptr, env->message.len);
    } else {
        smc_writer_put_null(&w);
    }
    put_opt_value(&w, env->details);
    if (env->stacktrace_state == SMC_STACKTRACE_NULL) {
        smc_writer_put_null(&w);
    } else if (env->stacktrace_state == SMC_STACKTRACE_STRING) {
        smc_writer_put_str(&w, env->stacktrace.ptr, env->stacktrace.len);
    }
    return smc_writer_finish(&w, written_or_needed, err);
}
