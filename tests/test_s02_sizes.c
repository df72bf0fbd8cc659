/* spec §2: little-endian, size forms 1/3/5 bytes, shortest form on encode. */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Encode `v`, compare with `want`, decode `want` in both modes and compare with `v`. */
static void assert_value_bytes(const smc_value_t *v, const ts_buf_t *want)
{
    uint8_t *out = malloc(want->len);
    assert_non_null(out);
    size_t n = 0;
    assert_int_equal(smc_encode(v, out, want->len, &n, NULL), SMC_OK);
    assert_int_equal(n, want->len);
    assert_memory_equal(out, want->data, n);
    assert_int_equal(smc_encoded_size(v), want->len);
    free(out);
    for (int strict = 0; strict < 2; strict++) {
        smc_arena_t arena;
        smc_arena_init_allocator(&arena, NULL);
        smc_decode_opts_t opts = {strict ? SMC_MODE_STRICT : SMC_MODE_FLUTTER, 0};
        smc_value_t *got = NULL;
        assert_int_equal(smc_decode(want->data, want->len, &opts, &arena, &got, NULL), SMC_OK);
        ts_assert_value_equal(v, got);
        smc_arena_free(&arena);
    }
}

/* Uint8List of n zero bytes: the upstream Dart boundary vectors (wire-format-notes §3.1). */
static void check_u8s(size_t n, const char *size_hex)
{
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    uint8_t *zeros = calloc(n + 1, 1);
    assert_non_null(zeros);
    smc_value_t *v = smc_value_make_u8s(&arena, zeros, n);
    char prefix[32];
    snprintf(prefix, sizeof prefix, "08%s", size_hex);
    ts_buf_t want = ts_hex_repeat(prefix, 0x00, n, "");
    assert_value_bytes(v, &want);
    ts_buf_free(&want);
    free(zeros);
    smc_arena_free(&arena);
}

static void s02_2_size_253_uses_one_byte(void **state)
{
    (void)state;
    check_u8s(253, "fd");
}

static void s02_2_size_254_uses_u16_form(void **state)
{
    (void)state;
    check_u8s(254, "fefe00");
}

static void s02_2_size_65535_uses_u16_form(void **state)
{
    (void)state;
    check_u8s(0xffff, "feffff");
}

static void s02_2_size_65536_uses_u32_form(void **state)
{
    (void)state;
    check_u8s(0x10000, "ff00000100");
}

/* The same boundaries for a string, a list (count of values) and a map (count of pairs). */
static void s02_2_boundaries_hold_for_strings_lists_maps_and_typed_lists(void **state)
{
    (void)state;
    const size_t sizes[] = {253, 254, 0xffff, 0x10000};
    const char *forms[] = {"fd", "fefe00", "feffff", "ff00000100"};
    for (size_t k = 0; k < 4; k++) {
        size_t n = sizes[k];
        smc_arena_t arena;
        smc_arena_init_allocator(&arena, NULL);
        char prefix[32];

        char *text = malloc(n);
        assert_non_null(text);
        memset(text, 'a', n);
        smc_value_t *s = smc_value_make_str(&arena, text, n);
        snprintf(prefix, sizeof prefix, "07%s", forms[k]);
        ts_buf_t want = ts_hex_repeat(prefix, 'a', n, "");
        assert_value_bytes(s, &want);
        ts_buf_free(&want);
        free(text);

        smc_value_t *list = smc_value_make_list(&arena, n); /* n nulls */
        snprintf(prefix, sizeof prefix, "0c%s", forms[k]);
        want = ts_hex_repeat(prefix, 0x00, n, "");
        assert_value_bytes(list, &want);
        ts_buf_free(&want);

        smc_value_t *map = smc_value_make_map(&arena, n); /* n pairs null: null */
        snprintf(prefix, sizeof prefix, "0d%s", forms[k]);
        want = ts_hex_repeat(prefix, 0x00, 2 * n, "");
        assert_value_bytes(map, &want);
        ts_buf_free(&want);

        /* Int32List of n zeros: tag at 0, size, then padding to 4 from the message start. */
        int32_t *zeros = calloc(n, sizeof *zeros);
        assert_non_null(zeros);
        smc_value_t *arr = smc_value_make_i32s(&arena, zeros, n);
        size_t header = 1 + strlen(forms[k]) / 2;
        size_t pad = (4 - header % 4) % 4;
        snprintf(prefix, sizeof prefix, "09%s", forms[k]);
        want = ts_hex_repeat(prefix, 0x00, pad + 4 * n, "");
        assert_value_bytes(arr, &want);
        ts_buf_free(&want);
        free(zeros);
        smc_arena_free(&arena);
    }
}

