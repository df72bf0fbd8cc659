/*
 * smc-c-runner: the runner protocol (runners/PROTOCOL.md, version 2) over any codec that
 * implements smc_runner_codec.h. Thin by design (P.6): parse a request, place the input (P.2),
 * call the codec, overwrite the input (the ownership check), convert notation ↔ smc_value_t,
 * print its answer. It never checks the codec's answers itself.
 */
#define _POSIX_C_SOURCE 200809L /* posix_memalign */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runner_host_value.h"
#include "runner_host_without.h"
#include "smc_runner_codec.h"
#include "smct_doc.h"
#include "smct_hex.h"
#include "smct_io.h"
#include "smct_json.h"
#include "smct_json_writer.h"
#include "smct_notation.h"
#include "smct_summary.h"

/* P.3: values nested deeper, or answers longer, are answered with their summary. */
#define PRINTABLE_DEPTH 500u
#define PRINTABLE_LINE  ((size_t)16 << 20)

/* The longest request line accepted: a protection, not a budget. A vector file is at most
 * 512 MiB (judge/base/input_file.h), so no request the judge sends is much longer; a 64 MiB value
 * is a 128 MiB line (64 MiB refused every value above 32 MiB). */
#define MAX_LINE ((size_t)1 << 30)

static void write_caps(smct_jw_t *w, const char *const *caps)
{
    smct_jw_array(w);
    for (size_t i = 0; caps && caps[i]; i++) {
        smct_jw_str(w, caps[i]);
    }
    smct_jw_end_array(w);
}

static bool has_word(const char *const *words, const char *word)
{
    for (size_t i = 0; words && words[i]; i++) {
        if (strcmp(words[i], word) == 0) {
            return true;
        }
    }
    return false;
}

/* The vocabulary of the request's `host` the codec's hook speaks, or NULL (P.1 `hosts`). */
static const char *hook_vocabulary(const smc_runner_codec_t *codec, const smct_json_t *host)
{
    for (size_t i = 0; codec->host_vocabularies && codec->host_vocabularies[i]; i++) {
        if (smct_json_is_str(host, codec->host_vocabularies[i])) {
            return codec->host_vocabularies[i];
        }
    }
    return NULL;
}

/* Whether the codec has a host hook at all: only then does the hello declare vocabularies. */
static bool has_host_hook(const smc_runner_codec_t *codec)
{
    return codec->host_vocabularies && (codec->host_encode || codec->host_decode);
}

/* The option words of P.1 the codec's fields choose. `shift` and the ownership check are the
 * runner's doing, for every codec (see place()); the codec author decides what is offered. */
static void write_options(smct_jw_t *w, const smc_runner_codec_t *codec)
{
    const char *const words[] = {codec->error_classes ? "error-classes" : NULL,
                                 codec->error_offsets ? "error-offsets" : NULL,
                                 codec->shift && !codec->no_shift ? "shift" : NULL,
                                 codec->borrows_input ? "borrows-input" : NULL,
                                 codec->pigeon_int64 ? "pigeon-int64" : NULL};
    smct_jw_array(w);
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (words[i]) {
            smct_jw_str(w, words[i]);
        }
    }
    smct_jw_end_array(w);
}

/* Whether decoded items of `entry` may point into their input (option borrows-input). */
static bool entry_borrows_input(const smc_runner_codec_t *codec, smc_entry_t entry)
{
    const smc_runner_entry_options_t *own = codec->per_entry[entry];
    if (own && own->options) {
        return has_word(own->options, "borrows-input");
    }
    return codec->borrows_input;
}

/* The `per_entry` member for the entry points whose declarations differ (P.1). */
static void write_per_entry(smct_jw_t *w, const smc_runner_codec_t *codec)
{
    bool any = false;
    for (int e = 0; e < SMC_ENTRY_COUNT; e++) {
        const smc_runner_entry_options_t *own = codec->per_entry[e];
        if (!own || !codec->entries[e] || !(own->decode_caps || own->encode_caps || own->options)) {
            continue;
        }
        if (!any) {
            smct_jw_key(w, "per_entry");
            smct_jw_object(w);
            any = true;
        }
        smct_jw_key(w, smct_entry_name((smc_entry_t)e));
        smct_jw_object(w);
        if (own->decode_caps || own->encode_caps) {
            smct_jw_key(w, "capabilities");
            smct_jw_object(w);
            smct_jw_key(w, "decode");
            write_caps(w, own->decode_caps ? own->decode_caps : codec->decode_caps);
            smct_jw_key(w, "encode");
            write_caps(w, own->encode_caps ? own->encode_caps : codec->encode_caps);
            smct_jw_end_object(w);
        }
        if (own->options) {
            smct_jw_key(w, "options");
            write_caps(w, own->options);
        }
        smct_jw_end_object(w);
    }
    if (any) {
        smct_jw_end_object(w);
    }
}

