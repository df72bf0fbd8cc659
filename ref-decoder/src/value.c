/*
 * Layer 2: tree decoder. Iterative over an explicit stack of at most SMC_MAX_DEPTH_LIMIT
 * frames (16 bytes each) on the C stack, so input depth never grows the C stack. Items
 * come from smci_read_item (reader.c), the same function the reader uses, so both layers
 * agree on every input. Sizes are checked against the remaining bytes before any
 * allocation (spec §14.3), which gives the smc_decode_bound() guarantee.
 */
#include "copy_short.h"
#include "decode_fast.h"
#include "read_item.h"

/* Inline in store_leaf (once per string or typed list); smci_bytes_store wraps it. `remaining`
 * and `unfilled` give the decode budget's `need`, computed only when a block is needed. */
SMCI_INLINE smc_status_t bytes_store(smc_arena_t *arena, uint32_t flags, const uint8_t *src,
                                     size_t len, const uint8_t **dst, size_t remaining,
                                     uint64_t unfilled)
{
    if (len == 0) {
        *dst = NULL;
        return SMC_OK;
    }
    if (flags & SMC_ALIAS_INPUT) {
        *dst = src;
        return SMC_OK;
    }
    uint8_t *copy = (uint8_t *)smci_arena_bump(arena, len);
    if (copy == NULL) {
        copy = (uint8_t *)smci_arena_alloc_need(arena, len,
                                                smci_decode_need_copy(len, remaining, unfilled));
        if (copy == NULL) {
            return SMC_ERR_NOMEM;
        }
    }
    /* Typed lists too: one copy of the raw LE bytes (short ones inline, copy_short.h). */
    smci_copy_short(copy, src, len);
    *dst = copy;
    return SMC_OK;
}

smc_status_t smci_bytes_store(smc_arena_t *arena, uint32_t flags, const uint8_t *src, size_t len,
                              const uint8_t **dst, size_t need)
{
    if (len == 0 || (flags & SMC_ALIAS_INPUT)) {
        return bytes_store(arena, flags, src, len, dst, 0, 0);
    }
    uint8_t *copy = (uint8_t *)smci_arena_alloc_need(arena, len, need);
    if (copy == NULL) {
        return SMC_ERR_NOMEM;
    }
    memcpy(copy, src, len);
    *dst = copy;
    return SMC_OK;
}

/* The pass over a container's children resumes after a leaf the generic path took only when
 * at least this many children are left: the frame it gives back is pushed again at the next
 * child it cannot take, and on records (small containers of mixed children) that cost more
 * than it saved (callgrind, b_anr_1000 decode: 45.1 without the resume, 47.2 with it for
 * any count, 46.0 from 16 children, 44.7 from 64; g_map10000_str 86.0 → 81.0 in each). */
#define SMCI_RESUME_MIN 64

typedef struct frame {
    smc_value_t *next; /* next slot to fill */
    smc_value_t *end;
} frame_t;

/* Fill `slot` from a non-container item (read up to `remaining` bytes, `unfilled` slots). */
static smc_status_t store_leaf(smc_arena_t *arena, uint32_t flags, const smc_item_t *it,
                               smc_value_t *slot, size_t remaining, uint64_t unfilled)
{
    slot->type = it->type;
    slot->custom_tag = 0;
    switch (it->type) {
    case SMC_TYPE_NULL:
        slot->i64 = 0;
        return SMC_OK;
    case SMC_TYPE_BOOL:
        slot->boolean = it->boolean;
        return SMC_OK;
    case SMC_TYPE_I32:
        slot->i32 = it->i32;
        return SMC_OK;
    case SMC_TYPE_I64:
        slot->i64 = it->i64;
        return SMC_OK;
    case SMC_TYPE_F64:
        slot->f64_bits = it->f64_bits;
        return SMC_OK;
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_STR:
    case SMC_TYPE_U8S:
        slot->bytes.len = it->bytes.len;
        return bytes_store(arena, flags, it->bytes.ptr, it->bytes.len, &slot->bytes.ptr, remaining,
                           unfilled);
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        slot->array.count = it->array.count;
        return bytes_store(arena, flags, it->array.data,
                           it->array.count * smc_typed_list_width(it->type), &slot->array.data,
                           remaining, unfilled);
    case SMC_TYPE_LIST:
    case SMC_TYPE_MAP:
    case SMC_TYPE_CUSTOM:
        break;
    }
    return SMC_ERR_USAGE; /* containers are handled by the caller */
}

