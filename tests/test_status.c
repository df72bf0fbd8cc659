/* spec/errors.md §14.1: the status table (house style rule 3). */
#include "test_support.h"

#include <string.h>

#define ENTRY(name, code, cls, msg) {name, #name, code, cls, msg},
static const struct {
    smc_status_t status;
    const char *name;
    int code;
    const char *cls;
    const char *msg;
} table[] = {SMC_STATUS_LIST(ENTRY)};
#undef ENTRY

static const char *const classes[] = {
    "ok",           "truncated",   "trailing_bytes", "unknown_tag", "bad_utf8",    "not_canonical",
    "bad_envelope", "depth_limit", "not_encodable",  "nomem",       "buffer_full", "usage"};

static void s14_status_codes_are_distinct_and_grouped_by_range(void **state)
{
    (void)state;
    size_t n = sizeof table / sizeof table[0];
    assert_int_equal(n, 17);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal((int)table[i].status, table[i].code);
        for (size_t j = i + 1; j < n; j++) {
            assert_int_not_equal(table[i].code, table[j].code);
        }
        int range = table[i].code >> 8;
        if (strcmp(table[i].cls, "depth_limit") == 0) {
            assert_int_equal(range, 2);
        } else if (strcmp(table[i].cls, "nomem") == 0 || strcmp(table[i].cls, "usage") == 0 ||
                   strcmp(table[i].cls, "buffer_full") == 0 ||
                   strcmp(table[i].cls, "not_encodable") == 0) {
            assert_int_equal(range, 3);
        } else if (table[i].status != SMC_OK) {
            assert_int_equal(range, 1);
        }
    }
    assert_int_equal(SMC_OK, 0);
}

static void s14_messages_names_and_classes_are_valid(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        assert_true(strlen(smc_status_str(table[i].status)) > 0);
        assert_string_equal(smc_status_str(table[i].status), table[i].msg);
        assert_string_equal(smc_status_name(table[i].status), table[i].name);
        const char *cls = smc_status_class(table[i].status);
        int known = 0;
        for (size_t k = 0; k < sizeof classes / sizeof classes[0]; k++) {
            known |= strcmp(cls, classes[k]) == 0;
        }
        assert_true(known);
    }
    assert_string_equal(smc_status_class(SMC_ERR_NONMINIMAL_SIZE), "not_canonical");
    assert_string_equal(smc_status_class(SMC_ERR_NONZERO_PADDING), "not_canonical");
    assert_string_equal(smc_status_class(SMC_ERR_TRUNCATED), "truncated");
}

static void s14_unknown_status_values_have_a_non_null_text(void **state)
{
    (void)state;
    smc_status_t bogus = (smc_status_t)0x7777;
    assert_string_equal(smc_status_str(bogus), "unknown status");
    assert_string_equal(smc_status_class(bogus), "unknown status");
    assert_string_equal(smc_status_name(bogus), "unknown status");
}

static void s04_type_names_are_the_notation_words(void **state)
{
    (void)state;
    assert_string_equal(smc_type_name(SMC_TYPE_F32S), "f32s");
    assert_string_equal(smc_type_name(SMC_TYPE_CUSTOM), "custom");
    assert_string_equal(smc_type_name((smc_type_t)99), "?");
    assert_string_equal(smc_version(), SMC_VERSION_STRING);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(s14_status_codes_are_distinct_and_grouped_by_range),
        cmocka_unit_test(s14_messages_names_and_classes_are_valid),
        cmocka_unit_test(s14_unknown_status_values_have_a_non_null_text),
        cmocka_unit_test(s04_type_names_are_the_notation_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
