/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc-util.h"
#include "strmap.h"

/* Eight bytes at a time (keys are names and paths of some tens of bytes:
 * FNV-1a's byte loop cost as much as the rest of a lookup), each word
 * mixed in by a multiplication, the whole finished like MurmurHash3's
 * fmix64 so that the low bits, which pick the slot, depend on every byte.
 * No adversary worth a keyed hash here (inputs are file names from one
 * tree, and probing stays linear in the worst case). */
uint32_t strmap_hash(const char *s) {
        const uint64_t k = UINT64_C(0x9e3779b97f4a7c15);
        size_t len = strlen(s), n = len;
        uint64_t h = len * k, w;

        for (; n >= 8; n -= 8, s += 8) {
                memcpy(&w, s, 8);
                h = (h ^ w) * k;
                h ^= h >> 29;
        }
        /* The rest in one word: the last eight bytes of the key, or two
         * overlapping halves, or three bytes (the length is in h already). */
        if (n > 0) {
                if (len >= 8)
                        memcpy(&w, s + n - 8, 8);
                else if (n >= 4) {
                        uint32_t x, y;

                        memcpy(&x, s, 4);
                        memcpy(&y, s + n - 4, 4);
                        w = x | (uint64_t) y << 32;
                } else
                        w = (uint64_t) (unsigned char) s[0] | (uint64_t) (unsigned char) s[n / 2] << 8 |
                            (uint64_t) (unsigned char) s[n - 1] << 16;
                h = (h ^ w) * k;
        }
        h ^= h >> 33;
        h *= UINT64_C(0xff51afd7ed558ccd);
        h ^= h >> 33;
        h *= UINT64_C(0xc4ceb9fe1a85ec53);
        h ^= h >> 33;
        return (uint32_t) h;
}

void strmap_done(StrMap *m) {
        free(m->slots);
        *m = (StrMap) {};
}

static StrMapSlot *find_slot(StrMapSlot *slots, size_t n_slots, const char *key, uint32_t hash) {
        size_t mask = n_slots - 1, i = hash & mask;

        while (slots[i].key && (slots[i].hash != hash || strcmp(slots[i].key, key) != 0))
                i = (i + 1) & mask;
        return &slots[i];
}

void *strmap_get_hashed(const StrMap *m, const char *key, uint32_t hash) {
        StrMapSlot *s;

        if (m->n_slots == 0)
                return NULL;
        s = find_slot(m->slots, m->n_slots, key, hash);
        return s->key ? s->value : NULL;
}

void *strmap_get(const StrMap *m, const char *key) {
        return m->n_slots == 0 ? NULL : strmap_get_hashed(m, key, strmap_hash(key));
}

/* The slots rebuilt at n (a power of two, room for the items). */
static int resize(StrMap *m, size_t n) {
        StrMapSlot *slots;

        slots = new0(StrMapSlot, n);
        if (!slots)
                return -ENOMEM;
        for (size_t i = 0; i < m->n_slots; i++)
                if (m->slots[i].key)
                        *find_slot(slots, n, m->slots[i].key, m->slots[i].hash) = m->slots[i];
        free(m->slots);
        m->slots = slots;
        m->n_slots = n;
        return 0;
}

static int grow(StrMap *m) {
        size_t n = m->n_slots ? m->n_slots * 2 : 16;

        if (n < m->n_slots)
                return -ENOMEM;
        return resize(m, n);
}

int strmap_reserve(StrMap *m, size_t n) {
        size_t slots = m->n_slots ? m->n_slots : 16;

        /* The load stays at most half, as strmap_put() keeps it. */
        if (n > SIZE_MAX / 4)
                return -ENOMEM;
        while (n * 2 > slots)
                slots *= 2;
        return slots == m->n_slots ? 0 : resize(m, slots);
}

int strmap_put(StrMap *m, const char *key, void *value) {
        return strmap_put_hashed(m, key, value, strmap_hash(key));
}

int strmap_put_hashed(StrMap *m, const char *key, void *value, uint32_t hash) {
        StrMapSlot *s;
        int r;

        if ((m->n_items + 1) * 2 > m->n_slots) {
                r = grow(m);
                if (r < 0)
                        return r;
        }
        s = find_slot(m->slots, m->n_slots, key, hash);
        if (s->key)
                return 0;
        *s = (StrMapSlot) { .key = key, .value = value, .hash = hash };
        m->n_items++;
        return 1;
}

bool strmap_next(const StrMap *m, size_t *i, const char **ret_key, void **ret_value) {
        for (; *i < m->n_slots; (*i)++)
                if (m->slots[*i].key) {
                        if (ret_key)
                                *ret_key = m->slots[*i].key;
                        if (ret_value)
                                *ret_value = m->slots[*i].value;
                        (*i)++;
                        return true;
                }
        return false;
}

size_t strmap_size(const StrMap *m) {
        return m->n_items;
}
