/*
 * The variant decoder (smcm_codec.h). One function per wire type, recursive (the depth limit
 * bounds the recursion), reading left to right with the checks in the order of
 * spec/errors.md §14.2. Every place a catalogued bug changes what a decoder does is marked
 * with the bug's id; with no bug on this is the spec.
 */
#include <string.h>

#include "smcm_codec.h"
#include "smcm_internal.h"
#include "smct_utf8.h"

/* no-depth-limit still has to stop somewhere: deeper inputs are not modelled */
#define UNLIMITED_DEPTH 2048u
/* truncated-as-zero: a declared size this far beyond the input is not modelled (a real codec
 * allocates gigabytes, throws, or loops for minutes) */
#define ZERO_FILL_MAX ((size_t)1 << 16)
/* alloc-before-size-check: an allocation of at least this many bytes fails (JAVA's
 * OutOfMemoryError for `new byte[0x7fffffff]`; an app's heap is at most 512 MiB), one below
 * ALLOC_OK_MAX succeeds; between the two, what happens depends on the heap: not modelled */
#define ALLOC_FAIL_MIN ((uint64_t)1 << 30)
#define ALLOC_OK_MAX   ((uint64_t)1 << 26)

typedef enum dstate { D_OK = 0, D_ERROR, D_UNKNOWN } dstate_t;

typedef struct dec {
    const uint8_t *in;
    size_t len;
    size_t pos; /* may pass len under truncated-as-zero (unchecked padding) */
    smcm_set_t bugs;
    bool strict;
    unsigned address; /* address of in[0] mod 8 */
    size_t origin;    /* where padding is counted from: 0 (spec §3.1) */
    smc_arena_t *arena;
    dstate_t state;
    const char *cls; /* NULL with D_ERROR: any class */
    bool has_offset;
    size_t offset;
    const char *why;
    smcm_fault_t fault; /* D_ERROR: a failure of this kind, not a rejection */
    bool fault_maybe;
    bool negative_wide; /* the last negative size was a four-byte one (size-signed-32) */
} dec_t;

static bool on(const dec_t *d, smcm_bug_t bug)
{
    return smcmi_on(d->bugs, bug);
}

/* The first outcome other than success wins; every later one is ignored. */
static bool stop(dec_t *d, dstate_t state, const char *cls, bool has_offset, size_t offset,
                 const char *why)
{
    if (d->state == D_OK) {
        d->state = state;
        d->cls = cls;
        d->has_offset = has_offset;
        d->offset = offset;
        d->why = why;
    }
    return false;
}

/* A failure that is no rejection (smcm_fault_t); `maybe`: the host's resources decide. */
static bool crash(dec_t *d, smcm_fault_t fault, bool maybe, const char *why)
{
    if (d->state == D_OK) {
        d->fault = fault;
        d->fault_maybe = maybe;
    }
    return stop(d, D_ERROR, NULL, false, 0, why);
}

/* The input ends where a value or an element is expected: DART's and JAVA's readValue check
 * that bytes remain before reading a tag (`hasRemaining`), and DART's envelope decoder that
 * the envelope is not empty, so this stays the documented rejection under read-past-end. */
static bool nothing_left(dec_t *d)
{
    return stop(d, D_ERROR, "truncated", true, d->len, NULL);
}

static bool fail(dec_t *d, const char *cls, size_t offset)
{
    /* read-past-end: the codec reads on, and the host's bounds check stops the read (JAVA's
     * BufferUnderflowException, DART's RangeError, a Rust panic) where the spec rejects */
    if (strcmp(cls, "truncated") == 0 && on(d, SMCM_READ_PAST_END)) {
        return crash(d, SMCM_FAULT_OVERREAD, false, "read past the end of the input");
    }
    return stop(d, D_ERROR, cls, true, offset, NULL);
}

/* An error whose class the bug alone does not determine (an exception a host maps somehow). */
static bool fail_any(dec_t *d, const char *why)
{
    return stop(d, D_ERROR, NULL, false, 0, why);
}

