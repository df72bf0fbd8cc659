/*
 * Layer 1: item reader (spec §14.2 order of checks) and the pull cursor built on it.
 * smci_read_item is the single place where wire bytes are interpreted; the tree decoder
 * (value.c) and the envelope decoders use it too, so every layer reports the same status
 * and offset for every input.
 */
#include "smc_internal.h"

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

size_t smci_array_width(smc_type_t type)
{
    switch (type) {
    case SMC_TYPE_I32S:
    case SMC_TYPE_F32S:
        return 4;
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
        return 8;
    case SMC_TYPE_NULL:
    case SMC_TYPE_BOOL:
    case SMC_TYPE_I32:
    case SMC_TYPE_I64:
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_F64:
    case SMC_TYPE_STR:
    case SMC_TYPE_U8S:
    case SMC_TYPE_LIST:
    case SMC_TYPE_MAP:
    case SMC_TYPE_CUSTOM:
        break;
    }
    return 0;
}

/* spec §2.2: 1, 3 or 5 byte size; strict mode wants the shortest form. */
static smc_status_t read_size(smci_input_t *in, uint32_t flags, uint32_t *n, size_t *err_off)
{
    if (!smci_has(in, 1)) {
        *err_off = smci_length(in);
        return SMC_ERR_TRUNCATED;
    }
    uint8_t b = in->p[0];
    if (b < 254) {
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

/* spec §3.3: the padding must be present; strict mode wants it zero. */
static smc_status_t skip_padding(smci_input_t *in, uint32_t flags, size_t pad, size_t *err_off)
{
    if (!smci_has(in, pad)) {
        *err_off = smci_length(in);
        return SMC_ERR_TRUNCATED;
    }
    if (flags & SMC_STRICT_PADDING) {
        for (size_t i = 0; i < pad; i++) {
            if (in->p[i] != 0) {
                *err_off = smci_offset(in) + i;
                return SMC_ERR_NONZERO_PADDING;
            }
        }
    }
    in->p += pad;
    return SMC_OK;
}

/* string / largeInt / Uint8List payload: size, §14.3 check, bytes, UTF-8 (spec §5, §6.1). */
static smc_status_t read_sized(smci_input_t *in, uint32_t flags, bool text, smc_bytes_t *out,
                               size_t *err_off)
{
    uint32_t n;
    smc_status_t st = read_size(in, flags, &n, err_off);
    if (st != SMC_OK) {
        return st;
    }
    if (!smci_has(in, n)) {
        *err_off = smci_length(in);
        return SMC_ERR_TRUNCATED;
    }
    size_t bad;
    if (text && !smci_utf8_valid(in->p, n, &bad)) {
        *err_off = smci_offset(in) + bad;
        return SMC_ERR_BAD_UTF8;
    }
    out->ptr = in->p;
    out->len = n;
    in->p += n;
    return SMC_OK;
}

/* Typed lists (spec §6.2–6.5): count, §14.3 check of padding + width*n, padding, elements. */
static smc_status_t read_array(smci_input_t *in, uint32_t flags, size_t width, smc_array_t *out,
                               size_t *err_off)
{
    uint32_t n;
    smc_status_t st = read_size(in, flags, &n, err_off);
    if (st != SMC_OK) {
        return st;
    }
    size_t pad = smci_pad(smci_offset(in), width);
    uint64_t need = (uint64_t)pad + (uint64_t)width * n; /* ≤ 7 + 8 * (2^32 - 1): no overflow */
    if (need > (uint64_t)smci_remaining(in)) {
        *err_off = smci_length(in);
        return SMC_ERR_TRUNCATED;
    }
    st = skip_padding(in, flags, pad, err_off);
    if (st != SMC_OK) {
        return st;
    }
    out->data = in->p;
    out->count = n;
    in->p += width * (size_t)n; /* fits: need ≤ remaining */
    return SMC_OK;
}

static smc_status_t read_container(smci_input_t *in, uint32_t flags, uint64_t per_item,
                                   size_t *count, size_t *err_off)
{
    uint32_t n;
    smc_status_t st = read_size(in, flags, &n, err_off);
    if (st != SMC_OK) {
        return st;
    }
    /* spec §14.3: every value is at least one tag byte, so n values need n bytes. */
    if (per_item * n > (uint64_t)smci_remaining(in)) {
        *err_off = smci_length(in);
        return SMC_ERR_TRUNCATED;
    }
    *count = n;
    return SMC_OK;
}

smc_status_t smci_read_item(smci_input_t *in, uint32_t flags, bool may_open, smc_item_t *it,
                            size_t *err_off)
{
    /* spec §14.2 step 1: a value needs its tag byte. */
    if (!smci_has(in, 1)) {
        *err_off = smci_length(in);
        return SMC_ERR_TRUNCATED;
    }
    size_t tag_off = smci_offset(in);
    uint8_t tag = in->p[0];
    in->p += 1;
    it->offset = tag_off;
    it->custom_tag = 0;

    switch (tag) {
    case SMCI_TAG_NULL:
        it->type = SMC_TYPE_NULL;
        return SMC_OK;
    case SMCI_TAG_TRUE:
    case SMCI_TAG_FALSE:
        it->type = SMC_TYPE_BOOL;
        it->boolean = tag == SMCI_TAG_TRUE;
        return SMC_OK;
    case SMCI_TAG_I32: /* spec §4.2: no alignment */
        it->type = SMC_TYPE_I32;
        if (!smci_has(in, 4)) {
            break;
        }
        {
            uint32_t u = smci_le32_unchecked(in->p);
            memcpy(&it->i32, &u, sizeof u);
        }
        in->p += 4;
        return SMC_OK;
    case SMCI_TAG_I64:
        it->type = SMC_TYPE_I64;
        if (!smci_has(in, 8)) {
            break;
        }
        {
            uint64_t u = smci_le64_unchecked(in->p);
            memcpy(&it->i64, &u, sizeof u);
        }
        in->p += 8;
        return SMC_OK;
    case SMCI_TAG_F64: { /* spec §4.3: padding to 8 from the message start, then 8 bytes */
        it->type = SMC_TYPE_F64;
        smc_status_t st = skip_padding(in, flags, smci_pad(smci_offset(in), 8), err_off);
        if (st != SMC_OK) {
            return st;
        }
        if (!smci_has(in, 8)) {
            break;
        }
        it->f64_bits = smci_le64_unchecked(in->p);
        in->p += 8;
        return SMC_OK;
    }
    case SMCI_TAG_LARGEINT: /* spec §4.4 */
        if (flags & SMC_REJECT_LARGEINT) {
            *err_off = tag_off;
            return SMC_ERR_UNKNOWN_TAG;
        }
        it->type = SMC_TYPE_LARGEINT;
        return read_sized(in, flags, true, &it->bytes, err_off);
    case SMCI_TAG_STR:
        it->type = SMC_TYPE_STR;
        return read_sized(in, flags, true, &it->bytes, err_off);
    case SMCI_TAG_U8S:
        it->type = SMC_TYPE_U8S;
        return read_sized(in, flags, false, &it->bytes, err_off);
    case SMCI_TAG_I32S:
        it->type = SMC_TYPE_I32S;
        return read_array(in, flags, 4, &it->array, err_off);
    case SMCI_TAG_F32S:
        it->type = SMC_TYPE_F32S;
        return read_array(in, flags, 4, &it->array, err_off);
    case SMCI_TAG_I64S:
        it->type = SMC_TYPE_I64S;
        return read_array(in, flags, 8, &it->array, err_off);
    case SMCI_TAG_F64S:
        it->type = SMC_TYPE_F64S;
        return read_array(in, flags, 8, &it->array, err_off);
    case SMCI_TAG_LIST:
    case SMCI_TAG_MAP:
        /* spec §15.1: the depth check comes before anything after the tag. */
        if (!may_open) {
            *err_off = tag_off;
            return SMC_ERR_DEPTH;
        }
        it->type = tag == SMCI_TAG_LIST ? SMC_TYPE_LIST : SMC_TYPE_MAP;
        return read_container(in, flags, tag == SMCI_TAG_LIST ? 1 : 2, &it->count, err_off);
    default:
        if (tag >= SMCI_TAG_CUSTOM_MIN && !(flags & SMC_REJECT_CUSTOM)) {
            /* spec §8.1: custom tag + exactly one nested value. With custom values
             * disabled the tag is unknown rather than a container (errors.md §14.1). */
            if (!may_open) {
                *err_off = tag_off;
                return SMC_ERR_DEPTH;
            }
            it->type = SMC_TYPE_CUSTOM;
            it->custom_tag = tag;
            it->count = 1;
            return SMC_OK;
        }
        *err_off = tag_off;
        return SMC_ERR_UNKNOWN_TAG;
    }
    /* A fixed-width payload is cut short. */
    *err_off = smci_length(in);
    return SMC_ERR_TRUNCATED;
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
        smc_status_t st = smci_read_item(in, flags, depth < max_depth, &it, err_off);
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
