/*
 * `smc batch`: many decode/encode requests over one process, one JSON object per line,
 * for the vector generator (spawning the CLI per vector is too slow). The request and
 * response shapes follow runners/PROTOCOL.md P.2/P.3 without the handshake; a `seq`, when
 * present, is echoed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "smct_hex.h"
#include "smct_io.h"
#include "smct_json.h"
#include "smct_notation.h"

static const char batch_help[] =
    "usage: smc batch\n"
    "\n"
    "Read requests from stdin, one JSON object per line, and answer each with one JSON line\n"
    "on stdout (flushed after every line):\n"
    "\n"
    "  {\"op\":\"decode\",\"entry\":\"message\",\"hex\":\"0301000000\",\"mode\":\"flutter\"}\n"
    "      -> {\"status\":\"ok\",\"value\":[\"i32\",1]}\n"
    "  {\"op\":\"encode\",\"entry\":\"message\",\"value\":[\"i32\",1]}\n"
    "      -> {\"status\":\"ok\",\"hex\":\"0301000000\"}\n"
    "  {\"op\":\"roundtrip\",\"entry\":\"message\",\"hex\":\"...\"}  -> value and hex\n"
    "  {\"op\":\"bye\"}  -> {\"status\":\"ok\"} and exit\n"
    "\n"
    "entry: message (default), call, envelope. mode: flutter (default) or strict.\n"
    "Errors: {\"status\":\"error\",\"class\":C,\"offset\":N,\"message\":M} with C a class of\n"
    "spec/errors.md, bad_notation (N = offset in the request line), or protocol_error for a\n"
    "request that cannot be understood (N = offset in the line, or null). A \"seq\" member is\n"
    "echoed. Blank lines are ignored. Exit status 0 at end of input, 2 on an I/O error.\n";

/* Longest request line accepted (a 1 MiB payload is 2 MiB of hex). */
#define BATCH_MAX_LINE ((size_t)512u << 20)

typedef struct reply {
    smct_buf_t *out;
    const smct_json_t *seq;
} reply_t;

static void reply_begin(reply_t *r, const char *status)
{
    smct_buf_clear(r->out);
    smct_buf_putc(r->out, '{');
    if (r->seq != NULL) {
        smct_buf_puts(r->out, "\"seq\":");
        smct_json_write(r->out, r->seq);
        smct_buf_putc(r->out, ',');
    }
    smct_buf_puts(r->out, "\"status\":");
    smct_json_write_cstr(r->out, status);
}

static void reply_error(reply_t *r, const char *cls, bool has_offset, size_t offset,
                        const char *message)
{
    reply_begin(r, "error");
    smct_buf_puts(r->out, ",\"class\":");
    smct_json_write_cstr(r->out, cls);
    smct_buf_puts(r->out, ",\"offset\":");
    if (has_offset) {
        smct_buf_put_u64(r->out, offset);
    } else {
        smct_buf_puts(r->out, "null");
    }
    smct_buf_puts(r->out, ",\"message\":");
    smct_json_write_cstr(r->out, message);
    smct_buf_putc(r->out, '}');
}