static bool unknown(dec_t *d, const char *why)
{
    return stop(d, D_UNKNOWN, NULL, false, 0, why);
}

static bool nomem(dec_t *d)
{
    return unknown(d, "out of memory while modelling");
}

static size_t remaining(const dec_t *d)
{
    return d->pos < d->len ? d->len - d->pos : 0;
}

/* n bytes at the cursor: copied into out and consumed. truncated-as-zero (CPP): a read that
 * does not fit gives zeros and does not move the cursor, so later reads see the same bytes. */
static bool take(dec_t *d, size_t n, uint8_t *out)
{
    if (n == 0) {
        return true;
    }
    if (n <= remaining(d)) {
        memcpy(out, d->in + d->pos, n);
        d->pos += n;
        return true;
    }
    if (on(d, SMCM_TRUNCATED_AS_ZERO)) {
        memset(out, 0, n);
        return true;
    }
    return fail(d, "truncated", d->len);
}

/* A payload of n bytes: a view into the input, or (truncated-as-zero) n zero bytes. */
static bool take_view(dec_t *d, size_t n, const uint8_t **out)
{
    static const uint8_t k_empty[1] = {0};
    if (n == 0) {
        *out = k_empty;
        return true;
    }
    if (n <= remaining(d)) {
        *out = d->in + d->pos;
        d->pos += n;
        return true;
    }
    if (on(d, SMCM_TRUNCATED_AS_ZERO)) {
        uint8_t *z = smc_arena_alloc(d->arena, n);
        if (!z) {
            return nomem(d);
        }
        memset(z, 0, n);
        *out = z;
        return true;
    }
    return fail(d, "truncated", d->len);
}

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;) {
        v = v << 8 | p[i];
    }
    return v;
}

/* A size (spec §2.2). *negative: the buggy signed read gave a negative number. */
static bool read_size(dec_t *d, uint64_t *n, bool *negative)
{
    size_t at = d->pos;
    uint8_t b[4];
    *negative = false;
    if (!take(d, 1, b)) {
        return false;
    }
    /* size-escape-off-by-one: `fe` taken as the size 254 itself */
    if (b[0] < 254 || (b[0] == 254 && on(d, SMCM_SIZE_ESCAPE_OFF_BY_ONE))) {
        *n = b[0];
        return true;
    }
    unsigned width = b[0] == 254 ? 2 : 4;
    if (on(d, SMCM_TRUNCATED_AS_ZERO) && width > remaining(d)) {
        return unknown(d, "a short size form reads an uninitialised variable (CPP)");
    }
    if (!take(d, width, b)) {
        return false;
    }
    *n = le(b, width);
    if ((width == 2 && on(d, SMCM_SIZE_SIGNED_16) && *n >= 0x8000u) ||
        (width == 4 && on(d, SMCM_SIZE_SIGNED_32) && *n >= 0x80000000u)) {
        *negative = true;
        d->negative_wide = width == 4;
        return true;
    }
    if (d->strict && *n < (width == 2 ? 254u : 65536u)) {
        return fail(d, "not_canonical", at);
    }
    return true;
}

/* A negative size given to an array allocation: JAVA's `new byte[size]` (and int[], long[],
 * double[]) throws NegativeArraySizeException (size-signed-32, D19); what a port with
 * size-signed-16 does then is not known, an exception of some class. */
static bool negative_array(dec_t *d)
{
    return d->negative_wide ? crash(d, SMCM_FAULT_NEGATIVE, false,
                                    "a negative size given to an array allocation")
                            : fail_any(d, "negative size: the host throws (sizes read as signed)");
}

/* spec §14.3: before anything is read or allocated, the input must be able to hold `need`.
 * `alloc`: the bytes a codec that allocates first (alloc-before-size-check) asks for, 0 for
 * one that reads element by element. */
