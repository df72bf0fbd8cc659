/*
 * Canonical encoder (spec §13). Sticky first error; when the buffer is too small the
 * writer keeps counting so the caller learns the exact size needed (house style rule 10).
 *
 * One core writes every value: the emit_* functions below make a value's checks, in one
 * order, and write its bytes through one output cursor. The streaming calls
 * (smc_writer_put_*, begin_*) are "count the value against the open container, then emit",
 * and the tree walk (smc_writer_put_value) counts the root the same way and emits every node
 * with the same functions, so both make the same checks in the same order by construction.
 */
#include "copy_short.h"
#include "read_item.h" /* smci_utf8_valid_fast */

/* open[] entries: values still expected, with the container kind in the top bits. */
#define KIND_SHIFT  62
#define KIND_LIST   UINT64_C(1)
#define KIND_MAP    UINT64_C(2)
#define KIND_CUSTOM UINT64_C(3)
#define COUNT_MASK  ((UINT64_C(1) << KIND_SHIFT) - 1)
#define MAX_SIZE    UINT64_C(0xFFFFFFFF)

/* ---- the output cursor ---- */

/*
 * Output state in locals while values are emitted: byte stores through a uint8_t pointer may
 * alias anything, so with the position in *w every store would force a reload of pos, cap and
 * buf. Taken from *w and written back by the callers (out_begin, out_end).
 */
typedef struct out {
    uint8_t *buf;
    size_t room; /* bytes that still fit at buf + pos: 0 without a buffer or once one missed */
    size_t pos;
    size_t origin;
} out_t;

static out_t out_begin(const smc_writer_t *w)
{
    /* cap is 0 without a buffer (smc_writer_init_at), so room is too */
    size_t room = w->pos <= w->cap ? w->cap - w->pos : 0;
    out_t o = {w->buf, room, w->pos, w->origin};
    return o;
}

static void fail(smc_writer_t *w, smc_status_t st)
{
    if (w->error.status == SMC_OK) {
        w->error.status = st;
        w->error.offset = w->pos;
    }
}

/* Back to *w; an error is recorded at the position where the failing value starts (emitters
 * write nothing when they fail). */
static void out_end(smc_writer_t *w, out_t o, smc_status_t st)
{
    w->pos = o.pos;
    if (st != SMC_OK) {
        fail(w, st);
    }
}

/*
 * Where n output bytes go, or NULL when they do not fit; the count still advances so the final
 * size is exact. It stops at SIZE_MAX (an output no memory can hold: smc_writer_finish reports
 * it as not encodable); values of caller-chosen length check out_room first, so they fail
 * where they start, and every other value is a few bytes.
 */
SMCI_INLINE uint8_t *out_reserve(out_t *o, size_t n)
{
    /* One comparison (callgrind: the tests of pos <= cap, the room and buf cost ~4
     * instructions a value): 1 <= n <= room, and room is 0 without a buffer, so buf is
     * non-NULL here. n = 0 takes the other branch and gets NULL (no bytes to write). */
    if (SMCI_LIKELY(n - 1 < o->room)) {
        uint8_t *dst = o->buf + o->pos;
        o->pos += n;
        o->room -= n;
        return dst;
    }
    if (n > o->room) {
        o->room = 0; /* pos passes cap: nothing fits any more */
    }
    o->pos = n <= SIZE_MAX - o->pos ? o->pos + n : SIZE_MAX;
    return NULL;
}

/* Whether n more output bytes keep the count below SIZE_MAX. */
SMCI_INLINE bool out_room(const out_t *o, size_t n)
{
    return n < SIZE_MAX - o->pos;
}

/* spec §2.2: the length of the shortest size form of n, and that form at dst (room for 5). */
SMCI_INLINE size_t size_len(uint64_t n)
{
    return n < 254 ? 1 : n <= 0xFFFF ? 3 : 5;
}

SMCI_INLINE void store_size(uint8_t *dst, uint32_t n)
{
    if (n < 254) {
        dst[0] = (uint8_t)n;
    } else if (n <= 0xFFFF) {
        dst[0] = 254;
        dst[1] = (uint8_t)n;
        dst[2] = (uint8_t)(n >> 8);
    } else {
        dst[0] = 255;
        smci_store_le32(dst + 1, n);
    }
}

/* ---- one value: its checks, then its bytes ---- */

/* A tag and `extra` (≤ 15) bytes after it; *rest is where they go, NULL when they do not fit. */
SMCI_INLINE smc_status_t emit_fixed(out_t *o, uint8_t tag, size_t extra, uint8_t **rest)
{
    uint8_t *dst = out_reserve(o, 1 + extra);
    *rest = NULL;
    if (dst != NULL) {
        dst[0] = tag;
        *rest = dst + 1;
    }
    return SMC_OK;
}

