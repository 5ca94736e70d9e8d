/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>
#include <sys/types.h>

/* Reads a whole file (or fd) into a freshly allocated, NUL-terminated
 * buffer. Fails with -EFBIG when it is larger than max_size bytes. */
int read_full_fd(int fd, size_t max_size, char **ret, size_t *ret_size);
/* Only a regular file is read: a FIFO, socket or device might block
 * forever or never end, and is refused with -EBADFD without waiting (a
 * directory with -EISDIR). */
/* Like read_full_fd, for a caller that has the file's size from fstat
 * already (0: unknown). */
int read_full_fd_sized(int fd, off_t size_hint, size_t max_size, char **ret, size_t *ret_size);
/* For an fd the caller knows to be a regular file (its directory listing
 * said so), without fstat: a file under 16 KiB takes one read, since a
 * regular file reads short only at its end. Only an empty read is checked
 * with fstat: -EINVAL when it was not a regular file (a FIFO put in its
 * place), -EISDIR for a directory. */
int read_full_fd_regular(int fd, size_t max_size, char **ret, size_t *ret_size);
int read_full_file(const char *path, size_t max_size, char **ret, size_t *ret_size);
/* strerror() for the errors above, with -EBADFD as "not a regular file". */
const char *read_error_to_string(int error);

/* write(2) until done; -errno on failure (EPIPE included). */
int loop_write(int fd, const void *data, size_t size);
