/* spec §5: strings are UTF-8 (RFC 3629), sized in bytes, no terminator, NUL allowed. */
#include "test_support.h"

#include <stdio.h>
#include <string.h>

static void s05_1_string_vectors_match_upstream(void **state)
{
    (void)state;
    ts_run_vectors("s05.1-");
    ts_run_vectors("s05.2-");
}

static void s05_2_embedded_nul_is_preserved(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smc_value_t *v = smc_value_make_str(&arena, "a\0b", 3);
    uint8_t buf[8];
    size_t n;
    assert_int_equal(smc_encode(v, buf, sizeof buf, &n, NULL), SMC_OK);
    ts_buf_t want = ts_hex("0703610062");
    assert_int_equal(n, want.len);
    assert_memory_equal(buf, want.data, n);
    smc_value_t *back = NULL;
    assert_int_equal(smc_decode(want.data, want.len, NULL, &arena, &back, NULL), SMC_OK);
    ts_assert_value_equal(v, back);
    assert_int_equal(back->bytes.len, 3);
    ts_buf_free(&want);
    smc_arena_free(&arena);
}

/* The payload of "07 NN <bytes>" starts at offset 2. */
static void assert_bad_utf8(const char *payload_hex, size_t bad_index)
{
    char hex[256];
    size_t len = strlen(payload_hex) / 2;
    snprintf(hex, sizeof hex, "07%02zx%s", len, payload_hex);
    ts_assert_decode_error(hex, SMC_MODE_FLUTTER, SMC_ERR_BAD_UTF8, 2 + bad_index);
    ts_assert_decode_error(hex, SMC_MODE_STRICT, SMC_ERR_BAD_UTF8, 2 + bad_index);
}

static void s05_3_well_formed_boundaries_are_accepted(void **state)
{
    (void)state;
    ts_assert_canonical("[\"str\", \"\\u0080\"]", "0702c280");
    ts_assert_canonical("[\"str\", \"\\u07ff\"]", "0702dfbf");
    ts_assert_canonical("[\"str\", \"\\u0800\"]", "0703e0a080");
    ts_assert_canonical("[\"str\", \"\\ud7ff\"]", "0703ed9fbf");
    ts_assert_canonical("[\"str\", \"\\ue000\"]", "0703ee8080");
    ts_assert_canonical("[\"str\", \"\\uffff\"]", "0703efbfbf");
    ts_assert_canonical("[\"str\", \"\\ud800\\udc00\"]", "0704f0908080");
    ts_assert_canonical("[\"str\", \"\\udbff\\udfff\"]", "0704f48fbfbf");
}

static void s05_3_overlong_forms_are_bad_utf8(void **state)
{
    (void)state;
    assert_bad_utf8("c0af", 0);
    assert_bad_utf8("c1bf", 0);
    assert_bad_utf8("e08080", 0);
    assert_bad_utf8("e09fbf", 0);
    assert_bad_utf8("f08fbfbf", 0);
    assert_bad_utf8("61f0808080", 1);
}

static void s05_3_encoded_surrogates_are_bad_utf8(void **state)
{
    (void)state;
    assert_bad_utf8("eda080", 0);
    assert_bad_utf8("edbfbf", 0);
    assert_bad_utf8("6162eda080", 2);
}

static void s05_3_code_points_above_10ffff_are_bad_utf8(void **state)
{
    (void)state;
    assert_bad_utf8("f4908080", 0);
    assert_bad_utf8("f5808080", 0);
    assert_bad_utf8("ff", 0);
    assert_bad_utf8("fe", 0);
}

static void s05_3_stray_and_missing_continuation_bytes_are_bad_utf8(void **state)
{
    (void)state;
    assert_bad_utf8("80", 0);
    assert_bad_utf8("6180", 1);
    assert_bad_utf8("e282", 0); /* cut by the end of the string */
    assert_bad_utf8("61e282", 1);
    assert_bad_utf8("e24161", 0); /* ASCII where a continuation byte belongs */
    assert_bad_utf8("c328", 0);
    assert_bad_utf8("f09f98", 0);
    assert_bad_utf8("c3a9c3", 2);
}

