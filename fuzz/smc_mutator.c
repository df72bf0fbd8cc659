/*
 * Structure-aware mutator; see smc_mutator.h. Written from the spec (§2 sizes, §3 padding,
 * §4–§8 values), independently of libsmc, so a bug in the library cannot hide in the fuzzer.
 */
#include "smc_mutator.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* Parse limits: past them the rest of the input is kept as raw bytes. */
#define MAX_NODES 16384
#define MAX_DEPTH 1100

typedef enum kind {
    K_FIXED,  /* tags 00..04, 06: nothing or a fixed payload (06: padding to 8 first) */
    K_SIZED,  /* 05, 07, 08: size, then that many bytes */
    K_ARRAY,  /* 09, 0a, 0b, 0e: count, padding to the width, count * width bytes */
    K_LIST,   /* 0c: count, then count values */
    K_MAP,    /* 0d: count, then 2 * count values */
    K_CUSTOM, /* 80..ff: one value */
    K_RAW     /* bytes the parse did not understand, written as they are */
} kind_t;

typedef struct node {
    uint8_t tag;
    uint8_t kind;
    uint8_t size_form; /* 0: the shortest size form; 3 or 5: `fe` + u16 / `ff` + u32 */
    uint8_t pad_fill;  /* the byte written as padding (0: canonical) */
    uint32_t count;    /* the size or count written (need not match the contents) */
    size_t payload;    /* K_FIXED/K_SIZED/K_ARRAY/K_RAW: bytes in the pool */
    size_t payload_len;
    int first; /* containers: first child, -1 for none */
    int next;  /* next sibling, -1 for none */
} node_t;

typedef struct tree {
    node_t *nodes;
    size_t n, cap;
    uint8_t *pool;
    size_t pool_len, pool_cap;
    int top; /* first top-level value, -1 for none */
    bool ok; /* no allocation failed and no limit was hit */
} tree_t;

/* ---- small helpers ---- */

static uint32_t next_rand(uint32_t *s)
{
    uint32_t x = *s; /* xorshift32 */
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *s = x;
    return x;
}

static uint32_t below(uint32_t *s, uint32_t n)
{
    return n == 0 ? 0 : next_rand(s) % n;
}

static size_t width_of(uint8_t tag)
{
    return tag == 0x09 || tag == 0x0e ? 4 : 8;
}

static size_t pad_to(size_t msg_off, size_t width)
{
    return (width - msg_off % width) % width;
}

static int new_node(tree_t *t, uint8_t tag, kind_t kind)
{
    if (t->n >= MAX_NODES) {
        t->ok = false;
        return -1;
    }
    if (t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 64;
        node_t *p = realloc(t->nodes, cap * sizeof *p);
        if (p == NULL) {
            t->ok = false;
            return -1;
        }
        t->nodes = p;
        t->cap = cap;
    }
    node_t *nd = &t->nodes[t->n];
    memset(nd, 0, sizeof *nd);
    nd->tag = tag;
    nd->kind = (uint8_t)kind;
    nd->first = nd->next = -1;
    return (int)t->n++;
}

/* Copy bytes into the pool; returns their offset (SIZE_MAX when out of memory). */
static size_t pool_add(tree_t *t, const uint8_t *bytes, size_t len)
{
    if (t->pool_len + len > t->pool_cap) {
        size_t cap = (t->pool_len + len) * 2 + 64;
        uint8_t *p = realloc(t->pool, cap);
        if (p == NULL) {
            t->ok = false;
            return SIZE_MAX;
        }
        t->pool = p;
        t->pool_cap = cap;
    }
    if (len > 0 && bytes != NULL) {
        memcpy(t->pool + t->pool_len, bytes, len);
    } else if (len > 0) {
        memset(t->pool + t->pool_len, 0, len);
    }
    t->pool_len += len;
    return t->pool_len - len;
}

static void tree_free(tree_t *t)
{
    free(t->nodes);
    free(t->pool);
}

/* ---- parsing ---- */

/* spec §2.2: a size field at d[*pos]; false when the input ends inside it. */
static bool read_size(const uint8_t *d, size_t len, size_t *pos, uint32_t *n, uint8_t *form)
{
    if (*pos >= len) {
        return false;
    }
    uint8_t b = d[*pos];
    size_t extra = b < 254 ? 0 : b == 254 ? 2 : 4;
    if (len - *pos < 1 + extra) {
        return false;
    }
    uint32_t v = b;
    if (extra > 0) {
        v = 0;
        for (size_t i = extra; i >= 1; i--) {
            v = v << 8 | d[*pos + i];
        }
    }
    *n = v;
    *form = extra == 0 ? 0 : (uint8_t)(1 + extra);
    *pos += 1 + extra;
    return true;
}

