/*
 * The only bounds-checking and little-endian helpers of the library (house style rule 5).
 * Every read of input bytes goes through an smci_input_t and is preceded by smci_has().
 */
#ifndef SMC_INPUT_H
#define SMC_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A cursor over [base, end); p is the next byte. Offsets count from base (spec/errors.md). */
typedef struct smci_input {
    const uint8_t *base;
    const uint8_t *p;
    const uint8_t *end;
} smci_input_t;

/* True when at least n bytes remain. Written as a comparison with the remaining count, never
 * as p + n <= end, so a wire-derived n cannot overflow a pointer. */
static inline bool smci_has(const smci_input_t *in, size_t n)
{
    return n <= (size_t)(in->end - in->p);
}

static inline size_t smci_remaining(const smci_input_t *in)
{
    return (size_t)(in->end - in->p);
}

static inline size_t smci_offset(const smci_input_t *in)
{
    return (size_t)(in->p - in->base);
}

static inline size_t smci_length(const smci_input_t *in)
{
    return (size_t)(in->end - in->base);
}

/* Little-endian loads from a pointer already proven to have enough bytes (hence _unchecked). */
static inline uint16_t smci_le16_unchecked(const uint8_t *p)
{
    return (uint16_t)(p[0] | (unsigned)p[1] << 8);
}

static inline uint32_t smci_le32_unchecked(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t smci_le64_unchecked(const uint8_t *p)
{
    return (uint64_t)smci_le32_unchecked(p) | (uint64_t)smci_le32_unchecked(p + 4) << 32;
}

/* Little-endian stores into output already known to have room. */
static inline void smci_store_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline void smci_store_le64(uint8_t *p, uint64_t v)
{
    smci_store_le32(p, (uint32_t)v);
    smci_store_le32(p + 4, (uint32_t)(v >> 32));
}

/* Padding that brings message offset `off` to a multiple of `align` (a power of two). */
static inline size_t smci_pad(size_t off, size_t align)
{
    return (align - (off & (align - 1))) & (align - 1);
}

#endif /* SMC_INPUT_H */
