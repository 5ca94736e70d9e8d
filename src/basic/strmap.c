/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc-util.h"
#include "strmap.h"

/* FNV-1a: short keys, no adversary worth a keyed hash here (inputs are
 * file names from one tree, and probing stays linear in the worst case). */
uint32_t strmap_hash(const char *s) {
        uint32_t h = 2166136261u;

        for (; *s; s++)
                h = (h ^ (unsigned char) *s) * 16777619u;
        return h;
}

void strmap_done(StrMap *m) {
        free(m->slots);
        *m = (StrMap) {};
}

static StrMapSlot *find_slot(StrMapSlot *slots, size_t n_slots, const char *key) {
        size_t mask = n_slots - 1, i = strmap_hash(key) & mask;

        while (slots[i].key && strcmp(slots[i].key, key) != 0)
                i = (i + 1) & mask;
        return &slots[i];
}

void *strmap_get(const StrMap *m, const char *key) {
        StrMapSlot *s;

        if (m->n_slots == 0)
                return NULL;
        s = find_slot(m->slots, m->n_slots, key);
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
                        *find_slot(slots, n, m->slots[i].key) = m->slots[i];
        free(m->slots);
        m->slots = slots;
        m->n_slots = n;
        return 0;
}

int strmap_put(StrMap *m, const char *key, void *value) {
        StrMapSlot *s;
        int r;

        if ((m->n_items + 1) * 2 > m->n_slots) {
                r = grow(m);
                if (r < 0)
                        return r;
        }
        s = find_slot(m->slots, m->n_slots, key);
        if (s->key)
                return 0;
        *s = (StrMapSlot) { .key = key, .value = value };
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
