/*
 * Decode and round-trip properties shared by the targets; see fuzz_properties.h.
 * Promise ids P1..P9 are those of spec/decoder-security-model.md: P1 bounds (exact-size
 * input copies under ASan), P3 memory bound, P4 depth, P6 no leaks / all-or-nothing,
 * P7 one answer per input (modes, alias, validator), P8 consistent tree.
 */
#include "fuzz_properties.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- P3a: what one call asks its allocator for ---- */

/* The largest allocator totals seen, per input byte and per bound (for the campaign record:
 * printed at exit when SMC_FUZZ_REPORT_RATIO is set). */
static double worst_per_byte, worst_per_bound, worst_per_byte_64;
static size_t worst_per_byte_len, worst_per_bound_len, worst_per_byte_64_len;

static void report_ratio(void)
{
    fprintf(
        stderr,
        "smc-fuzz: worst allocator total %.3f B per input byte (len %zu), %.4f of "
        "smc_decode_bound (len %zu); over inputs of 64 bytes or more %.3f B per byte (len %zu)\n",
        worst_per_byte, worst_per_byte_len, worst_per_bound, worst_per_bound_len, worst_per_byte_64,
        worst_per_byte_64_len);
}

/* Security model P3: an arena that grows from an allocator asks it, during one call decoding
 * `len` bytes, for at most smc_decode_bound(len) bytes in total, on every input. */
static void check_allocator_total(const char *entry, uint64_t before, size_t len)
{
    static bool registered;
    uint64_t taken = fuzz_bytes_requested() - before;
    size_t bound = smc_decode_bound(len);
    FUZZ_ASSERTF(taken <= bound,
                 "%s: the arena asked its allocator for %llu bytes, above smc_decode_bound(%zu) = "
                 "%zu (security model P3)",
                 entry, (unsigned long long)taken, len, bound);
    if (!registered) {
        registered = true;
        if (getenv("SMC_FUZZ_REPORT_RATIO") != NULL) {
            atexit(report_ratio);
        }
    }
    if (len > 0 && (double)taken / (double)len > worst_per_byte) {
        worst_per_byte = (double)taken / (double)len;
        worst_per_byte_len = len;
    }
    if (len >= 64 && (double)taken / (double)len > worst_per_byte_64) {
        worst_per_byte_64 = (double)taken / (double)len;
        worst_per_byte_64_len = len;
    }
    if ((double)taken / (double)bound > worst_per_bound) {
        worst_per_bound = (double)taken / (double)bound;
        worst_per_bound_len = len;
    }
}

/* A small caller block in front of the growing arena, so the switch from the caller block
 * to allocator blocks is exercised at every size. */
#define FUZZ_SMALL_BLOCK 256u

