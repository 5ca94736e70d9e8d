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
static int run(const HwdbGlobKey *k, const char *pat, int *ret_dead) {
        HwdbGlobSet s;

        *ret_dead = -1;
        hwdb_glob_set_single(&s, 0);
        for (size_t i = 0; pat[i]; i++) {
                if (!hwdb_glob_step(k, &s, (uint8_t) pat[i]))
                        return -1;
                if (*ret_dead < 0 && hwdb_glob_set_empty(&s))
                        *ret_dead = (int) i + 1;
        }
        return hwdb_glob_accepts(k, &s);
}

TEST(random_against_fnmatch) {
        static HwdbGlobKey k;
        unsigned seed = 42;
        char key[40], pat[40], ext[20], full[64];
        int checked = 0;

        for (int iter = 0; iter < 200000; iter++) {
                int dead, m;

                random_string(&seed, key, 12, "ab/.");
                random_string(&seed, pat, 10, "ab*?/.");
                hwdb_glob_key_init(&k, key, strlen(key));
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
}

TEST(brackets_and_escapes_give_up) {
        static HwdbGlobKey k;
        int dead;

        hwdb_glob_key_init(&k, "abc", 3);
        CHECK_INT_EQ(run(&k, "a[b]c", &dead), -1);
        CHECK_INT_EQ(run(&k, "a\\bc", &dead), -1);
        CHECK_INT_EQ(run(&k, "a*", &dead), 1);
        CHECK_INT_EQ(run(&k, "?b?", &dead), 1);
        CHECK_INT_EQ(run(&k, "??", &dead), 0);
        CHECK_INT_EQ(run(&k, "x*", &dead), 0);
        CHECK_INT_EQ(dead, 1);
}

TEST(long_keys_unusable) {
        static HwdbGlobKey k;
        char key[HWDB_GLOB_MAX_KEY + 2];

        memset(key, 'a', sizeof(key) - 1);
        key[sizeof(key) - 1] = '\0';
        hwdb_glob_key_init(&k, key, HWDB_GLOB_MAX_KEY);
        CHECK(k.usable);
        hwdb_glob_key_init(&k, key, HWDB_GLOB_MAX_KEY + 1);
        CHECK(!k.usable);

        /* The last usable position still works. */
        hwdb_glob_key_init(&k, key, HWDB_GLOB_MAX_KEY);
        int dead;
        CHECK_INT_EQ(run(&k, "*a", &dead), 1);
        CHECK_INT_EQ(run(&k, "*b", &dead), 0);
}

TESTS_MAIN(T(random_against_fnmatch), T(brackets_and_escapes_give_up), T(long_keys_unusable))
