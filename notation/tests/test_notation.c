/*
 * Unit tests of smct_notation (notation/): the value notation of spec/notation.md
 * in both directions for every type (N.1), the call and envelope forms (N.2), canonical and
 * pretty writing, and depth without recursion. The rejections of N.4 with their offsets are
 * the shared cases of spec/notation-cases.json (test_notation_cases.c).
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

#include "smct_hex.h"
#include "smct_notation.h"
#include "test_util.h"

/* Notation text → doc → canonical bytes, compared with `hex`; and bytes → doc → text. */
static void both_directions(fixture_t *f, smc_entry_t entry, const char *text, const char *hex)
{
    smct_doc_t doc;
    smct_error_t e;
    smct_status_t st = smct_notation_parse(text, strlen(text), entry, &f->arena, &doc, &e);
    if (st != SMCT_OK) {
        fail_msg("notation %s rejected: %s at %zu", text, e.message, e.offset);
    }
    smct_buf_t bytes;
    smct_buf_init(&bytes);
    smc_error_t err;
    assert_int_equal(smct_doc_encode(&doc, &bytes, &err), SMC_OK);
    smct_buf_t got_hex;
    smct_buf_init(&got_hex);
    smct_buf_put_hex(&got_hex, (const uint8_t *)bytes.data, bytes.len);
    if (strcmp(smct_buf_cstr(&got_hex), hex) != 0) {
        fail_msg("encode %s: expected %s, got %s", text, hex, smct_buf_cstr(&got_hex));
    }

    smct_doc_t back;
    assert_int_equal(smct_doc_decode((const uint8_t *)bytes.data, bytes.len, entry, NULL, &f->arena,
                                     &back, &err),
                     SMC_OK);
    assert_true(smct_doc_equal(&doc, &back));
    smct_buf_t written;
    smct_buf_init(&written);
    assert_int_equal(smct_notation_write(&written, &back, SMCT_NOTATION_COMPACT, &e), SMCT_OK);
    if (strcmp(smct_buf_cstr(&written), text) != 0) {
        fail_msg("write: expected %s, got %s", text, smct_buf_cstr(&written));
    }
    smct_buf_free(&bytes);
    smct_buf_free(&got_hex);
    smct_buf_free(&written);
}

static void expect_reject(fixture_t *f, smc_entry_t entry, const char *text, smct_status_t status,
                          size_t offset)
{
    smct_doc_t doc;
    smct_error_t e;
    smct_status_t st = smct_notation_parse(text, strlen(text), entry, &f->arena, &doc, &e);
    if (st != status || e.offset != offset) {
        fail_msg("%s: expected status %d at %zu, got %d at %zu (%s)", text, (int)status, offset,
                 (int)st, e.offset, st == SMCT_OK ? "accepted" : e.message);
    }
    assert_non_null(e.message);
}

/* ---- N.1: every type, both directions, canonical text ---- */

static void n1_scalars_both_directions(void **state)
{
    fixture_t *f = *state;
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"null\"]", "00");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"bool\",true]", "01");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"bool\",false]", "02");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"i32\",-7]", "03f9ffffff");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"i32\",2147483647]", "03ffffff7f");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"i32\",-2147483648]", "0300000080");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"i64\",\"5\"]", "040500000000000000");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"i64\",\"0\"]", "040000000000000000");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"i64\",\"9223372036854775807\"]",
                    "04ffffffffffffff7f");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"i64\",\"-9223372036854775808\"]",
                    "040000000000000080");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"f64\",\"3ff0000000000000\"]",
                    "0600000000000000000000000000f03f");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"f64\",\"8000000000000000\"]",
                    "06000000000000000000000000000080");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"f64\",\"7ff0000000000001\"]",
                    "0600000000000000010000000000f07f");
}

static void n1_strings_and_bytes_both_directions(void **state)
{
    fixture_t *f = *state;
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"str\",\"\"]", "0700");
    /* non-ASCII is written as raw UTF-8 (N.4), U+0000 as \u0000 */
    both_directions(f, SMC_ENTRY_MESSAGE,
                    "[\"str\",\"h\xe2\x98\xba"
                    "w\"]",
                    "070568e298ba77");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"str\",\"h\xf0\x9f\x98\x82w\"]", "070668f09f988277");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"str\",\"a\\u0000b\"]", "0703610062");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"str\",\"q\\\"\\\\\\n\\u001f\"]", "070571225c0a1f");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"u8s\",\"\"]", "0800");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"u8s\",\"ba5eba11\"]", "0804ba5eba11");
}

