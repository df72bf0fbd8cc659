/*
 * Value notation writer (spec/notation.md N.1): an smc_value_t tree to its canonical text, or
 * indented for people (SMCT_NOTATION_PRETTY). Like the reader it never recurses, and it holds
 * one frame per open container (a list, map or custom value whose values are being written),
 * so its memory is proportional to the nesting depth, not to the number of values: a list of
 * a million values costs one frame. With a draining buffer (smct_buf_set_drain) the text
 * streams out as it is written.
 */
#include <stdlib.h>
#include <string.h>

#include "smct_hex.h"
#include "smct_notation_internal.h"
#include "smct_utf8.h"

typedef struct frame {
    const smc_value_t *v; /* the container */
    size_t next;          /* values of it started so far (a map has 2 * count) */
    size_t depth;         /* its nesting level */
} frame_t;

typedef struct writer {
    smct_buf_t *b;
    bool pretty;
    frame_t *stack;
    size_t n;
    size_t cap;
    smct_error_t *err;
} writer_t;

static smct_status_t no_notation(writer_t *w, const char *message)
{
    return smct_error_set(w->err, SMCT_ERR_NO_NOTATION, 0, message);
}

static bool push_frame(writer_t *w, const smc_value_t *v, size_t depth)
{
    if (w->n == w->cap) {
        size_t cap = w->cap < 64 ? 64 : w->cap * 2;
        if (cap > SIZE_MAX / sizeof *w->stack) {
            return false;
        }
        frame_t *p = realloc(w->stack, cap * sizeof *p);
        if (p == NULL) {
            return false;
        }
        w->stack = p;
        w->cap = cap;
    }
    w->stack[w->n++] = (frame_t){v, 0, depth};
    return true;
}

static const char *sep(const writer_t *w)
{
    return w->pretty ? ", " : ",";
}

static void put_head(writer_t *w, const char *word)
{
    smct_buf_puts(w->b, "[\"");
    smct_buf_puts(w->b, word);
    smct_buf_putc(w->b, '"');
}

static void put_hex_bits(smct_buf_t *b, uint64_t bits, int digits)
{
    static const char hex[] = "0123456789abcdef";
    char s[18];
    s[0] = '"';
    for (int i = 0; i < digits; i++) {
        s[1 + i] = hex[(bits >> (4 * (digits - 1 - i))) & 0x0f];
    }
    s[digits + 1] = '"';
    smct_buf_append(b, s, (size_t)digits + 2);
}

static void put_typed_list(writer_t *w, const smc_value_t *v)
{
    put_head(w, smc_type_name(v->type));
    smct_buf_puts(w->b, sep(w));
    smct_buf_putc(w->b, '[');
    for (size_t i = 0; i < v->array.count; i++) {
        if (i > 0) {
            smct_buf_puts(w->b, sep(w));
        }
        if (v->type == SMC_TYPE_I32S) {
            smct_buf_put_i64(w->b, smc_i32s_at(&v->array, i));
        } else if (v->type == SMC_TYPE_I64S) {
            smct_buf_putc(w->b, '"');
            smct_buf_put_i64(w->b, smc_i64s_at(&v->array, i));
            smct_buf_putc(w->b, '"');
        } else if (v->type == SMC_TYPE_F64S) {
            put_hex_bits(w->b, smc_f64s_bits_at(&v->array, i), 16);
        } else {
            put_hex_bits(w->b, smc_f32s_bits_at(&v->array, i), 8);
        }
    }
    smct_buf_puts(w->b, "]]");
}

/* Pretty indentation stops growing here, so deep values stay linear in size. */
#define PRETTY_MAX_INDENT 32u

static void put_newline(writer_t *w, size_t depth)
{
    smct_buf_putc(w->b, '\n');
    for (size_t i = 0; i < depth && i < PRETTY_MAX_INDENT; i++) {
        smct_buf_puts(w->b, "  ");
    }
}

/* A list's or map's head now; a frame for its values (write_step), so deep values never
 * recurse. */
static void put_list_or_map(writer_t *w, const smc_value_t *v, size_t depth)
{
    smct_buf_t *b = w->b;
    bool is_map = v->type == SMC_TYPE_MAP;
    size_t count = is_map ? v->map.count : v->list.count;
    put_head(w, is_map ? "map" : "list");
    smct_buf_puts(b, sep(w));
    smct_buf_putc(b, '[');
    if (count == 0) {
        smct_buf_puts(b, "]]");
    } else if (!push_frame(w, v, depth)) {
        b->failed = true; /* the stack could not grow: report NOMEM like the buffer itself */
    }
}

