/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "basic/dir-list.h"
#include "basic/strmap.h"

/* A directory tree seen as "/" (a DESTDIR, an image, or the host itself).
 * Every path below is written as seen from inside the root ("/usr/lib/...")
 * and resolved against the root's directory descriptor: a symlink, absolute
 * or relative, never leads out of the root, and ".." stops at it. */

typedef struct Root {
        int fd;                /* O_PATH descriptor of the root directory */
        char *dir;             /* as given; NULL for the host's "/" */
        /* The directories path resolution has found (lstat() said
         * S_IFDIR), by relative path, each a RootDir: a lookup resolves
         * "usr", "usr/lib", ... for every search directory and link target,
         * and asks the kernel once per directory. Only directories are
         * kept, never a miss or a symlink, so a file created meanwhile is
         * still seen. Owned; NULL (a Root set up by hand) looks every
         * component up. */
        StrMap *dirs;
} Root;

/* dir: NULL or "/" for the host. */
int root_open(const char *dir, Root *ret);
void root_done(Root *r);

/* Symlinks followed in one path resolution, as systemd's chase. */
#define ROOT_FOLLOW_MAX 32

typedef enum ChaseFlags {
        CHASE_NOFOLLOW_LAST = 1 << 0,  /* do not follow a symlink in the last component */
        CHASE_NONEXISTENT = 1 << 1,    /* missing components are fine: kept as written */
} ChaseFlags;

/* Resolves path (absolute, or relative to "/") inside the root and returns
 * it normalized, without symlinks or "."/".." components, always starting
 * with "/". -ELOOP after ROOT_FOLLOW_MAX links, -ENOENT/-ENOTDIR/-EACCES as
 * the file system says. A directory found once is taken as a directory for
 * the Root's lifetime (r->dirs): nothing in unitguard removes one. */
int root_chase(const Root *r, const char *path, ChaseFlags flags, char **ret);
/* The same, and what lstat() said of the result when the resolution looked
 * at it (a symlink too, with CHASE_NOFOLLOW_LAST); st_mode 0 when it did
 * not (a path kept as written, the root itself). */
int root_chase_stat(const Root *r, const char *path, ChaseFlags flags, char **ret, struct stat *ret_st);

/* Opens a resolved path (as root_chase returns) below the root. The last
 * component is not followed. */
int root_open_resolved(const Root *r, const char *resolved, int flags);

/* Joins a directory and a name seen from inside the root, without "//". */
char *root_path_join(const char *dir, const char *name);
/* The same in two steps, for callers with their own allocator: the bytes
 * the joined path takes with its NUL (0: too long), then the path
 * written to p, which has that many; p is returned. */
size_t root_path_join_size(const char *dir, const char *name);
char *root_path_join_to(char *p, const char *dir, const char *name);

/* Reads a regular file at a resolved path, with a size cap (-EFBIG). A
 * directory is -EISDIR, any other file type -EBADFD, "not a regular file"
 * to read_error_to_string() (never opened for reading in a way that could
 * block: FIFOs are opened non-blocking). */
int root_read_file(const Root *r, const char *resolved, size_t max_size, char **ret, size_t *ret_size);
/* The same for a file its directory listed as regular: no fstat. Should it
 * have become a symlink or a FIFO meanwhile, it is not followed or waited
 * on (-EBADFD). */
int root_read_regular_file(const Root *r, const char *resolved, size_t max_size, char **ret, size_t *ret_size);

/* Lists a resolved directory (the last component not followed) without
 * "." and "..", sorted by name (strcmp), its descriptor kept open in the
 * list for *at() calls. *ret is DIR_LIST_INIT on error. */
int root_list_dir(const Root *r, const char *resolved, DirList *ret);

/* 1 when path leads to a directory inside the root, 0 when not (or when it
 * cannot be resolved), -ENOMEM. */
int root_is_dir(const Root *r, const char *path);