static void n1_typed_lists_both_directions(void **state)
{
    fixture_t *f = *state;
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"i32s\",[]]", "09000000");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"i32s\",[305419896,-1,0]]",
                    "0903000078563412ffffffff00000000");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"i64s\",[\"1311768467294899695\",\"-1\"]]",
                    "0a02000000000000efcdab9078563412ffffffffffffffff");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"f64s\",[\"400921fb54442d18\",\"408f400000000000\"]]",
                    "0b02000000000000182d4454fb2109400000000000408f40");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"f32s\",[\"40490fd8\",\"447a0000\"]]",
                    "0e020000d80f494000007a44");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"f32s\",[]]", "0e000000");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"f64s\",[]]", "0b00000000000000");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"i64s\",[]]", "0a00000000000000");
}

static void n1_containers_both_directions(void **state)
{
    fixture_t *f = *state;
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"list\",[]]", "0c00");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"map\",[]]", "0d00");
    /* spec §3.4: the CPP vector, alignment counted from the message start */
    both_directions(
        f, SMC_ENTRY_MESSAGE,
        "[\"list\",[[\"null\"],[\"str\",\"hello\"],[\"f64\",\"40091eb851eb851f\"],[\"i32\",47],"
        "[\"list\",[[\"i32\",42],[\"str\",\"nested\"]]]]]",
        "0c0500070568656c6c6f0600000000001f85eb51b81e0940032f0000000c02032a00000007066e6573746564");
    /* maps keep wire order and duplicate keys (N.1, spec §7.2) */
    both_directions(f, SMC_ENTRY_MESSAGE,
                    "[\"map\",[[[\"str\",\"a\"],[\"i32\",1]],[[\"str\",\"a\"],[\"i32\",2]],[["
                    "\"null\"],[\"list\",[]]]]]",
                    "0d0307016103010000000701610302000000000c00");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"custom\",129,[\"i64\",\"1\"]]",
                    "81040100000000000000");
    both_directions(f, SMC_ENTRY_MESSAGE, "[\"custom\",255,[\"custom\",128,[\"null\"]]]", "ff8000");
}

static void n1_largeint_reads_and_writes_but_never_encodes(void **state)
{
    fixture_t *f = *state;
    smc_value_t *v = NULL;
    smct_error_t e;
    const char *text = "[\"largeint\",\"-1f\"]";
    assert_int_equal(smct_notation_parse_value(text, strlen(text), &f->arena, &v, &e), SMCT_OK);
    assert_int_equal(v->type, SMC_TYPE_LARGEINT);
    assert_int_equal(v->bytes.len, 3);
    assert_memory_equal(v->bytes.ptr, "-1f", 3);
    size_t needed = 0;
    assert_int_equal(smc_encode(v, NULL, 0, &needed, NULL), SMC_ERR_NOT_ENCODABLE);
    /* decoded from tag 5 in flutter mode, it is written back as the same text */
    static const uint8_t wire[] = {0x05, 0x03, '-', '1', 'f'};
    smc_value_t *d = NULL;
    assert_int_equal(smc_decode(wire, sizeof wire, NULL, &f->arena, &d, NULL), SMC_OK);
    smct_buf_t b;
    smct_buf_init(&b);
    assert_int_equal(smct_notation_write_value(&b, d, SMCT_NOTATION_COMPACT, &e), SMCT_OK);
    assert_string_equal(smct_buf_cstr(&b), text);
    smct_buf_free(&b);
}

static void n1_whitespace_and_escapes_read_as_the_same_value(void **state)
{
    fixture_t *f = *state;
    smc_value_t *a = NULL;
    smc_value_t *b = NULL;
    smct_error_t e;
    const char *canonical = "[\"list\",[[\"str\",\"h\"],[\"i32\",0]]]";
    const char *spaced = " [ \"list\" ,\n [ [ \"\\u0073tr\" , \"\\u0068\" ] , [\"i32\", 0 ] ] ] ";
    assert_int_equal(smct_notation_parse_value(canonical, strlen(canonical), &f->arena, &a, &e),
                     SMCT_OK);
    assert_int_equal(smct_notation_parse_value(spaced, strlen(spaced), &f->arena, &b, &e), SMCT_OK);
    assert_true(smc_value_equal(a, b));
}

