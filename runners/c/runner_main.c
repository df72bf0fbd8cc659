/*
 * smc-c-runner: the runner protocol (runners/PROTOCOL.md) over any codec that implements
 * smc_runner_codec.h. Thin by design (P.6): parse a request, convert notation ↔ smc_value_t,
 * call the codec, print its answer. It never checks the codec's answers itself.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smc_runner_codec.h"
#include "smct_doc.h"
#include "smct_hex.h"
#include "smct_io.h"
#include "smct_json.h"
#include "smct_notation.h"

/* The longest request line accepted; the judge bounds responses the same way. */
#define MAX_LINE ((size_t)64 << 20)

static void write_caps(smct_buf_t *b, const char *const *caps)
{
    smct_buf_putc(b, '[');
    for (size_t i = 0; caps && caps[i]; i++) {
        if (i) {
            smct_buf_putc(b, ',');
        }
        smct_json_write_cstr(b, caps[i]);
    }
    smct_buf_putc(b, ']');
}

static void hello(smct_buf_t *b, const smc_runner_codec_t *codec)
{
    smct_buf_puts(b, "{\"seq\":0,\"status\":\"ok\",\"protocol\":1,\"codec\":{\"name\":");
    smct_json_write_cstr(b, codec->name);
    smct_buf_puts(b, ",\"version\":");
    smct_json_write_cstr(b, codec->version);
    smct_buf_puts(b, ",\"language\":");
    smct_json_write_cstr(b, codec->language);
    smct_buf_puts(b, "},\"entries\":[");
    bool first = true;
    for (int e = 0; e < SMC_ENTRY_COUNT; e++) {
        if (codec->entries[e]) {
            smct_buf_printf(b, "%s\"%s\"", first ? "" : ",", smct_entry_name((smc_entry_t)e));
            first = false;
        }
    }
    smct_buf_puts(b, "],\"capabilities\":{\"decode\":");
    write_caps(b, codec->decode_caps);
    smct_buf_puts(b, ",\"encode\":");
    write_caps(b, codec->encode_caps);
    /* `shift` is honoured here, for every codec: see decode_shifted(). */
    smct_buf_printf(b, "},\"options\":[%s\"shift\"]}", codec->error_offsets ? "\"error-offsets\"," : "");
}

static void error_reply(smct_buf_t *b, uint64_t seq, const char *cls, bool has_offset, uint64_t offset,
                        const char *message)
{
    smct_buf_clear(b);
    smct_buf_printf(b, "{\"seq\":%llu,\"status\":\"error\",\"class\":", (unsigned long long)seq);
    smct_json_write_cstr(b, cls ? cls : "unknown");
    smct_buf_puts(b, ",\"offset\":");
    if (has_offset) {
        smct_buf_put_u64(b, offset);
    } else {
        smct_buf_puts(b, "null");
    }
    smct_buf_puts(b, ",\"message\":");
    smct_json_write_cstr(b, message ? message : "");
    smct_buf_putc(b, '}');
}

static void skipped_reply(smct_buf_t *b, uint64_t seq, const char *why)
{
    smct_buf_clear(b);
    smct_buf_printf(b, "{\"seq\":%llu,\"status\":\"skipped\",\"reason\":", (unsigned long long)seq);
    smct_json_write_cstr(b, why);
    smct_buf_putc(b, '}');
}

/* Append the item's notation; false (reply replaced by an error) if it has none. */
static bool put_notation(smct_buf_t *b, uint64_t seq, const smc_runner_item_t *item)
{
    smct_error_t e;
    if (smct_notation_write(b, item, SMCT_NOTATION_COMPACT, &e) != SMCT_OK) {
        /* e.g. a string that is not UTF-8: the codec accepted what has no notation */
        error_reply(b, seq, "no_notation", false, 0, e.message);
        return false;
    }
    return true;
}

/*
 * P.2 `shift`: copy the input to K bytes past an 8-aligned address, so a codec that aligns by
 * memory address instead of message offset fails (spec §3.1).
 */
static uint8_t *shifted_copy(const smct_json_t *hex, unsigned shift, uint8_t **block, size_t *len)
{
    *block = malloc(hex->str.len / 2 + 16);
    if (!*block) {
        return NULL;
    }
    uintptr_t base = ((uintptr_t)*block + 7u) & ~(uintptr_t)7u;
    uint8_t *p = (uint8_t *)base + shift;
    if (smct_hex_decode_strict(hex->str.ptr, hex->str.len, p, len, NULL) != SMCT_OK) {
        free(*block);
        *block = NULL;
        return NULL;
    }
    return p;
}