/* A reply object begun on the cleared `b`: `seq` and `status`, the members every answer has. */
static void begin_reply(smct_jw_t *w, smct_buf_t *b, uint64_t seq, const char *status)
{
    smct_buf_clear(b);
    smct_jw_init(w, b);
    smct_jw_object(w);
    smct_jw_key_u64(w, "seq", seq);
    smct_jw_key_str(w, "status", status);
}

static void hello(smct_buf_t *b, const smc_runner_codec_t *codec)
{
    smct_jw_t w;
    begin_reply(&w, b, 0, "ok");
    smct_jw_key_u64(&w, "protocol", 2);
    smct_jw_key(&w, "codec");
    smct_jw_object(&w);
    smct_jw_key_str(&w, "name", codec->name);
    smct_jw_key_str(&w, "version", codec->version);
    smct_jw_key_str(&w, "language", codec->language);
    smct_jw_end_object(&w);
    smct_jw_key(&w, "entries");
    smct_jw_array(&w);
    for (int e = 0; e < SMC_ENTRY_COUNT; e++) {
        if (codec->entries[e]) {
            smct_jw_str(&w, smct_entry_name((smc_entry_t)e));
        }
    }
    smct_jw_end_array(&w);
    smct_jw_key(&w, "capabilities");
    smct_jw_object(&w);
    smct_jw_key(&w, "decode");
    write_caps(&w, codec->decode_caps);
    smct_jw_key(&w, "encode");
    write_caps(&w, codec->encode_caps);
    smct_jw_end_object(&w);
    if (has_host_hook(codec)) { /* spec §17: only the vocabularies the codec's hook speaks */
        smct_jw_key(&w, "hosts");
        write_caps(&w, codec->host_vocabularies);
        smc_runner_write_hosts_without(&w, codec); /* spec §17.1: what its API lacks */
    }
    smct_jw_key(&w, "options");
    write_options(&w, codec);
    write_per_entry(&w, codec);
    smct_jw_end_object(&w);
}

static void error_reply(smct_buf_t *b, uint64_t seq, const char *cls, bool has_offset,
                        uint64_t offset, const char *message)
{
    smct_jw_t w;
    begin_reply(&w, b, seq, "error");
    smct_jw_key_str(&w, "class", cls); /* NULL: the codec's errors have no class (P.3) */
    smct_jw_key(&w, "offset");
    if (has_offset) {
        smct_jw_u64(&w, offset);
    } else {
        smct_jw_null(&w);
    }
    smct_jw_key_str(&w, "message", message ? message : "");
    smct_jw_end_object(&w);
}

static void skipped_reply(smct_buf_t *b, uint64_t seq, const char *why)
{
    smct_jw_t w;
    begin_reply(&w, b, seq, "skipped");
    smct_jw_key_str(&w, "reason", why);
    smct_jw_end_object(&w);
}

/* The answer to a codec function that did not return SMC_RUNNER_OK (P.3). */
static void failed_reply(smct_buf_t *b, uint64_t seq, smc_runner_status_t st,
                         const smc_runner_report_t *report)
{
    smct_jw_t w;
    switch (st) {
    case SMC_RUNNER_SKIPPED:
        skipped_reply(b, seq, report->message);
        return;
    case SMC_RUNNER_CRASHED:
        begin_reply(&w, b, seq, "crash");
        smct_jw_key_str(&w, "kind", report->kind ? report->kind : "unexpected failure");
        smct_jw_key_str(&w, "message", report->message);
        smct_jw_end_object(&w);
        return;
    case SMC_RUNNER_NOT_IMPLEMENTED:
        begin_reply(&w, b, seq, "not_implemented");
        smct_jw_key_str(&w, "message", report->message);
        smct_jw_end_object(&w);
        return;
    case SMC_RUNNER_OK:
    case SMC_RUNNER_ERROR:
    case SMC_RUNNER_NO_BYTES:
        break;
    }
    error_reply(b, seq, report->error_class, report->has_offset, report->offset, report->message);
}

