/* Shapes of values too large to print (shape.h): explicit stacks only, since the inputs are
 * bombs nested 100,000 levels deep. */
#define _POSIX_C_SOURCE 200809L
#include "shape.h"

#include <stdlib.h>

#include "alloc.h"

typedef struct scan {
    const uint8_t *p;
    size_t n, pos;
    const char *cls;
    uint64_t offset;
    uint64_t *remaining; /* values still to read in each open container */
    size_t depth, cap;
} scan_t;

static bool fail(scan_t *s, const char *cls, uint64_t offset)
{
    s->cls = cls;
    s->offset = offset;
    return false;
}

static bool need(scan_t *s, uint64_t k)
{
    return k <= s->n - s->pos || fail(s, "truncated", s->n);
}

/* A size field (spec §2.2), any form (flutter mode). */
static bool size_field(scan_t *s, uint64_t *out)
{
    if (!need(s, 1)) {
        return false;
    }
    uint8_t first = s->p[s->pos++];
    if (first < 254) {
        *out = first;
        return true;
    }
    unsigned k = first == 254 ? 2u : 4u;
    if (!need(s, k)) {
        return false;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < k; i++) {
        v |= (uint64_t)s->p[s->pos + i] << (8 * i);
    }
    s->pos += k;
    *out = v;
    return true;
}

static bool skip(scan_t *s, uint64_t k)
{
    if (!need(s, k)) {
        return false;
    }
    s->pos += (size_t)k;
    return true;
}

static bool push(scan_t *s, uint64_t children)
{
    if (s->depth == s->cap && !smcj_grow((void **)&s->remaining, &s->cap, s->cap ? 2 * s->cap : 64,
                                         sizeof *s->remaining)) {
        return fail(s, "truncated",
                    0); /* out of memory (recorded: the run ends without a verdict) */
    }
    s->remaining[s->depth++] = children;
    return true;
}

/* The payload of one value whose tag is at s->pos; containers are pushed, not entered. */
static bool one(scan_t *s, smcj_shape_t *out)
{
    size_t tag_at = s->pos;
    uint8_t tag = s->p[s->pos++];
    uint64_t k = 0;
    out->values++;
    switch (tag) {
    case 0x00:
    case 0x01:
    case 0x02:
        return true;
    case 0x03:
        return skip(s, 4);
    case 0x04:
        return skip(s, 8);
    case 0x06:
        return skip(s, (8 - s->pos % 8) % 8) && skip(s, 8);
    case 0x05:
    case 0x07:
    case 0x08:
        if (!size_field(s, &k) || !skip(s, k)) {
            return false;
        }
        out->bytes += k;
        return true;
    case 0x09:
    case 0x0a:
    case 0x0b:
    case 0x0e: {
        uint64_t width = smc_typed_list_width((smc_type_t)tag); /* the tag is the type */
        if (!size_field(s, &k) || !skip(s, (width - s->pos % width) % width) ||
            !need(s, k * width)) {
            return false; /* k * width cannot overflow: k < 2^32 */
        }
        s->pos += (size_t)(k * width);
        out->bytes += k * width;
        return true;
    }
    case 0x0c:
        return size_field(s, &k) && push(s, k);
    case 0x0d:
        return size_field(s, &k) && push(s, 2 * k);
    default:
        if (tag >= 0x80) {
            return push(s, 1);
        }
        return fail(s, "unknown_tag", tag_at);
    }
}

/* One complete value, its containers without recursion; `carried` collects its shape. */
static bool value(scan_t *s, smcj_shape_t *carried)
{
    size_t base = s->depth;
    if (!push(s, 1)) { /* a virtual container holding the one value */
        return false;
    }
    while (s->depth > base) {
        if (s->remaining[s->depth - 1] == 0) {
            s->depth--;
            continue;
        }
        s->remaining[s->depth - 1]--;
        if (!need(s, 1) || !one(s, carried)) {
            return false;
        }
        uint64_t open = s->depth - base - 1; /* real containers open, the new one included */
        carried->depth = open > carried->depth ? open : carried->depth;
    }
    return true;
}

/* A string or null element of a call or an envelope (spec §10, §11), its tag checked. */
static bool fixed(scan_t *s, bool nullable)
{
    smcj_shape_t ignored = {0, 0, 0};
    if (!need(s, 1)) {
        return false;
    }
    uint8_t tag = s->p[s->pos];
    if (tag != 0x07 && !(nullable && tag == 0x00)) {
        return fail(s, "bad_envelope", s->pos);
    }
    return value(s, &ignored);
}

bool smcj_shape_of_input(const uint8_t *data, size_t len, smc_entry_t entry, smcj_shape_t *out,
                         const char **cls, uint64_t *offset)
{
    scan_t s = {data, len, 0, NULL, 0, NULL, 0, 0};
    *out = (smcj_shape_t){0, 0, 0};
    bool ok = true;
    if (entry == SMC_ENTRY_CALL) {
        ok = fixed(&s, false) && value(&s, out);
    } else if (entry == SMC_ENTRY_ENVELOPE) {
        if (!need(&s, 1)) {
            ok = false;
        } else if (data[0] > 1) {
            ok = fail(&s, "bad_envelope", 0);
        } else if (data[s.pos++] == 0) {
            ok = value(&s, out);
        } else {
            ok = fixed(&s, false) && fixed(&s, true) && value(&s, out) &&
                 (s.pos == len || fixed(&s, true));
        }
    } else {
        ok = value(&s, out);
    }
    if (ok && s.pos != len) {
        ok = fail(&s, "trailing_bytes", s.pos);
    }
    free(s.remaining);
    *cls = s.cls;
    *offset = s.offset;
    return ok;
}

bool smcj_shape_of_doc(const smct_doc_t *doc, smcj_shape_t *out)
{
    if (smct_summary_of(doc, out) != SMCT_OK) {
        smcj_nomem();
        return false;
    }
    return true;
}
