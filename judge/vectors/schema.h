/**
 * @file schema.h
 * @brief Vector files validated against vectors/schema.json, which is compiled into the judge
 *        (the JSON Schema 2020-12 keywords that schema uses; anything else is refused when
 *        the schema is loaded, so a schema change can never be half understood).
 *
 * One exception to the schema, on purpose: a field an object does not know
 * (`additionalProperties: false`) is a warning, never an error (spec/vectors.md V.4: a newer
 * vector file must still load in an older judge). An unknown *value* of a known field (a
 * feature word, an error class, a tier, a kind) is an error: it would silently change what is
 * checked (an unknown feature word made a vector n/a, so the gate passed).
 */
#ifndef SMCJ_SCHEMA_H
#define SMCJ_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

#include "smct_json.h"

/** The text of vectors/schema.json, as built (generated/schema_text.c). */
extern const unsigned char smcj_schema_text[];
extern const size_t smcj_schema_text_len;

/** One step of the path to a value: an object member's key, or an array index. */
typedef struct smcj_path_seg {
    const char *key; /* NULL: an array index */
    size_t key_len;
    size_t index;
} smcj_path_seg_t;

/** Where the validator reports (`ctx` is passed back). */
typedef struct smcj_schema_sink {
    /** A violation at the value `path[0..n)`; `message` says what is wrong with it. */
    void (*problem)(void *ctx, const smcj_path_seg_t *path, size_t n, const char *message);
    /** A field the schema does not know (additionalProperties: false) at `path[0..n)`, the
     *  last segment being the field. */
    void (*unknown)(void *ctx, const smcj_path_seg_t *path, size_t n);
    void *ctx;
} smcj_schema_sink_t;

typedef struct smcj_schema smcj_schema_t;

/** Parse and compile the built-in schema; NULL with a message (a judge built wrongly) or
 *  when out of memory (recorded). */
smcj_schema_t *smcj_schema_load(char *err, size_t err_size);

/** Parse and compile schema `text`; `name` (a static string: its file,
 * "runners/protocol.schema.json") is what messages about it and about values it refuses name. */
smcj_schema_t *smcj_schema_compile(const char *text, size_t len, const char *name, char *err,
                                   size_t err_size);

void smcj_schema_free(smcj_schema_t *s);

/** Validate `doc` (a whole vector file); returns the number of violations reported. */
size_t smcj_schema_check(const smcj_schema_t *s, const smct_json_t *doc,
                         const smcj_schema_sink_t *sink);

/** Validate `doc` against the schema's `$defs/<def>` (runners/protocol.schema.json holds one
 *  definition per kind of line); returns the number of violations reported. */
size_t smcj_schema_check_def(const smcj_schema_t *s, const smct_json_t *doc, const char *def,
                             const smcj_schema_sink_t *sink);

/** "vectors[12].accepted[0].strict" for path[from..n) (keys made safe to print). */
void smcj_path_text(smct_buf_t *b, const smcj_path_seg_t *path, size_t from, size_t n);

#endif /* SMCJ_SCHEMA_H */
