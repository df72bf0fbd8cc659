/*
 * The complexity family file proved like a vector file (spec/vectors.md V.4, V.8): when the
 * trusted MANIFEST.json names it under `complexity`, the file must be there with that SHA-256;
 * a c15-complexity.json the manifest does not name is a modification too. Either problem makes
 * the set MODIFIED on every report's first line (manifest.c, results.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "complexity_family.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "input_file.h"
#include "model.h"
#include "sha256.h"
#include "smct_json.h"

static void problem(smcj_vectors_t *vs, char *text)
{
    size_t cap = vs->n_integrity;
    if (!text || !smcj_grow((void **)&vs->integrity, &cap, vs->n_integrity + 1, sizeof(char *))) {
        free(text);
        return;
    }
    vs->integrity[vs->n_integrity++] = text;
}

void smcj_cx_manifest_check(smcj_vectors_t *vs, const smct_json_t *manifest)
{
    const smct_json_t *cx = smct_json_get(manifest, "complexity");
    const smct_json_t *file = cx ? smct_json_get(cx, "file") : NULL;
    const smct_json_t *sha = cx ? smct_json_get(cx, "sha256") : NULL;
    const char *name = file && file->type == SMCT_JSON_STRING && !strchr(file->str.ptr, '/')
                           ? file->str.ptr
                           : "c15-complexity.json";
    char *path = smcj_asprintf("%s/%s", vs->dir, name);
    struct stat st;
    if (!path) {
        return;
    }
    if (!cx) {
        if (stat(path, &st) == 0) {
            problem(vs, smcj_asprintf("%s: not in MANIFEST.json", name));
        }
        free(path);
        return;
    }
    uint8_t *data = NULL;
    size_t len = 0;
    char err[512];
    if (smcj_read_input_file(path, 16u << 20, &data, &len, err, sizeof err) != SMCT_OK) {
        problem(vs, smcj_asprintf("%s: listed in MANIFEST.json but cannot be read", name));
    } else {
        char hex[SMCJ_SHA256_HEX];
        smcj_sha256_hex(data, len, hex);
        if (!sha || sha->type != SMCT_JSON_STRING || strcmp(sha->str.ptr, hex) != 0) {
            problem(vs, smcj_asprintf("%s: SHA-256 %s is not MANIFEST.json's", name, hex));
        }
    }
    free(data);
    free(path);
}
