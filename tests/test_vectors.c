/*
 * Every golden vector (vectors/sNN-*.json, spec/vectors.md) run against the C reference, as
 * the judge sees it: the vectors are read by the judge's own loader (judge/vectors/vectors.h), so
 * their kinds, entry points, values, accepted encodings and modes are exactly the ones the
 * judge holds a codec to (runners/PROTOCOL.md P.5):
 *  - a valid vector's canonical bytes decode to its value in flutter and strict mode, also
 *    at the placement check's shift (spec §3.3), and its value encodes to them;
 *  - each accepted encoding decodes to the value in flutter mode and, in strict mode, fails
 *    with its `strict` class or decodes to the value;
 *  - a reject vector fails with its class at its offset in every listed mode (the reference
 *    follows the spec's order of checks, so none of `error.alternatives` applies to it), and
 *    a strict-only reject decodes to its value in flutter mode;
 *  - a host-type vector (spec §17) with bytes is the message vector they are; a refused host
 *    value has no bytes and is counted, its refusal is the judge's to test.
 * The vectors directory is the first argument (default: the one CMake names); the count is
 * printed, and a file the judge would refuse fails the test.
 */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smct_doc.h"
#include "smct_notation.h"
#include "vectors.h"

static const char *vectors_dir;

/* On a difference print both notations (and the first value difference of messages). */
static void assert_doc_equal(const smcj_vector_t *v, const smct_doc_t *got, const char *what)
{
    if (smct_doc_equal(&v->value, got)) {
        return;
    }
    if (v->entry == SMC_ENTRY_MESSAGE) {
        ts_assert_value_equal_at(v->value.value, got->value, v->id, 0);
    }
    smct_buf_t g;
    smct_buf_init(&g);
    smct_error_t err;
    if (smct_notation_write(&g, got, SMCT_NOTATION_COMPACT, &err) != SMCT_OK) {
        smct_buf_puts(&g, " (no notation)");
    }
    print_error("%s: %s gives another %s\n  expected: %s\n  actual:   %s\n", v->id, what,
                smct_entry_name(v->entry), v->value_text, smct_buf_cstr(&g));
    smct_buf_free(&g);
    fail_msg("%s: %s differs", v->id, what);
}

/* Decode `len` bytes placed `shift` bytes past an 8-aligned address; on success compare with
 * the vector's value when `compare` is set. */
static smc_status_t decode_at(const smcj_vector_t *v, const uint8_t *data, size_t len,
                              unsigned shift, bool strict, bool compare, const char *what,
                              smc_error_t *err)
{
    uint64_t *block = malloc(len + 16);
    assert_non_null(block);
    uint8_t *in = (uint8_t *)block + shift;
    if (len > 0) {
        memcpy(in, data, len);
    }
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smc_decode_opts_t opts = {strict ? SMC_MODE_STRICT : SMC_MODE_FLUTTER, 0};
    smct_doc_t got;
    smc_status_t st = smct_doc_decode(in, len, v->entry, &opts, &arena, &got, err);
    if (st == SMC_OK && compare) {
        assert_doc_equal(v, &got, what);
    }
    smc_arena_free(&arena);
    free(block);
    return st;
}

static void decodes_to_value(const smcj_vector_t *v, const uint8_t *data, size_t len,
                             unsigned shift, bool strict, const char *what)
{
    smc_error_t err = {SMC_OK, 0};
    smc_status_t st = decode_at(v, data, len, shift, strict, true, what, &err);
    if (st != SMC_OK) {
        fail_msg("%s: %s (%s mode, shift %u) fails: %s at %zu", v->id, what,
                 strict ? "strict" : "flutter", shift, smc_status_name(st), err.offset);
    }
}