/* Link node `id` as the last child of `parent` (or the last top-level value). */
static void append_child(tree_t *t, int parent, int *last, int id)
{
    if (*last >= 0) {
        t->nodes[*last].next = id;
    } else if (parent >= 0) {
        t->nodes[parent].first = id;
    } else {
        t->top = id;
    }
    *last = id;
}

/*
 * Lenient parse of d[1..len) (d[0] is the option byte): values back to back, each container
 * followed by its values. Where a value is cut short or a tag is unknown, the rest becomes
 * one raw node at the top level (containers have no end marker, so the byte order stays).
 */
static void parse(tree_t *t, const uint8_t *d, size_t len)
{
    typedef struct frame {
        int node;
        uint64_t left; /* values still expected */
        int last;      /* last child so far */
    } frame_t;
    static frame_t stack[MAX_DEPTH];
    size_t depth = 0;
    int top_last = -1;
    size_t pos = 1;
    t->top = -1;
    t->ok = true;
    while (pos < len && t->ok) {
        size_t start = pos;
        uint8_t tag = d[pos++];
        int id = -1;
        bool cut = false;
        uint32_t n = 0;
        uint8_t form = 0;
        if (tag <= 0x04 || tag == 0x06) {
            size_t pad = tag == 0x06 ? pad_to(pos - 1, 8) : 0;
            size_t need = tag <= 0x02 ? 0 : tag == 0x03 ? 4 : 8;
            if (len - pos < pad + need) {
                cut = true;
            } else {
                id = new_node(t, tag, K_FIXED);
                if (id >= 0) {
                    t->nodes[id].pad_fill = pad > 0 ? d[pos] : 0;
                    t->nodes[id].payload = pool_add(t, d + pos + pad, need);
                    t->nodes[id].payload_len = need;
                }
                pos += pad + need;
            }
        } else if (tag == 0x05 || tag == 0x07 || tag == 0x08) {
            if (!read_size(d, len, &pos, &n, &form) || len - pos < n) {
                cut = true;
            } else {
                id = new_node(t, tag, K_SIZED);
                if (id >= 0) {
                    t->nodes[id].payload = pool_add(t, d + pos, n);
                    t->nodes[id].payload_len = n;
                }
                pos += n;
            }
        } else if (tag == 0x09 || tag == 0x0a || tag == 0x0b || tag == 0x0e) {
            size_t w = width_of(tag);
            if (!read_size(d, len, &pos, &n, &form)) {
                cut = true;
            } else {
                size_t pad = pad_to(pos - 1, w);
                if ((uint64_t)(len - pos) < pad + (uint64_t)n * w) {
                    cut = true;
                } else {
                    id = new_node(t, tag, K_ARRAY);
                    if (id >= 0) {
                        t->nodes[id].pad_fill = pad > 0 ? d[pos] : 0;
                        t->nodes[id].payload = pool_add(t, d + pos + pad, (size_t)n * w);
                        t->nodes[id].payload_len = (size_t)n * w;
                    }
                    pos += pad + (size_t)n * w;
                }
            }
        } else if (tag == 0x0c || tag == 0x0d) {
            if (!read_size(d, len, &pos, &n, &form)) {
                cut = true;
            } else {
                id = new_node(t, tag, tag == 0x0c ? K_LIST : K_MAP);
            }
        } else if (tag >= 0x80) {
            id = new_node(t, tag, K_CUSTOM);
            n = 1;
        } else {
            cut = true; /* unknown tag: the rest stays raw */
        }
        if (cut || id < 0) {
            pos = start;
            break;
        }
        t->nodes[id].count = n;
        t->nodes[id].size_form = form;
        if (depth > 0) {
            append_child(t, stack[depth - 1].node, &stack[depth - 1].last, id);
            stack[depth - 1].left--;
        } else {
            append_child(t, -1, &top_last, id);
        }
        kind_t k = (kind_t)t->nodes[id].kind;
        uint64_t values = k == K_LIST ? n : k == K_MAP ? 2 * (uint64_t)n : k == K_CUSTOM ? 1 : 0;
        if (values > 0) {
            if (depth == MAX_DEPTH) {
                t->ok = false;
                break;
            }
            stack[depth++] = (frame_t){id, values, -1};
        }
        while (depth > 0 && stack[depth - 1].left == 0) {
            depth--;
        }
    }
    if (pos < len && t->ok) {
        int raw = new_node(t, 0, K_RAW);
        if (raw >= 0) {
            t->nodes[raw].payload = pool_add(t, d + pos, len - pos);
            t->nodes[raw].payload_len = len - pos;
            append_child(t, -1, &top_last, raw);
        }
    }
}

