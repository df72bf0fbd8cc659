/*
 * Layer 1: item reader (spec §14.2 order of checks) and the pull cursor built on it.
 * smci_read_item is the single place where wire bytes are interpreted; the tree decoder
 * (value.c) and the envelope decoders use it too, so every layer reports the same status
 * and offset for every input.
 */
#include "read_item.h"

smc_status_t smci_opts_resolve(const smc_decode_opts_t *opts, uint32_t *flags, uint32_t *max_depth)
{
    *flags = SMC_MODE_FLUTTER;
    *max_depth = SMC_DEFAULT_MAX_DEPTH;
    if (opts == NULL) {
        return SMC_OK;
    }
    if ((opts->flags & ~SMCI_KNOWN_FLAGS) != 0 || opts->max_depth > SMC_MAX_DEPTH_LIMIT) {
        return SMC_ERR_USAGE;
    }
    *flags = opts->flags;
    if (opts->max_depth != 0) {
        *max_depth = opts->max_depth;
    }
    return SMC_OK;
}

/* spec §2.2: the 3- and 5-byte size forms (in->p at the `fe`/`ff` byte, or at the end). */
smc_status_t smci_read_size_escape(smci_input_t *in, uint32_t flags, uint32_t *n, size_t *err_off)
{
    if (!smci_has(in, 1)) {
        *err_off = smci_length(in);
        return SMC_ERR_TRUNCATED;
    }
    uint8_t b = in->p[0];
    if (b < 254) { /* not an escape: callers normally take the inline path for these */
        *n = b;
        in->p += 1;
        return SMC_OK;
    }
    size_t width = b == 254 ? 2 : 4;
    if (!smci_has(in, 1 + width)) {
        *err_off = smci_length(in);
        return SMC_ERR_TRUNCATED;
    }
    uint32_t v = width == 2 ? smci_le16_unchecked(in->p + 1) : smci_le32_unchecked(in->p + 1);
    bool shorter_fits = width == 2 ? v < 254 : v <= 0xFFFFu;
    if ((flags & SMC_STRICT_SIZE) && shorter_fits) {
        *err_off = smci_offset(in); /* the escape byte */
        return SMC_ERR_NONMINIMAL_SIZE;
    }
    *n = v;
    in->p += 1 + width;
    return SMC_OK;
}

/* spec §3.3, strict mode: the first non-zero padding byte (present: checked by the caller). */
smc_status_t smci_check_padding_zero(const smci_input_t *in, size_t pad, size_t *err_off)
{
    for (size_t i = 0; i < pad; i++) {
        if (in->p[i] != 0) {
            *err_off = smci_offset(in) + i;
            return SMC_ERR_NONZERO_PADDING;
        }
    }
    return SMC_OK;
}

smc_status_t smci_read_item(smci_input_t *in, uint32_t flags, bool may_open, smc_item_t *it,
                            size_t *err_off)
{
    return smci_read_item_inline(in, flags, may_open, it, err_off);
}

/* ---- public cursor ---- */

static void reader_fail(smc_reader_t *r, smc_status_t st, size_t off)
{
    if (r->error.status == SMC_OK) {
        r->error.status = st;
        r->error.offset = off;
    }
}

void smc_reader_init_at(smc_reader_t *r, const uint8_t *data, size_t len, size_t offset,
                        const smc_decode_opts_t *opts)
{
    static const uint8_t empty[1] = {0};
    bool misuse = (data == NULL && len != 0) || offset > len;
    if (data == NULL) {
        data = empty; /* keeps pointer arithmetic defined */
        len = 0;
    }
    r->base = data;
    r->p = data;
    r->end = data + len;
    r->depth = 0;
    r->values = 0;
    r->error.status = SMC_OK;
    r->error.offset = 0;
    smc_status_t st = smci_opts_resolve(opts, &r->flags, &r->max_depth);
    if (st != SMC_OK || misuse) {
        reader_fail(r, SMC_ERR_USAGE, 0);
        return;
    }
    r->p = data + offset;
}

void smc_reader_init(smc_reader_t *r, const uint8_t *data, size_t len,
                     const smc_decode_opts_t *opts)
{
    smc_reader_init_at(r, data, len, 0, opts);
}

