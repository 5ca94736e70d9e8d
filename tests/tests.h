/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* A tiny test harness. Each check that fails prints FILE:LINE and the
 * expression, and the test program exits non-zero at the end. Tests are
 * registered with TEST(name) and run by TESTS_MAIN(...). */

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int tests_failed;
int tests_failed;

#define CHECK(expr)                                                             \
        do {                                                                    \
                if (!(expr)) {                                                  \
                        fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__,  \
                                __LINE__, #expr);                               \
                        tests_failed++;                                         \
                }                                                               \
        } while (0)

#define CHECK_INT_EQ(a, b)                                                      \
        do {                                                                    \
                long long _a = (long long) (a), _b = (long long) (b);           \
                if (_a != _b) {                                                 \
                        fprintf(stderr, "%s:%d: %s == %s failed: %lld != %lld\n", \
                                __FILE__, __LINE__, #a, #b, _a, _b);            \
                        tests_failed++;                                         \
                }                                                               \
        } while (0)

#define CHECK_STR_EQ(a, b)                                                      \
        do {                                                                    \
                const char *_a = (a), *_b = (b);                                \
                if (!_a || !_b || strcmp(_a, _b) != 0) {                        \
                        fprintf(stderr, "%s:%d: %s == %s failed: '%s' != '%s'\n", \
                                __FILE__, __LINE__, #a, #b, _a ? _a : "(null)", \
                                _b ? _b : "(null)");                            \
                        tests_failed++;                                         \
                }                                                               \
        } while (0)

/* How many rounds a randomized or exhaustive test runs: `full` in the plain
 * and ASan+UBSan passes, `light` under `meson test --setup valgrind`, which
 * sets UNITGUARD_TEST_LIGHT. Memcheck looks for memory errors, which a
 * sample of the same inputs drives along the same paths; the rounds it
 * skips are the ones that compare answers, done at full count elsewhere. */
static inline int test_light(void) {
        const char *e = getenv("UNITGUARD_TEST_LIGHT");

        return e && *e && strcmp(e, "0") != 0;
}

static inline int test_rounds(int full, int light) {
        return test_light() ? light : full;
}

#define CHECK_MEM_EQ(a, alen, b, blen)                                          \
        do {                                                                    \
                size_t _al = (alen), _bl = (blen);                              \
                if (_al != _bl || memcmp((a), (b), _al) != 0) {                 \
                        fprintf(stderr, "%s:%d: %s == %s failed (%zu vs %zu bytes)\n", \
                                __FILE__, __LINE__, #a, #b, _al, _bl);          \
                        tests_failed++;                                         \
                }                                                               \
        } while (0)

typedef struct TestCase {
        const char *name;
        void (*func)(void);
} TestCase;

#define TEST(name) static void test_##name(void)
#define T(name) { #name, test_##name }

/* Runs all tests, or only those named on the command line. */
#define TESTS_MAIN(...)                                                         \
        int main(int argc, char **argv) {                                       \
                static const TestCase cases[] = { __VA_ARGS__ };                \
                for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) { \
                        int before = tests_failed, want = argc <= 1;            \
                        for (int a = 1; a < argc; a++)                          \
                                if (strcmp(argv[a], cases[i].name) == 0)        \
                                        want = 1;                               \
                        if (!want)                                              \
                                continue;                                       \
                        cases[i].func();                                        \
                        printf("%s %s\n", tests_failed == before ? "ok" : "FAIL", \
                               cases[i].name);                                  \
                }                                                               \
                return tests_failed ? 1 : 0;                                    \
        }
