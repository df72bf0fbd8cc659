/*
 * The golden vectors (vectors/sNN-*.json) as the cmocka suite's corpus, read with the judge's
 * loader (judge/vectors/vectors.h), so every test that runs "every vector" runs exactly what the
 * judge runs against a codec. The vectors are the only table of literal and derived vectors:
 * the rows of upstream tests (wire-format-notes.md §3) live in vectors/gen/cases/ with their
 * origins.
 */
#include "test_support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smct_buf.h"
#include "vectors.h"

#ifndef TS_VECTORS_DIR
#error "TS_VECTORS_DIR (the vectors directory) is set by tests/CMakeLists.txt"
#endif

static smcj_vectors_t golden;
static ts_vector_t *inputs;
const ts_vector_t *ts_vectors;
size_t ts_vector_count;

const char *ts_vectors_dir(void)
{
    const char *dir = getenv("SMC_VECTORS_DIR");
    return dir != NULL && dir[0] != '\0' ? dir : TS_VECTORS_DIR;
}

bool ts_golden_load(const char *dir, smcj_vectors_t *out)
{
    smct_buf_t problems;
    smct_buf_init(&problems);
    bool ok = smcj_vectors_load(out, dir, &problems);
    if (!ok) {
        print_error("the vectors in %s do not load (the judge would refuse them):\n%s", dir,
                    smct_buf_ok(&problems) ? smct_buf_cstr(&problems) : "(out of memory)\n");
        smcj_vectors_free(out);
    }
    smct_buf_free(&problems);
    return ok;
}

/* The message-entry inputs with a value: each valid vector's canonical bytes, then its
 * accepted encodings (spec/vectors.md V.2). */
static size_t collect(ts_vector_t *out)
{
    size_t n = 0;
    for (size_t i = 0; i < golden.count; i++) {
        const smcj_vector_t *v = &golden.v[i];
        if (!v->is_valid || v->entry != SMC_ENTRY_MESSAGE) {
            continue;
        }
        if (out != NULL) {
            out[n] = (ts_vector_t){v->id, v->value_text, v->canonical, v->canonical_len, TS_BOTH};
        }
        n++;
        for (size_t k = 0; k < v->n_accepted; k++, n++) {
            if (out != NULL) {
                out[n] = (ts_vector_t){v->id, v->value_text, v->accepted[k].bytes,
                                       v->accepted[k].len, TS_DECODE_ONLY};
            }
        }
    }
    return n;
}

int ts_golden_setup(void **state)
{
    (void)state;
    if (!ts_golden_load(ts_vectors_dir(), &golden)) {
        return -1;
    }
    size_t n = collect(NULL);
    inputs = calloc(n ? n : 1, sizeof *inputs);
    if (inputs == NULL) {
        smcj_vectors_free(&golden);
        return -1;
    }
    collect(inputs);
    ts_vectors = inputs;
    ts_vector_count = n;
    return n > 0 ? 0 : -1;
}

int ts_golden_teardown(void **state)
{
    (void)state;
    free(inputs);
    inputs = NULL;
    ts_vectors = NULL;
    ts_vector_count = 0;
    smcj_vectors_free(&golden);
    return 0;
}

size_t ts_run_vectors(const char *id_prefix)
{
    size_t ran = 0;
    for (size_t i = 0; i < ts_vector_count; i++) {
        const ts_vector_t *t = &ts_vectors[i];
        if (strncmp(t->id, id_prefix, strlen(id_prefix)) != 0) {
            continue;
        }
        if (t->direction == TS_BOTH) {
            ts_assert_canonical_bytes_at(t->notation, t->bytes, t->len, t->id, 0);
        } else {
            ts_assert_decodes_bytes_to_at(t->bytes, t->len, SMC_MODE_FLUTTER, t->notation, t->id,
                                          0);
        }
        ran++;
    }
    if (ran == 0) {
        fail_msg("no golden message vectors with prefix %s in %s", id_prefix, ts_vectors_dir());
    }
    return ran;
}
