/*
 * spec/errors.md §14.2 (order of checks) and §14.3 (sizes before allocation) for the tree
 * decoder's fast path (ref-decoder/src/value.c): the common form of each tag is decoded
 * without the generic item reader, and every check that form skips must still hold. For
 * systematic families of inputs around each fast-path test — a string's size byte, its
 * bytes, ASCII or not, a float64's padding in both modes, a container's count, the depth
 * limit, custom tags with custom values on and off, each cut at every length — smc_decode
 * must give the status and offset of smc_validate (the reader layer, which never takes the
 * fast path), decode into a caller block of exactly smc_decode_bound(len) bytes, and a
 * successful tree must hold the bytes and numbers of the input.
 */
#include "test_support.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
    uint8_t b[320];
    size_t n;
} msg_t;

static void put(msg_t *m, uint8_t byte)
{
    assert_true(m->n < sizeof m->b);
    m->b[m->n++] = byte;
}

/* Decode data[0..len) in a caller block of exactly smc_decode_bound(len) bytes and check the
 * status and offset against smc_validate. Returns the tree (NULL on failure); the caller
 * frees *block. */
static smc_value_t *decode_as_validate(const uint8_t *data, size_t len, uint32_t flags,
                                       uint32_t max_depth, smc_arena_t *arena, void **block)
{
    smc_decode_opts_t opts = {flags, max_depth};
    size_t bound = smc_decode_bound(len);
    *block = malloc(bound > 0 ? bound : 1);
    assert_non_null(*block);
    smc_arena_init_buffer(arena, *block, bound);
    smc_value_t *root = NULL;
    smc_error_t derr, verr;
    smc_status_t ds = smc_decode(data, len, &opts, arena, &root, &derr);
    smc_status_t vs = smc_validate(data, len, &opts, &verr);
    if (ds != vs || derr.offset != verr.offset) {
        fail_msg("%s flags %u depth %u: decode %s at %zu, validate %s at %zu", ts_to_hex(data, len),
                 flags, max_depth, smc_status_name(ds), derr.offset, smc_status_name(vs),
                 verr.offset);
    }
    return ds == SMC_OK ? root : NULL;
}

/* Every cut of m (and m whole) under each flag set, each in a buffer of exactly its length. */
static void check_cuts(const msg_t *m, const uint32_t *flag_sets, size_t nsets)
{
    for (size_t f = 0; f < nsets; f++) {
        for (size_t cut = 0; cut <= m->n; cut++) {
            smc_arena_t arena;
            void *block;
            uint8_t *copy = malloc(cut > 0 ? cut : 1); /* exactly cut bytes: ASan sees overreads */
            assert_non_null(copy);
            memcpy(copy, m->b, cut);
            (void)decode_as_validate(copy, cut, flag_sets[f], 0, &arena, &block);
            free(copy);
            free(block);
        }
    }
}

static const uint32_t modes[] = {SMC_MODE_FLUTTER, SMC_MODE_STRICT, SMC_ALIAS_INPUT};

/* [str] with `len` bytes, byte `odd` (if < len) replaced by `odd_byte`. */
static void string_in_list(msg_t *m, uint8_t tag, size_t len, size_t odd, uint8_t odd_byte)
{
    m->n = 0;
    put(m, 0x0c);
    put(m, 1);
    put(m, tag);
    put(m, (uint8_t)len);
    for (size_t i = 0; i < len; i++) {
        put(m, i == odd ? odd_byte : (uint8_t)('a' + i % 26));
    }
}