smc_status_t smc_reader_next(smc_reader_t *r, smc_item_t *item)
{
    smc_item_t scratch;
    if (item == NULL) {
        item = &scratch;
    }
    if (r->error.status != SMC_OK) {
        memset(item, 0, sizeof *item);
        return r->error.status;
    }
    smci_input_t in = {r->base, r->p, r->end};
    size_t err_off = 0;
    smc_status_t st = smci_read_item(&in, r->flags, r->depth < r->max_depth, item, &err_off);
    if (st != SMC_OK) {
        memset(item, 0, sizeof *item);
        reader_fail(r, st, err_off);
        return st;
    }
    r->p = in.p;
    item->depth = r->depth;
    if (r->depth == 0) {
        r->values++;
    } else {
        r->pending[r->depth - 1]--;
    }
    uint64_t children = smci_child_count(item);
    if (children > 0) {
        /* depth < max_depth ≤ SMC_MAX_DEPTH_LIMIT was checked by smci_read_item */
        r->pending[r->depth++] = children;
    }
    while (r->depth > 0 && r->pending[r->depth - 1] == 0) {
        r->depth--;
    }
    return SMC_OK;
}

smc_status_t smci_skip_value(smci_input_t *in, uint32_t flags, uint32_t max_depth, size_t *err_off)
{
    uint64_t pending[SMC_MAX_DEPTH_LIMIT];
    uint32_t depth = 0;
    smc_item_t it;
    do {
        smc_status_t st = smci_read_item_inline(in, flags, depth < max_depth, &it, err_off);
        if (st != SMC_OK) {
            return st;
        }
        if (depth > 0) {
            pending[depth - 1]--;
        }
        uint64_t children = smci_child_count(&it);
        if (children > 0) {
            pending[depth++] = children;
        }
        while (depth > 0 && pending[depth - 1] == 0) {
            depth--;
        }
    } while (depth > 0);
    return SMC_OK;
}

smc_status_t smc_reader_skip_value(smc_reader_t *r)
{
    if (r->error.status == SMC_OK && r->depth == 0) {
        /* A whole top-level value (what the envelope and call entry points skip): the tight
         * loop of smc_validate, same checks in the same order. Only on success; a failing
         * value is read again item by item below, so the reader's state after an error
         * (offset, depth) is exactly that of smc_reader_next. */
        smci_input_t in = {r->base, r->p, r->end};
        size_t err_off = 0;
        if (smci_skip_value(&in, r->flags, r->max_depth, &err_off) == SMC_OK) {
            r->p = in.p;
            r->values++;
            return SMC_OK;
        }
    }
    uint32_t start = r->depth;
    smc_item_t it;
    do {
        smc_status_t st = smc_reader_next(r, &it);
        if (st != SMC_OK) {
            return st;
        }
    } while (r->depth > start);
    return SMC_OK;
}

bool smc_reader_value_complete(const smc_reader_t *r)
{
    return r->depth == 0;
}

uint32_t smc_reader_depth(const smc_reader_t *r)
{
    return r->depth;
}

size_t smc_reader_offset(const smc_reader_t *r)
{
    return (size_t)(r->p - r->base);
}

size_t smc_reader_remaining(const smc_reader_t *r)
{
    return (size_t)(r->end - r->p);
}

bool smc_reader_peek_byte(const smc_reader_t *r, uint8_t *byte)
{
    if (r->error.status != SMC_OK || r->p == r->end) {
        return false;
    }
    if (byte != NULL) {
        *byte = r->p[0];
    }
    return true;
}

smc_status_t smc_reader_finish(smc_reader_t *r, smc_error_t *err)
{
    smc_item_t it;
    if (r->values == 0 && r->error.status == SMC_OK) {
        (void)smc_reader_next(r, &it); /* an empty input is truncated at 0 (spec §9.2) */
    }
    while (r->error.status == SMC_OK && r->depth > 0) {
        (void)smc_reader_next(r, &it);
    }
    if (r->error.status == SMC_OK && r->p != r->end) {
        reader_fail(r, SMC_ERR_TRAILING_BYTES, (size_t)(r->p - r->base)); /* spec §9.1 */
    }
    return smc_reader_error(r, err);
}

smc_status_t smc_reader_error(const smc_reader_t *r, smc_error_t *err)
{
    if (err != NULL) {
        *err = r->error;
    }
    return r->error.status;
}

smc_status_t smc_validate(const uint8_t *data, size_t len, const smc_decode_opts_t *opts,
                          smc_error_t *err)
{
    static const uint8_t empty[1] = {0};
    uint32_t flags, max_depth;
    if ((data == NULL && len != 0) || smci_opts_resolve(opts, &flags, &max_depth) != SMC_OK) {
        smci_set_error(err, SMC_ERR_USAGE, 0);
        return SMC_ERR_USAGE;
    }
    if (data == NULL) {
        data = empty;
    }
    smci_input_t in = {data, data, data + len};
    size_t err_off = 0;
    smc_status_t st = smci_skip_value(&in, flags, max_depth, &err_off);
    if (st == SMC_OK && in.p != in.end) {
        st = SMC_ERR_TRAILING_BYTES; /* spec §9.1 */
        err_off = smci_offset(&in);
    }
    smci_set_error(err, st, st == SMC_OK ? 0 : err_off);
    return st;
}
