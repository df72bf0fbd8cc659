/* spec §7: lists and maps (ordered entries, duplicates kept, any key type). */
#include "test_support.h"

/* §7.1–§7.4: every golden list and map vector (wire order, duplicate keys, any key type). */
static void s07_golden_list_and_map_vectors(void **state)
{
    (void)state;
    ts_run_vectors("s07.");
}

static void s07_3_duplicate_keys_are_all_kept(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    ts_buf_t b = ts_hex("0d0207016103010000000701610302000000");
    smc_value_t *v = NULL;
    assert_int_equal(smc_decode(b.data, b.len, NULL, &arena, &v, NULL), SMC_OK);
    assert_int_equal(v->map.count, 2);
    assert_int_equal(v->map.entries[1].i32, 1);
    assert_int_equal(v->map.entries[3].i32, 2);
    ts_buf_free(&b);
    smc_arena_free(&arena);
}

static void s07_4_keys_may_be_any_value(void **state)
{
    (void)state;
    /* NaN, a list, a map and a custom value as keys. */
    ts_assert_canonical("[\"map\", [[[\"f64\", \"7ff8000000000001\"], [\"null\"]],"
                        " [[\"list\", [[\"i32\", 1]]], [\"null\"]],"
                        " [[\"map\", []], [\"null\"]],"
                        " [[\"custom\", 129, [\"null\"]], [\"null\"]]]]",
                        "0d04 060000000000 010000000000f87f 00"
                        " 0c010301000000 00 0d0000 810000");
}

static void s07_order_of_entries_is_significant(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smc_value_t *a =
        ts_notation(&arena, "[\"map\", [[[\"i32\", 1], [\"null\"]], [[\"i32\", 2], [\"null\"]]]]");
    smc_value_t *b =
        ts_notation(&arena, "[\"map\", [[[\"i32\", 2], [\"null\"]], [[\"i32\", 1], [\"null\"]]]]");
    assert_false(smc_value_equal(a, b));
    smc_arena_free(&arena);
}

static void s07_truncated_containers(void **state)
{
    (void)state;
    /* GLib decode-error inputs (wire-format-notes §3.5). */
    ts_assert_decode_error("0c", 0, SMC_ERR_TRUNCATED, 1);
    ts_assert_decode_error("0c07", 0, SMC_ERR_TRUNCATED, 2);
    ts_assert_decode_error("0c0700", 0, SMC_ERR_TRUNCATED, 3);
    ts_assert_decode_error("0c070001032a00000006000000000000182d4454fb210940070568656c6c6f0c000d",
                           0, SMC_ERR_TRUNCATED, 34);
    ts_assert_decode_error("0d", 0, SMC_ERR_TRUNCATED, 1);
    ts_assert_decode_error("0d07", 0, SMC_ERR_TRUNCATED, 2);
    ts_assert_decode_error("0d0707", 0, SMC_ERR_TRUNCATED, 3);
    ts_assert_decode_error("0d0707046e756c6c000704626f6f6c010703696e74032a0000000705666c6f617406"
                           "000000000000182d4454fb2109400706737472696e67070568656c6c6f07046c697374"
                           "0c0007036d61700d",
                           0, SMC_ERR_TRUNCATED, 77);
    /* A map of n pairs needs 2n bytes (§14.3): one pair with only its key present. */
    ts_assert_decode_error("0d0100", 0, SMC_ERR_TRUNCATED, 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s07_golden_list_and_map_vectors),
        cmocka_unit_test(s07_3_duplicate_keys_are_all_kept),
        cmocka_unit_test(s07_4_keys_may_be_any_value),
        cmocka_unit_test(s07_order_of_entries_is_significant),
        cmocka_unit_test(s07_truncated_containers),
    };
    return cmocka_run_group_tests(tests, ts_golden_setup, ts_golden_teardown);
}