static void s14_strings_every_length_and_cut(void **state)
{
    (void)state;
    msg_t m;
    for (size_t len = 0; len <= 40; len++) {
        for (size_t odd = 0; odd <= len; odd++) {
            /* ASCII (odd == len), a lone continuation byte, and a byte never valid */
            const uint8_t odd_bytes[] = {0x80, 0xff};
            for (size_t k = 0; k < (odd == len ? 1u : 2u); k++) {
                string_in_list(&m, 0x07, len, odd, odd_bytes[k]);
                check_cuts(&m, modes, 3);
                string_in_list(&m, 0x08, len, odd, odd_bytes[k]);
                check_cuts(&m, modes, 3);
            }
        }
        /* The whole ASCII string decodes to exactly its bytes, copied or aliased. */
        for (size_t f = 0; f < 3; f++) {
            string_in_list(&m, 0x07, len, len, 0);
            smc_arena_t arena;
            void *block;
            smc_value_t *v = decode_as_validate(m.b, m.n, modes[f], 0, &arena, &block);
            assert_non_null(v);
            assert_int_equal(v->type, SMC_TYPE_LIST);
            assert_int_equal(v->list.count, 1);
            const smc_value_t *s = &v->list.items[0];
            assert_int_equal(s->type, SMC_TYPE_STR);
            assert_int_equal(s->custom_tag, 0);
            assert_int_equal(s->bytes.len, len);
            if (len > 0) {
                assert_memory_equal(s->bytes.ptr, m.b + 4, len);
                if (modes[f] & SMC_ALIAS_INPUT) {
                    assert_ptr_equal(s->bytes.ptr, m.b + 4);
                } else {
                    assert_ptr_not_equal(s->bytes.ptr, m.b + 4);
                }
            } else {
                assert_null(s->bytes.ptr);
            }
            free(block);
        }
    }
    /* A size byte of 254/255 (the 3- and 5-byte forms) and one larger than the input. */
    const char *odd_sizes[] = {"0c0107fe0300616263", "0c0107ff03000000616263", "0c010705616263"};
    for (size_t i = 0; i < 3; i++) {
        ts_buf_t b = ts_hex(odd_sizes[i]);
        memcpy(m.b, b.data, b.len);
        m.n = b.len;
        check_cuts(&m, modes, 3);
        ts_buf_free(&b);
    }
}

static void s14_float64_every_padding_and_cut(void **state)
{
    (void)state;
    msg_t m;
    /* [null × k, 1.5]: the float64's tag at offset 2 + k, so every padding 0..7 occurs,
     * with zero and with non-zero padding bytes (not_canonical in strict mode, §3.3). */
    for (size_t k = 0; k < 8; k++) {
        for (uint8_t fill = 0; fill < 2; fill++) {
            m.n = 0;
            put(&m, 0x0c);
            put(&m, (uint8_t)(k + 1));
            for (size_t i = 0; i < k; i++) {
                put(&m, 0x00);
            }
            put(&m, 0x06);
            size_t pad = (8 - (m.n % 8)) % 8;
            for (size_t i = 0; i < pad; i++) {
                put(&m, fill ? 0x5a : 0x00);
            }
            const uint8_t one_and_half[8] = {0, 0, 0, 0, 0, 0, 0xf8, 0x3f};
            for (size_t i = 0; i < 8; i++) {
                put(&m, one_and_half[i]);
            }
            check_cuts(&m, modes, 3);
            smc_arena_t arena;
            void *block;
            smc_value_t *v = decode_as_validate(m.b, m.n, SMC_MODE_FLUTTER, 0, &arena, &block);
            assert_non_null(v);
            const smc_value_t *d = &v->list.items[k];
            assert_int_equal(d->type, SMC_TYPE_F64);
            assert_int_equal(d->f64_bits, UINT64_C(0x3ff8000000000000));
            free(block);
        }
    }
}