static void s05_3_offset_points_past_a_long_ascii_run(void **state)
{
    (void)state;
    /* 37 ASCII bytes (several 8-byte fast-path chunks), then a bad byte. */
    char payload[128] = "";
    for (int i = 0; i < 37; i++) {
        strcat(payload, "61");
    }
    strcat(payload, "ff61");
    assert_bad_utf8(payload, 37);
}

static void s05_3_bad_utf8_deep_inside_a_value(void **state)
{
    (void)state;
    /* {"\xc3(": null} inside a list: the key's payload starts at 6. */
    ts_assert_decode_error("0c010d010702c32800", 0, SMC_ERR_BAD_UTF8, 6);
    /* A Uint8List is not text: the same bytes are fine there. */
    ts_assert_decodes_to("0802c328", 0, "[\"u8s\", \"c328\"]");
}

static void s05_3_encoder_refuses_ill_formed_utf8(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    ts_assert_encode_error(smc_value_make_str(&arena, "\xed\xa0\x80", 3), SMC_ERR_NOT_ENCODABLE);
    ts_assert_encode_error(smc_value_make_str(&arena, "a\xc3", 2), SMC_ERR_NOT_ENCODABLE);
    smc_arena_free(&arena);
}

static void s05_1_truncated_strings(void **state)
{
    (void)state;
    /* GLib decode-error inputs (wire-format-notes §3.5). */
    ts_assert_decode_error("07", 0, SMC_ERR_TRUNCATED, 1);
    ts_assert_decode_error("0705", 0, SMC_ERR_TRUNCATED, 2);
    ts_assert_decode_error("070568", 0, SMC_ERR_TRUNCATED, 3);
    ts_assert_decode_error("070568656c6c", 0, SMC_ERR_TRUNCATED, 6);
    /* A truncated payload is truncated even if its bytes so far are not UTF-8 (§14.2: the
     * UTF-8 check runs once the payload is known to be present). */
    ts_assert_decode_error("0703ff", 0, SMC_ERR_TRUNCATED, 3);
}

/* The per-value loops copy and check short strings with overlapping fixed-width loads
 * (copy_short.h, read_item.h's all-ASCII test), each length range its own way: every length
 * up to well past those ranges is copied exactly, both ways, with nothing written past its
 * end, and a non-ASCII byte at any position of it is seen. */
static void s05_1_every_short_length_is_copied_and_checked_exactly(void **state)
{
    (void)state;
    enum { MAX_LEN = 72, GUARD = 16 };
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    for (size_t len = 0; len <= MAX_LEN; len++) {
        char text[MAX_LEN + 1];
        /* printable ASCII, no two neighbours alike */
        for (size_t i = 0; i < len; i++) {
            text[i] = (char)('!' + (i * 7 + len) % 90);
        }
        uint8_t wire[2 + MAX_LEN];
        wire[0] = 0x07;
        wire[1] = (uint8_t)len;
        memcpy(wire + 2, text, len);

        uint8_t out[2 + MAX_LEN + GUARD];
        memset(out, 0xAA, sizeof out);
        size_t n = 0;
        smc_value_t *v = smc_value_make_str(&arena, text, len);
        assert_non_null(v);
        assert_int_equal(smc_encode(v, out, sizeof out, &n, NULL), SMC_OK);
        assert_int_equal(n, 2 + len);
        assert_memory_equal(out, wire, n);
        for (size_t i = n; i < sizeof out; i++) {
            assert_int_equal(out[i], 0xAA);
        }

        smc_value_t *back = NULL;
        assert_int_equal(smc_decode(wire, 2 + len, NULL, &arena, &back, NULL), SMC_OK);
        assert_int_equal(back->type, SMC_TYPE_STR);
        assert_int_equal(back->bytes.len, len);
        if (len > 0) {
            assert_ptr_not_equal(back->bytes.ptr, wire + 2); /* an owned copy */
            assert_memory_equal(back->bytes.ptr, text, len);
        }

        for (size_t bad = 0; bad < len; bad++) {
            uint8_t broken[2 + MAX_LEN];
            memcpy(broken, wire, 2 + len);
            broken[2 + bad] = 0xFF;
            smc_error_t err;
            back = NULL;
            assert_int_equal(smc_decode(broken, 2 + len, NULL, &arena, &back, &err),
                             SMC_ERR_BAD_UTF8);
            assert_int_equal(err.offset, 2 + bad);
            smc_value_t *bad_str = smc_value_make_str(&arena, (const char *)broken + 2, len);
            assert_non_null(bad_str);
            assert_int_equal(smc_encode(bad_str, out, sizeof out, &n, NULL), SMC_ERR_NOT_ENCODABLE);
        }
        smc_arena_reset(&arena);
    }
    smc_arena_free(&arena);
}

