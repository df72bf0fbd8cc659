/*
 * The shared notation cases (spec/notation-cases.json), read by the reference reader: each
 * text of an entry point reads and writes back as its `canonical` text exactly, or is
 * rejected at its `error.offset`. The same file is read by the Swift, Kotlin, Dart and Python
 * readers' tests, so five readers are held to one list. The path is the first argument
 * (default: the one CMake names).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "smct_buf.h"
#include "smct_io.h"
#include "smct_json.h"
#include "smct_notation.h"

#ifndef SMCT_TEST_NOTATION_CASES
#error "SMCT_TEST_NOTATION_CASES (the path of spec/notation-cases.json) is set by CMake"
#endif

static const char *cases_path = SMCT_TEST_NOTATION_CASES;

static const char *member(const smct_json_t *c, const char *key, const char *id)
{
    const smct_json_t *s = smct_json_get(c, key);
    if (s == NULL || s->type != SMCT_JSON_STRING) {
        fail_msg("%s: `%s` missing or not a string", id, key);
    }
    return s->str.ptr;
}

typedef enum { CASE_VALID, CASE_REJECTED, CASE_FAILED } case_result_t;

/* A case that does not hold is printed and counted, so one run names every failing case
 * (as the other four readers' suites do); the file's own mistakes stop the test. */
static case_result_t case_failed(const char *fmt, ...) SMCT_PRINTF(1, 2);

static case_result_t case_failed(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("  FAILED ", stdout);
    vprintf(fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
    return CASE_FAILED;
}

static case_result_t run_case(const smct_json_t *c, smc_arena_t *arena)
{
    const char *id = member(c, "id", "(a case without id)");
    const char *entry_name = member(c, "entry", id);
    const smct_json_t *text = smct_json_get(c, "text");
    member(c, "text", id);
    smc_entry_t entry;
    if (!smct_entry_from_name(entry_name, strlen(entry_name), &entry)) {
        fail_msg("%s: unknown entry %s", id, entry_name);
    }
    const smct_json_t *canonical = smct_json_get(c, "canonical");
    const smct_json_t *error = smct_json_get(c, "error");
    if ((canonical == NULL) == (error == NULL)) {
        fail_msg("%s: a case has either `canonical` or `error`", id);
    }
    smct_doc_t doc;
    smct_error_t e = {SMCT_OK, 0, NULL};
    smct_status_t st = smct_notation_parse(text->str.ptr, text->str.len, entry, arena, &doc, &e);
    if (error != NULL) {
        uint64_t offset = 0;
        if (!smct_json_get_u64(smct_json_get(error, "offset"), &offset)) {
            fail_msg("%s: `error.offset` missing", id);
        }
        if (st == SMCT_OK) {
            return case_failed("%s: %s: accepted; expected a rejection at %llu", id, text->str.ptr,
                               (unsigned long long)offset);
        }
        if (e.offset != offset) {
            return case_failed("%s: %s: rejected at %zu (%s), expected at %llu", id, text->str.ptr,
                               e.offset, e.message != NULL ? e.message : "?",
                               (unsigned long long)offset);
        }
        return CASE_REJECTED;
    }
    if (st != SMCT_OK) {
        return case_failed("%s: %s rejected: %s at %zu", id, text->str.ptr,
                           e.message != NULL ? e.message : "?", e.offset);
    }
    smct_buf_t out;
    smct_buf_init(&out);
    case_result_t result = CASE_VALID;
    if (smct_notation_write(&out, &doc, SMCT_NOTATION_COMPACT, &e) != SMCT_OK) {
        result = case_failed("%s: %s reads but does not write: %s", id, text->str.ptr,
                             e.message != NULL ? e.message : "?");
    } else if (out.len != canonical->str.len ||
               memcmp(out.data, canonical->str.ptr, out.len) != 0) {
        result = case_failed("%s: %s writes back as %s, not %s", id, text->str.ptr,
                             smct_buf_cstr(&out), canonical->str.ptr);
    }
    smct_buf_free(&out);
    return result;
}

static void shared_cases_read_as_the_file_says(void **state)
{
    (void)state;
    uint8_t *data = NULL;
    size_t len = 0;
    char why[512];
    if (smct_read_file(cases_path, 0, &data, &len, why, sizeof why) != SMCT_OK) {
        fail_msg("%s", why);
    }
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smct_json_t *file = NULL;
    smct_error_t e;
    if (smct_json_parse((const char *)data, len, NULL, &arena, &file, &e) != SMCT_OK) {
        fail_msg("%s is not JSON: %s at %zu", cases_path, e.message, e.offset);
    }
    const smct_json_t *cases = smct_json_get(file, "cases");
    size_t n = smct_json_count(cases);
    size_t count[3] = {0, 0, 0}; /* by case_result_t */
    for (size_t i = 0; i < n; i++) {
        smc_arena_t scratch;
        smc_arena_init_allocator(&scratch, NULL);
        count[run_case(smct_json_at(cases, i), &scratch)]++;
        smc_arena_free(&scratch);
    }
    print_message("%zu notation cases of %s: %zu valid and %zu rejected as the file says, %zu "
                  "failed, none skipped\n",
                  n, cases_path, count[CASE_VALID], count[CASE_REJECTED], count[CASE_FAILED]);
    assert_true(n > 100);
    assert_int_equal(count[CASE_FAILED], 0);
    smc_arena_free(&arena);
    smct_io_free(data);
}

int main(int argc, char **argv)
{
    if (argc > 1) {
        cases_path = argv[1];
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shared_cases_read_as_the_file_says),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
