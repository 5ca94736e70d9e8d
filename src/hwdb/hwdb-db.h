/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

#include "basic/diag.h"
#include "hwdb-bin.h"
#include "hwdb-trie.h"

/* Entry points that tie the pieces together. */

/* Loads the .hwdb sources found in dirs (each below root; NULL dirs = the
 * default directories) into a new trie. *ret_n_files gets the number of
 * source files, *ret_n_unreadable how many of them could not be read. */
int hwdb_load_sources(const char *root, const char *const *dirs, DiagList *diags, HwdbTrie **ret,
                      size_t *ret_n_files, size_t *ret_n_unreadable);

/* Sources -> in-memory hwdb.bin image, ready for lookups. */
int hwdb_open_sources(const char *root, const char *const *dirs, DiagList *diags, HwdbBin **ret,
                      size_t *ret_n_files, size_t *ret_n_unreadable);

/* Opens the first hwdb.bin that exists in systemd's search list below root.
 * -ENOENT if there is none; *ret_path names the file that was used (or that
 * failed). */
int hwdb_open_default_bin(const char *root, HwdbBin **ret, char **ret_path,
                          const char **ret_reason);
