/*
 * smci_copy_short: memcpy for the payload copies of the per-value loops (strings and byte
 * arrays into the decode arena, and into the encoder's output). Most strings on real channels
 * are short, and for them a call to the C library's memcpy costs more than the copy itself
 * (callgrind, g_map10000_str decode: ~25 instructions per string in and around the call for
 * 17..32-byte strings). Up to 32 bytes it copies with overlapping fixed-width loads and
 * stores; longer payloads still go to memcpy. The regions must not overlap.
 */
#ifndef SMC_COPY_SHORT_H
#define SMC_COPY_SHORT_H

#include <stdint.h>
#include <string.h>

#include "smc_internal.h"

/* Two overlapping 8-byte copies cover any length in 8..16. */
SMCI_INLINE void smci_copy_8_16(uint8_t *dst, const uint8_t *src, size_t len)
{
    uint64_t head, tail;
    memcpy(&head, src, 8);
    memcpy(&tail, src + len - 8, 8);
    memcpy(dst, &head, 8);
    memcpy(dst + len - 8, &tail, 8);
}

SMCI_INLINE void smci_copy_short(uint8_t *dst, const uint8_t *src, size_t len)
{
    if (len >= 8 && len <= 16) {
        smci_copy_8_16(dst, src, len);
    } else if (len > 16 && len <= 32) {
        /* the first 16 and the last 16 bytes (overlapping when len < 32) */
        smci_copy_8_16(dst, src, 16);
        smci_copy_8_16(dst + len - 16, src + len - 16, 16);
    } else if (len >= 4 && len < 8) {
        uint32_t head, tail;
        memcpy(&head, src, 4);
        memcpy(&tail, src + len - 4, 4);
        memcpy(dst, &head, 4);
        memcpy(dst + len - 4, &tail, 4);
    } else if (len > 32) {
        memcpy(dst, src, len);
    } else if (len > 0) {
        /* 1..3 bytes: first, middle and last cover them. (A memcpy sharing a branch with
         * this case was expanded by gcc into a byte loop, 5 instructions per byte of a long
         * string: callgrind, g_error_envelope encode.) */
        dst[0] = src[0];
        dst[len / 2] = src[len / 2];
        dst[len - 1] = src[len - 1];
    }
}

#endif /* SMC_COPY_SHORT_H */
