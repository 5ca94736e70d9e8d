/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc-util.h"
#include "strmap.h"

/* Eight bytes at a time, each word mixed by a multiply and a shift: keys
 * are file and unit names (no adversary worth a keyed hash here, and
 * probing stays linear in the worst case); byte-wise FNV-1a cost five
 * instructions per byte of every path looked up. */
uint32_t strmap_hash(const char *s) {
        size_t n = strlen(s);
        uint64_t h = 0x9e3779b97f4a7c15u ^ n, w;

        for (; n >= 8; n -= 8, s += 8) {
                memcpy(&w, s, 8);
                h = (h ^ w) * 0xff51afd7ed558ccdu;
                h ^= h >> 32;
        }
        w = 0;
        memcpy(&w, s, n);
        h = (h ^ w) * 0xc4ceb9fe1a85ec53u;
        h ^= h >> 29;
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

void *strmap_get(const StrMap *m, const char *key) {
        StrMapSlot *s;

        if (m->n_slots == 0)
                return NULL;
        s = find_slot(m->slots, m->n_slots, key, strmap_hash(key));
        return s->key ? s->value : NULL;
}

static int grow(StrMap *m) {
        size_t n = m->n_slots ? m->n_slots * 2 : 16;
        StrMapSlot *slots;

        if (n < m->n_slots)
                return -ENOMEM;
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

int strmap_put(StrMap *m, const char *key, void *value) {
        StrMapSlot *s;
        uint32_t hash;
        int r;

        if ((m->n_items + 1) * 2 > m->n_slots) {
                r = grow(m);
                if (r < 0)
                        return r;
        }
        hash = strmap_hash(key);
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