void fuzz_decode_checked(fuzz_entry_t e, const uint8_t *data, size_t len,
                         const smc_decode_opts_t *opts, uint32_t effective_depth,
                         fuzz_decoding_t *d)
{
    const char *entry = fuzz_entry_name(e);
    size_t bound = smc_decode_bound(len);
    bool alias = (opts->flags & SMC_ALIAS_INPUT) != 0;

    memset(d, 0, sizeof *d);
    FUZZ_ASSERTF(bound >= len, "smc_decode_bound(%zu) = %zu is below the input length", len, bound);

    /* 1. Exactly the promised bound, from malloc so ASan sees any write past it. */
    d->block = fuzz_xmalloc(bound);
    smc_arena_init_buffer(&d->arena, d->block, bound);
    d->status = fuzz_entry_decode(e, data, len, opts, &d->arena, &d->result, &d->err);
    FUZZ_ASSERTF(d->status != SMC_ERR_NOMEM,
                 "%s: NOMEM with an arena of smc_decode_bound(%zu) = %zu bytes (security model)",
                 entry, len, bound);
    fuzz_check_decode_status(d->status, &d->err, data, len, opts, e);
    if (d->status == SMC_OK) {
        FUZZ_ASSERTF(smc_arena_used(&d->arena) <= bound, "%s: arena used %zu > bound %zu", entry,
                     smc_arena_used(&d->arena), bound);
        fuzz_entry_check(e, &d->result, alias ? data : NULL, data + len);
        size_t depth = fuzz_entry_depth(e, &d->result);
        FUZZ_ASSERTF(depth <= effective_depth, "%s: decoded depth %zu beyond the limit %u", entry,
                     depth, (unsigned)effective_depth);
    } else {
        FUZZ_ASSERTF(smc_arena_used(&d->arena) == 0,
                     "%s: failed decode left %zu arena bytes allocated", entry,
                     smc_arena_used(&d->arena));
        /* Security model P6: failure is all-or-nothing, the output is NULL/zero. */
        if (e == FUZZ_ENTRY_MESSAGE) {
            FUZZ_ASSERT(d->result.value == NULL, "failed decode did not set *out to NULL");
        } else if (e == FUZZ_ENTRY_CALL) {
            FUZZ_ASSERT(d->result.call.args == NULL && d->result.call.name.ptr == NULL &&
                            d->result.call.name.len == 0,
                        "failed method-call decode did not zero *out");
        } else {
            const smc_envelope_t *env = &d->result.env;
            FUZZ_ASSERT(!env->is_error && env->result == NULL && env->details == NULL &&
                            env->code.len == 0 && !env->has_message && env->message.len == 0 &&
                            env->stacktrace_state == SMC_STACKTRACE_ABSENT &&
                            env->stacktrace.len == 0,
                        "failed envelope decode did not zero *out");
        }
    }

    /* 2. The same decode through a growing arena: same answer, no leaked block. */
    {
        uint8_t small[FUZZ_SMALL_BLOCK];
        size_t small_len = len % (FUZZ_SMALL_BLOCK + 1);
        smc_arena_t arena;
        fuzz_result_t r;
        smc_error_t err;
        smc_arena_init(&arena, small_len ? small : NULL, small_len, fuzz_counting_allocator());
        uint64_t before = fuzz_bytes_requested();
        smc_status_t st = fuzz_entry_decode(e, data, len, opts, &arena, &r, &err);
        check_allocator_total(entry, before, len);
        FUZZ_ASSERTF(st == d->status && (st == SMC_OK || err.offset == d->err.offset),
                     "%s: growing arena gives %s at %zu, bounded arena %s at %zu", entry,
                     smc_status_name(st), err.offset, smc_status_name(d->status), d->err.offset);
        if (st == SMC_OK) {
            FUZZ_ASSERTF(fuzz_entry_equal(e, &r, &d->result),
                         "%s: growing arena gives another value", entry);
        } else {
            /* P6: blocks taken from the allocator during a failed call are given back at once. */
            FUZZ_ASSERTF(smc_arena_used(&arena) == 0, "%s: failed decode left %zu arena bytes",
                         entry, smc_arena_used(&arena));
            FUZZ_ASSERTF(fuzz_live_blocks() == 0,
                         "%s: failed decode kept %zu allocator blocks (security model P6)", entry,
                         fuzz_live_blocks());
        }
        smc_arena_free(&arena);
        FUZZ_ASSERTF(fuzz_live_blocks() == 0,
                     "%s: %zu allocator blocks leaked after smc_arena_free", entry,
                     fuzz_live_blocks());
    }

    /* 3. The validator is the tree decoder without the tree. */
    if (e == FUZZ_ENTRY_MESSAGE) {
        smc_error_t verr;
        smc_status_t vst = smc_validate(data, len, opts, &verr);
        FUZZ_ASSERTF(vst == d->status && (vst == SMC_OK || verr.offset == d->err.offset),
                     "smc_validate gives %s at %zu, smc_decode %s at %zu", smc_status_name(vst),
                     verr.offset, smc_status_name(d->status), d->err.offset);
    }
}

void fuzz_decoding_release(fuzz_decoding_t *d)
{
    free(d->block);
    d->block = NULL;
}

/* Decode through a plain growing arena and return status + offset (and equality to `ref`). */
static smc_status_t decode_plain(fuzz_entry_t e, const uint8_t *data, size_t len,
                                 const smc_decode_opts_t *opts, const fuzz_result_t *ref,
                                 bool *equal_to_ref, smc_error_t *err)
{
    smc_arena_t arena;
    fuzz_result_t r;
    smc_arena_init_allocator(&arena, fuzz_counting_allocator());
    uint64_t before = fuzz_bytes_requested();
    smc_status_t st = fuzz_entry_decode(e, data, len, opts, &arena, &r, err);
    check_allocator_total(fuzz_entry_name(e), before, len);
    FUZZ_ASSERTF(st != SMC_ERR_NOMEM, "%s: NOMEM from an arena growing within the bound",
                 fuzz_entry_name(e));
    if (equal_to_ref) {
        *equal_to_ref = st == SMC_OK && ref && fuzz_entry_equal(e, &r, ref);
    }
    smc_arena_free(&arena);
    FUZZ_ASSERT(fuzz_live_blocks() == 0, "allocator blocks leaked after smc_arena_free");
    return st;
}

