/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fileio.h"
#include "macro.h"
#include "strbuf.h"

int read_full_fd(int fd, size_t max_size, char **ret, size_t *ret_size) {
        struct stat st;

        if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
                return read_full_fd_sized(fd, st.st_size, max_size, ret, ret_size);
        return read_full_fd_sized(fd, 0, max_size, ret, ret_size);
}

static int stat_verify_regular(const struct stat *st) {
        if (S_ISDIR(st->st_mode))
                return -EISDIR;
        return S_ISREG(st->st_mode) ? 0 : -EBADFD;
}

/* Reads fd to its end into b, which may hold the file's first bytes
 * already; the result is handed over NUL-terminated. */
static int read_rest(int fd, StrBuf *buf, off_t size_hint, size_t max_size, char **ret, size_t *ret_size) {
        _cleanup_(strbuf_done) StrBuf b = *buf;
        struct stat st = { .st_size = size_hint };
        int r;

        *buf = (StrBuf) {};

        if (st.st_size > 0) {
                if ((unsigned long long) st.st_size > max_size)
                        return -EFBIG;
                /* One byte more than the size, so that the read that
                 * sees the end needs no larger buffer. */
                r = strbuf_reserve(&b, (size_t) st.st_size + 1);
                if (r < 0)
                        return r;
        }

        for (;;) {
                ssize_t n;

                /* Grow only when full: a file of known size is read into a
                 * buffer of its size, not a 64 KiB one. */
                if (!b.data || b.allocated - b.len - 1 == 0) {
                        r = strbuf_reserve(&b, 65536);
                        if (r < 0)
                                return r;
                }
                n = read(fd, b.data + b.len, b.allocated - b.len - 1);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                if (n == 0)
                        break;
                b.len += (size_t) n;
                if (b.len > max_size)
                        return -EFBIG;
                /* A regular file that gave exactly the size fstat reported
                 * is complete: the read that would return 0 is skipped (one
                 * syscall per file, a quarter of a --root run's). A file
                 * that grows meanwhile is read as it was at fstat time. */
                if (size_hint > 0 && b.len == (size_t) size_hint)
                        break;
        }
        r = strbuf_reserve(&b, 0);
        if (r < 0)
                return r;
        b.data[b.len] = '\0';

        *ret_size = b.len;
        *ret = strbuf_steal(&b);
        return 0;
}

int read_full_fd_sized(int fd, off_t size_hint, size_t max_size, char **ret, size_t *ret_size) {
        StrBuf b = {};

        return read_rest(fd, &b, size_hint, max_size, ret, ret_size);
}

int read_full_fd_regular(int fd, size_t max_size, char **ret, size_t *ret_size) {
        char first[16384], *p;
        StrBuf b = {};
        ssize_t n;
        int r;

        do
                n = read(fd, first, sizeof(first));
        while (n < 0 && errno == EINTR);
        if (n < 0)
                return -errno;
        if ((size_t) n > max_size)
                return -EFBIG;
        if (n == 0) {
                /* Empty, or not a regular file after all (a FIFO put in
                 * its place reads as empty): fstat tells, for this rare
                 * case only. */
                struct stat st;

                if (fstat(fd, &st) < 0)
                        return -errno;
                r = stat_verify_regular(&st);
                if (r < 0)
                        return r == -EBADFD ? -EINVAL : r;
        }
        if ((size_t) n == sizeof(first)) {
                /* A larger file: the rest the usual way. */
                r = strbuf_append(&b, first, (size_t) n);
                if (r < 0) {
                        strbuf_done(&b);
                        return r;
                }
                return read_rest(fd, &b, 0, max_size, ret, ret_size);
        }
        /* A regular file reads short only at its end. */
        p = malloc((size_t) n + 1);
        if (!p)
                return -ENOMEM;
        memcpy(p, first, (size_t) n);
        p[n] = '\0';
        *ret = p;
        *ret_size = (size_t) n;
        return 0;
}

int read_full_file(const char *path, size_t max_size, char **ret, size_t *ret_size) {
        struct stat st;
        int fd, r;

        /* O_NONBLOCK: opening a FIFO must not wait for a writer. */
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0) {
                r = -errno;
                /* A socket cannot be opened at all. */
                if (r == -ENXIO && stat(path, &st) == 0 && stat_verify_regular(&st) < 0)
                        return stat_verify_regular(&st);
                return r;
        }
        if (fstat(fd, &st) < 0)
                r = -errno;
        else
                r = stat_verify_regular(&st);
        if (r >= 0)
                r = read_full_fd_sized(fd, st.st_size, max_size, ret, ret_size);
        close(fd);
        return r;
}

const char *read_error_to_string(int error) {
        return error == -EBADFD ? "not a regular file" : strerror(-error);
}

int loop_write(int fd, const void *data, size_t size) {
        const char *p = data;

        while (size > 0) {
                ssize_t n = write(fd, p, size);

                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                p += n;
                size -= (size_t) n;
        }
        return 0;
}

