/**
 * @file diag_faults.h
 * @brief The kind of failure a runner's `crash` or `rejected` answer names (P.3 `kind`, the
 *        host's word for it), read as one of the catalogue's fault kinds (smcm_fault_t), so
 *        the diagnosis can compare a crash with a replay's crash by kind.
 */
#ifndef SMCJ_DIAG_FAULTS_H
#define SMCJ_DIAG_FAULTS_H

#include <stdbool.h>

#include "smcm_codec.h"

/**
 * The fault kind `kind` names: the catalogue's own ids ("allocation", ...) and the names
 * hosts give those failures (OutOfMemoryError, std::bad_alloc, NegativeArraySizeException,
 * StackOverflowError, BufferUnderflowException, RangeError, ...), compared after the last
 * `.` or `::` ("java.lang.OutOfMemoryError" is OutOfMemoryError). SMCM_FAULT_NONE for NULL
 * and for a name not in the table (a kind that says nothing of its cause: "panic", a signal).
 */
smcm_fault_t smcj_fault_of_kind(const char *kind);

#endif /* SMCJ_DIAG_FAULTS_H */
