/*
 * Shared helpers of the fuzz targets: the always-on assertion, the option byte, the checks
 * every decoder result must pass (spec/errors.md), a counting allocator and tree checks.
 */
#include "fuzz_helpers.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smct_vocab.h"

void fuzz_fail(const char *file, int line, const char *expr, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "\nFUZZ_ASSERT failed at %s:%d: %s\n  ", file, line, expr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    fflush(stderr);
    abort();
}

uint8_t *fuzz_xmalloc(size_t size)
{
    uint8_t *p = malloc(size ? size : 1);
    if (!p) {
        fprintf(stderr, "fuzz: out of host memory (%zu bytes)\n", size);
        abort();
    }
    return p;
}

size_t fuzz_input_shift(size_t len)
{
    return len % 8;
}

uint8_t *fuzz_input_copy(const uint8_t *data, size_t len)
{
    size_t shift = fuzz_input_shift(len);
    uint8_t *block = fuzz_xmalloc(shift + len);
    memset(block, 0xa5, shift);
    if (len) {
        memcpy(block + shift, data, len);
    }
    return block;
}

/* ---- option byte ---- */

fuzz_options_t fuzz_options_from_byte(uint8_t b)
{
    fuzz_options_t o;
    unsigned d = (unsigned)b >> FUZZ_OPT_DEPTH_SHIFT;
    o.strict = (b & FUZZ_OPT_STRICT) != 0;
    o.no_custom = (b & FUZZ_OPT_NO_CUSTOM) != 0;
    o.alias = (b & FUZZ_OPT_ALIAS) != 0;
    if (d == 0) {
        o.max_depth = 0;
        o.effective_depth = SMC_DEFAULT_MAX_DEPTH;
    } else if (d == 31) {
        o.max_depth = SMC_MAX_DEPTH_LIMIT;
        o.effective_depth = SMC_MAX_DEPTH_LIMIT;
    } else {
        o.max_depth = d;
        o.effective_depth = d;
    }
    return o;
}

smc_decode_opts_t fuzz_decode_opts(const fuzz_options_t *o, bool strict)
{
    smc_decode_opts_t opts;
    opts.flags = strict ? SMC_MODE_STRICT : SMC_MODE_FLUTTER;
    if (o->no_custom) {
        opts.flags |= SMC_REJECT_CUSTOM;
    }
    if (o->alias) {
        opts.flags |= SMC_ALIAS_INPUT;
    }
    opts.max_depth = o->max_depth;
    return opts;
}

/* ---- status checks ---- */

static bool is_decoder_class(const char *cls)
{
    /* the decoder error classes of vectors/schema.json, and success and out of memory */
    static const char *const classes[] = {"ok", SMCT_ERROR_CLASS_LIST(SMCT_VOCAB_ITEM) "nomem"};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++) {
        if (strcmp(cls, classes[i]) == 0) {
            return true;
        }
    }
    return false;
}

static bool is_container_tag(uint8_t t)
{
    return t == 0x0c || t == 0x0d || t >= 0x80;
}

