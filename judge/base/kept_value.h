/**
 * @file kept_value.h
 * @brief What the judge keeps of a failing check's values (issue 26): a bounded prefix, and
 *        of the rest its size and SHA-256, so the judge's memory and its reports are bounded
 *        by what it keeps, not by what a runner sends.
 */
#ifndef SMCJ_KEPT_VALUE_H
#define SMCJ_KEPT_VALUE_H

#include "model.h"

/** Bytes of an expected or actual text (notation, hex) kept; the rest is named by its size
 * and SHA-256. */
#define SMCJ_KEPT_TEXT 4096u

/** Bytes of an expected or actual byte string kept for the hex diff: a window around the
 * first difference. */
#define SMCJ_KEPT_BYTES 4096u

/**
 * Cut the values of check `c` to what is kept: a text over SMCJ_KEPT_TEXT bytes becomes its
 * first bytes (cut at a UTF-8 boundary) and "… (N bytes in all, SHA-256 H)", H that of the
 * whole text; byte strings over SMCJ_KEPT_BYTES keep a window around their first difference
 * (c->bytes_from, c->exp_kept, c->act_kept; exp_len and act_len stay the full sizes).
 * c->values_cut says something was cut, c->answer_cut that the runner's answer was, so the
 * diagnosis does not compare a replay with a part of it (diag_replay.c).
 * Out of memory is recorded (alloc.h).
 */
void smcj_keep_bounded(smcj_check_t *c);

/** Where the "… (N bytes in all, SHA-256 H)" of a kept text starts, or NULL: a text shown
 * shorter still (report_util.c) keeps it. */
const char *smcj_kept_marker(const char *s);

#endif /* SMCJ_KEPT_VALUE_H */
