/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* An incremental matcher for the simple part of fnmatch(3) (flags 0): plain
 * bytes, '*' and '?'. It tracks the set of key positions that a pattern
 * prefix can have consumed. When that set becomes empty no extension of the
 * prefix can match, so the lookup skips the whole subtree; at a node with
 * values, "the key's end is in the set" is exactly fnmatch's answer.
 * Brackets and backslashes are left to the real fnmatch(3): the step
 * function reports them and the caller stops using the set. Keys longer
 * than HWDB_GLOB_MAX_KEY bytes are not handled (the caller falls back to
 * fnmatch everywhere). */

#define HWDB_GLOB_WORDS 4
#define HWDB_GLOB_MAX_KEY (HWDB_GLOB_WORDS * 64 - 1)

typedef struct HwdbGlobSet {
        uint64_t w[HWDB_GLOB_WORDS];
} HwdbGlobSet;

typedef struct HwdbGlobKey {
        size_t len;
        bool usable;
        HwdbGlobSet valid;           /* positions 0..len */
        uint8_t index[256];          /* byte -> slot in masks, 0 = not in key */
        unsigned n_masks;
        HwdbGlobSet masks[HWDB_GLOB_MAX_KEY + 2];  /* positions j+1 where key[j] == byte */
} HwdbGlobKey;

/* Prepares the per-key tables; positions are counted from the key start. */
void hwdb_glob_key_init(HwdbGlobKey *k, const char *key, size_t len);

/* The set holding only position pos. */
void hwdb_glob_set_single(HwdbGlobSet *s, size_t pos);

/* Advances the set over one pattern byte. Returns false for '[' and '\\',
 * which this matcher does not model (the set is then meaningless). */
bool hwdb_glob_step(const HwdbGlobKey *k, HwdbGlobSet *s, uint8_t c);

static inline bool hwdb_glob_set_empty(const HwdbGlobSet *s) {
        uint64_t acc = 0;

        for (unsigned i = 0; i < HWDB_GLOB_WORDS; i++)
                acc |= s->w[i];
        return acc == 0;
}

/* Whether the pattern read so far matches the whole key. */
static inline bool hwdb_glob_accepts(const HwdbGlobKey *k, const HwdbGlobSet *s) {
        return (s->w[k->len / 64] >> (k->len % 64)) & 1;
}
