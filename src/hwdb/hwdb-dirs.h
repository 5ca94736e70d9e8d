/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

#include "basic/diag.h"
#include "hwdb-trie.h"

/* Where systemd 252 as built by Debian (split /usr) looks for sources and
 * for the compiled database, in precedence order. NULL-terminated. */
extern const char *const hwdb_default_source_dirs[];
extern const char *const hwdb_default_bin_paths[];

typedef struct HwdbSourceFile {
        char *name;             /* file name, the sort key */
        char *path;             /* path to open (root prefix included) */
} HwdbSourceFile;

typedef struct HwdbSourceList {
        HwdbSourceFile *files;  /* sorted by name; index + 1 is the file priority */
        size_t n, allocated;
} HwdbSourceList;

/* Joins root (NULL, "" or "/" for none) and an absolute path. */
char *hwdb_path_join(const char *root, const char *path);

/* Collects "*.hwdb" entries directly inside the directories (each prefixed
 * with root), like systemd's conf_files_list(): hidden names are skipped, a
 * name found in an earlier directory hides the same name in later ones
 * (that is how /etc overrides and how a /dev/null symlink masks), and the
 * result is sorted by name alone. Missing directories are skipped. */
int hwdb_source_list(const char *root, const char *const *dirs, HwdbSourceList *ret);
void hwdb_source_list_done(HwdbSourceList *l);

/* Reads and parses every file of the list into t, priority = position.
 * A file that cannot be read is reported in diags (error) and skipped.
 * Returns the number of unreadable files, or a negative errno. */
int hwdb_source_list_load(const HwdbSourceList *l, HwdbTrie *t, DiagList *diags);
