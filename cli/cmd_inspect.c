/*
 * `smc inspect`: an annotated dump of the bytes, one line per wire element (tag, size,
 * padding, payload), built on the reader layer (smc_reader.h). The verdict (exit status and
 * the error line) comes from the same decoder as `smc decode`, so the two never disagree.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "smct_hex.h"
#include "smct_json.h"
#include "smct_utf8.h"

static const char inspect_help[] =
    "usage: smc inspect [--hex] [--strict] [--no-custom] [--max-depth N]\n"
    "                   [--as message|call|envelope] FILE|-\n"
    "\n"
    "Print an annotated dump: one line per tag, size, padding and payload, with its offset\n"
    "(decimal and hex), its bytes (long payloads shortened to \"…(+N bytes)\"), the path of\n"
    "the value it belongs to and what it means. Paths: $ the top value, [i] a list element,\n"
    "<k> the key of map entry k, {k} its value ({\"key\"} for a string key), .v a custom\n"
    "payload, .name/.args of a method call, .result/.code/.message/.details/.stacktrace of\n"
    "an envelope. A path longer than 64 bytes keeps its start and its last levels with \"…\"\n"
    "between them. Non-zero padding is flagged. Options as for smc decode.\n"
    "\n"
    "Output: one line per at least one input byte, each at most 512 bytes, so at most 512\n"
    "bytes per input byte plus one header line; written as it goes. Memory: the input (up\n"
    "to twice that while standard input is read) and, for a call or envelope, its decoded\n"
    "tree (at most 32 bytes per input byte).\n"
    "\n"
    "Exit status: 0 valid; 1 invalid input: the dump up to the error, then the error line on\n"
    "stderr (\"error: <class> at offset <N>: <message>\"); 2 usage or I/O error.\n";

/* Bytes shown per line before "…(+N bytes)". */
#define SHOWN_BYTES 16u
/* String payload characters shown in the meaning column. */
#define SHOWN_TEXT 48u
/* Typed-list elements shown in the meaning column. */
#define SHOWN_ELEMENTS 8u
/* Path bytes shown: longer paths keep their start and their last levels (elide_path). */
#define SHOWN_PATH 64u

typedef struct frame {
    smc_type_t type; /* LIST, MAP or CUSTOM */
    uint64_t total;  /* values it holds: n, 2n or 1 */
    uint64_t done;   /* values completed */
    size_t path_len; /* length of the container's own path */
    bool key_is_str; /* map: the last key read was a string */
    smc_bytes_t key; /* map: that string */
} frame_t;

typedef struct dump {
    const uint8_t *data;
    size_t len;
    size_t path_base; /* length of the top value's path ("$", "$.args", ...) */
    smct_buf_t path;
    smct_buf_t line;
    smct_buf_t meaning;
    frame_t frames[SMC_MAX_DEPTH_LIMIT + 1];
    size_t nframes;
    size_t pos; /* end of the last element printed */
} dump_t;

/*
 * Append the path to the line, shortened when it is longer than SHOWN_PATH bytes: the top
 * value's path, "…", then the last levels that fit (levels start where the open containers'
 * paths end, so a level, even a string key, is never cut), at least the innermost one.
 */
static void put_path(dump_t *d, smct_buf_t *l)
{
    const char *p = d->path.data != NULL ? d->path.data : "";
    size_t len = d->path.len;
    if (len <= SHOWN_PATH) {
        smct_buf_append(l, p, len);
        return;
    }
    size_t budget = SHOWN_PATH - d->path_base - 3; /* "…" is 3 bytes */
    size_t from = len;                             /* start of the tail shown */
    for (size_t i = d->nframes; i-- > 0;) {
        size_t start = d->frames[i].path_len; /* where the levels inside frame i begin */
        if (start < len && (len - start <= budget || from == len)) {
            from = start;
        }
        if (len - start > budget) {
            break;
        }
    }
    if (from <= d->path_base) {
        smct_buf_append(l, p, len);
        return;
    }
    smct_buf_append(l, p, d->path_base);
    smct_buf_puts(l, "\u2026");
    smct_buf_append(l, p + from, len - from);
}