/* Encode `r` with every buffer size that matters; returns the exact canonical bytes (malloc'd)
 * or NULL when the encoder refuses the value. */
static uint8_t *encode_checked(fuzz_entry_t e, const fuzz_result_t *r, size_t *out_len,
                               smc_status_t *out_status)
{
    const char *entry = fuzz_entry_name(e);
    size_t needed = 0, again = 0, written = 0;
    smc_error_t err;

    /* Size query: no buffer at all (every encoding is at least one byte). */
    smc_status_t st = fuzz_entry_encode(e, r, NULL, 0, &needed, &err);
    *out_status = st;
    if (st == SMC_ERR_NOT_ENCODABLE) {
        return NULL;
    }
    FUZZ_ASSERTF(st == SMC_ERR_BUFFER_FULL && needed >= 1,
                 "%s: encoding into 0 bytes gives %s with size %zu", entry, smc_status_name(st),
                 needed);
    if (e == FUZZ_ENTRY_MESSAGE) {
        FUZZ_ASSERTF(smc_encoded_size(r->value) == needed, "smc_encoded_size %zu != needed %zu",
                     smc_encoded_size(r->value), needed);
    }
    /* One byte short: still BUFFER_FULL with the same size, and nothing written past it. */
    if (needed > 1) {
        uint8_t *small = fuzz_xmalloc(needed - 1);
        st = fuzz_entry_encode(e, r, small, needed - 1, &again, &err);
        FUZZ_ASSERTF(st == SMC_ERR_BUFFER_FULL && again == needed,
                     "%s: encoding into %zu bytes gives %s needing %zu (expected %zu)", entry,
                     needed - 1, smc_status_name(st), again, needed);
        free(small);
    }
    uint8_t *buf = fuzz_xmalloc(needed);
    st = fuzz_entry_encode(e, r, buf, needed, &written, &err);
    FUZZ_ASSERTF(st == SMC_OK && written == needed,
                 "%s: encoding into %zu bytes gives %s, %zu written", entry, needed,
                 smc_status_name(st), written);
    *out_len = needed;
    *out_status = SMC_OK;
    return buf;
}

/* Round trip (spec §1.4 R1.4-10, §13): decode → encode → decode is a fixpoint; strict mode
 * accepts exactly the canonical encodings, so the input decodes in strict mode iff it is the
 * encoding of its own value. */
static void check_roundtrip(fuzz_entry_t e, const uint8_t *data, size_t len,
                            const fuzz_options_t *fo, const fuzz_decoding_t *flutter,
                            const fuzz_decoding_t *strict)
{
    const char *entry = fuzz_entry_name(e);
    smc_status_t est;
    size_t elen = 0;

    if (flutter->status != SMC_OK) {
        return;
    }
    uint8_t *enc = encode_checked(e, &flutter->result, &elen, &est);
    if (fuzz_entry_has_largeint(e, &flutter->result)) {
        /* spec §4.4: tag 5 is never written, and strict mode does not accept it. */
        FUZZ_ASSERTF(enc == NULL && est == SMC_ERR_NOT_ENCODABLE,
                     "%s: a value with a largeInt encodes (%s)", entry, smc_status_name(est));
        FUZZ_ASSERT(strict->status != SMC_OK, "strict mode accepted a largeInt");
        return;
    }
    FUZZ_ASSERTF(enc != NULL, "%s: decoded value is not encodable (%s)", entry,
                 smc_status_name(est));

    /* The canonical bytes decode in strict mode to the same value... */
    smc_decode_opts_t sopts = fuzz_decode_opts(fo, true);
    fuzz_decoding_t re;
    fuzz_decode_checked(e, enc, elen, &sopts, fo->effective_depth, &re);
    FUZZ_ASSERTF(re.status == SMC_OK, "%s: strict mode rejects the encoder's output with %s at %zu",
                 entry, smc_status_name(re.status), re.err.offset);
    FUZZ_ASSERTF(fuzz_entry_equal(e, &re.result, &flutter->result),
                 "%s: decode(encode(decode(x))) != decode(x)", entry);
    /* ...which encodes to the same bytes again. */
    {
        size_t elen2 = 0;
        smc_status_t est2;
        uint8_t *enc2 = encode_checked(e, &re.result, &elen2, &est2);
        FUZZ_ASSERTF(enc2 && elen2 == elen && memcmp(enc2, enc, elen) == 0,
                     "%s: encode is not stable across a round trip", entry);
        free(enc2);
    }
    fuzz_decoding_release(&re);

    /* Strict accepts exactly the canonical encodings (spec §1.2, R1.4-7). */
    bool canonical = elen == len && memcmp(enc, data, len) == 0;
    if (strict->status == SMC_OK) {
        FUZZ_ASSERTF(canonical,
                     "%s: strict mode accepted a non-canonical encoding (%zu bytes, "
                     "canonical is %zu)",
                     entry, len, elen);
        FUZZ_ASSERT(fuzz_entry_equal(e, &strict->result, &flutter->result),
                    "strict and flutter decode the same bytes to different values");
    } else {
        FUZZ_ASSERTF(!canonical, "%s: strict mode rejects the canonical encoding with %s at %zu",
                     entry, smc_status_name(strict->status), strict->err.offset);
        FUZZ_ASSERTF(strict->status == SMC_ERR_NONMINIMAL_SIZE ||
                         strict->status == SMC_ERR_NONZERO_PADDING,
                     "%s: flutter accepts, strict rejects with %s (expected not_canonical)", entry,
                     smc_status_name(strict->status));
    }
    free(enc);
}