/* ---- spec §5.3: the validator against RFC 3629's table, exhaustively ----
 *
 * The validator (ref-decoder/src/utf8.c) skips ASCII a word at a time and checks each
 * multi-byte sequence from a table of lead bytes; the decoder's reader (smc_validate, whose
 * status and offset smc_decode shares), the tree decoder and the encoder's walk all reach it.
 * Each is compared here with a reference written from RFC 3629 §4's syntax, one row per
 * alternative, that walks the string a sequence at a time: the verdict, and on failure the
 * offset of the first byte of the first ill-formed subsequence (its lead byte). */

typedef struct {
    uint8_t lead_lo, lead_hi, second_lo, second_hi, len;
} rfc3629_row_t;

static const rfc3629_row_t RFC3629[] = {
    {0x00, 0x7F, 0x00, 0x00, 1}, /* UTF8-1 */
    {0xC2, 0xDF, 0x80, 0xBF, 2}, /* UTF8-2 */
    {0xE0, 0xE0, 0xA0, 0xBF, 3}, /* UTF8-3 */
    {0xE1, 0xEC, 0x80, 0xBF, 3}, {0xED, 0xED, 0x80, 0x9F, 3},
    {0xEE, 0xEF, 0x80, 0xBF, 3}, {0xF0, 0xF0, 0x90, 0xBF, 4}, /* UTF8-4 */
    {0xF1, 0xF3, 0x80, 0xBF, 4}, {0xF4, 0xF4, 0x80, 0x8F, 4},
};

static bool ref_utf8_valid(const uint8_t *s, size_t n, size_t *bad)
{
    size_t i = 0;
    while (i < n) {
        const rfc3629_row_t *row = NULL;
        for (size_t r = 0; r < sizeof RFC3629 / sizeof RFC3629[0] && row == NULL; r++) {
            if (s[i] >= RFC3629[r].lead_lo && s[i] <= RFC3629[r].lead_hi) {
                row = &RFC3629[r]; /* the rows' lead ranges do not overlap */
            }
        }
        bool ok = row != NULL && row->len <= n - i;
        for (size_t k = 1; ok && k < row->len; k++) {
            uint8_t lo = k == 1 ? row->second_lo : 0x80;
            uint8_t hi = k == 1 ? row->second_hi : 0xBF;
            ok = s[i + k] >= lo && s[i + k] <= hi;
        }
        if (!ok) {
            *bad = i;
            return false;
        }
        i += row->len;
    }
    return true;
}

enum { U8_MAX_LEN = 253 }; /* one size byte */

static void print_hex(const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        print_message("%02x", s[i]);
    }
    print_message("\n");
}

enum { ALSO_ENCODE = 1, ALSO_DECODE = 2 };

/* smc_validate on "07 NN <s>" (the offset of s[0] is 2) agrees with the reference; with
 * ALSO_ENCODE smc_encode of s as a string too, with ALSO_DECODE smc_decode too. */
