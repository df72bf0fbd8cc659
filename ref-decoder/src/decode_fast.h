/*
 * Helpers of the tree decoder's fast path (value.c, smci_decode_value): the arena's bump on
 * a cursor the decode loop keeps in locals, and the short string / byte array case. Each
 * either does all of its value's work or nothing, so the loop can hand the value to the
 * generic path unchanged.
 */
#ifndef SMC_DECODE_FAST_H
#define SMC_DECODE_FAST_H

#include <stdint.h>
#include <string.h>

#include "copy_short.h"
#include "read_item.h"

/* The bump of smci_arena_bump on a cursor held in locals (`*cur`, `end`): the same room
 * test after aligning to 8, on integers, without the test for a missing block (then cur =
 * end = NULL and no size > 0 fits). The caller adds what the cursor moved to arena->used
 * when it writes it back. */
SMCI_INLINE void *smci_bump_local(uint8_t **cur, uint8_t *end, size_t size)
{
    uintptr_t c = (uintptr_t)*cur;
    uintptr_t e = (uintptr_t)end;
    uintptr_t aligned = (c + 7) & ~(uintptr_t)7;
    if (aligned <= e && size <= e - aligned && size != 0) {
        uint8_t *p = *cur + (aligned - c);
        *cur = p + size;
        return p;
    }
    return NULL;
}

/* Fast path of a string or byte array whose size fits one byte and whose bytes are present:
 * the ASCII test (text) and the copy into the arena, unaligned (smc_bytes_t promises no
 * alignment), on the cursor in locals. For 8..32 bytes the four overlapping words that the
 * ASCII test ORs are the ones stored (callgrind, g_map10000_str: the test and the copy apart
 * cost ~33 instructions per string). False, with nothing changed, when the generic path
 * must take the value: non-ASCII text (to validate it and find the offset) or a full block. */
SMCI_INLINE bool smci_fast_bytes(smc_value_t *slot, smc_type_t type, bool text, const uint8_t *src,
                                 size_t n, uint32_t flags, uint8_t **acur, uint8_t *aend)
{
    const uint8_t *dst = NULL;
    size_t avail = (size_t)((uintptr_t)aend - (uintptr_t)*acur); /* 0 without a block */
    if (n - 8 <= 24 && !(flags & SMC_ALIAS_INPUT)) {
        uint64_t w0, w1, w2, w3;
        size_t mid = n > 16 ? 8 : 0;
        memcpy(&w0, src, 8);
        memcpy(&w1, src + mid, 8);
        memcpy(&w2, src + n - 8 - mid, 8);
        memcpy(&w3, src + n - 8, 8);
        if ((text && ((w0 | w1 | w2 | w3) & UINT64_C(0x8080808080808080)) != 0) || n > avail) {
            return false;
        }
        uint8_t *copy = *acur;
        *acur = copy + n;
        memcpy(copy, &w0, 8);
        memcpy(copy + mid, &w1, 8);
        memcpy(copy + n - 8 - mid, &w2, 8);
        memcpy(copy + n - 8, &w3, 8);
        dst = copy;
    } else {
        if (text && !smci_ascii_fast(src, n)) {
            return false;
        }
        if (n > 0) {
            if (flags & SMC_ALIAS_INPUT) {
                dst = src;
            } else {
                if (n > avail) {
                    return false;
                }
                uint8_t *copy = *acur;
                *acur = copy + n;
                smci_copy_short(copy, src, n);
                dst = copy;
            }
        }
    }
    slot->type = type;
    slot->custom_tag = 0;
    slot->bytes.ptr = dst;
    slot->bytes.len = n;
    return true;
}

/* The one-pass fill of a container's children (value.c, `fill`): the fast form of a leaf —
 * null, the bools, int32, int64, a float64 whose padding is present (and zero or not
 * strict), a string or byte array with a 1-byte size whose bytes are present — read at *pp
 * into `slot`, with exactly the tests of the decode loop's own cases for these tags. False,
 * with nothing changed, for anything else (a container, an error, a form the generic path
 * takes): the loop then decodes that child as it would have without the pass. */
SMCI_INLINE bool smci_fast_leaf(const uint8_t **pp, const uint8_t *base, const uint8_t *lim,
                                size_t strict_pad, uint32_t flags, smc_value_t *slot,
                                uint8_t **acur, uint8_t *aend)
{
    const uint8_t *p = *pp;
    if (p == lim) {
        return false;
    }
    size_t left = (size_t)(lim - p);
    switch (p[0]) {
    case SMCI_TAG_NULL:
        slot->type = SMC_TYPE_NULL;
        slot->custom_tag = 0;
        slot->i64 = 0;
        *pp = p + 1;
        return true;
    case SMCI_TAG_TRUE:
    case SMCI_TAG_FALSE:
        slot->type = SMC_TYPE_BOOL;
        slot->custom_tag = 0;
        slot->boolean = p[0] == SMCI_TAG_TRUE;
        *pp = p + 1;
        return true;
    case SMCI_TAG_I32:
        if (left >= 5) {
            uint32_t u = smci_le32_unchecked(p + 1);
            slot->type = SMC_TYPE_I32;
            slot->custom_tag = 0;
            memcpy(&slot->i32, &u, sizeof u);
            *pp = p + 5;
            return true;
        }
        return false;
    case SMCI_TAG_I64:
        if (left >= 9) {
            uint64_t u = smci_le64_unchecked(p + 1);
            slot->type = SMC_TYPE_I64;
            slot->custom_tag = 0;
            memcpy(&slot->i64, &u, sizeof u);
            *pp = p + 9;
            return true;
        }
        return false;
    case SMCI_TAG_F64: { /* spec §4.3 */
        size_t pad = smci_pad((size_t)(p + 1 - base), 8);
        if (pad + 9 <= left && (pad & strict_pad) == 0) {
            slot->type = SMC_TYPE_F64;
            slot->custom_tag = 0;
            slot->f64_bits = smci_le64_unchecked(p + 1 + pad);
            *pp = p + 9 + pad;
            return true;
        }
        return false;
    }
    case SMCI_TAG_STR: /* spec §5, §6.1 */
        if (left >= 2 && p[1] < 254 && p[1] <= left - 2 &&
            smci_fast_bytes(slot, SMC_TYPE_STR, true, p + 2, p[1], flags, acur, aend)) {
            *pp = p + 2 + (size_t)p[1];
            return true;
        }
        return false;
    case SMCI_TAG_U8S:
        if (left >= 2 && p[1] < 254 && p[1] <= left - 2 &&
            smci_fast_bytes(slot, SMC_TYPE_U8S, false, p + 2, p[1], flags, acur, aend)) {
            *pp = p + 2 + (size_t)p[1];
            return true;
        }
        return false;
    default:
        return false;
    }
}

#endif /* SMC_DECODE_FAST_H */