/* Decode `hex` per the request; on success leaves the decoded doc in *doc and returns true. */
static bool do_decode(reply_t *r, const smct_json_t *req, smc_entry_t entry, smc_arena_t *arena,
                      uint8_t **bytes, smct_doc_t *doc, size_t *nbytes)
{
    const smct_json_t *hex = smct_json_get(req, "hex");
    const smct_json_t *mode = smct_json_get(req, "mode");
    if (hex == NULL || hex->type != SMCT_JSON_STRING) {
        reply_error(r, "protocol_error", hex != NULL, hex != NULL ? hex->offset : 0,
                    "request needs \"hex\": a string of lower-case hex digits");
        return false;
    }
    smc_decode_opts_t opts = {SMC_MODE_FLUTTER | SMC_ALIAS_INPUT, 0};
    if (mode != NULL) {
        if (smct_json_is_str(mode, "strict")) {
            opts.flags = SMC_MODE_STRICT | SMC_ALIAS_INPUT;
        } else if (!smct_json_is_str(mode, "flutter")) {
            reply_error(r, "protocol_error", true, mode->offset, "\"mode\" must be \"flutter\" or \"strict\"");
            return false;
        }
    }
    *bytes = smc_arena_alloc(arena, hex->str.len / 2);
    if (*bytes == NULL) {
        reply_error(r, "protocol_error", false, 0, "out of memory");
        return false;
    }
    smct_error_t he;
    if (smct_hex_decode_strict(hex->str.ptr, hex->str.len, *bytes, nbytes, &he) != SMCT_OK) {
        reply_error(r, "protocol_error", true, hex->offset, he.message);
        return false;
    }
    smc_error_t err;
    smc_status_t st = smct_doc_decode(*bytes, *nbytes, entry, &opts, arena, doc, &err);
    if (st != SMC_OK) {
        bool input_error = st != SMC_ERR_NOMEM && st != SMC_ERR_USAGE;
        reply_error(r, smc_status_class(st), input_error, err.offset, smc_status_str(st));
        return false;
    }
    return true;
}

/* Answer one request line into r->out; true if it was "bye". */
static bool handle(reply_t *r, const char *line, size_t len, smc_arena_t *arena)
{
    smct_json_t *req = NULL;
    smct_error_t je;
    if (smct_json_parse(line, len, NULL, arena, &req, &je) != SMCT_OK) {
        reply_error(r, "protocol_error", true, je.offset, je.message);
        return false;
    }
    r->seq = smct_json_get(req, "seq");
    if (req->type != SMCT_JSON_OBJECT) {
        reply_error(r, "protocol_error", true, 0, "a request must be a JSON object");
        return false;
    }
    const smct_json_t *op = smct_json_get(req, "op");
    const smct_json_t *entry_json = smct_json_get(req, "entry");
    smc_entry_t entry = SMC_ENTRY_MESSAGE;
    if (entry_json != NULL &&
        (entry_json->type != SMCT_JSON_STRING ||
         !smct_entry_from_name(entry_json->str.ptr, entry_json->str.len, &entry))) {
        reply_error(r, "protocol_error", true, entry_json->offset,
                    "\"entry\" must be \"message\", \"call\" or \"envelope\"");
        return false;
    }
    smct_doc_t doc;
    if (smct_json_is_str(op, "decode") || smct_json_is_str(op, "roundtrip")) {
        uint8_t *bytes = NULL;
        size_t n = 0;
        if (!do_decode(r, req, entry, arena, &bytes, &doc, &n)) {
            return false;
        }
        smct_buf_t value;
        smct_buf_init(&value);
        smct_error_t we;
        if (smct_notation_write(&value, &doc, SMCT_NOTATION_COMPACT, &we) != SMCT_OK) {
            reply_error(r, "protocol_error", false, 0, we.message);
            smct_buf_free(&value);
            return false;
        }
        smct_buf_t bytes_out;
        smct_buf_init(&bytes_out);
        if (smct_json_is_str(op, "roundtrip")) {
            smc_error_t err;
            smc_status_t st = smct_doc_encode(&doc, &bytes_out, &err);
            if (st != SMC_OK) {
                reply_error(r, smc_status_class(st), false, 0, smc_status_str(st));
                smct_buf_free(&value);
                smct_buf_free(&bytes_out);
                return false;
            }
        }
        reply_begin(r, "ok");
        smct_buf_puts(r->out, ",\"value\":");
        smct_buf_append(r->out, value.data, value.len);
        if (smct_json_is_str(op, "roundtrip")) {
            smct_buf_puts(r->out, ",\"hex\":\"");
            smct_buf_put_hex(r->out, (const uint8_t *)bytes_out.data, bytes_out.len);
            smct_buf_putc(r->out, '"');
        }
        smct_buf_putc(r->out, '}');
        smct_buf_free(&value);
        smct_buf_free(&bytes_out);
        return false;
    }
    if (smct_json_is_str(op, "encode")) {
        const smct_json_t *value = smct_json_get(req, "value");
        if (value == NULL) {
            reply_error(r, "protocol_error", false, 0, "request needs \"value\"");
            return false;
        }
        smct_error_t ne;
        smct_status_t nst = smct_notation_read(value, entry, arena, &doc, &ne);
        if (nst != SMCT_OK) {
            reply_error(r, nst == SMCT_ERR_NOMEM ? "protocol_error" : "bad_notation",
                        nst != SMCT_ERR_NOMEM, ne.offset, ne.message);
            return false;
        }
        smct_buf_t bytes_out;
        smct_buf_init(&bytes_out);
        smc_error_t err;
        smc_status_t st = smct_doc_encode(&doc, &bytes_out, &err);
        if (st != SMC_OK) {
            reply_error(r, smc_status_class(st), false, 0, smc_status_str(st));
        } else {
            reply_begin(r, "ok");
            smct_buf_puts(r->out, ",\"hex\":\"");
            smct_buf_put_hex(r->out, (const uint8_t *)bytes_out.data, bytes_out.len);
            smct_buf_puts(r->out, "\"}");
        }
        smct_buf_free(&bytes_out);
        return false;
    }
    if (smct_json_is_str(op, "bye")) {
        reply_begin(r, "ok");
        smct_buf_putc(r->out, '}');
        return true;
    }
    reply_error(r, "protocol_error", op != NULL, op != NULL ? op->offset : 0,
                "\"op\" must be \"decode\", \"encode\", \"roundtrip\" or \"bye\"");
    return false;
}

