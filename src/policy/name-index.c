/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>

#include "basic/macro.h"
#include "name-index.h"

#define POSITION_MAX ((size_t) INT32_MAX)

/* FNV-1a: short names, no adversary worth more than a slow load. */
static size_t hash_name(const char *s) {
        uint32_t h = 2166136261u;

        for (; *s; s++)
                h = (h ^ (unsigned char) *s) * 16777619u;
        return h;
}

void name_index_done(NameIndex *x) {
        free(x->slots);
        *x = (NameIndex) {};
}

int name_index_find(const NameIndex *x, const char *name, NameIndexKey key, const void *owner, size_t *ret) {
        size_t mask;

        if (x->n_slots == 0)
                return -ENOENT;
        mask = x->n_slots - 1;
        for (size_t h = hash_name(name) & mask;; h = (h + 1) & mask) {
                uint32_t s = x->slots[h];

                if (s == 0)
                        return -ENOENT;
                if (streq(key(owner, s - 1), name)) {
                        *ret = s - 1;
                        return 0;
                }
        }
}

static void put(uint32_t *slots, size_t n_slots, size_t position, const char *name) {
        size_t mask = n_slots - 1, h = hash_name(name) & mask;

        while (slots[h] != 0)
                h = (h + 1) & mask;
        slots[h] = (uint32_t) position + 1;
}

/* Keeps the table at most half full, so that probe runs stay short. */
static int grow(NameIndex *x, NameIndexKey key, const void *owner) {
        size_t n = x->n_slots ? x->n_slots * 2 : 16;
        uint32_t *slots;

        if (n > SIZE_MAX / sizeof(uint32_t))
                return -ENOMEM;
        slots = calloc(n, sizeof(uint32_t));
        if (!slots)
                return -ENOMEM;
        for (size_t i = 0; i < x->n_slots; i++)
                if (x->slots[i] != 0)
                        put(slots, n, x->slots[i] - 1, key(owner, x->slots[i] - 1));
        free(x->slots);
        x->slots = slots;
        x->n_slots = n;
        return 0;
}

int name_index_add(NameIndex *x, size_t position, NameIndexKey key, const void *owner) {
        int r;

        if (position >= POSITION_MAX)
                return -E2BIG;
        if ((x->n_used + 1) * 2 > x->n_slots) {
                r = grow(x, key, owner);
                if (r < 0)
                        return r;
        }
        put(x->slots, x->n_slots, position, key(owner, position));
        x->n_used++;
        return 0;
}
