/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Pruning must never change an answer: on a real database (the system's
 * hwdb.bin, or the file named by $HWDB_BIN), keys made from the trie's own
 * match strings get identical answers with and without pruning. The pruned
 * side walks with hwdb_lookup_next(), reusing the path of the key before
 * (keys come in trie order, so neighbours share most of it). Also checks
 * the lookup-state reuse and the property index for large answers. */
#include <stdlib.h>

#include "hwdb-test-util.h"
#include "hwdb/hwdb-dirs.h"
#include "tests.h"

typedef struct Walk {
        char pattern[4096];
        char **keys;
        size_t n_keys, allocated;
        unsigned counter;
} Walk;

static void add_key(Walk *w, const char *k) {
        if (w->n_keys == w->allocated) {
                w->allocated = w->allocated ? w->allocated * 2 : 1024;
                w->keys = realloc(w->keys, w->allocated * sizeof(char *));
                if (!w->keys)
                        abort();
        }
        w->keys[w->n_keys++] = strdup(k);
}

/* Turns a pattern into a key it probably matches; fill picks the text put
 * in for '*'. */
static void instantiate(const char *pat, int fill, char *out, size_t size) {
        static const char *const stars[] = { "", "0A", "XYZ123", "sv00001234sd00005678bc03sc00i00" };
        size_t o = 0;

        for (const char *p = pat; *p && o + 40 < size; p++) {
                if (*p == '*') {
                        o += (size_t) snprintf(out + o, size - o, "%s", stars[fill % 4]);
                } else if (*p == '?')
                        out[o++] = 'A';
                else if (*p == '[') {
                        const char *end = strchr(p + 1, ']');
                        out[o++] = end && p[1] != '!' && p[1] != '^' ? p[1] : 'x';
                        if (end)
                                p = end;
                } else
                        out[o++] = *p;
        }
        out[o] = '\0';
}

static void walk(const HwdbBin *b, uint64_t off, size_t len, Walk *w, int depth) {
        HwdbNode n;
        size_t pl;

        if (depth > 400 || hwdb_bin_node(b, off, &n) < 0)
                return;
        pl = strlen(n.prefix);
        if (len + pl + 2 >= sizeof(w->pattern))
                return;
        memcpy(w->pattern + len, n.prefix, pl + 1);
        len += pl;
        if (n.n_values > 0 && w->counter++ % 5 == 0) {
                char key[8192];
                for (int fill = 0; fill < 4; fill++) {
                        instantiate(w->pattern, fill + (int) w->counter, key, sizeof(key));
                        add_key(w, key);
                }
        }
        for (unsigned i = 0; i < n.n_children; i++) {
                uint8_t c;
                uint64_t child;

                hwdb_bin_child(b, &n, i, &c, &child);
                w->pattern[len] = (char) c;
                walk(b, child, len + 1, w, depth + 1);
        }
}

TEST(prune_changes_nothing) {
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
        _cleanup_(hwdb_lookup_done) HwdbLookup fast = {}, slow = {};
        const char *path = getenv("HWDB_BIN");
        Walk w = {};
        size_t matched = 0;
        int r;

        if (!path) {
                for (const char *const *p = hwdb_default_bin_paths; *p && !b; p++)
                        if (hwdb_bin_open(*p, &b, NULL) >= 0)
                                path = *p;
        } else
                CHECK(hwdb_bin_open(path, &b, NULL) == 0);
        if (!b) {
                printf("no hwdb.bin on this system, skipping\n");
                exit(77);
        }

        walk(b, b->root_off, 0, &w, 0);
        CHECK(w.n_keys > 100);
        slow.no_prune = true;
        /* Under valgrind every 16th key, still in order (the fast side
         * resumes from the previous key's path). */
        size_t stride = (size_t) test_rounds(1, 16), checked = 0;
        for (size_t i = 0; i < w.n_keys; i += stride) {
                checked++;
                int rf = hwdb_lookup_next(&fast, b, w.keys[i]);
                int rs = hwdb_lookup(&slow, b, w.keys[i]);

                CHECK_INT_EQ(rf, rs);
                if (rf != rs || rf < 0) {
                        fprintf(stderr, "key '%s'\n", w.keys[i]);
                        break;
                }
                matched += rf > 0;
                for (size_t k = 0; k < fast.n_props; k++)
                        if (!streq(fast.props[k].key, slow.props[k].key) ||
                            !streq(fast.props[k].value, slow.props[k].value)) {
                                fprintf(stderr, "key '%s' differs at property %zu\n", w.keys[i], k);
                                CHECK(false);
                                break;
                        }
        }
        printf("%s: %zu keys, %zu looked up, %zu with properties\n", path, w.n_keys, checked, matched);
        CHECK(matched > checked / 2);
        for (size_t i = 0; i < w.n_keys; i++)
                free(w.keys[i]);
        free(w.keys);
        (void) r;
}