void fuzz_check_decode_status(smc_status_t st, const smc_error_t *err, const uint8_t *data,
                              size_t len, const smc_decode_opts_t *opts, fuzz_entry_t entry)
{
    const char *cls = smc_status_class(st);
    size_t off = err->offset;
    uint32_t flags = opts->flags;

    FUZZ_ASSERTF(is_decoder_class(cls), "status 0x%x (%s) has class \"%s\", not a decoder class",
                 (unsigned)st, smc_status_name(st), cls);
    FUZZ_ASSERTF(err->status == st, "smc_error_t.status 0x%x differs from the returned 0x%x",
                 (unsigned)err->status, (unsigned)st);
    if (st == SMC_OK || st == SMC_ERR_NOMEM) {
        return;
    }
    FUZZ_ASSERTF(off <= len, "%s offset %zu beyond the input length %zu", cls, off, len);

    switch (st) {
    case SMC_ERR_TRUNCATED:
        FUZZ_ASSERTF(off == len,
                     "truncated must be at the input length %zu, got %zu (errors.md §14.1)", len,
                     off);
        break;
    case SMC_ERR_TRAILING_BYTES:
        FUZZ_ASSERTF(off >= 1 && off < len, "trailing_bytes at %zu of %zu", off, len);
        break;
    case SMC_ERR_UNKNOWN_TAG: {
        FUZZ_ASSERTF(off < len, "unknown_tag at %zu of %zu", off, len);
        uint8_t t = data[off];
        bool ok = (t >= 0x0f && t <= 0x7f) || (t == 0x05 && (flags & SMC_REJECT_LARGEINT)) ||
                  (t >= 0x80 && (flags & SMC_REJECT_CUSTOM));
        FUZZ_ASSERTF(ok, "unknown_tag at %zu on byte 0x%02x, which is known with flags 0x%x", off,
                     t, flags);
        break;
    }
    case SMC_ERR_BAD_UTF8:
        /* An ill-formed subsequence never starts at an ASCII byte (RFC 3629). */
        FUZZ_ASSERTF(off < len && data[off] >= 0x80, "bad_utf8 at %zu (byte 0x%02x) of %zu", off,
                     off < len ? data[off] : 0, len);
        break;
    case SMC_ERR_NONMINIMAL_SIZE: {
        FUZZ_ASSERTF(flags & SMC_STRICT_SIZE,
                     "non-minimal size reported without SMC_STRICT_SIZE (0x%x)", flags);
        FUZZ_ASSERTF(off < len && (data[off] == 0xfe || data[off] == 0xff),
                     "not_canonical size at %zu is not an fe/ff escape", off);
        if (data[off] == 0xfe) {
            FUZZ_ASSERTF(len - off >= 3, "fe escape at %zu without its 2 bytes", off);
            unsigned n = (unsigned)data[off + 1] | (unsigned)data[off + 2] << 8;
            FUZZ_ASSERTF(n < 254, "size %u in an fe form is minimal (spec §2.2)", n);
        } else {
            FUZZ_ASSERTF(len - off >= 5, "ff escape at %zu without its 4 bytes", off);
            uint32_t n = (uint32_t)data[off + 1] | (uint32_t)data[off + 2] << 8 |
                         (uint32_t)data[off + 3] << 16 | (uint32_t)data[off + 4] << 24;
            FUZZ_ASSERTF(n < 65536, "size %u in an ff form is minimal (spec §2.2)", (unsigned)n);
        }
        break;
    }
    case SMC_ERR_NONZERO_PADDING:
        FUZZ_ASSERTF(flags & SMC_STRICT_PADDING, "padding error without SMC_STRICT_PADDING (0x%x)",
                     flags);
        FUZZ_ASSERTF(off < len && data[off] != 0, "not_canonical padding at %zu is a zero byte",
                     off);
        break;
    case SMC_ERR_DEPTH:
        FUZZ_ASSERTF(off < len && is_container_tag(data[off]),
                     "depth_limit at %zu is not on a container tag", off);
        break;
    case SMC_ERR_BAD_METHOD_NAME:
        FUZZ_ASSERT(entry == FUZZ_ENTRY_CALL, "bad method name outside a method call");
        FUZZ_ASSERTF(off == 0 && len > 0 && data[0] != 0x07, "bad method name at %zu", off);
        break;
    case SMC_ERR_BAD_ENVELOPE_FLAG:
        FUZZ_ASSERT(entry == FUZZ_ENTRY_ENVELOPE, "bad flag outside an envelope");
        FUZZ_ASSERTF(off == 0 && len > 0 && data[0] >= 2, "bad envelope flag at %zu", off);
        break;
    case SMC_ERR_BAD_ERROR_CODE:
        FUZZ_ASSERT(entry == FUZZ_ENTRY_ENVELOPE, "bad error code outside an envelope");
        FUZZ_ASSERTF(off == 1 && len > 1 && data[0] == 0x01 && data[1] != 0x07,
                     "bad error code at %zu", off);
        break;
    case SMC_ERR_BAD_ERROR_MESSAGE:
    case SMC_ERR_BAD_STACKTRACE:
        FUZZ_ASSERT(entry == FUZZ_ENTRY_ENVELOPE, "bad message/stacktrace outside an envelope");
        FUZZ_ASSERTF(off >= 3 && off < len && data[0] == 0x01 && data[off] != 0x00 &&
                         data[off] != 0x07,
                     "%s at %zu", smc_status_name(st), off);
        break;
    case SMC_OK:
    case SMC_ERR_NOMEM:
    case SMC_ERR_BUFFER_FULL:
    case SMC_ERR_NOT_ENCODABLE:
    case SMC_ERR_USAGE:
    default:
        fuzz_fail(__FILE__, __LINE__, "known decoder status", "decoder returned %s (0x%x) at %zu",
                  smc_status_name(st), (unsigned)st, off);
    }
}