static bool room_for(dec_t *d, uint64_t need, uint64_t alloc)
{
    if (need > remaining(d) && on(d, SMCM_ALLOC_BEFORE_SIZE_CHECK) && alloc >= ALLOC_OK_MAX) {
        return alloc >= ALLOC_FAIL_MIN
                   ? crash(d, SMCM_FAULT_ALLOC, false, "allocation for the declared size failed")
                   : unknown(d, "an allocation the heap may or may not hold");
    }
    if (on(d, SMCM_TRUNCATED_AS_ZERO)) {
        /* CPP allocates first and reads later: no check, zero-filled values */
        return need <= remaining(d) + ZERO_FILL_MAX
                   ? true
                   : unknown(d, "a declared size far beyond the input (CPP)");
    }
    if (need <= remaining(d)) {
        return true;
    }
    /* a codec that allocates first has no size check: its reads run out (read-past-end stops
     * them by the host's bounds check); one that checks rejects here, whatever its reads do */
    return on(d, SMCM_ALLOC_BEFORE_SIZE_CHECK) ? fail(d, "truncated", d->len)
                                               : stop(d, D_ERROR, "truncated", true, d->len, NULL);
}

static bool room(dec_t *d, uint64_t need)
{
    return room_for(d, need, 0);
}

/* Padding before aligned data whose value's tag is at tag_at (spec §3.1, §3.2). */
static size_t pad_len(const dec_t *d, unsigned align, size_t tag_at)
{
    size_t at = d->pos, k;
    if (on(d, SMCM_PAD_FROM_ADDRESS)) {
        k = (align - (d->address + at) % align) % align;
    } else if (on(d, SMCM_PAD_FROM_REMAINING)) {
        k = (align - remaining(d) % align) % align;
    } else if (on(d, SMCM_PAD_REMAINING_MULTIPLE)) {
        /* the other reading of "from the bytes remaining": skip what makes the rest a
         * multiple of the alignment, i.e. align from the end of the input */
        k = remaining(d) % align;
    } else if (on(d, SMCM_PAD_FIXED)) {
        k = align - 1;
    } else if (on(d, SMCM_PAD_FROM_VALUE)) {
        k = (align - (at - tag_at) % align) % align;
    } else {
        k = (align - (at - d->origin) % align) % align;
    }
    if (k == 0 && on(d, SMCM_PAD_EXTRA_BLOCK)) {
        k = align;
    }
    return k;
}

static bool skip_pad(dec_t *d, size_t k)
{
    if (k > remaining(d)) {
        if (on(d, SMCM_TRUNCATED_AS_ZERO)) {
            d->pos += k; /* CPP's ReadAlignment moves the cursor without a check */
            return true;
        }
        return fail(d, "truncated", d->len);
    }
    for (size_t i = 0; d->strict && i < k; i++) {
        if (d->in[d->pos + i] != 0) {
            return fail(d, "not_canonical", d->pos + i); /* R3.3-4 */
        }
    }
    d->pos += k;
    return true;
}

/* U+FFFD in place of each maximal ill-formed subsequence (utf8-replaced, JAVA). */
static bool replace_bad_utf8(dec_t *d, const uint8_t *s, size_t n, const uint8_t **out,
                             size_t *out_len)
{
    uint8_t *w = smc_arena_alloc(d->arena, 3 * n + 1);
    if (!w) {
        return nomem(d);
    }
    size_t i = 0, o = 0;
    while (i < n) {
        size_t l = smct_utf8_seq_len(s + i, n - i);
        if (l) {
            memcpy(w + o, s + i, l);
            o += l;
            i += l;
        } else {
            memcpy(w + o, "\xef\xbf\xbd", 3);
            o += 3;
            i += smct_utf8_bad_len(s + i, n - i);
        }
    }
    *out = w;
    *out_len = o;
    return true;
}