SMCI_INLINE smc_status_t emit_i32(out_t *o, int32_t v)
{
    uint8_t *dst;
    uint32_t u;
    memcpy(&u, &v, sizeof u);
    smc_status_t st = emit_fixed(o, SMCI_TAG_I32, 4, &dst); /* spec §4.2: no alignment */
    if (dst != NULL) {
        smci_store_le32(dst, u);
    }
    return st;
}

SMCI_INLINE smc_status_t emit_i64(out_t *o, int64_t v)
{
    uint8_t *dst;
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    smc_status_t st = emit_fixed(o, SMCI_TAG_I64, 8, &dst);
    if (dst != NULL) {
        smci_store_le64(dst, u);
    }
    return st;
}

/* spec §4.3: tag, zero padding to 8 from the message origin, 8 bytes. */
SMCI_INLINE smc_status_t emit_f64(out_t *o, uint64_t bits)
{
    uint8_t *dst;
    size_t pad = smci_pad(o->origin + o->pos + 1, 8);
    smc_status_t st = emit_fixed(o, SMCI_TAG_F64, pad + 8, &dst);
    if (dst != NULL) {
        /* spec §3.2: zero padding. pad ≤ 7 and dst has pad + 8 bytes, so one 8-byte zero
         * store covers the padding and the value overwrites the rest: a variable-length
         * memset cost ~30 instructions per float64 (callgrind, c_latlng_1000 encode). */
        smci_store_le64(dst, 0);
        smci_store_le64(dst + pad, bits);
    }
    return st;
}

/*
 * Tag, size (≤ MAX_SIZE, checked by the caller), zero padding to `align` (1: none) and room
 * for `len` payload bytes, in one reservation (spec §5, §6). *payload is where the payload
 * goes, NULL when it does not fit.
 */
SMCI_INLINE smc_status_t emit_sized(out_t *o, uint8_t tag, uint32_t size, size_t align, size_t len,
                                    uint8_t **payload)
{
    size_t head = 1 + size_len(size);
    size_t pad = align > 1 ? smci_pad(o->origin + o->pos + head, align) : 0;
    *payload = NULL;
    if (len > SIZE_MAX - head - pad || !out_room(o, head + pad + len)) {
        return SMC_ERR_NOT_ENCODABLE;
    }
    uint8_t *dst = out_reserve(o, head + pad + len);
    if (dst != NULL) {
        dst[0] = tag;
        store_size(dst + 1, size);
        if (pad > 0) {
            memset(dst + head, 0, pad); /* spec §3.2 */
        }
        *payload = dst + head + pad;
    }
    return SMC_OK;
}

/* A sized value whose payload is copied from `src`. */
SMCI_INLINE smc_status_t emit_copy(out_t *o, uint8_t tag, uint32_t size, size_t align,
                                   const uint8_t *src, size_t len)
{
    uint8_t *dst;
    smc_status_t st = emit_sized(o, tag, size, align, len, &dst);
    if (dst != NULL) {
        smci_copy_short(dst, src, len); /* strings are mostly short (copy_short.h) */
    }
    return st;
}

/* spec §5: the size first (before looking at the bytes), then well-formed UTF-8 (§5.3). */
SMCI_INLINE smc_status_t emit_str(out_t *o, const uint8_t *s, size_t len)
{
    size_t bad;
    if ((uint64_t)len > MAX_SIZE) {
        return SMC_ERR_NOT_ENCODABLE; /* spec §15.2 */
    }
    if (len > 0 && !smci_utf8_valid_fast(s, len, &bad)) {
        return SMC_ERR_NOT_ENCODABLE;
    }
    return emit_copy(o, SMCI_TAG_STR, (uint32_t)len, 1, s, len);
}

/* spec §6.1 */
SMCI_INLINE smc_status_t emit_u8s(out_t *o, const uint8_t *bytes, size_t len)
{
    if ((uint64_t)len > MAX_SIZE) {
        return SMC_ERR_NOT_ENCODABLE; /* spec §15.2 */
    }
    return emit_copy(o, SMCI_TAG_U8S, (uint32_t)len, 1, bytes, len);
}

/* A typed list's tag is its type's number (smc_types.h numbers types by wire tag). */
SMCI_INLINE bool is_typed_list(smc_type_t type)
{
    return type == SMC_TYPE_I32S || type == SMC_TYPE_I64S || type == SMC_TYPE_F64S ||
           type == SMC_TYPE_F32S;
}

/* spec §6.2–6.6: tag, count, zero padding (always, also when empty), room for the elements
 * at *elems (NULL when they do not fit). `type` must be a typed-list type (else USAGE). */
SMCI_INLINE smc_status_t emit_array(out_t *o, smc_type_t type, size_t count, uint8_t **elems)
{
    *elems = NULL;
    if (!is_typed_list(type)) {
        return SMC_ERR_USAGE;
    }
    size_t width = smc_typed_list_width(type);
    if (count > SIZE_MAX / width || (uint64_t)count > MAX_SIZE) {
        return SMC_ERR_NOT_ENCODABLE; /* spec §15.2 */
    }
    return emit_sized(o, (uint8_t)type, (uint32_t)count, width, count * width, elems);
}

