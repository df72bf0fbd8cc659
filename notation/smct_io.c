/* Whole-file and line input with limits (see smct_io.h). */
#include "smct_io.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static void set_msg(char *errbuf, size_t errbuf_size, const char *what, const char *name,
                    const char *why)
{
    if (errbuf != NULL && errbuf_size > 0) {
        (void)snprintf(errbuf, errbuf_size, "%s '%s': %s", what, name, why);
    }
}

smct_status_t smct_read_stream(FILE *f, const char *name, size_t max_size, uint8_t **data,
                               size_t *len, char *errbuf, size_t errbuf_size)
{
    if (data == NULL || len == NULL || f == NULL) {
        return SMCT_ERR_USAGE;
    }
    *data = NULL;
    *len = 0;
    if (name == NULL) {
        name = "(stream)";
    }
    if (max_size == 0) {
        max_size = SMCT_IO_DEFAULT_MAX_SIZE;
    }
    smct_buf_t buf;
    smct_buf_init(&buf);
    /* Reading in chunks works for pipes and terminals as well as regular files, and stops
     * as soon as the limit is passed instead of trusting a size reported up front. */
    for (;;) {
        if (!smct_buf_reserve(&buf, 65536)) {
            smct_buf_free(&buf);
            set_msg(errbuf, errbuf_size, "cannot read", name, "out of memory");
            return SMCT_ERR_NOMEM;
        }
        size_t room = buf.cap - buf.len - 1;
        size_t got = fread(buf.data + buf.len, 1, room, f);
        buf.len += got;
        buf.data[buf.len] = '\0';
        if (buf.len > max_size) {
            smct_buf_free(&buf);
            char why[96];
            (void)snprintf(why, sizeof why, "larger than the limit of %zu bytes", max_size);
            set_msg(errbuf, errbuf_size, "cannot read", name, why);
            return SMCT_ERR_TOO_LARGE;
        }
        if (got < room) {
            if (ferror(f)) {
                int e = errno;
                smct_buf_free(&buf);
                set_msg(errbuf, errbuf_size, "cannot read", name,
                        e != 0 ? strerror(e) : "read error");
                return SMCT_ERR_IO;
            }
            if (feof(f)) {
                break;
            }
        }
    }
    if (buf.data == NULL) {
        /* Never hand back NULL on success: callers may index data[len]. */
        buf.data = malloc(1);
        if (buf.data == NULL) {
            set_msg(errbuf, errbuf_size, "cannot read", name, "out of memory");
            return SMCT_ERR_NOMEM;
        }
        buf.data[0] = '\0';
    }
    *data = (uint8_t *)buf.data;
    *len = buf.len;
    return SMCT_OK;
}

smct_status_t smct_read_file(const char *path, size_t max_size, uint8_t **data, size_t *len,
                             char *errbuf, size_t errbuf_size)
{
    if (path == NULL || data == NULL || len == NULL) {
        return SMCT_ERR_USAGE;
    }
    if (strcmp(path, "-") == 0) {
        return smct_read_stream(stdin, "<stdin>", max_size, data, len, errbuf, errbuf_size);
    }
    errno = 0;
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        *data = NULL;
        *len = 0;
        set_msg(errbuf, errbuf_size, "cannot open", path,
                errno != 0 ? strerror(errno) : "unknown error");
        return SMCT_ERR_IO;
    }
    smct_status_t st = smct_read_stream(f, path, max_size, data, len, errbuf, errbuf_size);
    (void)fclose(f);
    return st;
}

smct_status_t smct_write_file(const char *path, const void *data, size_t len, char *errbuf,
                              size_t errbuf_size)
{
    bool to_stdout = strcmp(path, "-") == 0;
    errno = 0;
    FILE *f = to_stdout ? stdout : fopen(path, "wb");
    if (f == NULL) {
        set_msg(errbuf, errbuf_size, "cannot write", path,
                errno != 0 ? strerror(errno) : "unknown error");
        return SMCT_ERR_IO;
    }
    bool ok = len == 0 || fwrite(data, 1, len, f) == len;
    ok = (to_stdout ? fflush(f) == 0 : fclose(f) == 0) && ok;
    if (!ok) {
        set_msg(errbuf, errbuf_size, "cannot write", to_stdout ? "<stdout>" : path,
                errno != 0 ? strerror(errno) : "unknown error");
        return SMCT_ERR_IO;
    }
    return SMCT_OK;
}

void smct_io_free(uint8_t *data)
{
    free(data);
}

smct_line_status_t smct_read_line(FILE *f, smct_buf_t *line, size_t max_len)
{
    smct_buf_clear(line);
    bool any = false;
    bool too_long = false;
    int c;
    while ((c = getc(f)) != EOF) {
        any = true;
        if (c == '\n') {
            break;
        }
        if (max_len != 0 && line->len >= max_len) {
            too_long = true; /* keep consuming up to the newline so the next line is intact */
            continue;
        }
        smct_buf_putc(line, (char)c);
        if (!smct_buf_ok(line)) {
            return SMCT_LINE_ERROR;
        }
    }
    if (c == EOF && ferror(f)) {
        return SMCT_LINE_ERROR;
    }
    if (!any) {
        return SMCT_LINE_EOF;
    }
    if (line->data == NULL) {
        smct_buf_append(line, "", 0); /* an empty line still gets a terminated buffer */
    }
    return too_long ? SMCT_LINE_TOO_LONG : SMCT_LINE_OK;
}