/* ---- N.4: every rejection, with the JSON offset, is a case of spec/notation-cases.json
 * (test_notation_cases.c), read by every notation reader of the project ---- */

static void n4_surrogate_pair_escapes_read_as_one_character(void **state)
{
    fixture_t *f = *state;
    /* lone surrogates are rejected by the JSON reader (spec/notation-cases.json) */
    smc_value_t *v = NULL;
    smct_error_t e;
    const char *ok = "[\"str\",\"\\ud83d\\ude02\"]";
    assert_int_equal(smct_notation_parse_value(ok, strlen(ok), &f->arena, &v, &e), SMCT_OK);
    assert_int_equal(v->bytes.len, 4);
}

static void n4_rejects_text_that_is_not_utf8(void **state)
{
    fixture_t *f = *state;
    /* The one rejection spec/notation-cases.json cannot hold: its texts are JSON strings. */
    expect_reject(f, SMC_ENTRY_MESSAGE, "[\"str\",\"\xff\"]", SMCT_ERR_SYNTAX, 8);
}

/* ---- N.2: calls and envelopes ---- */

static void n2_calls_and_envelopes_both_directions(void **state)
{
    fixture_t *f = *state;
    /* spec §3.4: alignment counts from the name's tag / the flag byte */
    both_directions(f, SMC_ENTRY_CALL, "[\"call\",\"m\",[\"f64\",\"3ff8000000000000\"]]",
                    "07016d0600000000000000000000f83f");
    both_directions(f, SMC_ENTRY_CALL,
                    "[\"call\",\"hello\",[\"list\",[[\"str\",\"count\"],[\"i32\",42]]]]",
                    "070568656c6c6f0c020705636f756e74032a000000");
    both_directions(f, SMC_ENTRY_CALL, "[\"call\",\"\",[\"null\"]]", "070000");
    both_directions(f, SMC_ENTRY_ENVELOPE, "[\"success\",[\"f64\",\"3ff0000000000000\"]]",
                    "0006000000000000000000000000f03f");
    both_directions(f, SMC_ENTRY_ENVELOPE, "[\"success\",[\"null\"]]", "0000");
    both_directions(f, SMC_ENTRY_ENVELOPE, "[\"error\",\"e\",null,[\"f64\",\"4000000000000000\"]]",
                    "01070165000600000000000000000040");
    /* MESSAGE null (00) and "" (0700) differ (N.2) */
    both_directions(f, SMC_ENTRY_ENVELOPE, "[\"error\",\"error\",null,[\"null\"]]",
                    "0107056572726f720000");
    both_directions(f, SMC_ENTRY_ENVELOPE, "[\"error\",\"error\",\"\",[\"null\"]]",
                    "0107056572726f72070000");
    both_directions(f, SMC_ENTRY_ENVELOPE, "[\"error\",\"error\",\"message\",[\"null\"]]",
                    "0107056572726f7207076d65737361676500");
    /* the optional 4th element: null and a string; both differ from the 3-element form */
    both_directions(f, SMC_ENTRY_ENVELOPE, "[\"error\",\"c\",null,[\"null\"],null]",
                    "01070163000000");
    both_directions(f, SMC_ENTRY_ENVELOPE, "[\"error\",\"c\",\"m\",[\"i32\",1],\"st\"]",
                    "0107016307016d030100000007027374");
}

static void n2_guess_entry_from_the_form_word(void **state)
{
    fixture_t *f = *state;
    smct_json_t *j = NULL;
    const char *c = "[\"call\",\"m\",[\"null\"]]";
    const char *s = "[\"success\",[\"null\"]]";
    const char *e = "[\"error\",\"c\",null,[\"null\"]]";
    const char *v = "[\"list\",[]]";
    assert_int_equal(smct_json_parse(c, strlen(c), NULL, &f->arena, &j, NULL), SMCT_OK);
    assert_int_equal(smct_notation_guess_entry(j), SMC_ENTRY_CALL);
    assert_int_equal(smct_json_parse(s, strlen(s), NULL, &f->arena, &j, NULL), SMCT_OK);
    assert_int_equal(smct_notation_guess_entry(j), SMC_ENTRY_ENVELOPE);
    assert_int_equal(smct_json_parse(e, strlen(e), NULL, &f->arena, &j, NULL), SMCT_OK);
    assert_int_equal(smct_notation_guess_entry(j), SMC_ENTRY_ENVELOPE);
    assert_int_equal(smct_json_parse(v, strlen(v), NULL, &f->arena, &j, NULL), SMCT_OK);
    assert_int_equal(smct_notation_guess_entry(j), SMC_ENTRY_MESSAGE);
    smc_entry_t entry;
    assert_true(smct_entry_from_name("envelope", 8, &entry));
    assert_int_equal(entry, SMC_ENTRY_ENVELOPE);
    assert_false(smct_entry_from_name("messages", 8, &entry));
    assert_string_equal(smct_entry_name(SMC_ENTRY_CALL), "call");
}