static void assert_utf8_agrees(const uint8_t *s, size_t n, unsigned also, smc_arena_t *arena)
{
    assert_true(n <= U8_MAX_LEN);
    size_t want_bad = 0;
    bool want = ref_utf8_valid(s, n, &want_bad);
    smc_status_t want_st = want ? SMC_OK : SMC_ERR_BAD_UTF8;
    size_t want_off = want ? 0 : 2 + want_bad;

    uint8_t wire[2 + U8_MAX_LEN];
    wire[0] = 0x07;
    wire[1] = (uint8_t)n;
    memcpy(wire + 2, s, n);
    smc_error_t err = {SMC_OK, 0};
    smc_status_t st = smc_validate(wire, 2 + n, NULL, &err);
    if (st != want_st || (!want && err.offset != want_off)) {
        print_message("validate: status %d offset %zu, want %d offset %zu for ", (int)st,
                      err.offset, (int)want_st, want_off);
        print_hex(s, n);
        fail();
    }
    if (also & ALSO_DECODE) {
        smc_value_t *back = NULL;
        err.offset = 0;
        st = smc_decode(wire, 2 + n, NULL, arena, &back, &err);
        if (st != want_st || (!want && err.offset != want_off)) {
            print_message("decode: status %d offset %zu, want %d offset %zu for ", (int)st,
                          err.offset, (int)want_st, want_off);
            print_hex(s, n);
            fail();
        }
        smc_arena_reset(arena);
    }
    if (!(also & ALSO_ENCODE)) {
        return;
    }
    smc_value_t v;
    memset(&v, 0, sizeof v);
    v.type = SMC_TYPE_STR;
    v.bytes.ptr = s;
    v.bytes.len = n;
    uint8_t out[2 + U8_MAX_LEN];
    size_t written = 0;
    st = smc_encode(&v, out, sizeof out, &written, NULL);
    if (st != (want ? SMC_OK : SMC_ERR_NOT_ENCODABLE) || (want && written != 2 + n)) {
        print_message("encode: status %d for ", (int)st);
        print_hex(s, n);
        fail();
    }
}

/* Bytes of each class a sequence's third and fourth bytes are tested with: the ends of the
 * continuation range and their neighbours. */
static const uint8_t TAIL_BYTES[] = {0x80, 0xBF, 0x7F, 0xC0};
enum { N_TAIL = sizeof TAIL_BYTES };

/* Every lead byte × every second byte × the tail bytes above for the third and fourth (for a
 * lead of 3 or 4 bytes; for any other lead byte the first pair), whole and cut at every
 * length (a cut is tried once: for the first value of each byte it drops). The other tails
 * after every lead byte: s05_3_each_sequence_at_every_position_agrees_with_rfc3629. */
static void s05_3_every_lead_and_second_byte_agree_with_rfc3629(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    for (unsigned lead = 0; lead < 256; lead++) {
        for (unsigned second = 0; second < 256; second++) {
            unsigned tails = lead >= 0xE0 && lead <= 0xF4 ? N_TAIL * N_TAIL : 1;
            for (unsigned t = 0; t < tails; t++) {
                uint8_t seq[4] = {(uint8_t)lead, (uint8_t)second, TAIL_BYTES[t / N_TAIL],
                                  TAIL_BYTES[t % N_TAIL]};
                size_t from = t == 0 ? (second == 0 ? 1 : 2) : (t % N_TAIL == 0 ? 3 : 4);
                for (size_t n = from; n <= 4; n++) {
                    assert_utf8_agrees(seq, n, ALSO_ENCODE, &arena);
                }
            }
        }
    }
    smc_arena_free(&arena);
}

/* Each lead byte, with second bytes at and around the edges of every row's range (a
 * continuation byte for a byte that leads nothing) and each pair of tail bytes, after 0..40
 * ASCII bytes (every phase of a word-at-a-time scan, and runs of several words), cut at every
 * length inside it, or whole and followed by 0..17 ASCII bytes (fewer than a word, a word,
 * more; the encoder's walk on every other one). */
