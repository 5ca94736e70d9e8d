/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* hwdb_batch_lookup() answers every key, in the order added, exactly as a
 * fresh hwdb_lookup() does, whatever the keys: duplicates, keys that are
 * prefixes of each other, long runs sharing 8, 16 or 64 bytes, bytes above
 * 0x7f, keys of 64 bytes and more, batches of one, reuse after clearing;
 * and it looks them up in strcmp order. */
#include <stdlib.h>

#include "hwdb-test-util.h"
#include "hwdb/hwdb-batch.h"
#include "tests.h"

static unsigned next_random(unsigned *seed) {
        *seed = *seed * 1103515245u + 12345u;
        return *seed >> 16;
}

/* Random keys over a small alphabet after one of a few long shared
 * prefixes, so runs of equal 8-byte chunks are long and many. */
static void random_key(unsigned *seed, char *key, size_t size) {
        static const char *const heads[] = { "", "k:", "k:abcdefgh", "k:abcdefghijklmnop",
                                             "k:0123456789012345678901234567890123456789012345678901234567890" };
        static const char alpha[] = "ab\xc3\xa9*?";
        size_t o = (size_t) snprintf(key, size, "%s", heads[next_random(seed) % ELEMENTSOF(heads)]);
        size_t n = next_random(seed) % 20;

        for (size_t i = 0; i < n && o + 1 < size; i++)
                key[o++] = alpha[next_random(seed) % (sizeof(alpha) - 1)];
        key[o] = '\0';
}

static void check_batch(const HwdbBin *b, HwdbBatch *t, HwdbLookup *l, char (*keys)[128], size_t n) {
        hwdb_batch_clear(t);
        for (size_t i = 0; i < n; i++)
                CHECK(hwdb_batch_add(t, keys[i], strlen(keys[i])) == 0);
        CHECK(hwdb_batch_lookup(t, l, b) == 0);
        for (size_t i = 1; i < n; i++)
                if (strcmp(hwdb_batch_lookup_order(t, i - 1), hwdb_batch_lookup_order(t, i)) > 0) {
                        fprintf(stderr, "not sorted at %zu: '%s' > '%s'\n", i, hwdb_batch_lookup_order(t, i - 1),
                                hwdb_batch_lookup_order(t, i));
                        CHECK(false);
                        break;
                }
        /* ... and every key exactly once: the sort moves entries between
         * two arrays, none may be lost or doubled. */
        {
                _cleanup_free_ bool *seen = calloc(n, sizeof(bool));

                CHECK(seen);
                for (size_t i = 0; seen && i < n; i++) {
                        size_t at = (size_t) ((const char (*)[128]) (const void *) hwdb_batch_lookup_order(t, i) - keys);

                        CHECK(at < n && !seen[at]);
                        if (at < n)
                                seen[at] = true;
                }
        }

        for (size_t i = 0; i < n; i++) {
                _cleanup_(hwdb_lookup_done) HwdbLookup fresh = {};
                const HwdbBatchProp *props;
                size_t got = hwdb_batch_answer(t, i, &props);
                int want = hwdb_lookup(&fresh, b, keys[i]);

                CHECK(want >= 0);
                CHECK_INT_EQ(got, want);
                for (size_t k = 0; k < got && (int) got == want; k++)
                        if (!streq(props[k].key, fresh.props[k].key) ||
                            !streq(props[k].value, fresh.props[k].value)) {
                                fprintf(stderr, "key %zu '%s' differs at property %zu\n", i, keys[i], k);
                                CHECK(false);
                                return;
                        }
        }
}

TEST(batch_answers_like_single_lookups) {
        static char keys[3000][128];
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
        _cleanup_(hwdb_batch_done) HwdbBatch t = {};
        _cleanup_(hwdb_lookup_done) HwdbLookup l = {};
        char src[16384];
        unsigned seed = 7;
        size_t o = 0;

        /* Patterns from the same alphabet, some literal, some globs. */
        for (int p = 0; p < 120; p++) {
                char pat[128];

                random_key(&seed, pat, sizeof(pat));
                if (pat[0] == '\0')
                        continue;
                o += (size_t) snprintf(src + o, sizeof(src) - o, "%s\n P%03d=%d\n\n", pat, p, p);
        }
        o += (size_t) snprintf(src + o, sizeof(src) - o, "k:*\n ANY=1\n\n");
        CHECK(o < sizeof(src));
        CHECK(build_db(src, NULL, &b) == 0);

        for (size_t i = 0; i < ELEMENTSOF(keys); i++) {
                if (i > 0 && next_random(&seed) % 8 == 0)
                        memcpy(keys[i], keys[next_random(&seed) % i], sizeof(keys[i]));  /* duplicate */
                else
                        random_key(&seed, keys[i], sizeof(keys[i]));
        }

        check_batch(b, &t, &l, keys, ELEMENTSOF(keys));
        /* Reused after clearing, and in small batches down to one key. */
        for (size_t start = 0, n = 1; start + n <= ELEMENTSOF(keys); start += n, n = n * 3 + 1)
                check_batch(b, &t, &l, keys + start, n);
}

TEST(batch_sorts_every_byte_value) {
        /* The sort distributes a run over the span of byte values it
         * holds at one place: keys whose bytes are anything from 0x01 to
         * 0xff, the lowest and highest among them, runs long enough to be
         * distributed (some hundreds share a head) and keys ending where
         * others go on. */
        static char keys[4000][128];
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
        _cleanup_(hwdb_batch_done) HwdbBatch t = {};
        _cleanup_(hwdb_lookup_done) HwdbLookup l = {};
        unsigned seed = 11;

        CHECK(build_db("k*\n ANY=1\n\n\x01*\n LOW=1\n\n\xff*\n HIGH=1\n\n", NULL, &b) == 0);
        for (size_t i = 0; i < ELEMENTSOF(keys); i++) {
                size_t o = 0, n = next_random(&seed) % 24;

                if (next_random(&seed) % 2 == 0)
                        o = (size_t) snprintf(keys[i], sizeof(keys[i]), "k:0123456789ab");
                for (size_t j = 0; j < n; j++) {
                        unsigned r = next_random(&seed) % 260;

                        /* The extremes more often than by chance. */
                        keys[i][o++] = (char) (r >= 255 ? (r % 2 ? 0x01 : 0xff) : r + 1);
                }
                keys[i][o] = '\0';
        }
        check_batch(b, &t, &l, keys, ELEMENTSOF(keys));
        for (size_t start = 0, n = 1; start + n <= ELEMENTSOF(keys); start += n, n = n * 4 + 1)
                check_batch(b, &t, &l, keys + start, n);
}

TESTS_MAIN(T(batch_answers_like_single_lookups), T(batch_sorts_every_byte_value))
