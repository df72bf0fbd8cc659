/*
 * Unit tests of smct_summary_of (notation/): the depth, value count and bytes a runner reports
 * for a value too large to print (runners/PROTOCOL.md P.3), and that it walks a tree far
 * deeper than any stack without recursing.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "smct_notation.h"
#include "smct_summary.h"

static smct_summary_t summary_of_text(const char *text, smc_entry_t entry)
{
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smct_doc_t doc;
    smct_error_t e;
    assert_int_equal(smct_notation_parse(text, strlen(text), entry, &arena, &doc, &e), SMCT_OK);
    smct_summary_t s;
    assert_int_equal(smct_summary_of(&doc, &s), SMCT_OK);
    smc_arena_free(&arena);
    return s;
}

static void counts_depth_values_and_bytes(void **state)
{
    (void)state;
    smct_summary_t s = summary_of_text("[\"list\",[[\"str\",\"ab\"],[\"map\",[[[\"i32\",1],["
                                       "\"u8s\",\"010203\"]]]],[\"i64s\",[\"1\",\"2\"]],"
                                       "[\"custom\",130,[\"f32s\",[\"00000000\"]]]]]",
                                       SMC_ENTRY_MESSAGE);
    assert_int_equal(s.depth, 2);
    assert_int_equal(s.values, 8); /* list, str, map, key, value, i64s, custom, f32s */
    assert_int_equal(s.bytes, 2 + 3 + 16 + 4);
    s = summary_of_text("[\"i32\",5]", SMC_ENTRY_MESSAGE);
    assert_true(s.depth == 0 && s.values == 1 && s.bytes == 0);
    /* a call: its arguments; an envelope: its result or its details */
    s = summary_of_text("[\"call\",\"m\",[\"list\",[[\"null\"]]]]", SMC_ENTRY_CALL);
    assert_true(s.depth == 1 && s.values == 2);
    s = summary_of_text("[\"error\",\"code\",\"message\",[\"str\",\"xyz\"]]", SMC_ENTRY_ENVELOPE);
    assert_true(s.depth == 0 && s.values == 1 && s.bytes == 3);
}

/* 1,000,000 nested custom values: a recursive walk would overflow the stack (also under ASan). */
static void walks_a_million_levels_without_recursion(void **state)
{
    (void)state;
    size_t levels = 1000000;
    smc_value_t *nodes = calloc(levels + 1, sizeof *nodes);
    assert_non_null(nodes);
    nodes[levels].type = SMC_TYPE_NULL;
    for (size_t i = 0; i < levels; i++) {
        nodes[i].type = SMC_TYPE_CUSTOM;
        nodes[i].custom_tag = 128;
        nodes[i].custom.payload = &nodes[i + 1];
    }
    smct_doc_t doc = {.entry = SMC_ENTRY_MESSAGE, .value = nodes};
    smct_summary_t s;
    assert_int_equal(smct_summary_of(&doc, &s), SMCT_OK);
    assert_int_equal(s.depth, levels);
    assert_int_equal(s.values, levels + 1);
    free(nodes);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(counts_depth_values_and_bytes),
        cmocka_unit_test(walks_a_million_levels_without_recursion),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
