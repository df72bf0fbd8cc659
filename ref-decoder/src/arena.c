/*
 * Bump arena (house style rule 7): a caller block first, then blocks from the arena's own
 * allocator, chained newest first and released all at once. No global state.
 *
 * A growing arena without a caller block uses its own block (`own`, inside the struct) as one,
 * so small messages never reach the allocator (smc_value.h).
 *
 * Two growth policies. Outside a decode call (builders, notation readers) blocks double from
 * 4 KiB to 1 MiB. During a decode call (smci_arena_begin .. smci_arena_end) the arena holds a
 * budget of smc_decode_bound(len) allocator bytes (security model P3), and every allocation
 * that does not fit the current block comes with `need`, an upper bound on everything the rest
 * of the call can still allocate, pads included (smci_decode_need). The budget policy keeps
 *
 *     (J)  budget left >= need + BLOCK_HEADER        at every such allocation,
 *
 * which holds at the start (32 len + 32 >= 27 len + 7 + 16, smc_internal.h) and is kept by
 * choosing one of three moves for a request of q bytes (need includes q):
 *   - a block of its own, q + header bytes, keeping the current block and its free space,
 *     allowed when budget >= need + 2 headers;
 *   - a new current block of s bytes, abandoning the old one's tail, with
 *     q + header <= s <= q + (budget - need - header): what is left still covers need + header;
 *   - when neither fits (budget < need + 2 headers), a last block of need + header bytes (or
 *     all that is left, if less): it holds everything the call can still allocate, so no
 *     further block is needed.
 * So one call never asks its allocator for more than the bound and never runs out within it,
 * whatever the input (tests/test_s15_allocator_budget.c, and every fuzz target checks it on
 * each growing-arena decode). Allocations that fit the current block only lower `need`, so
 * (J) holds between them too.
 */
#include <stddef.h>
#include <stdlib.h>

#include "smc_internal.h"

#define ARENA_ALIGN      ((size_t)8)
#define FIRST_BLOCK      ((size_t)4096)
#define MAX_GROWTH_BLOCK ((size_t)1 << 20)
/* Decode blocks: the first of a call is DECODE_FIRST_BLOCK (the message may be one string or
 * byte array, which then gets a block of its own size); later ones are a guess of what the
 * rest of the message needs, a quarter of the worst case (typical messages, about 4.4 bytes
 * per input byte for Pigeon records, fit one such block), at least DECODE_MIN_BLOCK so the
 * last ones do not get tiny, at most DECODE_MAX_BLOCK, and always within the budget. */
#define DECODE_FIRST_BLOCK ((size_t)4096)
#define DECODE_MIN_BLOCK   ((size_t)256)
#define DECODE_MAX_BLOCK   ((size_t)64 << 20)
#define DECODE_GUESS_DIV   ((size_t)4)
/* A current block with more free space than 1/16 of the block that would replace it is kept,
 * and the request gets a block of its own (what the abandoned tail would have wasted). */
#define KEEP_FREE_DIV ((size_t)16)
/* budget when no decode call is in progress */
#define NO_BUDGET SIZE_MAX

/* Header at the start of every allocator block; its size keeps the payload 8-aligned. */
typedef struct block {
    struct block *next;
    size_t size;
} block_t;
#define BLOCK_HEADER ((sizeof(block_t) + ARENA_ALIGN - 1) & ~(ARENA_ALIGN - 1))

static void *malloc_alloc(void *ctx, size_t size)
{
    (void)ctx;
    return malloc(size);
}

static void malloc_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    (void)size;
    free(ptr);
}

static const smc_allocator_t malloc_allocator = {malloc_alloc, malloc_free, NULL};

const smc_allocator_t *smc_allocator_malloc(void)
{
    return &malloc_allocator;
}

