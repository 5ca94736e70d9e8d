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

        /* valid, slot 0 and one slot per byte value asked for (at most 256). */
        need = words * (2 + 256);
        if (need > k->allocated) {
                uint64_t *n = reallocarray_safe(k->valid, need, sizeof(uint64_t));

                if (!n) {
                        k->usable = false;
                        return -ENOMEM;
                }
                k->valid = n;
                k->allocated = need;
        }
        if (words * 64 > k->long_text_allocated) {
                /* Whole 64-byte blocks, aligned for the comparisons. */
                uint8_t *t = aligned_alloc(64, words * 64);

                if (!t) {
                        k->usable = false;
                        return -ENOMEM;
                }
                free(k->long_text);
                k->long_text = t;
                k->long_text_allocated = words * 64;
        }
        k->masks = k->valid + words;

        for (size_t i = 0; i < words; i++)
                k->valid[i] = ~UINT64_C(0);
        /* Positions 0..len are valid: clear the bits above len. */
        if (len % 64 != 63)
                k->valid[words - 1] = (UINT64_C(1) << (len % 64 + 1)) - 1;

        memcpy(k->long_text, key, len);
        memset(k->long_text + len, 0, words * 64 - len);
        memset(k->index, 0, sizeof(k->index));
        k->n_masks = 1;         /* slot 0 is not used */
        return 0;
}

const uint64_t *hwdb_glob_byte_mask(HwdbGlobKey *k, uint8_t c) {
        const size_t words = k->words;
        uint64_t *m, carry = 0;

        if (k->index[c] != 0)
                return k->masks + (size_t) k->index[c] * words;
        k->index[c] = (uint16_t) k->n_masks;
        m = k->masks + (size_t) k->n_masks++ * words;
        for (size_t i = 0; i < words; i++) {
                uint64_t e = hwdb_glob_eq64(k->long_text + 64 * i, c);

                /* The zero padding matches c == 0: valid drops those. */
                m[i] = ((e << 1) | carry) & k->valid[i];
                carry = e >> 63;
        }
        return m;
}

void hwdb_glob_key_done(HwdbGlobKey *k) {
        free(k->valid);
        free(k->long_text);
        *k = (HwdbGlobKey) {};
}

bool hwdb_glob_step(HwdbGlobKey *k, uint64_t *dst, const uint64_t *src, uint8_t c) {
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
                m = hwdb_glob_byte_mask(k, c);
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

void hwdb_glob_restrict(HwdbGlobKey *k, uint64_t *s, const char *members, size_t n, bool negated) {
        const size_t words = k->words;

        if (words == 1) {
                uint64_t m = 0;

                for (size_t j = 0; j < n; j++)
                        m |= hwdb_glob_eq1(k, (uint8_t) members[j]);
                s[0] &= negated ? ~m : m;
                return;
        }

        /* s &= the union of the members' masks (or its complement): the
         * union is built in place in the words that stay. */
        uint64_t *acc = k->masks;       /* slot 0: not a byte's slot */

        for (size_t i = 0; i < words; i++)
                acc[i] = 0;
        for (size_t j = 0; j < n; j++) {
                const uint64_t *m = hwdb_glob_byte_mask(k, (uint8_t) members[j]);

                for (size_t i = 0; i < words; i++)
                        acc[i] |= m[i];
        }
        for (size_t i = 0; i < words; i++)
                s[i] &= negated ? ~acc[i] : acc[i];
}
