/**
 * @file smc_value.h
 * @brief Layer 2: decode a whole message into an smc_value_t tree held in an arena.
 *
 * Safety (spec/decoder-security-model.md): smc_decode never reads outside
 * [data, data+len), checks every declared size against the bytes that remain before it
 * allocates anything (spec §14.3), never allocates more than smc_decode_bound(len) bytes
 * from the arena for one call, never recurses on the C stack (an explicit stack of at most
 * SMC_MAX_DEPTH_LIMIT frames), and on failure gives back every arena byte it took.
 */
#ifndef SMC_VALUE_H
#define SMC_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smc/smc_export.h"
#include "smc/smc_status.h"
#include "smc/smc_types.h"
#include "smc/smc_version.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * A memory source for an arena. No global hooks: each arena carries its own.
 * `alloc` returns `size` bytes aligned for any object up to 8-byte alignment, or NULL.
 * `free` releases a block returned by `alloc`, with the same size.
 */
typedef struct smc_allocator {
    void *(*alloc)(void *ctx, size_t size);
    void (*free)(void *ctx, void *ptr, size_t size);
    void *ctx;
} smc_allocator_t;

/** The malloc/free allocator (a static object; never NULL). */
SMC_API const smc_allocator_t *smc_allocator_malloc(void);

/**
 * Bump allocator for tree nodes and copied bytes. Fields are private: use the functions.
 * An arena draws from a caller block first (if any), then from blocks obtained from its
 * allocator (if any). Everything is released at once by smc_arena_reset/smc_arena_free.
 * Not thread-safe; one arena per thread.
 *
 * Block sizes: during one call of smc_decode, smc_decode_method_call or smc_decode_envelope
 * on `len` bytes, the arena asks its allocator for at most smc_decode_bound(len) bytes in
 * total (block headers included), whatever the input, and never fails within that: an
 * allocator that can give that many bytes never makes a decode return SMC_ERR_NOMEM. The first
 * block of such a call is at most 4 KiB (less for inputs whose bound is smaller), later
 * ones are sized from the input bytes that remain. Outside these calls (smc_arena_alloc,
 * the smc_value_make_* builders) blocks double from 4 KiB up to 1 MiB, or the request size.
 *
 * Own block: an arena that has an allocator but no caller block holds its first
 * SMC_ARENA_OWN_BLOCK bytes inside itself (`own`), used exactly like a caller block, so a
 * small message decodes without calling the allocator at all (issue #33: the malloc and free
 * of a first block cost more than the decode of a message of a few hundred bytes). The bound
 * above counts allocator bytes and is unchanged; every arena byte of a call, wherever it
 * lives, is still within smc_decode_bound(len). An initialised arena points into itself:
 * never copy or move it (pass a pointer), as with any arena.
 */
#define SMC_ARENA_OWN_BLOCK ((size_t)4096u)

struct smc_arena {
    uint8_t *cur;        /* next free byte of the current block */
    uint8_t *end;        /* end of the current block */
    uint8_t *user_begin; /* caller block (may be NULL) */
    uint8_t *user_end;
    void *chain;            /* blocks from the allocator, newest first */
    size_t next_block_size; /* growth policy */
    size_t used;            /* bytes handed out, including alignment */
    size_t budget;          /* allocator bytes the decode call in progress may still take */
    smc_allocator_t allocator;
    bool has_allocator;
    bool call_has_block; /* the decode call in progress has obtained a block */
    /* the own block (8-aligned by its type); never zeroed, only handed out */
    uint64_t own[SMC_ARENA_OWN_BLOCK / sizeof(uint64_t)];
};

/**
 * Arena over a caller block of `size` bytes. No allocation ever happens; when the block is
 * full, allocations fail (SMC_ERR_NOMEM). `mem` must stay valid while the arena is used.
 */
SMC_API void smc_arena_init_buffer(smc_arena_t *arena, void *mem, size_t size);

