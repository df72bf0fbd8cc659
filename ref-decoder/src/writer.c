/*
 * Canonical encoder (spec §13). Sticky first error; when the buffer is too small the
 * writer keeps counting so the caller learns the exact size needed (house style rule 10).
 */
#include "read_item.h" /* smci_utf8_valid_fast */

/* open[] entries: values still expected, with the container kind in the top bits. */
#define KIND_SHIFT  62
#define KIND_LIST   UINT64_C(1)
#define KIND_MAP    UINT64_C(2)
#define KIND_CUSTOM UINT64_C(3)
#define COUNT_MASK  ((UINT64_C(1) << KIND_SHIFT) - 1)
#define MAX_SIZE    UINT64_C(0xFFFFFFFF)

static void fail(smc_writer_t *w, smc_status_t st)
{
    if (w->error.status == SMC_OK) {
        w->error.status = st;
        w->error.offset = w->pos;
    }
}

static bool ok(const smc_writer_t *w)
{
    return w->error.status == SMC_OK;
}

/* Reserve n output bytes: returns where to write them, or NULL if they do not fit (the
 * position still advances so the final size is exact). */
static uint8_t *reserve(smc_writer_t *w, size_t n)
{
    if (n > SIZE_MAX - w->pos) {
        fail(w, SMC_ERR_NOT_ENCODABLE);
        return NULL;
    }
    uint8_t *dst = NULL;
    if (w->pos <= w->cap && n <= w->cap - w->pos && w->buf != NULL) {
        dst = w->buf + w->pos;
    }
    w->pos += n;
    return dst;
}

static void put_bytes(smc_writer_t *w, const void *src, size_t n)
{
    uint8_t *dst = reserve(w, n);
    if (dst != NULL && n > 0) {
        memcpy(dst, src, n);
    }
}

static void put_byte(smc_writer_t *w, uint8_t b)
{
    uint8_t *dst = reserve(w, 1);
    if (dst != NULL) {
        *dst = b;
    }
}

/* spec §3.1/§3.2: zero padding to `align`, counted from the message origin. */
static void put_padding(smc_writer_t *w, size_t align)
{
    size_t pad = smci_pad(w->origin + w->pos, align);
    uint8_t *dst = reserve(w, pad);
    if (dst != NULL && pad > 0) {
        memset(dst, 0, pad);
    }
}

/* spec §2.2: shortest size form. */
static void put_size(smc_writer_t *w, uint32_t n)
{
    uint8_t tmp[5];
    size_t len;
    if (n < 254) {
        tmp[0] = (uint8_t)n;
        len = 1;
    } else if (n <= 0xFFFF) {
        tmp[0] = 254;
        tmp[1] = (uint8_t)n;
        tmp[2] = (uint8_t)(n >> 8);
        len = 3;
    } else {
        tmp[0] = 255;
        smci_store_le32(tmp + 1, n);
        len = 5;
    }
    put_bytes(w, tmp, len);
}

/* Count one value against the innermost open container (too many → SMC_ERR_USAGE). */
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

/* Tag + size with the size checked against the format's limit. */
static bool sized_header(smc_writer_t *w, uint8_t tag, size_t n)
{
    if (!value_start(w)) {
        return false;
    }
    if ((uint64_t)n > MAX_SIZE) {
        fail(w, SMC_ERR_NOT_ENCODABLE); /* spec §15.2 */
        return false;
    }
    put_byte(w, tag);
    put_size(w, (uint32_t)n);
    return true;
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
        put_byte(w, SMCI_TAG_NULL);
    }
}

void smc_writer_put_bool(smc_writer_t *w, bool v)
{
    if (value_start(w)) {
        put_byte(w, v ? SMCI_TAG_TRUE : SMCI_TAG_FALSE);
    }
}

void smc_writer_put_i32(smc_writer_t *w, int32_t v)
{
    if (value_start(w)) {
        uint32_t u;
        memcpy(&u, &v, sizeof u);
        uint8_t *dst = reserve(w, 5); /* stores straight into the output: no temporary */
        if (dst != NULL) {
            dst[0] = SMCI_TAG_I32;
            smci_store_le32(dst + 1, u);
        }
    }
}

void smc_writer_put_i64(smc_writer_t *w, int64_t v)
{
    if (value_start(w)) {
        uint64_t u;
        memcpy(&u, &v, sizeof u);
        uint8_t *dst = reserve(w, 9);
        if (dst != NULL) {
            dst[0] = SMCI_TAG_I64;
            smci_store_le64(dst + 1, u);
        }
    }
}

