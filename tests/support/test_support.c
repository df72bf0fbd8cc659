/* Shared test helpers; see test_support.h. */
#include "test_support.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smct_hex.h"
#include "smct_notation.h"

/* ---- bytes ---- */

static size_t hex_append(uint8_t *out, const char *hex)
{
    size_t n = 0;
    int hi = -1;
    for (const char *p = hex; *p != '\0'; p++) {
        if (*p == ' ') {
            continue;
        }
        int v = smct_hex_lower_digit(*p);
        if (v < 0) {
            fail_msg("bad hex digit '%c' in \"%s\"", *p, hex);
        }
        if (hi < 0) {
            hi = v;
        } else {
            if (out != NULL) {
                out[n] = (uint8_t)(hi << 4 | v);
            }
            n++;
            hi = -1;
        }
    }
    if (hi >= 0) {
        fail_msg("odd number of hex digits in \"%s\"", hex);
    }
    return n;
}

ts_buf_t ts_hex_repeat(const char *prefix, uint8_t fill, size_t count, const char *suffix)
{
    size_t a = hex_append(NULL, prefix), c = hex_append(NULL, suffix);
    ts_buf_t b;
    b.len = a + count + c;
    b.data = (uint8_t *)malloc(b.len + 1);
    assert_non_null(b.data);
    hex_append(b.data, prefix);
    memset(b.data + a, fill, count);
    hex_append(b.data + a + count, suffix);
    return b;
}

ts_buf_t ts_hex(const char *hex)
{
    return ts_hex_repeat(hex, 0, 0, "");
}

void ts_buf_free(ts_buf_t *b)
{
    free(b->data);
    b->data = NULL;
    b->len = 0;
}

const char *ts_to_hex(const uint8_t *data, size_t len)
{
    static char out[1030];
    size_t n = 0;
    for (size_t i = 0; i < len && n + 3 < sizeof out - 4; i++) {
        n += (size_t)snprintf(out + n, sizeof out - n, "%02x", data[i]);
    }
    if (n + 3 >= sizeof out - 4) {
        snprintf(out + n, sizeof out - n, "...");
    }
    out[sizeof out - 1] = '\0';
    return out;
}

/* ---- counting allocator ---- */

typedef struct header {
    size_t size;
    size_t pad; /* keep the payload 16-aligned */
} header_t;

static void *ts_alloc_fn(void *ctx, size_t size)
{
    ts_alloc_t *a = (ts_alloc_t *)ctx;
    a->attempts++;
    if ((a->fail_at != 0 && a->attempts == a->fail_at) ||
        (a->max_size != 0 && size > a->max_size) ||
        (a->has_budget && size > a->budget - a->total_bytes)) {
        return NULL;
    }
    header_t *h = (header_t *)malloc(sizeof(header_t) + size);
    if (h == NULL) {
        return NULL;
    }
    h->size = size;
    a->allocs++;
    a->live++;
    a->live_bytes += size;
    a->total_bytes += size;
    if (a->live_bytes > a->peak_bytes) {
        a->peak_bytes = a->live_bytes;
    }
    return h + 1;
}

static void ts_free_fn(void *ctx, void *ptr, size_t size)
{
    ts_alloc_t *a = (ts_alloc_t *)ctx;
    header_t *h = (header_t *)ptr - 1;
    assert_int_equal(h->size, size); /* the library passes back the size it asked for */
    assert_true(a->live > 0);
    a->live--;
    a->live_bytes -= size;
    free(h);
}

void ts_alloc_init(ts_alloc_t *a)
{
    memset(a, 0, sizeof *a);
}

smc_allocator_t ts_alloc_allocator(ts_alloc_t *a)
{
    smc_allocator_t al = {ts_alloc_fn, ts_free_fn, a};
    return al;
}

/* ---- notation ---- */

/* The project's one notation reader (smct_notation.h, spec/notation.md N.3/N.4) does the
 * work; these wrappers only turn its errors into test failures. */

static smc_value_t *notation_or_fail(smct_status_t st, smc_value_t *v, const smct_error_t *err,
                                     const char *what)
{
    if (st != SMCT_OK) {
        fail_msg("%s is not valid notation (%s at offset %zu: %s)", what, smct_status_name(st),
                 err->offset, err->message != NULL ? err->message : "?");
    }
    assert_non_null(v);
    return v;
}

smc_value_t *ts_notation_json(smc_arena_t *arena, const smct_json_t *json)
{
    smc_value_t *v = NULL;
    smct_error_t err = {SMCT_OK, 0, NULL};
    smct_status_t st = smct_notation_read_value(json, arena, &v, &err);
    return notation_or_fail(st, v, &err, "JSON value");
}

smc_value_t *ts_notation(smc_arena_t *arena, const char *json)
{
    smc_value_t *v = NULL;
    smct_error_t err = {SMCT_OK, 0, NULL};
    smct_status_t st = smct_notation_parse_value(json, strlen(json), arena, &v, &err);
    return notation_or_fail(st, v, &err, json);
}

/* ---- value printing for failures ---- */