/* ---- writing ---- */

typedef struct out {
    uint8_t *p;
    size_t len, cap;
    bool full;
} out_t;

static void put(out_t *o, const void *bytes, size_t n)
{
    if (n == 0) {
        return;
    }
    if (o->full || n > o->cap - o->len) {
        o->full = true;
        return;
    }
    memcpy(o->p + o->len, bytes, n);
    o->len += n;
}

static void put_fill(out_t *o, uint8_t b, size_t n)
{
    if (o->full || n > o->cap - o->len) {
        o->full = true;
        return;
    }
    memset(o->p + o->len, b, n);
    o->len += n;
}

static void put_size(out_t *o, uint32_t n, uint8_t form)
{
    uint8_t s[5];
    if (form == 0 && n < 254) {
        s[0] = (uint8_t)n;
        put(o, s, 1);
    } else if ((form == 0 || form == 3) && n <= 0xffff) {
        s[0] = 254;
        s[1] = (uint8_t)n;
        s[2] = (uint8_t)(n >> 8);
        put(o, s, 3);
    } else {
        s[0] = 255;
        for (int i = 0; i < 4; i++) {
            s[1 + i] = (uint8_t)(n >> (8 * i));
        }
        put(o, s, 5);
    }
}

/* One node's own bytes; padding from the message offset (o->len - 1: after the option byte). */
static void put_node(const tree_t *t, const node_t *nd, out_t *o)
{
    const uint8_t *payload = nd->payload_len > 0 ? t->pool + nd->payload : NULL;
    if (nd->kind == K_RAW) {
        put(o, payload, nd->payload_len);
        return;
    }
    put(o, &nd->tag, 1);
    switch ((kind_t)nd->kind) {
    case K_FIXED:
        if (nd->tag == 0x06) {
            put_fill(o, nd->pad_fill, pad_to(o->len - 1, 8));
        }
        put(o, payload, nd->payload_len);
        return;
    case K_SIZED:
        put_size(o, nd->count, nd->size_form);
        put(o, payload, nd->payload_len);
        return;
    case K_ARRAY:
        put_size(o, nd->count, nd->size_form);
        put_fill(o, nd->pad_fill, pad_to(o->len - 1, width_of(nd->tag)));
        put(o, payload, nd->payload_len);
        return;
    case K_LIST:
    case K_MAP:
        put_size(o, nd->count, nd->size_form);
        return;
    case K_CUSTOM:
    case K_RAW:
        return;
    }
}

/* The option byte, then every node in pre-order (iterative: trees may be deep). */
static size_t serialise(const tree_t *t, uint8_t option, uint8_t *dst, size_t cap)
{
    static int stack[MAX_NODES + 1];
    size_t depth = 0;
    out_t o = {dst, 0, cap, false};
    put(&o, &option, 1);
    int cur = t->top;
    while (!o.full) {
        while (cur < 0 && depth > 0) {
            cur = t->nodes[stack[--depth]].next;
        }
        if (cur < 0) {
            break;
        }
        const node_t *nd = &t->nodes[cur];
        put_node(t, nd, &o);
        if (nd->first >= 0 && depth < MAX_NODES) {
            stack[depth++] = cur;
            cur = nd->first;
        } else {
            cur = nd->next;
        }
    }
    return o.full ? 0 : o.len;
}

/* ---- mutations ---- */

/* The parent of node `id` (-1 at the top level) and its predecessor among its siblings. */
static int parent_of(const tree_t *t, int id, int *prev)
{
    *prev = -1;
    for (int p = -1; p < (int)t->n; p++) {
        int c = p < 0 ? t->top : t->nodes[p].first;
        int before = -1;
        for (; c >= 0; before = c, c = t->nodes[c].next) {
            if (c == id) {
                *prev = before;
                return p;
            }
        }
    }
    return -1;
}

