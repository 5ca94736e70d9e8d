/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The position-set matcher used for pruning must agree with fnmatch(3):
 * exactly at the end of a pattern, and conservatively (never a false
 * "cannot match") for every prefix. Checked on random patterns and keys. */
#include <fnmatch.h>
#include <stdlib.h>

#include "hwdb/hwdb-glob.h"
#include "tests.h"

static unsigned rnd(unsigned *s) {
        *s = *s * 1103515245u + 12345u;
        return (*s >> 16) & 0x7fff;
}

static void random_string(unsigned *s, char *buf, size_t max, const char *alphabet) {
        size_t n = rnd(s) % (max + 1), k = strlen(alphabet);

        for (size_t i = 0; i < n; i++)
                buf[i] = alphabet[rnd(s) % k];
        buf[n] = '\0';
}

/* Runs the matcher over pat; returns -1 if it gave up ('[' or '\\'),
 * otherwise whether the full pattern matches. *ret_dead is set to the first
 * prefix length at which the set became empty (or -1). */
static int run(HwdbGlobKey *k, const char *pat, int *ret_dead) {
        uint64_t s[HWDB_GLOB_MAX_KEY / 64 + 1], t[HWDB_GLOB_MAX_KEY / 64 + 1];

        *ret_dead = -1;
        hwdb_glob_set_single(k, s, 0);
        for (size_t i = 0; pat[i]; i++) {
                /* Alternate between in-place and copying steps. */
                if (!hwdb_glob_step(k, i % 2 ? s : t, s, (uint8_t) pat[i]))
                        return -1;
                if (i % 2 == 0)
                        memcpy(s, t, k->words * sizeof(uint64_t));
                if (*ret_dead < 0 && hwdb_glob_set_empty(k, s))
                        *ret_dead = (int) i + 1;
        }
        return hwdb_glob_accepts(k, s);
}

TEST(random_against_fnmatch) {
        HwdbGlobKey k = {};
        unsigned seed = 42;
        char key[400], pat[400], ext[20], full[420];
        int checked = 0;

        for (int iter = 0; iter < 200000; iter++) {
                int dead, m;

                /* Mostly short keys; some cross the 64-bit word borders. */
                if (iter % 10 == 0) {
                        random_string(&seed, key, 300, "ab");
                        random_string(&seed, pat, 30, "ab*?**");
                } else {
                        random_string(&seed, key, 12, "ab/.");
                        random_string(&seed, pat, 10, "ab*?/.");
                }
                CHECK(hwdb_glob_key_init(&k, key, strlen(key)) == 0);
                m = run(&k, pat, &dead);
                CHECK(m >= 0);
                if (m != (fnmatch(pat, key, 0) == 0)) {
                        fprintf(stderr, "pattern '%s' key '%s': matcher %d\n", pat, key, m);
                        CHECK(false);
                        return;
                }
                if (dead >= 0) {
                        /* No extension of a dead prefix may match. */
                        random_string(&seed, ext, 6, "ab*?[]!\\");
                        snprintf(full, sizeof(full), "%.*s%s", dead, pat, ext);
                        if (fnmatch(full, key, 0) == 0) {
                                fprintf(stderr, "dead prefix '%.*s' but '%s' matches '%s'\n", dead, pat,
                                        full, key);
                                CHECK(false);
                                return;
                        }
                        checked++;
                }
        }
        CHECK(checked > 1000);
        hwdb_glob_key_done(&k);
}

TEST(brackets_and_escapes_give_up) {
        HwdbGlobKey k = {};
        int dead;

        CHECK(hwdb_glob_key_init(&k, "abc", 3) == 0);
        CHECK_INT_EQ(run(&k, "a[b]c", &dead), -1);
        CHECK_INT_EQ(run(&k, "a\\bc", &dead), -1);
        CHECK_INT_EQ(run(&k, "a*", &dead), 1);
        CHECK_INT_EQ(run(&k, "?b?", &dead), 1);
        CHECK_INT_EQ(run(&k, "??", &dead), 0);
        CHECK_INT_EQ(run(&k, "x*", &dead), 0);
        CHECK_INT_EQ(dead, 1);
        hwdb_glob_key_done(&k);
}

TEST(long_keys_unusable) {
        static char key[HWDB_GLOB_MAX_KEY + 2];
        HwdbGlobKey k = {};
        int dead;

        memset(key, 'a', sizeof(key) - 1);
        CHECK(hwdb_glob_key_init(&k, key, HWDB_GLOB_MAX_KEY) == 0);
        CHECK(k.usable);
        /* The last usable position still works. */
        CHECK_INT_EQ(run(&k, "*a", &dead), 1);
        CHECK_INT_EQ(run(&k, "*b", &dead), 0);
        CHECK_INT_EQ(run(&k, "a*a?", &dead), 1);
        CHECK(hwdb_glob_key_init(&k, key, HWDB_GLOB_MAX_KEY + 1) == 0);
        CHECK(!k.usable);
        hwdb_glob_key_done(&k);
}

TESTS_MAIN(T(random_against_fnmatch), T(brackets_and_escapes_give_up), T(long_keys_unusable))
