/*
 * Unit tests of smct_buf (notation/): the growable buffer every tool writes into, with its
 * sticky failure flag, and the array growth of the explicit stacks.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "smct_buf.h"

static void vformat(smct_buf_t *b, const char *fmt, ...) SMCT_PRINTF(2, 3);
static void vformat(smct_buf_t *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    smct_buf_vprintf(b, fmt, ap); /* works on a copy: ap is still usable */
    smct_buf_vprintf(b, fmt, ap);
    va_end(ap);
}

static void buf_vprintf_appends_and_leaves_the_list_usable(void **state)
{
    (void)state;
    smct_buf_t b = {0};
    vformat(&b, "%s=%d;", "a", 1);
    assert_string_equal(smct_buf_cstr(&b), "a=1;a=1;");
    char big[300];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    smct_buf_clear(&b);
    vformat(&b, "%s", big); /* past the 128-byte fast path */
    assert_int_equal(b.len, 2 * (sizeof big - 1));
    smct_buf_free(&b);
}

static void buf_consume_drops_the_front(void **state)
{
    (void)state;
    smct_buf_t b = {0};
    smct_buf_consume(&b, 3); /* nothing there: still fine */
    assert_int_equal(b.len, 0);
    smct_buf_puts(&b, "hello world");
    smct_buf_consume(&b, 6);
    assert_string_equal(smct_buf_cstr(&b), "world");
    smct_buf_consume(&b, 0);
    assert_string_equal(smct_buf_cstr(&b), "world");
    smct_buf_consume(&b, 99);
    assert_int_equal(b.len, 0);
    assert_string_equal(smct_buf_cstr(&b), "");
    smct_buf_free(&b);
}

static void buf_steal_hands_over_and_empties(void **state)
{
    (void)state;
    smct_buf_t b = {0};
    char *s = smct_buf_steal(&b); /* never allocated: still a string */
    assert_non_null(s);
    assert_string_equal(s, "");
    free(s);
    smct_buf_puts(&b, "abc");
    s = smct_buf_steal(&b);
    assert_string_equal(s, "abc");
    assert_null(b.data);
    assert_int_equal(b.len, 0);
    free(s);
    smct_buf_puts(&b, "partial");
    b.failed = true; /* as after an allocation failure: the text is incomplete */
    assert_null(smct_buf_steal(&b));
    assert_null(b.data);
    assert_true(smct_buf_ok(&b)); /* emptied and usable again */
}

static void grow_array_doubles_and_refuses_overflow(void **state)
{
    (void)state;
    int *a = NULL;
    size_t cap = 0;
    assert_true(smct_grow_array((void **)&a, &cap, 1, sizeof *a));
    assert_int_equal(cap, 16);
    assert_true(smct_grow_array((void **)&a, &cap, 17, sizeof *a));
    assert_int_equal(cap, 32);
    assert_true(smct_grow_array((void **)&a, &cap, 5, sizeof *a)); /* already enough */
    assert_int_equal(cap, 32);
    int *before = a;
    assert_false(smct_grow_array((void **)&a, &cap, SIZE_MAX / 2, sizeof *a));
    assert_ptr_equal(a, before); /* unchanged on failure */
    assert_int_equal(cap, 32);
    free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(buf_vprintf_appends_and_leaves_the_list_usable),
        cmocka_unit_test(buf_consume_drops_the_front),
        cmocka_unit_test(buf_steal_hands_over_and_empties),
        cmocka_unit_test(grow_array_doubles_and_refuses_overflow),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