static bool is_strict_only_failure(smc_status_t st, const smc_error_t *err, const uint8_t *data,
                                   size_t len)
{
    if (st == SMC_ERR_NONMINIMAL_SIZE || st == SMC_ERR_NONZERO_PADDING) {
        return true;
    }
    return st == SMC_ERR_UNKNOWN_TAG && err->offset < len && data[err->offset] == 0x05;
}

void fuzz_check_mode_relation(smc_status_t flutter_st, const smc_error_t *flutter_err,
                              smc_status_t strict_st, const smc_error_t *strict_err,
                              const uint8_t *data, size_t len)
{
    if (flutter_st == SMC_ERR_NOMEM || strict_st == SMC_ERR_NOMEM) {
        return;
    }
    if (strict_st == SMC_OK) {
        FUZZ_ASSERTF(flutter_st == SMC_OK, "strict accepts but flutter rejects with %s at %zu",
                     smc_status_name(flutter_st), flutter_err->offset);
        return;
    }
    if (!is_strict_only_failure(strict_st, strict_err, data, len)) {
        /* The strict decoder met no strict-only fault before this one, so flutter mode reads
         * the same bytes the same way and must stop at the same fault. */
        FUZZ_ASSERTF(flutter_st == strict_st && flutter_err->offset == strict_err->offset,
                     "strict fails with %s at %zu but flutter gives %s at %zu",
                     smc_status_name(strict_st), strict_err->offset, smc_status_name(flutter_st),
                     flutter_err->offset);
        return;
    }
    if (flutter_st != SMC_OK) {
        /* Strict stopped at a strict-only fault, which a left-to-right reader meets no later
         * than flutter meets its own fault. */
        FUZZ_ASSERTF(strict_err->offset <= flutter_err->offset,
                     "strict fault %s at %zu comes after flutter fault %s at %zu",
                     smc_status_name(strict_st), strict_err->offset, smc_status_name(flutter_st),
                     flutter_err->offset);
    }
}

/* ---- counting allocator ---- */

static size_t live_blocks;
static uint64_t bytes_requested; /* every successful request, ever (differences per call) */

/* Each block carries its size in front so `free` can check the caller passes it back. */
#define FUZZ_ALLOC_HEADER 16u

static void *counting_alloc(void *ctx, size_t size)
{
    (void)ctx;
    if (size > SIZE_MAX - FUZZ_ALLOC_HEADER) {
        return NULL;
    }
    uint8_t *p = malloc(size + FUZZ_ALLOC_HEADER);
    if (!p) {
        return NULL;
    }
    memcpy(p, &size, sizeof size);
    live_blocks++;
    bytes_requested += size;
    return p + FUZZ_ALLOC_HEADER;
}

static void counting_free(void *ctx, void *ptr, size_t size)
{
    (void)ctx;
    if (!ptr) {
        return;
    }
    uint8_t *p = (uint8_t *)ptr - FUZZ_ALLOC_HEADER;
    size_t recorded;
    memcpy(&recorded, p, sizeof recorded);
    FUZZ_ASSERTF(recorded == size, "allocator free with size %zu for a block of %zu", size,
                 recorded);
    FUZZ_ASSERT(live_blocks > 0, "free without a live block");
    live_blocks--;
    free(p);
}

static const smc_allocator_t counting_allocator = {counting_alloc, counting_free, NULL};

const smc_allocator_t *fuzz_counting_allocator(void)
{
    return &counting_allocator;
}

size_t fuzz_live_blocks(void)
{
    return live_blocks;
}

uint64_t fuzz_bytes_requested(void)
{
    return bytes_requested;
}

/* ---- values ---- */

bool fuzz_bytes_equal(smc_bytes_t a, smc_bytes_t b)
{
    if (a.len != b.len) {
        return false;
    }
    return a.len == 0 || memcmp(a.ptr, b.ptr, a.len) == 0;
}

