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

/*
 * The fast form of each leaf tag, one definition each, used by both the decode loop's case for
 * the tag (value.c) and the one-pass fill's smci_fast_leaf below, so the two cannot disagree.
 * Each reads the value at `p` (its tag already known, `left` = bytes from p to the end, > 0)
 * into `slot` and sets *next to where the next value starts; those that can fail return false
 * with nothing changed, and the generic path then takes the value (spec/errors.md §14.2).
 * The tests are written to pass into the value's work, `return false` last: the same tests
 * as early returns (`if (left < 5) return false;`) changed gcc's register allocation of the
 * whole loop (callgrind, decode per value: g_map10000_str 75.0 → 90.0, b_anr_1000 44.5 →
 * 45.8). The pointer `next` is how both callers want the cursor moved: the loop passes its
 * own `p`, the pass its *pp.
 */
SMCI_INLINE void smci_leaf_null(const uint8_t *p, smc_value_t *slot, const uint8_t **next)
{
    slot->type = SMC_TYPE_NULL;
    slot->custom_tag = 0;
    slot->i64 = 0;
    *next = p + 1;
}

/* `tag` points at the tag: the decode loop passes its local copy (in a register), the pass
 * the input byte. A tag passed by value cost the pass one more instruction on every child of
 * every kind (a second zero extension before its jump table; callgrind, a_list1000_i32
 * decode 21.4 → 22.4); the input byte in the loop too cost the records 0.1–0.2 per value. */
SMCI_INLINE void smci_leaf_bool(const uint8_t *p, const uint8_t *tag, smc_value_t *slot,
                                const uint8_t **next)
{
    slot->type = SMC_TYPE_BOOL;
    slot->custom_tag = 0;
    slot->boolean = *tag == SMCI_TAG_TRUE;
    *next = p + 1;
}

/* int32 (`width` 4) and int64 (8), spec §4.1: the payload's little-endian bytes, stored
 * through memcpy so that no value outside the signed range is converted. */
SMCI_INLINE bool smci_leaf_int(const uint8_t *p, size_t left, size_t width, smc_value_t *slot,
                               const uint8_t **next)
{
    if (left > width) {
        if (width == 4) {
            uint32_t u = smci_le32_unchecked(p + 1);
            slot->type = SMC_TYPE_I32;
            memcpy(&slot->i32, &u, sizeof u);
        } else {
            uint64_t u = smci_le64_unchecked(p + 1);
            slot->type = SMC_TYPE_I64;
            memcpy(&slot->i64, &u, sizeof u);
        }
        slot->custom_tag = 0;
        *next = p + 1 + width;
        return true;
    }
    return false;
}

/* spec §4.3: the padding aligns the payload from the message start (`base`); non-zero
 * padding in strict mode (`strict_pad` all ones) goes to the generic path (spec §3.3). */
SMCI_INLINE bool smci_leaf_f64(const uint8_t *p, size_t left, const uint8_t *base,
                               size_t strict_pad, smc_value_t *slot, const uint8_t **next)
{
    size_t pad = smci_pad((size_t)(p + 1 - base), 8);
    if (pad + 9 <= left && (pad & strict_pad) == 0) {
        slot->type = SMC_TYPE_F64;
        slot->custom_tag = 0;
        slot->f64_bits = smci_le64_unchecked(p + 1 + pad);
        *next = p + 9 + pad;
        return true;
    }
    return false;
}

/* spec §5, §6.1: a string (`text`) or byte array with a 1-byte size (< 254) and its bytes. */
SMCI_INLINE bool smci_leaf_bytes(const uint8_t *p, size_t left, smc_type_t type, bool text,
                                 uint32_t flags, smc_value_t *slot, uint8_t **acur, uint8_t *aend,
                                 const uint8_t **next)
{
    if (left >= 2 && p[1] < 254 && p[1] <= left - 2 &&
        smci_fast_bytes(slot, type, text, p + 2, p[1], flags, acur, aend)) {
        *next = p + 2 + (size_t)p[1];
        return true;
    }
    return false;
}

/* The one-pass fill of a container's children (value.c, `fill`): the fast form of a leaf —
 * null, the bools, int32, int64, a float64 whose padding is present (and zero or not
 * strict), a string or byte array with a 1-byte size whose bytes are present — read at *pp
 * into `slot` by the same functions as the decode loop's own cases for these tags. False,
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
        smci_leaf_null(p, slot, pp);
        return true;
    case SMCI_TAG_TRUE:
    case SMCI_TAG_FALSE:
        smci_leaf_bool(p, p, slot, pp);
        return true;
    case SMCI_TAG_I32:
        return smci_leaf_int(p, left, 4, slot, pp);
    case SMCI_TAG_I64:
        return smci_leaf_int(p, left, 8, slot, pp);
    case SMCI_TAG_F64:
        return smci_leaf_f64(p, left, base, strict_pad, slot, pp);
    case SMCI_TAG_STR:
        return smci_leaf_bytes(p, left, SMC_TYPE_STR, true, flags, slot, acur, aend, pp);
    case SMCI_TAG_U8S:
        return smci_leaf_bytes(p, left, SMC_TYPE_U8S, false, flags, slot, acur, aend, pp);
    default:
        return false;
    }
}

#endif /* SMC_DECODE_FAST_H */