static void print_line(dump_t *d, size_t off, size_t n, const char *meaning)
{
    smct_buf_t *l = &d->line;
    smct_buf_clear(l);
    smct_buf_printf(l, "%8zu  0x%06zx  ", off, off);
    /* A payload longer than the column shows as many bytes as leave room for its
     * "…(+N bytes)" inside the column, so the path and meaning columns never move. */
    size_t shown = n < SHOWN_BYTES ? n : SHOWN_BYTES;
    char more[48] = "";
    size_t more_width = 0;
    while (n > shown) {
        int w = snprintf(more, sizeof more, "\u2026(+%zu bytes)", n - shown);
        more_width = (size_t)w - 2; /* the ellipsis is 3 bytes, 1 column */
        if (shown == 0 || 2 * shown + more_width <= 2 * SHOWN_BYTES) {
            break;
        }
        shown--;
    }
    smct_buf_put_hex(l, d->data + off, shown);
    smct_buf_puts(l, more);
    for (size_t width = 2 * shown + more_width; width < 2 * SHOWN_BYTES + 2; width++) {
        smct_buf_putc(l, ' ');
    }
    size_t before_path = l->len;
    put_path(d, l);
    for (size_t w = l->len - before_path; w < 14; w++) {
        smct_buf_putc(l, ' ');
    }
    smct_buf_puts(l, "  ");
    smct_buf_puts(l, meaning);
    smct_buf_putc(l, '\n');
    cli_out(l->data, l->len);
    if (off + n > d->pos) {
        d->pos = off + n;
    }
}

/* Text for the meaning column: JSON-quoted, shortened at a character boundary. */
static void put_text(smct_buf_t *m, smc_bytes_t s)
{
    size_t n = s.len;
    bool cut = false;
    if (n > SHOWN_TEXT) {
        n = SHOWN_TEXT;
        while (n > 0 && (s.ptr[n] & 0xc0) == 0x80) {
            n--; /* do not split a UTF-8 sequence */
        }
        cut = true;
    }
    smct_json_write_string(m, s.ptr, n);
    if (cut) {
        smct_buf_puts(m, "\u2026");
    }
}

/* spec §2.2: the size field of `it` (at offset + 1, it->size_len bytes), whose value is
 * `value` (the item's length or count); non-minimal forms are flagged. */
static void print_size(dump_t *d, const smc_item_t *it, uint64_t value)
{
    smct_buf_clear(&d->meaning);
    smct_buf_printf(&d->meaning, "size %" PRIu64, value);
    bool minimal = it->size_len == smc_size_field_len(value);
    if (it->size_len == 3) {
        smct_buf_puts(&d->meaning, minimal ? " (u16 form)" : " (u16 form, non-minimal)");
    } else if (it->size_len == 5) {
        smct_buf_puts(&d->meaning, minimal ? " (u32 form)" : " (u32 form, non-minimal)");
    }
    print_line(d, it->offset + 1, it->size_len, d->meaning.data);
}

/* spec §3.3: padding bytes [off, off+n), flagged when any is non-zero. */
static void print_padding(dump_t *d, size_t off, size_t n)
{
    if (n == 0) {
        return;
    }
    size_t first_nonzero = n;
    for (size_t i = 0; i < n; i++) {
        if (d->data[off + i] != 0) {
            first_nonzero = i;
            break;
        }
    }
    smct_buf_clear(&d->meaning);
    smct_buf_printf(&d->meaning, "padding %zu byte%s", n, n == 1 ? "" : "s");
    if (first_nonzero < n) {
        smct_buf_printf(&d->meaning, " (NON-ZERO at offset %zu: not canonical, spec §3.3)",
                        off + first_nonzero);
    }
    print_line(d, off, n, d->meaning.data);
}

static void put_f64(smct_buf_t *m, uint64_t bits)
{
    smct_buf_printf(m, "%.17g (bits %016" PRIx64 ")", smc_f64_from_bits(bits), bits);
}