/*
 * The head of a container (spec §7, §8): for a custom value its tag (128..255, §8.1), then
 * the depth limit against the `open` containers around it, then for a list or map its count
 * (≤ MAX_SIZE, §15.2). Its values are the caller's business.
 */
SMCI_INLINE smc_status_t emit_container(out_t *o, smc_type_t type, unsigned custom_tag,
                                        size_t count, size_t open)
{
    bool custom = type == SMC_TYPE_CUSTOM;
    if (custom && (custom_tag < SMCI_TAG_CUSTOM_MIN || custom_tag > 0xFF)) {
        return SMC_ERR_NOT_ENCODABLE;
    }
    if (open >= SMC_MAX_DEPTH_LIMIT) {
        return SMC_ERR_DEPTH;
    }
    if (!custom && (uint64_t)count > MAX_SIZE) {
        return SMC_ERR_NOT_ENCODABLE;
    }
    uint8_t *dst = out_reserve(o, custom ? 1 : 1 + size_len(count));
    if (dst != NULL) {
        dst[0] = custom                  ? (uint8_t)custom_tag
                 : type == SMC_TYPE_LIST ? SMCI_TAG_LIST
                                         : SMCI_TAG_MAP;
        if (!custom) {
            store_size(dst + 1, (uint32_t)count);
        }
    }
    return SMC_OK;
}

/* One node of a tree; containers write only their head (smc_writer_put_value walks the
 * children), and give their `*n` children from `*first` (*n stays 0 for a leaf): the walk
 * then needs no second test of the type (callgrind, c_latlng_1000 encode: ~5 instructions a
 * value). `open` counts the containers around the node, the writer's own included. */
SMCI_INLINE smc_status_t emit_node(out_t *o, const smc_value_t *v, size_t open,
                                   const smc_value_t **first, size_t *n)
{
    uint8_t *dst;
    smc_status_t st;
    switch (v->type) {
    case SMC_TYPE_NULL:
    case SMC_TYPE_BOOL:
        st = emit_fixed(o,
                        v->type == SMC_TYPE_NULL ? SMCI_TAG_NULL
                        : v->boolean             ? SMCI_TAG_TRUE
                                                 : SMCI_TAG_FALSE,
                        0, &dst);
        return st;
    case SMC_TYPE_I32:
        return emit_i32(o, v->i32);
    case SMC_TYPE_I64:
        return emit_i64(o, v->i64);
    case SMC_TYPE_F64:
        return emit_f64(o, v->f64_bits);
    case SMC_TYPE_LARGEINT:
        return SMC_ERR_NOT_ENCODABLE; /* spec §4.4: tag 5 is never written */
    case SMC_TYPE_STR:
        return emit_str(o, v->bytes.ptr, v->bytes.len);
    case SMC_TYPE_U8S:
        return emit_u8s(o, v->bytes.ptr, v->bytes.len);
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        st = emit_array(o, v->type, v->array.count, &dst);
        if (dst != NULL && v->array.count > 0) {
            memcpy(dst, v->array.data, v->array.count * smc_typed_list_width(v->type));
        }
        return st;
    case SMC_TYPE_LIST:
        *first = v->list.items;
        *n = v->list.count;
        return emit_container(o, SMC_TYPE_LIST, 0, v->list.count, open);
    case SMC_TYPE_MAP:
        *first = v->map.entries;
        *n = 2 * v->map.count; /* count ≤ MAX_SIZE, or emit_container fails */
        return emit_container(o, SMC_TYPE_MAP, 0, v->map.count, open);
    case SMC_TYPE_CUSTOM:
        if (v->custom.payload == NULL) {
            return SMC_ERR_NOT_ENCODABLE; /* a custom value holds exactly one value (§8.1) */
        }
        *first = v->custom.payload;
        *n = 1;
        return emit_container(o, SMC_TYPE_CUSTOM, v->custom_tag, 1, open);
    }
    return SMC_ERR_NOT_ENCODABLE; /* a type outside smc_type_t */
}

/* A string of ≤ 32 bytes, copied if all are ASCII: the words the ASCII test ORs are the
 * words stored (one pass over the bytes, as in the tree decoder), loaded before anything is
 * stored, so a string that is not ASCII leaves the output untouched for emit_node. */
