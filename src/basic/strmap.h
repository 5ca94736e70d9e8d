/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A map from NUL-terminated strings to pointers: open addressing with
 * linear probing, grown at 50% load. Keys are not copied: the caller keeps
 * them alive as long as the map (usually the key lives in the value). */

typedef struct StrMapSlot {
        const char *key;       /* NULL: empty */
        void *value;
        uint32_t hash;         /* strmap_hash(key): no rehash to grow, few strcmp() */
} StrMapSlot;

typedef struct StrMap {
        StrMapSlot *slots;
        size_t n_slots;        /* 0 or a power of two */
        size_t n_items;
} StrMap;

void strmap_done(StrMap *m);
/* The value for key, or NULL. */
void *strmap_get(const StrMap *m, const char *key);
/* Adds key -> value. Returns 1 when added, 0 when key was already present
 * (the map is left unchanged), -ENOMEM. */
int strmap_put(StrMap *m, const char *key, void *value);
/* The same with the key's strmap_hash() given: a caller that looks a key
 * up and then adds it (or adds it under an equal copy) hashes it once. */
void *strmap_get_hashed(const StrMap *m, const char *key, uint32_t hash);
int strmap_put_hashed(StrMap *m, const char *key, void *value, uint32_t hash);
/* Room for n items in all, so that they are put without the map growing
 * (rehashing) on the way: for a caller that knows about how many come.
 * Returns 0 or -ENOMEM (the map is unchanged then). */
int strmap_reserve(StrMap *m, size_t n);
/* Iteration in slot order: for (size_t i = 0; strmap_next(m, &i, &k, &v);) */
bool strmap_next(const StrMap *m, size_t *i, const char **ret_key, void **ret_value);
size_t strmap_size(const StrMap *m);
uint32_t strmap_hash(const char *s);