/*
 * Find the exact error of a value that is known to be invalid, without allocating: the
 * reader applies the same checks in the same order (spec/errors.md §14.2).
 */
static smc_status_t locate_error(const smci_input_t *in, size_t start, uint32_t flags,
                                 uint32_t max_depth, size_t *err_off)
{
    smc_reader_t r;
    smc_decode_opts_t opts = {flags, max_depth};
    smc_error_t err;
    smc_reader_init_at(&r, in->base, smci_length(in), start, &opts);
    if (smc_reader_skip_value(&r) == SMC_OK || SMC_NEVER(smc_reader_error(&r, &err) == SMC_OK)) {
        *err_off = smci_length(in); /* cannot happen: the value provably needs more bytes */
        return SMC_ERR_TRUNCATED;
    }
    (void)smc_reader_error(&r, &err);
    *err_off = err.offset;
    return err.status;
}

/*
 * Threaded dispatch (GCC and clang): each fast case ends with its own step to the next slot
 * and its own indirect jump on the next value's tag (SMCI_NEXT), instead of one shared jump
 * back to the loop head and its switch, so the branch predictor sees one jump per case and
 * the loop head's tests are not paid twice. SMC_DECODE_PORTABLE forces the C11 switch
 * (built and tested by test_s14_decode_fast_path_portable and test_s14_truncation_portable); both
 * run the same case bodies, so they give the same results by construction.
 */
#if defined(__GNUC__) && !defined(SMC_DECODE_PORTABLE)
#define SMCI_THREADED 1
#define SMCI_LABEL(name)                                                                           \
    name:
#else
#define SMCI_THREADED 0
#define SMCI_LABEL(name)
#endif

#if SMCI_THREADED
/* Labels as values (&&label, goto *) and the table's range designators are GNU C, which
 * -Wpedantic reports; they are used only here, behind SMCI_THREADED, with the C11 switch as
 * the fallback, so the warning is silenced for this function alone. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpedantic"
#endif
/* GCC's SLP vectoriser pairs the frame push's two stores (`top->next = next; top->end = end`)
 * into one 16-byte store, and to feed it keeps next/end packed in an SSE register for the
 * whole loop: unpacked, repacked and spilled at every value (--dump-instr, c_latlng_1000: ~7
 * instructions a value). Two scalar stores are cheaper. */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-slp-vectorize")))