static void s05_3_each_sequence_at_every_position_agrees_with_rfc3629(void **state)
{
    (void)state;
    static const uint8_t SECONDS[] = {0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF};
    static const uint8_t SECONDS_NO_LEAD[] = {0x80};
    static const uint8_t TAILS[][2] = {{0x80, 0x80}, {0xBF, 0xBF}, {0x7F, 0x80}, {0x80, 0xC0}};
    /* the ASCII bytes after it: none, fewer than a word, a word, more */
    static const uint8_t AFTER[] = {0, 1, 7, 8, 9, 17};
    enum { MAX_POS = 40, MAX_AFTER = 17 };
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    uint8_t s[MAX_POS + 4 + MAX_AFTER];
    for (size_t pos = 0; pos <= MAX_POS; pos++) {
        for (size_t i = 0; i < sizeof s; i++) {
            s[i] = (uint8_t)((i * 37 + pos) % 128); /* ASCII, 0x00 and 0x7F among them */
        }
        for (unsigned lead = 0; lead < 256; lead++) {
            bool leads = lead >= 0xC2 && lead <= 0xF4;
            const uint8_t *seconds = leads ? SECONDS : SECONDS_NO_LEAD;
            size_t n_seconds = leads ? sizeof SECONDS : sizeof SECONDS_NO_LEAD;
            for (size_t j = 0; j < n_seconds; j++) {
                for (size_t t = 0; t < sizeof TAILS / sizeof TAILS[0]; t++) {
                    s[pos] = (uint8_t)lead;
                    s[pos + 1] = seconds[j];
                    s[pos + 2] = TAILS[t][0];
                    s[pos + 3] = TAILS[t][1];
                    size_t from = t == 0 ? (j == 0 ? 1 : 2) : 3;
                    for (size_t cut = from; cut < 4; cut++) {
                        assert_utf8_agrees(s, pos + cut, 0, &arena);
                    }
                    for (size_t a = 0; a < sizeof AFTER; a++) {
                        assert_utf8_agrees(s, pos + 4 + AFTER[a], a % 2 ? ALSO_ENCODE : 0, &arena);
                    }
                }
            }
        }
    }
    smc_arena_free(&arena);
}