/* RFC 3629 well-formedness, written independently of the library's validator so the two
 * check each other (spec §5.3). */
bool fuzz_utf8_well_formed(const uint8_t *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        size_t need;
        uint8_t lo = 0x80, hi = 0xbf;
        if (c < 0x80) {
            i++;
            continue;
        } else if (c >= 0xc2 && c <= 0xdf) {
            need = 1;
        } else if (c >= 0xe0 && c <= 0xef) {
            need = 2;
            if (c == 0xe0) {
                lo = 0xa0; /* no overlong forms */
            } else if (c == 0xed) {
                hi = 0x9f; /* no surrogates */
            }
        } else if (c >= 0xf0 && c <= 0xf4) {
            need = 3;
            if (c == 0xf0) {
                lo = 0x90;
            } else if (c == 0xf4) {
                hi = 0x8f; /* nothing above U+10FFFF */
            }
        } else {
            return false;
        }
        if (n - i - 1 < need) {
            return false;
        }
        if (s[i + 1] < lo || s[i + 1] > hi) {
            return false;
        }
        for (size_t k = 2; k <= need; k++) {
            if (s[i + k] < 0x80 || s[i + k] > 0xbf) {
                return false;
            }
        }
        i += need + 1;
    }
    return true;
}

bool fuzz_view_inside(const uint8_t *p, size_t n, const uint8_t *lo, const uint8_t *hi)
{
    if (n == 0) {
        return true;
    }
    return p != NULL && p >= lo && p <= hi && n <= (size_t)(hi - p);
}

/* An explicit stack so that trees as deep as SMC_MAX_DEPTH_LIMIT never recurse. */
typedef struct tree_frame {
    const smc_value_t *v;
    uint32_t depth; /* containers enclosing v */
} tree_frame_t;

typedef struct tree_stack {
    tree_frame_t *frames;
    size_t len, cap;
} tree_stack_t;

static void stack_push(tree_stack_t *s, const smc_value_t *v, uint32_t depth)
{
    if (s->len == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        tree_frame_t *f = realloc(s->frames, cap * sizeof *f);
        FUZZ_ASSERT(f != NULL, "host out of memory");
        s->frames = f;
        s->cap = cap;
    }
    s->frames[s->len].v = v;
    s->frames[s->len].depth = depth;
    s->len++;
}

bool fuzz_value_has_largeint(const smc_value_t *root)
{
    tree_stack_t s = {NULL, 0, 0};
    bool found = false;
    stack_push(&s, root, 0);
    while (s.len > 0 && !found) {
        const smc_value_t *v = s.frames[--s.len].v;
        switch (v->type) {
        case SMC_TYPE_LARGEINT:
            found = true;
            break;
        case SMC_TYPE_LIST:
            for (size_t i = 0; i < v->list.count; i++) {
                stack_push(&s, &v->list.items[i], 0);
            }
            break;
        case SMC_TYPE_MAP:
            for (size_t i = 0; i < 2 * v->map.count; i++) {
                stack_push(&s, &v->map.entries[i], 0);
            }
            break;
        case SMC_TYPE_CUSTOM:
            stack_push(&s, v->custom.payload, 0);
            break;
        case SMC_TYPE_NULL:
        case SMC_TYPE_BOOL:
        case SMC_TYPE_I32:
        case SMC_TYPE_I64:
        case SMC_TYPE_F64:
        case SMC_TYPE_STR:
        case SMC_TYPE_U8S:
        case SMC_TYPE_I32S:
        case SMC_TYPE_I64S:
        case SMC_TYPE_F64S:
        case SMC_TYPE_F32S:
        default:
            break;
        }
    }
    free(s.frames);
    return found;
}

