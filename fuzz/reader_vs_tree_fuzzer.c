/*
 * reader_vs_tree_fuzzer: the cursor layer (smc_reader.h) and the tree decoder (smc_value.h)
 * agree on every input: same success or failure, same status and offset, and walking the
 * reader reproduces the tree's values node by node, in pre-order, at the same depths.
 * Also checks what the reader promises on its own: items move forward through the input,
 * each item's tag byte matches its type, its size_len and pad_len match the bytes, views lie
 * inside the input, typed-array elements are aligned relative to the message start (spec
 * §3.1), the error is sticky, and
 * smc_reader_skip_value reaches the same verdict.
 * Input: one option byte (fuzz_helpers.h), then the message.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz_helpers.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static bool is_container(smc_type_t t)
{
    return t == SMC_TYPE_LIST || t == SMC_TYPE_MAP || t == SMC_TYPE_CUSTOM;
}

/* spec §2.2, read here independently of the library: the value of the n-byte size field at
 * `off` (one byte, or `fe`/`ff` then a little-endian u16/u32). */
static uint64_t size_field(const uint8_t *data, size_t off, size_t n)
{
    if (n == 1) {
        return data[off];
    }
    uint64_t v = 0;
    for (size_t i = n - 1; i >= 1; i--) {
        v = v << 8 | data[off + i];
    }
    return v;
}

/* The layout the item reports (size_len, pad_len) against the bytes it was read from and the
 * reader offset `after` it: the size field's length and value, the padding to the element
 * width from the message start (spec §3.1), and where the payload starts and ends. */
static void check_layout(const smc_item_t *it, const uint8_t *data, size_t after)
{
    size_t off = it->offset;
    bool sized = it->type == SMC_TYPE_STR || it->type == SMC_TYPE_LARGEINT ||
                 it->type == SMC_TYPE_U8S || smc_typed_list_width(it->type) != 0 ||
                 it->type == SMC_TYPE_LIST || it->type == SMC_TYPE_MAP;
    size_t expect_size_len = !sized ? 0 : data[off + 1] < 254 ? 1 : data[off + 1] == 254 ? 3 : 5;
    FUZZ_ASSERTF(it->size_len == expect_size_len, "item type %d: size_len %u, expected %zu",
                 (int)it->type, (unsigned)it->size_len, expect_size_len);
    size_t w = it->type == SMC_TYPE_F64 ? 8 : smc_typed_list_width(it->type);
    size_t at = off + 1 + it->size_len; /* where padding would start */
    size_t expect_pad = w != 0 ? (w - at % w) % w : 0;
    FUZZ_ASSERTF(it->pad_len == expect_pad, "item type %d: pad_len %u, expected %zu", (int)it->type,
                 (unsigned)it->pad_len, expect_pad);
    size_t payload = at + it->pad_len, end = payload;
    uint64_t size = sized ? size_field(data, off + 1, it->size_len) : 0;
    if (it->type == SMC_TYPE_STR || it->type == SMC_TYPE_LARGEINT || it->type == SMC_TYPE_U8S) {
        FUZZ_ASSERT(size == it->bytes.len, "size field value differs from the byte length");
        FUZZ_ASSERT(it->bytes.len == 0 || it->bytes.ptr == data + payload,
                    "bytes do not start after tag, size field and padding");
        end = payload + it->bytes.len;
    } else if (smc_typed_list_width(it->type) != 0) {
        FUZZ_ASSERT(size == it->array.count, "size field value differs from the element count");
        FUZZ_ASSERT(it->array.count == 0 || it->array.data == data + payload,
                    "elements do not start after tag, size field and padding");
        end = payload + it->array.count * smc_typed_list_width(it->type);
    } else if (it->type == SMC_TYPE_LIST || it->type == SMC_TYPE_MAP) {
        FUZZ_ASSERT(size == it->count, "size field value differs from the count");
    } else if (it->type == SMC_TYPE_F64) {
        end = payload + 8;
    } else if (it->type == SMC_TYPE_I32 || it->type == SMC_TYPE_I64) {
        end = payload + (it->type == SMC_TYPE_I32 ? 4 : 8);
    }
    FUZZ_ASSERTF(end == after, "item type %d ends at %zu by its layout, the reader is at %zu",
                 (int)it->type, end, after);
}