static void doc_equal_tells_apart_what_n2_tells_apart(void **state)
{
    fixture_t *f = *state;
    static const char *const forms[] = {
        "[\"error\",\"c\",null,[\"null\"]]",
        "[\"error\",\"c\",\"\",[\"null\"]]",      /* message "" is not null */
        "[\"error\",\"c\",null,[\"null\"],null]", /* 4th element null is not absent */
        "[\"error\",\"c\",null,[\"null\"],\"\"]",
        "[\"error\",\"d\",null,[\"null\"]]",
        "[\"error\",\"c\",null,[\"i32\",0]]",
        "[\"success\",[\"null\"]]",
        "[\"success\",[\"i64\",\"0\"]]",
    };
    enum { N = sizeof forms / sizeof forms[0] };
    smct_doc_t docs[N];
    smct_error_t e;
    for (size_t i = 0; i < N; i++) {
        assert_int_equal(smct_notation_parse(forms[i], strlen(forms[i]), SMC_ENTRY_ENVELOPE,
                                             &f->arena, &docs[i], &e),
                         SMCT_OK);
    }
    for (size_t i = 0; i < N; i++) {
        for (size_t j = 0; j < N; j++) {
            if (smct_doc_equal(&docs[i], &docs[j]) != (i == j)) {
                fail_msg("doc_equal(%s, %s) should be %d", forms[i], forms[j], i == j);
            }
        }
    }
    /* NULL stands for null on the encode side */
    smct_doc_t a;
    smct_doc_t b;
    const char *call = "[\"call\",\"m\",[\"null\"]]";
    assert_int_equal(smct_notation_parse(call, strlen(call), SMC_ENTRY_CALL, &f->arena, &a, &e),
                     SMCT_OK);
    b = a;
    b.call.args = NULL;
    assert_true(smct_doc_equal(&a, &b));
    b.entry = SMC_ENTRY_MESSAGE;
    assert_false(smct_doc_equal(&a, &b));
}

/* ---- writing ---- */

static void writer_pretty_indents_containers_and_reads_back(void **state)
{
    fixture_t *f = *state;
    const char *text =
        "[\"list\",[[\"i32\",1],[\"map\",[[[\"str\",\"k\"],[\"i32s\",[1,2]]]]],[\"list\",[]],"
        "[\"custom\",130,[\"bool\",true]]]]";
    smc_value_t *v = NULL;
    smct_error_t e;
    assert_int_equal(smct_notation_parse_value(text, strlen(text), &f->arena, &v, &e), SMCT_OK);
    smct_buf_t b;
    smct_buf_init(&b);
    assert_int_equal(smct_notation_write_value(&b, v, SMCT_NOTATION_PRETTY, &e), SMCT_OK);
    assert_string_equal(smct_buf_cstr(&b), "[\"list\", [\n"
                                           "  [\"i32\", 1],\n"
                                           "  [\"map\", [\n"
                                           "    [[\"str\", \"k\"], [\"i32s\", [1, 2]]]\n"
                                           "  ]],\n"
                                           "  [\"list\", []],\n"
                                           "  [\"custom\", 130, [\"bool\", true]]\n"
                                           "]]");
    smc_value_t *back = NULL;
    assert_int_equal(smct_notation_parse_value(b.data, b.len, &f->arena, &back, &e), SMCT_OK);
    assert_true(smc_value_equal(v, back));
    smct_buf_free(&b);
}

