/**
 * @file sha256.h
 * @brief SHA-256 (FIPS 180-4) of a byte string, as lowercase hex: how the judge checks that
 *        each vector file is the one MANIFEST.json names (manifest.h).
 */
#ifndef SMCJ_SHA256_H
#define SMCJ_SHA256_H

#include <stddef.h>
#include <stdint.h>

/** Length of the hex digest with its terminating NUL. */
#define SMCJ_SHA256_HEX 65

/** Write the SHA-256 of `data[0..len)` to `hex` as 64 lowercase hex digits and a NUL. */
void smcj_sha256_hex(const uint8_t *data, size_t len, char hex[SMCJ_SHA256_HEX]);

#endif /* SMCJ_SHA256_H */
