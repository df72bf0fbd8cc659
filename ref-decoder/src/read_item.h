/*
 * smci_read_item_inline: the one interpretation of wire bytes (spec §2–§8, order of checks of
 * spec/errors.md §14.2), as an inline function so the loops that call it once per value
 * (smci_skip_value, smci_decode_value) keep the item in registers instead of paying a call
 * and a store/reload of smc_item_t per value. Rare paths (3/5-byte sizes, strict padding,
 * non-ASCII UTF-8) stay out of line. reader.c wraps it as smci_read_item for everyone else.
 */
#ifndef SMC_READ_ITEM_H
#define SMC_READ_ITEM_H

#include "smc_internal.h"

/* Out of line (reader.c): the `fe`/`ff` size forms of spec §2.2, called with in->p at the
 * escape byte, and the strict-mode zero-padding check of spec §3.3. */
smc_status_t smci_read_size_escape(smci_input_t *in, uint32_t flags, uint32_t *n, size_t *err_off);
smc_status_t smci_check_padding_zero(const smci_input_t *in, size_t pad, size_t *err_off);

/* spec §2.2: 1, 3 or 5 byte size; strict mode wants the shortest form. */
SMCI_INLINE smc_status_t smci_read_size(smci_input_t *in, uint32_t flags, uint32_t *n,
                                        size_t *err_off)
{
    if (SMCI_LIKELY(smci_has(in, 1) && in->p[0] < 254)) {
        *n = in->p[0];
        in->p += 1;
        return SMC_OK;
    }
    return smci_read_size_escape(in, flags, n, err_off);
}

/* spec §3.3: the padding must be present; strict mode wants it zero. */
SMCI_INLINE smc_status_t smci_skip_padding(smci_input_t *in, uint32_t flags, size_t pad,
                                           size_t *err_off)
{
    if (!smci_has(in, pad)) {
        *err_off = smci_length(in);
        return SMC_ERR_TRUNCATED;
    }
    if ((flags & SMC_STRICT_PADDING) && pad > 0) {
        smc_status_t st = smci_check_padding_zero(in, pad, err_off);
        if (st != SMC_OK) {
            return st;
        }
    }
    in->p += pad;
    return SMC_OK;
}

/* The inline all-ASCII test (most strings on real channels are ASCII): OR-ing every byte
 * and testing bit 7 is exact for "all bytes < 0x80". */
SMCI_INLINE bool smci_ascii_fast(const uint8_t *s, size_t len)
{
    uint64_t acc = 0;
    if (len >= 8 && len <= 32) {
        /* Short strings without a loop: the first and last 8 bytes, and for 17..32 bytes the
         * two 8-byte words after the first and before the last (all overlapping as needed).
         * callgrind, g_map10000_str decode: the loop cost ~9 instructions per string more. */
        uint64_t w[4];
        size_t mid = len > 16 ? 8 : 0;
        memcpy(&w[0], s, 8);
        memcpy(&w[1], s + mid, 8);
        memcpy(&w[2], s + len - 8 - mid, 8);
        memcpy(&w[3], s + len - 8, 8);
        acc = w[0] | w[1] | w[2] | w[3];
    } else if (len >= 8) {
        size_t i = 0;
        for (; i + 8 <= len; i += 8) {
            uint64_t c;
            memcpy(&c, s + i, sizeof c);
            acc |= c;
        }
        uint64_t last; /* the last 8 bytes, overlapping what was read: no tail loop */
        memcpy(&last, s + len - 8, sizeof last);
        acc |= last;
    } else if (len >= 4) {
        uint32_t a, b;
        memcpy(&a, s, sizeof a);
        memcpy(&b, s + len - 4, sizeof b);
        acc = a | b;
    } else {
        for (size_t i = 0; i < len; i++) {
            acc |= s[i];
        }
    }
    return (acc & UINT64_C(0x8080808080808080)) == 0;
}

/* UTF-8 check: the ASCII test inline, anything else to the full RFC 3629 validator, which
 * finds the offset. */
SMCI_INLINE bool smci_utf8_valid_fast(const uint8_t *s, size_t len, size_t *bad)
{
    if (SMCI_LIKELY(smci_ascii_fast(s, len))) {
        return true;
    }
    return smci_utf8_valid(s, len, bad);
}

