/*
 * Strict UTF-8 validation, RFC 3629 (spec §5.3): no overlong forms, no encoded surrogates
 * U+D800..U+DFFF, nothing above U+10FFFF. The error offset is the first byte of the first
 * ill-formed subsequence, which is always the lead byte of the sequence that fails.
 */
#include "smc_internal.h"

#define HIGH_BITS UINT64_C(0x8080808080808080)

/* Index 0..7 of the lowest byte whose bit 7 is set in `high` (non-zero, bits 7 of the bytes of
 * a little-endian load only). Portable C11, no count-trailing-zeros builtin: the lowest set
 * bit is 1 << (8k + 7); shifted to 1 << 8k, the multiply moves byte 7 - k of the constant,
 * which is k, to the top byte. */
static inline size_t first_high_byte(uint64_t high)
{
    uint64_t lowest = high & (~high + 1);
    return (size_t)(((lowest >> 7) * UINT64_C(0x0001020304050607)) >> 56);
}

/*
 * The index of the first byte ≥ 0x80 in s[i..len), or len, a word at a time: fewer than 8
 * bytes left of a string of at least 8 are its last word with the bytes before i shifted
 * out, so no byte loop runs unless the whole string is shorter than 8 (callgrind,
 * g_error_envelope encode: the byte loop over the ASCII bytes next to each multi-byte
 * character and a string's last 1..7 bytes was most of the validator's 371 instructions a
 * message; with this and the table below, 243).
 */
static inline size_t skip_ascii(const uint8_t *s, size_t i, size_t len)
{
    while (len - i >= 8) {
        uint64_t high = smci_le64_unchecked(s + i) & HIGH_BITS;
        if (high != 0) {
            return i + first_high_byte(high);
        }
        i += 8;
    }
    if (i == len) {
        return len;
    }
    if (len >= 8) {
        uint64_t high = (smci_le64_unchecked(s + len - 8) & HIGH_BITS) >> (8 * (8 - (len - i)));
        return high != 0 ? i + first_high_byte(high) : len;
    }
    while (i < len && s[i] < 0x80) {
        i++;
    }
    return i;
}

/* RFC 3629's table by lead byte 0xC0..0xFF: how many continuation bytes follow (0: not a
 * lead byte) and the range of the first of them, lo..lo + span; the others are always
 * 0x80..0xBF. Four bytes an entry: one scaled index. */
typedef struct {
    uint8_t need, lo, span, unused;
} lead_t;

/* clang-format off */
#define L2 {1, 0x80, 0x3F, 0}
#define L3 {2, 0x80, 0x3F, 0}
#define L4 {3, 0x80, 0x3F, 0}
#define NO {0, 0, 0, 0}
static const lead_t LEADS[64] = {
    NO, NO, L2, L2, L2, L2, L2, L2, L2, L2, L2, L2, L2, L2, L2, L2, /* C0, C1: overlong */
    L2, L2, L2, L2, L2, L2, L2, L2, L2, L2, L2, L2, L2, L2, L2, L2, /* D0..DF */
    {2, 0xA0, 0x1F, 0},                                             /* E0: no overlong */
    L3, L3, L3, L3, L3, L3, L3, L3, L3, L3, L3, L3,                 /* E1..EC */
    {2, 0x80, 0x1F, 0},                                             /* ED: no surrogates */
    L3, L3,                                                         /* EE, EF */
    {3, 0x90, 0x2F, 0},                                             /* F0: no overlong */
    L4, L4, L4,                                                     /* F1..F3 */
    {3, 0x80, 0x0F, 0},                                             /* F4: ≤ U+10FFFF */
    NO, NO, NO, NO, NO, NO, NO, NO, NO, NO, NO,                     /* F5..FF */
};
#undef L2
#undef L3
#undef L4
#undef NO
/* clang-format on */

bool smci_utf8_valid(const uint8_t *s, size_t len, size_t *bad)
{
    size_t i = skip_ascii(s, 0, len);
    while (i < len) {
        /* s[i] ≥ 0x80: a multi-byte sequence, or the first ill-formed subsequence at i */
        uint8_t b = s[i];
        if (b < 0xC0) {
            *bad = i; /* a continuation byte as a lead */
            return false;
        }
        lead_t lead = LEADS[b - 0xC0];
        size_t need = lead.need;
        /* need 0 (C0, C1, F5..FF), cut short by the end of the string, or a wrong next byte */
        if (need == 0 || len - i <= need || (uint8_t)(s[i + 1] - lead.lo) > lead.span ||
            (need >= 2 && (s[i + 2] & 0xC0) != 0x80) || (need == 3 && (s[i + 3] & 0xC0) != 0x80)) {
            *bad = i;
            return false;
        }
        i += need + 1;
        /* text that is not Latin is mostly multi-byte characters in a row */
        if (i < len && s[i] >= 0x80) {
            continue;
        }
        i = skip_ascii(s, i, len);
    }
    return true;
}
