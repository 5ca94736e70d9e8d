/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__) && !defined(UNIT_LEXER_SCALAR)
#include <emmintrin.h>
#endif

/* Splits a buffer into physical lines exactly like systemd's read_line():
 * a line ends at LF, CR or NUL. A run of terminators counts as one as long
 * as no kind repeats ("\r\n" and "\n\r" are one terminator, "\n\n" two),
 * and a NUL always ends the run. */

enum {
        LINE_END_LF = 1 << 0,
        LINE_END_CR = 1 << 1,
        LINE_END_NUL = 1 << 2,
};

typedef struct PhysLine {
        size_t start;          /* offset of the first content byte */
        size_t len;            /* content bytes, terminator excluded */
        size_t term_len;       /* 0 at end of data without terminator */
        unsigned term_kinds;   /* LINE_END_* bits seen in the terminator */
        bool ascii;            /* no content byte >= 0x80 (then it is valid UTF-8) */
} PhysLine;

/* data[size] must be a NUL byte (a sentinel). Returns false when *pos is
 * at the end of the data. One pass over the bytes finds the end and tells
 * whether the line is ASCII. Inline: the parser calls it once per line. */
static inline bool physline_next(const char *data, size_t size, size_t *pos, PhysLine *ret);

/* Whether the text ends in a backslash that is not itself escaped (a
 * continuation). Reads only the final run of backslashes; the common case,
 * no backslash at the end, without a call. */
bool line_ends_in_escape_slow(const char *s, size_t n);
static inline bool line_ends_in_escape(const char *s, size_t n) {
        return n > 0 && s[n - 1] == '\\' && line_ends_in_escape_slow(s, n);
}

/* ---- implementation ---------------------------------------------------- */

static inline unsigned eol_kind(char c) {
        switch (c) {
        case '\n':
                return LINE_END_LF;
        case '\r':
                return LINE_END_CR;
        case '\0':
                return LINE_END_NUL;
        default:
                return 0;
        }
}

/* One pass over the line's bytes finds its end and tells whether it is
 * all ASCII. With SSE2 (every x86-64) sixteen bytes at a time: one mask of
 * the terminators, one of the high bits; the last partial block is copied
 * into a zeroed one, whose padding ends the line at the end of data. */
#if defined(__SSE2__) && !defined(UNIT_LEXER_SCALAR)

static inline __attribute__((always_inline)) size_t scan_line(const char *data, size_t i, size_t size,
                                                              bool *ret_ascii) {
        const __m128i lf = _mm_set1_epi8('\n'), cr = _mm_set1_epi8('\r'), zero = _mm_setzero_si128();
        unsigned high = 0;

        for (;;) {
                unsigned term, hi;
                __m128i v;

                if (size - i >= 16)
                        v = _mm_loadu_si128((const __m128i *) (const void *) (data + i));
                else {
                        char tail[16] = {};

                        memcpy(tail, data + i, size - i);
                        v = _mm_loadu_si128((const __m128i *) (const void *) tail);
                }
                term = (unsigned) _mm_movemask_epi8(_mm_or_si128(
                        _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)), _mm_cmpeq_epi8(v, zero)));
                hi = (unsigned) _mm_movemask_epi8(v);
                if (term != 0) {
                        unsigned k = (unsigned) __builtin_ctz(term);

                        high |= hi & ((1u << k) - 1);
                        *ret_ascii = high == 0;
                        return i + k;
                }
                high |= hi;
                i += 16;
        }
}
#else
#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* Whether any byte of w is zero (exact: no false positives). */
static inline uint64_t has_zero_byte(uint64_t w) {
        return (w - ONES) & ~w & HIGHS;
}

/* Whether any byte of w is LF, CR or NUL. */
static inline bool has_terminator(uint64_t w) {
        return has_zero_byte(w) | has_zero_byte(w ^ (ONES * '\n')) | has_zero_byte(w ^ (ONES * '\r'));
}

/* Portable: eight bytes at a time while none of them ends the line; the
 * word that holds the end (and the tail) byte by byte. */
static inline __attribute__((always_inline)) size_t scan_line(const char *data, size_t i, size_t size,
                                                              bool *ret_ascii) {
        uint64_t acc = 0;
        unsigned char high = 0;

        while (size - i >= 8) {
                uint64_t w;

                memcpy(&w, data + i, 8);
                if (has_terminator(w))
                        break;
                acc |= w;
                i += 8;
        }
        for (; i < size; i++) {
                unsigned char c = (unsigned char) data[i];

                if (c == '\n' || c == '\r' || c == '\0')
                        break;
                high |= c;
        }
        *ret_ascii = (acc & HIGHS) == 0 && high < 0x80;
        return i;
}
#endif

static inline __attribute__((always_inline)) bool physline_next(const char *data, size_t size, size_t *pos,
                                                                PhysLine *ret) {
        size_t i = *pos, end;
        unsigned seen = 0;
        bool ascii;

        if (i >= size)
                return false;

        end = scan_line(data, i, size, &ascii);

        /* The common terminator, a lone LF, without the loop. */
        if (end < size && data[end] == '\n' && data[end + 1] != '\r' && data[end + 1] != '\0') {
                *ret = (PhysLine) {
                        .start = *pos,
                        .len = end - *pos,
                        .term_len = 1,
                        .term_kinds = LINE_END_LF,
                        .ascii = ascii,
                };
                *pos = end + 1;
                return true;
        }

        i = end;
        while (i < size) {
                unsigned k = eol_kind(data[i]);

                if (k == 0 || (seen & LINE_END_NUL) || (seen & k))
                        break;
                seen |= k;
                i++;
        }

        *ret = (PhysLine) {
                .start = *pos,
                .len = end - *pos,
                .term_len = i - end,
                .term_kinds = seen,
                .ascii = ascii,
        };
        *pos = i;
        return true;
}