#endif
smc_status_t
smci_decode_value(smci_input_t *in, uint32_t flags, uint32_t max_depth, smc_arena_t *arena,
                  smc_value_t *slot, size_t *err_off)
{
    /* The innermost open container's cursor lives in `next`/`end` (registers); stack[d] keeps
     * the cursor of the container around level d + 1, saved when that level opens, so the
     * step to the next slot reads no memory (callgrind: a_list1000_i32 decode 41.4 → 38.4
     * instructions per value, b_anr_1000 −2%). */
    frame_t stack[SMC_MAX_DEPTH_LIMIT];
    smc_value_t *next = NULL;
    smc_value_t *end = NULL;
    /* The frames in use are stack[0 .. top); a container may open while top < open_limit
     * (max_depth ≤ SMC_MAX_DEPTH_LIMIT, checked by smci_opts_resolve). */
    frame_t *top = stack;
    frame_t *const open_limit = stack + max_depth;
    size_t start = smci_offset(in);
    /* Slots allocated but not filled yet. Each needs at least one more input byte, so while
     * unfilled ≤ remaining bytes the tree never holds more nodes than the input has bytes.
     * The §14.3 check alone bounds each container separately; nested containers of a
     * truncated input could otherwise reserve depth × length nodes. */
    uint64_t unfilled = 0;
    smc_item_t it;
    /* The input cursor and the arena's bump cursor in locals whose address is never taken, so
     * that the stores into slots and string copies (which may alias *in and *arena) do not
     * force them through memory at every value. Written back before the generic path and on
     * return; `acur0` is where the arena cursor was last written back, for arena->used. */
    const uint8_t *const base = in->base;
    const uint8_t *const lim = in->end;
    const uint8_t *p = in->p;
    uint8_t *acur = arena->cur;
    uint8_t *aend = arena->end;
    uint8_t *acur0 = acur;
    /* Non-zero padding of a float64 goes to the generic path in strict mode (spec §3.3). */
    const size_t strict_pad = (flags & SMC_STRICT_PADDING) ? SIZE_MAX : 0;
    size_t left;
    uint8_t tag;
    /* A container's children still to fill in one pass (`fill`); equal when none is. */
    smc_value_t *fill_at = NULL;
    size_t fill_left = 0;
#if SMCI_THREADED
    /* The fast case of each tag, as the switch below; the rest go to the generic path. */
    static const void *const dispatch[256] = {
        [SMCI_TAG_NULL] = &&t_null,
        [SMCI_TAG_TRUE] = &&t_bool,
        [SMCI_TAG_FALSE] = &&t_bool,
        [SMCI_TAG_I32] = &&t_i32,
        [SMCI_TAG_I64] = &&t_i64,
        [SMCI_TAG_LARGEINT] = &&generic,
        [SMCI_TAG_F64] = &&t_f64,
        [SMCI_TAG_STR] = &&t_str,
        [SMCI_TAG_U8S] = &&t_u8s,
        [SMCI_TAG_I32S... SMCI_TAG_F64S] = &&generic,
        [SMCI_TAG_LIST] = &&t_list,
        [SMCI_TAG_MAP] = &&t_list,
        [SMCI_TAG_F32S... SMCI_TAG_CUSTOM_MIN - 1] = &&generic,
        [SMCI_TAG_CUSTOM_MIN... 255] = &&t_custom,
    };
    /* The jump to the case of the value at p, for `slot` (taken by the caller). */
#define SMCI_DISPATCH()                                                                            \
    do {                                                                                           \
        if (SMCI_LIKELY(p != lim)) {                                                               \
            left = (size_t)(lim - p);                                                              \
            tag = p[0];                                                                            \
            goto *dispatch[tag];                                                                   \
        }                                                                                          \
        goto generic;                                                                              \
    } while (0)
    /* The step to the next slot (as at `filled`) and the jump to the next value's case; a
     * container to close, or the end of the input, goes the shared way. */
#define SMCI_NEXT()                                                                                \
    do {                                                                                           \
        if (next == end) {                                                                         \
            goto filled;                                                                           \
        }                                                                                          \
        slot = next++;                                                                             \
        unfilled--;                                                                                \
        SMCI_DISPATCH();                                                                           \
    } while (0)
#else
#define SMCI_NEXT()     goto filled
#define SMCI_DISPATCH() goto head
#endif

    for (;;) {
#if !SMCI_THREADED
    head:
#endif
        /* Fast path: the common forms of each tag, taken only when every check of the generic
         * path below passes (spec/errors.md §14.2); anything else — an error, a 3/5-byte size,
         * strict padding, non-ASCII text, a full arena block, typed lists — goes to the
         * generic path, which reads the same value again from its tag and reports exactly
         * what it always did. */
        if (SMCI_LIKELY(p != lim)) {
            left = (size_t)(lim - p);
            tag = p[0];
            switch (tag) {
            case SMCI_TAG_NULL:
                SMCI_LABEL(t_null)
                smci_leaf_null(p, slot, &p);
                SMCI_NEXT();
            case SMCI_TAG_TRUE:
            case SMCI_TAG_FALSE:
                SMCI_LABEL(t_bool)
                smci_leaf_bool(p, &tag, slot, &p);
                SMCI_NEXT();
            case SMCI_TAG_I32:
                SMCI_LABEL(t_i32)
                if (smci_leaf_int(p, left, 4, slot, &p)) {
                    SMCI_NEXT();
                }
                break;
            case SMCI_TAG_I64:
                SMCI_LABEL(t_i64)
                if (smci_leaf_int(p, left, 8, slot, &p)) {
                    SMCI_NEXT();
                }
                break;
            case SMCI_TAG_F64:
                SMCI_LABEL(t_f64)
                if (smci_leaf_f64(p, left, base, strict_pad, slot, &p)) {
                    SMCI_NEXT();
                }
                break;
            case SMCI_TAG_STR:
                SMCI_LABEL(t_str)
                if (smci_leaf_bytes(p, left, SMC_TYPE_STR, true, flags, slot, &acur, aend, &p)) {
                    SMCI_NEXT();
                }
                break;
            case SMCI_TAG_U8S:
                SMCI_LABEL(t_u8s)
                if (smci_leaf_bytes(p, left, SMC_TYPE_U8S, false, flags, slot, &acur, aend, &p)) {
                    SMCI_NEXT();
                }
                break;
            case SMCI_TAG_LIST:
            case SMCI_TAG_MAP:
                SMCI_LABEL(t_list)
                if (top < open_limit && left >= 2 && p[1] < 254) {
                    size_t rem = left - 2;
                    size_t children = tag == SMCI_TAG_LIST ? (size_t)p[1] : 2 * (size_t)p[1];
                    smc_value_t *items = NULL;
                    /* (covers children > rem too: children ≤ 506 and unfilled ≤ the input's
                     * length, so the sum cannot wrap) */
                    if (unfilled + children > rem) {
                        break;
                    }
                    if (children > 0) {
                        items = (smc_value_t *)smci_bump_local(&acur, aend,
                                                               children * sizeof(smc_value_t));
                        if (items == NULL) {
                            break;
                        }
                    }
                    slot->custom_tag = 0;
                    if (tag == SMCI_TAG_LIST) {
                        slot->type = SMC_TYPE_LIST;
                        slot->list = (smc_list_t){items, p[1]};
                    } else {
                        slot->type = SMC_TYPE_MAP;
                        slot->map = (smc_map_t){items, p[1]};
                    }
                    p += 2;
                    if (children > 0) {
                        fill_at = items;
                        fill_left = children;
                        goto fill;
                    }
                    SMCI_NEXT();
                }
                break;
            default:
                SMCI_LABEL(t_custom)
                if (tag >= SMCI_TAG_CUSTOM_MIN && !(flags & SMC_REJECT_CUSTOM) &&
                    top < open_limit && unfilled + 1 <= left - 1) {
                    smc_value_t *items = (smc_value_t *)smci_bump_local(&acur, aend, sizeof *items);
                    if (items == NULL) {
                        break;
                    }
                    slot->type = SMC_TYPE_CUSTOM;
                    slot->custom_tag = tag;
                    slot->custom.payload = items;
                    p += 1;
                    top->next = next;
                    top->end = end;
                    next = items;
                    end = items + 1;
                    top++;
                    unfilled += 1;
                    SMCI_NEXT();
                }
                break;
            }
        }

        /* Generic path: one value through smci_read_item_inline, the cursors written back
         * first and reloaded after. */
        SMCI_LABEL(generic)
        in->p = p;
        arena->cur = acur;
        arena->used += (size_t)(acur - acur0);
        {
            smc_status_t st = smci_read_item_inline(in, flags, top < open_limit, &it, err_off);
            if (st != SMC_OK) {
                return st;
            }
            uint64_t children = smci_child_count(&it);
            if (it.type == SMC_TYPE_LIST || it.type == SMC_TYPE_MAP || it.type == SMC_TYPE_CUSTOM) {
                smc_value_t *items = NULL;
                if (children > 0) {
                    if (unfilled + children > (uint64_t)smci_remaining(in)) {
                        /* The input ends before these values can: it is invalid, but the
                         * error the spec names may lie earlier in the stream than the end. */
                        return locate_error(in, start, flags, max_depth, err_off);
                    }
                    /* children ≤ remaining input bytes, so the product cannot overflow
                     * unless the input is larger than memory: checked anyway. */
                    if (SMC_NEVER(children > SIZE_MAX / sizeof(smc_value_t))) {
                        *err_off = it.offset;
                        return SMC_ERR_NOMEM;
                    }
                    size_t bytes = (size_t)children * sizeof(smc_value_t);
                    items = (smc_value_t *)smci_arena_bump(arena, bytes);
                    if (items == NULL) {
                        items = (smc_value_t *)smci_arena_alloc_need(
                            arena, bytes, smci_decode_need(smci_remaining(in), unfilled));
                    }
                    if (items == NULL) {
                        *err_off = it.offset;
                        return SMC_ERR_NOMEM;
                    }
                }
                slot->type = it.type;
                slot->custom_tag = it.custom_tag;
                if (it.type == SMC_TYPE_LIST) {
                    slot->list.items = items;
                    slot->list.count = it.count;
                } else if (it.type == SMC_TYPE_MAP) {
                    slot->map.entries = items;
                    slot->map.count = it.count;
                } else {
                    slot->custom.payload = items;
                }
                fill_at = items;
                fill_left = (size_t)children;
            } else {
                st = store_leaf(arena, flags, &it, slot, smci_remaining(in), unfilled);
                if (st != SMC_OK) {
                    *err_off = it.offset;
                    return st;
                }
            }
        }
        p = in->p;
        acur = acur0 = arena->cur;
        aend = arena->end;
        if (fill_left != 0) {
            goto fill; /* a container with children, opened by the generic path */
        }
        if ((size_t)(end - next) >= SMCI_RESUME_MIN) {
            /* A leaf the generic path took (a full arena block, non-ASCII text, a typed
             * list, ...) inside a container with children still to fill: the pass resumes
             * on them, as on a container just opened with only those children (its frame
             * given back, their slots no longer counted in `unfilled`). Without this, a
             * block filling up in the middle of g_map10000_str sent the rest of its strings
             * through the per-value loop: decode 86.0 against decode_malloc 80.1. */
            fill_at = next;
            fill_left = (size_t)(end - next);
            unfilled -= fill_left;
            top--;
            next = top->next;
            end = top->end;
            goto fill;
        }

    filled:
        /* Next slot: the first unfilled one of the innermost open container. At depth 0
         * next == end (both NULL, as stack[0] saved them), so one comparison per value
         * decides both "close a container" and "done". */
        while (next == end) {
            if (top == stack) {
                in->p = p;
                arena->cur = acur;
                arena->used += (size_t)(acur - acur0);
                return SMC_OK;
            }
            top--;
            next = top->next;
            end = top->end;
        }
        slot = next++;
        unfilled--;
        continue;

    fill:
        /* One pass over the children of a container just opened (fill_at .. fill_end, its
         * slot already filled): consecutive leaves of a fast form are decoded straight into
         * their slots, without the frame push, the step to the next slot and the dispatch
         * per child; a container whose children are all such leaves never gets a frame. At
         * the first child the pass does not take, the container gets its frame and that
         * child its slot, exactly as if the container had opened the usual way and the
         * children before it had been decoded one by one (same checks in the same order,
         * so the same statuses, offsets and arena use), and the loop decodes it. */
        do {
            if (!smci_fast_leaf(&p, base, lim, strict_pad, flags, fill_at, &acur, aend)) {
                /* top < open_limit: checked when the container opened */
                top->next = next;
                top->end = end;
                top++;
                slot = fill_at;
                next = fill_at + 1;
                end = fill_at + fill_left;
                unfilled += fill_left - 1;
                fill_left = 0; /* no fill pending for the generic path */
                SMCI_DISPATCH();
            }
            fill_at++;
        } while (--fill_left != 0);
        SMCI_NEXT();
    }
}
#undef SMCI_NEXT
#undef SMCI_DISPATCH
#if SMCI_THREADED
#pragma GCC diagnostic pop
#endif

