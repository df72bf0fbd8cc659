/**
 * @file input_file.h
 * @brief Reading an input file the judge was pointed at (a vector file, an expected-failure
 *        list) without trusting it: only a regular file, and only up to a size.
 *
 * A FIFO named s99-x.json would block the judge forever, a symlink to /dev/zero would grow
 * until memory runs out, a 1 GB file would be loaded whole. Each is refused with a message.
 */
#ifndef SMCJ_INPUT_FILE_H
#define SMCJ_INPUT_FILE_H

#include <stddef.h>
#include <stdint.h>

#include "smct_error.h"

/** Largest vector file read (512 MiB: a 64 MiB value needs about 256 MiB of hex). */
#define SMCJ_MAX_VECTOR_FILE ((size_t)512u << 20)
/** Largest expected-failure list read. */
#define SMCJ_MAX_LIST_FILE ((size_t)16u << 20)

/**
 * Read all of `path` if it is a regular file (symlinks followed) of at most `max` bytes,
 * into a new block with a NUL after its `*len` bytes (free() it). Opening never blocks.
 * SMCT_OK; SMCT_ERR_IO with a one-line message in `err` (missing, not a regular file, too
 * large, a read error); SMCT_ERR_NOMEM (recorded).
 */
smct_status_t smcj_read_input_file(const char *path, size_t max, uint8_t **data, size_t *len,
                                   char *err, size_t err_size);

#endif /* SMCJ_INPUT_FILE_H */
