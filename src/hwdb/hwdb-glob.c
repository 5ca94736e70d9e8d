/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "basic/macro.h"
#include "hwdb-glob.h"

static void set_bit(uint64_t *s, size_t pos) {
        s[pos / 64] |= UINT64_C(1) << (pos % 64);
}

void hwdb_glob_set_single(const HwdbGlobKey *k, uint64_t *s, size_t pos) {
        if (k->words == 1) {
                s[0] = UINT64_C(1) << pos;
                return;
        }
        memset(s, 0, k->words * sizeof(uint64_t));
        set_bit(s, pos);
}

int hwdb_glob_key_init(HwdbGlobKey *k, const char *key, size_t len) {
        size_t words = len / 64 + 1, need;

        if (len < 64) {
                /* valid is at least one word once any key was set up. */
                if (k->allocated == 0) {
                        k->valid = new0(uint64_t, 1);
                        if (!k->valid) {
                                k->usable = false;
                                return -ENOMEM;
                        }
                        k->allocated = 1;
                }
                k->len = len;
                k->usable = true;
                k->words = 1;
                k->masks = k->valid + 1;
                k->valid[0] = (UINT64_C(2) << len) - 1;     /* positions 0..len */
                memset(k->text, 0, sizeof(k->text));
                memcpy(k->text, key, len);
                return 0;
        }

        k->len = len;
        k->usable = len <= HWDB_GLOB_MAX_KEY;
        if (!k->usable)
                return 0;
        k->words = words;

        /* valid, slot 0 and one slot per distinct byte (at most 255). */
        need = words * (2 + MIN(len, (size_t) 255));
        if (need > k->allocated) {
                uint64_t *n = reallocarray_safe(k->valid, need, sizeof(uint64_t));

                if (!n) {
                        k->usable = false;
                        return -ENOMEM;
                }
                k->valid = n;
                k->allocated = need;
        }
        k->masks = k->valid + words;

        /* Locals, so the compiler need not reload through k on every store. */
        uint8_t *restrict index = k->index;
        uint64_t *restrict valid = k->valid;
        uint64_t *restrict masks = k->masks;
        unsigned n_masks = 1;  /* slot 0 stays all-zero: bytes absent from the key */

        for (size_t i = 0; i < words; i++)
                valid[i] = ~UINT64_C(0);
        /* Positions 0..len are valid: clear the bits above len. */
        if (len % 64 != 63)
                valid[words - 1] = (UINT64_C(1) << (len % 64 + 1)) - 1;

        /* A slot is cleared when a byte first takes it: a key uses far
         * fewer slots than it could (DMI keys: about 40 of 150), and one
         * memset of them all cost more than the rest of the set-up. */
        memset(index, 0, sizeof(k->index));
        memset(masks, 0, words * sizeof(uint64_t));
        for (size_t j = 0; j < len; j++) {
                uint8_t c = (uint8_t) key[j];
                unsigned slot = index[c];
                uint64_t *m;

                if (slot == 0) {
                        index[c] = (uint8_t) (slot = n_masks++);
                        for (size_t i = 0; i < words; i++)
                                masks[slot * words + i] = 0;
                }
                m = masks + slot * words;
                m[(j + 1) / 64] |= UINT64_C(1) << ((j + 1) % 64);
        }
        k->n_masks = n_masks;
        return 0;
}

void hwdb_glob_key_done(HwdbGlobKey *k) {
        free(k->valid);
        *k = (HwdbGlobKey) {};
}

bool hwdb_glob_step(const HwdbGlobKey *k, uint64_t *dst, const uint64_t *src, uint8_t c) {
        const size_t words = k->words;
        const uint64_t *m;

        if (c == '[' || c == '\\')
                return false;
        if (words == 1) {
                dst[0] = hwdb_glob_step1(k, src[0], c);
                return true;
        }

        switch (c) {
        case '*': {
                /* Every position from the smallest reachable one on. */
                size_t i = 0;

                while (i < words && src[i] == 0)
                        dst[i++] = 0;
                if (i == words)
                        return true;
                /* Lowest set bit b becomes "all bits >= b": the two's
                 * complement negation of b has exactly those bits set. */
                dst[i] = (UINT64_C(0) - (src[i] & (UINT64_C(0) - src[i]))) & k->valid[i];
                for (i++; i < words; i++)
                        dst[i] = k->valid[i];
                return true;
        }

        case '?':
                m = k->valid;
                break;

        default:
                m = k->masks + (size_t) k->index[c] * words;
                break;
        }

        /* Shift by one position, keep what the byte allows. Walk from the
         * top word down so dst may alias src. */
        for (size_t i = words; i-- > 0;) {
                uint64_t carry = i > 0 ? src[i - 1] >> 63 : 0;

                dst[i] = ((src[i] << 1) | carry) & m[i];
        }
        return true;
}

void hwdb_glob_restrict(const HwdbGlobKey *k, uint64_t *s, const char *members, size_t n, bool negated) {
        const size_t words = k->words;

        for (size_t i = 0; i < words; i++) {
                uint64_t m = 0;

                for (size_t j = 0; j < n; j++) {
                        uint8_t c = (uint8_t) members[j];

                        m |= words == 1 ? hwdb_glob_eq1(k, c) : k->masks[(size_t) k->index[c] * words + i];
                }
                s[i] &= negated ? ~m : m;
        }
}
