/*
 * Unit tests of smct_json (notation/): the JSON reader every notation consumer
 * uses (CLI input, runner output in the judge). RFC 8259 acceptance, error offsets,
 * U+0000 inside strings, surrogates, UTF-8, exact integers, deep nesting without recursion,
 * and the output helpers.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, strdup, pthread attributes */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "smct_json.h"
#include "test_util.h"

/* Parse from an exact-size heap copy so any read past the end is caught by ASan/valgrind. */
static smct_status_t parse_exact(fixture_t *f, const char *text, size_t len, uint32_t max_depth,
                                 smct_json_t **out, smct_error_t *err)
{
    char *copy = malloc(len > 0 ? len : 1);
    assert_non_null(copy);
    if (len > 0) {
        memcpy(copy, text, len);
    }
    smct_json_opts_t opts = {max_depth};
    smct_status_t st = smct_json_parse(len > 0 ? copy : NULL, len, &opts, &f->arena, out, err);
    free(copy);
    return st;
}

static smct_json_t *parse_ok(fixture_t *f, const char *text)
{
    smct_json_t *j = NULL;
    smct_error_t e;
    smct_status_t st = parse_exact(f, text, strlen(text), 0, &j, &e);
    if (st != SMCT_OK) {
        fail_msg("parse of %s failed: %s at %zu", text, e.message, e.offset);
    }
    assert_non_null(j);
    return j;
}

static void expect_error(fixture_t *f, const char *text, size_t len, smct_status_t status,
                         size_t offset)
{
    smct_json_t *j = (smct_json_t *)(uintptr_t)1;
    smct_error_t e;
    smct_status_t st = parse_exact(f, text, len, 0, &j, &e);
    if (st != status || e.offset != offset) {
        fail_msg("input %.*s: expected status %d at %zu, got %d at %zu (%s)", (int)len, text,
                 (int)status, offset, (int)st, e.offset, st == SMCT_OK ? "ok" : e.message);
    }
    assert_null(j);
    assert_non_null(e.message);
    assert_true(strlen(e.message) > 0);
}

#define EXPECT_SYNTAX(f, lit, off) expect_error((f), (lit), sizeof(lit) - 1, SMCT_ERR_SYNTAX, (off))

static void json_accepts_every_scalar_at_top_level(void **state)
{
    fixture_t *f = *state;
    assert_int_equal(parse_ok(f, "null")->type, SMCT_JSON_NULL);
    assert_int_equal(parse_ok(f, "true")->type, SMCT_JSON_TRUE);
    assert_int_equal(parse_ok(f, " false ")->type, SMCT_JSON_FALSE);
    smct_json_t *n = parse_ok(f, "\t\r\n-12.5e+3\n");
    assert_int_equal(n->type, SMCT_JSON_NUMBER);
    assert_string_equal(n->number.ptr, "-12.5e+3");
    assert_int_equal(n->offset, 3);
    assert_int_equal(n->end, 11);
    smct_json_t *s = parse_ok(f, "\"h\\u00e9\\n\\/\"");
    assert_int_equal(s->type, SMCT_JSON_STRING);
    assert_int_equal(s->str.len, 5);
    assert_memory_equal(s->str.ptr, "h\xc3\xa9\n/", 5);
}

static void json_keeps_object_order_and_duplicate_keys(void **state)
{
    fixture_t *f = *state;
    smct_json_t *o = parse_ok(f, "{\"b\":1, \"a\":[2,3], \"b\":\"x\", \"\":{}}");
    assert_int_equal(o->type, SMCT_JSON_OBJECT);
    assert_int_equal(smct_json_count(o), 4);
    assert_string_equal(o->object.members[0].key.ptr, "b");
    assert_string_equal(o->object.members[1].key.ptr, "a");
    assert_string_equal(o->object.members[2].key.ptr, "b");
    assert_int_equal(o->object.members[1].key_offset, 8);
    /* lookups find the first of duplicate keys */
    const smct_json_t *b = smct_json_get(o, "b");
    assert_non_null(b);
    assert_int_equal(b->type, SMCT_JSON_NUMBER);
    const smct_json_t *a = smct_json_get(o, "a");
    assert_int_equal(smct_json_count(a), 2);
    assert_string_equal(smct_json_at(a, 1)->number.ptr, "3");
    assert_null(smct_json_at(a, 2));
    assert_null(smct_json_get(o, "c"));
    assert_non_null(smct_json_get_n(o, "", 0));
    assert_null(smct_json_get(a, "a")); /* not an object */
    assert_null(smct_json_at(o, 0));    /* not an array */
}

