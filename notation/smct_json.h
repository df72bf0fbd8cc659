/**
 * @file smct_json.h
 * @brief A small, robust JSON (RFC 8259) reader into an arena tree, and JSON output helpers.
 *
 * Why not cJSON: notation strings may contain U+0000 (spec/notation.md, `str`), which a
 * NUL-terminated string API cannot carry, and the judge parses runner output, which can be
 * anything, so the reader must be safe on every input.
 *
 * Reader guarantees, for every input (ptr, len):
 *  - never reads outside [text, text+len) (the text need not be NUL-terminated);
 *  - never recurses: nesting is tracked on an explicit heap stack, capped by
 *    smct_json_opts_t.max_depth (default SMCT_JSON_DEFAULT_MAX_DEPTH);
 *  - accepts exactly RFC 8259 JSON texts: one value, surrounded by optional whitespace
 *    (space, tab, LF, CR); no BOM, no comments, no trailing commas, no NaN/Infinity,
 *    no leading zeros, no control characters inside strings;
 *  - rejects ill-formed UTF-8 anywhere in the text (overlong forms, encoded surrogates,
 *    code points above U+10FFFF) and lone surrogate escapes (`\ud800` without a following
 *    `\udc00`..`\udfff`, or a low surrogate on its own);
 *  - reports the first error with a byte offset and a static message;
 *  - reads the text twice: first to check it (an invalid text costs memory for its depth
 *    only, and no arena memory), then to build the tree, each array and object allocated at
 *    its exact size: 40 bytes a value, 64 a member, 8 a container, besides the texts.
 *
 * Tree: every node, unescaped string and number text is allocated in the caller's
 * smc_arena_t (the empty text and one-digit texts are static strings), so the tree does not
 * refer to the input text and is released with the arena.
 * Objects keep their members in text order; duplicate keys are kept (lookups find the first).
 */
#ifndef SMCT_JSON_H
#define SMCT_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smc/smc_value.h"
#include "smct_buf.h"
#include "smct_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Default nesting limit (arrays + objects) of smct_json_parse. */
#define SMCT_JSON_DEFAULT_MAX_DEPTH 10000u

typedef enum smct_json_type {
    SMCT_JSON_NULL = 0,
    SMCT_JSON_FALSE = 1,
    SMCT_JSON_TRUE = 2,
    SMCT_JSON_NUMBER = 3,
    SMCT_JSON_STRING = 4,
    SMCT_JSON_ARRAY = 5,
    SMCT_JSON_OBJECT = 6
} smct_json_type_t;

/**
 * Text owned by an arena (or a static string): `len` bytes at `ptr`, which may contain NUL,
 * followed by a terminating NUL at ptr[len] (so ptr can be printed when it has no embedded NUL).
 */
typedef struct smct_str {
    const char *ptr;
    size_t len;
} smct_str_t;

typedef struct smct_json smct_json_t;
typedef struct smct_json_member smct_json_member_t;

/** One node of a parsed JSON text. */
struct smct_json {
    smct_json_type_t type;
    size_t offset; /**< Byte offset of the value's first character in the text. */
    size_t end;    /**< Byte offset one past its last character (after `]`, `}`, `"`, ...). */
    union {
        smct_str_t str;    /**< STRING: unescaped UTF-8 (may contain U+0000). */
        smct_str_t number; /**< NUMBER: the number's text exactly as written, e.g. "-12.5e3". */
        struct {
            smct_json_t *items; /**< `count` consecutive nodes. */
            size_t count;
        } array; /**< ARRAY */
        struct {
            smct_json_member_t *members; /**< `count` consecutive members, in text order. */
            size_t count;
        } object; /**< OBJECT */
    };
};

/** One member of an object: key (unescaped) and value. */
struct smct_json_member {
    smct_str_t key;
    size_t key_offset; /**< Offset of the key's opening quote in the text. */
    smct_json_t value;
};