void smc_arena_init(smc_arena_t *arena, void *mem, size_t size, const smc_allocator_t *allocator)
{
    /* Every field but the own block, which is only handed out (zeroing 4 KiB per init would
     * cost more than the malloc it saves). */
    memset(arena, 0, offsetof(smc_arena_t, own));
    if (mem != NULL) {
        arena->user_begin = (uint8_t *)mem;
        arena->user_end = (uint8_t *)mem + size;
    } else if (allocator != NULL) {
        /* A growing arena without a caller block: its own block is the caller block. */
        arena->user_begin = (uint8_t *)arena->own;
        arena->user_end = (uint8_t *)arena->own + sizeof arena->own;
    }
    arena->cur = arena->user_begin;
    arena->end = arena->user_end;
    arena->next_block_size = FIRST_BLOCK;
    arena->budget = NO_BUDGET;
    if (allocator != NULL) {
        arena->allocator = *allocator;
        arena->has_allocator = true;
    }
}

void smc_arena_init_buffer(smc_arena_t *arena, void *mem, size_t size)
{
    smc_arena_init(arena, mem, size, NULL);
}

void smc_arena_init_allocator(smc_arena_t *arena, const smc_allocator_t *allocator)
{
    smc_arena_init(arena, NULL, 0, allocator != NULL ? allocator : &malloc_allocator);
}

/* Free allocator blocks newer than `keep` (NULL: all of them). */
static void free_blocks_until(smc_arena_t *arena, void *keep)
{
    block_t *b = (block_t *)arena->chain;
    while (b != NULL && b != keep) {
        block_t *next = b->next;
        arena->allocator.free(arena->allocator.ctx, b, b->size);
        b = next;
    }
    arena->chain = b;
}

/* Obtain a block of `size` bytes (header included) and chain it; charged to the budget. */
static block_t *new_block(smc_arena_t *arena, size_t size)
{
    block_t *b = (block_t *)arena->allocator.alloc(arena->allocator.ctx, size);
    if (b == NULL) {
        return NULL;
    }
    b->next = (block_t *)arena->chain;
    b->size = size;
    arena->chain = b;
    if (arena->budget != NO_BUDGET) {
        arena->budget -= size;
        arena->call_has_block = true;
    }
    return b;
}

/* Make `b` the current block and take `size` bytes from its (8-aligned) start. */
static void *take_from_new_current(smc_arena_t *arena, block_t *b, size_t size)
{
    uint8_t *p = (uint8_t *)b + BLOCK_HEADER;
    arena->cur = p + size;
    arena->end = (uint8_t *)b + b->size;
    arena->used += size;
    return p;
}

/* Outside a decode call: geometric growth. */
static void *grow(smc_arena_t *arena, size_t size)
{
    if (!arena->has_allocator || size > SIZE_MAX - BLOCK_HEADER - ARENA_ALIGN) {
        return NULL;
    }
    size_t want = size + BLOCK_HEADER;
    size_t block_size = arena->next_block_size > want ? arena->next_block_size : want;
    block_t *b = new_block(arena, block_size);
    if (b == NULL) {
        return NULL;
    }
    if (arena->next_block_size < MAX_GROWTH_BLOCK) {
        arena->next_block_size *= 2;
    }
    return take_from_new_current(arena, b, size);
}