static void json_records_offsets_of_containers(void **state)
{
    fixture_t *f = *state;
    smct_json_t *a = parse_ok(f, " [1, [ ], {\"k\" : null}] ");
    assert_int_equal(a->offset, 1);
    assert_int_equal(a->end, 23);
    assert_int_equal(a->array.items[1].offset, 5);
    assert_int_equal(a->array.items[1].end, 8);
    assert_int_equal(a->array.items[1].array.count, 0);
    assert_int_equal(a->array.items[2].offset, 10);
    assert_int_equal(a->array.items[2].object.members[0].value.offset, 17);
}

static void json_strings_carry_embedded_nul(void **state)
{
    fixture_t *f = *state;
    smct_json_t *s = parse_ok(f, "\"a\\u0000b\"");
    assert_int_equal(s->str.len, 3);
    assert_memory_equal(s->str.ptr, "a\0b", 3);
    assert_int_equal(s->str.ptr[3], '\0'); /* terminator after len */
    smct_json_t *o = parse_ok(f, "{\"k\\u0000\":1}");
    assert_null(smct_json_get(o, "k")); /* "k" alone is a different key */
    assert_non_null(smct_json_get_n(o, "k\0", 2));
    /* writing it back gives \u0000 */
    smct_buf_t b;
    smct_buf_init(&b);
    smct_json_write(&b, s);
    assert_string_equal(smct_buf_cstr(&b), "\"a\\u0000b\"");
    smct_buf_free(&b);
}

static void json_joins_surrogate_pairs(void **state)
{
    fixture_t *f = *state;
    smct_json_t *s = parse_ok(f, "\"\\ud83d\\ude00\\uD83D\\uDE00\"");
    assert_int_equal(s->str.len, 8);
    assert_memory_equal(s->str.ptr, "\xf0\x9f\x98\x80\xf0\x9f\x98\x80", 8);
}

static void json_rejects_lone_surrogate_escapes(void **state)
{
    fixture_t *f = *state;
    EXPECT_SYNTAX(f, "\"\\ud800\"", 1);
    EXPECT_SYNTAX(f, "\"ab\\udc00\"", 3);
    EXPECT_SYNTAX(f, "\"\\ud800\\u0041\"", 1);
    EXPECT_SYNTAX(f, "\"\\ud800\\ud800\"", 1);
    EXPECT_SYNTAX(f, "\"\\ud800x\"", 1);
    EXPECT_SYNTAX(f, "[\"\\udfff\"]", 2);
}

static void json_rejects_ill_formed_utf8(void **state)
{
    fixture_t *f = *state;
    EXPECT_SYNTAX(f, "\"\xff\"", 1);
    EXPECT_SYNTAX(f, "\"a\xc0\x80\"", 2);        /* overlong NUL */
    EXPECT_SYNTAX(f, "\"\xe0\x80\xaf\"", 1);     /* overlong '/' */
    EXPECT_SYNTAX(f, "\"\xed\xa0\x80\"", 1);     /* encoded surrogate U+D800 */
    EXPECT_SYNTAX(f, "\"\xf4\x90\x80\x80\"", 1); /* above U+10FFFF */
    EXPECT_SYNTAX(f, "\"\xe2\x82\"", 1);         /* truncated sequence */
    EXPECT_SYNTAX(f, "\"\xe2\x82", 1);           /* ... also at the very end */
    EXPECT_SYNTAX(f, "\xef\xbb\xbf[]", 0);       /* a BOM is not JSON */
    EXPECT_SYNTAX(f, "[1,\xc3\xa9]", 3);         /* non-ASCII outside strings */
    smct_json_t *ok = parse_ok(f, "\"\xe2\x98\xba\xf0\x9f\x98\x80\xef\xbf\xbf\"");
    assert_int_equal(ok->str.len, 10);
}