/* Append the item's notation; false (reply replaced by a skip) if it has none. */
static bool put_notation(smct_buf_t *b, uint64_t seq, const smc_runner_item_t *item)
{
    smct_error_t e;
    if (smct_notation_write(b, item, SMCT_NOTATION_COMPACT, &e) != SMCT_OK) {
        /* the codec handed back a tree the notation cannot write: the runner cannot answer */
        skipped_reply(b, seq, e.message);
        return false;
    }
    return true;
}

/*
 * P.2 input placement: the bytes end exactly where their allocation ends, so AddressSanitizer
 * and valgrind report any read past `data + len`; with `shift` K they start K bytes past an
 * 8-aligned address (the block is 16-aligned), so a codec that aligns by memory address
 * instead of message offset fails (spec §3.1, §3.3). `*block`/`*block_len` are every byte
 * handed to the codec, for the ownership check.
 */
static uint8_t *place(const smct_json_t *hex, unsigned shift, uint8_t **block, size_t *block_len,
                      size_t *len)
{
    size_t n = hex->str.len / 2;
    /* an empty input still gets a byte to point past, so any read of it is flagged */
    size_t before = n == 0 ? shift + 1 : shift;
    void *p = NULL;
    if (posix_memalign(&p, 16, before + n) != 0) {
        return NULL;
    }
    *block = p;
    *block_len = before + n;
    uint8_t *data = *block + before;
    if (smct_hex_decode_strict(hex->str.ptr, hex->str.len, data, len, NULL) != SMCT_OK) {
        free(*block);
        *block = NULL;
        return NULL;
    }
    return data;
}

/* P.2 ownership: complement every byte handed to the codec before its answer is read. */
static void overwrite(uint8_t *block, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        block[i] = (uint8_t)~block[i];
    }
}

/* The `summary` member (P.3). */
static void put_summary(smct_jw_t *w, const smct_summary_t *s)
{
    smct_jw_key(w, "summary");
    smct_jw_object(w);
    smct_jw_key_u64(w, "depth", s->depth);
    smct_jw_key_u64(w, "values", s->values);
    smct_jw_key_u64(w, "bytes", s->bytes);
    smct_jw_end_object(w);
}

/*
 * The ok answer of a decode or round trip: the value's notation, or its summary when it is
 * too deep or too long to print (P.3), then for a round trip the codec's re-encoding of its
 * own decoded host value. The answer is written once everything in it is known, since any
 * step may turn it into a skip or a failure instead.
 */
static void decoded_reply(smct_buf_t *out, uint64_t seq, const smc_runner_codec_t *codec,
                          smc_runner_item_t *item, bool is_roundtrip, smc_arena_t *arena)
{
    smct_summary_t sum;
    if (smct_summary_of(item, &sum) != SMCT_OK) {
        skipped_reply(out, seq, "the runner ran out of memory measuring the decoded value");
        return;
    }
    smct_buf_t value;
    smct_buf_init(&value);
    if (sum.depth <= PRINTABLE_DEPTH && !put_notation(&value, seq, item)) {
        smct_buf_clear(out);
        smct_buf_append(out, value.data, value.len); /* put_notation's skip */
        smct_buf_free(&value);
        return;
    }
    uint8_t *bytes = NULL;
    size_t n = 0;
    smc_runner_status_t st = SMC_RUNNER_OK;
    if (is_roundtrip) {
        if (!codec->reencode) {
            smct_buf_free(&value);
            skipped_reply(out, seq,
                          "the codec has no reencode hook (runners/c/README.md): no round trip");
            return;
        }
        smc_runner_report_t report;
        memset(&report, 0, sizeof report);
        st = codec->reencode(codec->ctx, item, arena, &bytes, &n, &report);
        if (st != SMC_RUNNER_OK && st != SMC_RUNNER_NO_BYTES) {
            smct_buf_free(&value);
            failed_reply(out, seq, st, &report);
            return;
        }
    }
    smct_jw_t w;
    begin_reply(&w, out, seq, "ok");
    if (sum.depth > PRINTABLE_DEPTH || value.len > PRINTABLE_LINE) {
        put_summary(&w, &sum);
    } else {
        smct_jw_key(&w, "value");
        smct_jw_json(&w, value.data, value.len); /* smct_notation_write's JSON */
    }
    smct_buf_free(&value);
    if (is_roundtrip) {
        smct_jw_key(&w, "hex");
        if (st == SMC_RUNNER_NO_BYTES) {
            smct_jw_null(&w);
        } else {
            smct_jw_hex(&w, bytes, n);
        }
    }
    smct_jw_end_object(&w);
}

