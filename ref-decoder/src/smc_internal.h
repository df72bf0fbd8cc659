/*
 * Cross-file internals (smci_*). Never installed; hidden by visibility.
 */
#ifndef SMC_INTERNAL_H
#define SMC_INTERNAL_H

#include "smc/smc.h"
#include "smc_input.h"

/* Defensive checks for conditions that cannot happen; they do not abort (rule 4) and keep
 * coverage honest: the caller handles the "impossible" branch anyway. */
#define SMC_ALWAYS(x) (x)
#define SMC_NEVER(x)  (x)

/* Hot-path helpers that must inline into per-value loops (read_item.h, value.c, writer.c). */
#if defined(__GNUC__) || defined(__clang__)
#define SMCI_INLINE    static inline __attribute__((always_inline))
#define SMCI_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define SMCI_INLINE    static inline
#define SMCI_LIKELY(x) (x)
#endif

/* Wire tags (spec §4–§8). */
enum {
    SMCI_TAG_NULL = 0x00,
    SMCI_TAG_TRUE = 0x01,
    SMCI_TAG_FALSE = 0x02,
    SMCI_TAG_I32 = 0x03,
    SMCI_TAG_I64 = 0x04,
    SMCI_TAG_LARGEINT = 0x05,
    SMCI_TAG_F64 = 0x06,
    SMCI_TAG_STR = 0x07,
    SMCI_TAG_U8S = 0x08,
    SMCI_TAG_I32S = 0x09,
    SMCI_TAG_I64S = 0x0a,
    SMCI_TAG_F64S = 0x0b,
    SMCI_TAG_LIST = 0x0c,
    SMCI_TAG_MAP = 0x0d,
    SMCI_TAG_F32S = 0x0e,
    SMCI_TAG_CUSTOM_MIN = 0x80
};

#define SMCI_KNOWN_FLAGS                                                                           \
    (SMC_STRICT_SIZE | SMC_STRICT_PADDING | SMC_REJECT_LARGEINT | SMC_REJECT_CUSTOM |              \
     SMC_ALIAS_INPUT)

/* Flags and depth limit from user options (NULL → defaults). SMC_ERR_USAGE if invalid. */
smc_status_t smci_opts_resolve(const smc_decode_opts_t *opts, uint32_t *flags, uint32_t *max_depth);

/* RFC 3629 check. Returns true if well-formed; else *bad = index of the first byte of the
 * first ill-formed subsequence. */
bool smci_utf8_valid(const uint8_t *s, size_t len, size_t *bad);

/*
 * Read one item at in->p (spec §14.2 steps 1–5): tag, size, padding, payload. For a
 * container only the tag and count are consumed. `may_open` is false when one more level
 * would exceed the depth limit. On error returns the status with *err_off set and leaves
 * in->p unspecified. it->depth is left for the caller.
 */
smc_status_t smci_read_item(smci_input_t *in, uint32_t flags, bool may_open, smc_item_t *it,
                            size_t *err_off);

/* Number of values that follow a container item (list n, map 2n, custom 1), else 0. */
static inline uint64_t smci_child_count(const smc_item_t *it)
{
    /* Plain comparisons: cheaper than a switch on the hot path of every item. */
    if (it->type == SMC_TYPE_LIST) {
        return it->count;
    }
    if (it->type == SMC_TYPE_MAP) {
        return 2 * (uint64_t)it->count;
    }
    return it->type == SMC_TYPE_CUSTOM ? 1 : 0;
}

/*
 * Validate one complete value at in->p without allocating (the reader's checks, in a tight
 * loop with one counter per open container). Same status and offset as the reader and the
 * tree decoder, because all three use smci_read_item.
 */
smc_status_t smci_skip_value(smci_input_t *in, uint32_t flags, uint32_t max_depth, size_t *err_off);

/*
 * Decode one complete value at in->p into *slot (tree layer, iterative). Allocates from
 * `arena`; does not roll back on failure (the caller does).
 */
smc_status_t smci_decode_value(smci_input_t *in, uint32_t flags, uint32_t max_depth,
                               smc_arena_t *arena, smc_value_t *slot, size_t *err_off);

/*
 * Upper bound on what the rest of a decode call can still allocate, pads included, with
 * `remaining` input bytes and `unfilled` node slots already allocated (security model P3):
 * every future value takes a slot (a node, sizeof(smc_value_t)) only if one is not waiting
 * for it, and the tree decoder allocates n slots only while unfilled + n <= remaining; a
 * copied payload of p bytes (value of >= p + 2 bytes) costs at most p + 7 < 3 (p + 2); one
 * pad of up to 7 bytes may be pending from the last copy. It only decreases by at least what
 * is allocated, and at the start (27 len + 7) it leaves smc_decode_bound(len) a header and
 * 5 len of room: the budget policy of arena.c relies on both.
 */
static inline size_t smci_decode_need(size_t remaining, uint64_t unfilled)
{
    if (remaining > (SIZE_MAX - 7) / (sizeof(smc_value_t) + 3)) {
        return SIZE_MAX;
    }
    size_t open = (uint64_t)remaining > unfilled ? remaining - (size_t)unfilled : 0;
    return sizeof(smc_value_t) * open + 3 * remaining + 7;
}

/* The same for a payload copy of `len` bytes that is being made: its p + 7 on top. */
static inline size_t smci_decode_need_copy(size_t len, size_t remaining, uint64_t unfilled)
{
    size_t rest = smci_decode_need(remaining, unfilled);
    return rest > SIZE_MAX - 14 - len ? SIZE_MAX : rest + len + 7;
}

/* Copy len bytes into the arena (or alias them with SMC_ALIAS_INPUT). NULL ptr if len is 0.
 * `need` is smci_decode_need_copy(len, ...) during a decode, anything otherwise. */
smc_status_t smci_bytes_store(smc_arena_t *arena, uint32_t flags, const uint8_t *src, size_t len,
                              const uint8_t **dst, size_t need);

/* smc_arena_alloc for decoders: the same bump path, and on a new block the budget policy of
 * arena.c with `need` (smci_decode_need) when a decode call is in progress. */
void *smci_arena_alloc_need(smc_arena_t *arena, size_t size, size_t need);

/* The bump path inline for the decoder's per-value allocations; NULL when the request does
 * not fit the current block (or size is 0), and the caller goes to smci_arena_alloc_need,
 * computing `need` only then. */
static inline void *smci_arena_bump(smc_arena_t *arena, size_t size)
{
    if (size != 0 && arena->cur != NULL) {
        size_t pad = smci_pad((size_t)(uintptr_t)arena->cur, 8);
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

/* Arena checkpoint of one decode call. smci_arena_begin also sets the call's allocator budget
 * to smc_decode_bound(len); smci_arena_end clears it and, unless `ok`, gives back everything
 * the call took (blocks included). */
typedef struct smci_arena_mark {
    uint8_t *cur;
    uint8_t *end;
    void *chain;
    size_t used;
} smci_arena_mark_t;

smci_arena_mark_t smci_arena_begin(smc_arena_t *arena, size_t len);
void smci_arena_end(smc_arena_t *arena, smci_arena_mark_t mark, bool ok);

static inline void smci_set_error(smc_error_t *err, smc_status_t status, size_t offset)
{
    if (err != NULL) {
        err->status = status;
        err->offset = offset;
    }
}

#endif /* SMC_INTERNAL_H */