static void json_rejects_what_rfc8259_rejects(void **state)
{
    fixture_t *f = *state;
    expect_error(f, "", 0, SMCT_ERR_SYNTAX, 0);
    EXPECT_SYNTAX(f, "   ", 3);
    EXPECT_SYNTAX(f, "[1,]", 3);
    EXPECT_SYNTAX(f, "[,1]", 1);
    EXPECT_SYNTAX(f, "{\"a\":1,}", 7);
    EXPECT_SYNTAX(f, "{,}", 1);
    EXPECT_SYNTAX(f, "{\"a\"}", 4);
    EXPECT_SYNTAX(f, "{\"a\" 1}", 5);
    EXPECT_SYNTAX(f, "{1:2}", 1);
    EXPECT_SYNTAX(f, "[1 2]", 3);
    EXPECT_SYNTAX(f, "[1]]", 3);
    EXPECT_SYNTAX(f, "1 2", 2);
    EXPECT_SYNTAX(f, "[1", 2);
    EXPECT_SYNTAX(f, "{\"a\":1", 6);
    EXPECT_SYNTAX(f, "01", 0);
    EXPECT_SYNTAX(f, "-01", 0);
    EXPECT_SYNTAX(f, "1.", 0);
    EXPECT_SYNTAX(f, ".5", 0);
    EXPECT_SYNTAX(f, "+1", 0);
    EXPECT_SYNTAX(f, "1e", 0);
    EXPECT_SYNTAX(f, "1e+", 0);
    EXPECT_SYNTAX(f, "-", 0);
    EXPECT_SYNTAX(f, "NaN", 0);
    EXPECT_SYNTAX(f, "Infinity", 0);
    EXPECT_SYNTAX(f, "tru", 0);
    EXPECT_SYNTAX(f, "nulll", 4);
    EXPECT_SYNTAX(f, "'a'", 0);
    EXPECT_SYNTAX(f, "\"abc", 0);
    EXPECT_SYNTAX(f, "\"a\nb\"", 2);  /* raw control character */
    EXPECT_SYNTAX(f, "\"a\\x\"", 2);  /* unknown escape */
    EXPECT_SYNTAX(f, "\"\\u12\"", 1); /* short \u escape */
    EXPECT_SYNTAX(f, "\"\\u12g4\"", 1);
    EXPECT_SYNTAX(f, "[1]/*c*/", 3);
    expect_error(f, "[\0]", 3, SMCT_ERR_SYNTAX, 1); /* a NUL byte is not whitespace */
    expect_error(f, "\"a\0\"", 4, SMCT_ERR_SYNTAX, 2);
}

static void json_never_reads_past_any_prefix(void **state)
{
    fixture_t *f = *state;
    /* Every proper prefix of a valid text is invalid (or a shorter valid number); parsing
     * each from an exact-size buffer must neither crash nor read past it. */
    const char *text =
        "{\"k\":[true,false,null,-1.5e-3,\"\\ud83d\\ude00\\u0000\xc3\xa9\"],\"\":{}}";
    size_t n = strlen(text);
    for (size_t len = 0; len < n; len++) {
        smct_json_t *j = NULL;
        smct_error_t e;
        smct_status_t st = parse_exact(f, text, len, 0, &j, &e);
        assert_int_equal(st, SMCT_ERR_SYNTAX);
        assert_true(e.offset <= len);
    }
    assert_non_null(parse_ok(f, text));
}