static void writer_refuses_values_without_notation(void **state)
{
    fixture_t *f = *state;
    smct_buf_t b;
    smct_buf_init(&b);
    smct_error_t e;
    smc_value_t *bad = smc_value_make_largeint(&f->arena, "a\xff", 2);
    assert_non_null(bad);
    assert_int_equal(smct_notation_write_value(&b, bad, 0, &e), SMCT_ERR_NO_NOTATION);
    smc_value_t *list = smc_value_make_list(&f->arena, 2);
    assert_non_null(list);
    list->list.items[1] = *bad;
    smct_buf_clear(&b);
    assert_int_equal(smct_notation_write_value(&b, list, 0, &e), SMCT_ERR_NO_NOTATION);
    smc_value_t weird;
    memset(&weird, 0, sizeof weird);
    weird.type = SMC_TYPE_CUSTOM;
    weird.custom_tag = 5;
    smct_buf_clear(&b);
    assert_int_equal(smct_notation_write_value(&b, &weird, 0, &e), SMCT_ERR_NO_NOTATION);
    assert_int_equal(smct_notation_write_value(&b, NULL, 0, &e), SMCT_ERR_USAGE);
    smct_buf_free(&b);
}

/* N.1 strbytes: a decoded string kept as raw bytes writes as ["strbytes","H"], in values and
 * in the text fields of calls and envelopes, and reads back to the same bytes. */
static void strbytes_round_trips_in_values_and_text_fields(void **state)
{
    fixture_t *f = *state;
    smct_buf_t b;
    smct_buf_init(&b);
    smct_error_t e;
    smc_value_t *kept = smc_value_make_str(&f->arena, "a\xff", 2);
    assert_non_null(kept);
    assert_int_equal(smct_notation_write_value(&b, kept, 0, &e), SMCT_OK);
    assert_string_equal(b.data, "[\"strbytes\",\"61ff\"]");
    smc_value_t *back = NULL;
    assert_int_equal(smct_notation_parse_value(b.data, b.len, &f->arena, &back, &e), SMCT_OK);
    assert_true(smc_value_equal(kept, back));
    smc_method_call_t call = {{(const uint8_t *)"\xc0\x80", 2}, NULL};
    smct_buf_clear(&b);
    assert_int_equal(smct_notation_write_call(&b, &call, 0, &e), SMCT_OK);
    assert_string_equal(b.data, "[\"call\",[\"strbytes\",\"c080\"],[\"null\"]]");
    smct_doc_t doc;
    assert_int_equal(smct_notation_parse(b.data, b.len, SMC_ENTRY_CALL, &f->arena, &doc, &e),
                     SMCT_OK);
    assert_int_equal(doc.call.name.len, 2);
    assert_memory_equal(doc.call.name.ptr, "\xc0\x80", 2);
    static const char env[] =
        "[\"error\",\"e\",[\"strbytes\",\"eda080\"],[\"null\"],[\"strbytes\",\"ff\"]]";
    assert_int_equal(
        smct_notation_parse(env, sizeof env - 1, SMC_ENTRY_ENVELOPE, &f->arena, &doc, &e), SMCT_OK);
    assert_true(doc.envelope.has_message);
    assert_int_equal(doc.envelope.message.len, 3);
    smct_buf_clear(&b);
    assert_int_equal(smct_notation_write(&b, &doc, 0, &e), SMCT_OK);
    assert_string_equal(b.data, env);
    /* one form per value: never well-formed UTF-8, never empty, lower-case hex pairs */
    static const char *const refused[] = {
        "[\"strbytes\",\"61\"]",        "[\"strbytes\",\"\"]", "[\"strbytes\",\"FF\"]",
        "[\"strbytes\",\"f\"]",         "[\"strbytes\",255]",  "[\"strbytes\"]",
        "[\"strbytes\",\"ff\",\"ff\"]",
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        assert_int_equal(
            smct_notation_parse_value(refused[i], strlen(refused[i]), &f->arena, &back, &e),
            SMCT_ERR_NOTATION);
    }
    static const char name_refused[] = "[\"call\",[\"strbytes\",\"6d\"],[\"null\"]]";
    assert_int_equal(smct_notation_parse(name_refused, sizeof name_refused - 1, SMC_ENTRY_CALL,
                                         &f->arena, &doc, &e),
                     SMCT_ERR_NOTATION);
    smct_buf_free(&b);
}

static void writer_treats_null_pointers_as_null_values(void **state)
{
    (void)state;
    smct_buf_t b;
    smct_buf_init(&b);
    smc_method_call_t call = {{(const uint8_t *)"m", 1}, NULL};
    assert_int_equal(smct_notation_write_call(&b, &call, 0, NULL), SMCT_OK);
    assert_string_equal(smct_buf_cstr(&b), "[\"call\",\"m\",[\"null\"]]");
    smc_envelope_t env;
    memset(&env, 0, sizeof env);
    smct_buf_clear(&b);
    assert_int_equal(smct_notation_write_envelope(&b, &env, SMCT_NOTATION_PRETTY, NULL), SMCT_OK);
    assert_string_equal(smct_buf_cstr(&b), "[\"success\", [\"null\"]]");
    smct_buf_free(&b);
}