TEST(many_properties) {
        /* Enough keys to switch the result to its hash index, set twice with
         * different priorities through two patterns. */
        _cleanup_free_ char *src = malloc(64 * 1024);
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
        _cleanup_(hwdb_lookup_done) HwdbLookup l = {};
        size_t o = 0;

        CHECK(src);
        o += (size_t) sprintf(src + o, "k:*\n");
        for (int i = 0; i < 300; i++)
                o += (size_t) sprintf(src + o, " P%03d=star\n", i);
        o += (size_t) sprintf(src + o, "\nk:x\n");
        for (int i = 0; i < 300; i += 2)
                o += (size_t) sprintf(src + o, " P%03d=exact\n", i);
        CHECK(build_db(src, NULL, &b) == 0);
        for (int round = 0; round < 3; round++) {
                CHECK_INT_EQ(hwdb_lookup(&l, b, "k:x"), 300);
                for (int i = 0; i < 300; i++) {
                        char name[8];
                        snprintf(name, sizeof(name), "P%03d", i);
                        CHECK_STR_EQ(l.props[i].key, name);
                        CHECK_STR_EQ(l.props[i].value, i % 2 == 0 ? "exact" : "star");
                }
                CHECK_INT_EQ(hwdb_lookup(&l, b, "k:y"), 300);
                CHECK_STR_EQ(l.props[0].value, "star");
                CHECK_INT_EQ(hwdb_lookup(&l, b, "nothing"), 0);
        }
}

TEST(old_value_format) {
        /* 16-byte value entries carry no priority: the value met last in the
         * walk wins, so the more specific (later walked) record beats a
         * later file. With 32-byte entries the later file wins. */
        const char *srcs[] = {
                "p:generic:specific*\n PRIO=10-base-specific\n",
                "p:generic*\n PRIO=20-override\n",
        };
        for (unsigned vs = 16; vs <= 32; vs += 16) {
                _cleanup_(hwdb_trie_freep) HwdbTrie *t = NULL;
                _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
                _cleanup_(diag_list_done) DiagList d = {};
                void *image;
                size_t size;
                char out[256];

                CHECK(hwdb_trie_new(&t) == 0);
                for (size_t i = 0; i < 2; i++)
                        CHECK(hwdb_source_parse(t, srcs[i], strlen(srcs[i]), i ? "20.hwdb" : "10.hwdb",
                                                (uint16_t) (i + 1), &d) >= 0);
                CHECK(hwdb_trie_write_memory_full(t, vs, &image, &size) == 0);
                CHECK(hwdb_bin_new_from_memory(image, size, true, &b, NULL) == 0);
                CHECK(hwdb_bin_verify(b, NULL) > 0);
                CHECK_INT_EQ(answer(b, "p:generic:specific:x", out, sizeof(out)), 1);
                CHECK_STR_EQ(out, vs == 16 ? "PRIO=10-base-specific\n" : "PRIO=20-override\n");
        }
}

/* Random patterns full of brackets, negations, ranges, escapes and
 * unterminated brackets, random keys: pruning on and off must give the same
 * answers, and those must be fnmatch's. With pad > 0, every key has pad
 * bytes more and every pattern a '*' to take them, so the position sets
 * span more than one word; keys of 64 to 127 bytes are also looked up with
 * the general multi-word scan instead of the 128-bit one (no_wide_int),
 * which must answer the same. Returns the number of non-empty answers, at
 * least five per round when all is well. */
