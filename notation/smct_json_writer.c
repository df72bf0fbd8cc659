/*
 * The streaming JSON writer (smct_json_writer.h). Each open container keeps three bits:
 * whether it is an object, whether it has an item yet (so the next one needs a comma) and
 * whether that comma is already written (smct_jw_newline writes it before its line break).
 */
#include "smct_json_writer.h"

#include <math.h>
#include <stdio.h>

#include "smct_hex.h"
#include "smct_json.h"

enum { LEVEL_OBJECT = 1, LEVEL_HAS_ITEMS = 2, LEVEL_COMMA_WRITTEN = 4 };

void smct_jw_init(smct_jw_t *w, smct_buf_t *out)
{
    w->out = out;
    w->depth = 0;
    w->want_value = false;
    w->done = false;
    w->refused = false;
}

bool smct_jw_ok(const smct_jw_t *w)
{
    return !w->refused && w->done && w->depth == 0 && smct_buf_ok(w->out);
}

/* A call that would break the JSON: the output is marked failed and stays as it was. */
static bool refuse(smct_jw_t *w)
{
    w->refused = true;
    w->out->failed = true;
    return false;
}

static uint8_t *top(smct_jw_t *w)
{
    return &w->level[w->depth - 1];
}

/* The comma before the next item of the open container, unless it is the first or
 * smct_jw_newline already wrote it. */
static void separate(smct_jw_t *w)
{
    uint8_t *lv = top(w);
    if ((*lv & LEVEL_HAS_ITEMS) && !(*lv & LEVEL_COMMA_WRITTEN)) {
        smct_buf_putc(w->out, ',');
    }
    *lv = (uint8_t)((*lv | LEVEL_HAS_ITEMS) & ~LEVEL_COMMA_WRITTEN);
}

/* Before any value: is one allowed here? Writes the comma an array item needs. */
static bool value_due(smct_jw_t *w)
{
    if (w->refused) {
        return false;
    }
    if (w->depth == 0) {
        return w->done ? refuse(w) : true;
    }
    if (*top(w) & LEVEL_OBJECT) {
        if (!w->want_value) {
            return refuse(w); /* a member needs its key first */
        }
        w->want_value = false;
        return true;
    }
    separate(w);
    return true;
}

/* After a scalar (or a closed container): at the top level the text is complete. */
static void value_done(smct_jw_t *w)
{
    if (w->depth == 0) {
        w->done = true;
    }
}

static void open_container(smct_jw_t *w, char bracket, uint8_t kind)
{
    if (!value_due(w)) {
        return;
    }
    if (w->depth == SMCT_JW_MAX_DEPTH) {
        refuse(w);
        return;
    }
    w->level[w->depth++] = kind;
    smct_buf_putc(w->out, bracket);
}

static void close_container(smct_jw_t *w, char bracket, uint8_t kind)
{
    if (w->refused) {
        return;
    }
    if (w->depth == 0 || (*top(w) & LEVEL_OBJECT) != kind || w->want_value) {
        refuse(w);
        return;
    }
    w->depth--;
    smct_buf_putc(w->out, bracket);
    value_done(w);
}

void smct_jw_object(smct_jw_t *w)
{
    open_container(w, '{', LEVEL_OBJECT);
}

void smct_jw_end_object(smct_jw_t *w)
{
    close_container(w, '}', LEVEL_OBJECT);
}

void smct_jw_array(smct_jw_t *w)
{
    open_container(w, '[', 0);
}

void smct_jw_end_array(smct_jw_t *w)
{
    close_container(w, ']', 0);
}

void smct_jw_key(smct_jw_t *w, const char *key)
{
    if (w->refused) {
        return;
    }
    if (w->depth == 0 || !(*top(w) & LEVEL_OBJECT) || w->want_value || key == NULL) {
        refuse(w);
        return;
    }
    separate(w);
    smct_json_write_cstr(w->out, key);
    smct_buf_putc(w->out, ':');
    w->want_value = true;
}

void smct_jw_null(smct_jw_t *w)
{
    if (value_due(w)) {
        smct_buf_puts(w->out, "null");
        value_done(w);
    }
}

void smct_jw_bool(smct_jw_t *w, bool v)
{
    if (value_due(w)) {
        smct_buf_puts(w->out, v ? "true" : "false");
        value_done(w);
    }
}

void smct_jw_u64(smct_jw_t *w, uint64_t v)
{
    if (value_due(w)) {
        smct_buf_put_u64(w->out, v);
        value_done(w);
    }
}

void smct_jw_i64(smct_jw_t *w, int64_t v)
{
    if (value_due(w)) {
        smct_buf_put_i64(w->out, v);
        value_done(w);
    }
}

void smct_jw_real(smct_jw_t *w, double v, int decimals)
{
    if (!isfinite(v)) {
        refuse(w);
        return;
    }
    if (value_due(w)) {
        if (decimals < 0) {
            smct_buf_printf(w->out, "%g", v);
        } else {
            smct_buf_printf(w->out, "%.*f", decimals, v);
        }
        value_done(w);
    }
}

void smct_jw_str_n(smct_jw_t *w, const void *s, size_t len)
{
    if (value_due(w)) {
        smct_json_write_string(w->out, s, len);
        value_done(w);
    }
}

void smct_jw_str(smct_jw_t *w, const char *s)
{
    if (value_due(w)) {
        smct_json_write_cstr(w->out, s);
        value_done(w);
    }
}

void smct_jw_hex(smct_jw_t *w, const uint8_t *bytes, size_t n)
{
    if (value_due(w)) {
        smct_buf_putc(w->out, '"');
        smct_buf_put_hex(w->out, bytes, n);
        smct_buf_putc(w->out, '"');
        value_done(w);
    }
}

void smct_jw_json(smct_jw_t *w, const char *json, size_t len)
{
    if (len == 0) {
        refuse(w); /* no value at all */
        return;
    }
    if (value_due(w)) {
        smct_buf_append(w->out, json, len);
        value_done(w);
    }
}

void smct_jw_newline(smct_jw_t *w)
{
    if (w->refused) {
        return;
    }
    if (w->depth > 0) {
        if (w->want_value) {
            refuse(w); /* between a key and its value */
            return;
        }
        uint8_t *lv = top(w);
        if ((*lv & LEVEL_HAS_ITEMS) && !(*lv & LEVEL_COMMA_WRITTEN)) {
            smct_buf_putc(w->out, ',');
            *lv |= LEVEL_COMMA_WRITTEN;
        }
    }
    smct_buf_putc(w->out, '\n');
}

void smct_jw_key_str(smct_jw_t *w, const char *key, const char *s)
{
    smct_jw_key(w, key);
    smct_jw_str(w, s);
}

void smct_jw_key_u64(smct_jw_t *w, const char *key, uint64_t v)
{
    smct_jw_key(w, key);
    smct_jw_u64(w, v);
}

void smct_jw_key_i64(smct_jw_t *w, const char *key, int64_t v)
{
    smct_jw_key(w, key);
    smct_jw_i64(w, v);
}

void smct_jw_key_bool(smct_jw_t *w, const char *key, bool v)
{
    smct_jw_key(w, key);
    smct_jw_bool(w, v);
}

void smct_jw_key_null(smct_jw_t *w, const char *key)
{
    smct_jw_key(w, key);
    smct_jw_null(w);
}
