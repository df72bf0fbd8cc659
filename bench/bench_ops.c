/*
 * The operations timed per payload, each through the public API a user would call
 * (smc_value.h, smc_writer.h, smc_envelope.h, smc_reader.h). Every operation is checked
 * for errors on every run, and every result is made observable (a sink or a compiler
 * barrier) so the optimiser cannot drop the work.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "bench_typed.h"

#ifdef SMC_BENCH_HAVE_CALLGRIND
#include <valgrind/callgrind.h>
#endif

const char *const bench_op_names[BENCH_OP_COUNT] = {
    "memcpy",        /* copy of the payload bytes into a second buffer: the bandwidth floor */
    "validate",      /* reader layer walks every item, builds nothing, allocates nothing */
    "decode",        /* tree into an arena over a reused block, then smc_arena_reset */
    "decode_alias",  /* as decode with SMC_ALIAS_INPUT: bytes stay in the input (zero-copy) */
    "decode_malloc", /* tree into an arena that mallocs its blocks, then smc_arena_reset frees them
                      */
    "encode",        /* the decoded tree back to bytes, into a reused output buffer */
    "encode_malloc", /* as encode, into a buffer malloc'ed (and freed) per message */
    "roundtrip",     /* decode + encode + smc_arena_reset */
    "typed_decode",  /* record payloads only: into C structs via the tree (bench_typed.h) */
    "typed_decode_reader", /* the same structs read item by item with smc_reader_next */
    "typed_encode",        /* those structs back to bytes, into a reused output buffer */
};

/* Tells the compiler that the memory at p is read and written here: stores to it cannot be
 * elided and the call producing it cannot be dropped. */
static inline void clobber(void *p)
{
    __asm__ volatile("" : : "r"(p) : "memory");
}

typedef struct op_ctx {
    const bench_payload_t *p;
    smc_decode_opts_t owned;
    smc_decode_opts_t alias;
    smc_arena_t arena; /* reused caller block (+ malloc growth, never needed) */
    void *arena_block;
    smc_arena_t arena_malloc; /* malloc-only: blocks are obtained and freed on every decode */
    smc_arena_t tree_arena;   /* holds the tree that `encode` writes */
    smc_value_t *tree;
    smc_method_call_t call;
    smc_envelope_t env;
    bench_shape_t shape;     /* BENCH_SHAPE_NONE: not a record payload */
    smc_arena_t typed_arena; /* typed_decode: a reused caller block, like `arena` */
    void *typed_block;
    smc_arena_t records_arena; /* holds the records that `typed_encode` writes */
    bench_records_t records;
    uint8_t *copy; /* memcpy destination */
    uint8_t *out;  /* encoder output */
    size_t out_cap;
    volatile uint64_t sink;
} op_ctx_t;

/* ---- decode / encode per entry point ---- */

static bool decode_into(op_ctx_t *c, smc_arena_t *arena, const smc_decode_opts_t *opts,
                        smc_value_t **tree, smc_method_call_t *call, smc_envelope_t *env)
{
    const bench_payload_t *p = c->p;
    switch (p->entry) {
    case SMC_ENTRY_MESSAGE:
        return smc_decode(p->data, p->len, opts, arena, tree, NULL) == SMC_OK;
    case SMC_ENTRY_CALL:
        return smc_decode_method_call(p->data, p->len, opts, arena, call, NULL) == SMC_OK;
    case SMC_ENTRY_ENVELOPE:
        return smc_decode_envelope(p->data, p->len, opts, arena, env, NULL) == SMC_OK;
    }
    return false;
}

static bool encode_from(op_ctx_t *c, const smc_value_t *tree, const smc_method_call_t *call,
                        const smc_envelope_t *env, size_t *written)
{
    switch (c->p->entry) {
    case SMC_ENTRY_MESSAGE:
        return smc_encode(tree, c->out, c->out_cap, written, NULL) == SMC_OK;
    case SMC_ENTRY_CALL:
        return smc_encode_method_call(call, c->out, c->out_cap, written, NULL) == SMC_OK;
    case SMC_ENTRY_ENVELOPE:
        return smc_encode_envelope(env, c->out, c->out_cap, written, NULL) == SMC_OK;
    }
    return false;
}

/* ---- validation without a tree: the reader over each element of the entry point ---- */

static bool expect_tag(smc_reader_t *r, uint8_t a, uint8_t b)
{
    uint8_t tag;
    return smc_reader_peek_byte(r, &tag) && (tag == a || tag == b);
}