static size_t prune_random(size_t pad, unsigned seed, int rounds) {
        static const char pat_alpha[] = "ab*?*[]!^-\\:";
        static const char key_alpha[] = "ab[]!-\\:";
        size_t nonempty = 0;

        for (int round = 0; round < rounds; round++) {
                _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
                _cleanup_(hwdb_lookup_done) HwdbLookup fast = {}, slow = {}, wide = {};
                char src[8192];
                size_t o = 0;

                for (int p = 0; p < 40; p++) {
                        seed = seed * 1103515245u + 12345u;
                        size_t n = 1 + (seed >> 16) % 9;
                        src[o++] = 'k';
                        if (pad > 0)
                                src[o++] = '*';
                        for (size_t i = 0; i < n; i++) {
                                seed = seed * 1103515245u + 12345u;
                                src[o++] = pat_alpha[(seed >> 16) % (sizeof(pat_alpha) - 1)];
                        }
                        o += (size_t) sprintf(src + o, "\n P%02d=%d\n\n", p, p);
                }
                src[o] = '\0';
                if (build_db(src, NULL, &b) != 0) {
                        CHECK(false);
                        return 0;
                }
                slow.no_prune = true;
                wide.no_wide_int = true;

                for (int k = 0; k < 200; k++) {
                        char key[160];
                        seed = seed * 1103515245u + 12345u;
                        size_t n = pad + (seed >> 16) % 8;
                        key[0] = 'k';
                        for (size_t i = 1; i <= n; i++) {
                                seed = seed * 1103515245u + 12345u;
                                key[i] = key_alpha[(seed >> 16) % (sizeof(key_alpha) - 1)];
                        }
                        key[n + 1] = '\0';
                        int rf = hwdb_lookup_next(&fast, b, key), rs = hwdb_lookup(&slow, b, key);
                        int rw = hwdb_lookup_next(&wide, b, key);
                        CHECK_INT_EQ(rf, rs);
                        CHECK_INT_EQ(rw, rs);
                        if (rf != rs || rw != rs) {
                                fprintf(stderr, "key '%s'\n%s\n", key, src);
                                return nonempty;
                        }
                        nonempty += rf > 0;
                        for (int i = 0; i < rf; i++)
                                CHECK(streq(fast.props[i].key, slow.props[i].key) &&
                                      streq(fast.props[i].value, slow.props[i].value) &&
                                      streq(wide.props[i].key, slow.props[i].key) &&
                                      streq(wide.props[i].value, slow.props[i].value));
                }
        }
        return nonempty;
}

TEST(prune_random_tries) {
        int rounds = test_rounds(200, 40);

        CHECK(prune_random(0, 3, rounds) > (size_t) rounds * 5);
}

TEST(prune_random_tries_long_keys) {
        int rounds = test_rounds(200, 20);

        CHECK(prune_random(70, 5, rounds) > (size_t) rounds * 5);
}

TEST(prune_random_tries_word_edges) {
        /* Keys of 58 to 65 bytes and of 121 to 128: the sets' last
         * position (the key's end) in the top bit of a word, in the next
         * word, and past the 128 bits of the two-word scan. Fewer rounds
         * than above: under valgrind a round of long keys costs a second. */
        CHECK(prune_random(57, 7, 30) > 150);
        CHECK(prune_random(120, 9, 30) > 150);
}

TEST(next_reuses_only_its_own_path) {
        /* Sorted keys sharing more and less of their path, glob children
         * on the shared levels, a key that ends inside a node's prefix, a
         * key on another database in between: hwdb_lookup_next() answers
         * exactly what a fresh hwdb_lookup() does. */
        static const char *const keys[] = {
                "m:abc", "m:abcd", "m:abcde", "m:abd", "m:ab", "m:a", "m:abx", "m:b",
                "m:bcd", "m:x", "m:abcd", "n:1", "m:abcd", "m:abc", "",
                "m:abcd",
        };
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL, *other = NULL;
        _cleanup_(hwdb_lookup_done) HwdbLookup run = {};

        CHECK(build_db("m:abc\n A=1\n\nm:abcd\n B=2\n\nm:ab*\n C=3\n\nm:a?c*\n D=4\n\n"
                       "m:*d\n E=5\n\nm:b[cx]d\n F=6\n\nm:abd\n G=7\n\n", NULL, &b) == 0);
        CHECK(build_db("m:abcd\n Z=9\n\nn:*\n N=1\n\n", NULL, &other) == 0);

        for (size_t i = 0; i < ELEMENTSOF(keys); i++) {
                _cleanup_(hwdb_lookup_done) HwdbLookup fresh = {};
                const HwdbBin *db = keys[i][0] == 'n' || i == ELEMENTSOF(keys) - 1 ? other : b;
                int rn = hwdb_lookup_next(&run, db, keys[i]), rf = hwdb_lookup(&fresh, db, keys[i]);

                CHECK_INT_EQ(rn, rf);
                for (int k = 0; k < rf && rn == rf; k++)
                        if (!streq(run.props[k].key, fresh.props[k].key) ||
                            !streq(run.props[k].value, fresh.props[k].value)) {
                                fprintf(stderr, "key '%s' differs at property %d\n", keys[i], k);
                                CHECK(false);
                        }
        }
}

