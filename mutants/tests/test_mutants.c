/*
 * Tests of the bug catalogue and the variant codec (mutants/):
 *
 * - the catalogue: ids unique and well-formed, every field filled, lists parse;
 * - with no bug on, the variant codec gives exactly the reference's answers (value, bytes,
 *   class and offset) on every golden vector and every seed-corpus input, in both modes and
 *   at every address;
 * - each entry, alone, turns one example into what a port with that bug does (the examples
 *   of spec/bugs-in-the-wild.md), and the reference's answer on it is different.
 *
 * Arguments: the vectors directory, then the fuzz corpus directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smcm_codec.h"
#include "smcm_host.h"
#include "smct_doc.h"
#include "smct_hex.h"
#include "smct_io.h"
#include "smct_json.h"
#include "smct_notation.h"

static const char *g_vectors_dir;
static const char *g_corpus_dir;

/* ---- catalogue ---- */

static void catalogue_ids_are_unique_well_formed_and_complete(void **state)
{
    (void)state;
    for (unsigned i = 0; i < SMCM_BUG_COUNT; i++) {
        const smcm_entry_t *e = smcm_entry((smcm_bug_t)i);
        assert_non_null(e);
        assert_int_equal(e->bug, i);
        assert_true(strlen(e->id) > 2);
        for (const char *p = e->id; *p; p++) {
            assert_true((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-');
        }
        assert_true(e->section[0] >= '1' && e->section[0] <= '9');
        assert_true(e->requirement[0] == 'R' && strchr(e->requirement, '-') != NULL);
        assert_true(e->parts >= SMCM_DEC && e->parts <= SMCM_BOTH);
        assert_true(strlen(e->what) > 8 && strlen(e->shipped) > 3);
        assert_ptr_equal(smcm_lookup(e->id, strlen(e->id)), e);
        for (unsigned j = 0; j < i; j++) {
            assert_string_not_equal(smcm_entry((smcm_bug_t)j)->id, e->id);
        }
    }
    assert_null(smcm_entry(SMCM_BUG_COUNT));
    assert_null(smcm_lookup("pad-from", 8));
}

static void catalogue_lists_parse_with_parts(void **state)
{
    (void)state;
    smcm_bugs_t b;
    char err[256];
    assert_true(smcm_parse_bugs("pad-from-remaining,pad-extra-block@encoder", &b, err, sizeof err));
    assert_true(b.decoder == SMCM_BIT(SMCM_PAD_FROM_REMAINING));
    assert_true(b.encoder == SMCM_BIT(SMCM_PAD_EXTRA_BLOCK));
    assert_true(smcm_parse_bugs("map-sorted", &b, err, sizeof err));
    assert_true(b.decoder == SMCM_BIT(SMCM_MAP_SORTED) && b.encoder == SMCM_BIT(SMCM_MAP_SORTED));
    assert_true(smcm_parse_bugs("none", &b, err, sizeof err) && b.decoder == 0 && b.encoder == 0);
    assert_true(smcm_parse_bugs(NULL, &b, err, sizeof err) && b.decoder == 0 && b.encoder == 0);
    assert_false(smcm_parse_bugs("pad-from-nowhere", &b, err, sizeof err));
    assert_non_null(strstr(err, "pad-from-nowhere"));
    /* an encoder-only bug cannot be put in a decoder */
    assert_false(smcm_parse_bugs("pad-not-zeroed@decoder", &b, err, sizeof err));
    assert_false(smcm_parse_bugs("map-sorted@sideways", &b, err, sizeof err));
    smcm_bugs_t all = smcm_catalogue_all();
    assert_true((all.decoder & SMCM_BIT(SMCM_CONTROL_BOOLS_SWAPPED)) == 0);
    assert_true((all.decoder & SMCM_BIT(SMCM_PAD_FROM_ADDRESS)) != 0);
    assert_true((all.encoder & SMCM_BIT(SMCM_PAD_FROM_ADDRESS)) == 0);
    assert_true(smcm_is_control(smcm_entry(SMCM_CONTROL_MAPS_REJECTED)));
    assert_false(smcm_is_control(smcm_entry(SMCM_MAP_SORTED)));
}

/* ---- no bug on: the reference's answers ---- */

typedef struct tally {
    size_t decodes, encodes;
} tally_t;

static void same_encode_as_reference(const smct_doc_t *doc, smc_arena_t *arena, tally_t *t)
{
    smct_buf_t ref;
    smct_buf_init(&ref);
    smc_error_t err = {SMC_OK, 0};
    smc_status_t st = smct_doc_encode(doc, &ref, &err);
    smcm_answer_t a;
    smcm_encode(0, doc, arena, &a);
    if (st == SMC_OK) {
        assert_int_equal(a.kind, SMCM_BYTES);
        assert_int_equal(a.len, ref.len);
        assert_memory_equal(a.bytes, ref.data, ref.len);
        assert_null(a.wild);
    } else {
        assert_int_equal(a.kind, SMCM_ERROR);
        assert_string_equal(a.error_class, smc_status_class(st));
    }
    smct_buf_free(&ref);
    t->encodes++;
}

/* The variant decoder with no bug, at `address`, against the reference on one input. */
static void same_decode_as_reference(const uint8_t *data, size_t len, smc_entry_t entry,
                                     bool strict, unsigned address, smc_arena_t *arena, tally_t *t)
{
    smc_decode_opts_t opts = {strict ? SMC_MODE_STRICT : SMC_MODE_FLUTTER, 0};
    smct_doc_t ref;
    smc_error_t err = {SMC_OK, 0};
    smc_status_t st = smct_doc_decode(data, len, entry, &opts, arena, &ref, &err);
    smcm_answer_t a;
    smcm_decode(0, entry, data, len, strict, address, arena, &a);
    t->decodes++;
    if (st == SMC_OK) {
        if (a.kind != SMCM_VALUE || !smct_doc_equal(&ref, &a.doc)) {
            char hex[161];
            smct_hex_encode(data, len > 80 ? 80 : len, hex);
            fail_msg("variant decoder differs from the reference on %s (%s): %s", hex,
                     strict ? "strict" : "flutter",
                     a.kind == SMCM_ERROR ? a.error_class : "another value");
        }
        same_encode_as_reference(&ref, arena, t);
        return;
    }
    if (a.kind != SMCM_ERROR || !a.error_class ||
        strcmp(a.error_class, smc_status_class(st)) != 0 || !a.has_offset ||
        a.offset != err.offset) {
        char hex[161];
        smct_hex_encode(data, len > 80 ? 80 : len, hex);
        fail_msg("variant decoder differs on %s (%s): reference %s @ %zu, variant %s @ %llu", hex,
                 strict ? "strict" : "flutter", smc_status_class(st), err.offset,
                 a.kind == SMCM_ERROR && a.error_class ? a.error_class
                 : a.kind == SMCM_VALUE                ? "a value"
                                                       : "?",
                 (unsigned long long)a.offset);
    }
}

static smc_entry_t entry_of_kind(const char *kind)
{
    if (strcmp(kind, "method_call") == 0) {
        return SMC_ENTRY_CALL;
    }
    return strstr(kind, "envelope") ? SMC_ENTRY_ENVELOPE : SMC_ENTRY_MESSAGE;
}

static void run_hex(const smct_json_t *hex, smc_entry_t entry, smc_arena_t *arena, tally_t *t)
{
    if (!hex || hex->type != SMCT_JSON_STRING) {
        return;
    }
    uint8_t *bytes = malloc(hex->str.len / 2 + 1);
    assert_non_null(bytes);
    size_t n;
    assert_int_equal(smct_hex_decode_strict(hex->str.ptr, hex->str.len, bytes, &n, NULL), SMCT_OK);
    for (int strict = 0; strict < 2; strict++) {
        same_decode_as_reference(bytes, n, entry, strict != 0, (unsigned)(n % 8), arena, t);
        smc_arena_reset(arena);
    }
    free(bytes);
}

static void no_bug_is_the_reference_on_every_vector(void **state)
{
    (void)state;
    DIR *dir = opendir(g_vectors_dir);
    assert_non_null(dir);
    smc_arena_t arena, json_arena;
    smc_arena_init_allocator(&arena, NULL);
    smc_arena_init_allocator(&json_arena, NULL);
    tally_t t = {0, 0};
    size_t files = 0;
    struct dirent *de;
    while ((de = readdir(dir)) != NULL) {
        if (de->d_name[0] != 's' || !strstr(de->d_name, ".json") || strstr(de->d_name, "schema")) {
            continue;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", g_vectors_dir, de->d_name);
        uint8_t *text;
        size_t len;
        char err[256];
        assert_int_equal(
            smct_read_file(path, SMCT_IO_DEFAULT_MAX_SIZE, &text, &len, err, sizeof err), SMCT_OK);
        smct_json_t *root;
        smct_error_t e;
        assert_int_equal(smct_json_parse((const char *)text, len, NULL, &json_arena, &root, &e),
                         SMCT_OK);
        const smct_json_t *vs = smct_json_get(root, "vectors");
        for (size_t i = 0; i < smct_json_count(vs); i++) {
            const smct_json_t *v = smct_json_at(vs, i);
            smc_entry_t entry = entry_of_kind(smct_json_get(v, "kind")->str.ptr);
            run_hex(smct_json_get(v, "canonical"), entry, &arena, &t);
            run_hex(smct_json_get(v, "hex"), entry, &arena, &t);
            const smct_json_t *acc = smct_json_get(v, "accepted");
            for (size_t k = 0; k < smct_json_count(acc); k++) {
                run_hex(smct_json_get(smct_json_at(acc, k), "hex"), entry, &arena, &t);
            }
        }
        smct_io_free(text);
        smc_arena_reset(&json_arena);
        files++;
    }
    closedir(dir);
    printf("no bug = reference: %zu vector files, %zu decodes, %zu encodes\n", files, t.decodes,
           t.encodes);
    assert_true(files >= 10 && t.decodes > 5000);
    smc_arena_free(&arena);
    smc_arena_free(&json_arena);
}

static void no_bug_is_the_reference_on_the_seed_corpus(void **state)
{
    (void)state;
    static const char *const subdirs[] = {"decode", "call", "envelope", "roundtrip",
                                          "reader_vs_tree"};
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    tally_t t = {0, 0};
    for (size_t s = 0; s < sizeof subdirs / sizeof subdirs[0]; s++) {
        char dpath[4096];
        snprintf(dpath, sizeof dpath, "%s/%s", g_corpus_dir, subdirs[s]);
        DIR *dir = opendir(dpath);
        if (!dir) {
            continue;
        }
        struct dirent *de;
        while ((de = readdir(dir)) != NULL) {
            if (de->d_name[0] == '.') {
                continue;
            }
            char path[8192];
            snprintf(path, sizeof path, "%s/%s", dpath, de->d_name);
            uint8_t *data;
            size_t len;
            char err[256];
            if (smct_read_file(path, SMCT_IO_DEFAULT_MAX_SIZE, &data, &len, err, sizeof err) !=
                SMCT_OK) {
                continue;
            }
            /* every input through every entry point: the first byte (the fuzzers' option
             * byte) dropped and kept, at the address the length picks */
            for (int e = 0; e < 3; e++) {
                for (int strict = 0; strict < 2; strict++) {
                    for (size_t skip = 0; skip < 2 && skip <= len; skip++) {
                        same_decode_as_reference(data + skip, len - skip, (smc_entry_t)e,
                                                 strict != 0, (unsigned)(len % 8), &arena, &t);
                        smc_arena_reset(&arena);
                    }
                }
            }
            smct_io_free(data);
        }
        closedir(dir);
    }
    printf("no bug = reference on the corpus: %zu decodes, %zu encodes\n", t.decodes, t.encodes);
    assert_true(t.decodes > 1000);
    smc_arena_free(&arena);
}

/* ---- each bug, alone, on its example ---- */

typedef struct example {
    const char *bugs; /* smcm_parse_bugs list */
    const char *op;   /* "decode", "decode-strict", "encode", "host-encode:VOCABULARY" */
    smc_entry_t entry;
    const char *input;    /* decode: hex; encode: notation; host-encode: the host value (JSON),
                             a newline, the notation the spec writes it as ("" if it refuses it) */
    unsigned address;     /* decode: address of the first byte mod 8 */
    const char *expected; /* "value:NOTATION", "error:CLASS@OFFSET", "error:*", "bytes:HEX" */
} example_t;

#define MSG     SMC_ENTRY_MESSAGE
#define CALL    SMC_ENTRY_CALL
#define ENV     SMC_ENTRY_ENVELOPE
#define F64_ONE "0600000000000000000000000000f03f"

static const example_t k_examples[] = {
    {"pad-from-address", "decode", MSG, F64_ONE, 3, "error:trailing_bytes@13"},
    {"pad-from-remaining", "decode", MSG, F64_ONE, 0, "error:trailing_bytes@10"},
    /* F64_ONE itself decodes as the reference does (16 bytes: the end is aligned too); a
     * float64 the input does not end 8 bytes after is read from the wrong place */
    {"pad-remaining-multiple", "decode", MSG, "0c02060000000000000000000000f03f00", 0,
     "error:truncated@17"},
    {"typed-view-at-address", "decode", MSG, "0901000001000000", 2, "error:*"},
    {"pad-from-value", "decode", MSG, "0c02000600000000000000000000f03f", 0, "error:truncated@16"},
    {"pad-from-value", "encode", MSG, "[\"list\",[[\"null\"],[\"f64\",\"3ff0000000000000\"]]]", 0,
     "bytes:0c02000600000000000000000000000000f03f"},
    {"pad-fixed", "encode", MSG, "[\"i32s\",[1]]", 0, "bytes:090100000001000000"},
    {"pad-fixed", "decode", MSG, "0901000001000000", 0, "error:truncated@8"},
    {"pad-from-envelope-body", "decode", ENV, "0006000000000000000000000000f03f", 0,
     "error:truncated@16"},
    {"pad-from-envelope-body", "encode", ENV, "[\"success\",[\"f64\",\"3ff0000000000000\"]]", 0,
     "bytes:000600000000000000000000000000f03f"},
    {"pad-from-call-args", "decode", CALL, "07016d0600000000000000000000f83f", 0,
     "error:truncated@16"},
    {"pad-from-call-args", "encode", CALL, "[\"call\",\"m\",[\"f64\",\"3ff8000000000000\"]]", 0,
     "bytes:07016d0600000000000000000000000000f83f"},
    {"pad-extra-block", "decode", MSG, "0c01090101000000", 0, "error:truncated@8"},
    {"pad-extra-block", "encode", MSG, "[\"list\",[[\"i32s\",[1]]]]", 0,
     "bytes:0c0109010000000001000000"},
    {"empty-typed-list-unpadded", "encode", MSG,
     "[\"list\",[[\"null\"],[\"i32s\",[]],[\"i32\",7]]]", 0, "bytes:0c030009000307000000"},
    {"empty-typed-list-unpadded", "decode", MSG, "0c030009000000000307000000", 0,
     "error:trailing_bytes@6"},
    {"pad-not-zeroed", "encode", MSG, "[\"f64\",\"3ff0000000000000\"]", 0,
     "bytes:06cdcdcdcdcdcdcd000000000000f03f"},
    {"size-signed-16", "decode", MSG, "07fe0080", 0, "error:*"},
    {"size-signed-32", "decode", MSG, "0dffffffffff", 0, "value:[\"map\",[]]"},
    {"size-signed-32", "decode", MSG, "07ffffffffff", 0, "crash:negative-size"},
    {"alloc-before-size-check", "decode", MSG, "07ffffffff7f", 0, "crash:allocation"},
    {"alloc-before-size-check", "decode", MSG, "0cffffffff7f", 0, "crash:allocation"},
    {"read-past-end", "decode", MSG, "0302", 0, "crash:read-past-end"},
    {"size-escape-off-by-one", "decode", MSG, "07fe02006162", 0, "error:truncated@6"},
    {"typed-list-byte-count", "encode", MSG, "[\"i32s\",[1,2]]", 0,
     "bytes:090800000100000002000000"},
    {"typed-list-byte-count", "decode", MSG, "090200000100000002000000", 0,
     "error:trailing_bytes@4"},
    {"str-utf16-size", "encode", MSG, "[\"str\",\"h\\ud83d\\ude02w\"]", 0,
     "bytes:070468f09f988277"},
    {"str-utf16-size", "decode", MSG, "070668f09f988277", 0, "error:truncated@8"},
    {"i64s-under-i32s-tag", "encode", MSG, "[\"i64s\",[\"1\"]]", 0,
     "bytes:09010000000000000100000000000000"},
    {"i64-under-i32-tag", "encode", MSG, "[\"i64\",\"5\"]", 0, "bytes:030500000000000000"},
    {"i64-narrowed", "encode", MSG, "[\"i64\",\"5\"]", 0, "bytes:0305000000"},
    {"i64-narrowed", "decode", MSG, "040500000000000000", 0, "value:[\"i32\",5]"},
    {"i32-widened", "encode", MSG, "[\"i32\",7]", 0, "bytes:040700000000000000"},
    {"unknown-tag-as-null", "decode", MSG, "0c020f01", 0,
     "value:[\"list\",[[\"null\"],[\"bool\",true]]]"},
    {"no-float32list", "decode", MSG, "0e000000", 0, "error:unknown_tag@0"},
    {"no-float32list", "encode", MSG, "[\"f32s\",[]]", 0, "error:not_encodable@0"},
    {"largeint-as-string", "decode", MSG, "05032d3166", 0, "value:[\"str\",\"-1f\"]"},
    {"nan-canonicalised", "encode", MSG, "[\"f64\",\"7ff0000000000001\"]", 0,
     "bytes:0600000000000000000000000000f87f"},
    {"nul-truncated-strings", "decode", MSG, "0703610062", 0, "value:[\"str\",\"a\"]"},
    {"nul-truncated-strings", "encode", MSG, "[\"str\",\"a\\u0000b\"]", 0, "bytes:070161"},
    {"utf8-replaced", "decode", MSG, "0701ff", 0, "value:[\"str\",\"\\ufffd\"]"},
    {"u8s-written-twice", "encode", MSG, "[\"u8s\",\"ba5e\"]", 0, "bytes:0802ba5eba5e"},
    {"signed-zero-keys-merged", "decode", MSG,
     "0d0206000000000000000000000000000704706c75730600000000000000008007056d696e7573", 0,
     "value:[\"map\",[[[\"f64\",\"0000000000000000\"],[\"str\",\"plus\"]]]]"},
    {"nan-key-merges", "decode", MSG,
     "0d02060000000000000000000000e03f0301000000060000000000000000f87f0302000000", 0,
     "value:[\"map\",[[[\"f64\",\"3fe0000000000000\"],[\"i32\",1]]]]"},
    {"nan-key-merges", "encode", MSG,
     "[\"map\",[[[\"f64\",\"7ff8000000000000\"],[\"i32\",1]],[[\"f64\",\"3fe0000000000000\"],"
     "[\"i32\",2]]]]",
     0, "bytes:0d01060000000000000000000000f87f0301000000"},
    {"map-sorted", "decode", MSG, "0d0207016203010000000701610302000000", 0,
     "value:[\"map\",[[[\"str\",\"a\"],[\"i32\",2]],[[\"str\",\"b\"],[\"i32\",1]]]]"},
    {"map-sorted", "encode", MSG,
     "[\"map\",[[[\"str\",\"b\"],[\"i32\",1]],[[\"str\",\"a\"],[\"i32\",2]]]]", 0,
     "bytes:0d0207016103020000000701620301000000"},
    {"map-dedup-first", "decode", MSG, "0d0207016103010000000701610302000000", 0,
     "value:[\"map\",[[[\"str\",\"a\"],[\"i32\",1]]]]"},
    {"map-dedup-last", "decode", MSG, "0d0207016103010000000701610302000000", 0,
     "value:[\"map\",[[[\"str\",\"a\"],[\"i32\",2]]]]"},
    {"no-trailing-check", "decode", MSG, "0000", 0, "value:[\"null\"]"},
    {"truncated-as-zero", "decode", MSG, "0d010701610c020301", 0,
     "value:[\"map\",[[[\"str\",\"a\"],[\"list\",[[\"i32\",0],[\"bool\",true]]]]]]"},
    {"empty-as-null", "decode", MSG, "", 0, "value:[\"null\"]"},
    {"null-encodes-empty", "encode", MSG, "[\"null\"]", 0, "bytes:"},
    /* D31: CPP reads a code or name of another type as a value first */
    {"element-type-uncaught", "decode", ENV, "0103000000000000", 0, "crash:wrong-type"},
    {"call-name-not-string-null", "decode", CALL, "030000000000", 0, "error:*"},
    /* spec §17: a Swift Float, alone and in an Array; a Dart Uint64List (D42, D44) */
    {"f32-four-bytes", "host-encode:swift", MSG,
     "{\"type\":\"Float\",\"value\":\"3fc00000\"}\n[\"f64\",\"3ff8000000000000\"]", 0,
     "bytes:060000c03f"},
    {"f32-four-bytes", "host-encode:swift", MSG,
     "{\"type\":\"Array\",\"value\":[{\"type\":\"Int32\",\"value\":\"1\"},{\"type\":"
     "\"Float\",\"value\":\"c0000000\"}]}\n[\"list\",[[\"i32\",1],[\"f64\","
     "\"c000000000000000\"]]]",
     0, "bytes:0c02030100000006000000c0"},
    /* D2: JAVA's BigInteger as tag 5 with lower-case hex text; a `c` largeInt as its text */
    {"largeint-written", "host-encode:kotlin", MSG, "{\"type\":\"BigInteger\",\"value\":\"31\"}\n",
     0, "bytes:05023166"},
    {"largeint-written", "host-encode:kotlin", MSG,
     "{\"type\":\"BigInteger\",\"value\":\"-255\"}\n", 0, "bytes:05032d6666"},
    {"largeint-written", "host-encode:c", MSG,
     "{\"type\":\"SMC_TYPE_LARGEINT\",\"value\":\"1f\"}\n", 0, "bytes:05023166"},
    {"largeint-written", "encode", MSG, "[\"largeint\",\"00FF\"]", 0, "bytes:050430304646"},
    {"uint64s-as-ints", "host-encode:dart", MSG,
     "{\"type\":\"Uint64List\",\"value\":[\"18446744073709551615\",\"9223372036854775807\"]}\n", 0,
     "bytes:0c0203ffffffff04ffffffffffffff7f"},
    {"envelope-flag-inverted", "decode", ENV, "00032a000000", 0, "error:bad_envelope@1"},
    {"envelope-flag-inverted", "encode", ENV, "[\"success\",[\"i32\",42]]", 0,
     "bytes:01032a000000"},
    {"nonzero-flag-is-error", "decode", ENV, "0207000000", 0,
     "value:[\"error\",\"\",null,[\"null\"]]"},
    {"envelope-extra-ignored", "decode", ENV, "0107056572726f720704626f6f6d0007027374", 0,
     "value:[\"error\",\"error\",\"boom\",[\"null\"]]"},
    {"stacktrace-rejected", "decode", ENV, "0107056572726f720704626f6f6d0007027374", 0,
     "error:trailing_bytes@15"},
    {"success-trailing-as-error", "decode", ENV,
     "00"
     "00"
     "070165"
     "00"
     "00",
     0, "value:[\"error\",\"e\",null,[\"null\"]]"},
    {"success-trailing-as-error", "decode", ENV,
     "00"
     "00"
     "ff",
     0, "error:*"},
    {"error-message-empty-as-null", "decode", ENV, "0107000000", 0,
     "value:[\"error\",\"\",\"\",[\"null\"]]"},
    {"error-message-empty-as-null", "encode", ENV, "[\"error\",\"e\",\"\",[\"null\"]]", 0,
     "bytes:010701650000"},
    {"control-bools-swapped", "decode", MSG, "01", 0, "value:[\"bool\",false]"},
    {"control-i32-plus-one", "decode", MSG, "0301000000", 0, "value:[\"i32\",2]"},
    {"control-maps-rejected", "decode", MSG, "0d00", 0, "error:unknown_tag@0"},
};

/* The answer as text in the examples' form, for messages. */
static void describe(const smcm_answer_t *a, char *out, size_t size)
{
    smct_buf_t b;
    smct_buf_init(&b);
    switch (a->kind) {
    case SMCM_VALUE: {
        smct_error_t e;
        smct_buf_puts(&b, "value:");
        smct_notation_write(&b, &a->doc, SMCT_NOTATION_COMPACT, &e);
        break;
    }
    case SMCM_ERROR:
        if (a->fault != SMCM_FAULT_NONE) {
            smct_buf_printf(&b, "crash:%s%s", smcm_fault_id(a->fault), a->fault_maybe ? "?" : "");
        } else if (a->error_class) {
            smct_buf_printf(&b, "error:%s@%llu", a->error_class, (unsigned long long)a->offset);
        } else {
            smct_buf_puts(&b, "error:*");
        }
        break;
    case SMCM_BYTES:
        smct_buf_puts(&b, "bytes:");
        smct_buf_put_hex(&b, a->bytes, a->len);
        break;
    case SMCM_UNKNOWN:
        smct_buf_printf(&b, "unknown:%s", a->why);
        break;
    }
    snprintf(out, size, "%s", smct_buf_cstr(&b));
    smct_buf_free(&b);
}

static void run_example(const example_t *x, smcm_set_t bugs, smc_arena_t *arena, smcm_answer_t *a)
{
    if (strncmp(x->op, "host-encode:", 12) == 0) {
        const char *nl = strchr(x->input, '\n');
        assert_non_null(nl);
        smct_json_t *host;
        smct_error_t e;
        assert_int_equal(smct_json_parse(x->input, (size_t)(nl - x->input), NULL, arena, &host, &e),
                         SMCT_OK);
        smct_doc_t wire;
        bool refused = nl[1] == '\0';
        if (!refused) {
            assert_int_equal(
                smct_notation_parse(nl + 1, strlen(nl + 1), x->entry, arena, &wire, &e), SMCT_OK);
        }
        smcm_host_encode(bugs, x->op + 12, host, refused ? NULL : &wire, arena, a);
        return;
    }
    if (strcmp(x->op, "encode") == 0) {
        smct_doc_t doc;
        smct_error_t e;
        assert_int_equal(smct_notation_parse(x->input, strlen(x->input), x->entry, arena, &doc, &e),
                         SMCT_OK);
        smcm_encode(bugs, &doc, arena, a);
        return;
    }
    size_t n = strlen(x->input) / 2;
    uint8_t *bytes = smc_arena_alloc(arena, n + 1);
    assert_int_equal(smct_hex_decode_strict(x->input, strlen(x->input), bytes, &n, NULL), SMCT_OK);
    smcm_decode(bugs, x->entry, bytes, n, strcmp(x->op, "decode-strict") == 0, x->address, arena,
                a);
}

static void each_bug_changes_its_example(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    bool covered[SMCM_BUG_COUNT] = {false};
    for (size_t i = 0; i < sizeof k_examples / sizeof k_examples[0]; i++) {
        const example_t *x = &k_examples[i];
        smcm_bugs_t bugs;
        char err[256];
        assert_true(smcm_parse_bugs(x->bugs, &bugs, err, sizeof err));
        smcm_set_t set = strstr(x->op, "encode") ? bugs.encoder : bugs.decoder;
        assert_true(set != 0);
        smcm_answer_t with, without;
        char got[4096], ref[4096];
        run_example(x, set, &arena, &with);
        run_example(x, 0, &arena, &without);
        describe(&with, got, sizeof got);
        describe(&without, ref, sizeof ref);
        if (strncmp(x->expected, "value:", 6) == 0 && with.kind == SMCM_VALUE) {
            smct_doc_t want;
            smct_error_t e;
            assert_int_equal(smct_notation_parse(x->expected + 6, strlen(x->expected + 6), x->entry,
                                                 &arena, &want, &e),
                             SMCT_OK);
            if (!smct_doc_equal(&want, &with.doc)) {
                fail_msg("%s %s %s: expected %s, got %s", x->bugs, x->op, x->input, x->expected,
                         got);
            }
        } else if (strcmp(got, x->expected) != 0) {
            fail_msg("%s %s %s: expected %s, got %s", x->bugs, x->op, x->input, x->expected, got);
        }
        if (strcmp(got, ref) == 0) {
            fail_msg("%s %s %s: the bug changes nothing (%s)", x->bugs, x->op, x->input, got);
        }
        for (unsigned b = 0; b < SMCM_BUG_COUNT; b++) {
            covered[b] = covered[b] || (set & SMCM_BIT(b)) != 0;
        }
        smc_arena_reset(&arena);
    }
    for (unsigned b = 0; b < SMCM_BUG_COUNT; b++) {
        if (!covered[b] && b != SMCM_NO_DEPTH_LIMIT) { /* no-depth-limit: its own test below */
            fail_msg("catalogue entry %s has no example", smcm_entry((smcm_bug_t)b)->id);
        }
    }
    smc_arena_free(&arena);
}

static void no_depth_limit_decodes_past_128(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    uint8_t in[2 * 129];
    for (size_t i = 0; i < 128; i++) {
        in[2 * i] = 0x0c;
        in[2 * i + 1] = 0x01;
    }
    in[256] = 0x0c;
    in[257] = 0x00;
    smcm_answer_t a;
    smcm_decode(0, MSG, in, sizeof in, false, 0, &arena, &a);
    assert_int_equal(a.kind, SMCM_ERROR);
    assert_string_equal(a.error_class, "depth_limit");
    assert_int_equal(a.offset, 256);
    smcm_decode(SMCM_BIT(SMCM_NO_DEPTH_LIMIT), MSG, in, sizeof in, false, 0, &arena, &a);
    assert_int_equal(a.kind, SMCM_VALUE);
    /* 2,500 levels: past what the variant models, the stack may run out (D22) or may not */
    static uint8_t deep[5001];
    memset(deep, 0x0c, sizeof deep - 1);
    deep[sizeof deep - 1] = 0x00;
    for (size_t i = 0; i + 1 < sizeof deep; i += 2) {
        deep[i + 1] = 0x01;
    }
    smcm_decode(SMCM_BIT(SMCM_NO_DEPTH_LIMIT), MSG, deep, sizeof deep, false, 0, &arena, &a);
    assert_int_equal(a.kind, SMCM_ERROR);
    assert_int_equal(a.fault, SMCM_FAULT_DEPTH);
    assert_true(a.fault_maybe);
    smc_arena_free(&arena);
}

/* alloc-before-size-check fails only an allocation the heap cannot hold; a small one is made
 * and the read then runs out as the spec's check would say. */
static void alloc_before_size_check_fails_only_large(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    static const uint8_t small[] = {0x07, 0xff, 0x00, 0x00, 0x01, 0x00}; /* 65,536 bytes */
    smcm_answer_t a;
    smcm_decode(SMCM_BIT(SMCM_ALLOC_BEFORE_SIZE_CHECK), MSG, small, sizeof small, false, 0, &arena,
                &a);
    assert_int_equal(a.kind, SMCM_ERROR);
    assert_int_equal(a.fault, SMCM_FAULT_NONE);
    assert_string_equal(a.error_class, "truncated");
    static const uint8_t map[] = {0x0d, 0xff, 0xff, 0xff, 0xff, 0x7f}; /* a map is not sized */
    smcm_decode(SMCM_BIT(SMCM_ALLOC_BEFORE_SIZE_CHECK), MSG, map, sizeof map, false, 0, &arena, &a);
    assert_int_equal(a.kind, SMCM_ERROR);
    assert_int_equal(a.fault, SMCM_FAULT_NONE);
    smc_arena_free(&arena);
}

/* Uninitialised padding is a wildcard, not a value: the answer marks which bytes. */
static void pad_not_zeroed_marks_its_bytes_wild(void **state)
{
    (void)state;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smct_doc_t doc;
    smct_error_t e;
    const char *v = "[\"list\",[[\"i32\",1],[\"f64s\",[\"3ff0000000000000\"]]]]";
    assert_int_equal(smct_notation_parse(v, strlen(v), MSG, &arena, &doc, &e), SMCT_OK);
    smcm_answer_t a;
    smcm_encode(SMCM_BIT(SMCM_PAD_NOT_ZEROED), &doc, &arena, &a);
    assert_int_equal(a.kind, SMCM_BYTES);
    assert_int_equal(a.len, 24); /* spec §3.4: size at 8, padding at 9..15 */
    for (size_t i = 0; i < a.len; i++) {
        assert_int_equal(a.wild[i], i >= 9 && i <= 15);
        assert_int_equal(a.roles[i] == SMCM_ROLE_PAD, i >= 9 && i <= 15);
    }
    assert_int_equal(a.roles[0], SMCM_ROLE_TAG);
    assert_int_equal(a.roles[1], SMCM_ROLE_SIZE);
    assert_int_equal(a.roles[7], SMCM_ROLE_TAG);
    assert_int_equal(a.owner[8], 7);
    assert_int_equal(a.owner[20], 7);
    smc_arena_free(&arena);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: test_mutants VECTORS_DIR CORPUS_DIR\n");
        return 2;
    }
    g_vectors_dir = argv[1];
    g_corpus_dir = argv[2];
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(catalogue_ids_are_unique_well_formed_and_complete),
        cmocka_unit_test(catalogue_lists_parse_with_parts),
        cmocka_unit_test(no_bug_is_the_reference_on_every_vector),
        cmocka_unit_test(no_bug_is_the_reference_on_the_seed_corpus),
        cmocka_unit_test(each_bug_changes_its_example),
        cmocka_unit_test(no_depth_limit_decodes_past_128),
        cmocka_unit_test(alloc_before_size_check_fails_only_large),
        cmocka_unit_test(pad_not_zeroed_marks_its_bytes_wild),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