/* string / largeInt / Uint8List payload: size, §14.3 check, bytes, UTF-8 (spec §5, §6.1). */
SMCI_INLINE smc_status_t smci_read_sized(smci_input_t *in, uint32_t flags, bool text,
                                         smc_item_t *it, size_t *err_off)
{
    uint32_t n;
    smc_bytes_t *out = &it->bytes;
    smc_status_t st = smci_read_size(in, flags, &n, err_off);
    if (st != SMC_OK) {
        return st;
    }
    it->size_len = (uint8_t)(smci_offset(in) - it->offset - 1);
    if (!smci_has(in, n)) {
        *err_off = smci_length(in);
        return SMC_ERR_TRUNCATED;
    }
    size_t bad;
    if (text && !smci_utf8_valid_fast(in->p, n, &bad)) {
        *err_off = smci_offset(in) + bad;
        return SMC_ERR_BAD_UTF8;
    }
    out->ptr = in->p;
    out->len = n;
    in->p += n;
    return SMC_OK;
}

/* Typed lists (spec §6.2–6.5): count, §14.3 check of padding + width*n, padding, elements. */
SMCI_INLINE smc_status_t smci_read_array(smci_input_t *in, uint32_t flags, size_t width,
                                         smc_item_t *it, size_t *err_off)
{
    uint32_t n;
    smc_array_t *out = &it->array;
    smc_status_t st = smci_read_size(in, flags, &n, err_off);
    if (st != SMC_OK) {
        return st;
    }
    it->size_len = (uint8_t)(smci_offset(in) - it->offset - 1);
    size_t pad = smci_pad(smci_offset(in), width);
    it->pad_len = (uint8_t)pad;
    uint64_t need = (uint64_t)pad + (uint64_t)width * n; /* ≤ 7 + 8 * (2^32 - 1): no overflow */
    if (need > (uint64_t)smci_remaining(in)) {
        *err_off = smci_length(in);
        return SMC_ERR_TRUNCATED;
    }
    st = smci_skip_padding(in, flags, pad, err_off);
    if (st != SMC_OK) {
        return st;
    }
    out->data = in->p;
    out->count = n;
    in->p += width * (size_t)n; /* fits: need ≤ remaining */
    return SMC_OK;
}

SMCI_INLINE smc_status_t smci_read_container(smci_input_t *in, uint32_t flags, uint64_t per_item,
                                             smc_item_t *it, size_t *err_off)
{
    uint32_t n;
    size_t *count = &it->count;
    smc_status_t st = smci_read_size(in, flags, &n, err_off);
    if (st != SMC_OK) {
        return st;
    }
    it->size_len = (uint8_t)(smci_offset(in) - it->offset - 1);
    /* spec §14.3: every value is at least one tag byte, so n values need n bytes. */
    if (per_item * n > (uint64_t)smci_remaining(in)) {
        *err_off = smci_length(in);
        return SMC_ERR_TRUNCATED;
    }
    *count = n;
    return SMC_OK;
}

/* See smci_read_item in smc_internal.h. */
SMCI_INLINE smc_status_t smci_read_item_inline(smci_input_t *in, uint32_t flags, bool may_open,
                                               smc_item_t *it, size_t *err_off)
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
    it->size_len = 0;
    it->pad_len = 0;

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
        it->pad_len = (uint8_t)smci_pad(smci_offset(in), 8);
        smc_status_t st = smci_skip_padding(in, flags, it->pad_len, err_off);
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
        return smci_read_sized(in, flags, true, it, err_off);
    case SMCI_TAG_STR:
        it->type = SMC_TYPE_STR;
        return smci_read_sized(in, flags, true, it, err_off);
    case SMCI_TAG_U8S:
        it->type = SMC_TYPE_U8S;
        return smci_read_sized(in, flags, false, it, err_off);
    case SMCI_TAG_I32S:
        it->type = SMC_TYPE_I32S;
        return smci_read_array(in, flags, 4, it, err_off);
    case SMCI_TAG_F32S:
        it->type = SMC_TYPE_F32S;
        return smci_read_array(in, flags, 4, it, err_off);
    case SMCI_TAG_I64S:
        it->type = SMC_TYPE_I64S;
        return smci_read_array(in, flags, 8, it, err_off);
    case SMCI_TAG_F64S:
        it->type = SMC_TYPE_F64S;
        return smci_read_array(in, flags, 8, it, err_off);
    case SMCI_TAG_LIST:
    case SMCI_TAG_MAP:
        /* spec §15.1: the depth check comes before anything after the tag. */
        if (!may_open) {
            *err_off = tag_off;
            return SMC_ERR_DEPTH;
        }
        it->type = tag == SMCI_TAG_LIST ? SMC_TYPE_LIST : SMC_TYPE_MAP;
        return smci_read_container(in, flags, tag == SMCI_TAG_LIST ? 1 : 2, it, err_off);
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

#endif /* SMC_READ_ITEM_H */