/* Whether two lookups gave the same answer (or the same error). */
static bool same_answer(int ra, const HwdbLookup *a, int rb, const HwdbLookup *b) {
        if (ra != rb)
                return false;
        for (int k = 0; k < ra; k++)
                if (!streq(a->props[k].key, b->props[k].key) || !streq(a->props[k].value, b->props[k].value))
                        return false;
        return true;
}

/* key looked up pruned and fresh, unpruned, and as the next key of run:
 * the same answer all three ways (a failed check otherwise). Returns the
 * unpruned answer. */
static int same_three_ways(const HwdbBin *b, HwdbLookup *run, const char *key) {
        _cleanup_(hwdb_lookup_done) HwdbLookup fast = {}, slow = { .no_prune = true };
        int rf = hwdb_lookup(&fast, b, key), rs = hwdb_lookup(&slow, b, key);
        int rn = hwdb_lookup_next(run, b, key);

        if (!same_answer(rf, &fast, rs, &slow) || !same_answer(rn, run, rs, &slow)) {
                fprintf(stderr, "key '%s': %d, next %d, unpruned %d\n", key, rf, rn, rs);
                CHECK(false);
        }
        return rs;
}

/* The offset of the node the literal walk reaches after text. */
static uint64_t node_at(const HwdbBin *b, const char *text) {
        uint64_t off = b->root_off;
        HwdbNode n;

        for (;;) {
                CHECK(hwdb_bin_node(b, off, &n) == 0);
                for (const char *p = n.prefix; *p; p++, text++)
                        CHECK(*p == *text);
                if (*text == '\0')
                        return off;
                CHECK(hwdb_bin_find_child(b, &n, (uint8_t) *text++, &off) == 0);
        }
}

TEST(next_resumes_at_the_child_array) {
        /* A key that leaves the key before at a child choice goes on from
         * that level's child array: later children, earlier ones (keys out
         * of order), the same one, a byte with no child, glob children on
         * both sides of the key's byte, a key ending at the node. */
        static const char *const keys[] = {
                "m:abc", "m:abd", "m:abx", "m:aby", "m:abz", "m:abx", "m:abd", "m:abc", "m:abc",
                "m:ab", "m:abcz", "m:abdz", "m:ab?z", "m:ab*", "m:abA", "m:ab0", "m:abx", "m:ab",
        };
        static const char src[] = "m:ab*\n A=1\n\nm:abc\n B=2\n\nm:abd\n C=3\n\nm:abx\n D=4\n\n"
                                  "m:ab[xy]\n E=5\n\nm:ab?z\n F=6\n\nm:abA*\n G=7\n\nm:ab\n H=8\n\n"
                                  "m:abB\n I=9\n\n";
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL, *bad = NULL;
        _cleanup_(hwdb_lookup_done) HwdbLookup run = {};
        _cleanup_free_ uint8_t *image = NULL;
        uint64_t off;
        HwdbNode n;

        CHECK(build_db(src, NULL, &b) == 0);
        for (size_t i = 0; i < ELEMENTSOF(keys); i++) {
                _cleanup_(hwdb_lookup_done) HwdbLookup fresh = {};
                int rn = hwdb_lookup_next(&run, b, keys[i]), rf = hwdb_lookup(&fresh, b, keys[i]);

                CHECK(rf > 0);
                if (!same_answer(rn, &run, rf, &fresh)) {
                        fprintf(stderr, "key '%s' (after '%s'): %d, fresh %d\n", keys[i], i ? keys[i - 1] : "", rn, rf);
                        CHECK(false);
                }
        }

        /* The entry for 'x' below "m:ab" points back at the root. A fresh
         * walk reads it for any key whose byte there is 'd' or more (it
         * stops at the first entry past the byte): a key that resumes
         * there from the last key must fail or succeed just the same. */
        image = malloc(b->size);
        CHECK(image);
        memcpy(image, b->data, b->size);
        off = node_at(b, "m:ab");
        CHECK(hwdb_bin_node(b, off, &n) == 0);
        for (unsigned c = 0; c < n.n_children; c++)
                if (image[n.children_off + c * b->child_size + HWDB_CHILD_C] == 'x')
                        hwdb_put64(image + n.children_off + c * b->child_size + HWDB_CHILD_OFF, b->root_off);
        CHECK(hwdb_bin_new_from_memory(image, b->size, true, &bad, NULL) == 0);
        image = NULL;
        hwdb_lookup_done(&run);
        static const char *const bad_keys[] = { "m:abc", "m:abd", "m:abc", "m:abx", "m:abA", "m:abc", "m:abz", "m:ab" };
        int failed = 0, answered = 0;
        for (size_t i = 0; i < ELEMENTSOF(bad_keys); i++) {
                _cleanup_(hwdb_lookup_done) HwdbLookup fresh = {};
                int rn = hwdb_lookup_next(&run, bad, bad_keys[i]), rf = hwdb_lookup(&fresh, bad, bad_keys[i]);

                if (!same_answer(rn, &run, rf, &fresh)) {
                        fprintf(stderr, "corrupt: key '%s': %d, fresh %d\n", bad_keys[i], rn, rf);
                        CHECK(false);
                }
                failed += rf == -ELOOP;
                answered += rf > 0;
        }
        CHECK(failed >= 3 && answered >= 3);

        /* The entries for 'c' and 'd' swapped, 'x' made a second 'c', 'A'
         * and 'B' swapped (so a key that took 'A' would, resuming after
         * it, miss the 'B' before it):
         * an array out of order, whatever a walk of it finds, is found
         * alike by a key that resumes there and by a fresh walk. */
        hwdb_bin_freep(&bad);
        image = malloc(b->size);
        CHECK(image);
        memcpy(image, b->data, b->size);
        for (unsigned c = 0; c < n.n_children; c++) {
                uint8_t *ce = image + n.children_off + c * b->child_size + HWDB_CHILD_C;

                *ce = *ce == 'c' ? 'd' : *ce == 'd' ? 'c' : *ce == 'x' ? 'c' : *ce == 'A' ? 'B' : *ce == 'B' ? 'A' : *ce;
        }
        CHECK(hwdb_bin_new_from_memory(image, b->size, true, &bad, NULL) == 0);
        image = NULL;
        hwdb_lookup_done(&run);
        static const char *const unsorted_keys[] = { "m:abA", "m:abB", "m:abc", "m:abd", "m:abc", "m:abx",
                                                         "m:abd", "m:abz", "m:abc", "m:abA", "m:abB" };
        for (size_t i = 0; i < ELEMENTSOF(unsorted_keys); i++) {
                _cleanup_(hwdb_lookup_done) HwdbLookup fresh = {};
                int rn = hwdb_lookup_next(&run, bad, unsorted_keys[i]), rf = hwdb_lookup(&fresh, bad, unsorted_keys[i]);

                if (!same_answer(rn, &run, rf, &fresh)) {
                        fprintf(stderr, "unsorted: key '%s' (%zu): %d, fresh %d\n", unsorted_keys[i], i, rn, rf);
                        CHECK(false);
                }
        }
}