void smc_writer_put_f64_bits(smc_writer_t *w, uint64_t bits)
{
    if (value_start(w)) {
        size_t pad = smci_pad(w->origin + w->pos + 1, 8);
        uint8_t *dst = reserve(w, 1 + pad + 8);
        if (dst != NULL) {
            dst[0] = SMCI_TAG_F64;
            memset(dst + 1, 0, pad); /* spec §3.2: zero padding */
            smci_store_le64(dst + 1 + pad, bits);
        }
    }
}

void smc_writer_put_f64(smc_writer_t *w, double v)
{
    smc_writer_put_f64_bits(w, smc_f64_to_bits(v));
}

void smc_writer_put_str(smc_writer_t *w, const void *s, size_t len)
{
    size_t bad;
    if (ok(w) && (uint64_t)len > MAX_SIZE) {
        fail(w, SMC_ERR_NOT_ENCODABLE); /* before looking at the bytes */
        return;
    }
    if (ok(w) && len > 0 && !smci_utf8_valid((const uint8_t *)s, len, &bad)) {
        fail(w, SMC_ERR_NOT_ENCODABLE); /* spec §5.3: encoders write well-formed UTF-8 */
        return;
    }
    if (sized_header(w, SMCI_TAG_STR, len)) {
        put_bytes(w, s, len);
    }
}

void smc_writer_put_u8s(smc_writer_t *w, const void *bytes, size_t len)
{
    if (sized_header(w, SMCI_TAG_U8S, len)) {
        put_bytes(w, bytes, len);
    }
}

void smc_writer_put_largeint(smc_writer_t *w, const void *s, size_t len)
{
    (void)s;
    (void)len;
    if (ok(w)) {
        fail(w, SMC_ERR_NOT_ENCODABLE); /* spec §4.4: tag 5 is never written */
    }
}

static uint8_t array_tag(smc_type_t type)
{
    switch (type) {
    case SMC_TYPE_I32S:
        return SMCI_TAG_I32S;
    case SMC_TYPE_I64S:
        return SMCI_TAG_I64S;
    case SMC_TYPE_F64S:
        return SMCI_TAG_F64S;
    case SMC_TYPE_F32S:
        return SMCI_TAG_F32S;
    case SMC_TYPE_NULL:
    case SMC_TYPE_BOOL:
    case SMC_TYPE_I32:
    case SMC_TYPE_I64:
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_F64:
    case SMC_TYPE_STR:
    case SMC_TYPE_U8S:
    case SMC_TYPE_LIST:
    case SMC_TYPE_MAP:
    case SMC_TYPE_CUSTOM:
        break;
    }
    return 0;
}

/* spec §6.2–6.6: tag, count, zero padding (always, also when empty), elements.
 * Returns where the element bytes go (NULL if they do not fit or on error). */
static uint8_t *array_header(smc_writer_t *w, smc_type_t type, size_t count, bool *go)
{
    size_t width = smci_array_width(type);
    *go = false;
    if (width == 0) {
        if (ok(w)) {
            fail(w, SMC_ERR_USAGE);
        }
        return NULL;
    }
    if (count > SIZE_MAX / width) {
        if (ok(w)) {
            fail(w, SMC_ERR_NOT_ENCODABLE);
        }
        return NULL;
    }
    if (!sized_header(w, array_tag(type), count)) {
        return NULL;
    }
    put_padding(w, width);
    *go = ok(w);
    return *go ? reserve(w, count * width) : NULL;
}

void smc_writer_put_array_le(smc_writer_t *w, smc_type_t type, const uint8_t *le_bytes,
                             size_t count)
{
    bool go;
    uint8_t *dst = array_header(w, type, count, &go);
    if (dst != NULL && count > 0) {
        memcpy(dst, le_bytes, count * smci_array_width(type));
    }
}

void smc_writer_put_i32s(smc_writer_t *w, const int32_t *vals, size_t count)
{
    bool go;
    uint8_t *dst = array_header(w, SMC_TYPE_I32S, count, &go);
    for (size_t i = 0; dst != NULL && i < count; i++) {
        uint32_t u;
        memcpy(&u, &vals[i], sizeof u);
        smci_store_le32(dst + 4 * i, u);
    }
}

