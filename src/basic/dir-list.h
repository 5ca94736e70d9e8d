/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* A directory's entries read once, sorted by name, with their types, so
 * that a walk needs no stat per entry and answers "is NAME here?" without
 * a system call. */

#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct DirEntry {
        char *name;
        unsigned char type;            /* DT_REG, DT_DIR, DT_LNK... or DT_UNKNOWN */
        uint32_t len;                  /* strlen(name) */
} DirEntry;

typedef struct DirList {
        int fd;                        /* open: dir_list_fd() for *at() calls; -EBADF when not */
        DirEntry *entries;             /* sorted by strcmp() of the names */
        size_t n;
        char *names;                   /* all names, NUL-separated */
} DirList;

/* Opens path as a directory and reads its entries ("." and ".." left
 * out). Returns 0 or a negative errno; on error *l is empty. A DirList
 * that was never opened must be set to DIR_LIST_INIT before
 * dir_list_done(). */
#define DIR_LIST_INIT ((DirList) { .fd = -EBADF })
int dir_list_open(DirList *l, const char *path);
/* The same for a directory open already at fd, which the list takes (it
 * is closed by dir_list_done(), also when reading fails). */
int dir_list_read_fd(DirList *l, int fd);
void dir_list_done(DirList *l);

static inline int dir_list_fd(const DirList *l) {
        return l->fd;
}

/* Hands over the buffer the entries' names point into (NUL-separated,
 * free() it): names kept past dir_list_done() without a copy each. */
char *dir_list_steal_names(DirList *l);

/* Sorts entries by strcmp() of their names (each entry's len must be
 * set): a merge sort on the names' first sixteen bytes taken as numbers,
 * strcmp() only for names that share them (qsort() with strcmp() cost a
 * tenth of listing a large unit directory, a merge sort calling strcmp()
 * directly still a twentieth of checking a tree). Stable. Returns 0 or
 * -ENOMEM. */
int dir_entries_sort(DirEntry *e, size_t n);

/* The entry called name, or NULL. */
const DirEntry *dir_list_find(const DirList *l, const char *name);

/* The entry's type without following a symlink: from the directory when
 * the file system reports it (inline: a tree asks twice per unit), else
 * from fstatat(). DT_UNKNOWN when the entry is gone. */
unsigned char dir_list_type_stat(const DirList *l, const DirEntry *e);
static inline unsigned char dir_list_type(const DirList *l, const DirEntry *e) {
        return e->type != DT_UNKNOWN ? e->type : dir_list_type_stat(l, e);
}