TEST(star_leaves) {
        /* Leaves whose whole pattern is one '*', as the edge into them
         * ("s:a" has a '*' child with no text) or as their text ('*' after
         * the child 'b' of "s:"), and near misses that must still be
         * matched in full: '*' followed by more, '?', a bracket, a '*'
         * edge into a text. Every key, ending anywhere, gets what the
         * unpruned scan (fnmatch) gives, and the star leaves match keys
         * that end right at the '*'. Also as a run of sorted keys. */
        static const char src[] = "s:a*\n A=1\n\ns:ab\n B=2\n\ns:b*\n C=3\n\ns:c*x\n D=4\n\n"
                                  "s:c?\n E=5\n\ns:d*[xy]\n F=6\n\ns:e**\n G=7\n\ns:f*\\*\n H=8\n\n"
                                  "s:g*\n I=9\n\ns:g*y\n J=10\n\n";
        static const char *const keys[] = {
                "s:", "s:a", "s:ab", "s:abc", "s:b", "s:bz", "s:c", "s:cx", "s:cyx", "s:cy", "s:d", "s:dx",
                "s:dzy", "s:e", "s:eee", "s:f*", "s:fa*", "s:fa", "s:g", "s:gy", "s:gzz", "s:h",
        };
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
        _cleanup_(hwdb_lookup_done) HwdbLookup run = {};
        char out[256];

        CHECK(build_db(src, NULL, &b) == 0);
        for (size_t i = 0; i < ELEMENTSOF(keys); i++)
                (void) same_three_ways(b, &run, keys[i]);
        CHECK_INT_EQ(answer(b, "s:a", out, sizeof(out)), 1);
        CHECK_STR_EQ(out, "A=1\n");
        CHECK_INT_EQ(answer(b, "s:ab", out, sizeof(out)), 2);
        CHECK_STR_EQ(out, "A=1\nB=2\n");
        CHECK_INT_EQ(answer(b, "s:b", out, sizeof(out)), 1);
        CHECK_STR_EQ(out, "C=3\n");
        CHECK_INT_EQ(answer(b, "s:bzz", out, sizeof(out)), 1);
        CHECK_INT_EQ(answer(b, "s:c", out, sizeof(out)), 0);
        CHECK_INT_EQ(answer(b, "s:e", out, sizeof(out)), 1);
        CHECK_INT_EQ(answer(b, "s:fa", out, sizeof(out)), 0);
        CHECK_INT_EQ(answer(b, "s:fa*", out, sizeof(out)), 1);
        CHECK_INT_EQ(answer(b, "s:gzz", out, sizeof(out)), 1);
        CHECK_INT_EQ(answer(b, "s:gzy", out, sizeof(out)), 2);
}