static void s02_2_non_minimal_sizes_are_accepted_in_flutter_mode(void **state)
{
    (void)state;
    ts_run_vectors("s02."); /* with the longer size forms their vectors accept */
    ts_assert_decodes_to("08fe0300010203", 0, "[\"u8s\", \"010203\"]");
    ts_assert_decodes_to("0cff0100000000", 0, "[\"list\", [[\"null\"]]]");
    ts_assert_decodes_to("0dfe0000", 0, "[\"map\", []]");
}

static void s02_2_non_minimal_sizes_are_not_canonical_in_strict_mode(void **state)
{
    (void)state;
    /* not_canonical at the escape byte (spec/errors.md §14.1). */
    ts_assert_decode_error("07fe02006162", SMC_MODE_STRICT, SMC_ERR_NONMINIMAL_SIZE, 1);
    ts_assert_decode_error("07ff020000006162", SMC_MODE_STRICT, SMC_ERR_NONMINIMAL_SIZE, 1);
    ts_assert_decode_error("07fefd00", SMC_STRICT_SIZE, SMC_ERR_NONMINIMAL_SIZE, 1);
    ts_assert_decode_error("08ffffff0000", SMC_STRICT_SIZE, SMC_ERR_NONMINIMAL_SIZE, 1);
    ts_assert_decode_error("0c02000cfe0000", SMC_MODE_STRICT, SMC_ERR_NONMINIMAL_SIZE, 4);
    ts_assert_decode_error("0900fe", SMC_MODE_STRICT, SMC_ERR_TRUNCATED, 3); /* pad missing */
}

static void s02_2_truncated_size_fields(void **state)
{
    (void)state;
    ts_assert_decode_error("07fe", 0, SMC_ERR_TRUNCATED, 2);
    ts_assert_decode_error("07fe02", 0, SMC_ERR_TRUNCATED, 3);
    ts_assert_decode_error("07ff", 0, SMC_ERR_TRUNCATED, 2);
    ts_assert_decode_error("07ff020000", 0, SMC_ERR_TRUNCATED, 5);
    /* Truncation wins over strictness when the size field itself is cut (§14.2 step 2). */
    ts_assert_decode_error("07fe02", SMC_MODE_STRICT, SMC_ERR_TRUNCATED, 3);
}

static void s02_1_multi_byte_numbers_are_little_endian(void **state)
{
    (void)state;
    ts_assert_canonical("[\"i32\", 16909060]", "0304030201");
    ts_assert_canonical("[\"i64\", \"72623859790382856\"]", "040807060504030201");
    ts_assert_decodes_to("07fe0100 61", 0, "[\"str\", \"a\"]");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s02_2_size_253_uses_one_byte),
        cmocka_unit_test(s02_2_size_254_uses_u16_form),
        cmocka_unit_test(s02_2_size_65535_uses_u16_form),
        cmocka_unit_test(s02_2_size_65536_uses_u32_form),
        cmocka_unit_test(s02_2_boundaries_hold_for_strings_lists_maps_and_typed_lists),
        cmocka_unit_test(s02_2_non_minimal_sizes_are_accepted_in_flutter_mode),
        cmocka_unit_test(s02_2_non_minimal_sizes_are_not_canonical_in_strict_mode),
        cmocka_unit_test(s02_2_truncated_size_fields),
        cmocka_unit_test(s02_1_multi_byte_numbers_are_little_endian),
    };
    return cmocka_run_group_tests(tests, ts_golden_setup, ts_golden_teardown);
}
