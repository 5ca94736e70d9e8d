/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The types of many names in one directory from one read of its entries
 * (getdents64), where an fstatat() each would cost a system call per name:
 * what `check FILE...` does with many files named in one directory, and
 * bench/read-files --batch, its floor, does the same way. Nothing of the
 * listing is kept: each entry read is looked up among the names asked
 * about, so the memory touched is a small table, not every name of a
 * directory that may hold many more. */

#include <stddef.h>
#include <sys/types.h>

/* Listing pays from this many names in one directory... */
#define DIR_TYPES_MIN_NAMES 8
/* ...in a directory no larger (st_size) than this per name asked about:
 * some twenty entries each on the common file systems (an ext4 entry
 * takes ~50 bytes, btrfs twice the name, tmpfs 20). A few names in a
 * directory of a million entries cost less to stat one by one. */
#define DIR_TYPES_BYTES_PER_NAME 1024u

/* For each names[i] (an entry name: no '/'), types[i] = its d_type as the
 * directory open at dfd lists it (DT_REG, DT_DIR, DT_LNK...), or
 * DT_UNKNOWN where it is not listed or the file system gives no type: the
 * caller then looks at that name itself. A name may be asked about twice.
 * Returns 1 when the directory was read, 0 when listing would not pay (too
 * few names, too large a directory: every type DT_UNKNOWN), or a negative
 * errno (every type DT_UNKNOWN). */
int dir_types_of(int dfd, const char *const *names, size_t n, unsigned char *types);

/* The same for paths, each a name (names[i]) below a directory (dfd[i]):
 * every directory that holds DIR_TYPES_MIN_NAMES of them or more is read
 * once, by dir_types_of(). A path with a negative dfd or a '/' in its
 * name is not looked up: DT_UNKNOWN, as is every path whose directory was
 * not read. Returns 0 or -ENOMEM; any other error leaves its directory's
 * types unknown. */
int dir_types_of_paths(const int *dfd, const char *const *names, size_t n, unsigned char *types);

/* What lstat() says of the type of name below dfd: from type when a
 * listing gave one (not DT_UNKNOWN), else from fstatat(). 0 or a
 * negative errno. */
int dir_type_mode(unsigned char type, int dfd, const char *name, mode_t *ret);
