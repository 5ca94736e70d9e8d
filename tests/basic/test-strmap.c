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

TESTS_MAIN(T(put_get_grow), T(empty_and_short_keys))