static void s14_scalars_and_containers_every_cut(void **state)
{
    (void)state;
    /* i32, i64, bools, null; a map; an empty list; a list whose count exceeds the input
     * (§14.3); a map of one entry whose value is missing; custom values (unknown_tag with
     * SMC_REJECT_CUSTOM). Each cut at every length, in every mode. */
    const char *cases[] = {
        "0c0603ffffff7f0401020304050607080102000d0107016b0307000000",
        "0c000c00",
        "0c05000000",
        "0d01070161",
        "810c028206000000000000000000f03f0300000000",
        "80808080808000",
        "0cfd00",               /* a count of 253 with 1 byte left (§14.3) */
        "0c030c7e000000000000", /* nested: the outer list's unfilled slots count too */
    };
    const uint32_t with_reject[] = {SMC_MODE_FLUTTER, SMC_MODE_STRICT, SMC_ALIAS_INPUT,
                                    SMC_REJECT_CUSTOM};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ts_buf_t b = ts_hex(cases[i]);
        msg_t m;
        memcpy(m.b, b.data, b.len);
        m.n = b.len;
        check_cuts(&m, with_reject, 4);
        ts_buf_free(&b);
    }
    /* The values themselves (the whole first case). */
    ts_buf_t b = ts_hex(cases[0]);
    smc_arena_t arena;
    void *block;
    smc_value_t *v = decode_as_validate(b.data, b.len, SMC_MODE_FLUTTER, 0, &arena, &block);
    assert_non_null(v);
    assert_int_equal(v->list.count, 6);
    assert_int_equal(v->list.items[0].i32, INT32_MAX);
    assert_int_equal(v->list.items[1].i64, INT64_C(0x0807060504030201));
    assert_true(v->list.items[2].boolean);
    assert_false(v->list.items[3].boolean);
    assert_int_equal(v->list.items[4].type, SMC_TYPE_NULL);
    assert_int_equal(v->list.items[5].type, SMC_TYPE_MAP);
    assert_int_equal(v->list.items[5].map.count, 1);
    assert_int_equal(v->list.items[5].map.entries[1].i32, 7);
    free(block);
    ts_buf_free(&b);
}

/* Nested lists and custom values at the depth limit and one past it (spec §15.1: depth is
 * checked at the tag, before the count). */
static void s14_depth_limit_at_every_level(void **state)
{
    (void)state;
    for (uint32_t limit = 1; limit <= 6; limit++) {
        for (uint32_t nest = 1; nest <= 7; nest++) {
            for (int custom = 0; custom < 2; custom++) {
                msg_t m = {.n = 0};
                for (uint32_t i = 0; i < nest; i++) {
                    if (custom && i % 2 == 1) {
                        put(&m, 0x80);
                    } else {
                        put(&m, 0x0c);
                        put(&m, 1);
                    }
                }
                put(&m, 0x00);
                smc_arena_t arena;
                void *block;
                smc_value_t *v = decode_as_validate(m.b, m.n, 0, limit, &arena, &block);
                assert_true((v != NULL) == (nest <= limit));
                free(block);
            }
        }
    }
}

/* One-pass fill of a container's children (value.c `fill`, decode_fast.h smci_fast_leaf):
 * a list or map of n children, each a leaf of a fast form, except child k, which the pass
 * cannot take (a nested list, a custom value, non-ASCII text, a 3-byte string size, a
 * largeInt, an empty list); the container at the top level, inside an outer list with a value after
 * it, and inside a custom value. Every cut in every mode gives validate's status and offset, and
 * the whole message decodes to a tree that encodes back to exactly its bytes (so every child is in
 * its own slot, also those after the one the pass stopped at; the 3-byte size re-encodes in its
 * 1-byte form and a largeInt is not encodable, so those two stops are checked by status and offset
 * only). */
static void put_hex(msg_t *m, const char *hex)
{
    ts_buf_t b = ts_hex(hex);
    for (size_t i = 0; i < b.len; i++) {
        put(m, b.data[i]);
    }
    ts_buf_free(&b);
}

static void put_fill_leaf(msg_t *m, size_t i)
{
    switch (i % 9) {
    case 0:
        put_hex(m, "00");
        break;
    case 1:
        put_hex(m, "01");
        break;
    case 2:
        put_hex(m, "03fcffffff");
        break;
    case 3:
        put_hex(m, "040102030405060780");
        break;
    case 4: { /* a float64 with zero padding to 8 from the message start */
        put(m, 0x06);
        while (m->n % 8 != 0) {
            put(m, 0x00);
        }
        put_hex(m, "000000000000f83f");
        break;
    }
    case 5:
        put_hex(m, "070361625a");
        break;
    case 6:
        put_hex(m, "02");
        break;
    case 7:
        put_hex(m, "0814000102030405060708090a0b0c0d0e0f10111213");
        break;
    default:
        put_hex(m, "0712616263646566676869707172737475767778");
        break;
    }
}

