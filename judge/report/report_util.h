/**
 * @file report_util.h
 * @brief What every report shares: the section matrix, hex diffs, replay commands.
 */
#ifndef SMCJ_REPORT_UTIL_H
#define SMCJ_REPORT_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "alloc.h"
#include "escape.h"
#include "model.h"

/** One cell of the runners × sections matrix. */
typedef struct smcj_cell {
    size_t pass, fail, fail_info, differs, xfail, xpass, skipped, na, placement, unsupported;
    size_t unclassified; /* unclassified rejections (spec R1.4-15), gated or not */
    size_t applicable;   /* everything but n/a */
} smcj_cell_t;

typedef struct smcj_matrix {
    char **rows; /* section keys, in spec order */
    size_t n_rows;
    smcj_cell_t *cells; /* n_rows × n_runners, row-major */
    size_t n_runners;
    bool top_level; /* rows are top-level sections ("6"), else "6.2" */
} smcj_matrix_t;

/** Group selected vectors by section (`top_level`: "6"; otherwise "6.2"). */
void smcj_matrix_build(smcj_matrix_t *m, const smcj_run_t *run, bool top_level);
void smcj_matrix_free(smcj_matrix_t *m);
smcj_cell_t *smcj_matrix_cell(const smcj_matrix_t *m, size_t row, size_t runner);
/** The row of a vector's section, or SIZE_MAX. */
size_t smcj_matrix_row_of(const smcj_matrix_t *m, const char *section);

/**
 * Hex dump of expected vs actual around the first difference: ±16 bytes, one line each,
 * and a caret line under the first differing byte. Each line starts with `indent`.
 */
void smcj_hexdiff(smct_buf_t *b, const char *indent, const uint8_t *exp, size_t exp_len,
                  const uint8_t *act, size_t act_len);

/** The replay command up to the vector's quoted id: `... --runner 'NAME=CMD' --only `. */
void smcj_replay_prefix(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r);

/** As smcj_hexdiff, of strings of which `exp_kept` and `act_kept` bytes from offset `from`
 * are at exp and act, their first difference at `first` (kept_value.h). */
void smcj_hexdiff_kept(smct_buf_t *b, const char *indent, const uint8_t *exp, size_t exp_len,
                       const uint8_t *act, size_t act_len, size_t from, size_t exp_kept,
                       size_t act_kept, size_t first);

/** `smc conformance --vectors DIR --runner 'NAME=CMD' --only 'ID'` for one vector. */
void smcj_replay_command(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r,
                         const smcj_vector_t *v);

/** Longest request shown inline in a raw command; longer ones are replayed from a file. */
#define SMCJ_RAW_INLINE 4096u

/** The hello and the request of check `c`, each with its newline: a replay file's text. */
void smcj_replay_lines(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r,
                       const smcj_check_t *c);

/** `printf '%s\n' '<hello>' '<request>' | CMD` for one check (protobuf --debug style), or
 *  `CMD < FILE` when the request is longer than SMCJ_RAW_INLINE bytes (c->replay_file). */
void smcj_raw_command(smct_buf_t *b, const smcj_run_t *run, const smcj_runner_t *r,
                      const smcj_check_t *c);

/** Longest expected/actual text the people-facing reports print (the JSON report has it all). */
#define SMCJ_SHOWN_TEXT 2000u

/** Append `s`, cut to SMCJ_SHOWN_TEXT bytes with a note of the full length. */
void smcj_buf_shown(smct_buf_t *b, const char *s);

/** "float32list (decode, encode; R6.5-1, MUST) — 297 vectors" (spec §1.4, R1.4-11). */
void smcj_feature_verdict_text(smct_buf_t *b, const smcj_feature_verdict_t *f);

/**
 * What a reader must know about the runner's declaration to trust its verdicts, one note per
 * call of `emit` (text without a final newline): offsets or classes not compared, placement
 * not tested, integers by value, maps as multisets, a borrowed input, Pigeon's widths, nesting
 * vectors held to R1.4-8 only.
 */
void smcj_declaration_notes(const smcj_runner_t *r, void (*emit)(void *ctx, const char *note),
                            void *ctx);

/** Statuses that get a details section: FAIL, FAIL_INFO, DIFFERS, PLACEMENT(_INFO). */
bool smcj_status_has_details(smcj_status_t s);

/** The check that decided a result: its placement check for PLACEMENT*, else first_check
 *  (SIZE_MAX when nothing failed or was skipped). */
size_t smcj_result_check(const smcj_result_t *res);

/** "behaves like CPP, GLIB: keeps the raw bytes" for a differing result that matched a
 *  listed alternative, "none of the listed behaviours" otherwise; NULL if not DIFFERS. */
char *smcj_alternative_text(const smcj_vector_t *v, const smcj_result_t *res);

/** The implementations of every listed alternative with the outcome of alternative `alt`,
 *  joined ("JAVA, GLIB"): several behaviours can give one outcome on one vector. */
char *smcj_alternative_who(const smcj_vector_t *v, int alt);

/** "placement (required): wrong_value at 3 bytes past an aligned address", NULL otherwise. */
char *smcj_placement_text(const smcj_vector_t *v, const smcj_result_t *res);

#endif /* SMCJ_REPORT_UTIL_H */