/* During a decode call: the budget policy of the comment at the top. */
static void *grow_within_budget(smc_arena_t *arena, size_t size, size_t need)
{
    size_t left = arena->budget;
    if (!arena->has_allocator || size > left || left - size < BLOCK_HEADER) {
        return NULL; /* (J) makes this unreachable for a decode within the bound */
    }
    size_t want = size + BLOCK_HEADER;
    /* Budget beyond the worst case of the rest of the call and one header. */
    size_t spare = left >= need && left - need >= BLOCK_HEADER ? left - need - BLOCK_HEADER : 0;
    block_t *b;
    if (spare < BLOCK_HEADER) {
        /* The last block: room for everything the call can still allocate, which is at most
         * need (so at least `want`), and never more than what is left. */
        size_t last = left >= need && left - need > BLOCK_HEADER ? need + BLOCK_HEADER : left;
        b = new_block(arena, last);
        return b != NULL ? take_from_new_current(arena, b, size) : NULL;
    }
    size_t guess = need / DECODE_GUESS_DIV + BLOCK_HEADER;
    guess = guess < DECODE_MIN_BLOCK ? DECODE_MIN_BLOCK : guess;
    guess = guess > DECODE_MAX_BLOCK ? DECODE_MAX_BLOCK : guess;
    if (!arena->call_has_block) {
        guess = DECODE_FIRST_BLOCK;
    }
    size_t block_size = guess > want ? guess : want;
    size_t free_now = arena->cur != NULL ? (size_t)(arena->end - arena->cur) : 0;
    if (free_now > block_size / KEEP_FREE_DIV) {
        b = new_block(arena, want); /* a block of its own; the current one stays */
        if (b == NULL) {
            return NULL;
        }
        arena->used += size;
        return (uint8_t *)b + BLOCK_HEADER;
    }
    if (block_size - size > spare) {
        block_size = size + spare; /* >= want, since spare >= BLOCK_HEADER */
    }
    b = new_block(arena, block_size);
    return b != NULL ? take_from_new_current(arena, b, size) : NULL;
}

/* The bump path shared by smc_arena_alloc and smci_arena_alloc_need; NULL if it does not fit. */
static void *bump(smc_arena_t *arena, size_t size)
{
    if (arena->cur != NULL) {
        size_t pad = smci_pad((size_t)(uintptr_t)arena->cur, ARENA_ALIGN);
        size_t avail = (size_t)(arena->end - arena->cur);
        if (pad <= avail && size <= avail - pad) {
            uint8_t *p = arena->cur + pad;
            arena->cur = p + size;
            arena->used += pad + size;
            return p;
        }
    }
    return NULL;
}

void *smci_arena_alloc_need(smc_arena_t *arena, size_t size, size_t need)
{
    void *p = bump(arena, size);
    if (p != NULL) {
        return p;
    }
    return arena->budget == NO_BUDGET ? grow(arena, size) : grow_within_budget(arena, size, need);
}

void *smc_arena_alloc(smc_arena_t *arena, size_t size)
{
    if (arena == NULL) {
        return NULL;
    }
    if (size == 0) {
        size = 1; /* a distinct, valid pointer; no static state (security model P9) */
    }
    void *p = bump(arena, size);
    return p != NULL ? p : grow(arena, size);
}

void smc_arena_reset(smc_arena_t *arena)
{
    free_blocks_until(arena, NULL);
    arena->cur = arena->user_begin;
    arena->end = arena->user_end;
    arena->used = 0;
    arena->next_block_size = FIRST_BLOCK;
    arena->budget = NO_BUDGET;
}

void smc_arena_free(smc_arena_t *arena)
{
    smc_arena_reset(arena);
    arena->user_begin = arena->user_end = NULL;
    arena->cur = arena->end = NULL;
}

size_t smc_arena_used(const smc_arena_t *arena)
{
    return arena->used;
}

smci_arena_mark_t smci_arena_begin(smc_arena_t *arena, size_t len)
{
    smci_arena_mark_t m = {arena->cur, arena->end, arena->chain, arena->used};
    arena->budget = smc_decode_bound(len); /* saturated (SIZE_MAX): no budget to keep */
    arena->call_has_block = false;
    return m;
}

void smci_arena_end(smc_arena_t *arena, smci_arena_mark_t mark, bool ok)
{
    arena->budget = NO_BUDGET;
    if (!ok) {
        free_blocks_until(arena, mark.chain);
        arena->cur = mark.cur;
        arena->end = mark.end;
        arena->used = mark.used;
    }
}

size_t smc_decode_bound(size_t len)
{
    if (len > (SIZE_MAX - SMC_DECODE_BOUND_FIXED) / SMC_DECODE_BOUND_PER_BYTE) {
        return SIZE_MAX;
    }
    return SMC_DECODE_BOUND_FIXED + len * SMC_DECODE_BOUND_PER_BYTE;
}
