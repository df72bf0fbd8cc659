/**
 * @file smct_hex.h
 * @brief Hex encoding (lower-case) and two decoders: strict for protocol/vector text,
 *        lenient for text typed by people (CLI input).
 */
#ifndef SMCT_HEX_H
#define SMCT_HEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smct_buf.h"
#include "smct_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Write 2*len lower-case hex digits of `bytes` to `out` (no terminator added). */
void smct_hex_encode(const uint8_t *bytes, size_t len, char *out);

/** Append 2*len lower-case hex digits of `bytes` to `b`. */
void smct_buf_put_hex(smct_buf_t *b, const uint8_t *bytes, size_t len);

/**
 * Strict decode, as vectors and runners/PROTOCOL.md use hex: an even number of lower-case
 * digits [0-9a-f], nothing else (no whitespace, no upper case, no "0x").
 *
 * @param hex     `len` characters (not necessarily NUL-terminated).
 * @param out     receives len/2 bytes; must have room for len/2 bytes (may be NULL if len is 0).
 * @param out_len optional; set to the number of bytes written (len/2 on success).
 * @param err     optional; on failure SMCT_ERR_SYNTAX with the offset of the offending
 *                character (for an odd length: offset len).
 */
smct_status_t smct_hex_decode_strict(const char *hex, size_t len, uint8_t *out, size_t *out_len,
                                     smct_error_t *err);

/**
 * Lenient decode for people: digits in either case; ASCII whitespace (space, tab, CR, LF,
 * VT, FF) allowed before, after and between bytes, but not between the two digits of one
 * byte. `out` must have room for len/2 bytes.
 */
smct_status_t smct_hex_decode_lenient(const char *hex, size_t len, uint8_t *out, size_t *out_len,
                                      smct_error_t *err);

/**
 * As smct_hex_decode_strict, into a new heap block of len/2 bytes (plus one, so it is never
 * NULL on success; free() it). SMCT_ERR_NOMEM if it cannot be allocated.
 */
smct_status_t smct_hex_decode_strict_new(const char *hex, size_t len, uint8_t **out,
                                         size_t *out_len, smct_error_t *err);

/** Value of one hex digit (either case), or -1. */
int smct_hex_digit(char c);

/** Value of one lower-case hex digit [0-9a-f], or -1 (vectors and the protocol use these). */
int smct_hex_lower_digit(char c);

#ifdef __cplusplus
}
#endif

#endif /* SMCT_HEX_H */