static void handle(smct_buf_t *out, const smct_json_t *req, const smc_runner_codec_t *codec, smc_arena_t *arena)
{
    uint64_t seq = 0;
    smct_json_get_u64(smct_json_get(req, "seq"), &seq);
    const smct_json_t *op = smct_json_get(req, "op");
    if (smct_json_is_str(op, "hello")) {
        hello(out, codec);
        return;
    }
    if (smct_json_is_str(op, "bye")) {
        smct_buf_printf(out, "{\"seq\":%llu,\"status\":\"ok\"}", (unsigned long long)seq);
        return;
    }
    const smct_json_t *jentry = smct_json_get(req, "entry");
    smc_entry_t entry;
    if (!jentry || jentry->type != SMCT_JSON_STRING || !smct_entry_from_name(jentry->str.ptr, jentry->str.len, &entry) ||
        !codec->entries[entry]) {
        skipped_reply(out, seq, "entry point not implemented by this codec");
        return;
    }
    smc_runner_report_t report;
    memset(&report, 0, sizeof report);
    bool is_decode = smct_json_is_str(op, "decode"), is_roundtrip = smct_json_is_str(op, "roundtrip");
    if (is_decode || is_roundtrip) {
        const smct_json_t *hex = smct_json_get(req, "hex");
        const smct_json_t *mode = smct_json_get(req, "mode");
        uint64_t shift = 0;
        if (smct_json_get(req, "shift") && (!smct_json_get_u64(smct_json_get(req, "shift"), &shift) || shift > 7)) {
            error_reply(out, seq, "bad_notation", false, 0, "shift must be an integer 0..7");
            return;
        }
        if (!hex || hex->type != SMCT_JSON_STRING) {
            error_reply(out, seq, "bad_notation", false, 0, "request has no hex");
            return;
        }
        smc_runner_mode_t m = smct_json_is_str(mode, "strict") ? SMC_RUNNER_STRICT : SMC_RUNNER_FLUTTER;
        uint8_t *block = NULL;
        size_t len = 0;
        uint8_t *data = shifted_copy(hex, (unsigned)shift, &block, &len);
        if (!data) {
            error_reply(out, seq, "bad_notation", false, 0, "hex is not lower-case hex with an even number of digits");
            return;
        }
        smc_runner_item_t item;
        smc_runner_status_t st = codec->decode(codec->ctx, entry, data, len, m, arena, &item, &report);
        free(block);
        if (st == SMC_RUNNER_SKIPPED) {
            skipped_reply(out, seq, report.message);
            return;
        }
        if (st != SMC_RUNNER_OK) {
            error_reply(out, seq, report.error_class, report.has_offset, report.offset, report.message);
            return;
        }
        smct_buf_printf(out, "{\"seq\":%llu,\"status\":\"ok\",\"value\":", (unsigned long long)seq);
        if (!put_notation(out, seq, &item)) {
            return;
        }
        if (is_roundtrip) {
            uint8_t *bytes = NULL;
            size_t n = 0;
            memset(&report, 0, sizeof report);
            st = codec->encode(codec->ctx, &item, arena, &bytes, &n, &report);
            if (st == SMC_RUNNER_SKIPPED) {
                skipped_reply(out, seq, report.message);
                return;
            }
            if (st != SMC_RUNNER_OK) {
                error_reply(out, seq, report.error_class, report.has_offset, report.offset, report.message);
                return;
            }
            smct_buf_puts(out, ",\"hex\":\"");
            smct_buf_put_hex(out, bytes, n);
            smct_buf_putc(out, '"');
        }
        smct_buf_putc(out, '}');
        return;
    }
    if (smct_json_is_str(op, "encode")) {
        const smct_json_t *value = smct_json_get(req, "value");
        smct_doc_t doc;
        smct_error_t e;
        if (!value || smct_notation_read(value, entry, arena, &doc, &e) != SMCT_OK) {
            error_reply(out, seq, "bad_notation", value != NULL, value ? e.offset : 0,
                        value ? e.message : "request has no value");
            return;
        }
        uint8_t *bytes = NULL;
        size_t n = 0;
        smc_runner_status_t st = codec->encode(codec->ctx, &doc, arena, &bytes, &n, &report);
        if (st == SMC_RUNNER_SKIPPED) {
            skipped_reply(out, seq, report.message);
            return;
        }
        if (st != SMC_RUNNER_OK) {
            error_reply(out, seq, report.error_class, report.has_offset, report.offset, report.message);
            return;
        }
        smct_buf_printf(out, "{\"seq\":%llu,\"status\":\"ok\",\"hex\":\"", (unsigned long long)seq);
        smct_buf_put_hex(out, bytes, n);
        smct_buf_puts(out, "\"}");
        return;
    }
    skipped_reply(out, seq, "unknown op");
}

int main(void)
{
    const smc_runner_codec_t *codec = smc_runner_codec();
    smc_arena_t arena, json_arena;
    smc_arena_init_allocator(&arena, NULL);
    smc_arena_init_allocator(&json_arena, NULL);
    smct_buf_t line, out;
    smct_buf_init(&line);
    smct_buf_init(&out);
    int rc = 0;
    for (;;) {
        smct_line_status_t ls = smct_read_line(stdin, &line, MAX_LINE);
        if (ls == SMCT_LINE_EOF) {
            break;
        }
        if (ls != SMCT_LINE_OK) {
            fprintf(stderr, "smc-c-runner: %s\n", ls == SMCT_LINE_TOO_LONG ? "request line too long" : "read error");
            rc = 1;
            break;
        }
        smc_arena_reset(&arena);
        smc_arena_reset(&json_arena);
        smct_buf_clear(&out);
        smct_json_t *req = NULL;
        smct_error_t e;
        if (smct_json_parse(line.data, line.len, NULL, &json_arena, &req, &e) != SMCT_OK || req->type != SMCT_JSON_OBJECT) {
            /* Not a request: nothing to answer with a seq; say so and stop (P.4: the judge restarts us). */
            fprintf(stderr, "smc-c-runner: request is not a JSON object\n");
            rc = 1;
            break;
        }
        handle(&out, req, codec, &arena);
        if (!smct_buf_ok(&out)) {
            fprintf(stderr, "smc-c-runner: out of memory\n");
            rc = 1;
            break;
        }
        smct_buf_putc(&out, '\n');
        fwrite(out.data, 1, out.len, stdout);
        fflush(stdout);
        if (smct_json_is_str(smct_json_get(req, "op"), "bye")) {
            break;
        }
    }
    smct_buf_free(&line);
    smct_buf_free(&out);
    smc_arena_free(&arena);
    smc_arena_free(&json_arena);
    return rc;
}
