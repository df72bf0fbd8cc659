/* `smc`: the command-line tool of the reference codec. Dispatches to the commands. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "judge.h"
#include "smc_bench.h"

static const char main_help[] =
    "usage: smc <command> [options]\n"
    "\n"
    "The StandardMessageCodec reference codec and conformance tool.\n"
    "\n"
    "Commands:\n"
    "  decode       bytes -> value notation (spec/notation.md)\n"
    "  encode       value notation -> canonical bytes (spec §13)\n"
    "  inspect      annotated dump of the bytes: offsets, sizes, padding, paths\n"
    "  conformance  run codec runners against the golden vectors (the judge)\n"
    "  bench        benchmarks\n"
    "\n"
    "Run 'smc <command> --help' for the options of a command. 'smc --version' prints the\n"
    "versions of the tool, the library, the spec, the vectors and the runner protocol.\n"
    "\n"
    "Exit status: 0 success, 1 invalid input, 2 usage or I/O error. Invalid input is reported\n"
    "as one line on stderr: \"error: <class> at offset <N>: <message>\" (classes:\n"
    "spec/errors.md).\n";

int main(int argc, char **argv)
{
    if (argc < 2) {
        fputs("error: no command given\n\n", stderr);
        fputs(main_help, stderr);
        return CLI_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        fputs(main_help, stdout);
        return CLI_EXIT_OK;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
        /* One "name version" per line. The library's is libsmc's own (a shared libsmc may be
         * newer than the tool); the others were read by cmake/SmcSuite.cmake from the files
         * that define them (docs/versioning.md). */
        printf("smc %s\nlibrary %s (libsmc)\nspec %s\nvectors %s (format %d)\nprotocol %d\n",
               SMC_VERSION_STRING, smc_version(), SMC_CLI_SPEC_VERSION, SMC_CLI_VECTORS_VERSION,
               SMC_CLI_VECTORS_FORMAT, SMC_CLI_PROTOCOL_VERSION);
        return CLI_EXIT_OK;
    }
    /* Each command sees argv[0] = its own name. */
    if (strcmp(cmd, "decode") == 0) {
        return cli_cmd_decode(argc - 1, argv + 1);
    }
    if (strcmp(cmd, "encode") == 0) {
        return cli_cmd_encode(argc - 1, argv + 1);
    }
    if (strcmp(cmd, "inspect") == 0) {
        return cli_cmd_inspect(argc - 1, argv + 1);
    }
    if (strcmp(cmd, "conformance") == 0) {
        return smc_judge_main(argc - 1, argv + 1);
    }
    if (strcmp(cmd, "bench") == 0) {
        return smc_bench_main(argc - 1, argv + 1);
    }
    cli_fail("unknown command '%s' (see smc --help)", cmd);
    return CLI_EXIT_USAGE;
}