/* Copy the subtree at `id` (its siblings not included), iteratively; -1 when a limit is hit. */
static int copy_subtree(tree_t *t, int id)
{
    typedef struct frame {
        int src_child; /* next child of the source to copy */
        int dst;       /* the copy it goes under */
        int last;      /* the copy's last child so far */
    } frame_t;
    static frame_t stack[MAX_NODES];
    size_t depth = 0;
    int root = new_node(t, 0, K_RAW);
    if (root < 0) {
        return -1;
    }
    t->nodes[root] = t->nodes[id];
    t->nodes[root].first = t->nodes[root].next = -1;
    stack[depth++] = (frame_t){t->nodes[id].first, root, -1};
    while (depth > 0) {
        frame_t *f = &stack[depth - 1];
        if (f->src_child < 0) {
            depth--;
            continue;
        }
        int src = f->src_child;
        f->src_child = t->nodes[src].next;
        int c = new_node(t, 0, K_RAW);
        if (c < 0) {
            return -1;
        }
        t->nodes[c] = t->nodes[src];
        t->nodes[c].first = t->nodes[c].next = -1;
        append_child(t, f->dst, &f->last, c);
        if (t->nodes[src].first >= 0) {
            if (depth == MAX_NODES) {
                t->ok = false;
                return -1;
            }
            stack[depth++] = (frame_t){t->nodes[src].first, c, -1};
        }
    }
    return root;
}

/* Replace node `id` in its place by `by` (which takes id's siblings). */
static void replace(tree_t *t, int id, int by)
{
    int prev;
    int parent = parent_of(t, id, &prev);
    t->nodes[by].next = t->nodes[id].next;
    if (prev >= 0) {
        t->nodes[prev].next = by;
    } else if (parent >= 0) {
        t->nodes[parent].first = by;
    } else {
        t->top = by;
    }
}

/* A container around `inner` (list of 1, custom, or a map with a null partner). */
static int wrap(tree_t *t, int inner, uint32_t *rng)
{
    static const uint8_t kinds[] = {0x0c, 0x0d, 0x80, 0x81, 0xff};
    uint8_t tag = kinds[below(rng, sizeof kinds)];
    int w = new_node(t, tag, tag == 0x0c ? K_LIST : tag == 0x0d ? K_MAP : K_CUSTOM);
    if (w < 0) {
        return -1;
    }
    t->nodes[w].count = 1;
    t->nodes[w].first = inner;
    t->nodes[inner].next = -1;
    if (tag == 0x0d) {
        int partner = new_node(t, 0x00, K_FIXED);
        if (partner < 0) {
            return -1;
        }
        if (below(rng, 2)) {
            t->nodes[inner].next = partner; /* inner is the key */
        } else {
            t->nodes[w].first = partner; /* inner is the value */
            t->nodes[partner].next = inner;
        }
    }
    return w;
}

/* Boundary values of sizes and counts (spec §2.2, §14.3, §15.2). */
static uint32_t boundary_count(uint32_t *rng, uint32_t now)
{
    static const uint32_t values[] = {0,   1,   2,     7,     8,          253,       254,
                                      255, 256, 65535, 65536, 0x7fffffff, 0xffffffff};
    switch (below(rng, 4)) {
    case 0:
        return now + 1;
    case 1:
        return now - 1;
    default:
        return values[below(rng, sizeof values / sizeof values[0])];
    }
}

/* UTF-8 edge sequences (RFC 3629): overlong, surrogate, above U+10FFFF, cut, lone continuation. */
static const char *const utf8_edges[] = {"\xc0\x80", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xe2\x82",
                                         "\x80",     "\xef\xbf\xbf", "\xf0\x9f\x98\x80", "\x00"};

/* Resize a sized or array payload to `count` elements, keeping what fits (spec §5, §6). */
static void fit_payload(tree_t *t, int id, uint32_t *rng)
{
    node_t *nd = &t->nodes[id];
    size_t w = nd->kind == K_ARRAY ? width_of(nd->tag) : 1;
    size_t want = (size_t)nd->count * w;
    if (want > 1u << 16) {
        return; /* leave big declared sizes as length bombs */
    }
    size_t keep = nd->payload_len < want ? nd->payload_len : want;
    size_t old = nd->payload;
    size_t at = pool_add(t, NULL, want);
    if (at == SIZE_MAX) {
        return;
    }
    nd = &t->nodes[id];
    if (keep > 0) {
        memmove(t->pool + at, t->pool + old, keep);
    }
    for (size_t i = keep; i < want; i++) {
        t->pool[at + i] = (uint8_t)('a' + below(rng, 26));
    }
    nd->payload = at;
    nd->payload_len = want;
}