static bool validate_entry(const bench_payload_t *p)
{
    smc_reader_t r;
    switch (p->entry) {
    case SMC_ENTRY_MESSAGE:
        return smc_validate(p->data, p->len, NULL, NULL) == SMC_OK;
    case SMC_ENTRY_CALL: /* spec §10: a string name, one value */
        smc_reader_init(&r, p->data, p->len, NULL);
        if (!expect_tag(&r, 0x07, 0x07) || smc_reader_skip_value(&r) != SMC_OK ||
            smc_reader_skip_value(&r) != SMC_OK) {
            return false;
        }
        return smc_reader_remaining(&r) == 0;
    case SMC_ENTRY_ENVELOPE: /* spec §11: flag, then result or code/message/details[/trace] */
        if (p->len == 0 || p->data[0] > 1) {
            return false;
        }
        smc_reader_init_at(&r, p->data, p->len, 1, NULL);
        if (p->data[0] == 0) {
            if (smc_reader_skip_value(&r) != SMC_OK) {
                return false;
            }
        } else {
            if (!expect_tag(&r, 0x07, 0x07) || smc_reader_skip_value(&r) != SMC_OK ||
                !expect_tag(&r, 0x00, 0x07) || smc_reader_skip_value(&r) != SMC_OK ||
                smc_reader_skip_value(&r) != SMC_OK) {
                return false;
            }
            if (smc_reader_remaining(&r) != 0 &&
                (!expect_tag(&r, 0x00, 0x07) || smc_reader_skip_value(&r) != SMC_OK)) {
                return false;
            }
        }
        return smc_reader_remaining(&r) == 0;
    }
    return false;
}

bool bench_count_values(const bench_payload_t *p, uint64_t *values, smc_error_t *err)
{
    *values = 0;
    err->status = SMC_OK;
    err->offset = 0;
    if (!validate_entry(p)) {
        err->status = SMC_ERR_USAGE;
        return false;
    }
    /* After the envelope flag, every entry point is a sequence of complete values. */
    smc_reader_t r;
    smc_reader_init_at(&r, p->data, p->len, p->entry == SMC_ENTRY_ENVELOPE ? 1 : 0, NULL);
    uint64_t n = 0;
    while (smc_reader_remaining(&r) > 0) {
        smc_item_t it;
        if (smc_reader_next(&r, &it) != SMC_OK) {
            smc_reader_error(&r, err);
            return false;
        }
        n += 1;
        if (it.type == SMC_TYPE_U8S) {
            n += it.bytes.len;
        } else if (it.type == SMC_TYPE_I32S || it.type == SMC_TYPE_I64S ||
                   it.type == SMC_TYPE_F64S || it.type == SMC_TYPE_F32S) {
            n += it.array.count;
        }
    }
    *values = n;
    return true;
}

/* ---- the timed operations ---- */

static bool op_memcpy(void *ctx)
{
    op_ctx_t *c = (op_ctx_t *)ctx;
    memcpy(c->copy, c->p->data, c->p->len);
    clobber(c->copy);
    return true;
}

static bool op_validate(void *ctx)
{
    return validate_entry(((op_ctx_t *)ctx)->p);
}

static bool decode_and_reset(op_ctx_t *c, smc_arena_t *arena, const smc_decode_opts_t *opts)
{
    smc_value_t *tree = NULL;
    smc_method_call_t call;
    smc_envelope_t env;
    if (!decode_into(c, arena, opts, &tree, &call, &env)) {
        return false;
    }
    c->sink += (uint64_t)(uintptr_t)tree + (uint64_t)smc_arena_used(arena);
    smc_arena_reset(arena);
    return true;
}

static bool op_decode(void *ctx)
{
    op_ctx_t *c = (op_ctx_t *)ctx;
    return decode_and_reset(c, &c->arena, &c->owned);
}

static bool op_decode_alias(void *ctx)
{
    op_ctx_t *c = (op_ctx_t *)ctx;
    return decode_and_reset(c, &c->arena, &c->alias);
}

static bool op_decode_malloc(void *ctx)
{
    op_ctx_t *c = (op_ctx_t *)ctx;
    return decode_and_reset(c, &c->arena_malloc, &c->owned);
}

static bool op_encode(void *ctx)
{
    op_ctx_t *c = (op_ctx_t *)ctx;
    size_t written = 0;
    bool ok = encode_from(c, c->tree, &c->call, &c->env, &written);
    clobber(c->out);
    c->sink += written;
    return ok;
}

