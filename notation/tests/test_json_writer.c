/*
 * Unit tests of smct_json_writer (notation/): the one way the reports and the C runner kit
 * write JSON. Every text it accepts parses back (smct_json_parse) to what was written; every
 * call that would break the JSON is refused and marks the output failed.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "smct_json.h"
#include "smct_json_writer.h"

/* The text must parse as exactly one JSON value. */
static void assert_parses(const smct_buf_t *b)
{
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smct_json_t *root = NULL;
    assert_int_equal(smct_json_parse(b->data, b->len, NULL, &arena, &root, NULL), SMCT_OK);
    smc_arena_free(&arena);
}

static void writes_commas_colons_and_escapes(void **state)
{
    (void)state;
    smct_buf_t b = {0};
    smct_jw_t w;
    smct_jw_init(&w, &b);
    smct_jw_object(&w);
    smct_jw_key_str(&w, "a\"b", "x\ny");
    smct_jw_key(&w, "list");
    smct_jw_array(&w);
    smct_jw_u64(&w, 18446744073709551615u);
    smct_jw_i64(&w, -5);
    smct_jw_real(&w, 1.5, 3);
    smct_jw_real(&w, 0.25, -1);
    smct_jw_str_n(&w, "n\0l", 3);
    smct_jw_hex(&w, (const uint8_t *)"\x01\xab", 2);
    smct_jw_json(&w, "{\"k\":[]}", 8);
    smct_jw_object(&w);
    smct_jw_end_object(&w);
    smct_jw_end_array(&w);
    smct_jw_key_null(&w, "none");
    smct_jw_key_bool(&w, "t", true);
    smct_jw_key_str(&w, "nul", NULL);
    smct_jw_end_object(&w);
    assert_true(smct_jw_ok(&w));
    assert_string_equal(b.data, "{\"a\\\"b\":\"x\\ny\",\"list\":[18446744073709551615,-5,1.500,"
                                "0.25,\"n\\u0000l\",\"01ab\",{\"k\":[]},{}],\"none\":null,"
                                "\"t\":true,\"nul\":null}");
    assert_parses(&b);
    smct_buf_free(&b);
}

/* A line break goes after the comma, never before it, and never between a key and value. */
static void newline_goes_after_the_comma(void **state)
{
    (void)state;
    smct_buf_t b = {0};
    smct_jw_t w;
    smct_jw_init(&w, &b);
    smct_jw_array(&w);
    smct_jw_newline(&w);
    smct_jw_u64(&w, 1);
    smct_jw_newline(&w);
    smct_jw_u64(&w, 2);
    smct_jw_end_array(&w);
    smct_jw_newline(&w);
    assert_true(smct_jw_ok(&w));
    assert_string_equal(b.data, "[\n1,\n2]\n");
    smct_buf_free(&b);
}

typedef void (*misuse_fn)(smct_jw_t *w);

static void key_outside_object(smct_jw_t *w)
{
    smct_jw_array(w);
    smct_jw_key(w, "k");
}
static void key_at_top(smct_jw_t *w)
{
    smct_jw_key(w, "k");
}
static void value_without_key(smct_jw_t *w)
{
    smct_jw_object(w);
    smct_jw_u64(w, 1);
}
static void two_keys_in_a_row(smct_jw_t *w)
{
    smct_jw_object(w);
    smct_jw_key(w, "a");
    smct_jw_key(w, "b");
}
static void close_after_key(smct_jw_t *w)
{
    smct_jw_object(w);
    smct_jw_key(w, "a");
    smct_jw_end_object(w);
}
static void wrong_close(smct_jw_t *w)
{
    smct_jw_array(w);
    smct_jw_end_object(w);
}
static void close_at_top(smct_jw_t *w)
{
    smct_jw_end_array(w);
}
static void second_top_value(smct_jw_t *w)
{
    smct_jw_null(w);
    smct_jw_null(w);
}
static void not_finite(smct_jw_t *w)
{
    smct_jw_array(w);
    smct_jw_real(w, 1.0 / 0.0, 3);
}
static void too_deep(smct_jw_t *w)
{
    for (unsigned i = 0; i <= SMCT_JW_MAX_DEPTH; i++) {
        smct_jw_array(w);
    }
}
static void newline_after_key(smct_jw_t *w)
{
    smct_jw_object(w);
    smct_jw_key(w, "a");
    smct_jw_newline(w);
}
static void empty_embedded_json(smct_jw_t *w)
{
    smct_jw_json(w, "", 0);
}

/* Each misuse is refused: the buffer is marked failed, and nothing is written after it. */
static void refuses_what_would_break_the_json(void **state)
{
    (void)state;
    static const misuse_fn misuses[] = {key_outside_object, key_at_top,        value_without_key,
                                        two_keys_in_a_row,  close_after_key,   wrong_close,
                                        close_at_top,       second_top_value,  not_finite,
                                        too_deep,           newline_after_key, empty_embedded_json};
    for (size_t i = 0; i < sizeof misuses / sizeof misuses[0]; i++) {
        smct_buf_t b = {0};
        smct_jw_t w;
        smct_jw_init(&w, &b);
        misuses[i](&w);
        size_t len = b.len;
        assert_false(smct_buf_ok(&b));
        assert_false(smct_jw_ok(&w));
        smct_jw_u64(&w, 7);
        smct_jw_end_array(&w);
        assert_int_equal(b.len, len);
        smct_buf_free(&b);
    }
}

/* An unfinished text is not ok, though nothing was refused. */
static void unfinished_is_not_ok(void **state)
{
    (void)state;
    smct_buf_t b = {0};
    smct_jw_t w;
    smct_jw_init(&w, &b);
    assert_false(smct_jw_ok(&w));
    smct_jw_object(&w);
    assert_false(smct_jw_ok(&w));
    smct_jw_end_object(&w);
    assert_true(smct_jw_ok(&w));
    smct_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(writes_commas_colons_and_escapes),
        cmocka_unit_test(newline_goes_after_the_comma),
        cmocka_unit_test(refuses_what_would_break_the_json),
        cmocka_unit_test(unfinished_is_not_ok),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
