/**
 * @file vector_fields.h
 * @brief One vector object (spec/vectors.md V.2, V.3) to an smcj_vector_t, with its shape
 *        problems collected for the loader's report; the loader's shared helpers.
 */
#ifndef SMCJ_VECTOR_FIELDS_H
#define SMCJ_VECTOR_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "alloc.h"
#include "escape.h"
#include "model.h"
#include "smct_json.h"

/** Where problems go, and where the loader is (for the "file: id: what" lines). */
typedef struct smcj_loader {
    smct_buf_t *errors; /* one line per problem */
    const char *file;   /* base name of the file being read */
    const char *id;     /* id of the vector being read, or NULL */
    size_t n_errors;
    smcj_vectors_t *vs; /* where unknown field names are collected */
} smcj_loader_t;

/** Append "file: id: <message>" to L->errors and count it. */
void smcj_loader_problem(smcj_loader_t *L, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/** Distinct unknown field names kept for the warning (then "(and more)"). */
#define SMCJ_MAX_UNKNOWN_FIELDS 100u

/** V.4: a field this judge does not know (`where` + key), named once for the run. */
void smcj_loader_unknown_field(smcj_loader_t *L, const char *where, const char *key, size_t len);

/** An array of requirement ids ("R5.3-2"); NULL after a problem. */
char **smcj_loader_id_list(smcj_loader_t *L, const smct_json_t *arr, const char *what, size_t *n);

/** True if `cls` is a decoder error class (spec/errors.md §14.1); NULL is not. */
bool smcj_is_error_class(const char *cls);

/** JSON string helpers: a copy, "is a string", "holds no NUL". */
char *smcj_json_strdup(const smct_json_t *j);
bool smcj_json_is_string(const smct_json_t *j);
bool smcj_json_no_nul(const smct_json_t *j);

/**
 * Check vector object `jv` of file `file_base` and append it to `vs` (a vector with problems
 * is appended too, marked neither valid nor reject, so a later duplicate id is still found).
 */
void smcj_vector_load(smcj_vectors_t *vs, smcj_loader_t *L, const smct_json_t *jv,
                      const char *file_base);

/** A vector the schema refused (schema.h): kept with its id and file only, so a duplicate id
 *  is still found, and never run. */
void smcj_vector_add_refused(smcj_vectors_t *vs, const smct_json_t *jv, const char *file_base);

/* vector_decisions.c: what a vector records beyond its bytes and value. */

/** V.2 `requirements` and `by_mode` (tiers per decoder mode). */
void smcj_vector_load_requirements(smcj_loader_t *L, smcj_vector_t *v, const smct_json_t *jv);

/** V.2 `error.alternatives`: [{"class", "offset", "order", "modes"?}]. */
void smcj_vector_load_order_alts(smcj_loader_t *L, smcj_vector_t *v, const smct_json_t *arr);

/** V.2 `notes.alternatives`: behaviour, who and the optional machine-readable outcome. */
void smcj_vector_load_notes(smcj_vectors_t *vs, smcj_loader_t *L, smcj_vector_t *v,
                            const smct_json_t *notes);

/** Read `host`, `host_value`, `map_order` and, for a refusal, `error` of a host vector
 *  (spec §17, host_vector_load.c). */
void smcj_host_vector_load(smcj_loader_t *L, const smct_json_t *jv, smcj_vector_t *v);

#endif /* SMCJ_VECTOR_FIELDS_H */
