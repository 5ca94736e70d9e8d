/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Compiled glob subtrees (hwdb-dfa.h) must never change an answer: on
 * random tries, every key is looked up several times through one lookup
 * state (so the subtrees it meets get compiled and then used) and compared
 * with the plain scan, property by property, in order. Also with a memory
 * cap so small that DFAs are refused or drop their states mid-key. */
#include <stdlib.h>

#include "hwdb-test-util.h"
#include "tests.h"

static unsigned next_rand(unsigned *seed) {
        *seed = *seed * 1103515245u + 12345u;
        return *seed >> 16;
}

/* Patterns from alphabet, 40 of them, each setting a property that some
 * other patterns set too (so which value wins, and where the key stays,
 * depends on the order matches come in). With long_keys every pattern
 * takes the 70 bytes of padding in a leading '*'. */
static void random_source(char *src, size_t size, const char *alphabet, bool long_keys, unsigned *seed) {
        size_t o = 0;

        for (int p = 0; p < 40 && o + 64 < size; p++) {
                size_t n = 1 + next_rand(seed) % 10;

                src[o++] = 'k';
                if (long_keys)
                        src[o++] = '*';
                for (size_t i = 0; i < n; i++)
                        src[o++] = alphabet[next_rand(seed) % strlen(alphabet)];
                o += (size_t) snprintf(src + o, size - o, "\n P%02u=%d\n Q=%d\n\n", next_rand(seed) % 8, p, p);
        }
        src[o] = '\0';
}

static void random_key(char *key, bool long_keys, unsigned *seed) {
        static const char key_alpha[] = "abc?*[]\\:";
        size_t n = (long_keys ? 70 : 0) + next_rand(seed) % 12;

        key[0] = 'k';
        for (size_t i = 1; i <= n; i++)
                key[i] = key_alpha[next_rand(seed) % (sizeof(key_alpha) - 1)];
        key[n + 1] = '\0';
}

static bool same_answer(const HwdbLookup *a, const HwdbLookup *b) {
        for (size_t i = 0; i < a->n_props; i++)
                if (!streq(a->props[i].key, b->props[i].key) || !streq(a->props[i].value, b->props[i].value))
                        return false;
        return true;
}

/* Returns the number of non-empty answers. */
static size_t compare_random(const char *alphabet, bool long_keys, size_t memory_max, unsigned seed) {
        size_t nonempty = 0;

        for (int round = 0; round < 60; round++) {
                _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
                _cleanup_(hwdb_lookup_done) HwdbLookup dfa = {}, scan = {};
                char src[8192], keys[64][96];

                random_source(src, sizeof(src), alphabet, long_keys, &seed);
                if (build_db(src, NULL, &b) != 0) {
                        CHECK(false);
                        return nonempty;
                }
                dfa.dfa.memory_max = memory_max;
                scan.no_dfa = true;
                for (size_t k = 0; k < ELEMENTSOF(keys); k++)
                        random_key(keys[k], long_keys, &seed);

                /* Three passes: the first compiles little, the later ones
                 * run the DFAs, alternating plain and path-sharing lookups. */
                for (int pass = 0; pass < 3; pass++)
                        for (size_t k = 0; k < ELEMENTSOF(keys); k++) {
                                int rd = (k + (size_t) pass) % 2 ? hwdb_lookup(&dfa, b, keys[k])
                                                                 : hwdb_lookup_next(&dfa, b, keys[k]);
                                int rs = hwdb_lookup(&scan, b, keys[k]);

                                CHECK_INT_EQ(rd, rs);
                                if (rd != rs || !same_answer(&dfa, &scan)) {
                                        fprintf(stderr, "key '%s' differs\n%s\n", keys[k], src);
                                        CHECK(false);
                                        return nonempty;
                                }
                                nonempty += rd > 0;
                        }
        }
        return nonempty;
}

TEST(compiled_subtrees_change_nothing) {
        /* Only what compiles, then with brackets and escapes here and
         * there (those subtrees stay with the scan, their neighbours not). */
        CHECK(compare_random("abc*?:", false, 0, 1) > 1000);
        CHECK(compare_random("abc*?:", true, 0, 2) > 1000);
        CHECK(compare_random("ab*?*:[]!\\", false, 0, 3) > 500);
        CHECK(compare_random("ab*?*:[]!\\", true, 0, 4) > 500);
}

TEST(memory_cap) {
        /* Room for a few states: DFAs are refused, or drop their states
         * and leave the key to the scan. */
        for (size_t max = 256; max <= 64 * 1024; max *= 4) {
                CHECK(compare_random("abc*?:", false, max, 5) > 1000);
                CHECK(compare_random("abc*?:", true, max, 6) > 1000);
        }
}

TEST(subtree_boundaries) {
        /* A glob inside a node's prefix (the scan starts mid-node), keys
         * ending at every place of a pattern, stars at both ends, many
         * children below one node, and a key that is all stars. */
        static const char src[] =
                "m:ab*cd\n A=1\n\nm:ab*c\n A=2\n\nm:ab*\n B=1\n\nm:ab?d*\n C=1\n\n"
                "m:abx*y*z\n D=1\n\nm:*\n E=1\n\nm:**\n E=2\n\nm:a*0\n F=0\n\nm:a*1\n F=1\n\n"
                "m:a*2\n F=2\n\nm:a*3\n F=3\n\nm:a*4\n F=4\n\nm:a*5\n F=5\n\nm:a?\n G=1\n\n";
        static const char *const keys[] = {
                "m:ab", "m:abcd", "m:abc", "m:abxd", "m:abxdcd", "m:abxyz", "m:abxyyzz", "m:a",
                "m:a0", "m:a55", "m:ab5", "m:abcd4", "m:***", "m:", "m", "m:abcdcdcd",
        };
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
        _cleanup_(hwdb_lookup_done) HwdbLookup dfa = {}, scan = {};

        CHECK(build_db(src, NULL, &b) == 0);
        scan.no_dfa = true;
        for (int pass = 0; pass < 3; pass++)
                for (size_t k = 0; k < ELEMENTSOF(keys); k++) {
                        int rd = hwdb_lookup_next(&dfa, b, keys[k]), rs = hwdb_lookup(&scan, b, keys[k]);

                        CHECK_INT_EQ(rd, rs);
                        CHECK(rd == rs && same_answer(&dfa, &scan));
                }
}

TESTS_MAIN(T(compiled_subtrees_change_nothing), T(memory_cap), T(subtree_boundaries))