/* Edge values into a leaf's payload (ints, float bits, string bytes, elements). */
static void edge_payload(tree_t *t, int id, uint32_t *rng)
{
    static const uint8_t f64s[][8] = {
        {0, 0, 0, 0, 0, 0, 0xf8, 0x7f}, {1, 0, 0, 0, 0, 0, 0xf0, 0x7f},
        {0, 0, 0, 0, 0, 0, 0, 0x80},    {0, 0, 0, 0, 0, 0, 0xf0, 0xff},
        {1, 0, 0, 0, 0, 0, 0, 0},       {0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xef, 0x7f}};
    node_t *nd = &t->nodes[id];
    if (nd->payload_len == 0) {
        return;
    }
    uint8_t *p = t->pool + nd->payload;
    if (nd->tag == 0x06 || (nd->kind == K_ARRAY && nd->tag == 0x0b)) {
        size_t at = 8 * below(rng, (uint32_t)(nd->payload_len / 8));
        memcpy(p + at, f64s[below(rng, sizeof f64s / sizeof f64s[0])], 8);
    } else if (nd->kind == K_SIZED && nd->tag != 0x08) {
        const char *e = utf8_edges[below(rng, sizeof utf8_edges / sizeof utf8_edges[0])];
        size_t n = strlen(e) > 0 ? strlen(e) : 1;
        size_t at = below(rng, (uint32_t)nd->payload_len);
        for (size_t i = 0; i < n && at + i < nd->payload_len; i++) {
            p[at + i] = (uint8_t)e[i];
        }
    } else {
        static const uint8_t ints[] = {0x00, 0xff, 0x7f, 0x80};
        size_t at = below(rng, (uint32_t)nd->payload_len);
        p[at] = ints[below(rng, sizeof ints)];
    }
}

