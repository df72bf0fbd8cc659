/* Option parsing, input loading and error reporting shared by the `smc` commands. */
#include "cli.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "smct_hex.h"
#include "smct_io.h"

void cli_report(const char *cls, size_t offset, const char *message)
{
    fprintf(stderr, "error: %s at offset %zu: %s\n", cls, offset, message);
}

void cli_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("error: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
}

/* "--name=value" or "--name value": the value, advancing *i in the second form. */
static const char *option_value(int argc, char **argv, int *i, const char *name)
{
    const char *arg = argv[*i];
    size_t n = strlen(name);
    if (arg[n] == '=') {
        return arg + n + 1;
    }
    if (*i + 1 >= argc) {
        return NULL;
    }
    (*i)++;
    return argv[*i];
}

static bool is_option(const char *arg, const char *name)
{
    size_t n = strlen(name);
    return strncmp(arg, name, n) == 0 && (arg[n] == '\0' || arg[n] == '=');
}

int cli_parse_opts(int argc, char **argv, unsigned allowed, const char *help, cli_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->entry = SMC_ENTRY_MESSAGE;
    const char *cmd = argv[0];
    bool only_files = false;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!only_files && arg[0] == '-' && arg[1] != '\0') {
            if (strcmp(arg, "--") == 0) {
                only_files = true;
            } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
                fputs(help, stdout);
                return -1;
            } else if ((allowed & CLI_OPT_HEX) && strcmp(arg, "--hex") == 0) {
                o->hex = true;
            } else if ((allowed & CLI_OPT_STRICT) && strcmp(arg, "--strict") == 0) {
                o->strict = true;
            } else if ((allowed & CLI_OPT_NO_CUSTOM) && strcmp(arg, "--no-custom") == 0) {
                o->no_custom = true;
            } else if ((allowed & CLI_OPT_PRETTY) && strcmp(arg, "--pretty") == 0) {
                o->pretty = true;
            } else if ((allowed & CLI_OPT_MAX_DEPTH) && is_option(arg, "--max-depth")) {
                const char *v = option_value(argc, argv, &i, "--max-depth");
                char *end = NULL;
                errno = 0;
                unsigned long d =
                    v != NULL && v[0] >= '0' && v[0] <= '9' ? strtoul(v, &end, 10) : 0;
                if (v == NULL || end == NULL || *end != '\0' || errno != 0 || d < 1 ||
                    d > SMC_MAX_DEPTH_LIMIT) {
                    cli_fail("smc %s: --max-depth needs a number in 1..%u", cmd,
                             (unsigned)SMC_MAX_DEPTH_LIMIT);
                    return CLI_EXIT_USAGE;
                }
                o->max_depth = (uint32_t)d;
            } else if ((allowed & CLI_OPT_AS) && is_option(arg, "--as")) {
                const char *v = option_value(argc, argv, &i, "--as");
                if (v == NULL || !smct_entry_from_name(v, strlen(v), &o->entry)) {
                    cli_fail("smc %s: --as needs one of message, call, envelope", cmd);
                    return CLI_EXIT_USAGE;
                }
            } else {
                cli_fail("smc %s: unknown option '%s' (see smc %s --help)", cmd, arg, cmd);
                return CLI_EXIT_USAGE;
            }
            continue;
        }
        if (!(allowed & CLI_OPT_FILE) || o->input != NULL) {
            cli_fail("smc %s: unexpected argument '%s' (see smc %s --help)", cmd, arg, cmd);
            return CLI_EXIT_USAGE;
        }
        o->input = arg;
    }
    if ((allowed & CLI_OPT_FILE) && o->input == NULL) {
        cli_fail("smc %s: missing input FILE (use - for standard input; see smc %s --help)", cmd,
                 cmd);
        return CLI_EXIT_USAGE;
    }
    return CLI_EXIT_OK;
}

smc_decode_opts_t cli_decode_opts(const cli_opts_t *o)
{
    smc_decode_opts_t opts;
    opts.flags = o->strict ? SMC_MODE_STRICT : SMC_MODE_FLUTTER;
    if (o->no_custom) {
        opts.flags |= SMC_REJECT_CUSTOM;
    }
    opts.max_depth = o->max_depth;
    return opts;
}

int cli_load_input(const cli_opts_t *o, uint8_t **data, size_t *len)
{
    char msg[512];
    uint8_t *raw = NULL;
    size_t raw_len = 0;
    *data = NULL;
    *len = 0;
    smct_status_t st = smct_read_file(o->input, CLI_MAX_INPUT, &raw, &raw_len, msg, sizeof msg);
    if (st != SMCT_OK) {
        cli_fail("%s", msg);
        return CLI_EXIT_USAGE;
    }
    if (!o->hex) {
        *data = raw;
        *len = raw_len;
        return CLI_EXIT_OK;
    }
    uint8_t *bytes = malloc(raw_len / 2 + 1);
    if (bytes == NULL) {
        smct_io_free(raw);
        cli_fail("out of memory");
        return CLI_EXIT_USAGE;
    }
    smct_error_t e;
    size_t n = 0;
    st = smct_hex_decode_lenient((const char *)raw, raw_len, bytes, &n, &e);
    smct_io_free(raw);
    if (st != SMCT_OK) {
        free(bytes);
        /* Offsets here are in the hex text, not in the bytes it would decode to. */
        cli_report("bad_hex", e.offset, e.message);
        return CLI_EXIT_INVALID;
    }
    *data = bytes;
    *len = n;
    return CLI_EXIT_OK;
}

/* The first failure writing to stdout (its errno), so that however many writes fail, a
 * command reports it once. */
static int out_errno;
static bool out_failed;

bool cli_out(const void *buf, size_t len)
{
    if (out_failed) {
        return false;
    }
    if (len > 0 && fwrite(buf, 1, len, stdout) != len) {
        out_errno = errno;
        out_failed = true;
        return false;
    }
    return true;
}

bool cli_out_flush(void)
{
    static bool reported;
    if (!out_failed && (fflush(stdout) != 0 || ferror(stdout))) {
        out_errno = errno;
        out_failed = true;
    }
    if (out_failed && !reported) {
        reported = true;
        cli_fail("cannot write to standard output: %s",
                 out_errno != 0 ? strerror(out_errno) : "write error");
    }
    return !out_failed;
}

bool cli_write_stdout(const void *buf, size_t len)
{
    cli_out(buf, len);
    return cli_out_flush();
}
