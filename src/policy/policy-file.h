/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

/* Reads a policy file (at most max_size bytes) without ever blocking on
 * something that is not a file: it is opened non-blocking and must be a
 * regular file. Returns 0, -EFBIG when larger than max_size, -EMEDIUMTYPE
 * when it is not a regular file (*ret_type then says what it is: "a
 * directory", "a FIFO"...), or another negative errno. */
int policy_file_read(const char *path, size_t max_size, char **ret, size_t *ret_size, const char **ret_type);
