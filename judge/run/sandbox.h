/**
 * @file sandbox.h
 * @brief The optional sandbox every runner process runs in (--sandbox auto|bwrap|none):
 *        bubblewrap with a read-only file system, its own PID, IPC and network namespaces, no
 *        capabilities, a private /tmp, and the judge's own files (reports, expected-failure
 *        lists, vector files, --sandbox-hide paths) hidden.
 *
 * The judge starts each runner command (first start, restarts, the spare) as
 * `bwrap WORDS -- COMMAND` (proc.h, smcj_proc_set_wrapper). Seen from the judge, the runner's
 * processes are the bwrap process it started, bwrap's init in the new PID namespace, and the
 * runner below them: the memory and the process tree are measured from outside as before, and
 * killing the bwrap process group (or the namespace's init) kills everything inside
 * (judge/README.md, "Sandbox").
 */
#ifndef SMCJ_SANDBOX_H
#define SMCJ_SANDBOX_H

#include <stdbool.h>
#include <stddef.h>

typedef enum smcj_sandbox_mode {
    SMCJ_SANDBOX_NONE,  /* --sandbox none (the judge's default) */
    SMCJ_SANDBOX_AUTO,  /* bwrap where `bwrap` runs here, else none, said so */
    SMCJ_SANDBOX_BWRAP, /* bwrap, or a setup error */
} smcj_sandbox_mode_t;

typedef struct smcj_sandbox {
    bool used;        /* the runners run inside bwrap */
    bool network_off; /* with a network namespace of their own */
    char *note;       /* one line for the reports: what it is, or why there is none */
    char **words;     /* bwrap and its options, ending with "--" and NULL; NULL when not used */
    size_t n_words, cap_words;
} smcj_sandbox_t;

/** `auto`, `bwrap` or `none`; false for another word. */
bool smcj_sandbox_parse_mode(const char *word, smcj_sandbox_mode_t *mode);

/**
 * Decide the sandbox: with `auto` or `bwrap`, find bwrap on PATH and run it once with the
 * options the runners get (a network namespace is dropped, and said so, where bwrap cannot
 * make one). `hide` are files and folders the runner must not read nor write (missing ones,
 * and those under /tmp, which the private /tmp hides, are skipped); `write` folders it may
 * write (bound read-write). False with a message in `err` when `bwrap` was asked for and
 * cannot run, when a `write` folder is not one, or when it holds a `hide` path (the runner
 * could put a link where the judge writes); `auto` without a working bwrap is true, unused,
 * with the reason in `note`.
 */
bool smcj_sandbox_prepare(smcj_sandbox_t *sb, smcj_sandbox_mode_t mode, char *const *hide,
                          size_t n_hide, char *const *write, size_t n_write, char *err,
                          size_t err_size);

void smcj_sandbox_free(smcj_sandbox_t *sb);

#endif /* SMCJ_SANDBOX_H */
