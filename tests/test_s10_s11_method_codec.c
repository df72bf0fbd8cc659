/* spec §10 method calls and §11 envelopes (StandardMethodCodec). */
#include "test_support.h"

#include <string.h>

static smc_arena_t arena;

static int setup(void **state)
{
    (void)state;
    smc_arena_init_allocator(&arena, NULL);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    smc_arena_free(&arena);
    return 0;
}

static void assert_bytes_text(smc_bytes_t b, const char *text)
{
    assert_int_equal(b.len, strlen(text));
    if (b.len > 0) {
        assert_memory_equal(b.ptr, text, b.len);
    }
}

/* Decode a call, check name and args, re-encode byte for byte. */
static void assert_call(const char *hex, const char *name, const char *args_notation)
{
    ts_buf_t b = ts_hex(hex);
    smc_method_call_t call;
    smc_error_t err;
    assert_int_equal(smc_decode_method_call(b.data, b.len, NULL, &arena, &call, &err), SMC_OK);
    assert_bytes_text(call.name, name);
    ts_assert_value_equal(ts_notation(&arena, args_notation), call.args);
    /* Encode from independently built parts. */
    smc_method_call_t built = {{(const uint8_t *)name, strlen(name)},
                               ts_notation(&arena, args_notation)};
    uint8_t out[128];
    size_t n = 0;
    assert_int_equal(smc_encode_method_call(&built, out, sizeof out, &n, NULL), SMC_OK);
    assert_int_equal(n, b.len);
    assert_memory_equal(out, b.data, n);
    size_t needed = 0;
    assert_int_equal(smc_encode_method_call(&built, out, n - 1, &needed, NULL),
                     SMC_ERR_BUFFER_FULL);
    assert_int_equal(needed, n);
    ts_buf_free(&b);
}

static void assert_call_error(const char *hex, smc_status_t status, size_t offset)
{
    ts_buf_t b = ts_hex(hex);
    smc_method_call_t call;
    smc_error_t err;
    size_t used = smc_arena_used(&arena);
    assert_int_equal(smc_decode_method_call(b.data, b.len, NULL, &arena, &call, &err), status);
    assert_int_equal(err.status, status);
    assert_int_equal(err.offset, offset);
    assert_null(call.args);
    assert_int_equal(smc_arena_used(&arena), used); /* rolled back */
    ts_buf_free(&b);
}

static void s10_1_glib_method_call_vectors(void **state)
{
    (void)state;
    assert_call("070568656c6c6f00", "hello", "[\"null\"]");
    assert_call("070568656c6c6f0705776f726c64", "hello", "[\"str\", \"world\"]");
    assert_call("070568656c6c6f0c020705636f756e74032a000000", "hello",
                "[\"list\", [[\"str\", \"count\"], [\"i32\", 42]]]");
    /* wire-format-notes §3.6: the double is aligned from the name's first byte. */
    assert_call("07016d0600000000000000000000f83f", "m", "[\"f64\", \"3ff8000000000000\"]");
}

static void s10_1_method_call_errors(void **state)
{
    (void)state;
    assert_call_error("", SMC_ERR_TRUNCATED, 0);
    assert_call_error("000000", SMC_ERR_BAD_METHOD_NAME, 0);           /* GLib: name not a string */
    assert_call_error("070568656c6c6f", SMC_ERR_TRUNCATED, 7);         /* GLib: no arguments */
    assert_call_error("0f0568656c6c6f00", SMC_ERR_BAD_METHOD_NAME, 0); /* tag checked first */
    assert_call_error("070568656c6c6f0000", SMC_ERR_TRAILING_BYTES, 8);
    assert_call_error("0701ff00", SMC_ERR_BAD_UTF8, 2);
    assert_call_error("0705686500", SMC_ERR_TRUNCATED, 5);
    assert_int_equal(strcmp(smc_status_class(SMC_ERR_BAD_METHOD_NAME), "bad_envelope"), 0);
}

