/* `smc decode`: bytes → notation (spec/notation.md), one line on stdout. */
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "smct_notation.h"

static const char decode_help[] =
    "usage: smc decode [--hex] [--strict] [--no-custom] [--max-depth N]\n"
    "                  [--as message|call|envelope] [--pretty] FILE|-\n"
    "\n"
    "Decode StandardMessageCodec bytes and print their value notation (spec/notation.md)\n"
    "as one line.\n"
    "\n"
    "  --hex          FILE holds hex text (either case, whitespace between bytes allowed)\n"
    "  --strict       strict mode (spec §1.2): canonical bytes only, no largeInt\n"
    "  --no-custom    tags 128..255 are unknown_tag instead of custom values\n"
    "  --max-depth N  nesting limit, 1..512 (default 128, spec §15.1)\n"
    "  --as ENTRY     entry point: message (default), call (method call), envelope\n"
    "  --pretty       indent containers for people (not canonical notation)\n"
    "\n"
    "Output is written as it is produced: at most 16 bytes of notation per input byte (82\n"
    "with --pretty) plus 64. Memory: the input (up to twice that while standard input is\n"
    "read; with --hex, its text too), the decoded tree (at most 32 bytes per input byte,\n"
    "smc_decode_bound) and a 64 KiB output buffer; the notation writer needs a few bytes\n"
    "per level of nesting, not per value.\n"
    "\n"
    "Exit status: 0 decoded, 1 invalid input (one line on stderr:\n"
    "\"error: <class> at offset <N>: <message>\"), 2 usage or I/O error (one line, e.g. when\n"
    "standard output cannot be written).\n";

/* Output chunks handed to stdout while the notation is written. */
#define OUTPUT_CHUNK ((size_t)64 << 10)

static bool drain_to_stdout(void *ctx, const char *text, size_t len)
{
    (void)ctx;
    return cli_out(text, len);
}

/* Bytes left after a message are often a whole method call or envelope given without
 * --as: the entry point that reads all of them, for the hint on the error line, or NULL. */
static const char *entry_that_fits(const uint8_t *data, size_t len, const smc_decode_opts_t *opts)
{
    static const smc_entry_t others[] = {SMC_ENTRY_CALL, SMC_ENTRY_ENVELOPE};
    for (size_t k = 0; k < sizeof others / sizeof others[0]; k++) {
        smc_arena_t arena;
        smc_arena_init_allocator(&arena, NULL);
        smct_doc_t doc;
        smc_error_t err;
        smc_status_t st = smct_doc_decode(data, len, others[k], opts, &arena, &doc, &err);
        smc_arena_free(&arena);
        if (st == SMC_OK) {
            return smct_entry_name(others[k]);
        }
    }
    return NULL;
}

int cli_cmd_decode(int argc, char **argv)
{
    cli_opts_t o;
    int rc = cli_parse_opts(argc, argv,
                            CLI_OPT_HEX | CLI_OPT_STRICT | CLI_OPT_NO_CUSTOM | CLI_OPT_MAX_DEPTH |
                                CLI_OPT_AS | CLI_OPT_PRETTY | CLI_OPT_FILE,
                            decode_help, &o);
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
    /* The input outlives the tree, so views into it avoid copying payloads. */
    opts.flags |= SMC_ALIAS_INPUT;
    smc_arena_t arena;
    smc_arena_init_allocator(&arena, NULL);
    smct_doc_t doc;
    smc_error_t err;
    smc_status_t st = smct_doc_decode(data, len, o.entry, &opts, &arena, &doc, &err);
    if (st != SMC_OK) {
        if (st == SMC_ERR_NOMEM || st == SMC_ERR_USAGE) {
            cli_fail("%s", smc_status_str(st));
            rc = CLI_EXIT_USAGE;
        } else {
            const char *fits = st == SMC_ERR_TRAILING_BYTES && o.entry == SMC_ENTRY_MESSAGE
                                   ? entry_that_fits(data, len, &opts)
                                   : NULL;
            if (fits) {
                char message[160];
                snprintf(message, sizeof message, "%s (the whole input decodes with --as %s)",
                         smc_status_str(st), fits);
                cli_report(smc_status_class(st), err.offset, message);
            } else {
                cli_report(smc_status_class(st), err.offset, smc_status_str(st));
            }
            rc = CLI_EXIT_INVALID;
        }
    } else {
        /* Streamed: the buffer hands every 64 KiB to stdout while the writer runs. */
        smct_buf_t out;
        smct_buf_init(&out);
        smct_buf_set_drain(&out, drain_to_stdout, NULL, OUTPUT_CHUNK);
        smct_error_t e;
        smct_status_t wst = smct_notation_write(
            &out, &doc, o.pretty ? SMCT_NOTATION_PRETTY : SMCT_NOTATION_COMPACT, &e);
        smct_buf_putc(&out, '\n');
        smct_buf_flush(&out);
        if (!cli_out_flush()) {
            rc = CLI_EXIT_USAGE; /* reported once; the writer saw it as a failed buffer */
        } else if (wst != SMCT_OK || !smct_buf_ok(&out)) {
            cli_fail("cannot write notation: %s", wst != SMCT_OK ? e.message : "out of memory");
            rc = CLI_EXIT_USAGE;
        } else {
            rc = CLI_EXIT_OK;
        }
        smct_buf_free(&out);
    }
    smc_arena_free(&arena);
    free(data);
    return rc;
}