/* The reader's own promises for one item read at reader offset `before`. */
static void check_item(const smc_item_t *it, const uint8_t *data, size_t len, size_t before,
                       uint32_t effective_depth)
{
    FUZZ_ASSERTF(it->offset >= before && it->offset < len, "item offset %zu outside [%zu, %zu)",
                 it->offset, before, len);
    uint8_t tag = data[it->offset];
    if (it->type == SMC_TYPE_CUSTOM) {
        FUZZ_ASSERTF(it->custom_tag == tag && tag >= 0x80, "custom item tag %u on byte 0x%02x",
                     it->custom_tag, tag);
    } else if (it->type == SMC_TYPE_BOOL) {
        FUZZ_ASSERTF((tag == 0x01 && it->boolean) || (tag == 0x02 && !it->boolean),
                     "bool item %d on byte 0x%02x", (int)it->boolean, tag);
    } else {
        FUZZ_ASSERTF(tag == (uint8_t)it->type && it->custom_tag == 0,
                     "item type %d on tag byte 0x%02x", (int)it->type, tag);
    }
    FUZZ_ASSERTF(it->depth <= effective_depth &&
                     (!is_container(it->type) || it->depth < effective_depth),
                 "item at depth %u with limit %u", (unsigned)it->depth, (unsigned)effective_depth);
    if (it->type == SMC_TYPE_STR || it->type == SMC_TYPE_LARGEINT || it->type == SMC_TYPE_U8S) {
        FUZZ_ASSERT(fuzz_view_inside(it->bytes.ptr, it->bytes.len, data, data + len),
                    "item bytes view outside the input");
        FUZZ_ASSERT(it->bytes.len == 0 || it->bytes.ptr > data + it->offset,
                    "item bytes start at or before the tag");
        if (it->type != SMC_TYPE_U8S) {
            FUZZ_ASSERT(fuzz_utf8_well_formed(it->bytes.ptr, it->bytes.len),
                        "reader returned ill-formed UTF-8 (spec §5.3)");
        }
    }
    size_t w = smc_typed_list_width(it->type);
    if (w && it->array.count > 0) {
        FUZZ_ASSERT(it->array.count <= len / w &&
                        fuzz_view_inside(it->array.data, it->array.count * w, data, data + len),
                    "typed array view outside the input");
        FUZZ_ASSERTF(
            (size_t)(it->array.data - data) % w == 0,
            "typed array elements at message offset %zu, not a multiple of %zu (spec §3.1)",
            (size_t)(it->array.data - data), w);
    }
    if (it->type == SMC_TYPE_CUSTOM) {
        FUZZ_ASSERTF(it->count == 1, "custom item count %zu", it->count);
    }
}

/* Walk the tree in pre-order beside the reader's items. */
typedef struct walk_frame {
    const smc_value_t *v;
    uint32_t depth;
} walk_frame_t;