/* Decode an envelope and re-encode it; the caller checks fields. */
static smc_envelope_t decode_env_roundtrip(const char *hex)
{
    ts_buf_t b = ts_hex(hex);
    smc_envelope_t env;
    smc_error_t err;
    assert_int_equal(smc_decode_envelope(b.data, b.len, NULL, &arena, &env, &err), SMC_OK);
    uint8_t out[128];
    size_t n = 0;
    assert_int_equal(smc_encode_envelope(&env, out, sizeof out, &n, NULL), SMC_OK);
    assert_int_equal(n, b.len);
    assert_memory_equal(out, b.data, n);
    ts_buf_free(&b);
    return env;
}

static void assert_env_error(const char *hex, smc_status_t status, size_t offset)
{
    ts_buf_t b = ts_hex(hex);
    smc_envelope_t env;
    smc_error_t err;
    size_t used = smc_arena_used(&arena);
    assert_int_equal(smc_decode_envelope(b.data, b.len, NULL, &arena, &env, &err), status);
    assert_int_equal(err.offset, offset);
    assert_int_equal(smc_arena_used(&arena), used);
    ts_buf_free(&b);
}

static void s11_1_success_envelope_vectors(void **state)
{
    (void)state;
    smc_envelope_t e = decode_env_roundtrip("0000");
    assert_false(e.is_error);
    assert_int_equal(e.result->type, SMC_TYPE_NULL);
    e = decode_env_roundtrip("00070568656c6c6f");
    ts_assert_value_equal(ts_notation(&arena, "[\"str\", \"hello\"]"), e.result);
    e = decode_env_roundtrip("000c020705636f756e74032a000000");
    ts_assert_value_equal(ts_notation(&arena, "[\"list\", [[\"str\", \"count\"], [\"i32\", 42]]]"),
                          e.result);
    e = decode_env_roundtrip("00032a000000"); /* C++ success envelope 42 */
    assert_int_equal(e.result->i32, 42);
    /* wire-format-notes §3.6: the flag byte counts for alignment. */
    e = decode_env_roundtrip("0006000000000000000000000000f03f");
    assert_true(e.result->f64_bits == 0x3ff0000000000000u);
    /* A NULL result encodes as null. */
    smc_envelope_t built;
    memset(&built, 0, sizeof built);
    uint8_t out[4];
    size_t n = 0;
    assert_int_equal(smc_encode_envelope(&built, out, sizeof out, &n, NULL), SMC_OK);
    assert_int_equal(n, 2);
    assert_memory_equal(out, "\x00\x00", 2);
}

static void s11_2_error_envelope_vectors(void **state)
{
    (void)state;
    smc_envelope_t e = decode_env_roundtrip("0107000000");
    assert_true(e.is_error);
    assert_bytes_text(e.code, "");
    assert_false(e.has_message);
    assert_int_equal(e.details->type, SMC_TYPE_NULL);
    assert_int_equal(e.stacktrace_state, SMC_STACKTRACE_ABSENT);

    e = decode_env_roundtrip("0107056572726f720000");
    assert_bytes_text(e.code, "error");
    e = decode_env_roundtrip("0107056572726f7207076d65737361676500");
    assert_true(e.has_message);
    assert_bytes_text(e.message, "message");
    e = decode_env_roundtrip("0107056572726f72000c020705636f756e74032a000000");
    assert_false(e.has_message);
    assert_int_equal(e.details->list.count, 2);
    e = decode_env_roundtrip("0107056572726f7207076d6573736167650c020705636f756e74032a000000");
    assert_bytes_text(e.message, "message");
    /* C++ vectors (wire-format-notes §3.4). */
    e = decode_env_roundtrip("0107096572726f72436f64650000");
    assert_bytes_text(e.code, "errorCode");
    e = decode_env_roundtrip("01 07096572726f72436f6465 0710736f6d657468696e67206661696c6564 0c02 "
                             "070161 032a000000");
    assert_bytes_text(e.message, "something failed");
    ts_assert_value_equal(ts_notation(&arena, "[\"list\", [[\"str\", \"a\"], [\"i32\", 42]]]"),
                          e.details);
    /* Message "" and message null are different (spec notation N.2). */
    e = decode_env_roundtrip("0107016507000000");
    assert_true(e.has_message);
    assert_int_equal(e.message.len, 0);
}