static uint64_t xorshift(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/* Appends code point cp as UTF-8 (cp a scalar value) if it fits. */
static size_t put_code_point(uint8_t *s, size_t n, size_t cap, uint32_t cp)
{
    uint8_t b[4];
    size_t k;
    if (cp < 0x80) {
        b[0] = (uint8_t)cp;
        k = 1;
    } else if (cp < 0x800) {
        b[0] = (uint8_t)(0xC0 | cp >> 6);
        b[1] = (uint8_t)(0x80 | (cp & 0x3F));
        k = 2;
    } else if (cp < 0x10000) {
        b[0] = (uint8_t)(0xE0 | cp >> 12);
        b[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        b[2] = (uint8_t)(0x80 | (cp & 0x3F));
        k = 3;
    } else {
        b[0] = (uint8_t)(0xF0 | cp >> 18);
        b[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
        b[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        b[3] = (uint8_t)(0x80 | (cp & 0x3F));
        k = 4;
    }
    if (n + k > cap) {
        return n;
    }
    memcpy(s + n, b, k);
    return n + k;
}

/* A code point of 2, 3 or 4 bytes, a third of them at the edge of a range. */
static uint32_t random_code_point(uint64_t *x)
{
    static const uint32_t EDGES[] = {0x80,   0x7FF,   0x800,   0xD7FF,   0xE000,
                                     0xFFFF, 0x10000, 0xFFFFF, 0x100000, 0x10FFFF};
    uint64_t r = xorshift(x);
    if (r % 3 == 0) {
        return EDGES[(r >> 8) % (sizeof EDGES / sizeof EDGES[0])];
    }
    uint32_t cp;
    switch ((r >> 8) % 3) {
    case 0:
        return 0x80 + (uint32_t)((r >> 16) % (0x800 - 0x80));
    case 1:
        cp = 0x800 + (uint32_t)((r >> 16) % (0x10000 - 0x800));
        return cp >= 0xD800 && cp <= 0xDFFF ? cp - 0x800 : cp;
    default:
        return 0x10000 + (uint32_t)((r >> 16) % (0x110000 - 0x10000));
    }
}

/* Seeded random strings of up to 253 bytes, mostly well-formed text: runs of ASCII and of
 * multi-byte characters; a third then have one byte replaced or are cut short. Through the
 * tree decoder too. */
static void s05_3_random_text_agrees_with_rfc3629(void **state)
{
    (void)state;
    enum { STRINGS = 4000 };
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    uint64_t x = UINT64_C(0x9E3779B97F4A7C15);
    uint8_t s[U8_MAX_LEN];
    for (int k = 0; k < STRINGS; k++) {
        size_t cap = (size_t)(xorshift(&x) % (k % 4 == 0 ? U8_MAX_LEN + 1 : 48));
        size_t n = 0;
        while (n < cap) {
            uint64_t r = xorshift(&x);
            size_t before = n;
            if (r % 4 == 0) {
                for (size_t run = 1 + (r >> 8) % 12; run > 0 && n < cap; run--) {
                    s[n++] = (uint8_t)(0x20 + (xorshift(&x) % 95));
                }
            } else {
                n = put_code_point(s, n, cap, random_code_point(&x));
            }
            if (n == before) {
                s[n++] = 'a'; /* no character fits the last bytes */
            }
        }
        uint64_t r = xorshift(&x);
        if (n > 0 && r % 3 == 0) {
            static const uint8_t BREAKS[] = {0x80, 0xBF, 0xC0, 0xC1, 0xE0, 0xED,
                                             0xF0, 0xF4, 0xF5, 0xFF, 0x7F};
            uint8_t b = (r >> 8) % 2 ? BREAKS[(r >> 16) % sizeof BREAKS] : (uint8_t)(r >> 24);
            s[(r >> 32) % n] = b;
        } else if (n > 0 && r % 3 == 1) {
            n -= 1 + (size_t)((r >> 8) % (n < 3 ? n : 3));
        }
        assert_utf8_agrees(s, n, ALSO_ENCODE | ALSO_DECODE, &arena);
    }
    smc_arena_free(&arena);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s05_1_string_vectors_match_upstream),
        cmocka_unit_test(s05_2_embedded_nul_is_preserved),
        cmocka_unit_test(s05_3_well_formed_boundaries_are_accepted),
        cmocka_unit_test(s05_3_overlong_forms_are_bad_utf8),
        cmocka_unit_test(s05_3_encoded_surrogates_are_bad_utf8),
        cmocka_unit_test(s05_3_code_points_above_10ffff_are_bad_utf8),
        cmocka_unit_test(s05_3_stray_and_missing_continuation_bytes_are_bad_utf8),
        cmocka_unit_test(s05_3_offset_points_past_a_long_ascii_run),
        cmocka_unit_test(s05_3_bad_utf8_deep_inside_a_value),
        cmocka_unit_test(s05_3_encoder_refuses_ill_formed_utf8),
        cmocka_unit_test(s05_1_truncated_strings),
        cmocka_unit_test(s05_1_every_short_length_is_copied_and_checked_exactly),
        cmocka_unit_test(s05_3_every_lead_and_second_byte_agree_with_rfc3629),
        cmocka_unit_test(s05_3_each_sequence_at_every_position_agrees_with_rfc3629),
        cmocka_unit_test(s05_3_random_text_agrees_with_rfc3629),
    };
    return cmocka_run_group_tests(tests, ts_golden_setup, ts_golden_teardown);
}