static void compare_node(const smc_value_t *v, uint32_t depth, const smc_item_t *it, size_t index)
{
    FUZZ_ASSERTF(v->type == it->type, "item %zu: reader type %d, tree type %d", index,
                 (int)it->type, (int)v->type);
    FUZZ_ASSERTF(depth == it->depth, "item %zu: reader depth %u, tree depth %u", index,
                 (unsigned)it->depth, (unsigned)depth);
    size_t w = smc_typed_list_width(v->type);
    switch (v->type) {
    case SMC_TYPE_NULL:
        break;
    case SMC_TYPE_BOOL:
        FUZZ_ASSERTF(v->boolean == it->boolean, "item %zu: bool differs", index);
        break;
    case SMC_TYPE_I32:
        FUZZ_ASSERTF(v->i32 == it->i32, "item %zu: i32 differs", index);
        break;
    case SMC_TYPE_I64:
        FUZZ_ASSERTF(v->i64 == it->i64, "item %zu: i64 differs", index);
        break;
    case SMC_TYPE_F64:
        FUZZ_ASSERTF(v->f64_bits == it->f64_bits, "item %zu: f64 bits differ", index);
        break;
    case SMC_TYPE_STR:
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_U8S:
        FUZZ_ASSERTF(fuzz_bytes_equal(v->bytes, it->bytes), "item %zu: bytes differ", index);
        break;
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        FUZZ_ASSERTF(v->array.count == it->array.count &&
                         (v->array.count == 0 ||
                          memcmp(v->array.data, it->array.data, v->array.count * w) == 0),
                     "item %zu: typed array differs", index);
        break;
    case SMC_TYPE_LIST:
        FUZZ_ASSERTF(v->list.count == it->count, "item %zu: list count %zu vs %zu", index,
                     v->list.count, it->count);
        break;
    case SMC_TYPE_MAP:
        FUZZ_ASSERTF(v->map.count == it->count, "item %zu: map count %zu vs %zu", index,
                     v->map.count, it->count);
        break;
    case SMC_TYPE_CUSTOM:
        FUZZ_ASSERTF(v->custom_tag == it->custom_tag, "item %zu: custom tag %u vs %u", index,
                     v->custom_tag, it->custom_tag);
        break;
    default:
        fuzz_fail(__FILE__, __LINE__, "known type", "tree node of type %d", (int)v->type);
    }
}

