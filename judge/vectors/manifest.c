/*
 * MANIFEST.json checked (manifest.h). The manifest is trusted only when its own SHA-256 is the
 * one of the release this judge was built with; then each file's SHA-256 must be the
 * manifest's, no listed file may be missing and no other sNN-*.json may be present. Anything
 * else is a modified or partial set: every report says so on its first line, and the gate
 * fails unless --allow-modified-vectors (results.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "manifest.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "complexity_family.h"
#include "input_file.h"
#include "sha256.h"
#include "smct_json.h"

#define SMCJ_MAX_MANIFEST_FILE ((size_t)4u << 20)

static void problem(smcj_vectors_t *vs, char *text)
{
    size_t cap = vs->n_integrity;
    if (!text || !smcj_grow((void **)&vs->integrity, &cap, vs->n_integrity + 1, sizeof(char *))) {
        free(text);
        return; /* out of memory: recorded */
    }
    vs->integrity[vs->n_integrity++] = text;
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* The loaded file named `name`, or SIZE_MAX. */
static size_t loaded(const smcj_vectors_t *vs, const char *name, size_t len)
{
    for (size_t i = 0; i < vs->n_files; i++) {
        const char *b = base_name(vs->files[i]);
        if (strlen(b) == len && memcmp(b, name, len) == 0) {
            return i;
        }
    }
    return SIZE_MAX;
}

static void check_files(smcj_vectors_t *vs, const smct_json_t *files)
{
    bool *listed = smcj_calloc(vs->n_files ? vs->n_files : 1, sizeof(bool));
    if (!listed) {
        return;
    }
    for (size_t k = 0; k < files->object.count; k++) {
        const smct_json_member_t *m = &files->object.members[k];
        const smct_json_t *sha = smct_json_get(&m->value, "sha256");
        size_t i = loaded(vs, m->key.ptr, m->key.len);
        if (i == SIZE_MAX) {
            problem(vs, smcj_asprintf("%s: listed in MANIFEST.json, missing", m->key.ptr));
            continue;
        }
        listed[i] = true;
        if (!sha || sha->type != SMCT_JSON_STRING || !vs->file_sha256[i] ||
            strcmp(sha->str.ptr, vs->file_sha256[i]) != 0) {
            problem(vs, smcj_asprintf("%s: SHA-256 %s, MANIFEST.json says %s", m->key.ptr,
                                      smcj_or_empty(vs->file_sha256[i]),
                                      sha && sha->type == SMCT_JSON_STRING ? sha->str.ptr : "?"));
        }
    }
    for (size_t i = 0; i < vs->n_files; i++) {
        if (!listed[i]) {
            problem(vs, smcj_asprintf("%s: not in MANIFEST.json", base_name(vs->files[i])));
        }
    }
    free(listed);
}

bool smcj_manifest_is_known(const char *dir)
{
    char *path = smcj_asprintf("%s/MANIFEST.json", dir);
    uint8_t *data = NULL;
    size_t len = 0;
    char err[512];
    bool known = false;
    if (path && smcj_read_input_file(path, SMCJ_MAX_MANIFEST_FILE, &data, &len, err, sizeof err) ==
                    SMCT_OK) {
        char hex[SMCJ_SHA256_HEX];
        smcj_sha256_hex(data, len, hex);
        known = strcmp(hex, smcj_known_manifest_sha256) == 0;
        free(data);
    }
    free(path);
    return known;
}

void smcj_manifest_verify(smcj_vectors_t *vs)
{
    char *path = smcj_asprintf("%s/MANIFEST.json", vs->dir);
    if (!path) {
        return;
    }
    char err[512];
    uint8_t *data;
    size_t len;
    smct_status_t st =
        smcj_read_input_file(path, SMCJ_MAX_MANIFEST_FILE, &data, &len, err, sizeof err);
    free(path);
    if (st == SMCT_ERR_NOMEM) {
        smcj_nomem();
        return;
    }
    if (st != SMCT_OK) {
        problem(vs, smcj_asprintf("no MANIFEST.json to prove the files (%s)", err));
        return;
    }
    char hex[SMCJ_SHA256_HEX];
    smcj_sha256_hex(data, len, hex);
    if (strcmp(hex, smcj_known_manifest_sha256) != 0) {
        /* an edited manifest proves nothing: its file hashes are not compared */
        problem(vs, smcj_asprintf("MANIFEST.json (SHA-256 %s) is not the one of vectors %s, "
                                  "which this judge was built with",
                                  hex, smcj_known_vectors_version));
        free(data);
        return;
    }
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smct_json_t *root = NULL;
    smct_error_t e;
    st = smct_json_parse((const char *)data, len, NULL, &arena, &root, &e);
    free(data);
    const smct_json_t *files = st == SMCT_OK ? smct_json_get(root, "files") : NULL;
    if (st == SMCT_ERR_NOMEM) {
        smcj_nomem();
    } else if (!files || files->type != SMCT_JSON_OBJECT) {
        problem(vs, smcj_asprintf("MANIFEST.json: no `files` object"));
    } else {
        check_files(vs, files);
        smcj_cx_manifest_check(vs, root); /* spec/vectors.md V.8 */
    }
    smc_arena_free(&arena);
}