/* The bytes of an encode (or host_encode), or its failure (P.3). */
static void bytes_reply(smct_buf_t *out, uint64_t seq, smc_runner_status_t st, const uint8_t *bytes,
                        size_t n, const smc_runner_report_t *report)
{
    if (st != SMC_RUNNER_OK && st != SMC_RUNNER_NO_BYTES) {
        failed_reply(out, seq, st, report);
        return;
    }
    smct_jw_t w;
    begin_reply(&w, out, seq, "ok");
    smct_jw_key(&w, "hex");
    if (st == SMC_RUNNER_NO_BYTES) {
        smct_jw_null(&w);
    } else {
        smct_jw_hex(&w, bytes, n);
    }
    smct_jw_end_object(&w);
}

static void encoded_reply(smct_buf_t *out, uint64_t seq, const smc_runner_codec_t *codec,
                          const smct_doc_t *doc, smc_arena_t *arena)
{
    smc_runner_report_t report;
    memset(&report, 0, sizeof report);
    uint8_t *bytes = NULL;
    size_t n = 0;
    smc_runner_status_t st = codec->encode(codec->ctx, doc, arena, &bytes, &n, &report);
    bytes_reply(out, seq, st, bytes, n, &report);
}

/*
 * spec §17 (P.2 host_encode, host_decode): a host value reaches the codec only through its
 * host hook, which builds it in the codec's own host types; the kit never answers one with
 * another codec. Without a hook for the vocabulary the request is skipped (not applicable).
 */
static void handle_host(smct_buf_t *out, const smct_json_t *req, uint64_t seq,
                        const smc_runner_codec_t *codec, smc_arena_t *arena)
{
    bool is_encode = smct_json_is_str(smct_json_get(req, "op"), "host_encode");
    const char *vocabulary = hook_vocabulary(codec, smct_json_get(req, "host"));
    if (!vocabulary || !(is_encode ? codec->host_encode != NULL : codec->host_decode != NULL)) {
        skipped_reply(out, seq, "the codec has no host hook for this vocabulary and direction");
        return;
    }
    smc_runner_report_t report;
    memset(&report, 0, sizeof report);
    if (is_encode) {
        const smc_runner_host_value_t *hv =
            smc_runner_host_value_read(smct_json_get(req, "host_value"), arena);
        if (!hv) {
            skipped_reply(out, seq, "host_value is not a host value (spec §17.1)");
            return;
        }
        const char *absent = smc_runner_stated_absent(codec, vocabulary, hv);
        if (absent) {
            /* P.1 hosts_without: the codec's API cannot be handed it; the judge says n/a */
            char why[160];
            snprintf(why, sizeof why, "the codec's API has no %s (hosts_without)", absent);
            skipped_reply(out, seq, why);
            return;
        }
        uint8_t *bytes = NULL;
        size_t n = 0;
        smc_runner_status_t st =
            codec->host_encode(codec->ctx, vocabulary, hv, arena, &bytes, &n, &report);
        bytes_reply(out, seq, st, bytes, n, &report);
        return;
    }
    const smct_json_t *hex = smct_json_get(req, "hex");
    uint8_t *block = NULL;
    size_t block_len = 0, len = 0;
    uint8_t *data =
        hex && hex->type == SMCT_JSON_STRING ? place(hex, 0, &block, &block_len, &len) : NULL;
    if (!data) {
        skipped_reply(out, seq, "hex is not lower-case hex with an even number of digits");
        return;
    }
    smc_runner_host_value_t *hv = NULL;
    smc_runner_status_t st =
        codec->host_decode(codec->ctx, vocabulary, data, len, arena, &hv, &report);
    if (!entry_borrows_input(codec, SMC_ENTRY_MESSAGE)) {
        overwrite(block, block_len);
    }
    free(block);
    if (st != SMC_RUNNER_OK) {
        failed_reply(out, seq, st, &report);
        return;
    }
    smct_buf_t value;
    smct_buf_init(&value);
    if (!smc_runner_host_value_write(&value, hv)) {
        skipped_reply(out, seq, "the codec's host_decode hook returned a malformed host value");
    } else {
        smct_jw_t w;
        begin_reply(&w, out, seq, "ok");
        smct_jw_key(&w, "host_value");
        smct_jw_json(&w, value.data, value.len); /* smc_runner_host_value_write's JSON */
        smct_jw_end_object(&w);
    }
    smct_buf_free(&value);
}