static void compare_walk(const smc_value_t *root, const smc_item_t *items, size_t n)
{
    walk_frame_t *stack = NULL;
    size_t len = 0, cap = 0, index = 0;
#define PUSH(node, d)                                                                              \
    do {                                                                                           \
        if (len == cap) {                                                                          \
            cap = cap ? 2 * cap : 64;                                                              \
            walk_frame_t *grown = realloc(stack, cap * sizeof *stack);                             \
            FUZZ_ASSERT(grown != NULL, "host out of memory");                                      \
            stack = grown;                                                                         \
        }                                                                                          \
        stack[len].v = (node);                                                                     \
        stack[len].depth = (d);                                                                    \
        len++;                                                                                     \
    } while (0)
    PUSH(root, 0);
    while (len > 0) {
        walk_frame_t f = stack[--len];
        FUZZ_ASSERTF(index < n, "tree has more nodes than the reader's %zu items", n);
        compare_node(f.v, f.depth, &items[index], index);
        index++;
        if (f.v->type == SMC_TYPE_LIST) {
            for (size_t i = f.v->list.count; i-- > 0;) {
                PUSH(&f.v->list.items[i], f.depth + 1);
            }
        } else if (f.v->type == SMC_TYPE_MAP) {
            for (size_t i = 2 * f.v->map.count; i-- > 0;) {
                PUSH(&f.v->map.entries[i], f.depth + 1);
            }
        } else if (f.v->type == SMC_TYPE_CUSTOM) {
            PUSH(f.v->custom.payload, f.depth + 1);
        }
    }
#undef PUSH
    FUZZ_ASSERTF(index == n, "reader gave %zu items, tree has %zu nodes", n, index);
    free(stack);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) {
        return 0;
    }
    fuzz_options_t fo = fuzz_options_from_byte(data[0]);
    smc_decode_opts_t opts = fuzz_decode_opts(&fo, fo.strict);
    size_t len = size - 1;
    uint8_t *block = fuzz_input_copy(data + 1, len);
    const uint8_t *msg = block + fuzz_input_shift(len);

    /* 1. Walk the reader to the end of the message, recording every item. Each item consumes
     * at least its tag byte, so there are at most len of them. */
    smc_reader_t *r = malloc(sizeof *r);
    smc_item_t *items = malloc((len + 1) * sizeof *items);
    FUZZ_ASSERT(r && items, "host out of memory");
    size_t n = 0;
    smc_status_t st = SMC_OK;
    smc_error_t rerr = {SMC_OK, 0}, ferr;
    smc_reader_init(r, msg, len, &opts);
    do {
        size_t before = smc_reader_offset(r);
        uint8_t peek;
        FUZZ_ASSERT(before + smc_reader_remaining(r) == len, "offset + remaining != length");
        FUZZ_ASSERT(smc_reader_peek_byte(r, &peek) == (before < len) &&
                        (before >= len || peek == msg[before]),
                    "peek disagrees with the input");
        FUZZ_ASSERTF(n <= len, "reader produced %zu items from %zu bytes", n + 1, len);
        st = smc_reader_next(r, &items[n]);
        if (st != SMC_OK) {
            break;
        }
        check_item(&items[n], msg, len, before, fo.effective_depth);
        check_layout(&items[n], msg, smc_reader_offset(r));
        FUZZ_ASSERT(smc_reader_offset(r) > before, "reader did not advance");
        n++;
    } while (!smc_reader_value_complete(r));
    if (st != SMC_OK) {
        smc_item_t again;
        smc_error_t e1, e2;
        FUZZ_ASSERT(smc_reader_error(r, &e1) == st, "smc_reader_error differs from next's status");
        FUZZ_ASSERTF(smc_reader_next(r, &again) == st && smc_reader_error(r, &e2) == st &&
                         e2.offset == e1.offset,
                     "reader error %s is not sticky", smc_status_name(st));
        rerr = e1;
    }
    smc_status_t fst = smc_reader_finish(r, &ferr);
    if (st != SMC_OK) {
        FUZZ_ASSERTF(fst == st && ferr.offset == rerr.offset,
                     "finish after %s at %zu reports %s at %zu", smc_status_name(st), rerr.offset,
                     smc_status_name(fst), ferr.offset);
    }
    if (fst != SMC_OK) {
        fuzz_check_decode_status(fst, &ferr, msg, len, &opts, FUZZ_ENTRY_MESSAGE);
    }

    /* 2. The tree decoder on the same bytes. */
    smc_arena_t arena;
    smc_value_t *root = NULL;
    smc_error_t terr;
    smc_arena_init_allocator(&arena, fuzz_counting_allocator());
    smc_status_t tst = smc_decode(msg, len, &opts, &arena, &root, &terr);
    FUZZ_ASSERTF(tst == fst && (tst == SMC_OK || terr.offset == ferr.offset),
                 "reader says %s at %zu, tree decoder says %s at %zu", smc_status_name(fst),
                 ferr.offset, smc_status_name(tst), terr.offset);
    if (tst == SMC_OK) {
        compare_walk(root, items, n);
    }
    smc_arena_free(&arena);
    FUZZ_ASSERT(fuzz_live_blocks() == 0, "allocator blocks leaked");

    /* 3. Skipping the value reaches the same verdict as reading it item by item. */
    {
        smc_error_t serr;
        smc_reader_init(r, msg, len, &opts);
        smc_status_t kst = smc_reader_skip_value(r);
        if (kst == SMC_OK) {
            FUZZ_ASSERT(smc_reader_value_complete(r), "skip_value returned with containers open");
        }
        smc_status_t sfst = smc_reader_finish(r, &serr);
        FUZZ_ASSERTF(sfst == fst && (fst == SMC_OK || serr.offset == ferr.offset),
                     "skip_value + finish gives %s at %zu, next + finish %s at %zu",
                     smc_status_name(sfst), serr.offset, smc_status_name(fst), ferr.offset);
        FUZZ_ASSERTF(kst == SMC_OK || kst == sfst, "skip_value %s but finish %s",
                     smc_status_name(kst), smc_status_name(sfst));
    }

    free(items);
    free(r);
    free(block);
    return 0;
}
