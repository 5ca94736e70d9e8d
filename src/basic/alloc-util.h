/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Allocation helpers. They return NULL on failure (including multiplication
 * overflow); callers turn that into -ENOMEM. */

static inline void *malloc_multiply(size_t n, size_t size) {
        if (size != 0 && n > SIZE_MAX / size)
                return NULL;
        return malloc(n * size > 0 ? n * size : 1);
}

static inline void *reallocarray_safe(void *p, size_t n, size_t size) {
        if (size != 0 && n > SIZE_MAX / size)
                return NULL;
        return realloc(p, n * size > 0 ? n * size : 1);
}

/* Zeroed memory. A small block comes from malloc and is cleared here:
 * glibc's calloc never takes a block from the thread cache, and so costs
 * several times a malloc for the small objects made once per unit or file. */
static inline void *calloc_fast(size_t n, size_t size) {
        void *p;

        if (n == 0)
                n = 1;
        if (size == 0 || n > 1024 / size)
                return calloc(n, size);
        p = malloc(n * size);
        if (!p)
                return NULL;
        /* An empty barrier: without it, GCC turns malloc+memset back
         * into calloc. */
        __asm__("" : : "r"(p) : "memory");
        return memset(p, 0, n * size);
}

#define new0(t, n) ((t *) calloc_fast((n), sizeof(t)))

/* Clears a small object (its size known at compile time) with plain
 * stores. GCC makes "rep stos" of a compound literal or memset() of a
 * hundred bytes or more, which takes tens of cycles to start on many
 * CPUs: for the objects set up once per file of a stream, most of their
 * cost. The zero is hidden from the compiler, which would otherwise turn
 * the stores back into the same. */
static inline __attribute__((always_inline)) void zero_small(void *p, size_t n) {
        char *q = p;
        size_t i = 0;
        uint64_t z8 = 0;

#if defined(__SSE2__)
        __m128i z = _mm_setzero_si128();

        __asm__("" : "+x"(z));
#pragma GCC unroll 32
        for (; i + 16 <= n; i += 16)
                _mm_storeu_si128((__m128i *) (void *) (q + i), z);
#endif
        __asm__("" : "+r"(z8));
#pragma GCC unroll 32
        for (; i + 8 <= n; i += 8)
                memcpy(q + i, &z8, 8);
        for (; i < n; i++)
                q[i] = (char) z8;
}

/* Make sure *array has room for at least need elements of size elsize.
 * Grows geometrically. Returns 0 or -ENOMEM (array untouched on failure). */
int greedy_realloc_slow(void **array, size_t *allocated, size_t need, size_t elsize);
/* Room already there (the common case) costs no call. */
static inline int greedy_realloc(void **array, size_t *allocated, size_t need, size_t elsize) {
        if (*array && need <= *allocated)
                return 0;
        return greedy_realloc_slow(array, allocated, need, elsize);
}

#define GREEDY_REALLOC(array, allocated, need) \
        greedy_realloc((void **) &(array), &(allocated), (need), sizeof((array)[0]))

/* The strings up to the NULL sentinel, concatenated into a new string;
 * NULL on overflow or out of memory. Use strjoin(a, b, ...). */
char *strjoin_internal(const char *first, ...);
#define strjoin(...) strjoin_internal(__VA_ARGS__, (const char *) NULL)