SMCI_INLINE bool put_short_ascii(uint8_t *dst, const uint8_t *s, size_t len)
{
    if (len > 16) {
        /* 17..32: the first 16 and the last 16 bytes (overlapping when len < 32). Each size
         * class apart: one index for all of 8..32 (`mid`) left gcc spilling the four words
         * to the stack (callgrind, g_map10000_str encode: ~12 instructions a string). */
        uint64_t w0, w1, w2, w3;
        memcpy(&w0, s, 8);
        memcpy(&w1, s + 8, 8);
        memcpy(&w2, s + len - 16, 8);
        memcpy(&w3, s + len - 8, 8);
        if (((w0 | w1 | w2 | w3) & UINT64_C(0x8080808080808080)) != 0) {
            return false;
        }
        memcpy(dst, &w0, 8);
        memcpy(dst + 8, &w1, 8);
        memcpy(dst + len - 16, &w2, 8);
        memcpy(dst + len - 8, &w3, 8);
        return true;
    }
    if (len >= 8) {
        /* 8..16: the first and the last 8 bytes */
        uint64_t w0, w1;
        memcpy(&w0, s, 8);
        memcpy(&w1, s + len - 8, 8);
        if (((w0 | w1) & UINT64_C(0x8080808080808080)) != 0) {
            return false;
        }
        memcpy(dst, &w0, 8);
        memcpy(dst + len - 8, &w1, 8);
        return true;
    }
    if (len >= 4) {
        uint32_t a, b;
        memcpy(&a, s, 4);
        memcpy(&b, s + len - 4, 4);
        if (((a | b) & 0x80808080u) != 0) {
            return false;
        }
        memcpy(dst, &a, 4);
        memcpy(dst + len - 4, &b, 4);
        return true;
    }
    if (len > 0) {
        /* 1..3: first, middle and last byte cover them */
        uint8_t a = s[0], b = s[len / 2], c = s[len - 1];
        if (((a | b | c) & 0x80) != 0) {
            return false;
        }
        dst[0] = a;
        dst[len / 2] = b;
        dst[len - 1] = c;
    }
    return true;
}

/* ---- the streaming writer ---- */

static bool ok(const smc_writer_t *w)
{
    return w->error.status == SMC_OK;
}

/* Count one value against the innermost open container (too many → SMC_ERR_USAGE). Every
 * value, streamed or the root of a tree, passes here first. */
static bool value_start(smc_writer_t *w)
{
    if (!ok(w)) {
        return false;
    }
    if (w->depth > 0) {
        uint64_t *top = &w->open[w->depth - 1];
        if ((*top & COUNT_MASK) == 0) {
            fail(w, SMC_ERR_USAGE);
            return false;
        }
        (*top)--;
    }
    return true;
}

size_t smc_size_field_len(uint64_t n)
{
    return size_len(n);
}

void smc_writer_init_at(smc_writer_t *w, uint8_t *buf, size_t cap, size_t origin)
{
    w->buf = buf;
    w->cap = buf != NULL ? cap : 0;
    w->pos = 0;
    w->origin = origin;
    w->error.status = SMC_OK;
    w->error.offset = 0;
    w->depth = 0;
}

void smc_writer_init(smc_writer_t *w, uint8_t *buf, size_t cap)
{
    smc_writer_init_at(w, buf, cap, 0);
}

void smc_writer_put_null(smc_writer_t *w)
{
    if (value_start(w)) {
        uint8_t *dst;
        out_t o = out_begin(w);
        out_end(w, o, emit_fixed(&o, SMCI_TAG_NULL, 0, &dst));
    }
}

void smc_writer_put_bool(smc_writer_t *w, bool v)
{
    if (value_start(w)) {
        uint8_t *dst;
        out_t o = out_begin(w);
        out_end(w, o, emit_fixed(&o, v ? SMCI_TAG_TRUE : SMCI_TAG_FALSE, 0, &dst));
    }
}

void smc_writer_put_i32(smc_writer_t *w, int32_t v)
{
    if (value_start(w)) {
        out_t o = out_begin(w);
        out_end(w, o, emit_i32(&o, v));
    }
}

void smc_writer_put_i64(smc_writer_t *w, int64_t v)
{
    if (value_start(w)) {
        out_t o = out_begin(w);
        out_end(w, o, emit_i64(&o, v));
    }
}

void smc_writer_put_f64_bits(smc_writer_t *w, uint64_t bits)
{
    if (value_start(w)) {
        out_t o = out_begin(w);
        out_end(w, o, emit_f64(&o, bits));
    }
}

void smc_writer_put_f64(smc_writer_t *w, double v)
{
    smc_writer_put_f64_bits(w, smc_f64_to_bits(v));
}

void smc_writer_put_str(smc_writer_t *w, const void *s, size_t len)
{
    if (value_start(w)) {
        out_t o = out_begin(w);
        /* A string of ≤ 32 ASCII bytes that fits (and whose end stays below SIZE_MAX, as
         * out_room asks) is written here; emit_str makes every check of any other, or of
         * this one again when it is not ASCII (callgrind, g_error_envelope encode: ~30
         * instructions per call on emit_str's path). */
        if (len <= 32 && o.room >= 2 + len && o.pos + 2 + len < SIZE_MAX &&
            put_short_ascii(o.buf + o.pos + 2, (const uint8_t *)s, len)) {
            o.buf[o.pos] = SMCI_TAG_STR;
            o.buf[o.pos + 1] = (uint8_t)len;
            w->pos = o.pos + 2 + len;
            return;
        }
        out_end(w, o, emit_str(&o, (const uint8_t *)s, len));
    }
}

