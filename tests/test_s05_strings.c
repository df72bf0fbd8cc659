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
    };
    return cmocka_run_group_tests(tests, ts_golden_setup, ts_golden_teardown);
}
