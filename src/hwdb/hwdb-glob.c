/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "hwdb-glob.h"

static void set_bit(HwdbGlobSet *s, size_t pos) {
        s->w[pos / 64] |= UINT64_C(1) << (pos % 64);
}

void hwdb_glob_set_single(HwdbGlobSet *s, size_t pos) {
        memset(s, 0, sizeof(*s));
        set_bit(s, pos);
}

void hwdb_glob_key_init(HwdbGlobKey *k, const char *key, size_t len) {
        k->len = len;
        k->usable = len <= HWDB_GLOB_MAX_KEY;
        if (!k->usable)
                return;

        memset(k->index, 0, sizeof(k->index));
        memset(&k->valid, 0, sizeof(k->valid));
        k->n_masks = 1;  /* slot 0 stays all-zero: bytes absent from the key */
        memset(&k->masks[0], 0, sizeof(k->masks[0]));

        for (size_t j = 0; j <= len; j++)
                set_bit(&k->valid, j);

        for (size_t j = 0; j < len; j++) {
                uint8_t c = (uint8_t) key[j];
                unsigned slot = k->index[c];

                if (slot == 0) {
                        slot = k->n_masks++;
                        k->index[c] = (uint8_t) slot;
                        memset(&k->masks[slot], 0, sizeof(k->masks[slot]));
                }
                set_bit(&k->masks[slot], j + 1);
        }
}

static void shift_left_one(HwdbGlobSet *s) {
        for (unsigned i = HWDB_GLOB_WORDS - 1; i > 0; i--)
                s->w[i] = (s->w[i] << 1) | (s->w[i - 1] >> 63);
        s->w[0] <<= 1;
}

bool hwdb_glob_step(const HwdbGlobKey *k, HwdbGlobSet *s, uint8_t c) {
        switch (c) {
        case '[':
        case '\\':
                return false;

        case '*': {
                /* Every position from the smallest reachable one on. */
                unsigned i = 0;

                while (i < HWDB_GLOB_WORDS && s->w[i] == 0)
                        i++;
                if (i == HWDB_GLOB_WORDS)
                        return true;
                /* Lowest set bit b becomes "all bits >= b": the two's
                 * complement negation of b has exactly those bits set. */
                s->w[i] = UINT64_C(0) - (s->w[i] & (UINT64_C(0) - s->w[i]));
                for (i++; i < HWDB_GLOB_WORDS; i++)
                        s->w[i] = ~UINT64_C(0);
                for (i = 0; i < HWDB_GLOB_WORDS; i++)
                        s->w[i] &= k->valid.w[i];
                return true;
        }

        case '?':
                shift_left_one(s);
                for (unsigned i = 0; i < HWDB_GLOB_WORDS; i++)
                        s->w[i] &= k->valid.w[i];
                return true;

        default: {
                const HwdbGlobSet *m = &k->masks[k->index[c]];

                shift_left_one(s);
                for (unsigned i = 0; i < HWDB_GLOB_WORDS; i++)
                        s->w[i] &= m->w[i];
                return true;
        }
        }
}
