/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "basic/macro.h"
#include "hwdb-format.h"

/* A read-only view of a compiled hwdb.bin: a mapped file, a file read into
 * memory, or a buffer (what text sources compile to). Opening checks only
 * the header; every node, array and string is bounds-checked when a lookup
 * touches it, and every child edge must lead to a lower offset (writers
 * store children before their parent), so a corrupt file yields -EBADMSG
 * or -ELOOP and never a stray read or an endless walk.
 *
 * A mapped file that is truncated while in use raises SIGBUS on the next
 * access to a page past its new end; callers of lookups on a mapped file
 * run them under hwdb_guard_run() (hwdb-guard.h), which turns that into an
 * error. Mapping rather than reading is a measured choice: see
 * hwdb_bin_open(). */
typedef struct HwdbBin {
        const uint8_t *data;
        size_t size;
        void *owned;            /* malloc'ed buffer to free, or NULL */
        size_t map_size;        /* length of the mapping to undo, or 0 */
        int map_fd;             /* the mapped file, open while file_mapped */
        bool file_mapped;       /* data maps the file (else memory of ours) */
        bool nul_terminated;    /* last byte is NUL: every string offset
                                 * inside the file ends inside it */
        uint64_t node_size;
        uint64_t child_size;
        uint64_t value_size;
        uint64_t root_off;
        uint64_t max_nodes;     /* upper bound on distinct nodes the file can hold */
} HwdbBin;

/* One node, validated: its arrays and its prefix lie inside the file. */
typedef struct HwdbNode {
        const char *prefix;     /* NUL-terminated */
        uint64_t children_off;  /* absolute offset of the child array */
        uint64_t values_off;    /* absolute offset of the value array */
        uint64_t n_values;
        unsigned n_children;
} HwdbNode;

/* Largest hwdb.bin opened (systemd's own is about 13 MB). */
#define HWDB_BIN_SIZE_MAX (UINT64_C(1) << 30)

/* Maps path (a regular file, at most HWDB_BIN_SIZE_MAX bytes), as systemd
 * does. -EBADMSG when the file is not a usable hwdb.bin; then *ret_reason
 * (if given) names what is wrong. -EFBIG when it is too large.
 *
 * Why map, not read: a fresh process that reads systemd's 13 MB hwdb.bin
 * into memory pays a page fault for every page of the copy: a one-key
 * `hwdb query` gets 11 to 13 times as slow on the reference machine (40 to
 * 60 ms more CPU time), against nothing measurable for the SIGBUS guard
 * (see bench/hwdb-bench.py, part 5). Checking the whole trie at every open
 * (hwdb_bin_verify()) would make it 4 to 5 times as slow: lookups check
 * what they touch instead. */
int hwdb_bin_open(const char *path, HwdbBin **ret, const char **ret_reason);
/* The same, read into private memory: a snapshot nothing can change or
 * truncate under the reader. For whole-file work (verification), where
 * every page is touched anyway. */
int hwdb_bin_read(const char *path, HwdbBin **ret, const char **ret_reason);
/* For a long run of lookups on a mapped file: replaces the mapping by a
 * private copy in transparent huge pages, when the system has them. A
 * lookup on systemd's 13 MB hwdb.bin touches a few hundred pages of it at
 * random: in 4 KiB pages that is a page fault per 16 pages (the kernel maps
 * around a fault) and a TLB miss for most nodes read, in 2 MiB pages
 * neither. The copy costs a few milliseconds (reading 13 MB and clearing
 * 7 huge pages), so it only pays for thousands of lookups: on the
 * benchmark's 100,000 keys from the real patterns, a third less time for
 * the first batch of 7,500 keys and a tenth less for the others.
 *
 * Returns 1 when b now holds the copy; then every pointer into the old
 * data (nodes, strings, the path a HwdbLookup keeps) is invalid. Returns 0
 * when b stays as it was: not a mapped file, with huge_only no
 * transparent huge pages (a copy in small pages faults once per page:
 * slower than the mapping; tests copy without them), a file that changed
 * size or header since it was opened. Never fails otherwise; the copy is a
 * snapshot, a later truncation of the file no longer matters. */
int hwdb_bin_make_private(HwdbBin *b, bool huge_only);

/* Wraps size bytes at data. With take_ownership the buffer is free()d by hwdb_bin_free() (also when
 * this fails). */