/* The payload of a text field after its tag: size, bytes, UTF-8 (spec §5, errors.md step 5). */
static bool read_text(dec_t *d, smc_bytes_t *text)
{
    uint64_t n;
    bool negative;
    if (!read_size(d, &n, &negative)) {
        return false;
    }
    if (negative) {
        return negative_array(d);
    }
    if (!room_for(d, n, n)) { /* JAVA: new byte[size] before reading */
        return false;
    }
    const uint8_t *p;
    size_t bytes = (size_t)n;
    if (on(d, SMCM_STR_UTF16_SIZE)) {
        /* n counts UTF-16 units: read UTF-8 sequences until that many units are consumed */
        size_t units = 0;
        bytes = 0;
        while (units < n) {
            if (bytes >= remaining(d)) {
                return fail(d, "truncated", d->len);
            }
            size_t l = smct_utf8_seq_len(d->in + d->pos + bytes, remaining(d) - bytes);
            if (l == 0) {
                return fail(d, "bad_utf8", d->pos + bytes);
            }
            units += l == 4 ? 2 : 1;
            bytes += l;
        }
    }
    size_t start = d->pos;
    if (!take_view(d, bytes, &p)) {
        return false;
    }
    size_t bad;
    if (on(d, SMCM_UTF8_REPLACED)) {
        if (!replace_bad_utf8(d, p, bytes, &p, &bytes)) {
            return false;
        }
    } else if (!smct_utf8_valid(p, bytes, &bad)) {
        return fail(d, "bad_utf8", start + bad);
    }
    if (on(d, SMCM_NUL_TRUNCATED_STRINGS)) {
        const uint8_t *nul = memchr(p, 0, bytes);
        bytes = nul ? (size_t)(nul - p) : bytes; /* the declared length is still consumed (GLIB) */
    }
    text->ptr = p;
    text->len = bytes;
    return true;
}

static bool read_value(dec_t *d, unsigned enclosing, smc_value_t *out);

static bool make(dec_t *d, smc_value_t *node, smc_value_t *out)
{
    if (!node) {
        return nomem(d);
    }
    *out = *node;
    return true;
}

static bool read_typed_list(dec_t *d, uint8_t tag, size_t tag_at, smc_value_t *out)
{
    static const smc_type_t types[] = {SMC_TYPE_I32S, SMC_TYPE_I64S, SMC_TYPE_F64S};
    smc_type_t type = tag == 0x0e ? SMC_TYPE_F32S : types[tag - 0x09];
    unsigned width = (tag == 0x09 || tag == 0x0e) ? 4u : 8u;
    uint64_t n;
    bool negative;
    if (!read_size(d, &n, &negative)) {
        return false;
    }
    if (negative) {
        return negative_array(d);
    }
    if (on(d, SMCM_TYPED_LIST_BYTE_COUNT)) {
        n /= width; /* the size counted bytes */
    }
    /* empty-typed-list-unpadded: an empty list returns before its padding (CPP's writer) */
    size_t k = (n == 0 && on(d, SMCM_EMPTY_TYPED_LIST_UNPADDED)) ? 0 : pad_len(d, width, tag_at);
    /* typed-view-at-address: DART views the elements in the underlying buffer, and a view
     * must start at a multiple of the element size in memory: off an aligned address it
     * throws a RangeError (a class its runner chooses, no offset), whatever the count */
    if (on(d, SMCM_TYPED_VIEW_AT_ADDRESS) && (d->address + d->pos + k) % width != 0) {
        return fail_any(d, "a typed view at an address that is not a multiple of its width");
    }
    if (!room_for(d, k + n * width, n * width)) { /* JAVA: new int[size], ... */
        return false;
    }
    if (!skip_pad(d, k)) {
        return false;
    }
    const uint8_t *p;
    if (!take_view(d, (size_t)n * width, &p)) {
        return false;
    }
    return make(d, smc_value_make_array_le(d->arena, type, p, (size_t)n), out);
}

static bool read_list(dec_t *d, unsigned enclosing, smc_value_t *out)
{
    uint64_t n;
    bool negative;
    if (!read_size(d, &n, &negative)) {
        return false;
    }
    if (negative) {
        return fail_any(d, "negative size: the host throws (sizes read as signed)");
    }
    if (!room_for(d, n, 4 * n)) { /* JAVA: new ArrayList<>(size), 4 bytes a reference */
        return false;
    }
    smc_value_t *list = smc_value_make_list(d->arena, (size_t)n);
    if (!list) {
        return nomem(d);
    }
    for (size_t i = 0; i < n; i++) {
        if (!read_value(d, enclosing + 1, &list->list.items[i])) {
            return false;
        }
    }
    *out = *list;
    return true;
}

