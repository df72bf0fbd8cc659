/**
 * @file smct_utf8.h
 * @brief UTF-8 well-formedness (RFC 3629) for the tools: JSON text, notation strings.
 */
#ifndef SMCT_UTF8_H
#define SMCT_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Length (1..4) of the well-formed UTF-8 sequence starting at s[0] (with `avail` ≥ 1 bytes
 * readable), or 0 if the bytes there are not a well-formed sequence: overlong forms,
 * encoded surrogates, code points above U+10FFFF, bad or missing continuation bytes.
 */
size_t smct_utf8_seq_len(const uint8_t *s, size_t avail);

/**
 * True if all of s[0..len) is well-formed UTF-8; otherwise false and, if `bad_offset` is not
 * NULL, the offset of the first byte of the first ill-formed sequence.
 */
bool smct_utf8_valid(const uint8_t *s, size_t len, size_t *bad_offset);

/**
 * Length of the maximal ill-formed subsequence starting at s[0] (Unicode §3.9 "U+FFFD
 * substitution of maximal subparts"), at least 1. Use when s[0] starts no valid sequence.
 */
size_t smct_utf8_bad_len(const uint8_t *s, size_t avail);

/** Append the UTF-8 encoding of code point `cp` (≤ U+10FFFF, not a surrogate) to out; returns its
 * length. */
size_t smct_utf8_encode(uint32_t cp, uint8_t out[4]);

#ifdef __cplusplus
}
#endif

#endif /* SMCT_UTF8_H */