static void describe(const smc_value_t *v, char *out, size_t cap, int budget)
{
    size_t n = strlen(out);
    if (n + 40 >= cap || budget <= 0) {
        return;
    }
    char *p = out + n;
    size_t room = cap - n;
    switch (v->type) {
    case SMC_TYPE_NULL:
        snprintf(p, room, "null");
        break;
    case SMC_TYPE_BOOL:
        snprintf(p, room, v->boolean ? "true" : "false");
        break;
    case SMC_TYPE_I32:
        snprintf(p, room, "i32:%" PRId32, v->i32);
        break;
    case SMC_TYPE_I64:
        snprintf(p, room, "i64:%" PRId64, v->i64);
        break;
    case SMC_TYPE_F64:
        snprintf(p, room, "f64:%016" PRIx64, v->f64_bits);
        break;
    case SMC_TYPE_STR:
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_U8S:
        /* two hex digits per byte, at most 40 bytes shown */
        snprintf(p, room, "%s:%.*s", smc_type_name(v->type),
                 (int)(2 * (v->bytes.len > 40 ? 40 : v->bytes.len)),
                 ts_to_hex(v->bytes.ptr, v->bytes.len));
        break;
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        snprintf(p, room, "%s[%zu]", smc_type_name(v->type), v->array.count);
        break;
    case SMC_TYPE_LIST:
    case SMC_TYPE_MAP: {
        size_t k = v->type == SMC_TYPE_LIST ? v->list.count : 2 * v->map.count;
        const smc_value_t *c = v->type == SMC_TYPE_LIST ? v->list.items : v->map.entries;
        snprintf(p, room, v->type == SMC_TYPE_LIST ? "[" : "{");
        for (size_t i = 0; i < k; i++) {
            describe(&c[i], out, cap, budget - 1);
            size_t m = strlen(out);
            snprintf(out + m, cap - m, i + 1 < k ? "," : "");
        }
        n = strlen(out);
        snprintf(out + n, cap - n, v->type == SMC_TYPE_LIST ? "]" : "}");
        break;
    }
    case SMC_TYPE_CUSTOM:
        snprintf(p, room, "custom%u(", v->custom_tag);
        describe(v->custom.payload, out, cap, budget - 1);
        n = strlen(out);
        snprintf(out + n, cap - n, ")");
        break;
    }
}

void ts_assert_value_equal_at(const smc_value_t *expected, const smc_value_t *actual,
                              const char *file, int line)
{
    if (smc_value_equal(expected, actual)) {
        return;
    }
    char e[700] = "", a[700] = "";
    if (expected != NULL) {
        describe(expected, e, sizeof e, 8);
    }
    if (actual != NULL) {
        describe(actual, a, sizeof a, 8);
    }
    print_error("values differ\n  expected: %s\n  actual:   %s\n", e, a);
    _fail(file, line);
}

/* ---- assertions ---- */

smc_status_t ts_reader_walk(const uint8_t *data, size_t len, uint32_t flags, size_t *items,
                            smc_error_t *err)
{
    smc_reader_t r;
    smc_decode_opts_t opts = {flags, 0};
    smc_item_t it;
    *items = 0;
    smc_reader_init(&r, data, len, &opts);
    do {
        if (smc_reader_next(&r, &it) != SMC_OK) {
            break;
        }
        (*items)++;
    } while (!smc_reader_value_complete(&r));
    return smc_reader_finish(&r, err);
}

void ts_assert_decode_error_bytes(const uint8_t *data, size_t len, uint32_t flags,
                                  smc_status_t status, size_t offset, const char *file, int line)
{
    ts_alloc_t counter;
    ts_alloc_init(&counter);
    smc_allocator_t al = ts_alloc_allocator(&counter);
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, &al);
    smc_decode_opts_t opts = {flags, 0};
    smc_value_t *out = (smc_value_t *)&arena; /* must be reset to NULL */
    smc_error_t err = {SMC_OK, 0};
    smc_status_t st = smc_decode(data, len, &opts, &arena, &out, &err);
    if (st != status || err.status != status || err.offset != offset) {
        print_error("input %s (flags %#x): expected %s at %zu, got %s at %zu\n",
                    ts_to_hex(data, len), flags, smc_status_name(status), offset,
                    smc_status_name(err.status), err.offset);
        _fail(file, line);
    }
    _assert_true(out == NULL, "out == NULL", file, line);
    _assert_int_equal(smc_arena_used(&arena), 0, file, line); /* rolled back */
    _assert_int_equal(counter.live, 0, file, line);           /* nothing kept */
    smc_arena_free(&arena);

    /* The reader must agree exactly (same class, same offset). */
    smc_error_t rerr = {SMC_OK, 0};
    size_t items;
    smc_status_t rst = ts_reader_walk(data, len, flags, &items, &rerr);
    if (rst != status || rerr.offset != offset) {
        print_error("reader on %s: expected %s at %zu, got %s at %zu\n", ts_to_hex(data, len),
                    smc_status_name(status), offset, smc_status_name(rerr.status), rerr.offset);
        _fail(file, line);
    }
    _assert_int_equal(smc_validate(data, len, &opts, NULL), status, file, line);
}