void smc_writer_put_u8s(smc_writer_t *w, const void *bytes, size_t len)
{
    if (value_start(w)) {
        out_t o = out_begin(w);
        out_end(w, o, emit_u8s(&o, (const uint8_t *)bytes, len));
    }
}

void smc_writer_put_largeint(smc_writer_t *w, const void *s, size_t len)
{
    (void)s;
    (void)len;
    if (value_start(w)) {
        fail(w, SMC_ERR_NOT_ENCODABLE); /* spec §4.4: tag 5 is never written */
    }
}

/* A typed list: the head through the core, then the caller's element loop at the returned
 * address (NULL: no room, or an error, recorded). */
static uint8_t *put_array_head(smc_writer_t *w, smc_type_t type, size_t count)
{
    uint8_t *elems = NULL;
    if (value_start(w)) {
        out_t o = out_begin(w);
        out_end(w, o, emit_array(&o, type, count, &elems));
    }
    return elems;
}

void smc_writer_put_array_le(smc_writer_t *w, smc_type_t type, const uint8_t *le_bytes,
                             size_t count)
{
    uint8_t *dst = put_array_head(w, type, count);
    if (dst != NULL && count > 0) {
        memcpy(dst, le_bytes, count * smc_typed_list_width(type));
    }
}

void smc_writer_put_i32s(smc_writer_t *w, const int32_t *vals, size_t count)
{
    uint8_t *dst = put_array_head(w, SMC_TYPE_I32S, count);
    for (size_t i = 0; dst != NULL && i < count; i++) {
        uint32_t u;
        memcpy(&u, &vals[i], sizeof u);
        smci_store_le32(dst + 4 * i, u);
    }
}

void smc_writer_put_i64s(smc_writer_t *w, const int64_t *vals, size_t count)
{
    uint8_t *dst = put_array_head(w, SMC_TYPE_I64S, count);
    for (size_t i = 0; dst != NULL && i < count; i++) {
        uint64_t u;
        memcpy(&u, &vals[i], sizeof u);
        smci_store_le64(dst + 8 * i, u);
    }
}

void smc_writer_put_f64s_bits(smc_writer_t *w, const uint64_t *bits, size_t count)
{
    uint8_t *dst = put_array_head(w, SMC_TYPE_F64S, count);
    for (size_t i = 0; dst != NULL && i < count; i++) {
        smci_store_le64(dst + 8 * i, bits[i]);
    }
}

void smc_writer_put_f32s_bits(smc_writer_t *w, const uint32_t *bits, size_t count)
{
    uint8_t *dst = put_array_head(w, SMC_TYPE_F32S, count);
    for (size_t i = 0; dst != NULL && i < count; i++) {
        smci_store_le32(dst + 4 * i, bits[i]);
    }
}

static void begin(smc_writer_t *w, smc_type_t type, unsigned custom_tag, size_t count,
                  uint64_t kind, uint64_t values)
{
    if (!value_start(w)) {
        return;
    }
    out_t o = out_begin(w);
    smc_status_t st = emit_container(&o, type, custom_tag, count, w->depth);
    out_end(w, o, st);
    if (st == SMC_OK) {
        w->open[w->depth++] = kind << KIND_SHIFT | values; /* depth < limit: emit_container */
    }
}

static void end(smc_writer_t *w, uint64_t kind)
{
    if (!ok(w)) {
        return;
    }
    if (w->depth == 0 || w->open[w->depth - 1] != kind << KIND_SHIFT) {
        fail(w, SMC_ERR_USAGE); /* nothing open, another kind open, or values missing */
        return;
    }
    w->depth--;
}

void smc_writer_begin_list(smc_writer_t *w, size_t count)
{
    begin(w, SMC_TYPE_LIST, 0, count, KIND_LIST, count);
}

void smc_writer_end_list(smc_writer_t *w)
{
    end(w, KIND_LIST);
}

void smc_writer_begin_map(smc_writer_t *w, size_t count)
{
    begin(w, SMC_TYPE_MAP, 0, count, KIND_MAP, 2 * (uint64_t)count);
}

void smc_writer_end_map(smc_writer_t *w)
{
    end(w, KIND_MAP);
}

void smc_writer_begin_custom(smc_writer_t *w, unsigned tag)
{
    begin(w, SMC_TYPE_CUSTOM, tag, 1, KIND_CUSTOM, 1);
}

void smc_writer_end_custom(smc_writer_t *w)
{
    end(w, KIND_CUSTOM);
}