static void handle(smct_buf_t *out, const smct_json_t *req, const smc_runner_codec_t *codec,
                   smc_arena_t *arena)
{
    uint64_t seq = 0;
    smct_json_get_u64(smct_json_get(req, "seq"), &seq);
    const smct_json_t *op = smct_json_get(req, "op");
    if (smct_json_is_str(op, "hello")) {
        hello(out, codec);
        return;
    }
    if (smct_json_is_str(op, "bye")) {
        smct_jw_t w;
        begin_reply(&w, out, seq, "ok");
        smct_jw_end_object(&w);
        return;
    }
    if (smct_json_is_str(op, "host_encode") || smct_json_is_str(op, "host_decode")) {
        handle_host(out, req, seq, codec, arena);
        return;
    }
    const smct_json_t *jentry = smct_json_get(req, "entry");
    smc_entry_t entry;
    if (!jentry || jentry->type != SMCT_JSON_STRING ||
        !smct_entry_from_name(jentry->str.ptr, jentry->str.len, &entry) || !codec->entries[entry]) {
        skipped_reply(out, seq, "entry point not implemented by this codec");
        return;
    }
    smc_runner_report_t report;
    memset(&report, 0, sizeof report);
    bool is_decode = smct_json_is_str(op, "decode"),
         is_roundtrip = smct_json_is_str(op, "roundtrip");
    if (is_decode || is_roundtrip) {
        const smct_json_t *hex = smct_json_get(req, "hex");
        const smct_json_t *mode = smct_json_get(req, "mode");
        uint64_t shift = 0;
        if (smct_json_get(req, "shift") &&
            (!smct_json_get_u64(smct_json_get(req, "shift"), &shift) || shift > 7)) {
            skipped_reply(out, seq, "shift must be an integer 0..7");
            return;
        }
        if (!hex || hex->type != SMCT_JSON_STRING) {
            skipped_reply(out, seq, "request has no hex");
            return;
        }
        smc_runner_mode_t m =
            smct_json_is_str(mode, "strict") ? SMC_RUNNER_STRICT : SMC_RUNNER_FLUTTER;
        uint8_t *block = NULL;
        size_t block_len = 0, len = 0;
        uint8_t *data = place(hex, (unsigned)shift, &block, &block_len, &len);
        if (!data) {
            skipped_reply(out, seq, "hex is not lower-case hex with an even number of digits");
            return;
        }
        smc_runner_item_t item;
        memset(&item, 0, sizeof item);
        smc_runner_status_t st =
            codec->decode(codec->ctx, entry, data, len, m, arena, &item, &report);
        if (!entry_borrows_input(codec, entry)) {
            overwrite(block, block_len);
        }
        if (st == SMC_RUNNER_OK) {
            decoded_reply(out, seq, codec, &item, is_roundtrip, arena);
        } else {
            failed_reply(out, seq, st, &report);
        }
        free(block);
        return;
    }
    if (smct_json_is_str(op, "encode")) {
        const smct_json_t *value = smct_json_get(req, "value");
        smct_doc_t doc;
        smct_error_t e;
        if (!value || smct_notation_read(value, entry, arena, &doc, &e) != SMCT_OK) {
            skipped_reply(out, seq, value ? e.message : "request has no value");
            return;
        }
        encoded_reply(out, seq, codec, &doc, arena);
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
            fprintf(stderr, "smc-c-runner: %s\n",
                    ls == SMCT_LINE_TOO_LONG ? "request line too long" : "read error");
            rc = 1;
            break;
        }
        smc_arena_reset(&arena);
        smc_arena_reset(&json_arena);
        smct_buf_clear(&out);
        smct_json_t *req = NULL;
        smct_error_t e;
        if (smct_json_parse(line.data, line.len, NULL, &json_arena, &req, &e) != SMCT_OK ||
            req->type != SMCT_JSON_OBJECT) {
            /* Not a request: nothing to answer with a seq; say so and stop (P.4: the judge restarts
             * us). */
            fprintf(stderr, "smc-c-runner: request is not a JSON object\n");
            rc = 1;
            break;
        }
        handle(&out, req, codec, &arena);
        if (!smct_buf_ok(&out)) {
            /* out of memory, or a writer refusal (smct_json_writer.h): no answer is better than a
             * broken one */
            fprintf(stderr, "smc-c-runner: out of memory, or an answer that is not JSON\n");
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