static void s14_fill_children_every_stop_and_cut(void **state)
{
    (void)state;
    const char *stops[] = {"0c02030700000000", "8103f9ffffff", "0702c3a9",
                           "07fe0300787978",   "0503313233",   "0c00"};
    const char *wraps[][2] = {{"", ""}, {"0c02", "00"}, {"80", ""}, {"0c0282", "01"}};
    for (size_t w = 0; w < sizeof wraps / sizeof wraps[0]; w++) {
        for (int map = 0; map < 2; map++) {
            for (size_t n = 1; n <= 5; n++) {
                size_t children = map ? 2 * n : n;
                for (size_t k = 0; k <= children; k++) {
                    for (size_t s = 0; s < (k == children ? 1u : 6u); s++) {
                        msg_t m = {.n = 0};
                        put_hex(&m, wraps[w][0]);
                        put(&m, map ? 0x0d : 0x0c);
                        put(&m, (uint8_t)n);
                        for (size_t i = 0; i < children; i++) {
                            if (i == k) {
                                put_hex(&m, stops[s]);
                            } else {
                                put_fill_leaf(&m, i + w + s);
                            }
                        }
                        put_hex(&m, wraps[w][1]);
                        check_cuts(&m, modes, 3);
                        smc_arena_t arena;
                        void *block;
                        smc_value_t *v =
                            decode_as_validate(m.b, m.n, SMC_MODE_FLUTTER, 0, &arena, &block);
                        assert_non_null(v);
                        if (s == 3 || s == 4) {
                            free(block); /* status and offset only (see above) */
                            continue;
                        }
                        uint8_t out[sizeof m.b];
                        size_t written = 0;
                        smc_status_t es = smc_encode(v, out, sizeof out, &written, NULL);
                        if (es != SMC_OK || written != m.n || memcmp(out, m.b, m.n) != 0) {
                            fail_msg("%s re-encodes differently: %s, %zu bytes",
                                     ts_to_hex(m.b, m.n), smc_status_name(es), written);
                        }
                        free(block);
                    }
                }
            }
        }
    }
}

/* The pass resumes after a leaf the generic path took when at least 64 children are left
 * (value.c SMCI_RESUME_MIN): a list of n nulls and small ints whose first child is non-ASCII
 * text (the generic path), with a second stop at child k or none, n on both sides of the
 * threshold; every cut in every mode, and the tree re-encoded to the input. */
static void s14_fill_resumes_after_generic_leaf(void **state)
{
    (void)state;
    const char *stops[] = {"0c0100", "0702c3a9", "8000"};
    const size_t counts[] = {63, 64, 65, 66, 100};
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        size_t n = counts[c];
        const size_t ks[] = {1, 2, n / 2, n - 1, n};
        for (size_t ki = 0; ki < sizeof ks / sizeof ks[0]; ki++) {
            for (size_t s = 0; s < (ks[ki] == n ? 1u : 3u); s++) {
                msg_t m = {.n = 0};
                put_hex(&m, "0c");
                put(&m, (uint8_t)n);
                put_hex(&m, "0703c3a961");
                for (size_t i = 1; i < n; i++) {
                    if (i == ks[ki]) {
                        put_hex(&m, stops[s]);
                    } else {
                        put_hex(&m, i % 3 == 0 ? "0305000000" : "00");
                    }
                }
                check_cuts(&m, modes, 3);
                smc_arena_t arena;
                void *block;
                smc_value_t *v = decode_as_validate(m.b, m.n, SMC_MODE_FLUTTER, 0, &arena, &block);
                assert_non_null(v);
                uint8_t out[sizeof m.b];
                size_t written = 0;
                smc_status_t es = smc_encode(v, out, sizeof out, &written, NULL);
                if (es != SMC_OK || written != m.n || memcmp(out, m.b, m.n) != 0) {
                    fail_msg("%s re-encodes differently: %s, %zu bytes", ts_to_hex(m.b, m.n),
                             smc_status_name(es), written);
                }
                free(block);
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s14_strings_every_length_and_cut),
        cmocka_unit_test(s14_float64_every_padding_and_cut),
        cmocka_unit_test(s14_scalars_and_containers_every_cut),
        cmocka_unit_test(s14_depth_limit_at_every_level),
        cmocka_unit_test(s14_fill_children_every_stop_and_cut),
        cmocka_unit_test(s14_fill_resumes_after_generic_leaf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