void smc_writer_put_raw(smc_writer_t *w, const void *bytes, size_t len)
{
    if (!ok(w)) {
        return;
    }
    out_t o = out_begin(w);
    if (!out_room(&o, len)) {
        fail(w, SMC_ERR_NOT_ENCODABLE);
        return;
    }
    uint8_t *dst = out_reserve(&o, len);
    if (dst != NULL && len > 0) {
        memcpy(dst, bytes, len);
    }
    out_end(w, o, SMC_OK);
}

/* ---- the tree walk ---- */

/*
 * The walk's fast cases (smc_writer_put_value): the common form of each node written straight
 * at buf + pos when the output has room for it, with no out-of-line result to test (emit_*
 * return NULL for "no room", so every value tested its output address again: callgrind,
 * c_latlng_1000 encode, ~3 instructions a value). Each takes only a node whose checks all pass
 * (a string of ≤ 32 ASCII bytes, a list or map of < 254 entries, a custom value with its tag
 * and payload, below the depth limit); any other node, and every node once the output is
 * full or absent (room 0: the size count), goes to emit_node, which makes all the checks
 * from the start. So statuses, offsets and the bytes written are those of emit_node by
 * construction; the fast cases only skip tests whose outcome they already know.
 */

/* A string of any length that is well-formed UTF-8 (spec §5.3), copied; false (nothing
 * written) when it is not. The walk calls it for ≤ 32 bytes only once put_short_ascii has
 * found a byte ≥ 0x80 (with the same room test), so those go to the validator without a
 * second ASCII test (callgrind, g_error_envelope encode: ~3 instructions a string). */
static bool put_text(uint8_t *dst, const uint8_t *s, size_t len)
{
    size_t bad;
    if (len <= 32 ? !smci_utf8_valid(s, len, &bad) : !smci_utf8_valid_fast(s, len, &bad)) {
        return false;
    }
    smci_copy_short(dst, s, len);
    return true;
}

/* A typed list of 1..253 elements of `width` bytes (4 or 8) whose tag, count, padding from the
 * message origin (spec §6.2–6.5) and elements fit in o->room: written, and true. Else false,
 * nothing written. With count ≥ 1 the elements are at least `width` bytes, so one zero store
 * of `width` bytes after the count covers the padding (< width) and stays inside the value
 * (emit_sized's variable-length memset was compiled into a byte loop, and its memcpy call:
 * callgrind, b_anr_1000 encode, ~120 instructions per typed list on emit_node's path). */
SMCI_INLINE bool put_typed_list(out_t *o, uint8_t *buf, const smc_value_t *v, size_t width)
{
    size_t count = v->array.count;
    size_t pad = smci_pad(o->origin + o->pos + 2, width);
    size_t len = count * width; /* count < 254: no overflow */
    if (!(count - 1 < 253 && o->room >= 2 + pad + len)) {
        return false;
    }
    uint8_t *dst = buf + o->pos;
    dst[0] = (uint8_t)v->type; /* smc_types.h numbers typed lists by their tag */
    dst[1] = (uint8_t)count;
    if (width == 8) {
        smci_store_le64(dst + 2, 0);
    } else {
        smci_store_le32(dst + 2, 0);
    }
    smci_copy_short(dst + 2 + pad, v->array.data, len);
    o->pos += 2 + pad + len;
    o->room -= 2 + pad + len;
    return true;
}