static bool read_map(dec_t *d, unsigned enclosing, smc_value_t *out)
{
    uint64_t n;
    bool negative;
    if (!read_size(d, &n, &negative)) {
        return false;
    }
    if (negative) {
        if (on(d, SMCM_SIZE_SIGNED_32)) {
            n = 0; /* JAVA: `for (i < size)` never runs, so the map is empty (D19) */
        } else {
            return fail_any(d, "negative size: the host throws (sizes read as signed)");
        }
    }
    if (!room(d, 2 * n)) {
        return false;
    }
    smc_value_t *map = smc_value_make_map(d->arena, (size_t)n);
    if (!map) {
        return nomem(d);
    }
    for (size_t i = 0; i < 2 * n; i++) {
        if (!read_value(d, enclosing + 1, &map->map.entries[i])) {
            return false;
        }
    }
    smc_value_t *entries;
    size_t count;
    if (!smcmi_map_entries(d->bugs, map, d->arena, &entries, &count)) {
        return unknown(d, "map not modelled (too large, or a NaN key among several float64 keys)");
    }
    map->map.entries = entries;
    map->map.count = count;
    *out = *map;
    return true;
}

static bool is_container(uint8_t tag)
{
    return tag == 0x0c || tag == 0x0d || tag >= 0x80;
}