void fuzz_check_tree(const smc_value_t *root, const uint8_t *lo, const uint8_t *hi)
{
    tree_stack_t s = {NULL, 0, 0};
    FUZZ_ASSERT(root != NULL, "successful decode with a NULL root");
    stack_push(&s, root, 0);
    while (s.len > 0) {
        tree_frame_t f = s.frames[--s.len];
        const smc_value_t *v = f.v;
        size_t width = 0;
        FUZZ_ASSERT(v != NULL, "NULL node inside a tree");
        FUZZ_ASSERTF(v->type == SMC_TYPE_CUSTOM ? v->custom_tag >= 0x80 : v->custom_tag == 0,
                     "type %d with custom_tag %u", (int)v->type, v->custom_tag);
        switch (v->type) {
        case SMC_TYPE_NULL:
        case SMC_TYPE_BOOL:
        case SMC_TYPE_I32:
        case SMC_TYPE_I64:
        case SMC_TYPE_F64:
            break;
        case SMC_TYPE_STR:
        case SMC_TYPE_LARGEINT:
            FUZZ_ASSERT(v->bytes.len == 0 || v->bytes.ptr != NULL, "non-empty text with NULL ptr");
            FUZZ_ASSERT(fuzz_utf8_well_formed(v->bytes.ptr, v->bytes.len),
                        "decoded text is not well-formed UTF-8 (spec §5.3)");
            if (lo) {
                FUZZ_ASSERT(fuzz_view_inside(v->bytes.ptr, v->bytes.len, lo, hi),
                            "aliased text view outside the input");
            }
            break;
        case SMC_TYPE_U8S:
            FUZZ_ASSERT(v->bytes.len == 0 || v->bytes.ptr != NULL, "non-empty bytes with NULL ptr");
            if (lo) {
                FUZZ_ASSERT(fuzz_view_inside(v->bytes.ptr, v->bytes.len, lo, hi),
                            "aliased bytes view outside the input");
            }
            break;
        case SMC_TYPE_I32S:
        case SMC_TYPE_F32S:
            width = 4;
            break;
        case SMC_TYPE_I64S:
        case SMC_TYPE_F64S:
            width = 8;
            break;
        case SMC_TYPE_LIST:
            FUZZ_ASSERT(v->list.count == 0 || v->list.items != NULL, "list items NULL");
            for (size_t i = v->list.count; i-- > 0;) {
                stack_push(&s, &v->list.items[i], f.depth + 1);
            }
            break;
        case SMC_TYPE_MAP:
            FUZZ_ASSERT(v->map.count == 0 || v->map.entries != NULL, "map entries NULL");
            for (size_t i = 2 * v->map.count; i-- > 0;) {
                stack_push(&s, &v->map.entries[i], f.depth + 1);
            }
            break;
        case SMC_TYPE_CUSTOM:
            FUZZ_ASSERT(v->custom.payload != NULL, "custom value without payload");
            stack_push(&s, v->custom.payload, f.depth + 1);
            break;
        default:
            fuzz_fail(__FILE__, __LINE__, "known type", "node of unknown type %d", (int)v->type);
        }
        if (width) {
            FUZZ_ASSERT(v->array.count == 0 || v->array.data != NULL, "typed array data NULL");
            if (lo) {
                FUZZ_ASSERT(v->array.count <= (size_t)(hi - lo) / width &&
                                fuzz_view_inside(v->array.data, v->array.count * width, lo, hi),
                            "aliased typed array outside the input");
            }
        }
    }
    free(s.frames);
}

size_t fuzz_tree_depth(const smc_value_t *root)
{
    tree_stack_t s = {NULL, 0, 0};
    size_t max = 0;
    stack_push(&s, root, 0);
    while (s.len > 0) {
        tree_frame_t f = s.frames[--s.len];
        const smc_value_t *v = f.v;
        if (v->type == SMC_TYPE_LIST || v->type == SMC_TYPE_MAP || v->type == SMC_TYPE_CUSTOM) {
            /* A container at `depth` enclosing containers opens level depth + 1 (spec §15.1). */
            if (f.depth + 1u > max) {
                max = f.depth + 1u;
            }
        }
        if (v->type == SMC_TYPE_LIST) {
            for (size_t i = 0; i < v->list.count; i++) {
                stack_push(&s, &v->list.items[i], f.depth + 1);
            }
        } else if (v->type == SMC_TYPE_MAP) {
            for (size_t i = 0; i < 2 * v->map.count; i++) {
                stack_push(&s, &v->map.entries[i], f.depth + 1);
            }
        } else if (v->type == SMC_TYPE_CUSTOM) {
            stack_push(&s, v->custom.payload, f.depth + 1);
        }
    }
    free(s.frames);
    return max;
}
