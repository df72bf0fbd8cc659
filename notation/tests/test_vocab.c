/*
 * The generated vocabulary (smct_vocab.h) against the file it is generated from, and the
 * status list of notation (smct_error.h). The lists must be the schema's, word for word and
 * in order: a word the judge lacks would make it refuse good vectors or ignore a runner's
 * capability; a word it has that the schema lost would accept what the format no longer has.
 */
#define _POSIX_C_SOURCE 200809L

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "smct_error.h"
#include "smct_io.h"
#include "smct_json.h"
#include "smct_vocab.h"

static const char *const k_classes[] = {SMCT_ERROR_CLASS_LIST(SMCT_VOCAB_ITEM)};
static const char *const k_features[] = {SMCT_FEATURE_LIST(SMCT_VOCAB_ITEM)};

/* Compare `words` with the enum at $defs.<def>.enum of vectors/schema.json. */
static void same_as_schema(const char *def, const char *const *words, size_t n)
{
    uint8_t *text = NULL;
    size_t len = 0;
    char err[256] = "";
    assert_int_equal(smct_read_file(SMCT_TEST_SCHEMA, 0, &text, &len, err, sizeof err), SMCT_OK);
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smct_json_t *root = NULL;
    assert_int_equal(smct_json_parse((const char *)text, len, NULL, &arena, &root, NULL), SMCT_OK);
    const smct_json_t *e = smct_json_get(smct_json_get(smct_json_get(root, "$defs"), def), "enum");
    assert_non_null(e);
    if (smct_json_count(e) != n) {
        fail_msg("$defs.%s.enum has %zu words, smct_vocab.h %zu", def, smct_json_count(e), n);
    }
    for (size_t i = 0; i < n; i++) {
        const smct_json_t *w = smct_json_at(e, i);
        if (!smct_json_is_str(w, words[i])) {
            fail_msg("$defs.%s.enum[%zu] is not \"%s\"", def, i, words[i]);
        }
    }
    smc_arena_free(&arena);
    smct_io_free(text);
}

static void vocab_error_classes_are_the_schemas(void **state)
{
    (void)state;
    same_as_schema("errorClass", k_classes, sizeof k_classes / sizeof k_classes[0]);
}

static void vocab_features_are_the_schemas(void **state)
{
    (void)state;
    same_as_schema("feature", k_features, sizeof k_features / sizeof k_features[0]);
}

static void status_names_are_distinct_and_known(void **state)
{
    (void)state;
    static const smct_status_t all[] = {
#define SMCT_TEST_STATUS(name, value, str, meaning) name,
        SMCT_STATUS_LIST(SMCT_TEST_STATUS)
#undef SMCT_TEST_STATUS
    };
    size_t n = sizeof all / sizeof all[0];
    for (size_t i = 0; i < n; i++) {
        const char *a = smct_status_name(all[i]);
        assert_string_not_equal(a, "unknown");
        for (size_t k = 0; k < i; k++) {
            assert_int_not_equal(all[i], all[k]);
            assert_string_not_equal(a, smct_status_name(all[k]));
        }
    }
    assert_string_equal(smct_status_name((smct_status_t)999), "unknown");
    smct_error_t e;
    assert_int_equal(smct_error_set(&e, SMCT_ERR_IO, 7, "why"), SMCT_ERR_IO);
    assert_int_equal(e.status, SMCT_ERR_IO);
    assert_int_equal(e.offset, 7);
    assert_string_equal(e.message, "why");
    assert_int_equal(smct_error_set(NULL, SMCT_ERR_SYNTAX, 0, "x"), SMCT_ERR_SYNTAX);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vocab_error_classes_are_the_schemas),
        cmocka_unit_test(vocab_features_are_the_schemas),
        cmocka_unit_test(status_names_are_distinct_and_known),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