int hwdb_bin_new_from_memory(void *data, size_t size, bool take_ownership, HwdbBin **ret,
                             const char **ret_reason);
HwdbBin *hwdb_bin_free(HwdbBin *b);
static inline void hwdb_bin_freep(HwdbBin **b) {
        hwdb_bin_free(*b);
}

/* Accessors. All return -EBADMSG on anything out of bounds. They are
 * inline: a lookup decodes a node per trie level and the call, not the
 * checks, was a measurable share of it (bench/hwdb-bench.py). The checks
 * themselves (these and the lookup's edge and visit limits) cost about 5%
 * of a batch lookup on systemd's hwdb.bin: measured by building without
 * them, in-process, alternating runs, median of 11 pairwise ratios 1.05.
 * Measured again with the lean glob scans (hwdb-lookup.c): without these
 * checks and the edge-order checks, `hwdb query --stdin` on 100k keys
 * from the real patterns runs 5.4% fewer instructions (320.9M -> 303.7M,
 * callgrind), 4.3% on the modalias mix. They stay. */
int hwdb_bin_string_slow(const HwdbBin *b, uint64_t off, const char **ret);
static inline int hwdb_bin_string(const HwdbBin *b, uint64_t off, const char **ret) {
        if (off >= b->size)
                return -EBADMSG;
        if (!b->nul_terminated)
                return hwdb_bin_string_slow(b, off, ret);
        *ret = (const char *) b->data + off;
        return 0;
}

/* Decodes the node at off and checks that it, its child and value arrays
 * and its prefix string lie inside the file. Also asks the CPU to fetch the
 * prefix and the child array, which every caller reads next: the walk is a
 * chain of dependent loads and these two need not wait for each other. */
static inline int hwdb_bin_node(const HwdbBin *b, uint64_t off, HwdbNode *ret) {
        const uint8_t *p;
        uint64_t n_values, end, room, prefix_off;

        if (off > b->size || b->size - off < b->node_size)
                return -EBADMSG;
        p = b->data + off;

        prefix_off = hwdb_get64(p + HWDB_NODE_PREFIX);
        if (prefix_off < b->size)
                __builtin_prefetch(b->data + prefix_off);
        ret->n_children = p[HWDB_NODE_CHILDREN];
        n_values = hwdb_get64(p + HWDB_NODE_VALUES);
        ret->children_off = off + b->node_size;
        ret->values_off = ret->children_off + (uint64_t) ret->n_children * b->child_size;

        /* Both arrays have to fit behind the node. Strides are capped (at
         * 4096), so the child array cannot overflow; the value count can be
         * anything, so it is compared with the room before it is multiplied
         * (value entries are at least 16 bytes: no overflow either). */
        end = ret->values_off;
        if (end > b->size)
                return -EBADMSG;
        room = b->size - end;
        if (n_values > room || n_values * b->value_size > room)
                return -EBADMSG;
        ret->n_values = n_values;
        if (ret->n_children > 0)
                __builtin_prefetch(b->data + ret->children_off + b->child_size);

        return hwdb_bin_string(b, prefix_off, &ret->prefix);
}

/* The i-th child of a validated node (i < n_children). */
static inline void hwdb_bin_child(const HwdbBin *b, const HwdbNode *n, unsigned i, uint8_t *ret_c,
                                  uint64_t *ret_off) {
        const uint8_t *e = b->data + n->children_off + (uint64_t) i * b->child_size;

        *ret_c = e[HWDB_CHILD_C];
        *ret_off = hwdb_get64(e + HWDB_CHILD_OFF);
}
/* Binary search for the child with edge byte c; 0 if found, -ENOENT if not. */
int hwdb_bin_find_child(const HwdbBin *b, const HwdbNode *n, uint8_t c, uint64_t *ret_off);
/* Raw pointer to the i-th value entry of a validated node (i < n_values). */
static inline const uint8_t *hwdb_bin_value_entry(const HwdbBin *b, const HwdbNode *n, uint64_t i) {
        return b->data + n->values_off + i * b->value_size;
}

/* Walks the whole trie once and checks every node, string and edge, that
 * every edge leads to a lower offset and that no node is reached twice (no
 * cycles or shared subtrees). Returns the number of nodes, or -EBADMSG with
 * *ret_reason set. Linear in the file size. */
int hwdb_bin_verify(const HwdbBin *b, const char **ret_reason);
