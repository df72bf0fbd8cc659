/*
 * vectors_fuzzer: any bytes as a vector file through the judge's loader (judge/vectors/vectors.h,
 * spec/vectors.md V.1, V.2), which decides what every runner is held to. Properties: the
 * loader ends (no crash, no read outside what it was given, no leak, all under ASan); it
 * succeeds exactly when it reports no problem, and a problem report is whole lines; a
 * loaded vector has an id, a section that begins its id, exactly one of value + canonical
 * (a valid vector), hex + error (a reject) or, for host_encode, a refused host value with no
 * bytes (spec §17), and bytes that are the half-length of their hex; the same file loads to
 * the same result twice.
 * Input: the file's bytes. They are written to s00-fuzz.json in a private temporary
 * directory, because the loader reads directories (its caller's only interface).
 */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_helpers.h"
#include "vectors.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[4096];
static char file[4200];

static void remove_dir(void)
{
    unlink(file);
    rmdir(dir);
}

static void make_dir(void)
{
    const char *tmp = getenv("TMPDIR");
    if (access("/dev/shm", W_OK) == 0) {
        tmp = "/dev/shm"; /* memory: the loader re-reads the file on every input */
    }
    snprintf(dir, sizeof dir, "%s/smc-vectors-fuzz.XXXXXX", tmp != NULL ? tmp : "/tmp");
    FUZZ_ASSERT(mkdtemp(dir) != NULL, "cannot create a temporary directory");
    snprintf(file, sizeof file, "%s/s00-fuzz.json", dir);
    atexit(remove_dir);
}

/* What a successful load promises about each vector (spec/vectors.md V.1, V.2). */
static void check_vector(const smcj_vector_t *v)
{
    FUZZ_ASSERT(v->id != NULL && v->section != NULL && v->kind != NULL,
                "vector without id/section/kind");
    /* V.2: the id is sNN.M-slug and the section is N.M (NN without its leading zero). */
    const char *id = v->id;
    FUZZ_ASSERTF(id[0] == 's' && id[1] >= '0' && id[1] <= '9' && id[2] >= '0' && id[2] <= '9' &&
                     id[3] == '.',
                 "vector id %s is not sNN.M-slug", id);
    char section[32];
    size_t minor = strspn(id + 4, "0123456789");
    snprintf(section, sizeof section, "%d.%.*s", (id[1] - '0') * 10 + (id[2] - '0'), (int)minor,
             id + 4);
    FUZZ_ASSERTF(minor > 0 && id[4 + minor] == '-' && strcmp(section, v->section) == 0,
                 "vector %s: section %s is not the one of its id", id, v->section);
    /* spec §17: a host value the encoder must refuse is the third form, with no bytes at all */
    bool refusal = v->is_host && v->host_refused;
    FUZZ_ASSERTF((int)v->is_valid + (int)v->is_reject + (int)refusal == 1,
                 "vector %s: valid %d, reject %d, host refusal %d", v->id, (int)v->is_valid,
                 (int)v->is_reject, (int)refusal);
    if (v->is_host) {
        FUZZ_ASSERTF(v->host != NULL && v->host_value != NULL && (!refusal || !v->host_decode),
                     "vector %s: host vector without its vocabulary and host value", v->id);
    }
    if (refusal) {
        FUZZ_ASSERTF(v->hex == NULL && v->canonical_hex == NULL,
                     "vector %s: a host refusal with bytes", v->id);
    } else if (v->is_valid) {
        FUZZ_ASSERTF(v->has_value && v->canonical_hex != NULL &&
                         strlen(v->canonical_hex) == 2 * v->canonical_len,
                     "vector %s: valid without value and canonical bytes", v->id);
        for (size_t i = 0; i < v->n_accepted; i++) {
            FUZZ_ASSERTF(v->accepted[i].hex != NULL, "vector %s: accepted form %zu without hex",
                         v->id, i);
        }
    } else {
        FUZZ_ASSERTF(v->hex != NULL && strlen(v->hex) == 2 * v->len,
                     "vector %s: reject without matching hex and bytes", v->id);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (dir[0] == '\0') {
        make_dir();
    }
    FILE *f = fopen(file, "wb");
    FUZZ_ASSERT(f != NULL, "cannot write the temporary vector file");
    FUZZ_ASSERT(size == 0 || fwrite(data, 1, size, f) == size,
                "cannot write the temporary vector file");
    FUZZ_ASSERT(fclose(f) == 0, "cannot write the temporary vector file");

    size_t counts[2];
    bool oks[2];
    for (int round = 0; round < 2; round++) {
        smcj_vectors_t vs;
        smct_buf_t errors;
        smct_buf_init(&errors);
        bool ok = smcj_vectors_load(&vs, dir, &errors);
        FUZZ_ASSERTF(ok == (errors.len == 0), "loader says %s with %zu bytes of problems",
                     ok ? "ok" : "failed", errors.len);
        if (!ok) {
            FUZZ_ASSERT(errors.data[errors.len - 1] == '\n', "problem report does not end a line");
        } else {
            FUZZ_ASSERT(vs.count > 0, "a successful load without vectors");
            for (size_t i = 0; i < vs.count; i++) {
                check_vector(&vs.v[i]);
            }
        }
        counts[round] = ok ? vs.count : 0;
        oks[round] = ok;
        smcj_vectors_free(&vs);
        smct_buf_free(&errors);
    }
    FUZZ_ASSERT(oks[0] == oks[1] && counts[0] == counts[1],
                "the same file loads differently twice");
    return 0;
}