static void print_elements(dump_t *d, const smc_item_t *it, size_t off, size_t n)
{
    smct_buf_t *m = &d->meaning;
    smct_buf_clear(m);
    smct_buf_puts(m, "elements [");
    size_t count = it->array.count;
    for (size_t i = 0; i < count && i < SHOWN_ELEMENTS; i++) {
        if (i > 0) {
            smct_buf_puts(m, ", ");
        }
        switch (it->type) {
        case SMC_TYPE_I32S:
            smct_buf_put_i64(m, smc_i32s_at(&it->array, i));
            break;
        case SMC_TYPE_I64S:
            smct_buf_put_i64(m, smc_i64s_at(&it->array, i));
            break;
        case SMC_TYPE_F64S:
            smct_buf_printf(m, "%.17g", smc_f64_from_bits(smc_f64s_bits_at(&it->array, i)));
            break;
        case SMC_TYPE_F32S:
            smct_buf_printf(m, "%.9g", (double)smc_f32_from_bits(smc_f32s_bits_at(&it->array, i)));
            break;
        case SMC_TYPE_NULL:
        case SMC_TYPE_BOOL:
        case SMC_TYPE_I32:
        case SMC_TYPE_I64:
        case SMC_TYPE_LARGEINT:
        case SMC_TYPE_F64:
        case SMC_TYPE_STR:
        case SMC_TYPE_U8S:
        case SMC_TYPE_LIST:
        case SMC_TYPE_MAP:
        case SMC_TYPE_CUSTOM:
            break;
        }
    }
    if (count > SHOWN_ELEMENTS) {
        smct_buf_printf(m, ", \u2026 %zu more", count - SHOWN_ELEMENTS);
    }
    smct_buf_putc(m, ']');
    print_line(d, off, n, m->data);
}

/* Set d->path to the path of the next value inside the innermost open container. */
static void child_path(dump_t *d)
{
    frame_t *f = &d->frames[d->nframes - 1];
    d->path.len = f->path_len;
    smct_buf_append(&d->path, "", 0); /* re-terminate after truncation */
    if (f->type == SMC_TYPE_LIST) {
        smct_buf_printf(&d->path, "[%" PRIu64 "]", f->done);
    } else if (f->type == SMC_TYPE_MAP) {
        if (f->done % 2 == 0) {
            smct_buf_printf(&d->path, "<%" PRIu64 ">", f->done / 2);
        } else if (f->key_is_str) {
            smct_buf_putc(&d->path, '{');
            put_text(&d->path, f->key);
            smct_buf_putc(&d->path, '}');
        } else {
            smct_buf_printf(&d->path, "{%" PRIu64 "}", f->done / 2);
        }
    } else {
        smct_buf_puts(&d->path, ".v"); /* custom payload, spec §8 */
    }
}

/* A value has been completed: count it in its container, closing finished containers. */
static void value_done(dump_t *d)
{
    while (d->nframes > 0) {
        frame_t *f = &d->frames[d->nframes - 1];
        f->done++;
        if (f->done < f->total) {
            return;
        }
        d->nframes--;
    }
}

/* Print the elements of one item read by the reader, ending at reader offset `end`. */
static void print_item(dump_t *d, const smc_item_t *it, size_t end)
{
    size_t off = it->offset;
    smct_buf_t *m = &d->meaning;
    smct_buf_clear(m);
    switch (it->type) {
    case SMC_TYPE_NULL:
        print_line(d, off, 1, "null");
        return;
    case SMC_TYPE_BOOL:
        print_line(d, off, 1, it->boolean ? "true" : "false");
        return;
    case SMC_TYPE_I32:
        smct_buf_printf(m, "int32 %" PRId32, it->i32);
        print_line(d, off, end - off, m->data);
        return;
    case SMC_TYPE_I64:
        smct_buf_printf(m, "int64 %" PRId64, it->i64);
        print_line(d, off, end - off, m->data);
        return;
    case SMC_TYPE_F64:
        print_line(d, off, 1, smc_type_title(it->type));
        print_padding(d, off + 1, it->pad_len);
        smct_buf_clear(m);
        smct_buf_printf(m, "%s ", smc_type_title(it->type));
        put_f64(m, it->f64_bits);
        print_line(d, off + 1 + it->pad_len, 8, m->data);
        return;
    case SMC_TYPE_STR:
    case SMC_TYPE_LARGEINT:
    case SMC_TYPE_U8S: {
        smct_buf_printf(m, "%s (%zu byte%s)", smc_type_title(it->type), it->bytes.len,
                        it->bytes.len == 1 ? "" : "s");
        print_line(d, off, 1, m->data);
        print_size(d, it, it->bytes.len);
        size_t start = off + 1 + it->size_len;
        if (it->bytes.len > 0) {
            smct_buf_clear(m);
            if (it->type == SMC_TYPE_U8S) {
                smct_buf_printf(m, "%zu byte%s", it->bytes.len, it->bytes.len == 1 ? "" : "s");
            } else {
                smct_buf_printf(m, "%s ", smc_type_title(it->type));
                put_text(m, it->bytes);
                smct_buf_printf(m, " (%zu byte%s)", it->bytes.len, it->bytes.len == 1 ? "" : "s");
            }
            print_line(d, start, it->bytes.len, m->data);
        }
        return;
    }
    case SMC_TYPE_I32S:
    case SMC_TYPE_I64S:
    case SMC_TYPE_F64S:
    case SMC_TYPE_F32S: {
        smct_buf_printf(m, "%s count=%zu", smc_type_title(it->type), it->array.count);
        print_line(d, off, 1, m->data);
        print_size(d, it, it->array.count);
        print_padding(d, off + 1 + it->size_len, it->pad_len);
        size_t start = off + 1 + it->size_len + it->pad_len;
        if (it->array.count > 0) {
            print_elements(d, it, start, end - start); /* the elements end the item */
        }
        return;
    }
    case SMC_TYPE_LIST:
    case SMC_TYPE_MAP:
        smct_buf_printf(m, "%s count=%zu%s", smc_type_title(it->type), it->count,
                        it->type == SMC_TYPE_MAP ? " (pairs)" : "");
        print_line(d, off, 1, m->data);
        print_size(d, it, it->count);
        return;
    case SMC_TYPE_CUSTOM:
        smct_buf_printf(m, "custom tag %u (0x%02x), one value follows", it->custom_tag,
                        it->custom_tag);
        print_line(d, off, 1, m->data);
        return;
    }
}

