/**
 * @file smct_io.h
 * @brief Read a whole file (or stdin) into memory with a size limit, and read lines.
 */
#ifndef SMCT_IO_H
#define SMCT_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "smct_buf.h"
#include "smct_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Default limit of smct_read_file when max_size is 0: 256 MiB. */
#define SMCT_IO_DEFAULT_MAX_SIZE ((size_t)256u << 20)

/**
 * Read all of `path` ("-" means stdin) into a new heap block.
 *
 * @param path     file name, or "-" for standard input.
 * @param max_size largest accepted size in bytes; 0 → SMCT_IO_DEFAULT_MAX_SIZE.
 * @param data     set to a malloc'd block of *len bytes plus one NUL byte after them (so text
 *                 can be used as a C string); free it with smct_io_free. NULL on failure.
 * @param len      set to the number of bytes read.
 * @param errbuf   optional; on failure receives a one-line human message naming the file and
 *                 the OS error (e.g. "cannot open 'x.bin': No such file or directory").
 * @return SMCT_OK, SMCT_ERR_IO, SMCT_ERR_TOO_LARGE, SMCT_ERR_NOMEM, SMCT_ERR_USAGE.
 */
smct_status_t smct_read_file(const char *path, size_t max_size, uint8_t **data, size_t *len,
                             char *errbuf, size_t errbuf_size);

/** Read all of an open stream (same contract as smct_read_file; `name` is for messages). */
smct_status_t smct_read_stream(FILE *f, const char *name, size_t max_size, uint8_t **data,
                               size_t *len, char *errbuf, size_t errbuf_size);

/**
 * Write `len` bytes to `path` ("-" means stdout, which is flushed), replacing the file.
 * @return SMCT_OK, or SMCT_ERR_IO with a one-line message naming the file and the OS error.
 */
smct_status_t smct_write_file(const char *path, const void *data, size_t len, char *errbuf,
                              size_t errbuf_size);

/** Free a block from smct_read_file / smct_read_stream (NULL is fine). */
void smct_io_free(uint8_t *data);

/** Result of smct_read_line. */
typedef enum smct_line_status {
    SMCT_LINE_OK = 0,  /**< A line was read (without its "\n"; a "\r" before it is kept). */
    SMCT_LINE_EOF = 1, /**< End of input, nothing read. */
    SMCT_LINE_TOO_LONG =
        2,              /**< The line exceeded max_len; the rest of it was consumed and dropped. */
    SMCT_LINE_ERROR = 3 /**< Read error or out of memory. */
} smct_line_status_t;

/**
 * Read one "\n"-terminated line from `f` into `line` (cleared first). A last line without
 * "\n" is returned as a line. At most `max_len` bytes are kept (0 → no limit).
 */
smct_line_status_t smct_read_line(FILE *f, smct_buf_t *line, size_t max_len);

#ifdef __cplusplus
}
#endif

#endif /* SMCT_IO_H */