smc_status_t smc_decode(const uint8_t *data, size_t len, const smc_decode_opts_t *opts,
                        smc_arena_t *arena, smc_value_t **out, smc_error_t *err)
{
    static const uint8_t empty[1] = {0};
    uint32_t flags, max_depth;
    smci_set_error(err, SMC_OK, 0);
    if (out != NULL) {
        *out = NULL;
    }
    if (arena == NULL || out == NULL || (data == NULL && len != 0) ||
        smci_opts_resolve(opts, &flags, &max_depth) != SMC_OK) {
        smci_set_error(err, SMC_ERR_USAGE, 0);
        return SMC_ERR_USAGE;
    }
    if (data == NULL) {
        data = empty;
    }
    smci_input_t in = {data, data, data + len};
    size_t err_off = 0;
    smc_status_t st;
    smci_arena_mark_t mark = smci_arena_begin(arena, len);
    smc_value_t *root = NULL;
    if (len == 0) {
        /* spec §9.2: empty message → truncated at 0, before any allocation */
        st = SMC_ERR_TRUNCATED;
        err_off = 0;
    } else if ((root = (smc_value_t *)smci_arena_bump(arena, sizeof *root)) == NULL &&
               /* the inline bump first: the call to the arena's own is ~30 instructions a
                * message (callgrind, g_list10_i32); the same bump when the node fits */
               (root = (smc_value_t *)smci_arena_alloc_need(arena, sizeof *root,
                                                            smci_decode_need(len, 0))) == NULL) {
        st = SMC_ERR_NOMEM;
        err_off = 0;
    } else {
        st = smci_decode_value(&in, flags, max_depth, arena, root, &err_off);
        if (st == SMC_OK && in.p != in.end) {
            st = SMC_ERR_TRAILING_BYTES; /* spec §9.1 */
            err_off = smci_offset(&in);
        }
    }
    smci_arena_end(arena, mark, st == SMC_OK);
    if (st != SMC_OK) {
        smci_set_error(err, st, err_off);
        return st;
    }
    *out = root;
    return SMC_OK;
}