static bool op_encode_malloc(void *ctx)
{
    op_ctx_t *c = (op_ctx_t *)ctx;
    size_t written = 0;
    uint8_t *keep = c->out;
    c->out = (uint8_t *)malloc(c->out_cap);
    bool ok = c->out != NULL && encode_from(c, c->tree, &c->call, &c->env, &written);
    clobber(c->out);
    free(c->out);
    c->out = keep;
    c->sink += written;
    return ok;
}

static bool op_roundtrip(void *ctx)
{
    op_ctx_t *c = (op_ctx_t *)ctx;
    smc_value_t *tree = NULL;
    smc_method_call_t call;
    smc_envelope_t env;
    size_t written = 0;
    bool ok = decode_into(c, &c->arena, &c->owned, &tree, &call, &env) &&
              encode_from(c, tree, &call, &env, &written);
    clobber(c->out);
    c->sink += written;
    smc_arena_reset(&c->arena);
    return ok;
}

static bool op_typed_decode(void *ctx)
{
    op_ctx_t *c = (op_ctx_t *)ctx;
    bench_records_t records;
    bool ok = bench_typed_decode(c->p->data, c->p->len, c->shape, &c->typed_arena, &records);
    c->sink += (uint64_t)records.count + (uint64_t)smc_arena_used(&c->typed_arena);
    smc_arena_reset(&c->typed_arena);
    return ok;
}

static bool op_typed_decode_reader(void *ctx)
{
    op_ctx_t *c = (op_ctx_t *)ctx;
    bench_records_t records;
    bool ok = bench_typed_decode_reader(c->p->data, c->p->len, c->shape, &c->typed_arena, &records);
    c->sink += (uint64_t)records.count + (uint64_t)smc_arena_used(&c->typed_arena);
    smc_arena_reset(&c->typed_arena);
    return ok;
}

static bool op_typed_encode(void *ctx)
{
    op_ctx_t *c = (op_ctx_t *)ctx;
    size_t written = 0;
    bool ok = bench_typed_encode(&c->records, c->out, c->out_cap, &written);
    clobber(c->out);
    c->sink += written;
    return ok;
}

/* In the order of bench_op_names. */
static const bench_op_fn op_fns[BENCH_OP_COUNT] = {
    op_memcpy,       op_validate,      op_decode,    op_decode_alias, op_decode_malloc,
    op_encode,       op_encode_malloc, op_roundtrip, op_typed_decode, op_typed_decode_reader,
    op_typed_encode,
};

#define OP_FIRST_TYPED 8u /* typed_decode, typed_decode_reader, typed_encode */

/* ---- set-up ---- */

/* Record payloads: the records the typed ops use, and the same identity check. */
static bool prepare_typed(op_ctx_t *c, bench_result_t *res)
{
    const bench_payload_t *p = c->p;
    c->shape = bench_typed_shape(p->data, p->len);
    if (c->shape == BENCH_SHAPE_NONE) {
        return true;
    }
    if (!bench_typed_decode(p->data, p->len, c->shape, &c->records_arena, &c->records)) {
        snprintf(res->error, sizeof res->error, "typed decode failed");
        return false;
    }
    /* Both decode paths must give records that encode back to the payload. */
    bench_records_t by_reader;
    size_t written = 0;
    if (!bench_typed_decode_reader(p->data, p->len, c->shape, &c->records_arena, &by_reader) ||
        !bench_typed_encode(&by_reader, c->out, c->out_cap, &written) || written != p->len ||
        memcmp(c->out, p->data, p->len) != 0) {
        snprintf(res->error, sizeof res->error, "typed reader decode differs from the input");
        return false;
    }
    size_t block = smc_arena_used(&c->records_arena) + 4096;
    c->typed_block = malloc(block);
    if (c->typed_block == NULL) {
        snprintf(res->error, sizeof res->error, "out of memory");
        return false;
    }
    smc_arena_init(&c->typed_arena, c->typed_block, block, smc_allocator_malloc());
    if (!bench_typed_encode(&c->records, c->out, c->out_cap, &written) || written != p->len ||
        memcmp(c->out, p->data, p->len) != 0) {
        snprintf(res->error, sizeof res->error, "typed re-encoding differs from the input");
        return false;
    }
    return true;
}