void ts_assert_decode_error_at(const char *hex, uint32_t flags, smc_status_t status, size_t offset,
                               const char *file, int line)
{
    ts_buf_t b = ts_hex(hex);
    ts_assert_decode_error_bytes(b.data, b.len, flags, status, offset, file, line);
    ts_buf_free(&b);
}

void ts_assert_decodes_to_at(const char *hex, uint32_t flags, const char *notation,
                             const char *file, int line)
{
    ts_buf_t b = ts_hex(hex);
    ts_assert_decodes_bytes_to_at(b.data, b.len, flags, notation, file, line);
    ts_buf_free(&b);
}

void ts_assert_decodes_bytes_to_at(const uint8_t *data, size_t len, uint32_t flags,
                                   const char *notation, const char *file, int line)
{
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    const smc_value_t *expected = ts_notation(&arena, notation);
    /* Shift the input in memory: alignment is by message offset, never by address. */
    uint64_t storage[(4096 + 16) / 8 + 1];
    uint8_t *heap = NULL;
    uint8_t *base = (uint8_t *)storage;
    if (len + 8 > sizeof storage) {
        heap = (uint8_t *)malloc(len + 16);
        assert_non_null(heap);
        base = heap + (8 - ((uintptr_t)heap & 7)) % 8;
    }
    for (unsigned shift = 0; shift < 8; shift++) {
        for (int alias = 0; alias < 2; alias++) {
            uint8_t *in = base + shift;
            if (len > 0) {
                memcpy(in, data, len);
            }
            smc_decode_opts_t opts = {flags | (alias ? SMC_ALIAS_INPUT : 0u), 0};
            smc_value_t *out = NULL;
            smc_error_t err;
            smc_status_t st = smc_decode(in, len, &opts, &arena, &out, &err);
            if (st != SMC_OK) {
                print_error("decode of %s (flags %#x, shift %u): %s at %zu\n", ts_to_hex(data, len),
                            opts.flags, shift, smc_status_name(st), err.offset);
                _fail(file, line);
            }
            ts_assert_value_equal_at(expected, out, file, line);
            _assert_int_equal(smc_validate(in, len, &opts, NULL), SMC_OK, file, line);
        }
    }
    free(heap);
    smc_arena_free(&arena);
}

void ts_assert_encodes_to_at(const char *notation, const char *hex, const char *file, int line)
{
    ts_buf_t want = ts_hex(hex);
    ts_assert_encodes_to_bytes_at(notation, want.data, want.len, file, line);
    ts_buf_free(&want);
}

void ts_assert_encodes_to_bytes_at(const char *notation, const uint8_t *data, size_t len,
                                   const char *file, int line)
{
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    const smc_value_t *v = ts_notation(&arena, notation);
    uint8_t *out = (uint8_t *)malloc(len + 16);
    assert_non_null(out);
    size_t n = 0;
    smc_error_t err;
    smc_status_t st = smc_encode(v, out, len + 16, &n, &err);
    if (st != SMC_OK || n != len || memcmp(out, data, n) != 0) {
        print_error("encode of %s\n  expected %s\n", notation, ts_to_hex(data, len));
        print_error("  got      %s (%s)\n", ts_to_hex(out, st == SMC_OK ? n : 0),
                    smc_status_name(st));
        _fail(file, line);
    }
    _assert_int_equal(smc_encoded_size(v), len, file, line);
    /* One byte short: BUFFER_FULL and the exact size needed. */
    size_t needed = 0;
    st = smc_encode(v, out, len - 1, &needed, &err);
    _assert_int_equal(st, SMC_ERR_BUFFER_FULL, file, line);
    _assert_int_equal(needed, len, file, line);
    free(out);
    smc_arena_free(&arena);
}

void ts_assert_canonical_at(const char *notation, const char *hex, const char *file, int line)
{
    ts_buf_t b = ts_hex(hex);
    ts_assert_canonical_bytes_at(notation, b.data, b.len, file, line);
    ts_buf_free(&b);
}

void ts_assert_canonical_bytes_at(const char *notation, const uint8_t *data, size_t len,
                                  const char *file, int line)
{
    ts_assert_encodes_to_bytes_at(notation, data, len, file, line);
    ts_assert_decodes_bytes_to_at(data, len, SMC_MODE_FLUTTER, notation, file, line);
    ts_assert_decodes_bytes_to_at(data, len, SMC_MODE_STRICT, notation, file, line);
}

void ts_assert_encode_error_at(const smc_value_t *v, smc_status_t status, const char *file,
                               int line)
{
    uint8_t buf[64];
    size_t n = 99;
    smc_error_t err;
    smc_status_t st = smc_encode(v, buf, sizeof buf, &n, &err);
    if (st != status || err.status != status) {
        print_error("encode: expected %s, got %s\n", smc_status_name(status), smc_status_name(st));
        _fail(file, line);
    }
    _assert_int_equal(n, 0, file, line);
    _assert_int_equal(smc_encoded_size(v), 0, file, line);
}