/** Parser options. A NULL pointer or a zero field means the default. */
typedef struct smct_json_opts {
    uint32_t max_depth; /**< Arrays/objects open at once; 0 → SMCT_JSON_DEFAULT_MAX_DEPTH. */
} smct_json_opts_t;

/**
 * Parse one complete JSON text.
 *
 * @param text  the text; only [text, text+len) is read. May be NULL if len is 0.
 * @param opts  NULL for defaults.
 * @param arena receives the tree. On failure some arena memory may stay allocated (release
 *              it with smc_arena_reset/free as usual).
 * @param out   the root on success, NULL on failure.
 * @param err   optional; status, offset and message of the first error.
 * @return SMCT_OK; SMCT_ERR_SYNTAX (not JSON, bad UTF-8, lone surrogate); SMCT_ERR_DEPTH;
 *         SMCT_ERR_NOMEM; SMCT_ERR_USAGE (NULL arena/out).
 */
smct_status_t smct_json_parse(const char *text, size_t len, const smct_json_opts_t *opts,
                              smc_arena_t *arena, smct_json_t **out, smct_error_t *err);

/** "null", "false", "true", "number", "string", "array", "object"; "?" otherwise. */
const char *smct_json_type_name(smct_json_type_t type);

/* ---- lookups (all accept NULL and wrong types, and then return NULL/false) ---- */

/** First member of object `obj` whose key is exactly the NUL-terminated `key`; NULL if none. */
const smct_json_t *smct_json_get(const smct_json_t *obj, const char *key);

/** As smct_json_get, with a key of `key_len` bytes (may contain NUL). */
const smct_json_t *smct_json_get_n(const smct_json_t *obj, const char *key, size_t key_len);

/** Element `index` of array `arr`; NULL if not an array or out of range. */
const smct_json_t *smct_json_at(const smct_json_t *arr, size_t index);

/** Element/member count of an array/object; 0 for anything else. */
size_t smct_json_count(const smct_json_t *v);

/** True if `v` is a string equal (byte for byte) to the NUL-terminated `s`. */
bool smct_json_is_str(const smct_json_t *v, const char *s);

/** True if `v` is a number written as an integer: no fraction, no exponent ("-0" counts). */
bool smct_json_is_integer(const smct_json_t *v);

/** Exact integer readers: true only if `v` is an integer number (as above) within range. */
bool smct_json_get_i32(const smct_json_t *v, int32_t *out);
bool smct_json_get_i64(const smct_json_t *v, int64_t *out);
bool smct_json_get_u64(const smct_json_t *v, uint64_t *out);

/**
 * Structural equality of two JSON trees: same types, arrays element by element, objects
 * member by member in order (keys and values), strings byte for byte, numbers by their
 * text (so 1 and 1.0 differ). Iterative. NULL equals only NULL.
 */
bool smct_json_equal(const smct_json_t *a, const smct_json_t *b);

/* ---- output ---- */

/**
 * Append `s[0..len)` as a JSON string with quotes. Escapes `"`, `\` and control characters
 * (U+0000..U+001F as \b \f \n \r \t or \u00XX, so an embedded NUL becomes \u0000); copies
 * other UTF-8 as it is. An ill-formed UTF-8 sequence (which JSON cannot carry) is written as
 * \ufffd per maximal ill-formed subsequence, so the output is always valid JSON; callers
 * that must not alter text check UTF-8 first.
 */
void smct_json_write_string(smct_buf_t *b, const void *s, size_t len);

/** Append a NUL-terminated C string as a JSON string (see smct_json_write_string); NULL is
 *  written as JSON null. */
void smct_json_write_cstr(smct_buf_t *b, const char *s);

/** Append a parsed JSON tree in compact form (no spaces), iteratively. */
void smct_json_write(smct_buf_t *b, const smct_json_t *v);

#ifdef __cplusplus
}
#endif

#endif /* SMCT_JSON_H */
