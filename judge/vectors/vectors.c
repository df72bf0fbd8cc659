/*
 * The vector set: every sNN-*.json file of a directory, in name order, each checked against
 * the file shape of spec/vectors.md V.1 (its vectors are checked in vector_fields.c). A
 * malformed file stops the run (vectors.h): verdicts against expectations nobody wrote would
 * be worse than no verdicts.
 */
#define _POSIX_C_SOURCE 200809L
#include "vectors.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "input_file.h"
#include "json_keys.h"
#include "manifest.h"
#include "schema.h"
#include "sha256.h"
#include "smct_json.h"
#include "vector_fields.h"

bool smcj_section_matches(const char *section, const char *prefix)
{
    size_t n = strlen(prefix);
    return strncmp(section, prefix, n) == 0 && (section[n] == '\0' || section[n] == '.');
}

bool smcj_vector_has_feature(const smcj_vector_t *v, const char *f)
{
    for (size_t i = 0; i < v->n_features; i++) {
        if (strcmp(v->features[i], f) == 0) {
            return true;
        }
    }
    return false;
}

size_t smcj_vectors_find(const smcj_vectors_t *vs, const char *id)
{
    for (size_t i = 0; i < vs->count; i++) {
        if (strcmp(vs->v[i].id, id) == 0) {
            return i;
        }
    }
    return SIZE_MAX;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* V.1 `vectors_version`: digits, a dot, digits ("0.2"). */
static bool version_word(const smct_json_t *j)
{
    if (!j || j->type != SMCT_JSON_STRING || j->str.len == 0 || j->str.len > 15) {
        return false;
    }
    size_t dots = 0;
    for (size_t i = 0; i < j->str.len; i++) {
        char c = j->str.ptr[i];
        bool dot = c == '.' && i > 0 && i + 1 < j->str.len && j->str.ptr[i - 1] != '.';
        dots += dot;
        if (!dot && !(c >= '0' && c <= '9')) {
            return false;
        }
    }
    return dots == 1;
}

/* The release the run's vectors belong to (V.1 `vectors_version`), as every report shows it:
 * "0.2", or "0.1, 0.2" for a directory that mixes files of two releases (not refused: each
 * vector carries its own expectations, but the report must not hide it). A file written
 * before vectors 0.2 has no version: "unknown". */
static void note_version(smcj_vectors_t *vs, const smct_json_t *root)
{
    const smct_json_t *j = smct_json_get(root, "vectors_version");
    if (j && !version_word(j)) {
        return; /* vectors/schema.json refuses it (its pattern), naming the file */
    }
    const char *ver = j ? j->str.ptr : "unknown";
    size_t n = strlen(ver);
    for (const char *p = vs->version; p; p = strchr(p, ',') ? strchr(p, ',') + 2 : NULL) {
        if (strncmp(p, ver, n) == 0 && (p[n] == ',' || p[n] == '\0')) {
            return; /* listed already */
        }
    }
    char *joined = vs->version ? smcj_asprintf("%s, %s", vs->version, ver) : smcj_strdup(ver);
    if (joined) {
        free(vs->version);
        vs->version = joined;
    }
}

/* Where the schema's findings in one file go (schema.h): each becomes a loader problem
 * "file: id: field: what", and marks its vector, which then never runs. */
typedef struct file_check {
    smcj_loader_t *L;
    const smct_json_t *vectors; /* the file's `vectors` array, or NULL */
    uint8_t *bad;               /* per vector: the schema found a problem */
} file_check_t;

/* The vector a path starts in ("vectors", N, ...), or SIZE_MAX. */
static size_t vector_of(const file_check_t *f, const smcj_path_seg_t *path, size_t n)
{
    if (n >= 2 && path[0].key && path[0].key_len == 7 && memcmp(path[0].key, "vectors", 7) == 0 &&
        !path[1].key && f->vectors && path[1].index < f->vectors->array.count) {
        return path[1].index;
    }
    return SIZE_MAX;
}

/* How a problem names its vector: its id when that is a plain string, else its place. */
static void vector_name(smct_buf_t *b, const file_check_t *f, size_t vi)
{
    const smct_json_t *id = smct_json_get(&f->vectors->array.items[vi], "id");
    if (id && id->type == SMCT_JSON_STRING && id->str.len > 0 && id->str.len <= 100 &&
        !memchr(id->str.ptr, '\0', id->str.len) && smcj_text_is_plain(id->str.ptr)) {
        smct_buf_append(b, id->str.ptr, id->str.len);
    } else {
        smct_buf_printf(b, "vectors[%zu]", vi);
    }
}

static void on_schema_problem(void *ctx, const smcj_path_seg_t *path, size_t n, const char *msg)
{
    file_check_t *f = ctx;
    if (n == 0 && strcmp(msg, "lacks the field `vectors_version`") == 0) {
        return; /* a file written before vectors 0.2: its version is "unknown" (note_version) */
    }
    size_t vi = vector_of(f, path, n);
    size_t from = vi == SIZE_MAX ? 0 : 2;
    smct_buf_t who = {0}, field = {0};
    if (vi != SIZE_MAX) {
        f->bad[vi] = 1;
        vector_name(&who, f, vi);
    }
    smcj_path_text(&field, path, from, n);
    const char *saved = f->L->id;
    f->L->id = vi == SIZE_MAX ? NULL : smcj_buf_text(&who);
    if (field.len) {
        smcj_loader_problem(f->L, "`%s`: %s", smcj_buf_text(&field), msg);
    } else {
        smcj_loader_problem(f->L, "%s", msg);
    }
    f->L->id = saved;
    smct_buf_free(&who);
    smct_buf_free(&field);
}

/* V.4: a field the schema does not know, named once for the run as "error.profile" (the
 * vector's fields) or "(file) generator" (the file's). */
static void on_schema_unknown(void *ctx, const smcj_path_seg_t *path, size_t n)
{
    file_check_t *f = ctx;
    size_t vi = vector_of(f, path, n);
    size_t from = vi == SIZE_MAX ? 0 : 2;
    smct_buf_t name = {0};
    if (vi == SIZE_MAX) {
        smct_buf_puts(&name, "(file) ");
    }
    for (size_t i = from; i < n; i++) {
        if (path[i].key) {
            smct_buf_puts(&name, i > from ? "." : "");
            smcj_buf_excerpt(&name, path[i].key, path[i].key_len, 60);
        } else {
            smct_buf_puts(&name, "[]"); /* one name for the field in every item */
        }
    }
    smcj_loader_unknown_field(f->L, "", smcj_buf_text(&name), name.len);
    smct_buf_free(&name);
}

/* An excerpt of a key or id for a problem line: at most 60 bytes, printable ASCII, the rest
 * as '?' (the problem lines go to stderr as they are). */
static void plain(const smct_str_t *k, char *out, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; i < k->len && n + 1 < size && n < 60; i++) {
        unsigned char c = (unsigned char)k->ptr[i];
        out[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    out[n] = '\0';
}

/* V.1: no object of a vector file holds a key twice (json_keys.h: this judge reads the first,
 * Python the last). Named with the vector it is in; true if there is one. */
static bool doubled_key(smcj_loader_t *L, const smct_json_t *root)
{
    bool oom = false;
    const smct_str_t *dup = smcj_json_doubled_key(root, &oom);
    if (!dup) {
        return oom;
    }
    char key[64], id[64] = "";
    plain(dup, key, sizeof key);
    const smct_json_t *arr = smct_json_get(root, "vectors");
    for (size_t i = 0; arr && arr->type == SMCT_JSON_ARRAY && i < arr->array.count; i++) {
        if (smcj_json_doubled_key(&arr->array.items[i], &oom)) {
            const smct_json_t *v = smct_json_get(&arr->array.items[i], "id");
            if (v && v->type == SMCT_JSON_STRING) {
                plain(&v->str, id, sizeof id);
            }
            smcj_loader_problem(L,
                                "vector %zu%s%s%s: the key `%s` appears twice in one object "
                                "(V.1: no duplicate keys; readers differ on which one counts)",
                                i + 1, *id ? " (id `" : "", id, *id ? "`)" : "", key);
            return true;
        }
    }
    smcj_loader_problem(L,
                        "the key `%s` appears twice in one object (V.1: no duplicate keys; "
                        "readers differ on which one counts)",
                        key);
    return true;
}

/* One file: checked against vectors/schema.json (the header of V.1 and the shape of every
 * vector, V.2, V.3), then each vector the schema found no problem with is read for what the
 * schema cannot say (vector_fields.c). The file's text is freed once parsed, its JSON tree
 * when the file is read. */
static void load_file(smcj_vectors_t *vs, smcj_loader_t *L, const smcj_schema_t *schema,
                      const char *path, const char *base, bool hash)
{
    L->file = base;
    L->id = NULL;
    char err[512];
    size_t len;
    uint8_t *data;
    smct_status_t st =
        smcj_read_input_file(path, SMCJ_MAX_VECTOR_FILE, &data, &len, err, sizeof err);
    if (st == SMCT_ERR_NOMEM) {
        smcj_nomem();
        return;
    }
    if (st != SMCT_OK) {
        smcj_loader_problem(L, "%s", err);
        return;
    }
    if (hash) {
        char hex[SMCJ_SHA256_HEX];
        smcj_sha256_hex(data, len, hex); /* for MANIFEST.json (manifest.c) */
        vs->file_sha256[vs->n_files] = smcj_strdup(hex);
    }
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smct_json_t *root = NULL;
    smct_error_t e;
    smct_status_t parsed = smct_json_parse((const char *)data, len, NULL, &arena, &root, &e);
    free(data); /* the tree holds copies: the peak is the tree and the vectors, not the text */
    if (parsed == SMCT_ERR_NOMEM) {
        smcj_nomem();
    } else if (parsed != SMCT_OK) {
        smcj_loader_problem(L, "not JSON: %s at byte %zu", e.message ? e.message : "?", e.offset);
    } else if (doubled_key(L, root)) {
        /* refused as a whole: which of the two is meant cannot be known */
    } else {
        note_version(vs, root);
        const smct_json_t *arr = smct_json_get(root, "vectors");
        file_check_t f = {L, arr && arr->type == SMCT_JSON_ARRAY ? arr : NULL, NULL};
        f.bad = smcj_calloc(f.vectors && f.vectors->array.count ? f.vectors->array.count : 1, 1);
        smcj_schema_sink_t sink = {on_schema_problem, on_schema_unknown, &f};
        if (f.bad) {
            smcj_schema_check(schema, root, &sink);
        }
        for (size_t i = 0; f.bad && f.vectors && i < f.vectors->array.count; i++) {
            if (smcj_out_of_memory()) {
                break;
            }
            if (f.bad[i]) {
                smcj_vector_add_refused(vs, &f.vectors->array.items[i], base);
            } else {
                smcj_vector_load(vs, L, &f.vectors->array.items[i], base);
            }
        }
        free(f.bad);
    }
    smc_arena_free(&arena);
}

/* Indices of vectors, sorted by id (qsort has no context argument: a static one). */
static const smcj_vectors_t *g_sort_vs;
static int cmp_index_by_id(const void *pa, const void *pb)
{
    const smcj_vector_t *a = &g_sort_vs->v[*(const size_t *)pa];
    const smcj_vector_t *b = &g_sort_vs->v[*(const size_t *)pb];
    int d = strcmp(a->id, b->id);
    return d ? d
             : (*(const size_t *)pa > *(const size_t *)pb) -
                   (*(const size_t *)pa < *(const size_t *)pb);
}

/* V.2: ids are unique across all files. Found by sorting (n log n, whatever the files say),
 * each duplicate named with the file of its first occurrence. */
static void check_duplicates(smcj_vectors_t *vs, smcj_loader_t *L)
{
    size_t *idx = smcj_calloc(vs->count ? vs->count : 1, sizeof *idx);
    size_t n = 0;
    if (!idx) {
        return; /* out of memory (recorded) */
    }
    for (size_t i = 0; i < vs->count; i++) {
        if (vs->v[i].id) {
            idx[n++] = i;
        }
    }
    g_sort_vs = vs;
    smcj_sort(idx, n, sizeof *idx, cmp_index_by_id);
    for (size_t k = 1; k < n; k++) {
        smcj_vector_t *a = &vs->v[idx[k - 1]], *b = &vs->v[idx[k]];
        if (strcmp(a->id, b->id) == 0) {
            L->file = b->file ? b->file : "?";
            L->id = b->id;
            smcj_loader_problem(L,
                                "duplicate id (also in %s; ids are unique across all files, V.2)",
                                a->file ? a->file : "?");
            b->is_valid = b->is_reject = false;
        }
    }
    L->id = NULL;
    free(idx);
}

/* Files in name order, so vector order (and every report) is the same on every machine. */
bool smcj_vectors_load(smcj_vectors_t *vs, const char *dir, smct_buf_t *errors)
{
    memset(vs, 0, sizeof *vs);
    smc_arena_init_allocator(&vs->arena, NULL);
    vs->dir = smcj_strdup(dir);
    smcj_loader_t L = {errors, dir, NULL, 0, vs};
    if (!vs->dir) {
        return false; /* out of memory */
    }
    char err[512];
    smcj_schema_t *schema = smcj_schema_load(err, sizeof err);
    if (!schema) {
        if (!smcj_out_of_memory()) {
            smcj_loader_problem(&L, "%s", err); /* a judge built with a schema it cannot read */
        }
        return false;
    }
    DIR *d = opendir(dir);
    if (!d) {
        smcj_loader_problem(&L, "cannot open the vectors directory: %s", strerror(errno));
        smcj_schema_free(schema);
        return false;
    }
    struct dirent *de;
    char **names = NULL;
    size_t n = 0;
    while ((de = readdir(d)) != NULL) {
        if (fnmatch("s[0-9][0-9]-*.json", de->d_name, 0) == 0) {
            size_t cap = n;
            char *name = smcj_strdup(de->d_name);
            if (!name || !smcj_grow((void **)&names, &cap, n + 1, sizeof *names)) {
                free(name);
                closedir(d);
                smcj_free_strs(names, n);
                smcj_schema_free(schema);
                return false; /* out of memory */
            }
            names[n++] = name;
        }
    }
    closedir(d);
    if (n == 0) {
        smcj_loader_problem(&L, "no vector files (s*.json)");
        free(names);
        smcj_schema_free(schema);
        return false;
    }
    qsort(names, n, sizeof *names, cmp_str);
    vs->files = smcj_calloc(n, sizeof(char *));
    vs->file_sha256 = smcj_calloc(n, sizeof(char *));
    bool hash = smcj_manifest_is_known(dir); /* else no file hash is compared (manifest.h) */
    for (size_t i = 0; vs->files && vs->file_sha256 && i < n && !smcj_out_of_memory(); i++) {
        char *path = smcj_asprintf("%s/%s", dir, names[i]);
        if (path) {
            load_file(vs, &L, schema, path, names[i], hash);
            vs->files[vs->n_files++] = path;
        }
    }
    smcj_free_strs(names, n);
    smcj_schema_free(schema);
    if (smcj_out_of_memory()) {
        return false;
    }
    check_duplicates(vs, &L);
    if (L.n_errors == 0 && vs->count == 0) {
        L.file = dir;
        smcj_loader_problem(&L, "the vector files hold no vectors");
    }
    return L.n_errors == 0 && !smcj_out_of_memory();
}

void smcj_vector_free(smcj_vector_t *v)
{
    free(v->id);
    free(v->description);
    free(v->section);
    free(v->kind);
    free(v->host);
    free(v->host_value);
    free(v->host_alternatives);
    smcj_free_strs(v->host_types, v->n_host_types);
    free(v->file);
    smcj_free_strs(v->features, v->n_features);
    free(v->focus);
    free(v->value_text);
    free(v->canonical_hex);
    free(v->canonical);
    for (size_t k = 0; k < v->n_accepted; k++) {
        free(v->accepted[k].hex);
        free(v->accepted[k].bytes);
        free(v->accepted[k].why);
        free(v->accepted[k].strict_class);
    }
    free(v->accepted);
    free(v->hex);
    free(v->bytes);
    free(v->err_class);
    smcj_free_strs(v->requirements, v->n_requirements);
    for (size_t k = 0; k < v->n_order_alts; k++) {
        free(v->order_alts[k].cls);
        free(v->order_alts[k].order);
    }
    free(v->order_alts);
    for (size_t k = 0; k < v->n_alts; k++) {
        free(v->alts[k].behaviour);
        free(v->alts[k].who);
        free(v->alts[k].value_text);
        free(v->alts[k].cls);
    }
    free(v->alts);
}

void smcj_vectors_free(smcj_vectors_t *vs)
{
    for (size_t i = 0; i < vs->count; i++) {
        smcj_vector_free(&vs->v[i]);
    }
    for (size_t i = 0; i < vs->n_unknown_fields; i++) {
        free(vs->unknown_fields[i]);
    }
    free(vs->unknown_fields);
    free(vs->v);
    smcj_free_strs(vs->files, vs->n_files);
    smcj_free_strs(vs->file_sha256, vs->n_files);
    smcj_free_strs(vs->integrity, vs->n_integrity);
    free(vs->dir);
    free(vs->version);
    smc_arena_free(&vs->arena);
    memset(vs, 0, sizeof *vs);
}
