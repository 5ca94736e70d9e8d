/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The generated table (directive-table-data.c), sorted by name. */

#include <endian.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "validate/directive-names.h"
#include "validate/directive-table.h"

extern const Directive directive_table[];
extern const size_t directive_table_size;

/* One entry per name: its rows are directive_table[first..first+count).
 * head and tail are its directive_name_words(). */
typedef struct DirectiveName {
        uint64_t head, tail;
        uint16_t name_offset;        /* in directive_string_pool */
        uint8_t len;
        uint16_t first;
        uint8_t count;
} DirectiveName;

extern const DirectiveName directive_names[];

/* A perfect hash from a name to its DirectiveNameId (hash and displace):
 * the top bits of the hash pick a bucket, other bits a slot that the
 * bucket's displacement moves to a free one; -1 marks an empty slot. */
extern const uint64_t directive_name_seed;
extern const uint16_t directive_name_displacement[1 << DIRECTIVE_NAME_BUCKET_BITS];
extern const int16_t directive_name_slots[1 << DIRECTIVE_NAME_SLOT_BITS];

/* The first and the last eight bytes of a name (all of them, twice, for a
 * shorter one), little-endian, as the generator's name_words(). Up to 16
 * bytes, they and the length tell names apart. */
static inline void directive_name_words(const char *s, size_t n, uint64_t *ret_head, uint64_t *ret_tail) {
        uint64_t a = 0, b;

        if (n >= 8) {
                memcpy(&a, s, 8);
                memcpy(&b, s + n - 8, 8);
                a = le64toh(a);
                b = le64toh(b);
        } else if (n >= 4) {
                /* The first and the last four bytes, each at its place
                 * (where they overlap, the same bytes): the loop's word. */
                uint32_t x, y;

                memcpy(&x, s, 4);
                memcpy(&y, s + n - 4, 4);
                a = (uint64_t) le32toh(x) | (uint64_t) le32toh(y) << (8 * (n - 4));
                b = a;
        } else {
                for (size_t i = 0; i < n; i++)
                        a |= (uint64_t) (unsigned char) s[i] << (8 * i);
                b = a;
        }
        *ret_head = a;
        *ret_tail = b;
}

/* The words and the length mixed, as the generator's name_hash(). */
static inline uint64_t directive_name_hash(uint64_t head, uint64_t tail, size_t n) {
        uint64_t x = head * UINT64_C(0x9E3779B97F4A7C15) + (tail ^ n);

        return (x ^ (x >> 32)) * directive_name_seed;
}
