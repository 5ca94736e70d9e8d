/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* StrMap: every key put is found again with its value, across growth, for
 * keys of every length around the hash's 8-byte words and keys that differ
 * only in their last byte; a duplicate put leaves the map unchanged. */
#include <stdio.h>

#include "basic/strmap.h"
#include "tests.h"

#define N_KEYS 3000

TEST(put_get_grow) {
        static char keys[N_KEYS][40];
        StrMap m = {};
        size_t seen = 0, i = 0;
        const char *k;
        void *v;

        for (size_t n = 0; n < N_KEYS; n++) {
                /* Lengths 1..24 cycle; the number sits at the end. */
                size_t len = 1 + n % 24;

                memset(keys[n], 'a', len);
                snprintf(keys[n] + (len > 5 ? len - 5 : 0), 6, "%05zu", n);
                CHECK_INT_EQ(strmap_put(&m, keys[n], &keys[n]), 1);
        }
        CHECK_INT_EQ(strmap_size(&m), N_KEYS);
        for (size_t n = 0; n < N_KEYS; n++)
                CHECK(strmap_get(&m, keys[n]) == &keys[n]);

        /* A second put of an equal key (another buffer) changes nothing. */
        {
                char copy[40];

                strcpy(copy, keys[17]);
                CHECK_INT_EQ(strmap_put(&m, copy, NULL), 0);
                CHECK(strmap_get(&m, copy) == &keys[17]);
        }
        CHECK(strmap_get(&m, "") == NULL);
        CHECK(strmap_get(&m, "aaaaaaaaaaaaaaaaaaaaaaaa") == NULL);
        CHECK(strmap_get(&m, "not-there.service") == NULL);

        while (strmap_next(&m, &i, &k, &v)) {
                CHECK(v == (void *) k);
                seen++;
        }
        CHECK_INT_EQ(seen, N_KEYS);
        strmap_done(&m);
        CHECK(strmap_get(&m, keys[0]) == NULL);
}

TEST(empty_and_short_keys) {
        StrMap m = {};
        static const char *const keys[] = { "", "a", "b", "ab", "ba", "abcdefg", "abcdefgh", "abcdefgi",
                                            "abcdefghi", "abcdefghj" };

        for (size_t n = 0; n < sizeof(keys) / sizeof(keys[0]); n++)
                CHECK_INT_EQ(strmap_put(&m, keys[n], (void *) keys[n]), 1);
        for (size_t n = 0; n < sizeof(keys) / sizeof(keys[0]); n++)
                CHECK_STR_EQ(strmap_get(&m, keys[n]), keys[n]);
        strmap_done(&m);
}

/* A reserved map takes that many keys without growing (its slots stay
 * where they are), keeps what it held across the reserve, and the hashed
 * calls agree with the plain ones. */
TEST(reserve_and_hashed) {
        static char keys[600][16];
        StrMap m = {};
        StrMapSlot *slots;

        CHECK_INT_EQ(strmap_put(&m, "kept.service", (void *) "kept"), 1);
        CHECK_INT_EQ(strmap_reserve(&m, 601), 0);
        CHECK(m.n_slots >= 2 * 601);
        CHECK_STR_EQ(strmap_get(&m, "kept.service"), "kept");
        slots = m.slots;
        for (size_t n = 0; n < 600; n++) {
                uint32_t h;

                snprintf(keys[n], sizeof keys[n], "u%zu.service", n);
                h = strmap_hash(keys[n]);
                CHECK(strmap_get_hashed(&m, keys[n], h) == NULL);
                CHECK_INT_EQ(strmap_put_hashed(&m, keys[n], keys[n], h), 1);
                CHECK_INT_EQ(strmap_put_hashed(&m, keys[n], NULL, h), 0);
        }
        CHECK(m.slots == slots);        /* no growth on the way */
        CHECK_INT_EQ(strmap_size(&m), 601);
        for (size_t n = 0; n < 600; n++) {
                CHECK(strmap_get(&m, keys[n]) == keys[n]);
                CHECK(strmap_get_hashed(&m, keys[n], strmap_hash(keys[n])) == keys[n]);
        }
        /* Reserving less than there is changes nothing; more grows. */
        CHECK_INT_EQ(strmap_reserve(&m, 10), 0);
        CHECK(m.slots == slots);
        CHECK_INT_EQ(strmap_reserve(&m, 5000), 0);
        CHECK(m.n_slots >= 10000);
        for (size_t n = 0; n < 600; n++)
                CHECK(strmap_get(&m, keys[n]) == keys[n]);
        CHECK_STR_EQ(strmap_get(&m, "kept.service"), "kept");
        strmap_done(&m);

        /* Reserve on an empty map, then the first put. */
        CHECK_INT_EQ(strmap_reserve(&m, 0), 0);
        CHECK_INT_EQ(strmap_put(&m, "a", (void *) "a"), 1);
        CHECK_STR_EQ(strmap_get(&m, "a"), "a");
        strmap_done(&m);
}

TESTS_MAIN(T(put_get_grow), T(empty_and_short_keys), T(reserve_and_hashed))
