/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdint.h>
#include <string.h>

#include "basic/macro.h"
#include "tests.h"
#include "validate/path-util.h"

/* path_is_valid() as it was written before its shortcut for short paths:
 * the reference the shortcut is held to. */
static bool path_is_valid_ref(const char *p) {
        size_t component = 0, total = 0;

        if (!p || !p[0])
                return false;
        for (; *p; p++) {
                total++;
                if (total >= VALIDATE_PATH_MAX)
                        return false;
                if (*p == '/')
                        component = 0;
                else if (++component > VALIDATE_NAME_MAX)
                        return false;
        }
        return true;
}

static void agree(const char *p) {
        PathCheck fast = path_check_absolute(p), full = path_check_absolute_full(p);

        if (fast != full) {
                fprintf(stderr, "path_check_absolute('%s') = %d, the long way %d\n", p, fast, full);
                tests_failed++;
        }
        if (path_is_valid(p) != path_is_valid_ref(p)) {
                fprintf(stderr, "path_is_valid('%s') differs from the walk\n", p);
                tests_failed++;
        }
}

TEST(tricky) {
        static const char *const paths[] = {
                "/", "//", "/.", "/..", "/./", "/../", "/a", "/a/", "/a//", "/a/.", "/a/./", "/a/..", "/a/../b",
                "/.a", "/..a", "/a.", "/a..", "/...", "/a/...", "/a/.b/c", "/a/b.", "/a/b/.", "/./a", "//a",
                "/a//b", "/a/./b", "a", "", "-/a", "./a", " /a", "/a b", "/a\tb", "/\x01", "/\x7f",
                "/\xc3\xa9", "/\xff", "/a/\xc3", "/\xed\xa0\x80", "/a\\b", "/%i", "/a:b", "~", "/~",
        };

        for (size_t i = 0; i < ELEMENTSOF(paths); i++)
                agree(paths[i]);
}

/* Lengths about NAME_MAX and PATH_MAX, where the shortcut stops. */
TEST(lengths) {
        static char buf[2 * VALIDATE_PATH_MAX + 8];
        static const size_t lens[] = { 250, 253, 254, 255, 256, 257, 258, 300, 4093, 4094, 4095, 4096, 4097, 5000 };

        for (size_t i = 0; i < ELEMENTSOF(lens); i++)
                for (int shape = 0; shape < 5; shape++) {
                        size_t n = lens[i];

                        memset(buf, 'a', n);
                        buf[n] = '\0';
                        buf[0] = '/';
                        if (shape == 1 && n > 3)
                                buf[n / 2] = '/'; /* two components */
                        if (shape == 2)
                                buf[n - 1] = '/'; /* trailing slash */
                        if (shape == 3 && n > 4) {
                                buf[1] = '/'; /* "//" in front */
                                for (size_t k = 100; k < n; k += 100)
                                        buf[k] = '/';
                        }
                        if (shape == 4)
                                for (size_t k = 2; k + 1 < n; k += 2)
                                        buf[k] = '/'; /* "/a/a/a..." */
                        agree(buf);
                }
}

/* Random paths over the characters that matter to either way. */
TEST(random) {
        static const char alphabet[] = { '/', '/', '.', '.', 'a', 'b', '\x80', '\xc3', '\xa9', ' ', '\\' };
        uint64_t x = 0x2545f4914f6cdd1dULL;
        char p[64];
        int rounds = test_rounds(300000, 20000);

        for (int i = 0; i < rounds; i++) {
                size_t n;

                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                n = (size_t) (x % 12);
                for (size_t k = 0; k < n; k++) {
                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        p[k] = alphabet[(x >> 8) % sizeof alphabet];
                }
                p[n] = '\0';
                if (n > 0 && (i & 1))
                        p[0] = '/';
                agree(p);
        }
}

TESTS_MAIN(T(tricky), T(lengths), T(random))
