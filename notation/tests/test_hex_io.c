/*
 * Unit tests of smct_hex and smct_io (notation/): strict hex for vectors and the
 * runner protocol (lower case, even length), lenient hex for people (either case,
 * whitespace between bytes), and whole-file / line input with limits.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, strdup, pthread attributes */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "smct_hex.h"
#include "smct_io.h"

static void hex_encode_is_lower_case(void **state)
{
    (void)state;
    static const uint8_t bytes[] = {0x00, 0x0f, 0xa0, 0xff, 0x5e};
    char out[11];
    smct_hex_encode(bytes, sizeof bytes, out);
    out[10] = '\0';
    assert_string_equal(out, "000fa0ff5e");
    smct_buf_t b;
    smct_buf_init(&b);
    smct_buf_put_hex(&b, bytes, sizeof bytes);
    smct_buf_put_hex(&b, NULL, 0);
    assert_string_equal(smct_buf_cstr(&b), "000fa0ff5e");
    smct_buf_free(&b);
}

static void strict_decode(const char *hex, smct_status_t want, size_t want_off,
                          const char *want_bytes, size_t want_len)
{
    uint8_t out[64];
    size_t n = 99;
    smct_error_t e;
    smct_status_t st = smct_hex_decode_strict(hex, strlen(hex), out, &n, &e);
    if (st != want || (st != SMCT_OK && e.offset != want_off)) {
        fail_msg("strict %s: want %d at %zu, got %d at %zu", hex, (int)want, want_off, (int)st,
                 e.offset);
    }
    if (st == SMCT_OK) {
        assert_int_equal(n, want_len);
        assert_memory_equal(out, want_bytes, want_len);
    } else {
        assert_int_equal(n, 0);
    }
}

static void hex_strict_accepts_only_even_lower_case(void **state)
{
    (void)state;
    strict_decode("", SMCT_OK, 0, "", 0);
    strict_decode("00ff7a", SMCT_OK, 0, "\x00\xff\x7a", 3);
    strict_decode("0", SMCT_ERR_SYNTAX, 1, NULL, 0);
    strict_decode("abc", SMCT_ERR_SYNTAX, 3, NULL, 0);
    strict_decode("00FF", SMCT_ERR_SYNTAX, 2, NULL, 0);
    strict_decode("00 ff", SMCT_ERR_SYNTAX, 2, NULL, 0);
    strict_decode("0x00", SMCT_ERR_SYNTAX, 1, NULL, 0);
    strict_decode("zz", SMCT_ERR_SYNTAX, 0, NULL, 0);
    strict_decode("00\n", SMCT_ERR_SYNTAX, 2, NULL, 0);
}

static void lenient_decode(const char *hex, smct_status_t want, size_t want_off,
                           const char *want_bytes, size_t want_len)
{
    uint8_t out[64];
    size_t n = 99;
    smct_error_t e;
    smct_status_t st = smct_hex_decode_lenient(hex, strlen(hex), out, &n, &e);
    if (st != want || (st != SMCT_OK && e.offset != want_off)) {
        fail_msg("lenient %s: want %d at %zu, got %d at %zu", hex, (int)want, want_off, (int)st,
                 e.offset);
    }
    if (st == SMCT_OK) {
        assert_int_equal(n, want_len);
        assert_memory_equal(out, want_bytes, want_len);
    }
}

static void hex_lenient_accepts_case_and_whitespace_between_bytes(void **state)
{
    (void)state;
    lenient_decode("", SMCT_OK, 0, "", 0);
    lenient_decode(" \n\t", SMCT_OK, 0, "", 0);
    lenient_decode("0C02 0301000000\r\n 07 02 6162\n", SMCT_OK, 0,
                   "\x0c\x02\x03\x01\x00\x00\x00\x07\x02\x61\x62", 11);
    lenient_decode("AbCd", SMCT_OK, 0, "\xab\xcd", 2);
    lenient_decode("0 c", SMCT_ERR_SYNTAX, 1, NULL, 0); /* whitespace inside a byte */
    lenient_decode("0c0", SMCT_ERR_SYNTAX, 3, NULL, 0); /* odd digit count */
    lenient_decode("0c 0\n", SMCT_ERR_SYNTAX, 4, NULL, 0);
    lenient_decode("0g", SMCT_ERR_SYNTAX, 1, NULL, 0);
    lenient_decode("0x0c", SMCT_ERR_SYNTAX, 1, NULL, 0);
    lenient_decode("0c,02", SMCT_ERR_SYNTAX, 2, NULL, 0);
    assert_int_equal(smct_hex_digit('F'), 15);
    assert_int_equal(smct_hex_digit('g'), -1);
}

