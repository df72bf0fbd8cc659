/* `smc encode`: notation (spec/notation.md) → canonical bytes (spec §13). */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "smct_hex.h"
#include "smct_io.h"
#include "smct_notation.h"

static const char encode_help[] =
    "usage: smc encode [--hex] [--as message|call|envelope] FILE|-\n"
    "\n"
    "Read value notation (spec/notation.md) and write its canonical StandardMessageCodec\n"
    "bytes (spec §13) to stdout.\n"
    "\n"
    "  --hex          write lower-case hex and a newline instead of raw bytes\n"
    "  --as ENTRY     entry point: message (default), call, envelope\n"
    "\n"
    "Exit status: 0 encoded; 1 invalid notation (\"error: bad_notation at offset <N>: ...\",\n"
    "N a byte offset in the JSON text) or a value the format cannot carry\n"
    "(\"error: not_encodable ...\", e.g. largeint); 2 usage or I/O error.\n";

/*
 * Offset in the notation text of the first largeint value, the only not_encodable value a
 * valid notation can hold (spec §4.4). Iterative preorder walk; false if none is found.
 */
static bool first_largeint_offset(const smct_json_t *root, size_t *offset)
{
    const smct_json_t **stack = NULL;
    size_t n = 0;
    size_t cap = 0;
    bool found = false;
    const smct_json_t *cur = root;
    for (;;) {
        if (cur != NULL && cur->type == SMCT_JSON_ARRAY) {
            if (smct_json_is_str(smct_json_at(cur, 0), "largeint")) {
                found = true;
                *offset = cur->offset;
                break;
            }
            if (n + cur->array.count > cap) {
                size_t c = (n + cur->array.count) * 2;
                const smct_json_t **s = realloc((void *)stack, c * sizeof *s);
                if (s == NULL) {
                    break;
                }
                stack = s;
                cap = c;
            }
            for (size_t i = cur->array.count; i-- > 0;) {
                stack[n++] = &cur->array.items[i];
            }
        }
        if (n == 0) {
            break;
        }
        cur = stack[--n];
    }
    free((void *)stack);
    return found;
}

int cli_cmd_encode(int argc, char **argv)
{
    cli_opts_t o;
    int rc = cli_parse_opts(argc, argv, CLI_OPT_HEX | CLI_OPT_AS | CLI_OPT_FILE, encode_help, &o);
    if (rc != CLI_EXIT_OK) {
        return rc < 0 ? CLI_EXIT_OK : rc;
    }
    char msg[512];
    uint8_t *text;
    size_t len;
    if (smct_read_file(o.input, CLI_MAX_INPUT, &text, &len, msg, sizeof msg) != SMCT_OK) {
        cli_fail("%s", msg);
        return CLI_EXIT_USAGE;
    }
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smct_json_t *json = NULL;
    smct_doc_t doc;
    smct_error_t e;
    smct_status_t st = smct_json_parse((const char *)text, len, NULL, &arena, &json, &e);
    if (st == SMCT_OK) {
        st = smct_notation_read(json, o.entry, &arena, &doc, &e);
    }
    if (st != SMCT_OK) {
        if (st == SMCT_ERR_NOMEM) {
            cli_fail("out of memory");
            rc = CLI_EXIT_USAGE;
        } else {
            cli_report("bad_notation", e.offset, e.message);
            rc = CLI_EXIT_INVALID;
        }
    } else {
        smct_buf_t bytes;
        smct_buf_init(&bytes);
        smc_error_t err;
        smc_status_t est = smct_doc_encode(&doc, &bytes, &err);
        if (est == SMC_ERR_NOT_ENCODABLE) {
            size_t at = 0;
            if (first_largeint_offset(json, &at)) {
                cli_report("not_encodable", at, "largeint is decode-only and is never written (spec §4.4)");
            } else {
                cli_report("not_encodable", err.offset, smc_status_str(est));
            }
            rc = CLI_EXIT_INVALID;
        } else if (est != SMC_OK) {
            cli_report(smc_status_class(est), err.offset, smc_status_str(est));
            rc = est == SMC_ERR_NOMEM ? CLI_EXIT_USAGE : CLI_EXIT_INVALID;
        } else if (o.hex) {
            smct_buf_t hex;
            smct_buf_init(&hex);
            smct_buf_put_hex(&hex, (const uint8_t *)bytes.data, bytes.len);
            smct_buf_putc(&hex, '\n');
            rc = smct_buf_ok(&hex) && cli_write_stdout(hex.data, hex.len) ? CLI_EXIT_OK : CLI_EXIT_USAGE;
            smct_buf_free(&hex);
        } else {
            rc = cli_write_stdout(bytes.data, bytes.len) ? CLI_EXIT_OK : CLI_EXIT_USAGE;
        }
        smct_buf_free(&bytes);
    }
    smc_arena_free(&arena);
    smct_io_free(text);
    return rc;
}