/** Arena that obtains blocks from `allocator` (copied; NULL → smc_allocator_malloc()), after
 * its own block of SMC_ARENA_OWN_BLOCK bytes. */
SMC_API void smc_arena_init_allocator(smc_arena_t *arena, const smc_allocator_t *allocator);

/** Both: use `mem` first, then `allocator` (NULL → never grow). `mem` may be NULL if size is 0.
 * With `mem` NULL and an allocator, the arena's own block comes first; a non-NULL `mem` of size 0
 * is an empty caller block: the allocator serves the first byte (tests of the budget policy). */
SMC_API void smc_arena_init(smc_arena_t *arena, void *mem, size_t size,
                            const smc_allocator_t *allocator);

/**
 * `size` bytes, 8-byte aligned, from the arena; NULL when out of memory. A size of 0 is
 * treated as 1.
 */
SMC_API void *smc_arena_alloc(smc_arena_t *arena, size_t size);

/** Release every allocation; the arena is ready for reuse (its caller block is kept). */
SMC_API void smc_arena_reset(smc_arena_t *arena);

/** Release everything; the arena must be initialised again before reuse. */
SMC_API void smc_arena_free(smc_arena_t *arena);

/** Bytes currently handed out from the arena, including alignment (for tests and stats). */
SMC_API size_t smc_arena_used(const smc_arena_t *arena);

/**
 * Per-input-byte and fixed parts of smc_decode_bound(). Every decoded value consumes at
 * least one input byte and costs one node plus at most 8 bytes of alignment; copied bytes
 * (strings, byte arrays, typed arrays) cost at most their length plus 7, and each needs at
 * least 2 input bytes of tag and size. The fixed part covers aligning the caller block.
 */
#define SMC_DECODE_BOUND_PER_BYTE (sizeof(smc_value_t) + 8u)
#define SMC_DECODE_BOUND_FIXED    ((size_t)32u)

/**
 * Arena bytes that always suffice to decode any input of `len` bytes with smc_decode,
 * smc_decode_method_call or smc_decode_envelope, in every mode:
 *   SMC_DECODE_BOUND_FIXED + len * SMC_DECODE_BOUND_PER_BYTE   (32*len + 32 on LP64).
 * An arena initialised with smc_arena_init_buffer over that many bytes never yields
 * SMC_ERR_NOMEM for such an input, and an arena that grows from an allocator asks it for at
 * most that many bytes during the call (see smc_arena). Saturates at SIZE_MAX.
 */
SMC_API size_t smc_decode_bound(size_t len);

/**
 * Decode one message (spec §9): exactly one value, nothing after it.
 *
 * @param data  input bytes; only [data, data+len) is read. May be NULL if len is 0.
 * @param len   input length.
 * @param opts  mode flags and depth limit; NULL → flutter mode, default depth.
 * @param arena receives every node and copied byte. On failure the arena is restored to its
 *              state before the call (nothing stays allocated).
 * @param out   set to the root on success, to NULL on failure.
 * @param err   optional; receives status and byte offset (spec/errors.md).
 * @return SMC_OK; a malformed-input status (class + offset as spec/errors.md §14.2);
 *         SMC_ERR_DEPTH; SMC_ERR_NOMEM; SMC_ERR_USAGE (NULL arena/out, bad opts).
 */
SMC_API smc_status_t smc_decode(const uint8_t *data, size_t len, const smc_decode_opts_t *opts,
                                smc_arena_t *arena, smc_value_t **out, smc_error_t *err);

/**
 * Validate a message without building a tree or allocating (reader-based). Returns exactly
 * the status and offset smc_decode would return, except that it never returns SMC_ERR_NOMEM.
 */
SMC_API smc_status_t smc_validate(const uint8_t *data, size_t len, const smc_decode_opts_t *opts,
                                  smc_error_t *err);

#ifdef __cplusplus
}
#endif

#endif /* SMC_VALUE_H */
