/**
 * @file handshake.h
 * @brief The runner's answer to hello (runners/PROTOCOL.md P.1): checked, and on the first
 *        start turned into the runner's entry points, capabilities and options.
 */
#ifndef SMCJ_HANDSHAKE_H
#define SMCJ_HANDSHAKE_H

#include <stdbool.h>

#include "model.h"
#include "smct_buf.h"
#include "smct_json.h"

/**
 * Check the hello answer `resp` (a parsed JSON object) of runner `r`. On the first start
 * (`first_start`) fill r's codec, entries, capabilities, options and handshake_note (unknown
 * words, which are ignored); a respawned runner is the same program, so later answers are
 * only checked. NULL when the answer is good, else a heap string saying what is wrong.
 */
char *smcj_handshake_take(smcj_runner_t *r, const smct_json_t *resp, bool first_start);

/** The hello line of P.1 (without newline). */
void smcj_hello_line(smct_buf_t *b);

#endif /* SMCJ_HANDSHAKE_H */