static void json_exact_integers(void **state)
{
    fixture_t *f = *state;
    smct_json_t *a = parse_ok(f, "[2147483647,-2147483648,2147483648,-2147483649,1.0,1e2,-0,"
                                 "9223372036854775807,-9223372036854775808,9223372036854775808,"
                                 "18446744073709551615,18446744073709551616,0.5,-1]");
    int32_t i32 = 0;
    int64_t i64 = 0;
    uint64_t u64 = 0;
    assert_true(smct_json_get_i32(smct_json_at(a, 0), &i32));
    assert_int_equal(i32, INT32_MAX);
    assert_true(smct_json_get_i32(smct_json_at(a, 1), &i32));
    assert_int_equal(i32, INT32_MIN);
    assert_false(smct_json_get_i32(smct_json_at(a, 2), &i32));
    assert_false(smct_json_get_i32(smct_json_at(a, 3), &i32));
    assert_false(smct_json_is_integer(smct_json_at(a, 4)));
    assert_false(smct_json_get_i32(smct_json_at(a, 4), &i32));
    assert_false(smct_json_get_i64(smct_json_at(a, 5), &i64));
    assert_true(smct_json_is_integer(smct_json_at(a, 6)));
    assert_true(smct_json_get_i32(smct_json_at(a, 6), &i32));
    assert_int_equal(i32, 0);
    assert_true(smct_json_get_i64(smct_json_at(a, 7), &i64));
    assert_true(i64 == INT64_MAX);
    assert_true(smct_json_get_i64(smct_json_at(a, 8), &i64));
    assert_true(i64 == INT64_MIN);
    assert_false(smct_json_get_i64(smct_json_at(a, 9), &i64));
    assert_true(smct_json_get_u64(smct_json_at(a, 9), &u64));
    assert_true(u64 == (uint64_t)INT64_MAX + 1u);
    assert_true(smct_json_get_u64(smct_json_at(a, 10), &u64));
    assert_true(u64 == UINT64_MAX);
    assert_false(smct_json_get_u64(smct_json_at(a, 11), &u64));
    assert_false(smct_json_get_u64(smct_json_at(a, 12), &u64));
    assert_false(smct_json_get_u64(smct_json_at(a, 13), &u64)); /* negative */
    assert_false(smct_json_get_i32(NULL, &i32));
    assert_false(smct_json_get_i32(parse_ok(f, "\"1\""), &i32));
}

/* ---- deep nesting: explicit stack, configurable limit ---- */

typedef struct deep_job {
    fixture_t *f;
    char *text;
    size_t len;
    uint32_t max_depth;
    smct_status_t status;
    smct_error_t err;
    size_t depth_seen;
    bool rewrite_equal;
    bool self_equal;
} deep_job_t;

static void deep_parse(void *p)
{
    deep_job_t *job = p;
    smct_json_t *j = NULL;
    smct_json_opts_t opts = {job->max_depth};
    job->status = smct_json_parse(job->text, job->len, &opts, &job->f->arena, &j, &job->err);
    if (job->status != SMCT_OK) {
        return;
    }
    size_t depth = 0;
    for (const smct_json_t *c = j; c != NULL && c->type == SMCT_JSON_ARRAY;
         c = smct_json_at(c, 0)) {
        depth++;
    }
    job->depth_seen = depth;
    smct_buf_t b;
    smct_buf_init(&b);
    smct_json_write(&b, j);
    job->rewrite_equal =
        smct_buf_ok(&b) && b.len == job->len && memcmp(b.data, job->text, b.len) == 0;
    smct_buf_free(&b);
    job->self_equal = smct_json_equal(j, j);
}

static char *nested_arrays(size_t depth)
{
    char *s = malloc(2 * depth);
    assert_non_null(s);
    memset(s, '[', depth);
    memset(s + depth, ']', depth);
    return s;
}