TEST(needed_byte) {
        /* Glob subtrees (child edges of a level the walk passes) passed
         * over when the rest of the key lacks a byte of their own text
         * that only matches itself: texts with '*',
         * '?', a negated bracket and an escape (bytes after those are not
         * needed: '\\' itself is none), a '[' edge (nothing needed), the
         * needed byte in the key only before the glob start, and a run of
         * sorted keys that all have the byte (the check goes off) before
         * keys without it. Every answer equals the unpruned scan's and a
         * fresh lookup's. */
        static const char src[] = "t:a*x*ab\n A=1\n\nt:a*x*ac\n B=2\n\nt:b?y[!q]z\n C=3\n\nt:b?y[!q]w\n D=4\n\n"
                                  "t:d*v\\*u\n E=5\n\nt:d*v\\*s\n F=6\n\nt:c*k*\n H=8\n\nt:c*k*m\n I=9\n\n"
                                  "t:e[xy]k*\n J=10\n\nt:e[xy]k*m\n K=11\n\n"
                                  /* Literal siblings: the globs are child edges. */
                                  "t:aQ\n L=1\n\nt:bQ\n L=2\n\nt:cQ\n L=3\n\nt:dQ\n L=4\n\nt:eQ\n L=5\n\n";
        static const char *const keys[] = {
                "t:axab", "t:axac", "t:axa", "t:axba", "t:ax", "t:a", "t:aab", "t:bAyaz", "t:bAyqz", "t:bAyw",
                "t:byaz", "t:bb", "t:ckm", "t:ck", "t:cm", "t:c", "t:dv*u", "t:dv*s", "t:dvu", "t:d*u",
                "t:exk", "t:eykm", "t:ek", "t:e",
        };
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
        _cleanup_(hwdb_lookup_done) HwdbLookup run = {};
        char key[64], out[256];
        int nonempty = 0;

        CHECK(build_db(src, NULL, &b) == 0);
        for (size_t i = 0; i < 40 + ELEMENTSOF(keys); i++) {
                /* First 40 keys with the byte "t:a*" needs, sharing the
                 * level with the "t:a" keys that follow: the check is off
                 * for those. */
                if (i < 40)
                        snprintf(key, sizeof(key), "t:aA%03zuxab", i);
                else
                        snprintf(key, sizeof(key), "%s", keys[i - 40]);
                nonempty += same_three_ways(b, &run, key) > 0;
        }
        CHECK(nonempty > 40);
        CHECK_INT_EQ(answer(b, "t:axab", out, sizeof(out)), 1);
        CHECK_STR_EQ(out, "A=1\n");
        CHECK_INT_EQ(answer(b, "t:axa", out, sizeof(out)), 0);
        CHECK_INT_EQ(answer(b, "t:bAyaz", out, sizeof(out)), 1);
        CHECK_INT_EQ(answer(b, "t:bAyqz", out, sizeof(out)), 0);
        CHECK_INT_EQ(answer(b, "t:dv*u", out, sizeof(out)), 1);
        CHECK_INT_EQ(answer(b, "t:dvu", out, sizeof(out)), 0);
        CHECK_INT_EQ(answer(b, "t:ckm", out, sizeof(out)), 2);
        CHECK_INT_EQ(answer(b, "t:eykm", out, sizeof(out)), 2);
}

TESTS_MAIN(T(prune_changes_nothing), T(many_properties), T(old_value_format), T(prune_random_tries), T(prune_random_tries_long_keys),
           T(prune_random_tries_word_edges),
           T(next_reuses_only_its_own_path), T(next_resumes_at_the_child_array), T(star_leaves),
           T(needed_byte))
