/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