static void json_deep_nesting_uses_no_stack(void **state)
{
    fixture_t *f = *state;
    const size_t depth = 200000;
    deep_job_t job = {
        f, nested_arrays(depth), 2 * depth, 250000, SMCT_OK, {SMCT_OK, 0, NULL}, 0, false, false};
    assert_true(run_on_small_stack(deep_parse, &job));
    assert_int_equal(job.status, SMCT_OK);
    assert_int_equal(job.depth_seen, depth);
    assert_true(job.rewrite_equal);
    assert_true(job.self_equal);
    free(job.text);
}

static void json_nesting_limit_default_is_10000(void **state)
{
    fixture_t *f = *state;
    const size_t limit = SMCT_JSON_DEFAULT_MAX_DEPTH;
    deep_job_t ok = {
        f, nested_arrays(limit), 2 * limit, 0, SMCT_OK, {SMCT_OK, 0, NULL}, 0, false, false};
    assert_true(run_on_small_stack(deep_parse, &ok));
    assert_int_equal(ok.status, SMCT_OK);
    assert_int_equal(ok.depth_seen, limit);
    free(ok.text);

    deep_job_t over = {
        f,    nested_arrays(limit + 1), 2 * (limit + 1), 0, SMCT_OK, {SMCT_OK, 0, NULL}, 0, false,
        false};
    assert_true(run_on_small_stack(deep_parse, &over));
    assert_int_equal(over.status, SMCT_ERR_DEPTH);
    assert_int_equal(over.err.offset, limit); /* the bracket that opens level limit+1 */
    free(over.text);

    /* objects count too, and the limit is configurable */
    smct_json_t *j = NULL;
    smct_error_t e;
    const char *mixed = "{\"a\":[{\"b\":[]}]}";
    assert_int_equal(parse_exact(f, mixed, strlen(mixed), 4, &j, &e), SMCT_OK);
    assert_int_equal(parse_exact(f, mixed, strlen(mixed), 3, &j, &e), SMCT_ERR_DEPTH);
    assert_int_equal(e.offset, 11);
}

/* ---- output ---- */

static void json_write_string_escapes_only_what_it_must(void **state)
{
    (void)state;
    smct_buf_t b;
    smct_buf_init(&b);
    static const char mixed[] = "q\"b\\n\n\t\b\f\r\x01\x1f\x7f \xe2\x98\xba/";
    smct_json_write_string(&b, mixed, sizeof mixed - 1);
    assert_string_equal(smct_buf_cstr(&b),
                        "\"q\\\"b\\\\n\\n\\t\\b\\f\\r\\u0001\\u001f\x7f \xe2\x98\xba/\"");
    smct_buf_clear(&b);
    smct_json_write_string(&b, "\0", 1);
    assert_string_equal(smct_buf_cstr(&b), "\"\\u0000\"");
    smct_buf_clear(&b);
    /* ill-formed UTF-8 becomes U+FFFD per maximal subpart, so the output stays JSON */
    static const char bad[] = "a\xff"
                              "b\xe2\x82"
                              "c\xed\xa0\x80";
    smct_json_write_string(&b, bad, sizeof bad - 1);
    assert_string_equal(smct_buf_cstr(&b), "\"a\\ufffdb\\ufffdc\\ufffd\\ufffd\\ufffd\"");
    smct_buf_clear(&b);
    smct_json_write_cstr(&b, "");
    assert_string_equal(smct_buf_cstr(&b), "\"\"");
    assert_true(smct_buf_ok(&b));
    smct_buf_free(&b);
}

static void json_write_is_compact_and_reparses_equal(void **state)
{
    fixture_t *f = *state;
    smct_json_t *j =
        parse_ok(f, " { \"a\" : [ 1 , -2.5E3 , \"x\\u0000\" , { } , [ ] ] , \"b\" : null } ");
    smct_buf_t b;
    smct_buf_init(&b);
    smct_json_write(&b, j);
    assert_string_equal(smct_buf_cstr(&b), "{\"a\":[1,-2.5E3,\"x\\u0000\",{},[]],\"b\":null}");
    smct_json_t *k = parse_ok(f, smct_buf_cstr(&b));
    assert_true(smct_json_equal(j, k));
    smct_json_t *other = parse_ok(f, "{\"a\":[1,-2.5e3,\"x\\u0000\",{},[]],\"b\":null}");
    assert_false(smct_json_equal(j, other)); /* numbers compare by text */
    assert_false(smct_json_equal(parse_ok(f, "[1,2]"), parse_ok(f, "[1]")));
    assert_false(smct_json_equal(parse_ok(f, "{\"a\":1}"), parse_ok(f, "{\"b\":1}")));
    assert_true(smct_json_equal(NULL, NULL));
    assert_false(smct_json_equal(j, NULL));
    smct_buf_free(&b);
}

