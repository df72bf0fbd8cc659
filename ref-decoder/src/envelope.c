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

/* Decode one value into a fresh arena node (at least one input byte remains). */
static smc_status_t decode_node(ctx_t *c, smc_value_t **out)
{
    smc_value_t *node = (smc_value_t *)smci_arena_alloc_need(
        c->arena, sizeof *node, smci_decode_need(smci_remaining(&c->in), 0));
    if (node == NULL) {
        c->err_off = smci_offset(&c->in);
        return SMC_ERR_NOMEM;
    }
    *out = node;
    return smci_decode_value(&c->in, c->flags, c->max_depth, c->arena, node, &c->err_off);
}

/* The grammar of spec §10.1 and §11, as data: the decoders below follow it, and tools walking
 * the same bytes (smc inspect) read it through smc_method_call_elements and
 * smc_envelope_elements. A `value` element accepts any tag, so its wrong_tag is never used. */
static const smc_element_t call_elements[] = {
    {"name", SMC_ELEMENT_STRING, false, SMC_ERR_BAD_METHOD_NAME},
    {"args", SMC_ELEMENT_VALUE, false, SMC_OK},
};
static const smc_element_t success_elements[] = {
    {"result", SMC_ELEMENT_VALUE, false, SMC_OK},
};
static const smc_element_t error_elements[] = {
    {"code", SMC_ELEMENT_STRING, false, SMC_ERR_BAD_ERROR_CODE},
    {"message", SMC_ELEMENT_STRING_OR_NULL, false, SMC_ERR_BAD_ERROR_MESSAGE},
    {"details", SMC_ELEMENT_VALUE, false, SMC_OK},
    {"stacktrace", SMC_ELEMENT_STRING_OR_NULL, true, SMC_ERR_BAD_STACKTRACE}, /* §11.3 */
};
enum { ERROR_CODE, ERROR_MESSAGE, ERROR_DETAILS, ERROR_STACKTRACE };

bool smc_element_allows(smc_element_kind_t kind, uint8_t tag)
{
    switch (kind) {
    case SMC_ELEMENT_STRING:
        return tag == SMCI_TAG_STR;
    case SMC_ELEMENT_STRING_OR_NULL:
        return tag == SMCI_TAG_STR || tag == SMCI_TAG_NULL;
    case SMC_ELEMENT_VALUE:
        return true;
    }
    return false;
}

const smc_element_t *smc_method_call_elements(size_t *count)
{
    *count = sizeof call_elements / sizeof call_elements[0];
    return call_elements;
}

const smc_element_t *smc_envelope_elements(uint8_t flag, size_t *count)
{
    if (flag == 0) { /* spec §11.1 */
        *count = sizeof success_elements / sizeof success_elements[0];
        return success_elements;
    }
    if (flag == 1) { /* spec §11.2 */
        *count = sizeof error_elements / sizeof error_elements[0];
        return error_elements;
    }
    *count = 0; /* spec §11.4 */
    return NULL;
}

/*
 * One element by its rule (spec/errors.md §14.2: its first byte is checked before anything
 * else). A string element fills *text (*is_null for `00`), a value element *value.
 */
static smc_status_t decode_element(ctx_t *c, const smc_element_t *e, smc_bytes_t *text,
                                   bool *is_null, smc_value_t **value)
{
    if (!smci_has(&c->in, 1)) {
        c->err_off = smci_length(&c->in); /* check first: no allocation for a missing value */
        return SMC_ERR_TRUNCATED;
    }
    uint8_t tag = c->in.p[0];
    if (!smc_element_allows(e->kind, tag)) {
        c->err_off = smci_offset(&c->in);
        return e->wrong_tag;
    }
    if (e->kind == SMC_ELEMENT_VALUE) {
        return decode_node(c, value);
    }
    *is_null = tag == SMCI_TAG_NULL;
    if (*is_null) {
        c->in.p += 1;
        text->ptr = NULL;
        text->len = 0;
        return SMC_OK;
    }
    smc_item_t it;
    smc_status_t st = smci_read_item(&c->in, c->flags, true, &it, &c->err_off);
    if (st != SMC_OK) {
        return st;
    }
    text->len = it.bytes.len;
    st = smci_bytes_store(c->arena, c->flags, it.bytes.ptr, it.bytes.len, &text->ptr,
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
    smc_status_t st = decode_element(&c, &call_elements[0], &out->name, &is_null, NULL);
    if (st == SMC_OK) {
        st = decode_element(&c, &call_elements[1], NULL, NULL, &out->args);
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
    size_t n;
    const smc_element_t *e = smci_has(&c.in, 1) ? smc_envelope_elements(c.in.p[0], &n) : NULL;
    if (!smci_has(&c.in, 1)) {
        st = SMC_ERR_TRUNCATED; /* spec §11.4: empty envelope */
        c.err_off = 0;
    } else if (e == NULL) {
        st = SMC_ERR_BAD_ENVELOPE_FLAG; /* spec §11.4 */
        c.err_off = 0;
    } else if (c.in.p[0] == 0) {
        c.in.p += 1; /* spec §11.1: success, the flag byte counts for alignment */
        st = decode_element(&c, &e[0], NULL, NULL, &out->result);
    } else {
        c.in.p += 1; /* spec §11.2: error */
        out->is_error = true;
        st = decode_element(&c, &e[ERROR_CODE], &out->code, &is_null, NULL);
        if (st == SMC_OK) {
            st = decode_element(&c, &e[ERROR_MESSAGE], &out->message, &is_null, NULL);
            out->has_message = !is_null;
        }
        if (st == SMC_OK) {
            st = decode_element(&c, &e[ERROR_DETAILS], NULL, NULL, &out->details);
        }
        if (st == SMC_OK && (!e[ERROR_STACKTRACE].optional || smci_has(&c.in, 1))) {
            st = decode_element(&c, &e[ERROR_STACKTRACE], &out->stacktrace, &is_null, NULL);
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