void smc_writer_put_i64s(smc_writer_t *w, const int64_t *vals, size_t count)
{
    bool go;
    uint8_t *dst = array_header(w, SMC_TYPE_I64S, count, &go);
    for (size_t i = 0; dst != NULL && i < count; i++) {
        uint64_t u;
        memcpy(&u, &vals[i], sizeof u);
        smci_store_le64(dst + 8 * i, u);
    }
}

void smc_writer_put_f64s_bits(smc_writer_t *w, const uint64_t *bits, size_t count)
{
    bool go;
    uint8_t *dst = array_header(w, SMC_TYPE_F64S, count, &go);
    for (size_t i = 0; dst != NULL && i < count; i++) {
        smci_store_le64(dst + 8 * i, bits[i]);
    }
}

void smc_writer_put_f32s_bits(smc_writer_t *w, const uint32_t *bits, size_t count)
{
    bool go;
    uint8_t *dst = array_header(w, SMC_TYPE_F32S, count, &go);
    for (size_t i = 0; dst != NULL && i < count; i++) {
        smci_store_le32(dst + 4 * i, bits[i]);
    }
}

static void begin(smc_writer_t *w, uint8_t tag, uint64_t kind, size_t count, uint64_t values)
{
    if (!ok(w)) {
        return;
    }
    if (w->depth >= SMC_MAX_DEPTH_LIMIT) {
        fail(w, SMC_ERR_DEPTH);
        return;
    }
    if (kind == KIND_CUSTOM) {
        if (!value_start(w)) {
            return;
        }
        put_byte(w, tag);
    } else if (!sized_header(w, tag, count)) {
        return;
    }
    w->open[w->depth++] = kind << KIND_SHIFT | values;
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
    begin(w, SMCI_TAG_LIST, KIND_LIST, count, count);
}

void smc_writer_end_list(smc_writer_t *w)
{
    end(w, KIND_LIST);
}

void smc_writer_begin_map(smc_writer_t *w, size_t count)
{
    begin(w, SMCI_TAG_MAP, KIND_MAP, count, 2 * (uint64_t)count);
}

void smc_writer_end_map(smc_writer_t *w)
{
    end(w, KIND_MAP);
}

void smc_writer_begin_custom(smc_writer_t *w, unsigned tag)
{
    if (ok(w) && (tag < SMCI_TAG_CUSTOM_MIN || tag > 0xFF)) {
        fail(w, SMC_ERR_NOT_ENCODABLE); /* spec §8.1: custom tags are 128..255 */
        return;
    }
    begin(w, (uint8_t)tag, KIND_CUSTOM, 1, 1);
}

void smc_writer_end_custom(smc_writer_t *w)
{
    end(w, KIND_CUSTOM);
}

void smc_writer_put_raw(smc_writer_t *w, const void *bytes, size_t len)
{
    if (ok(w)) {
        put_bytes(w, bytes, len);
    }
}

/* spec §2.2: the shortest size form of n at dst (room for 5 bytes); returns its length. */
static size_t store_size(uint8_t *dst, uint32_t n)
{
    if (n < 254) {
        dst[0] = (uint8_t)n;
        return 1;
    }
    if (n <= 0xFFFF) {
        dst[0] = 254;
        dst[1] = (uint8_t)n;
        dst[2] = (uint8_t)(n >> 8);
        return 3;
    }
    dst[0] = 255;
    smci_store_le32(dst + 1, n);
    return 5;
}

static size_t size_len(uint64_t n)
{
    return n < 254 ? 1 : n <= 0xFFFF ? 3 : 5;
}

/*
 * Output state of smc_writer_put_value, in locals: byte stores through a uint8_t pointer may
 * alias anything, so with the position in *w every store forced a reload of pos/cap/buf.
 * Copied back to *w at the end and before any error (fail() records w->pos).
 */
typedef struct tree_out {
    uint8_t *buf;
    size_t cap;
    size_t pos;
    size_t origin;
    bool failed;
} tree_out_t;

static void tree_fail(smc_writer_t *w, tree_out_t *o, smc_status_t st)
{
    w->pos = o->pos;
    fail(w, st);
    o->failed = true;
}

/* As reserve(): where n bytes go, or NULL when they do not fit (the count still advances).
 * n ≤ 16 + 5 here, or checked by the caller against SIZE_MAX. */