/* `check_offset` false: the class alone (accepted encodings name a class, no offset). */
static void fails_with(const smcj_vector_t *v, const uint8_t *data, size_t len, bool strict,
                       const char *cls, bool check_offset, uint64_t offset, const char *what)
{
    smc_error_t err = {SMC_OK, 0};
    smc_status_t st = decode_at(v, data, len, 0, strict, false, what, &err);
    if (st == SMC_OK || strcmp(smc_status_class(st), cls) != 0 ||
        (check_offset && err.offset != offset)) {
        fail_msg("%s: %s (%s mode): expected %s at %lld, got %s at %zu", v->id, what,
                 strict ? "strict" : "flutter", cls, check_offset ? (long long)offset : -1LL,
                 st == SMC_OK ? "success" : smc_status_class(st), err.offset);
    }
}

static void encodes_to_canonical(const smcj_vector_t *v)
{
    smct_buf_t out;
    smct_buf_init(&out);
    smc_error_t err = {SMC_OK, 0};
    smc_status_t st = smct_doc_encode(&v->value, &out, &err);
    const uint8_t *got = (const uint8_t *)out.data;
    if (st != SMC_OK || out.len != v->canonical_len ||
        (out.len != 0 && memcmp(got, v->canonical, out.len) != 0)) {
        print_error("%s: encode gives %s (%s)\n", v->id, ts_to_hex(got, st == SMC_OK ? out.len : 0),
                    smc_status_name(st));
        print_error("%s: canonical is %s\n", v->id, v->canonical_hex);
        fail_msg("%s: encode differs", v->id);
    }
    smct_buf_free(&out);
}

static void run_valid(const smcj_vector_t *v)
{
    decodes_to_value(v, v->canonical, v->canonical_len, 0, false, "canonical");
    decodes_to_value(v, v->canonical, v->canonical_len, 0, true, "canonical");
    decodes_to_value(v, v->canonical, v->canonical_len, v->shift, false, "canonical (placement)");
    encodes_to_canonical(v);
    for (size_t k = 0; k < v->n_accepted; k++) {
        const smcj_accepted_t *a = &v->accepted[k];
        decodes_to_value(v, a->bytes, a->len, 0, false, "accepted encoding");
        if (a->strict_class != NULL) {
            fails_with(v, a->bytes, a->len, true, a->strict_class, false, 0, "accepted encoding");
        } else {
            decodes_to_value(v, a->bytes, a->len, 0, true, "accepted encoding");
        }
    }
}

static void run_reject(const smcj_vector_t *v)
{
    if (v->rejects_flutter) {
        fails_with(v, v->bytes, v->len, false, v->err_class, true, v->err_offset, "input");
    }
    if (v->rejects_strict) {
        fails_with(v, v->bytes, v->len, true, v->err_class, true, v->err_offset, "input");
    }
    if (!v->rejects_flutter && v->has_value) {
        decodes_to_value(v, v->bytes, v->len, 0, false, "strict-only reject");
    }
}

static void vectors_every_golden_vector_holds_for_the_reference(void **state)
{
    (void)state;
    smcj_vectors_t vs;
    if (!ts_golden_load(vectors_dir, &vs)) {
        fail_msg("the vectors in %s do not load", vectors_dir);
    }
    size_t valid = 0, reject = 0, refused = 0;
    for (size_t i = 0; i < vs.count; i++) {
        const smcj_vector_t *v = &vs.v[i];
        if (v->is_valid) {
            run_valid(v); /* spec §17 host vectors with bytes too: a message vector */
            valid++;
        }
        if (v->is_reject) {
            run_reject(v);
            reject++;
        }
        if (v->host_refused) {
            refused++; /* a host value refused (spec §17): no bytes; the judge's to test */
        }
    }
    print_message("%zu vectors (%zu valid, %zu reject, %zu refused host values) of %zu files "
                  "checked, none skipped\n",
                  vs.count, valid, reject, refused, vs.n_files);
    assert_int_equal(valid + reject + refused, vs.count);
    assert_true(vs.count > 0);
    smcj_vectors_free(&vs);
}

int main(int argc, char **argv)
{
    vectors_dir = argc > 1 ? argv[1] : ts_vectors_dir();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(vectors_every_golden_vector_holds_for_the_reference),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