/* Write one value: scalars entirely; containers their head, with a frame for their values. */
static smct_status_t write_one(writer_t *w, const smc_value_t *v, size_t depth)
{
    smct_buf_t *b = w->b;
    if (v == NULL) {
        return no_notation(w, "missing value (NULL)");
    }
    switch (v->type) {
    case SMC_TYPE_NULL:
        smct_buf_puts(b, "[\"null\"]");
        return SMCT_OK;
    case SMC_TYPE_BOOL:
        put_head(w, "bool");
        smct_buf_puts(b, sep(w));
        smct_buf_puts(b, v->boolean ? "true]" : "false]");
        return SMCT_OK;
    case SMC_TYPE_I32:
        put_head(w, "i32");
        smct_buf_puts(b, sep(w));
        smct_buf_put_i64(b, v->i32);
        smct_buf_putc(b, ']');
        return SMCT_OK;
    case SMC_TYPE_I64:
        put_head(w, "i64");
        smct_buf_puts(b, sep(w));
        smct_buf_putc(b, '"');
        smct_buf_put_i64(b, v->i64);
        smct_buf_puts(b, "\"]");
        return SMCT_OK;
    case SMC_TYPE_F64:
        put_head(w, "f64");
        smct_buf_puts(b, sep(w));
        put_hex_bits(b, v->f64_bits, 16);
        smct_buf_putc(b, ']');
        return SMCT_OK;
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_STR:
        if (!smct_utf8_valid(v->bytes.ptr, v->bytes.len, NULL)) {
            if (v->type == SMC_TYPE_LARGEINT) {
                return no_notation(w, "largeInt text is not valid UTF-8 and has no notation");
            }
            put_head(w, "strbytes"); /* N.1: a string kept as raw bytes */
            smct_buf_puts(b, sep(w));
            smct_buf_putc(b, '"');
            smct_buf_put_hex(b, v->bytes.ptr, v->bytes.len);
            smct_buf_puts(b, "\"]");
            return SMCT_OK;
        }
        put_head(w, v->type == SMC_TYPE_STR ? "str" : "largeint");
        smct_buf_puts(b, sep(w));
        smct_json_write_string(b, v->bytes.ptr, v->bytes.len);
        smct_buf_putc(b, ']');
        return SMCT_OK;
    case SMC_TYPE_U8S:
        put_head(w, "u8s");
        smct_buf_puts(b, sep(w));
        smct_buf_putc(b, '"');
        smct_buf_put_hex(b, v->bytes.ptr, v->bytes.len);
        smct_buf_puts(b, "\"]");
        return SMCT_OK;
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S:
        put_typed_list(w, v);
        return SMCT_OK;
    case SMC_TYPE_LIST:
    case SMC_TYPE_MAP:
        put_list_or_map(w, v, depth);
        return SMCT_OK;
    case SMC_TYPE_CUSTOM:
        if (v->custom_tag < 128) {
            return no_notation(w, "custom tag outside 128..255");
        }
        put_head(w, "custom");
        smct_buf_puts(b, sep(w));
        smct_buf_put_u64(b, v->custom_tag);
        smct_buf_puts(b, sep(w));
        if (!push_frame(w, v, depth)) {
            b->failed = true;
        }
        return SMCT_OK;
    }
    return no_notation(w, "unknown value type");
}

/*
 * The next step inside the innermost open container: close it when its values are written,
 * else the separators before its next value and that value (spec/notation.md N.1: a list is
 * ["list",[V,...]], a map ["map",[[K,V],...]], a custom value ["custom",TAG,V]; --pretty puts
 * each list element and map entry on its own line).
 */
static smct_status_t write_step(writer_t *w)
{
    smct_buf_t *b = w->b;
    frame_t *f = &w->stack[w->n - 1];
    const smc_value_t *v = f->v;
    size_t depth = f->depth;
    if (v->type == SMC_TYPE_CUSTOM) {
        if (f->next++ == 0) {
            return write_one(w, v->custom.payload, depth + 1);
        }
        smct_buf_putc(b, ']');
        w->n--;
        return SMCT_OK;
    }
    bool is_map = v->type == SMC_TYPE_MAP;
    size_t total = is_map ? 2 * v->map.count : v->list.count;
    size_t i = f->next;
    if (is_map && i > 0 && i % 2 == 0) {
        smct_buf_putc(b, ']'); /* the entry before is complete */
    }
    if (i == total) {
        if (w->pretty) {
            put_newline(w, depth);
        }
        smct_buf_puts(b, "]]");
        w->n--;
        return SMCT_OK;
    }
    f->next++;
    if (!is_map || i % 2 == 0) {
        if (i > 0) {
            smct_buf_putc(b, ',');
        }
        if (w->pretty) {
            put_newline(w, depth + 1);
        }
    }
    if (!is_map) {
        return write_one(w, &v->list.items[i], depth + 1);
    }
    smct_buf_puts(b, i % 2 == 0 ? "[" : sep(w));
    return write_one(w, &v->map.entries[i], depth + 1);
}

static smct_status_t write_tree(smct_buf_t *b, const smc_value_t *v, unsigned flags,
                                smct_error_t *err)
{
    writer_t w = {b, (flags & SMCT_NOTATION_PRETTY) != 0, NULL, 0, 0, err};
    smct_status_t st = write_one(&w, v, 0);
    while (st == SMCT_OK && w.n > 0 && smct_buf_ok(b)) {
        st = write_step(&w);
    }
    free(w.stack);
    if (st == SMCT_OK && !smct_buf_ok(b)) {
        return smct_error_set(err, SMCT_ERR_NOMEM, 0, "out of memory");
    }
    return st;
}

smct_status_t smct_notation_write_value(smct_buf_t *b, const smc_value_t *v, unsigned flags,
                                        smct_error_t *err)
{
    if (b == NULL || v == NULL) {
        return smct_error_set(err, SMCT_ERR_USAGE, 0, "invalid arguments");
    }
    return smct_notation_finish(b, write_tree(b, v, flags, err), err);
}