SMCI_INLINE uint8_t *out_reserve(tree_out_t *o, size_t n)
{
    uint8_t *dst = NULL;
    if (SMCI_LIKELY(o->pos <= o->cap && n <= o->cap - o->pos && o->buf != NULL)) {
        dst = o->buf + o->pos;
    }
    o->pos += n;
    return dst;
}

/*
 * Tag, size, zero padding to `align` (1 = none) and `len` payload bytes of one sized value,
 * with a single reservation (spec §5, §6). The size is already known to be ≤ MAX_SIZE.
 */
SMCI_INLINE void put_sized(smc_writer_t *w, tree_out_t *o, uint8_t tag, uint32_t size, size_t align,
                           const uint8_t *payload, size_t len)
{
    size_t head = 1 + size_len(size);
    size_t pad = align > 1 ? smci_pad(o->origin + o->pos + head, align) : 0;
    if (len > SIZE_MAX - head - pad || head + pad + len > SIZE_MAX - o->pos) {
        tree_fail(w, o, SMC_ERR_NOT_ENCODABLE);
        return;
    }
    uint8_t *dst = out_reserve(o, head + pad + len);
    if (dst == NULL) {
        return;
    }
    dst[0] = tag;
    store_size(dst + 1, size);
    if (pad > 0) {
        memset(dst + head, 0, pad); /* spec §3.2 */
    }
    if (len > 0) {
        memcpy(dst + head + pad, payload, len);
    }
}

/*
 * Write one node of a tree whose values are counted by the tree walk itself (the root was
 * counted by value_start; each container's children are exactly the ones the walk visits), so
 * nothing here touches w->open. `open_above` is the number of containers enclosing the node,
 * including the writer's own, for the depth limit of begin(). Same checks, in the same order
 * and at the same output positions, as the public put/begin functions.
 */
SMCI_INLINE void put_tree_node(smc_writer_t *w, tree_out_t *o, const smc_value_t *v,
                               size_t open_above)
{
    uint8_t *dst;
    size_t width, bad;
    switch (v->type) {
    case SMC_TYPE_NULL:
    case SMC_TYPE_BOOL:
        dst = out_reserve(o, 1);
        if (dst != NULL) {
            dst[0] = v->type == SMC_TYPE_NULL ? SMCI_TAG_NULL
                     : v->boolean             ? SMCI_TAG_TRUE
                                              : SMCI_TAG_FALSE;
        }
        return;
    case SMC_TYPE_I32: {
        uint32_t u;
        memcpy(&u, &v->i32, sizeof u);
        dst = out_reserve(o, 5);
        if (dst != NULL) {
            dst[0] = SMCI_TAG_I32;
            smci_store_le32(dst + 1, u);
        }
        return;
    }
    case SMC_TYPE_I64: {
        uint64_t u;
        memcpy(&u, &v->i64, sizeof u);
        dst = out_reserve(o, 9);
        if (dst != NULL) {
            dst[0] = SMCI_TAG_I64;
            smci_store_le64(dst + 1, u);
        }
        return;
    }
    case SMC_TYPE_F64: {
        size_t pad = smci_pad(o->origin + o->pos + 1, 8);
        dst = out_reserve(o, 1 + pad + 8);
        if (dst != NULL) {
            dst[0] = SMCI_TAG_F64;
            memset(dst + 1, 0, pad); /* spec §3.2: zero padding */
            smci_store_le64(dst + 1 + pad, v->f64_bits);
        }
        return;
    }
    case SMC_TYPE_LARGEINT:
        tree_fail(w, o, SMC_ERR_NOT_ENCODABLE); /* spec §4.4: tag 5 is never written */
        return;
    case SMC_TYPE_STR:
        if ((uint64_t)v->bytes.len > MAX_SIZE) {
            tree_fail(w, o, SMC_ERR_NOT_ENCODABLE);
            return;
        }
        if (v->bytes.len > 0 && !smci_utf8_valid_fast(v->bytes.ptr, v->bytes.len, &bad)) {
            tree_fail(w, o, SMC_ERR_NOT_ENCODABLE); /* spec §5.3 */
            return;
        }
        put_sized(w, o, SMCI_TAG_STR, (uint32_t)v->bytes.len, 1, v->bytes.ptr, v->bytes.len);
        return;
    case SMC_TYPE_U8S:
        if ((uint64_t)v->bytes.len > MAX_SIZE) {
            tree_fail(w, o, SMC_ERR_NOT_ENCODABLE); /* spec §15.2 */
            return;
        }
        put_sized(w, o, SMCI_TAG_U8S, (uint32_t)v->bytes.len, 1, v->bytes.ptr, v->bytes.len);
        return;
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        width = smci_array_width_inline(v->type);
        if (v->array.count > SIZE_MAX / width || (uint64_t)v->array.count > MAX_SIZE) {
            tree_fail(w, o, SMC_ERR_NOT_ENCODABLE);
            return;
        }
        /* spec §6.6: the padding is written for empty lists too */
        put_sized(w, o, array_tag(v->type), (uint32_t)v->array.count, width, v->array.data,
                  v->array.count * width);
        return;
    case SMC_TYPE_LIST:
    case SMC_TYPE_MAP:
    case SMC_TYPE_CUSTOM: {
        bool custom = v->type == SMC_TYPE_CUSTOM;
        if (custom && v->custom.payload == NULL) {
            tree_fail(w, o, SMC_ERR_NOT_ENCODABLE);
            return;
        }
        if (custom && v->custom_tag < SMCI_TAG_CUSTOM_MIN) {
            tree_fail(w, o, SMC_ERR_NOT_ENCODABLE); /* spec §8.1: custom tags are 128..255 */
            return;
        }
        if (open_above >= SMC_MAX_DEPTH_LIMIT) {
            tree_fail(w, o, SMC_ERR_DEPTH);
            return;
        }
        if (custom) {
            dst = out_reserve(o, 1);
            if (dst != NULL) {
                dst[0] = v->custom_tag;
            }
            return;
        }
        size_t count = v->type == SMC_TYPE_LIST ? v->list.count : v->map.count;
        if ((uint64_t)count > MAX_SIZE) {
            tree_fail(w, o, SMC_ERR_NOT_ENCODABLE); /* spec §15.2 */
            return;
        }
        dst = out_reserve(o, 1 + size_len(count));
        if (dst != NULL) {
            dst[0] = v->type == SMC_TYPE_LIST ? SMCI_TAG_LIST : SMCI_TAG_MAP;
            store_size(dst + 1, (uint32_t)count);
        }
        return;
    }
    }
    tree_fail(w, o, SMC_ERR_NOT_ENCODABLE); /* a type outside smc_type_t */
}