/* One value at the cursor; `enclosing` containers around it (spec §15.1). */
static bool read_value(dec_t *d, unsigned enclosing, smc_value_t *out)
{
    size_t at = d->pos;
    uint8_t tag;
    if (d->pos >= d->len && !on(d, SMCM_TRUNCATED_AS_ZERO)) {
        return nothing_left(d);
    }
    if (!take(d, 1, &tag)) {
        return false;
    }
    if (is_container(tag)) {
        unsigned limit = on(d, SMCM_NO_DEPTH_LIMIT) ? UNLIMITED_DEPTH : SMCM_MAX_DEPTH;
        if (enclosing + 1 > limit) {
            /* no-depth-limit: every official decoder recurses until its stack runs out
             * (D22: JAVA at about 2,260 levels, GLIB at 74,650); past what is modelled the
             * decoder may crash there or may not, as its stack decides */
            return on(d, SMCM_NO_DEPTH_LIMIT)
                       ? crash(d, SMCM_FAULT_DEPTH, true, "nesting deeper than the stack may hold")
                       : fail(d, "depth_limit", at);
        }
    }
    uint8_t b[8];
    smc_bytes_t text;
    switch (tag) {
    case 0x00:
        return make(d, smc_value_make_null(d->arena), out);
    case 0x01:
    case 0x02: {
        bool v = tag == 0x01;
        v = on(d, SMCM_CONTROL_BOOLS_SWAPPED) ? !v : v;
        return make(d, smc_value_make_bool(d->arena, v), out);
    }
    case 0x03: {
        if (!take(d, 4, b)) {
            return false;
        }
        uint32_t u = (uint32_t)le(b, 4);
        u += on(d, SMCM_CONTROL_I32_PLUS_ONE) ? 1u : 0u;
        int32_t v;
        memcpy(&v, &u, sizeof v);
        return make(d, smc_value_make_i32(d->arena, v), out);
    }
    case 0x04: {
        if (!take(d, 8, b)) {
            return false;
        }
        uint64_t u = le(b, 8);
        int64_t v;
        memcpy(&v, &u, sizeof v);
        if (on(d, SMCM_I64_NARROWED) && v >= INT32_MIN && v <= INT32_MAX) {
            return make(d, smc_value_make_i32(d->arena, (int32_t)v),
                        out); /* one integer type (GLIB) */
        }
        return make(d, smc_value_make_i64(d->arena, v), out);
    }
    case 0x05:
        if (d->strict && !on(d, SMCM_LARGEINT_AS_STRING)) {
            return fail(d, "unknown_tag", at); /* R4.4-5 */
        }
        if (!read_text(d, &text)) {
            return false;
        }
        return make(d,
                    on(d, SMCM_LARGEINT_AS_STRING)
                        ? smc_value_make_str(d->arena, text.ptr, text.len)
                        : smc_value_make_largeint(d->arena, text.ptr, text.len),
                    out);
    case 0x06: {
        if (!skip_pad(d, pad_len(d, 8, at)) || !take(d, 8, b)) {
            return false;
        }
        return make(d, smc_value_make_f64_bits(d->arena, le(b, 8)), out);
    }
    case 0x07:
        if (!read_text(d, &text)) {
            return false;
        }
        return make(d, smc_value_make_str(d->arena, text.ptr, text.len), out);
    case 0x08: {
        uint64_t n;
        bool negative;
        const uint8_t *p;
        if (!read_size(d, &n, &negative)) {
            return false;
        }
        if (negative) {
            return negative_array(d);
        }
        if (!room_for(d, n, n) || !take_view(d, (size_t)n, &p)) {
            return false;
        }
        return make(d, smc_value_make_u8s(d->arena, p, (size_t)n), out);
    }
    case 0x0e:
        if (on(d, SMCM_NO_FLOAT32LIST)) {
            return fail(d, "unknown_tag", at);
        }
        return read_typed_list(d, tag, at, out);
    case 0x09:
    case 0x0a:
    case 0x0b:
        return read_typed_list(d, tag, at, out);
    case 0x0c:
        return read_list(d, enclosing, out);
    case 0x0d:
        if (on(d, SMCM_CONTROL_MAPS_REJECTED)) {
            return fail(d, "unknown_tag", at);
        }
        return read_map(d, enclosing, out);
    default:
        break;
    }
    if (tag >= 0x80) {
        smc_value_t *custom = smc_value_make_custom(d->arena, tag, NULL);
        if (!custom) {
            return nomem(d);
        }
        if (!read_value(d, enclosing + 1, custom->custom.payload)) {
            return false;
        }
        *out = *custom;
        return true;
    }
    if (on(d, SMCM_UNKNOWN_TAG_AS_NULL)) {
        return make(d, smc_value_make_null(d->arena), out); /* CPP prints to stderr and goes on */
    }
    return fail(d, "unknown_tag", at);
}

/* A whole value in a fresh node. */
static smc_value_t *value_node(dec_t *d, unsigned enclosing)
{
    smc_value_t *v = smc_value_make_null(d->arena);
    if (!v) {
        nomem(d);
        return NULL;
    }
    return read_value(d, enclosing, v) ? v : NULL;
}

/* Bytes after the item (spec §9.1, R10.1-5, §11.5). */
static bool end_of_item(dec_t *d)
{
    if (d->pos < d->len && !on(d, SMCM_NO_TRAILING_CHECK)) {
        return fail(d, "trailing_bytes", d->pos);
    }
    return true;
}

/*
 * A fixed-type text element of a call or envelope: its tag must be `07` (or, with
 * allow_null, `00`), checked before decoding it (errors.md §14.2).
 */
/* Which text element of a call or envelope is read (D31: CPP answers each differently). */
typedef enum text_element { EL_NAME, EL_CODE, EL_MESSAGE, EL_STACKTRACE } text_element_t;

/* A text element of another type, as CPP reads it (D31): the element decoded as a value
 * first (its own errors are its own: an unknown tag inside it is unknown_tag), then
 * std::get<std::string> on an error's code or message throws bad_variant_access, uncaught,
 * and DecodeMethodCall returns null for a call whose name is not a string. */