static bool prepare(op_ctx_t *c, const bench_payload_t *p, bench_result_t *res)
{
    memset(c, 0, sizeof *c);
    c->p = p;
    c->owned.flags = SMC_MODE_FLUTTER;
    c->alias.flags = SMC_MODE_FLUTTER | SMC_ALIAS_INPUT;
    smc_arena_init_allocator(&c->tree_arena, NULL);
    smc_arena_init_allocator(&c->arena_malloc, NULL);
    smc_arena_init_allocator(&c->records_arena, NULL);
    smc_arena_init_allocator(&c->typed_arena, NULL);
    if (!decode_into(c, &c->tree_arena, &c->owned, &c->tree, &c->call, &c->env)) {
        snprintf(res->error, sizeof res->error, "decode failed");
        return false;
    }
    /* One block that holds a whole decoded tree, so a steady-state decode never mallocs: the
     * way a channel handler reuses one arena for every message. */
    size_t block = smc_arena_used(&c->tree_arena) + 4096;
    c->arena_block = malloc(block);
    c->copy = (uint8_t *)malloc(p->len ? p->len : 1);
    c->out_cap = p->len + 64;
    c->out = (uint8_t *)malloc(c->out_cap);
    if (c->arena_block == NULL || c->copy == NULL || c->out == NULL) {
        snprintf(res->error, sizeof res->error, "out of memory");
        return false;
    }
    smc_arena_init(&c->arena, c->arena_block, block, smc_allocator_malloc());
    /* The payloads are canonical, so encoding the decoded tree must give the input back. */
    size_t written = 0;
    if (!encode_from(c, c->tree, &c->call, &c->env, &written) || written != p->len ||
        memcmp(c->out, p->data, p->len) != 0) {
        snprintf(res->error, sizeof res->error, "re-encoding differs from the input");
        return false;
    }
    return p->entry != SMC_ENTRY_MESSAGE || prepare_typed(c, res);
}

static void release(op_ctx_t *c)
{
    smc_arena_free(&c->arena);
    smc_arena_free(&c->arena_malloc);
    smc_arena_free(&c->tree_arena);
    smc_arena_free(&c->records_arena);
    smc_arena_free(&c->typed_arena);
    free(c->typed_block);
    free(c->arena_block);
    free(c->copy);
    free(c->out);
}

bool bench_callgrind_available(void)
{
#ifdef SMC_BENCH_HAVE_CALLGRIND
    return true;
#else
    return false;
#endif
}

/* One warm run (first-touch and lazy-binding costs stay out), then the counted runs between
 * a zeroing and a dump of callgrind's counters; the harness divides the dump's total by N. */
static bool count_instructions(const bench_config_t *cfg, const bench_payload_t *p, unsigned op,
                               op_ctx_t *c)
{
    bool ok = op_fns[op](c);
#ifdef SMC_BENCH_HAVE_CALLGRIND
    char desc[192];
    snprintf(desc, sizeof desc, "smc-bench %s %s %u", p->name, bench_op_names[op],
             cfg->callgrind_runs);
    CALLGRIND_ZERO_STATS;
    for (unsigned i = 0; ok && i < cfg->callgrind_runs; i++) {
        ok = op_fns[op](c);
    }
    CALLGRIND_DUMP_STATS_AT(desc);
#else
    (void)cfg;
    (void)p;
#endif
    return ok;
}

void bench_run_payload(const bench_config_t *cfg, const bench_payload_t *p, unsigned op_mask,
                       bench_result_t *res)
{
    memset(res, 0, sizeof *res);
    op_ctx_t *c = (op_ctx_t *)malloc(sizeof *c);
    if (c == NULL) {
        res->failed = true;
        snprintf(res->error, sizeof res->error, "out of memory");
        return;
    }
    if (!prepare(c, p, res)) {
        res->failed = true;
    } else {
        for (unsigned i = 0; i < BENCH_OP_COUNT; i++) {
            bool typed = i >= OP_FIRST_TYPED;
            if (!(op_mask & (1u << i)) || (typed && c->shape == BENCH_SHAPE_NONE)) {
                continue;
            }
            bool ok = cfg->callgrind_runs > 0 ? count_instructions(cfg, p, i, c)
                                              : bench_measure(cfg, op_fns[i], c, &res->op[i]);
            if (!ok) {
                res->failed = true;
                snprintf(res->error, sizeof res->error, "%s failed", bench_op_names[i]);
                break;
            }
            res->ran[i] = true;
        }
    }
    release(c);
    free(c);
}
