/*
 * Input files read without trusting them (input_file.h). O_NONBLOCK makes opening a FIFO
 * return at once instead of waiting for a writer; fstat() of the open file then decides,
 * so a file swapped for a FIFO between a check and the open is refused too.
 */
#define _POSIX_C_SOURCE 200809L
#include "input_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"

static const char *kind_of(mode_t m)
{
    return S_ISFIFO(m)   ? "a FIFO"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISDIR(m)  ? "a directory"
           : S_ISSOCK(m) ? "a socket"
                         : "not a regular file";
}

smct_status_t smcj_read_input_file(const char *path, size_t max, uint8_t **data, size_t *len,
                                   char *err, size_t err_size)
{
    *data = NULL;
    *len = 0;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, err_size, "cannot open '%s': %s", path, strerror(errno));
        return SMCT_ERR_IO;
    }
    struct stat st;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, err_size, "'%s' is %s, not a regular file: refused", path,
                 fstat(fd, &st) == 0 ? kind_of(st.st_mode) : "unreadable");
        close(fd);
        return SMCT_ERR_IO;
    }
    if ((uint64_t)st.st_size > max) {
        snprintf(err, err_size, "'%s' has %lld bytes, more than the limit of %zu MiB: refused",
                 path, (long long)st.st_size, max >> 20);
        close(fd);
        return SMCT_ERR_IO;
    }
    size_t want = (size_t)st.st_size;
    uint8_t *buf = smcj_malloc(want + 1);
    if (!buf) {
        close(fd);
        return SMCT_ERR_NOMEM;
    }
    size_t got = 0;
    for (;;) {
        /* read one byte more than its size said: a file that grows meanwhile is seen */
        size_t room = want + 1 - got;
        ssize_t n = room ? read(fd, buf + got, room) : 0;
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            snprintf(err, err_size, "cannot read '%s': %s", path, strerror(errno));
            free(buf);
            close(fd);
            return SMCT_ERR_IO;
        }
        if (n == 0) {
            break;
        }
        got += (size_t)n;
        if (got > want) {
            snprintf(err, err_size, "'%s' grew while it was read: refused", path);
            free(buf);
            close(fd);
            return SMCT_ERR_IO;
        }
    }
    close(fd);
    buf[got] = '\0';
    *data = buf;
    *len = got;
    return SMCT_OK;
}
