/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Directories held open so that files below them are opened (or stat'ed)
 * with a short path: a path lookup costs the kernel about as much per
 * component as reading a small unit file, and a unit's path has six or
 * more. A directory is opened the first time a path below it is asked
 * for, once; one that cannot be opened is not tried again, and its paths
 * are used whole (so every error is the one the whole path gives). */

#include <stdbool.h>
#include <stddef.h>

typedef struct DirFd {
        char *path;            /* relative to the base (or absolute), without a trailing '/' */
        size_t len;
        int fd;                /* O_PATH; -EBADF before the first use, another negative errno after a failed open */
} DirFd;

typedef struct DirFds {
        int base;              /* what relative paths start from: AT_FDCWD or a root's descriptor */
        DirFd *items;
        size_t n, allocated;
        size_t last;           /* the entry that answered last: tried first */
        size_t max;            /* dir_fds_at() adds directories up to this many */
} DirFds;

#define DIR_FDS_INIT(b, m) ((DirFds) { .base = (b), .max = (m) })

/* Adds dir to the directories paths may be below (opened when first
 * needed; "/", "" and one held already are not added). 0 or -ENOMEM. */
int dir_fds_add(DirFds *d, const char *dir);

/* Where to open path: a descriptor and a name relative to it (*ret_name
 * points into path). The longest added directory that holds path, else
 * (add, and while fewer than max are held) path's own directory, added;
 * else the base and path itself. Never fails: without memory, or when the
 * directory cannot be opened, the base and path itself. */
int dir_fds_at(DirFds *d, const char *path, bool add, const char **ret_name);

void dir_fds_done(DirFds *d);
