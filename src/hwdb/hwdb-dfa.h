/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "hwdb-bin.h"

/* Glob subtrees of the trie compiled into lazily built DFAs.
 *
 * A glob scan (hwdb-lookup.c) walks a subtree below a '*', '?' or '[' edge
 * and steps a position set over every pattern byte it reads: its cost grows
 * with the part of the subtree the key leaves alive, and the same subtrees
 * (below "usb:v*", "pci:v*", ...) are scanned again for every key. Here
 * such a subtree is read once into an NFA (one position per pattern byte,
 * one end marker per node), and the key is run through a DFA over it whose
 * states (sets of positions) and transitions are made the first time a key
 * needs them: one table step per key byte, and the nodes that match at the
 * key's end, in the scan's order, are a list kept with the final state.
 *
 * Only what the position sets model exactly is compiled: literal bytes,
 * '*' and '?'. A subtree with '[' or '\\' anywhere, a node that does not
 * decode, an edge that does not lead down, a node reached twice or more
 * than HWDB_DFA_MAX_NODES nodes is not compiled: the scan goes on doing it
 * and reports whatever it reports there. A subtree is compiled the second
 * time a lookup on this cache enters it, so a one-key query pays nothing.
 *
 * The cache belongs to one database: hwdb_dfa_get() forgets every DFA when
 * asked about another (a different HwdbBin, mapping or size). Memory stays under HWDB_DFA_MEMORY_MAX: past
 * it no subtree is compiled any more, and a DFA that needs a new state when
 * there is no room drops its states and leaves that key to the scan. */

#define HWDB_DFA_MAX_NODES 16384u
#define HWDB_DFA_MEMORY_MAX ((size_t) 32 << 20)
/* A subtree is compiled on this visit. */
#define HWDB_DFA_COMPILE_AT 2u

typedef struct HwdbDfa HwdbDfa;
typedef struct HwdbDfaSlot HwdbDfaSlot;

typedef struct HwdbDfaCache {
        const HwdbBin *db;      /* the database the DFAs were read from */
        const uint8_t *data;
        size_t size;
        HwdbDfaSlot *slots;     /* open addressing on the glob start */
        size_t n_slots, slots_size;
        size_t memory;          /* bytes held by the DFAs */
        size_t memory_max;      /* 0: HWDB_DFA_MEMORY_MAX (tests set less) */
        HwdbDfa *building;      /* a compile a SIGBUS may have abandoned */
        /* Scratch for compiles and new states. */
        uint32_t *mark;         /* per NFA element: the stamp of the set it is in */
        size_t mark_allocated;
        uint32_t stamp;
        uint32_t *work;
        size_t work_allocated;
        uint64_t *stack;
        size_t stack_allocated;
} HwdbDfaCache;

void hwdb_dfa_cache_done(HwdbDfaCache *c);

/* A node whose values are part of an answer. */
typedef struct HwdbDfaMatch {
        uint64_t values_off;
        uint64_t n_values;
} HwdbDfaMatch;

/* Counts a visit of the glob start (node at off, entered by edge or -1,
 * its prefix read from skip) and returns its DFA in *ret, or NULL when the
 * scan has to do it (not compiled (yet), or not compilable). Reads the
 * database when it compiles. -ENOMEM only. */
int hwdb_dfa_get(HwdbDfaCache *c, const HwdbBin *b, uint64_t off, int edge, size_t skip, HwdbDfa **ret);

/* Runs text (NUL-terminated, the key from the glob start's position on)
 * through d. Returns the number of matching nodes, their values in *ret
 * in the order the scan adds them; -ENOBUFS when a new state found no
 * room (the scan has to answer this key), -ENOMEM. Reads only the cache. */
int hwdb_dfa_match(HwdbDfaCache *c, HwdbDfa *d, const char *text, const HwdbDfaMatch **ret);