/*
 * Dump one top-level value with the reader. `base_path` is "$" or "$.args", ...
 * Returns false if the reader failed (the dump stops there).
 */
static bool dump_value(dump_t *d, smc_reader_t *r, const char *base_path)
{
    smct_buf_clear(&d->path);
    smct_buf_puts(&d->path, base_path);
    size_t base_len = d->path.len;
    d->path_base = base_len;
    d->nframes = 0;
    do {
        smc_item_t it;
        if (d->nframes > 0) {
            child_path(d);
        } else {
            d->path.len = base_len;
            smct_buf_append(&d->path, "", 0);
        }
        if (smc_reader_next(r, &it) != SMC_OK) {
            return false;
        }
        size_t end = smc_reader_offset(r);
        if (d->nframes > 0) {
            frame_t *f = &d->frames[d->nframes - 1];
            if (f->type == SMC_TYPE_MAP && f->done % 2 == 0) {
                f->key_is_str = it.type == SMC_TYPE_STR;
                f->key = it.type == SMC_TYPE_STR ? it.bytes : (smc_bytes_t){NULL, 0};
            }
        }
        print_item(d, &it, end);
        uint64_t total = 0;
        if (it.type == SMC_TYPE_LIST) {
            total = it.count;
        } else if (it.type == SMC_TYPE_MAP) {
            total = 2 * (uint64_t)it.count;
        } else if (it.type == SMC_TYPE_CUSTOM) {
            total = 1;
        }
        if (total > 0 && d->nframes < sizeof d->frames / sizeof d->frames[0]) {
            frame_t *f = &d->frames[d->nframes++];
            memset(f, 0, sizeof *f);
            f->type = it.type;
            f->total = total;
            f->path_len = d->path.len;
        } else {
            value_done(d);
        }
    } while (d->nframes > 0);
    return true;
}

/* The byte at the reader's position may start an element of `kind` (spec/errors.md §14.2;
 * at the end of the input the reader reports truncation). */
static bool tag_allowed(const smc_reader_t *r, smc_element_kind_t kind)
{
    uint8_t b;
    return !smc_reader_peek_byte(r, &b) || smc_element_allows(kind, b);
}

static void dump_rest(dump_t *d, const char *why)
{
    if (d->pos < d->len) {
        smct_buf_clear(&d->path);
        print_line(d, d->pos, d->len - d->pos, why);
    }
}

/* Walk the whole input per entry point, element by element as libsmc's grammar has them
 * (smc_method_call_elements, smc_envelope_elements). */