/* Apply one mutation; false when the tree offers nothing for it. */
static bool mutate_once(tree_t *t, uint8_t *option, uint32_t *rng)
{
    if (t->n == 0) {
        return false;
    }
    int id = (int)below(rng, (uint32_t)t->n);
    node_t *nd = &t->nodes[id];
    bool has_size =
        nd->kind == K_SIZED || nd->kind == K_ARRAY || nd->kind == K_LIST || nd->kind == K_MAP;
    switch (below(rng, 12)) {
    case 0: /* a boundary size or count; sized payloads follow it half of the time */
        if (!has_size) {
            return false;
        }
        nd->count = boundary_count(rng, nd->count);
        if ((nd->kind == K_SIZED || nd->kind == K_ARRAY) && below(rng, 2)) {
            fit_payload(t, id, rng);
        }
        return true;
    case 1: /* another size form: shortest, fe + u16, ff + u32 (spec §2.2) */
        if (!has_size) {
            return false;
        }
        nd->size_form = (uint8_t)(below(rng, 3) == 0 ? 0 : below(rng, 2) ? 3 : 5);
        return true;
    case 2: { /* another tag on the same bytes */
        static const uint8_t tags[] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09,
                                       0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f, 0x7f, 0x80, 0x81, 0xff};
        if (nd->kind == K_RAW) {
            return false;
        }
        nd->tag = tags[below(rng, sizeof tags)];
        return true;
    }
    case 3: /* non-zero padding (spec §3.3) */
        if (!(nd->tag == 0x06 || nd->kind == K_ARRAY)) {
            return false;
        }
        nd->pad_fill = (uint8_t)(1 + below(rng, 255));
        return true;
    case 4: { /* a copy of a value right after it; its container counts one more */
        int prev, parent = parent_of(t, id, &prev);
        int c = copy_subtree(t, id);
        if (c < 0) {
            return false;
        }
        t->nodes[c].next = t->nodes[id].next;
        t->nodes[id].next = c;
        if (parent >= 0 && t->nodes[parent].kind == K_LIST) {
            t->nodes[parent].count++;
        }
        return true;
    }
    case 5: { /* a value removed; its container counts one less */
        int prev, parent = parent_of(t, id, &prev);
        int after = t->nodes[id].next;
        if (prev >= 0) {
            t->nodes[prev].next = after;
        } else if (parent >= 0) {
            t->nodes[parent].first = after;
        } else {
            t->top = after;
        }
        if (parent >= 0 && t->nodes[parent].kind == K_LIST && t->nodes[parent].count > 0) {
            t->nodes[parent].count--;
        }
        return true;
    }
    case 6: { /* one container around a value */
        int c = copy_subtree(t, id);
        int w = c >= 0 ? wrap(t, c, rng) : -1;
        if (w < 0) {
            return false;
        }
        replace(t, id, w);
        return true;
    }
    case 7: { /* many: around the depth limits (spec §15.1) */
        static const uint32_t levels[] = {127, 128, 129, 511, 512, 513};
        uint32_t k = below(rng, 2) ? levels[below(rng, sizeof levels / sizeof levels[0])]
                                   : 1 + below(rng, 64);
        int c = copy_subtree(t, id);
        for (uint32_t i = 0; c >= 0 && i < k; i++) {
            int w = new_node(t, below(rng, 4) ? 0x0c : 0x80, K_LIST);
            if (w < 0) {
                c = -1;
                break;
            }
            if (t->nodes[w].tag == 0x80) {
                t->nodes[w].kind = K_CUSTOM;
            }
            t->nodes[w].count = 1;
            t->nodes[w].first = c;
            t->nodes[c].next = -1;
            c = w;
        }
        if (c < 0) {
            return false;
        }
        replace(t, id, c);
        return true;
    }
    case 8: { /* a value replaced by a copy of another one (splice within the input) */
        int donor = (int)below(rng, (uint32_t)t->n);
        if (donor == id) {
            return false;
        }
        int c = copy_subtree(t, donor);
        if (c < 0) {
            return false;
        }
        replace(t, id, c);
        return true;
    }
    case 9: /* edge values inside a payload */
        if (!(nd->kind == K_FIXED || nd->kind == K_SIZED || nd->kind == K_ARRAY)) {
            return false;
        }
        edge_payload(t, id, rng);
        return true;
    case 10: { /* a null before a value in a list: everything after moves by one byte, so
                * every later padding changes (alignment from the message start, spec §3.1) */
        int prev, parent = parent_of(t, id, &prev);
        int z = new_node(t, 0x00, K_FIXED);
        if (z < 0) {
            return false;
        }
        t->nodes[z].next = id;
        if (prev >= 0) {
            t->nodes[prev].next = z;
        } else if (parent >= 0) {
            t->nodes[parent].first = z;
        } else {
            t->top = z;
        }
        if (parent >= 0 && t->nodes[parent].kind == K_LIST) {
            t->nodes[parent].count++;
        }
        return true;
    }
    default: /* the option byte: mode, custom values, alias, depth limit (fuzz_helpers.h) */
        *option ^= (uint8_t)(1u << below(rng, 8));
        return true;
    }
}

size_t smc_mutate(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
    if (size == 0 || max_size < 2) {
        return 0;
    }
    tree_t t;
    memset(&t, 0, sizeof t);
    parse(&t, data, size);
    uint32_t rng = seed * 2654435761u + 1u;
    uint8_t option = data[0];
    size_t out = 0;
    if (t.ok) {
        unsigned rounds = 1 + below(&rng, 3), changed = 0;
        for (unsigned i = 0; i < rounds * 4 && t.ok && changed < rounds; i++) {
            changed += mutate_once(&t, &option, &rng) ? 1 : 0;
        }
        if (changed > 0 && t.ok) {
            uint8_t *tmp = malloc(max_size);
            if (tmp != NULL) {
                out = serialise(&t, option, tmp, max_size);
                if (out > 0) {
                    memcpy(data, tmp, out);
                }
                free(tmp);
            }
        }
    }
    tree_free(&t);
    return out;
}

size_t smc_mutator_roundtrip(const uint8_t *data, size_t size, uint8_t *out, size_t cap)
{
    if (size == 0) {
        return 0;
    }
    tree_t t;
    memset(&t, 0, sizeof t);
    parse(&t, data, size);
    size_t n = t.ok ? serialise(&t, data[0], out, cap) : 0;
    tree_free(&t);
    return n;
}
