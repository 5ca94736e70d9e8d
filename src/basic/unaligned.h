/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Loads of a few bytes from any address, as one machine word: memcpy()
 * into a local, which compilers turn into a single unaligned load on the
 * machines that have one. The bytes must be there to read; callers check
 * the length first. */

#include <stdint.h>
#include <string.h>

static inline uint64_t unaligned_load64(const char *p) {
        uint64_t w;

        memcpy(&w, p, 8);
        return w;
}

static inline uint64_t unaligned_load32(const char *p) {
        uint32_t w;

        memcpy(&w, p, 4);
        return w;
}

/* The eight bytes as a big-endian number: comparing two of them compares
 * the bytes in memcmp()'s order. */
static inline uint64_t unaligned_load_be64(const char *p) {
        uint64_t w = unaligned_load64(p);

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        w = __builtin_bswap64(w);
#endif
        return w;
}