void smc_writer_put_value(smc_writer_t *w, const smc_value_t *v)
{
    /* Explicit stack of sibling ranges (no recursion). The root is counted like any streamed
     * value; below it the walk visits exactly the children each container declares, so it
     * emits every node directly, without counting in w->open. */
    struct frame {
        const smc_value_t *next, *end;
        size_t level;
    } stack[SMC_MAX_DEPTH_LIMIT + 1]; /* the bottom frame, and one per container open with one */
    if (!ok(w)) {
        return;
    }
    if (v == NULL) {
        fail(w, SMC_ERR_USAGE);
        return;
    }
    if (!value_start(w)) {
        return;
    }
    /* `o` is passed by value to out_end below, never by address, so its fields stay in
     * registers across the walk; the innermost container's cursor is in `next`/`end`, and
     * each frame below `top` keeps the cursor (and `level`) of the range around it (NULL,
     * NULL at the bottom: "done"), as in the tree decoder (callgrind, c_latlng_1000 encode:
     * `o` and the top frame were stored and reloaded at every value). */
    out_t o = out_begin(w);
    /* The fast cases test only n <= room, not out_room's pos + n < SIZE_MAX: with room at most
     * SIZE_MAX - 1 - pos, the one implies the other. (Only a cap of SIZE_MAX could reach it;
     * a value ending exactly at SIZE_MAX then goes to out_reserve's miss path, which counts
     * pos to SIZE_MAX as the write would have, and smc_writer_finish fails both alike.) */
    if (o.room > SIZE_MAX - 1 - o.pos) {
        o.room = SIZE_MAX - 1 - o.pos;
    }
    uint8_t *const buf = o.buf; /* dereferenced only after a test of room (0 without buf) */
    struct frame *top = stack + 1;
    stack[0].level = w->depth; /* the root's: the frame below the first (never popped) */
    const smc_value_t *next = NULL;
    const smc_value_t *end = NULL;
    /* The containers around v (the writer's own included) are OPEN: the level of the range
     * next..end (top[-1].level, set at the push) plus `chain`, the custom values of the fast
     * case directly above v, which open no frame: a custom value's one value is emitted next
     * at one level more, and the step to the following sibling sets chain back to 0
     * (callgrind, c_latlng_1000 encode: the custom value's frame push, its close and the
     * extra step cost ~20 instructions a LatLng; a separate `open` kept up at every step,
     * ~1 a value more on every payload, was spilled to the stack). */
    size_t chain = 0;
#define OPEN (top[-1].level + chain)
    for (;;) {
        const smc_value_t *first = NULL;
        size_t n = 0;
        switch (v->type) {
        case SMC_TYPE_NULL:
            if (SMCI_LIKELY(o.room >= 1)) {
                buf[o.pos] = SMCI_TAG_NULL;
                o.pos += 1;
                o.room -= 1;
                goto step;
            }
            break;
        case SMC_TYPE_BOOL:
            if (SMCI_LIKELY(o.room >= 1)) {
                buf[o.pos] = v->boolean ? SMCI_TAG_TRUE : SMCI_TAG_FALSE;
                o.pos += 1;
                o.room -= 1;
                goto step;
            }
            break;
        case SMC_TYPE_I32:
            if (SMCI_LIKELY(o.room >= 5)) {
                uint32_t u;
                memcpy(&u, &v->i32, sizeof u);
                buf[o.pos] = SMCI_TAG_I32;
                smci_store_le32(buf + o.pos + 1, u);
                o.pos += 5;
                o.room -= 5;
                goto step;
            }
            break;
        case SMC_TYPE_I64:
            if (SMCI_LIKELY(o.room >= 9)) {
                uint64_t u;
                memcpy(&u, &v->i64, sizeof u);
                buf[o.pos] = SMCI_TAG_I64;
                smci_store_le64(buf + o.pos + 1, u);
                o.pos += 9;
                o.room -= 9;
                goto step;
            }
            break;
        case SMC_TYPE_F64: {
            size_t pad = smci_pad(o.origin + o.pos + 1, 8);
            if (SMCI_LIKELY(o.room >= 9 + pad)) {
                uint8_t *dst = buf + o.pos;
                dst[0] = SMCI_TAG_F64;
                smci_store_le64(dst + 1, 0); /* the padding (emit_f64) */
                smci_store_le64(dst + 1 + pad, v->f64_bits);
                o.pos += 9 + pad;
                o.room -= 9 + pad;
                goto step;
            }
            break;
        }
        case SMC_TYPE_STR: {
        t_str:;
            size_t len = v->bytes.len;
            if (SMCI_LIKELY(len <= 32 && o.room >= 2 + len) &&
                put_short_ascii(buf + o.pos + 2, v->bytes.ptr, len)) {
                buf[o.pos] = SMCI_TAG_STR;
                buf[o.pos + 1] = (uint8_t)len;
                o.pos += 2 + len;
                o.room -= 2 + len;
                /* A next sibling that is a string goes straight back to this case, without
                 * the loop's dispatch (its range test and indirect jump); another one
                 * straight to the step to it (next != end is known). A map's string keys and
                 * values (callgrind, g_map10000_str encode: 43.0 → 37.5 instructions a
                 * value). Not done for the other leaves: for float64s and int32s it cost
                 * more than it saved (b_anr_1000 29.5 → 30.9, a_list1000_i32 20.2 → 21.2).
                 * Strings do not read `chain`; the step resets it. */
                if (SMCI_LIKELY(next != end)) {
                    if (next->type == SMC_TYPE_STR) {
                        v = next++;
                        goto t_str;
                    }
                    goto sibling;
                }
                goto step;
            }
            /* Not ASCII, or 33..253 bytes: the full validator and the copy here too, without
             * emit_node's second dispatch, the size checks a 1-byte size needs no more of, and
             * its second ASCII test (callgrind, g_error_envelope encode: ~40 instructions per
             * such string). An ill-formed one goes to emit_node, which finds it again. */
            if (len < 254 && o.room >= 2 + len && put_text(buf + o.pos + 2, v->bytes.ptr, len)) {
                buf[o.pos] = SMCI_TAG_STR;
                buf[o.pos + 1] = (uint8_t)len;
                o.pos += 2 + len;
                o.room -= 2 + len;
                goto step;
            }
            break;
        }
        case SMC_TYPE_LIST:
            n = v->list.count;
            first = v->list.items;
            if (SMCI_LIKELY(n < 254 && o.room >= 2 && OPEN < SMC_MAX_DEPTH_LIMIT)) {
                buf[o.pos] = SMCI_TAG_LIST;
                buf[o.pos + 1] = (uint8_t)n;
                o.pos += 2;
                o.room -= 2;
                goto opened;
            }
            break;
        case SMC_TYPE_MAP:
            n = 2 * v->map.count; /* count < 127 here; emit_node checks the other ones */
            first = v->map.entries;
            if (SMCI_LIKELY(v->map.count < 254 && o.room >= 2 && OPEN < SMC_MAX_DEPTH_LIMIT)) {
                buf[o.pos] = SMCI_TAG_MAP;
                buf[o.pos + 1] = (uint8_t)v->map.count;
                o.pos += 2;
                o.room -= 2;
                goto opened;
            }
            break;
        case SMC_TYPE_CUSTOM:
            n = 1;
            first = v->custom.payload;
            if (SMCI_LIKELY(first != NULL && v->custom_tag >= SMCI_TAG_CUSTOM_MIN && o.room >= 1 &&
                            OPEN < SMC_MAX_DEPTH_LIMIT)) {
                buf[o.pos] = v->custom_tag;
                o.pos += 1;
                o.room -= 1;
                v = first;
                chain++; /* OPEN ≤ SMC_MAX_DEPTH_LIMIT: the payload makes its own test */
                continue;
            }
            break;
        case SMC_TYPE_I32S:
        case SMC_TYPE_F32S:
            if (put_typed_list(&o, buf, v, 4)) {
                goto step;
            }
            break;
        case SMC_TYPE_I64S:
        case SMC_TYPE_F64S:
            if (put_typed_list(&o, buf, v, 8)) {
                goto step;
            }
            break;
        case SMC_TYPE_LARGEINT:
        case SMC_TYPE_U8S:
        default:
            break;
        }
        /* Every other node, and every node without room: the checks from the start. */
        first = NULL;
        n = 0;
        smc_status_t st = emit_node(&o, v, OPEN, &first, &n);
        if (!SMCI_LIKELY(st == SMC_OK)) {
            out_end(w, o, st);
            return;
        }
    opened:
        if (n > 0) {
            if (first == NULL) {
                out_end(w, o, SMC_ERR_USAGE); /* inconsistent tree */
                return;
            }
            /* emit_container refused open ≥ SMC_MAX_DEPTH_LIMIT, and frames are at most the
             * containers open, so the stack has room */
            top->next = next;
            top->end = end;
            top->level = OPEN + 1;
            top++;
            next = first;
            end = first + n;
        }
    step:
        /* Close finished containers, then move to the next sibling. At depth 0 next == end
         * (both NULL), so one comparison per value decides both. Marked unlikely so that gcc
         * lays the step to the next sibling inline, falling into the loop head, instead of
         * jumping out to it and back (callgrind, g_map10000_str encode: 48.0 → 43.0
         * instructions a value). */
        while (!SMCI_LIKELY(next != end)) {
            if (top == stack + 1) {
                out_end(w, o, SMC_OK);
                return;
            }
            top--;
            next = top->next;
            end = top->end;
        }
    sibling:
        v = next++;
        chain = 0;
    }
}
#undef OPEN

