/**
 * @file cli.h
 * @brief Shared parts of the `smc` command-line tool: option parsing, input loading,
 *        the one-line error report, and the command entry points.
 *
 * Exit codes (every command): 0 success, 1 invalid input, 2 usage or I/O error.
 * Invalid input prints exactly one line on stderr:
 *   error: <class> at offset <N>: <message>
 * where <class> is an error class of spec/errors.md §14.1 (or `bad_notation`,
 * `not_encodable`, and `bad_hex` for unreadable --hex input).
 */
#ifndef SMC_CLI_H
#define SMC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "smc/smc.h"
#include "smct_doc.h"

enum { CLI_EXIT_OK = 0, CLI_EXIT_INVALID = 1, CLI_EXIT_USAGE = 2 };

/** Options a command accepts (bit set). */
enum {
    CLI_OPT_HEX = 1u << 0,
    CLI_OPT_STRICT = 1u << 1,
    CLI_OPT_NO_CUSTOM = 1u << 2,
    CLI_OPT_MAX_DEPTH = 1u << 3,
    CLI_OPT_AS = 1u << 4,
    CLI_OPT_PRETTY = 1u << 5,
    CLI_OPT_FILE = 1u << 6 /* one positional FILE|- is required */
};

typedef struct cli_opts {
    bool hex;
    bool strict;
    bool no_custom;
    bool pretty;
    uint32_t max_depth; /* 0 → library default (SMC_DEFAULT_MAX_DEPTH) */
    smc_entry_t entry;
    const char *input; /* FILE or "-" */
} cli_opts_t;

/** Largest input file accepted (bytes). */
#define CLI_MAX_INPUT ((size_t)256u << 20)

/**
 * Parse argv[1..] of a command (argv[0] is the command name). Prints usage errors itself.
 * @return -1 when --help was printed (exit 0), CLI_EXIT_USAGE on an error, CLI_EXIT_OK otherwise.
 */
int cli_parse_opts(int argc, char **argv, unsigned allowed, const char *help, cli_opts_t *o);

/** The decode options the parsed flags ask for. */
smc_decode_opts_t cli_decode_opts(const cli_opts_t *o);

/** Print "error: <class> at offset <N>: <message>" on stderr. */
void cli_report(const char *cls, size_t offset, const char *message);

/** Print "error: <message>" (usage and I/O problems) on stderr. */
void cli_fail(const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

/**
 * Load the input bytes: the file (or stdin) as it is, or, with `hex`, decoded from lenient
 * hex text. On failure prints the error and returns the exit code (1 for bad hex, 2 for I/O);
 * on success returns 0 and a heap block in *data (free with free()).
 */
int cli_load_input(const cli_opts_t *o, uint8_t **data, size_t *len);

/**
 * Write to stdout. After the first failure nothing more is written and every call returns
 * false; cli_out_flush reports it.
 */
bool cli_out(const void *buf, size_t len);

/**
 * Flush stdout. False when any write since the start failed; the first such failure is
 * reported once, as one line "error: cannot write to standard output: <reason>".
 */
bool cli_out_flush(void);

/** cli_out + cli_out_flush: write all of buf to stdout; false (reported once) on failure. */
bool cli_write_stdout(const void *buf, size_t len);

/* Commands: argv[0] is the command name. Each returns an exit code. */
int cli_cmd_decode(int argc, char **argv);
int cli_cmd_encode(int argc, char **argv);
int cli_cmd_inspect(int argc, char **argv);

#endif /* SMC_CLI_H */
