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
    "N a byte offset in the JSON text) or a value the encoder refuses (\"error: not_encodable\n"
    "at offset <N>: ...\": a largeint, or nesting deeper than 512 levels); 2 usage or I/O\n"
    "error (one line, e.g. when standard output cannot be written).\n"
    "\n"
    "Memory: at most 32 bytes per byte of the text (the text, its JSON and value trees and the\n"
    "encoding); a text that is not JSON costs the text and its nesting depth only. The output\n"
    "is the canonical encoding (--hex: twice its size plus a newline).\n";

/* What the encoder refuses in a valid notation value (spec §4.4, spec §15.1). */
typedef enum refusal { REFUSE_LARGEINT, REFUSE_DEPTH } refusal_t;

static bool is_container_head(const smct_json_t *head)
{
    return smct_json_is_str(head, "list") || smct_json_is_str(head, "map") ||
           smct_json_is_str(head, "custom");
}

/*
 * Offset in the notation text of the first value the encoder refuses: a largeint (never
 * written, spec §4.4), or a list, map or custom value one level deeper than
 * SMC_MAX_DEPTH_LIMIT. A notation value is a JSON array headed by its type word and a
 * container's contents lie inside its array, so the containers around a value are the
 * arrays around it headed "list", "map" or "custom". Iterative preorder walk; false if none.
 */
static bool first_refused_offset(const smct_json_t *root, refusal_t what, size_t *offset)
{
    typedef struct pending {
        const smct_json_t *node;
        size_t around; /* notation containers around it */
    } pending_t;
    pending_t *stack = NULL;
    size_t n = 0, cap = 0;
    bool found = false;
    pending_t cur = {root, 0};
    for (;;) {
        const smct_json_t *j = cur.node;
        if (j != NULL && j->type == SMCT_JSON_ARRAY) {
            const smct_json_t *head = smct_json_at(j, 0);
            bool container = is_container_head(head);
            if ((what == REFUSE_LARGEINT && smct_json_is_str(head, "largeint")) ||
                (what == REFUSE_DEPTH && container && cur.around >= SMC_MAX_DEPTH_LIMIT)) {
                found = true;
                *offset = j->offset;
                break;
            }
            if (n + j->array.count > cap) {
                size_t c = (n + j->array.count) * 2;
                pending_t *s = realloc(stack, c * sizeof *s);
                if (s == NULL) {
                    break;
                }
                stack = s;
                cap = c;
            }
            for (size_t i = j->array.count; i-- > 0;) {
                stack[n++] = (pending_t){&j->array.items[i], cur.around + (container ? 1 : 0)};
            }
        }
        if (n == 0) {
            break;
        }
        cur = stack[--n];
    }
    free(stack);
    return found;
}

/* `len` bytes as lower-case hex and a newline on stdout, a 32 KiB slice at a time: the hex
 * of the whole encoding (twice its size) is never held. False if it could not be written. */
static bool write_hex_line(const uint8_t *bytes, size_t len)
{
    enum { SLICE = 32 * 1024 };
    smct_buf_t hex;
    smct_buf_init(&hex);
    bool ok = true;
    for (size_t at = 0; ok && at < len; at += SLICE) {
        smct_buf_clear(&hex);
        smct_buf_put_hex(&hex, bytes + at, len - at < SLICE ? len - at : SLICE);
        ok = smct_buf_ok(&hex) && cli_write_stdout(hex.data, hex.len);
    }
    ok = ok && cli_write_stdout("\n", 1);
    smct_buf_free(&hex);
    return ok;
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
        size_t at = 0;
        if (est == SMC_ERR_NOT_ENCODABLE) {
            if (first_refused_offset(json, REFUSE_LARGEINT, &at)) {
                cli_report("not_encodable", at,
                           "largeint is decode-only and is never written (spec §4.4)");
            } else {
                cli_report("not_encodable", err.offset, smc_status_str(est));
            }
            rc = CLI_EXIT_INVALID;
        } else if (est == SMC_ERR_DEPTH) {
            /* An encoder-side class (spec/errors.md §14.1), at the value in the text. */
            if (!first_refused_offset(json, REFUSE_DEPTH, &at)) {
                at = 0;
            }
            cli_report("not_encodable", at,
                       "nested deeper than 512 levels, the reference encoder's limit (spec §15.1)");
            rc = CLI_EXIT_INVALID;
        } else if (est != SMC_OK) {
            cli_report(smc_status_class(est), err.offset, smc_status_str(est));
            rc = est == SMC_ERR_NOMEM ? CLI_EXIT_USAGE : CLI_EXIT_INVALID;
        } else if (o.hex) {
            rc = write_hex_line((const uint8_t *)bytes.data, bytes.len) ? CLI_EXIT_OK
                                                                        : CLI_EXIT_USAGE;
        } else {
            rc = cli_write_stdout(bytes.data, bytes.len) ? CLI_EXIT_OK : CLI_EXIT_USAGE;
        }
        smct_buf_free(&bytes);
    }
    smc_arena_free(&arena);
    smct_io_free(text);
    return rc;
}
