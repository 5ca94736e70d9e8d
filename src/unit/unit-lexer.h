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

/* Hands out a buffer's lines one by one. It looks at the data in blocks of
 * 64 bytes, once each: a bit per byte that may end a line or make it
 * non-ASCII; a line is then found from those bits, without reading its
 * bytes again. data[size] must be a NUL byte (a sentinel). */
typedef struct LineScanner {
        const char *data;
        size_t size;
        size_t pos;            /* where the next line starts */
        size_t base;           /* offset of the block whose marks are held */
        uint64_t marks;        /* its bytes that need a look (see block_marks()) */
        bool avx2;             /* blocks read 32 bytes at a time */
        bool padded;           /* data[size + 1 .. size + 63] may be read */
} LineScanner;

/* avx2: the CPU has it (see line_scanner_has_avx2()), and the caller is
 * compiled for it, so that the 32-byte block reader is taken in. padded:
 * the 63 bytes after data[size] may be read (their values do not matter),
 * so that the last block is read in place. */
static inline void line_scanner_init(LineScanner *s, const char *data, size_t size, bool avx2, bool padded);
/* The next line in *ret; false at the end of the data. Inline: the parser
 * calls it once per line. */
static inline bool line_scanner_next(LineScanner *s, PhysLine *ret);

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

/* The bytes of a 64-byte block that need a look, as bits (bit i for p[i]):
 * the terminators, any byte up to CR (so TAB and other control bytes too,
 * which are passed over), and any byte >= 0x80 (non-ASCII). One signed
 * comparison with 0x0e finds all of them: bytes >= 0x80 are negative.
 * With SSE2 sixteen bytes at a time; elsewhere byte by byte, the same bits. */
#if defined(__SSE2__) && !defined(UNIT_LEXER_SCALAR)
static inline uint64_t block_marks(const char *p) {
        const __m128i lim = _mm_set1_epi8(0x0e);
        uint64_t m = 0;

        for (unsigned i = 0; i < 64; i += 16) {
                __m128i v = _mm_loadu_si128((const __m128i *) (const void *) (p + i));

                m |= (uint64_t) (unsigned) _mm_movemask_epi8(_mm_cmplt_epi8(v, lim)) << i;
        }
        return m;
}
#else
static inline uint64_t block_marks(const char *p) {
        uint64_t m = 0;

        for (unsigned i = 0; i < 64; i++) {
                unsigned char c = (unsigned char) p[i];

                if (c < 0x0e || c >= 0x80)
                        m |= UINT64_C(1) << i;
        }
        return m;
}
#endif

#if defined(__x86_64__) && defined(__SSE2__) && !defined(UNIT_LEXER_SCALAR)
#include <immintrin.h>
#define UNIT_LEXER_AVX2 1

/* block_marks() 32 bytes at a time. Not always_inline: only callers
 * compiled for AVX2 may take it in. */
static inline __attribute__((target("avx2"))) uint64_t block_marks_avx2(const char *p) {
        const __m256i lim = _mm256_set1_epi8(0x0e);
        uint32_t lo = (uint32_t) _mm256_movemask_epi8(
                _mm256_cmpgt_epi8(lim, _mm256_loadu_si256((const __m256i *) (const void *) p)));
        uint32_t hi = (uint32_t) _mm256_movemask_epi8(
                _mm256_cmpgt_epi8(lim, _mm256_loadu_si256((const __m256i *) (const void *) (p + 32))));

        return (uint64_t) hi << 32 | lo;
}
#endif

static inline bool line_scanner_has_avx2(void) {
#ifdef UNIT_LEXER_AVX2
        return __builtin_cpu_supports("avx2");
#else
        return false;
#endif
}

static inline __attribute__((always_inline)) uint64_t line_scanner_marks(const LineScanner *s, const char *p) {
#ifdef UNIT_LEXER_AVX2
        if (s->avx2)
                return block_marks_avx2(p);
#endif
        return block_marks(p);
}

/* The marks of the block at base. The last, partial block is copied into a
 * zeroed one: the padding is marked, and so is the NUL at data[size],
 * where the last line ends at the latest; unless the data is padded, when
 * it is read in place (what comes after data[size] makes no difference:
 * no line goes past that NUL). */
static inline __attribute__((always_inline)) uint64_t line_scanner_block(const LineScanner *s, size_t base) {
        if (s->size - base >= 64 || s->padded)
                return line_scanner_marks(s, s->data + base);
        else {
                char tail[64] = {};

                memcpy(tail, s->data + base, s->size - base);
                return line_scanner_marks(s, tail);
        }
}

static inline __attribute__((always_inline)) void line_scanner_load(LineScanner *s, size_t base) {
        s->base = base;
        s->marks = line_scanner_block(s, base);
}

static inline __attribute__((always_inline)) void line_scanner_init(LineScanner *s, const char *data, size_t size,
                                                                    bool avx2, bool padded) {
        *s = (LineScanner) { .data = data, .size = size, .avx2 = avx2, .padded = padded };
        line_scanner_load(s, 0);
}

static inline __attribute__((always_inline)) bool line_scanner_next(LineScanner *s, PhysLine *ret) {
        const char *data = s->data;
        size_t start = s->pos, end, i;
        unsigned seen = 0;
        bool ascii = true;
        uint64_t m;

        if (start >= s->size)
                return false;
        /* The previous terminator may have ended past the block held. */
        while (start - s->base >= 64)
                line_scanner_load(s, s->base + 64);
        m = s->marks & (~UINT64_C(0) << (start - s->base));
        for (;;) {
                unsigned char c;

                /* A block without marks is never the last one: that has
                 * data[size] marked. */
                while (m == 0) {
                        line_scanner_load(s, s->base + 64);
                        m = s->marks;
                }
                end = s->base + (unsigned) __builtin_ctzll(m);
                c = (unsigned char) data[end];
                if (c == '\n' || c == '\r' || c == '\0')
                        break;
                if (c >= 0x80)
                        ascii = false;
                m &= m - 1;
        }

        /* The common terminator, a lone LF, without the loop. */
        if (data[end] == '\n' && data[end + 1] != '\r' && data[end + 1] != '\0') {
                *ret = (PhysLine) {
                        .start = start,
                        .len = end - start,
                        .term_len = 1,
                        .term_kinds = LINE_END_LF,
                        .ascii = ascii,
                };
                s->pos = end + 1;
                return true;
        }

        i = end;
        while (i < s->size) {
                unsigned k = eol_kind(data[i]);

                if (k == 0 || (seen & LINE_END_NUL) || (seen & k))
                        break;
                seen |= k;
                i++;
        }

        *ret = (PhysLine) {
                .start = start,
                .len = end - start,
                .term_len = i - end,
                .term_kinds = seen,
                .ascii = ascii,
        };
        s->pos = i;
        return true;
}
