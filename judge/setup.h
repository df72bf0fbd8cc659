/**
 * @file setup.h
 * @brief What can be known wrong before any runner starts: a report path that cannot be
 *        written, a runner program that is not there or cannot run. A setup error is exit 2
 *        with one line and no verdict (docs/ci.md: a 2 never means a codec failed), found
 *        before the run rather than after it.
 */
#ifndef SMCJ_SETUP_H
#define SMCJ_SETUP_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"

/** True when every output path is writable and every runner's program can be run; else
 *  false with the first problem, one line, in `err`. */
bool smcj_setup_check(const smcj_opts_t *o, char *err, size_t err_size);

#endif /* SMCJ_SETUP_H */