/* ---- depth without recursion ---- */

typedef struct deep_job {
    fixture_t *f;
    smct_buf_t text;
    smct_status_t read_status;
    smct_status_t write_status;
    bool same_text;
    size_t depth_seen;
} deep_job_t;

static void deep_roundtrip(void *p)
{
    deep_job_t *job = p;
    smct_json_t *j = NULL;
    smct_json_opts_t opts = {400000};
    smc_value_t *v = NULL;
    smct_error_t e;
    job->read_status =
        smct_json_parse(job->text.data, job->text.len, &opts, &job->f->arena, &j, &e);
    if (job->read_status != SMCT_OK) {
        return;
    }
    job->read_status = smct_notation_read_value(j, &job->f->arena, &v, &e);
    if (job->read_status != SMCT_OK) {
        return;
    }
    for (const smc_value_t *c = v; c->type == SMC_TYPE_LIST && c->list.count == 1;
         c = &c->list.items[0]) {
        job->depth_seen++;
    }
    smct_buf_t out;
    smct_buf_init(&out);
    job->write_status = smct_notation_write_value(&out, v, SMCT_NOTATION_COMPACT, &e);
    job->same_text = out.len == job->text.len && memcmp(out.data, job->text.data, out.len) == 0;
    smct_buf_free(&out);
    smct_buf_t pretty;
    smct_buf_init(&pretty);
    if (smct_notation_write_value(&pretty, v, SMCT_NOTATION_PRETTY, &e) != SMCT_OK) {
        job->write_status = e.status;
    }
    smct_buf_free(&pretty);
}

static void deep_notation_reads_and_writes_without_stack(void **state)
{
    fixture_t *f = *state;
    const size_t depth = 100000; /* 200,000 JSON levels: each list level costs two (N.4) */
    deep_job_t job;
    memset(&job, 0, sizeof job);
    job.f = f;
    smct_buf_init(&job.text);
    for (size_t i = 0; i < depth; i++) {
        smct_buf_puts(&job.text, "[\"list\",[");
    }
    smct_buf_puts(&job.text, "[\"null\"]");
    for (size_t i = 0; i < depth; i++) {
        smct_buf_puts(&job.text, "]]");
    }
    assert_true(smct_buf_ok(&job.text));
    assert_true(run_on_small_stack(deep_roundtrip, &job));
    assert_int_equal(job.read_status, SMCT_OK);
    assert_int_equal(job.write_status, SMCT_OK);
    assert_int_equal(job.depth_seen, depth);
    assert_true(job.same_text);
    smct_buf_free(&job.text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(n1_scalars_both_directions, setup, teardown),
        cmocka_unit_test_setup_teardown(n1_strings_and_bytes_both_directions, setup, teardown),
        cmocka_unit_test_setup_teardown(n1_typed_lists_both_directions, setup, teardown),
        cmocka_unit_test_setup_teardown(n1_containers_both_directions, setup, teardown),
        cmocka_unit_test_setup_teardown(n1_largeint_reads_and_writes_but_never_encodes, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(n1_whitespace_and_escapes_read_as_the_same_value, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(n4_surrogate_pair_escapes_read_as_one_character, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(n4_rejects_text_that_is_not_utf8, setup, teardown),
        cmocka_unit_test_setup_teardown(n2_calls_and_envelopes_both_directions, setup, teardown),
        cmocka_unit_test_setup_teardown(n2_guess_entry_from_the_form_word, setup, teardown),
        cmocka_unit_test_setup_teardown(doc_equal_tells_apart_what_n2_tells_apart, setup, teardown),
        cmocka_unit_test_setup_teardown(writer_pretty_indents_containers_and_reads_back, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(writer_refuses_values_without_notation, setup, teardown),
        cmocka_unit_test_setup_teardown(strbytes_round_trips_in_values_and_text_fields, setup,
                                        teardown),
        cmocka_unit_test(writer_treats_null_pointers_as_null_values),
        cmocka_unit_test_setup_teardown(deep_notation_reads_and_writes_without_stack, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
