/*
 * Bump arena (house style rule 7): a caller block first, then blocks from the arena's own
 * allocator, chained newest first and released all at once. No global state.
 */
#include <stdlib.h>

#include "smc_internal.h"

#define ARENA_ALIGN      ((size_t)8)
#define FIRST_BLOCK      ((size_t)4096)
#define MAX_GROWTH_BLOCK ((size_t)1 << 20)

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
    memset(arena, 0, sizeof *arena);
    if (mem != NULL) {
        arena->user_begin = (uint8_t *)mem;
        arena->user_end = (uint8_t *)mem + size;
    }
    arena->cur = arena->user_begin;
    arena->end = arena->user_end;
    arena->next_block_size = FIRST_BLOCK;
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

static bool grow(smc_arena_t *arena, size_t size)
{
    if (!arena->has_allocator || size > SIZE_MAX - BLOCK_HEADER - ARENA_ALIGN) {
        return false;
    }
    size_t want = size + BLOCK_HEADER;
    size_t block_size = arena->next_block_size > want ? arena->next_block_size : want;
    block_t *b = (block_t *)arena->allocator.alloc(arena->allocator.ctx, block_size);
    if (b == NULL) {
        return false;
    }
    b->next = (block_t *)arena->chain;
    b->size = block_size;
    arena->chain = b;
    arena->cur = (uint8_t *)b + BLOCK_HEADER;
    arena->end = (uint8_t *)b + block_size;
    if (arena->next_block_size < MAX_GROWTH_BLOCK) {
        arena->next_block_size *= 2;
    }
    return true;
}

void *smc_arena_alloc(smc_arena_t *arena, size_t size)
{
    if (arena == NULL) {
        return NULL;
    }
    if (size == 0) {
        size = 1; /* a distinct, valid pointer; no static state (security model P9) */
    }
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
    if (!grow(arena, size)) {
        return NULL;
    }
    uint8_t *p = arena->cur; /* block payloads start 8-aligned */
    arena->cur = p + size;
    arena->used += size;
    return p;
}

void smc_arena_reset(smc_arena_t *arena)
{
    free_blocks_until(arena, NULL);
    arena->cur = arena->user_begin;
    arena->end = arena->user_end;
    arena->used = 0;
    arena->next_block_size = FIRST_BLOCK;
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

smci_arena_mark_t smci_arena_mark(const smc_arena_t *arena)
{
    smci_arena_mark_t m = {arena->cur, arena->end, arena->chain, arena->used};
    return m;
}

void smci_arena_rollback(smc_arena_t *arena, smci_arena_mark_t mark)
{
    free_blocks_until(arena, mark.chain);
    arena->cur = mark.cur;
    arena->end = mark.end;
    arena->used = mark.used;
}

size_t smc_decode_bound(size_t len)
{
    if (len > (SIZE_MAX - SMC_DECODE_BOUND_FIXED) / SMC_DECODE_BOUND_PER_BYTE) {
        return SIZE_MAX;
    }
    return SMC_DECODE_BOUND_FIXED + len * SMC_DECODE_BOUND_PER_BYTE;
}