static void dump_entry(dump_t *d, const cli_opts_t *o, const smc_decode_opts_t *opts)
{
    static const smc_element_t message = {"", SMC_ELEMENT_VALUE, false, SMC_OK};
    const smc_element_t *elements = &message;
    size_t nelements = 1;
    size_t start = 0;

    switch (o->entry) {
    case SMC_ENTRY_MESSAGE:
        break;
    case SMC_ENTRY_CALL:
        elements = smc_method_call_elements(&nelements);
        break;
    case SMC_ENTRY_ENVELOPE: {
        if (d->len == 0) {
            return;
        }
        uint8_t flag = d->data[0];
        elements = smc_envelope_elements(flag, &nelements);
        smct_buf_clear(&d->path);
        smct_buf_puts(&d->path, "$");
        d->path_base = d->path.len;
        print_line(d, 0, 1,
                   flag == 0   ? "envelope flag: success"
                   : flag == 1 ? "envelope flag: error"
                               : "envelope flag: INVALID (must be 00 or 01)");
        if (elements == NULL) {
            return;
        }
        start = 1;
        break;
    }
    }

    smc_reader_t *r = malloc(sizeof *r);
    if (r == NULL) {
        return;
    }
    smc_reader_init_at(r, d->data, d->len, start, opts);
    d->pos = start;
    for (size_t i = 0; i < nelements; i++) {
        const smc_element_t *e = &elements[i];
        if (e->optional && smc_reader_remaining(r) == 0) {
            break;
        }
        if (!tag_allowed(r, e->kind)) {
            dump_rest(d, "<-- wrong tag for this element");
            free(r);
            return;
        }
        char path[32];
        snprintf(path, sizeof path, "$%s%s", e->name[0] != '\0' ? "." : "", e->name);
        if (!dump_value(d, r, path)) {
            dump_rest(d, "<-- not decodable (error below)");
            free(r);
            return;
        }
    }
    dump_rest(d, "<-- trailing bytes after the complete item");
    free(r);
}

int cli_cmd_inspect(int argc, char **argv)
{
    cli_opts_t o;
    int rc = cli_parse_opts(argc, argv,
                            CLI_OPT_HEX | CLI_OPT_STRICT | CLI_OPT_NO_CUSTOM | CLI_OPT_MAX_DEPTH |
                                CLI_OPT_AS | CLI_OPT_FILE,
                            inspect_help, &o);
    if (rc != CLI_EXIT_OK) {
        return rc < 0 ? CLI_EXIT_OK : rc;
    }
    uint8_t *data;
    size_t len;
    rc = cli_load_input(&o, &data, &len);
    if (rc != CLI_EXIT_OK) {
        return rc;
    }
    smc_decode_opts_t opts = cli_decode_opts(&o);

    dump_t *d = calloc(1, sizeof *d);
    if (d == NULL) {
        free(data);
        cli_fail("out of memory");
        return CLI_EXIT_USAGE;
    }
    d->data = data;
    d->len = len;
    char header[128];
    int hn = snprintf(header, sizeof header, "%8s  %-8s  %-34s%-14s  %s\n", "offset", "(in hex)",
                      "bytes", "path", "meaning");
    cli_out(header, (size_t)hn);
    dump_entry(d, &o, &opts);
    smct_buf_free(&d->path);
    smct_buf_free(&d->line);
    smct_buf_free(&d->meaning);
    free(d);

    /* The verdict is smc decode's: for a message from smc_validate, which gives exactly the
     * status and offset of smc_decode without building the tree (security model P7). */
    smc_status_t st;
    smc_error_t err;
    if (o.entry == SMC_ENTRY_MESSAGE) {
        st = smc_validate(data, len, &opts, &err);
    } else {
        smc_arena_t arena;
        smc_arena_init_allocator(&arena, NULL);
        smct_doc_t doc;
        opts.flags |= SMC_ALIAS_INPUT;
        st = smct_doc_decode(data, len, o.entry, &opts, &arena, &doc, &err);
        smc_arena_free(&arena);
    }
    if (!cli_out_flush()) {
        rc = CLI_EXIT_USAGE; /* reported once; the dump is incomplete */
    } else if (st == SMC_OK) {
        rc = CLI_EXIT_OK;
    } else if (st == SMC_ERR_NOMEM || st == SMC_ERR_USAGE) {
        cli_fail("%s", smc_status_str(st));
        rc = CLI_EXIT_USAGE;
    } else {
        cli_report(smc_status_class(st), err.offset, smc_status_str(st));
        rc = CLI_EXIT_INVALID;
    }
    free(data);
    return rc;
}