static bool wrong_text_element(dec_t *d, text_element_t which, size_t at)
{
    bool uncaught = on(d, SMCM_ELEMENT_TYPE_UNCAUGHT) && (which == EL_CODE || which == EL_MESSAGE);
    bool null_call = on(d, SMCM_CALL_NAME_NOT_STRING_NULL) && which == EL_NAME;
    if (!uncaught && !null_call) {
        return fail(d, "bad_envelope", at);
    }
    if (!value_node(d, 0)) {
        return false;
    }
    return uncaught ? crash(d, SMCM_FAULT_TYPE, false,
                            "bad_variant_access: a code or message that is not a string (CPP)")
                    : fail_any(d, "no method call (null): a name that is not a string (CPP)");
}

static bool read_text_element(dec_t *d, text_element_t which, bool allow_null, bool *is_null,
                              smc_bytes_t *text)
{
    size_t at = d->pos;
    *is_null = false;
    if (d->pos >= d->len) {
        return nothing_left(d);
    }
    uint8_t tag = d->in[d->pos];
    if (tag == 0x00 && allow_null) {
        d->pos++;
        *is_null = true;
        return true;
    }
    if (tag != 0x07) {
        return wrong_text_element(d, which, at);
    }
    d->pos++;
    if (!read_text(d, text)) {
        return false;
    }
    /* the answer must outlive the input (the runner frees its copy of the bytes) */
    uint8_t *copy = smc_arena_alloc(d->arena, text->len ? text->len : 1);
    if (!copy) {
        return nomem(d);
    }
    memcpy(copy, text->ptr, text->len);
    text->ptr = copy;
    return true;
}

static bool decode_call(dec_t *d, smc_method_call_t *call)
{
    bool is_null;
    if (!read_text_element(d, EL_NAME, false, &is_null, &call->name)) {
        return false;
    }
    if (on(d, SMCM_PAD_FROM_CALL_ARGS)) {
        d->origin = d->pos; /* the arguments are aligned as if they were a message of their own */
    }
    call->args = value_node(d, 0);
    return call->args && end_of_item(d);
}

static bool read_error_body(dec_t *d, smc_envelope_t *env);

/*
 * success-trailing-as-error (JAVA, D27): bytes remain after a success value, so the decoder
 * falls through to the error path and reads code, message and details from there. A
 * complete triple is that error; anything else is "Envelope corrupted", an exception of no
 * class the bug determines.
 */
static bool error_after_success(dec_t *d, smc_envelope_t *env)
{
    dec_t sub = *d;
    smc_envelope_t err;
    memset(&err, 0, sizeof err);
    err.is_error = true;
    bool ok = read_text_element(&sub, EL_CODE, false, &(bool){false}, &err.code);
    bool is_null = false;
    ok = ok && read_text_element(&sub, EL_MESSAGE, true, &is_null, &err.message);
    err.has_message = ok && !is_null;
    ok = ok && (err.details = value_node(&sub, 0)) != NULL;
    if (sub.state == D_UNKNOWN) {
        return unknown(d, sub.why);
    }
    if (!ok || sub.pos != sub.len) {
        return fail_any(d, "Envelope corrupted: the rest is not an error envelope (JAVA)");
    }
    d->pos = sub.pos;
    *env = err;
    return true;
}

static bool decode_envelope(dec_t *d, smc_envelope_t *env)
{
    uint8_t flag;
    if (d->len == 0) {
        return nothing_left(d);
    }
    flag = d->in[0];
    d->pos = 1;
    if (on(d, SMCM_ENVELOPE_FLAG_INVERTED) && flag <= 1) {
        flag ^= 1;
    }
    if (on(d, SMCM_NONZERO_FLAG_IS_ERROR) && flag > 1) {
        flag = 1;
    }
    if (flag > 1) {
        return fail(d, "bad_envelope", 0);
    }
    if (on(d, SMCM_PAD_FROM_ENVELOPE_BODY)) {
        d->origin = 1;
    }
    env->is_error = flag == 1;
    if (!env->is_error) {
        env->result = value_node(d, 0);
        if (env->result && d->pos < d->len && on(d, SMCM_SUCCESS_TRAILING_AS_ERROR)) {
            return error_after_success(d, env);
        }
        return env->result && end_of_item(d);
    }
    return read_error_body(d, env);
}

