/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hwdb-bin.h"

/* One property of a lookup result. The strings point into the database and
 * stay valid as long as it is open. */
typedef struct HwdbProperty {
        const char *key;        /* without the leading space */
        const char *value;
        uint64_t filename_off;  /* 0 for the old 16-byte value format */
        uint32_t line;
        uint16_t priority;
} HwdbProperty;

/* The longest key the command line tool accepts: udev composes the keys it
 * looks up in buffers of 16 KiB (UDEV_LINE_SIZE, NUL included), and a
 * kernel modalias is far shorter. hwdb_lookup() itself takes any length. */
#define HWDB_KEY_MAX 16383u

typedef struct HwdbScanFrame HwdbScanFrame;
typedef struct HwdbGlobKey HwdbGlobKey;
typedef struct HwdbPathStep HwdbPathStep;
typedef struct HwdbFastFrame HwdbFastFrame;

/* Reusable lookup state. All buffers grow on demand and are kept between
 * lookups, so a warm lookup does not allocate. Zero-initialize, release
 * with hwdb_lookup_done(). */
typedef struct HwdbLookup {
        HwdbProperty *props;    /* the result, in systemd's output order */
        size_t n_props;

        /* Tuning/testing: turn the subtree pruning off (pure fnmatch). */
        bool no_prune;
        /* Testing: keys of 64 to 127 bytes take the general multi-word
         * scan, not the 128-bit one. */
        bool no_wide_int;

        /* internal */
        size_t props_allocated;
        uint32_t *index;        /* open-addressing hash over props, once there are many */
        size_t index_size;
        char *pattern;
        size_t pattern_len, pattern_allocated;
        HwdbScanFrame *stack;
        size_t n_stack, stack_allocated;
        uint64_t *sets;         /* position sets of the scan frames */
        size_t sets_allocated;
        HwdbGlobKey *glob;
        HwdbFastFrame *fast;    /* the stack of a one-word glob scan */
        size_t fast_allocated;
        uint64_t *wide_sets;    /* the sets of a scan for a longer key, per frame */
        size_t wide_sets_allocated;
        size_t key_len;
        bool glob_ready;        /* glob is set up for this key */
        uint64_t visits, max_visits;
        /* The literal path the last lookup took, for hwdb_lookup_next(). */
        HwdbPathStep *path;
        size_t n_path, path_allocated;
        char *path_key;
        size_t path_key_len, path_key_allocated;
        const HwdbBin *path_db; /* NULL: no usable path */
        uint64_t walk_last;     /* the last node the literal walk read */
        uint64_t ahead;         /* hwdb_lookup_next(): fetched up to here */
} HwdbLookup;

void hwdb_lookup_done(HwdbLookup *l);

/* Finds the properties for key (a modalias), exactly as systemd's sd-hwdb
 * does: walk the literal prefix through the trie, scan '*', '?' and '['
 * subtrees with fnmatch(3), resolve keys set more than once by (file
 * priority, line), keep each key where it first appeared. Returns the number
 * of properties (in l->props), -EBADMSG for a corrupt database, -ELOOP when
 * the walk takes an edge that does not lead to a lower offset (a cycle) or
 * exceeds the limits a well-formed file can reach. */
int hwdb_lookup(HwdbLookup *l, const HwdbBin *b, const char *key);

/* The same, for one key of a run of keys on the same open database b:
 * the levels of the trie walk this key shares with the key before (the
 * last hwdb_lookup() or hwdb_lookup_next() on l, which must have been on b)
 * are not walked again: their nodes, prefixes and glob children are taken
 * from l, only the glob scans, which depend on the rest of the key, are
 * done again. Same answers as hwdb_lookup(), in the same order. Pays when
 * keys come sorted: neighbours then share most of their path. After a
 * failed or abandoned (SIGBUS) lookup this falls back to a full walk. */
int hwdb_lookup_next(HwdbLookup *l, const HwdbBin *b, const char *key);
/* The same for a key of len bytes (strlen(key) == len), as a batch knows
 * them. */
int hwdb_lookup_next_len(HwdbLookup *l, const HwdbBin *b, const char *key, size_t len);