void fuzz_check_input(fuzz_entry_t e, const uint8_t *data, size_t len, const fuzz_options_t *fo,
                      bool roundtrip)
{
    const char *entry = fuzz_entry_name(e);
    smc_decode_opts_t fopts = fuzz_decode_opts(fo, false);
    smc_decode_opts_t sopts = fuzz_decode_opts(fo, true);
    fuzz_decoding_t flutter, strict;

    fuzz_decode_checked(e, data, len, &fopts, fo->effective_depth, &flutter);
    fuzz_decode_checked(e, data, len, &sopts, fo->effective_depth, &strict);
    fuzz_check_mode_relation(flutter.status, &flutter.err, strict.status, &strict.err, data, len);

    /* Aliasing the input changes where bytes live, never the answer. */
    {
        const fuzz_decoding_t *ref = fo->strict ? &strict : &flutter;
        smc_decode_opts_t other = fo->strict ? sopts : fopts;
        smc_error_t err;
        bool same = false;
        other.flags ^= SMC_ALIAS_INPUT;
        smc_status_t st = decode_plain(e, data, len, &other, &ref->result, &same, &err);
        FUZZ_ASSERTF(st == ref->status && (st == SMC_OK ? same : err.offset == ref->err.offset),
                     "%s: SMC_ALIAS_INPUT toggled gives %s at %zu instead of %s at %zu", entry,
                     smc_status_name(st), err.offset, smc_status_name(ref->status),
                     ref->err.offset);
    }

    /* The depth limit at N and N-1 (house style rule 8, spec §15.1): a tree of depth N decodes
     * with max_depth N and fails with depth_limit under N-1. */
    if (flutter.status == SMC_OK) {
        size_t depth = fuzz_entry_depth(e, &flutter.result);
        smc_decode_opts_t at = fopts;
        smc_error_t err;
        if (depth >= 1 && depth <= SMC_MAX_DEPTH_LIMIT) {
            at.max_depth = (uint32_t)depth;
            smc_status_t st = decode_plain(e, data, len, &at, NULL, NULL, &err);
            FUZZ_ASSERTF(st == SMC_OK, "%s: depth %zu fails under max_depth %zu with %s", entry,
                         depth, depth, smc_status_name(st));
        }
        if (depth >= 2) {
            at.max_depth = (uint32_t)(depth - 1);
            smc_status_t st = decode_plain(e, data, len, &at, NULL, NULL, &err);
            FUZZ_ASSERTF(st == SMC_ERR_DEPTH,
                         "%s: depth %zu under max_depth %zu gives %s, not depth_limit", entry,
                         depth, depth - 1, smc_status_name(st));
        }
    }

    if (roundtrip) {
        check_roundtrip(e, data, len, fo, &flutter, &strict);
    }
    fuzz_decoding_release(&flutter);
    fuzz_decoding_release(&strict);
}

int fuzz_run_entry(fuzz_entry_t e, const uint8_t *data, size_t size, bool roundtrip)
{
    if (size == 0) {
        return 0; /* no option byte: nothing to decode */
    }
    fuzz_options_t fo = fuzz_options_from_byte(data[0]);
    size_t len = size - 1;
    uint8_t *block = fuzz_input_copy(data + 1, len);
    fuzz_check_input(e, block + fuzz_input_shift(len), len, &fo, roundtrip);
    free(block);
    return 0;
}
