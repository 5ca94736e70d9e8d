/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* A hash index over names kept elsewhere: it stores positions into the
 * owner's array, and asks the owner for the name at a position, so the
 * owner may move, replace or free its strings as long as position i keeps
 * naming the same thing. Lookups and insertions take constant time on
 * average; policies use it for rewrite ids, directive names and YAML
 * mapping keys, where linear scans made loading quadratic. */

typedef const char *(*NameIndexKey)(const void *owner, size_t position);

typedef struct NameIndex {
        uint32_t *slots;       /* position + 1; 0 = empty */
        size_t n_slots;        /* a power of two, or 0 */
        size_t n_used;
} NameIndex;

void name_index_done(NameIndex *x);

/* The position of name, or -ENOENT. */
int name_index_find(const NameIndex *x, const char *name, NameIndexKey key, const void *owner, size_t *ret);

/* Records that position (whose name key() returns) holds a name not yet
 * in the index. Returns 0, -ENOMEM, or -E2BIG past 2^31 positions. */
int name_index_add(NameIndex *x, size_t position, NameIndexKey key, const void *owner);