int cli_cmd_batch(int argc, char **argv)
{
    cli_opts_t o;
    int rc = cli_parse_opts(argc, argv, 0, batch_help, &o);
    if (rc != CLI_EXIT_OK) {
        return rc < 0 ? CLI_EXIT_OK : rc;
    }
    smct_buf_t line;
    smct_buf_t out;
    smct_buf_init(&line);
    smct_buf_init(&out);
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    rc = CLI_EXIT_OK;
    for (;;) {
        smct_line_status_t ls = smct_read_line(stdin, &line, BATCH_MAX_LINE);
        if (ls == SMCT_LINE_EOF) {
            break;
        }
        if (ls == SMCT_LINE_ERROR) {
            cli_fail("smc batch: cannot read standard input");
            rc = CLI_EXIT_USAGE;
            break;
        }
        reply_t r = {&out, NULL};
        size_t len = line.len;
        if (len > 0 && line.data[len - 1] == '\r') {
            len--;
        }
        bool blank = true;
        for (size_t i = 0; i < len && blank; i++) {
            blank = line.data[i] == ' ' || line.data[i] == '\t';
        }
        if (blank && ls == SMCT_LINE_OK) {
            continue;
        }
        bool bye = false;
        if (ls == SMCT_LINE_TOO_LONG) {
            reply_error(&r, "protocol_error", false, 0, "request line too long");
        } else {
            bye = handle(&r, line.data, len, &arena);
        }
        smct_buf_putc(&out, '\n');
        if (!smct_buf_ok(&out)) {
            smct_buf_clear(&out);
            reply_error(&r, "protocol_error", false, 0, "out of memory");
            smct_buf_putc(&out, '\n');
        }
        if (!cli_write_stdout(out.data, out.len)) {
            rc = CLI_EXIT_USAGE;
            break;
        }
        smc_arena_reset(&arena);
        if (bye) {
            break;
        }
    }
    smc_arena_free(&arena);
    smct_buf_free(&line);
    smct_buf_free(&out);
    return rc;
}

