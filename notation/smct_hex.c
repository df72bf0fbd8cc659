/* Hex encoding and decoding (see smct_hex.h). */
#include "smct_hex.h"

#include <stdlib.h>

static const char hex_digits[] = "0123456789abcdef";

static void set_error(smct_error_t *err, size_t offset, const char *message)
{
    if (err != NULL) {
        err->status = SMCT_ERR_SYNTAX;
        err->offset = offset;
        err->message = message;
    }
}

void smct_hex_encode(const uint8_t *bytes, size_t len, char *out)
{
    for (size_t i = 0; i < len; i++) {
        out[2 * i] = hex_digits[bytes[i] >> 4];
        out[2 * i + 1] = hex_digits[bytes[i] & 0x0f];
    }
}

void smct_buf_put_hex(smct_buf_t *b, const uint8_t *bytes, size_t len)
{
    if (len > (SIZE_MAX - 1) / 2 || !smct_buf_reserve(b, 2 * len)) {
        b->failed = true;
        return;
    }
    smct_hex_encode(bytes, len, b->data + b->len);
    b->len += 2 * len;
    b->data[b->len] = '\0';
}

int smct_hex_digit(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

/* A lower-case digit's value plus one; 0 for every other byte. */
static const unsigned char lower_value_plus1[256] = {
    ['0'] = 1, ['1'] = 2,  ['2'] = 3,  ['3'] = 4,  ['4'] = 5,  ['5'] = 6,  ['6'] = 7,  ['7'] = 8,
    ['8'] = 9, ['9'] = 10, ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16};

int smct_hex_lower_digit(char c)
{
    return (int)lower_value_plus1[(unsigned char)c] - 1;
}

/* The first character of `hex` that is not a lower-case digit, with why (errors only). */
static smct_status_t strict_error(const char *hex, size_t len, smct_error_t *err)
{
    for (size_t i = 0; i < len; i++) {
        if (smct_hex_lower_digit(hex[i]) < 0) {
            set_error(err, i,
                      smct_hex_digit(hex[i]) >= 0 ? "upper-case hex digit (lower case required)"
                                                  : "not a hex digit");
            return SMCT_ERR_SYNTAX;
        }
    }
    set_error(err, len, "odd number of hex digits");
    return SMCT_ERR_SYNTAX;
}

/* One pass over the digits (a message's hex is 128 M characters for a 64 MiB value): each
 * pair is checked and decoded at once; the first bad character is looked for only when there
 * is one. */
smct_status_t smct_hex_decode_strict(const char *hex, size_t len, uint8_t *out, size_t *out_len,
                                     smct_error_t *err)
{
    if (out_len != NULL) {
        *out_len = 0;
    }
    if (len % 2 != 0) {
        return strict_error(hex, len, err);
    }
    for (size_t i = 0; i < len / 2; i++) {
        int hi = smct_hex_lower_digit(hex[2 * i]);
        int lo = smct_hex_lower_digit(hex[2 * i + 1]);
        if ((hi | lo) < 0) {
            return strict_error(hex, len, err);
        }
        out[i] = (uint8_t)(hi << 4 | lo);
    }
    if (out_len != NULL) {
        *out_len = len / 2;
    }
    return SMCT_OK;
}

static bool is_ascii_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

smct_status_t smct_hex_decode_lenient(const char *hex, size_t len, uint8_t *out, size_t *out_len,
                                      smct_error_t *err)
{
    size_t n = 0;
    size_t i = 0;
    if (out_len != NULL) {
        *out_len = 0;
    }
    while (i < len) {
        if (is_ascii_space(hex[i])) {
            i++;
            continue;
        }
        int hi = smct_hex_digit(hex[i]);
        if (hi < 0) {
            set_error(err, i, "not a hex digit");
            return SMCT_ERR_SYNTAX;
        }
        if (i + 1 >= len) {
            set_error(err, len, "odd number of hex digits");
            return SMCT_ERR_SYNTAX;
        }
        int lo = smct_hex_digit(hex[i + 1]);
        if (lo < 0) {
            set_error(err, i + 1,
                      is_ascii_space(hex[i + 1]) ? "whitespace inside a byte (odd digit count)"
                                                 : "not a hex digit");
            return SMCT_ERR_SYNTAX;
        }
        out[n++] = (uint8_t)(hi << 4 | lo);
        i += 2;
    }
    if (out_len != NULL) {
        *out_len = n;
    }
    return SMCT_OK;
}

smct_status_t smct_hex_decode_strict_new(const char *hex, size_t len, uint8_t **out,
                                         size_t *out_len, smct_error_t *err)
{
    *out = NULL;
    *out_len = 0;
    uint8_t *bytes = malloc(len / 2 + 1);
    if (bytes == NULL) {
        return smct_error_set(err, SMCT_ERR_NOMEM, 0, "out of memory");
    }
    smct_status_t st = smct_hex_decode_strict(hex, len, bytes, out_len, err);
    if (st != SMCT_OK) {
        free(bytes);
        return st;
    }
    *out = bytes;
    return SMCT_OK;
}
