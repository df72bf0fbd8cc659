/*
 * Strict UTF-8 validation, RFC 3629 (spec §5.3): no overlong forms, no encoded surrogates
 * U+D800..U+DFFF, nothing above U+10FFFF. The error offset is the first byte of the first
 * ill-formed subsequence, which is always the lead byte of the sequence that fails.
 */
#include "smc_internal.h"

bool smci_utf8_valid(const uint8_t *s, size_t len, size_t *bad)
{
    size_t i = 0;
    while (i < len) {
        /* ASCII fast path, eight bytes at a time (memcpy: no alignment assumption). */
        while (len - i >= 8) {
            uint64_t chunk;
            memcpy(&chunk, s + i, sizeof chunk);
            if (chunk & UINT64_C(0x8080808080808080)) {
                break;
            }
            i += 8;
        }
        if (i >= len) {
            break;
        }
        uint8_t b = s[i];
        if (b < 0x80) {
            i++;
            continue;
        }
        size_t need;
        uint8_t lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
        if (b >= 0xC2 && b <= 0xDF) {
            need = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            need = 2;
            if (b == 0xE0) {
                lo = 0xA0; /* overlong */
            } else if (b == 0xED) {
                hi = 0x9F; /* surrogates */
            }
        } else if (b >= 0xF0 && b <= 0xF4) {
            need = 3;
            if (b == 0xF0) {
                lo = 0x90; /* overlong */
            } else if (b == 0xF4) {
                hi = 0x8F; /* above U+10FFFF */
            }
        } else {
            *bad = i; /* continuation byte, C0/C1 or F5..FF as a lead */
            return false;
        }
        if (len - i <= need) {
            *bad = i; /* sequence cut short by the end of the string */
            return false;
        }
        if (s[i + 1] < lo || s[i + 1] > hi) {
            *bad = i;
            return false;
        }
        for (size_t k = 2; k <= need; k++) {
            if ((s[i + k] & 0xC0) != 0x80) {
                *bad = i;
                return false;
            }
        }
        i += need + 1;
    }
    return true;
}
