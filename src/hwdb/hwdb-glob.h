/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* An incremental matcher for the simple part of fnmatch(3) (flags 0): plain
 * bytes, '*' and '?'. It tracks, as a bit set, the key positions that a
 * pattern prefix can have consumed. When the set becomes empty no extension
 * of the prefix can match, so the lookup skips the whole subtree; at a node
 * with values, "the key's end is in the set" is exactly fnmatch's answer.
 * Brackets and backslashes are left to the real fnmatch(3): the step
 * function reports them and the caller stops using the set. Keys longer
 * than HWDB_GLOB_MAX_KEY bytes are not handled (the caller falls back to
 * fnmatch everywhere).
 *
 * A set is an array of hwdb_glob_words(key) 64-bit words; the caller owns
 * the storage. */

#define HWDB_GLOB_MAX_KEY 4095

typedef struct HwdbGlobKey {
        size_t len;
        size_t words;
        bool usable;
        /* Keys shorter than 64 bytes (one word, the usual case): the key,
         * zero-padded. A byte's positions are found by comparing it with
         * all 64 at once when a step needs them: no table to fill per key. */
        _Alignas(16) uint8_t text[64];
        /* Longer keys: the key, zero-padded to whole words of 64 bytes,
         * and byte -> slot in masks, 0 = not computed yet. A byte's
         * positions are computed when a step first needs them: a scan
         * reads far fewer distinct bytes than a long key holds. */
        uint8_t *long_text;
        size_t long_text_allocated;
        uint16_t index[256];
        unsigned n_masks;
        uint64_t *valid;        /* positions 0..len */
        uint64_t *masks;        /* per slot: positions j+1 where key[j] == byte */
        size_t allocated;       /* words allocated for valid + masks */
} HwdbGlobKey;

/* Prepares the per-key tables (positions count from the key start).
 * Returns -ENOMEM, else 0; an over-long key just leaves usable false. */
int hwdb_glob_key_init(HwdbGlobKey *k, const char *key, size_t len);
void hwdb_glob_key_done(HwdbGlobKey *k);

/* The set holding only position pos. */
void hwdb_glob_set_single(const HwdbGlobKey *k, uint64_t *s, size_t pos);

/* dst = src advanced over one pattern byte (dst may equal src). Returns
 * false for '[' and '\\', which this matcher does not model. */
bool hwdb_glob_step(HwdbGlobKey *k, uint64_t *dst, const uint64_t *src, uint8_t c);

/* Bit j set where text[j] == c, for 64 bytes at text (16-byte aligned). */
static inline uint64_t hwdb_glob_eq64(const uint8_t *text, uint8_t c) {
        uint64_t m = 0;
#if defined(__SSE2__)
        const __m128i v = _mm_set1_epi8((char) c);

        /* Unrolled: the compiler keeps the loop, and its counter and
         * branch were a third of the instructions of a step. */
#define HWDB_GLOB_EQ16(i)                                                                       \
        ((uint64_t) (uint16_t) _mm_movemask_epi8(_mm_cmpeq_epi8(                                \
                _mm_load_si128((const __m128i *) (const void *) (text + 16 * (i))), v)) << (16 * (i)))
        m = HWDB_GLOB_EQ16(0) | HWDB_GLOB_EQ16(1) | HWDB_GLOB_EQ16(2) | HWDB_GLOB_EQ16(3);
#undef HWDB_GLOB_EQ16
#else
        for (unsigned j = 0; j < 64; j++)
                m |= (uint64_t) (text[j] == c) << j;
#endif
        return m;
}

/* For a one-word key: the positions j+1 where key[j] == c (and j < len). */
static inline uint64_t hwdb_glob_eq1(const HwdbGlobKey *k, uint8_t c) {
        /* The zero padding matches c == 0: valid drops those positions. */
        return (hwdb_glob_eq64(k->text, c) << 1) & k->valid[0];
}

/* hwdb_glob_step() for a one-word set (keys under 64 bytes, the usual
 * case), inline: a glob scan steps once per pattern byte it reads. c is
 * neither '[' nor '\\'. A set of one position, the common case once a
 * pattern's literal part has pinned it, steps by comparing one byte. */
static inline uint64_t hwdb_glob_step1(const HwdbGlobKey *k, uint64_t s, uint8_t c) {
        if (c == '*')
                return (UINT64_C(0) - (s & (UINT64_C(0) - s))) & k->valid[0];
        if (c == '?')
                return (s << 1) & k->valid[0];
        if ((s & (s - 1)) == 0)
                /* s has at most bit len <= 63: text[63] at most. */
                return s != 0 && k->text[__builtin_ctzll(s)] == c ? (s << 1) & k->valid[0] : 0;
        return (s << 1) & hwdb_glob_eq1(k, c);
}

/* For a key of more than one word: the positions j+1 where key[j] == c,
 * computed at the first call for c with this key. */
const uint64_t *hwdb_glob_byte_mask(HwdbGlobKey *k, uint8_t c);

/* s &= the positions just after a byte of members[0..n) (negated: after
 * any other byte): a bracket expression's step, given the set advanced
 * by '?' over it. */
void hwdb_glob_restrict(HwdbGlobKey *k, uint64_t *s, const char *members, size_t n, bool negated);

static inline bool hwdb_glob_set_empty(const HwdbGlobKey *k, const uint64_t *s) {
        uint64_t acc = 0;

        for (size_t i = 0; i < k->words; i++)
                acc |= s[i];
        return acc == 0;
}

/* Whether the pattern read so far matches the whole key. */
static inline bool hwdb_glob_accepts(const HwdbGlobKey *k, const uint64_t *s) {
        return (s[k->len / 64] >> (k->len % 64)) & 1;
}
