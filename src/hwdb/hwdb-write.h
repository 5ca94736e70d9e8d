/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "hwdb-trie.h"

/* Serializes a trie into systemd's hwdb.bin format: 80-byte header, nodes in
 * post-order (children before parents, so the root comes last) each followed
 * by its sorted child entries and its 32-byte value entries, then a string
 * pool in which a string may start inside a longer one (suffix sharing).
 *
 * Laying out reuses fields of the trie's nodes: afterwards the trie can only
 * be written, not extended. */

typedef struct HwdbSink {
        /* Called once with the final size before any data. Optional. */
        int (*begin)(void *userdata, uint64_t size);
        int (*write)(void *userdata, const void *data, size_t size);
        void *userdata;
} HwdbSink;

int hwdb_trie_write(HwdbTrie *t, const HwdbSink *sink);
/* value_size 16 writes the old layout without file, line and priority (what
 * `udevadm hwdb --update` writes); readers then let the value met last in
 * the walk win. */
int hwdb_trie_write_full(HwdbTrie *t, const HwdbSink *sink, unsigned value_size);

/* Convenience: the whole image in a malloc'ed buffer. */
int hwdb_trie_write_memory(HwdbTrie *t, void **ret, size_t *ret_size);
int hwdb_trie_write_memory_full(HwdbTrie *t, unsigned value_size, void **ret, size_t *ret_size);

/* Writes path (mode 0644) with atomic_file_replace_full(): temporary file
 * in the same directory, fsync, rename, fsync of the directory. Only a
 * regular file or a free name is replaced (-ELOOP for a symlink, -EISDIR,
 * -EEXIST for anything else); on failure path is untouched and nothing is
 * left behind. */
int hwdb_trie_write_file(HwdbTrie *t, const char *path);
