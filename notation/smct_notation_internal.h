/*
 * Helpers shared by the three files of the value notation (spec/notation.md): the value
 * reader (smct_notation_read.c), the value writer (smct_notation_write.c) and the method call
 * and envelope forms (smct_notation_forms.c). Internal to notation/; not part of its API.
 */
#ifndef SMCT_NOTATION_INTERNAL_H
#define SMCT_NOTATION_INTERNAL_H

#include <string.h>

#include "smct_notation.h"

/* A notation error (N.4) at `offset` of the JSON text. */
static inline smct_status_t smct_notation_bad(smct_error_t *err, size_t offset, const char *message)
{
    return smct_error_set(err, SMCT_ERR_NOTATION, offset, message);
}

static inline smct_status_t smct_notation_nomem(smct_error_t *err, size_t offset)
{
    return smct_error_set(err, SMCT_ERR_NOMEM, offset, "out of memory");
}

/*
 * Check that `arr` is an array of exactly `want` elements (N.3: "Arrays have exactly the
 * elements shown"). Too few: the offset of the closing bracket; too many: the first extra.
 */
static inline smct_status_t smct_notation_want_count(const smct_json_t *arr, size_t want,
                                                     const char *few, const char *many,
                                                     smct_error_t *err)
{
    if (arr->array.count < want) {
        return smct_notation_bad(err, arr->end - 1, few);
    }
    if (arr->array.count > want) {
        return smct_notation_bad(err, arr->array.items[want].offset, many);
    }
    return SMCT_OK;
}

/* N.1 ["strbytes", "H"] (a string that is not UTF-8) into `out`, in the arena. */
smct_status_t smct_notation_read_strbytes(const smct_json_t *j, smc_arena_t *arena,
                                          smc_bytes_t *out, smct_error_t *err);

/* `len` bytes of `src` copied into the arena (the tree must not refer to the JSON text). */
static inline void *smct_notation_arena_copy(smc_arena_t *arena, const void *src, size_t len)
{
    uint8_t *p = smc_arena_alloc(arena, len);
    if (p != NULL && len > 0) {
        memcpy(p, src, len);
    }
    return p;
}

/* The status a writer returns: `st`, or NOMEM when the buffer could not grow. */
static inline smct_status_t smct_notation_finish(const smct_buf_t *b, smct_status_t st,
                                                 smct_error_t *err)
{
    if (st == SMCT_OK && !smct_buf_ok(b)) {
        return smct_notation_nomem(err, 0);
    }
    if (st == SMCT_OK) {
        smct_error_set(err, SMCT_OK, 0, "ok");
    }
    return st;
}

#endif /* SMCT_NOTATION_INTERNAL_H */
