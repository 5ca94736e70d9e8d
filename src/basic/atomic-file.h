/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Replacing a file so that a reader sees either the old content or the
 * new, never a mix, and a failure at any point leaves the old file as it
 * was.
 *
 * How: the new content goes to a temporary file created next to the target
 * (same directory, so the same file system), named ".NAME.unitguard-XXXXXX",
 * created with O_EXCL and mode 0600; it is fsync'd, given its final mode
 * (and attributes), renamed over the target, and then the directory is
 * fsync'd so the rename itself is durable. The temporary file is removed
 * on every failure path.
 *
 * What may be replaced: a regular file, or nothing (the name is free).
 * The last component of path is never followed: a symbolic link there is
 * refused and left alone, as is a directory, a device node, a FIFO or a
 * socket. Directories in the path are followed as usual. A hard-linked
 * target gets a new inode: its other names keep the old content. */

#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

/* What identifies the content of a file as it was read: if any of these
 * differs when the file is about to be replaced, someone else changed it
 * in between. Fill it from the fstat() of the descriptor the content was
 * read from. */
typedef struct AtomicFileId {
        dev_t dev;
        ino_t ino;
        off_t size;
        struct timespec mtime;
} AtomicFileId;

void atomic_file_id_from_stat(const struct stat *st, AtomicFileId *ret);

enum {
        /* When the target exists, the new file gets its permission bits,
         * its owner and group (as far as the caller may set them: an
         * unprivileged caller keeps the group if it is one of its own and
         * otherwise its own ids), and its extended attributes. user.* and
         * system.posix_acl_* attributes must carry over or the call fails;
         * others (security.*, trusted.*) are copied where permitted. Without
         * this flag, and always for a new file, the mode is the one given. */
        ATOMIC_KEEP_ATTRS = 1 << 0,
        /* No fsync of the file or the directory: for files that need not
         * survive a crash (a generator's output under /run). A reader still
         * sees the old content or the new, never a mix. */
        ATOMIC_NO_SYNC = 1 << 1,
};

/* Writes size bytes at data to path as described above. mode: permission
 * bits of the new file (used as given, not filtered by the umask) unless
 * ATOMIC_KEEP_ATTRS keeps those of the file replaced.
 *
 * Returns 0, or a negative errno and path is untouched:
 *   -ELOOP    path is a symbolic link
 *   -EISDIR   path is a directory (or ends in '/')
 *   -EEXIST   path is something else that is not a regular file
 *             (device node, FIFO, socket)
 *   -ESTALE   the target changed while the new content was written (it
 *             appeared, disappeared or became another file), or it does
 *             not match *expected
 *   other     from the system calls: -EACCES, -EROFS, -ENOSPC, -EDQUOT,
 *             -EIO, -ENOENT (no such directory), ...; with
 *             ATOMIC_KEEP_ATTRS also when the old file cannot be opened
 *             to read its attributes, or a required one cannot be set
 * Exception: once the rename is done the target holds the new content; if
 * fsync of the directory fails after that, its error is returned although
 * the file was replaced (the rename may not survive a crash). */
int atomic_file_replace(const char *path, const void *data, size_t size, unsigned flags, mode_t mode);

/* The same, with the content produced by fill(userdata, fd), which writes
 * to the temporary file and returns 0 or a negative errno (then returned
 * as it is). With expected, the target must exist and still be the file
 * described there, checked before writing and again just before the
 * rename; otherwise -ESTALE. The second check narrows the window for a
 * concurrent writer, it cannot close it: unitguard does not lock. */
int atomic_file_replace_full(const char *path, const AtomicFileId *expected, unsigned flags, mode_t mode,
                             int (*fill)(void *userdata, int fd), void *userdata);