void smc_writer_put_value(smc_writer_t *w, const smc_value_t *v)
{
    /* Explicit stack of sibling ranges (no recursion). The walk writes every node directly:
     * it visits exactly the children each container declares, so per-value counting in
     * w->open (needed for hand-written sequences of put/begin calls) is redundant here. */
    struct {
        const smc_value_t *next, *end;
    } stack[SMC_MAX_DEPTH_LIMIT];
    size_t depth = 0;
    if (!ok(w)) {
        return;
    }
    if (v == NULL) {
        fail(w, SMC_ERR_USAGE);
        return;
    }
    if (!value_start(w)) { /* the root is one value of the enclosing container, if any */
        return;
    }
    tree_out_t o = {w->buf, w->cap, w->pos, w->origin, false};
    size_t base = w->depth;
    for (;;) {
        put_tree_node(w, &o, v, base + depth);
        if (o.failed) {
            return;
        }
        if (v->type == SMC_TYPE_LIST || v->type == SMC_TYPE_MAP || v->type == SMC_TYPE_CUSTOM) {
            const smc_value_t *first;
            size_t n;
            if (v->type == SMC_TYPE_LIST) {
                first = v->list.items;
                n = v->list.count;
            } else if (v->type == SMC_TYPE_MAP) {
                first = v->map.entries;
                n = 2 * v->map.count;
            } else {
                first = v->custom.payload;
                n = 1;
            }
            if (n > 0 && first == NULL) {
                tree_fail(w, &o, SMC_ERR_USAGE); /* inconsistent tree */
                return;
            }
            /* put_tree_node refused depth ≥ SMC_MAX_DEPTH_LIMIT, so the stack has room */
            stack[depth].next = first;
            stack[depth].end = n > 0 ? first + n : first; /* no arithmetic on NULL */
            depth++;
        }
        /* Close finished containers, then move to the next sibling. */
        while (depth > 0 && stack[depth - 1].next == stack[depth - 1].end) {
            depth--;
        }
        if (depth == 0) {
            w->pos = o.pos;
            return;
        }
        v = stack[depth - 1].next++;
    }
}

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