static char *temp_file(const void *content, size_t len)
{
    char *name = strdup("/tmp/smct_io_test_XXXXXX");
    assert_non_null(name);
    int fd = mkstemp(name);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, content, len), (ssize_t)len);
    close(fd);
    return name;
}

static void io_reads_whole_files_with_a_terminator(void **state)
{
    (void)state;
    char *name = temp_file("ab\0cd", 5);
    uint8_t *data = NULL;
    size_t len = 0;
    char msg[256];
    assert_int_equal(smct_read_file(name, 0, &data, &len, msg, sizeof msg), SMCT_OK);
    assert_int_equal(len, 5);
    assert_memory_equal(data, "ab\0cd", 5);
    assert_int_equal(data[5], 0);
    smct_io_free(data);
    /* exactly at the limit is fine, one byte over is not */
    assert_int_equal(smct_read_file(name, 5, &data, &len, msg, sizeof msg), SMCT_OK);
    smct_io_free(data);
    assert_int_equal(smct_read_file(name, 4, &data, &len, msg, sizeof msg), SMCT_ERR_TOO_LARGE);
    assert_null(data);
    assert_non_null(strstr(msg, name));
    unlink(name);
    free(name);

    char *empty = temp_file("", 0);
    assert_int_equal(smct_read_file(empty, 0, &data, &len, msg, sizeof msg), SMCT_OK);
    assert_int_equal(len, 0);
    assert_non_null(data);
    assert_int_equal(data[0], 0);
    smct_io_free(data);
    unlink(empty);
    free(empty);
}

static void io_reports_missing_files_clearly(void **state)
{
    (void)state;
    uint8_t *data = (uint8_t *)(uintptr_t)1;
    size_t len = 7;
    char msg[256];
    assert_int_equal(smct_read_file("/nonexistent/dir/x.bin", 0, &data, &len, msg, sizeof msg),
                     SMCT_ERR_IO);
    assert_null(data);
    assert_int_equal(len, 0);
    assert_non_null(strstr(msg, "/nonexistent/dir/x.bin"));
    assert_non_null(strstr(msg, "No such file"));
    assert_int_equal(smct_read_file(NULL, 0, &data, &len, msg, sizeof msg), SMCT_ERR_USAGE);
}

static void io_reads_lines_and_survives_long_ones(void **state)
{
    (void)state;
    const char text[] = "first\r\n\nxxxxxxxxxxxxxxxxxxxx\nlast";
    char *name = temp_file(text, sizeof text - 1);
    FILE *f = fopen(name, "rb");
    assert_non_null(f);
    smct_buf_t line;
    smct_buf_init(&line);
    assert_int_equal(smct_read_line(f, &line, 10), SMCT_LINE_OK);
    assert_string_equal(smct_buf_cstr(&line), "first\r");
    assert_int_equal(smct_read_line(f, &line, 10), SMCT_LINE_OK);
    assert_int_equal(line.len, 0);
    assert_int_equal(smct_read_line(f, &line, 10), SMCT_LINE_TOO_LONG);
    assert_int_equal(line.len, 10);
    assert_int_equal(smct_read_line(f, &line, 10), SMCT_LINE_OK); /* the next line is intact */
    assert_string_equal(smct_buf_cstr(&line), "last");
    assert_int_equal(smct_read_line(f, &line, 10), SMCT_LINE_EOF);
    fclose(f);
    smct_buf_free(&line);
    unlink(name);
    free(name);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(hex_encode_is_lower_case),
        cmocka_unit_test(hex_strict_accepts_only_even_lower_case),
        cmocka_unit_test(hex_lenient_accepts_case_and_whitespace_between_bytes),
        cmocka_unit_test(io_reads_whole_files_with_a_terminator),
        cmocka_unit_test(io_reports_missing_files_clearly),
        cmocka_unit_test(io_reads_lines_and_survives_long_ones),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