static void buf_formats_numbers_and_stays_terminated(void **state)
{
    (void)state;
    smct_buf_t b;
    smct_buf_init(&b);
    assert_string_equal(smct_buf_cstr(&b), "");
    smct_buf_put_i64(&b, INT64_MIN);
    smct_buf_putc(&b, ' ');
    smct_buf_put_u64(&b, UINT64_MAX);
    smct_buf_printf(&b, " %s=%d", "x", 42);
    assert_string_equal(smct_buf_cstr(&b), "-9223372036854775808 18446744073709551615 x=42");
    /* a long printf goes through the slow path */
    smct_buf_clear(&b);
    smct_buf_printf(&b, "%0300d", 7);
    assert_int_equal(b.len, 300);
    assert_int_equal(b.data[299], '7');
    assert_int_equal(b.data[300], '\0');
    smct_buf_free(&b);
    assert_null(b.data);
}

/* The first pass checks the text and builds nothing: a text that is not JSON takes no arena
 * memory, however much of it comes before the error. The second allocates each container at
 * its exact size: 40 bytes a value, 64 a member, 8 a text of 2+ bytes, the root's copy. */
static void json_allocates_nothing_for_an_invalid_text(void **state)
{
    fixture_t *f = *state;
    EXPECT_SYNTAX(f, "[[10,20],\"abc\",{\"k\":[]},", 24);
    assert_int_equal(f->arena.used, 0);
    smct_json_t *j = parse_ok(f, "[1,[2,3],{\"ab\":[]},\"xy\"]");
    assert_int_equal(smct_json_count(j), 4);
    /* outer items 4 x 40, [2,3] 2 x 40, one member 64, "ab" and "xy" 8 each, the root 40;
     * the digits are static texts and the empty array has no items */
    assert_int_equal(f->arena.used, 4 * 40 + 2 * 40 + 64 + 8 + 8 + 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(json_accepts_every_scalar_at_top_level, setup, teardown),
        cmocka_unit_test_setup_teardown(json_keeps_object_order_and_duplicate_keys, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(json_records_offsets_of_containers, setup, teardown),
        cmocka_unit_test_setup_teardown(json_strings_carry_embedded_nul, setup, teardown),
        cmocka_unit_test_setup_teardown(json_joins_surrogate_pairs, setup, teardown),
        cmocka_unit_test_setup_teardown(json_rejects_lone_surrogate_escapes, setup, teardown),
        cmocka_unit_test_setup_teardown(json_rejects_ill_formed_utf8, setup, teardown),
        cmocka_unit_test_setup_teardown(json_rejects_what_rfc8259_rejects, setup, teardown),
        cmocka_unit_test_setup_teardown(json_never_reads_past_any_prefix, setup, teardown),
        cmocka_unit_test_setup_teardown(json_exact_integers, setup, teardown),
        cmocka_unit_test_setup_teardown(json_deep_nesting_uses_no_stack, setup, teardown),
        cmocka_unit_test_setup_teardown(json_nesting_limit_default_is_10000, setup, teardown),
        cmocka_unit_test(json_write_string_escapes_only_what_it_must),
        cmocka_unit_test_setup_teardown(json_write_is_compact_and_reparses_equal, setup, teardown),
        cmocka_unit_test(buf_formats_numbers_and_stays_terminated),
        cmocka_unit_test_setup_teardown(json_allocates_nothing_for_an_invalid_text, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
