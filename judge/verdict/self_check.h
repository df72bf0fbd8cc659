/**
 * @file self_check.h
 * @brief Self-consistency (spec R1.4-18): a codec reads back what it writes. For every value
 *        vector, the bytes the codec's encoder wrote in the encode check are decoded by the
 *        same codec, whatever it declares, and must give the value back.
 */
#ifndef SMCJ_SELF_CHECK_H
#define SMCJ_SELF_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "alloc.h"
#include "escape.h"
#include "model.h"
#include "session.h"
#include "smct_json.h"

/** Hex characters of an encode answer that are not the canonical bytes kept for the self
 * check (1 MiB of bytes): a longer answer's self check is not applicable, said so. Bounds
 * what the judge holds between an encode check and its self check (judge/README.md). */
#define SMCJ_SELF_MAX_HEX (2u << 20)
/** Hex characters of such answers kept over a whole judge run (32 MiB of bytes): past it, a
 * self check whose bytes are not the canonical ones is not applicable, said so. */
#define SMCJ_SELF_MAX_HELD (64u << 20)

/* smcj_self_step_t, what the session does with a self check, is session.h's. */

/** After smcj_expect: the check's tier and expectations (no declaration relaxes it). */
void smcj_self_expect(smcj_check_t *c, const smcj_runner_t *r, const smcj_vector_t *v);

/** ENCODE check `c` got an ok answer: remember whether it wrote bytes, and which when they are
 *  not the vector's canonical ones. */
void smcj_self_note_encode(smcj_check_t *c, const smcj_vector_t *v, const smct_json_t *resp);

/** Self check `ci` of runner `r` is next to send: wait, send it, or decide it now. */
smcj_self_step_t smcj_self_prepare(smcj_runner_t *r, size_t ci);

/** Its request line (P.2 decode, flutter mode, of the codec's own bytes; no newline). */
void smcj_self_request_line(smct_buf_t *b, unsigned long long seq, const smcj_vector_t *v,
                            const smcj_check_t *c);

/** Its verdict on a protocol-valid ok, error, not_implemented or rejected answer. */
void smcj_self_verdict(smcj_check_t *c, const smcj_vector_t *v, const smct_json_t *resp,
                       const char *status, smc_arena_t *arena);

/** Count the runner's self-consistency checks (n_self_*), after the run. */
void smcj_self_count(smcj_runner_t *r);

/** Emit the report line of runner `r` (how many it read back, how many it could not), or
 *  nothing when none of its self-consistency checks ran. */
void smcj_self_note(const smcj_runner_t *r, void (*emit)(void *ctx, const char *note), void *ctx);

#endif /* SMCJ_SELF_CHECK_H */