size_t smc_writer_size(const smc_writer_t *w)
{
    return w->pos;
}

smc_status_t smc_writer_status(const smc_writer_t *w)
{
    return w->error.status;
}

smc_status_t smc_writer_finish(smc_writer_t *w, size_t *written_or_needed, smc_error_t *err)
{
    if (ok(w) && w->depth != 0) {
        fail(w, SMC_ERR_USAGE); /* a container was left open */
    }
    if (ok(w) && w->pos == SIZE_MAX) {
        fail(w, SMC_ERR_NOT_ENCODABLE); /* the count stopped there: no memory holds it */
    }
    smc_status_t st = w->error.status;
    size_t off = w->error.offset;
    if (st == SMC_OK && w->pos > w->cap) {
        st = SMC_ERR_BUFFER_FULL;
        off = w->cap;
    }
    if (written_or_needed != NULL) {
        *written_or_needed = st == SMC_OK || st == SMC_ERR_BUFFER_FULL ? w->pos : 0;
    }
    smci_set_error(err, st, off);
    return st;
}

smc_status_t smc_encode(const smc_value_t *v, uint8_t *buf, size_t cap, size_t *written_or_needed,
                        smc_error_t *err)
{
    smc_writer_t w;
    smc_writer_init(&w, buf, cap);
    smc_writer_put_value(&w, v);
    return smc_writer_finish(&w, written_or_needed, err);
}

size_t smc_encoded_size(const smc_value_t *v)
{
    size_t needed = 0;
    smc_status_t st = smc_encode(v, NULL, 0, &needed, NULL);
    return st == SMC_OK || st == SMC_ERR_BUFFER_FULL ? needed : 0;
}