static void s11_3_optional_stacktrace(void **state)
{
    (void)state;
    smc_envelope_t e = decode_env_roundtrip("0107056572726f720704626f6f6d0007027374");
    assert_int_equal(e.stacktrace_state, SMC_STACKTRACE_STRING);
    assert_bytes_text(e.stacktrace, "st");
    assert_bytes_text(e.message, "boom");
    /* A null 4th element differs from the 3-element form. */
    e = decode_env_roundtrip("0107056572726f72000000");
    assert_int_equal(e.stacktrace_state, SMC_STACKTRACE_NULL);
    smc_envelope_t bad = e;
    bad.stacktrace_state = 7;
    uint8_t out[32];
    size_t n;
    assert_int_equal(smc_encode_envelope(&bad, out, sizeof out, &n, NULL), SMC_ERR_USAGE);
}

static void s11_4_envelope_errors(void **state)
{
    (void)state;
    assert_env_error("", SMC_ERR_TRUNCATED, 0);
    assert_env_error("00", SMC_ERR_TRUNCATED, 1);          /* GLib: no result */
    assert_env_error("000000", SMC_ERR_TRAILING_BYTES, 2); /* GLib: extra data */
    assert_env_error("01", SMC_ERR_TRUNCATED, 1);
    assert_env_error("0107056572726f72", SMC_ERR_TRUNCATED, 8);
    assert_env_error("0107056572726f7200", SMC_ERR_TRUNCATED, 9);
    assert_env_error("02", SMC_ERR_BAD_ENVELOPE_FLAG, 0); /* GLib: unknown type */
    assert_env_error("ff00", SMC_ERR_BAD_ENVELOPE_FLAG, 0);
    assert_env_error("01030000000000", SMC_ERR_BAD_ERROR_CODE, 1);
    assert_env_error("01000000", SMC_ERR_BAD_ERROR_CODE, 1);
    assert_env_error("0107016503010000000000", SMC_ERR_BAD_ERROR_MESSAGE, 4);
    assert_env_error("01070165000003", SMC_ERR_BAD_STACKTRACE, 6);
    assert_env_error("0107016500000f", SMC_ERR_BAD_STACKTRACE, 6); /* not unknown_tag */
    assert_env_error("0107016500000000", SMC_ERR_TRAILING_BYTES, 7);
    assert_env_error("010701ff0000", SMC_ERR_BAD_UTF8, 3);
    assert_env_error("000f", SMC_ERR_UNKNOWN_TAG, 1);
    for (smc_status_t s = SMC_ERR_BAD_ENVELOPE_FLAG; s <= SMC_ERR_BAD_STACKTRACE; s++) {
        assert_string_equal(smc_status_class(s), "bad_envelope");
    }
}

static void s11_envelope_elements_respect_strict_mode(void **state)
{
    (void)state;
    ts_buf_t b = ts_hex("0107fe01006500 00");
    smc_envelope_t env;
    smc_error_t err;
    smc_decode_opts_t strict = {SMC_MODE_STRICT, 0};
    assert_int_equal(smc_decode_envelope(b.data, b.len, &strict, &arena, &env, &err),
                     SMC_ERR_NONMINIMAL_SIZE);
    assert_int_equal(err.offset, 2);
    assert_int_equal(smc_decode_envelope(b.data, b.len, NULL, &arena, &env, &err), SMC_OK);
    assert_bytes_text(env.code, "e");
    ts_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s10_1_glib_method_call_vectors),
        cmocka_unit_test(s10_1_method_call_errors),
        cmocka_unit_test(s11_1_success_envelope_vectors),
        cmocka_unit_test(s11_2_error_envelope_vectors),
        cmocka_unit_test(s11_3_optional_stacktrace),
        cmocka_unit_test(s11_4_envelope_errors),
        cmocka_unit_test(s11_envelope_elements_respect_strict_mode),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
