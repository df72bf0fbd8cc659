/* UTF-8 well-formedness per RFC 3629 / Unicode Table 3-7 (see smct_utf8.h). */
#include "smct_utf8.h"

/*
 * Table 3-7 of the Unicode standard, as byte ranges: the first byte decides the allowed
 * range of the second byte (which excludes overlongs, surrogates and > U+10FFFF); any
 * further byte is 80..BF.
 */
static bool second_byte_range(uint8_t b0, uint8_t *lo, uint8_t *hi, size_t *len)
{
    *lo = 0x80;
    *hi = 0xbf;
    if (b0 >= 0xc2 && b0 <= 0xdf) {
        *len = 2;
    } else if (b0 == 0xe0) {
        *lo = 0xa0;
        *len = 3;
    } else if (b0 == 0xed) {
        *hi = 0x9f;
        *len = 3;
    } else if ((b0 >= 0xe1 && b0 <= 0xec) || b0 == 0xee || b0 == 0xef) {
        *len = 3;
    } else if (b0 == 0xf0) {
        *lo = 0x90;
        *len = 4;
    } else if (b0 >= 0xf1 && b0 <= 0xf3) {
        *len = 4;
    } else if (b0 == 0xf4) {
        *hi = 0x8f;
        *len = 4;
    } else {
        return false;
    }
    return true;
}

size_t smct_utf8_seq_len(const uint8_t *s, size_t avail)
{
    if (avail == 0) {
        return 0;
    }
    if (s[0] < 0x80) {
        return 1;
    }
    uint8_t lo;
    uint8_t hi;
    size_t len;
    if (!second_byte_range(s[0], &lo, &hi, &len) || avail < len) {
        return 0;
    }
    if (s[1] < lo || s[1] > hi) {
        return 0;
    }
    for (size_t i = 2; i < len; i++) {
        if (s[i] < 0x80 || s[i] > 0xbf) {
            return 0;
        }
    }
    return len;
}

size_t smct_utf8_bad_len(const uint8_t *s, size_t avail)
{
    uint8_t lo;
    uint8_t hi;
    size_t len;
    if (avail == 0 || !second_byte_range(s[0], &lo, &hi, &len)) {
        return 1;
    }
    /* The maximal subpart: the longest prefix of a valid sequence that is present. */
    size_t i = 1;
    if (i < avail && s[i] >= lo && s[i] <= hi) {
        i++;
        while (i < len && i < avail && s[i] >= 0x80 && s[i] <= 0xbf) {
            i++;
        }
    }
    return i;
}

bool smct_utf8_valid(const uint8_t *s, size_t len, size_t *bad_offset)
{
    size_t i = 0;
    while (i < len) {
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        size_t n = smct_utf8_seq_len(s + i, len - i);
        if (n == 0) {
            if (bad_offset != NULL) {
                *bad_offset = i;
            }
            return false;
        }
        i += n;
    }
    return true;
}

size_t smct_utf8_encode(uint32_t cp, uint8_t out[4])
{
    if (cp < 0x80) {
        out[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (uint8_t)(0xc0 | cp >> 6);
        out[1] = (uint8_t)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (uint8_t)(0xe0 | cp >> 12);
        out[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
        out[2] = (uint8_t)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (uint8_t)(0xf0 | cp >> 18);
    out[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
    out[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
    out[3] = (uint8_t)(0x80 | (cp & 0x3f));
    return 4;
}