/* Code, message, details [, stacktrace] of an error envelope, from the cursor. */
static bool read_error_body(dec_t *d, smc_envelope_t *env)
{
    bool is_null;
    if (!read_text_element(d, EL_CODE, false, &is_null, &env->code)) {
        return false;
    }
    if (!read_text_element(d, EL_MESSAGE, true, &is_null, &env->message)) {
        return false;
    }
    env->has_message =
        !is_null || on(d, SMCM_ERROR_MESSAGE_EMPTY_AS_NULL); /* CPP: null reads as "" */
    if (is_null) {
        env->message.ptr = NULL;
        env->message.len = 0;
    }
    env->details = value_node(d, 0);
    if (!env->details) {
        return false;
    }
    env->stacktrace_state = SMC_STACKTRACE_ABSENT;
    if (d->pos >= d->len || on(d, SMCM_ENVELOPE_EXTRA_IGNORED)) {
        return true; /* CPP reads three values and stops */
    }
    if (on(d, SMCM_STACKTRACE_REJECTED)) {
        return fail(d, "trailing_bytes", d->pos);
    }
    if (!read_text_element(d, EL_STACKTRACE, true, &is_null, &env->stacktrace)) {
        return false;
    }
    env->stacktrace_state = is_null ? SMC_STACKTRACE_NULL : SMC_STACKTRACE_STRING;
    return end_of_item(d);
}

void smcm_decode(smcm_set_t bugs, smc_entry_t entry, const uint8_t *data, size_t len, bool strict,
                 unsigned address, smc_arena_t *arena, smcm_answer_t *out)
{
    dec_t d;
    memset(&d, 0, sizeof d);
    d.in = data;
    d.len = data ? len : 0;
    d.bugs = bugs;
    d.strict = strict;
    d.address = address & 7u;
    d.arena = arena;
    memset(out, 0, sizeof *out);
    out->doc.entry = entry;
    bool ok = false;
    switch (entry) {
    case SMC_ENTRY_MESSAGE:
        if (d.len == 0 && (on(&d, SMCM_EMPTY_AS_NULL) || on(&d, SMCM_TRUNCATED_AS_ZERO))) {
            out->doc.value = smc_value_make_null(arena);
            ok = out->doc.value != NULL || nomem(&d);
            break;
        }
        if (d.len == 0) {
            ok = nothing_left(&d);
            break;
        }
        out->doc.value = value_node(&d, 0);
        ok = out->doc.value && end_of_item(&d);
        break;
    case SMC_ENTRY_CALL:
        ok = decode_call(&d, &out->doc.call);
        break;
    case SMC_ENTRY_ENVELOPE:
        ok = decode_envelope(&d, &out->doc.envelope);
        break;
    }
    if (ok) {
        out->kind = SMCM_VALUE;
        return;
    }
    if (d.state == D_ERROR) {
        out->kind = SMCM_ERROR;
        out->error_class = d.cls;
        out->has_offset = d.has_offset;
        out->offset = d.offset;
        out->why = d.why;
        out->fault = d.fault;
        out->fault_maybe = d.fault_maybe;
        return;
    }
    out->kind = SMCM_UNKNOWN;
    out->why = d.why ? d.why : "not modelled";
}

const char *smcm_fault_id(smcm_fault_t f)
{
    static const char *const ids[SMCM_FAULT_COUNT] = {
        "", "allocation", "negative-size", "recursion-depth", "read-past-end", "wrong-type"};
    return f < SMCM_FAULT_COUNT ? ids[f] : "";
}

const char *smcm_fault_what(smcm_fault_t f)
{
    static const char *const what[SMCM_FAULT_COUNT] = {"a rejection",
                                                       "allocation before the size check",
                                                       "a negative size allocated",
                                                       "recursion past the stack",
                                                       "a read past the end",
                                                       "a typed access of another type"};
    return f < SMCM_FAULT_COUNT ? what[f] : "";
}
