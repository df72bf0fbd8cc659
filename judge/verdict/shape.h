/**
 * @file shape.h
 * @brief The depth, value count and payload bytes of a value (runners/PROTOCOL.md P.3
 *        `summary`), from an input's bytes or from a parsed value, without recursion and
 *        without a depth limit: what the judge checks a runner's summary of a value too
 *        large to print against (a codec without a depth limit that accepted a bomb).
 */
#ifndef SMCJ_SHAPE_H
#define SMCJ_SHAPE_H

#include <stdbool.h>
#include <stdint.h>

#include "smct_doc.h"
#include "smct_summary.h"

/** Depth, values, bytes: the fields of a P.3 summary (notation's smct_summary_t). */
typedef smct_summary_t smcj_shape_t;

/**
 * The shape of the value an input of `entry` carries (a message's value, a call's arguments,
 * an envelope's result or details), read as a flutter-mode decoder without a depth limit
 * reads it. False, with the class and offset of spec/errors.md, when such a decoder rejects
 * the input (UTF-8 is not checked: only the structure is). Out of memory is recorded (alloc.h).
 */
bool smcj_shape_of_input(const uint8_t *data, size_t len, smc_entry_t entry, smcj_shape_t *out,
                         const char **cls, uint64_t *offset);

/** The shape of the value `doc` carries (smct_summary_of); false when out of memory (recorded). */
bool smcj_shape_of_doc(const smct_doc_t *doc, smcj_shape_t *out);

#endif /* SMCJ_SHAPE_H */
