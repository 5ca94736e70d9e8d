/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The text parser: record structure, what systemd warns about (rule and
 * line), line splitting, and hostile input (binary junk, overlong lines). */
#include <stdlib.h>

#include "hwdb-test-util.h"
#include "tests.h"

typedef struct Expect {
        const char *rule;
        unsigned line;
} Expect;

static void check_diags(const char *src, size_t len, const Expect *want, size_t n_want) {
        _cleanup_(hwdb_trie_freep) HwdbTrie *t = NULL;
        _cleanup_(diag_list_done) DiagList d = {};
        size_t k = 0;

        CHECK(hwdb_trie_new(&t) == 0);
        CHECK(hwdb_source_parse(t, src, len, "x.hwdb", 1, &d) >= 0);
        for (size_t i = 0; i < d.n; i++) {
                if (d.items[i].severity == DIAG_NOTE)
                        continue;
                if (k >= n_want || !streq(d.items[i].rule, want[k].rule) || d.items[i].line != want[k].line) {
                        fprintf(stderr, "unexpected diag %s at line %u (want %s at %u)\n", d.items[i].rule,
                                d.items[i].line, k < n_want ? want[k].rule : "-", k < n_want ? want[k].line : 0);
                        CHECK(false);
                }
                k++;
        }
        CHECK_INT_EQ(k, n_want);
}

#define DIAGS(src, ...)                                                                  \
        do {                                                                             \
                static const Expect _w[] = { __VA_ARGS__ };                              \
                check_diags(src, sizeof(src) - 1, _w, ELEMENTSOF(_w));                    \
        } while (0)

TEST(warnings) {
        DIAGS("a\n K=1\n\n ORPHAN=1\n", { "hwdb.indented-property", 4 });
        DIAGS("a\n\n", { "hwdb.record-without-properties", 2 });
        DIAGS("a\nb", { "hwdb.record-without-properties", 2 });
        DIAGS("a\n K=1\nb\n L=2\n", { "hwdb.match-after-property", 3 }, { "hwdb.indented-property", 4 });
        DIAGS("a\n NOEQ\n =v\n K=1\n", { "hwdb.missing-equals", 2 }, { "hwdb.empty-key", 3 });
        DIAGS("# c\n#\na\n K=1 # x\n   # y\n Z=1\n", { "hwdb.indented-property", 6 });
        /* Line numbers follow systemd's line breaks: CR, CRLF, LFCR, NUL. */
        DIAGS("a\r K=1\r\rb\r\n\r\n X=1\n\r\n\n Y=1\n", { "hwdb.record-without-properties", 5 },
              { "hwdb.indented-property", 6 }, { "hwdb.indented-property", 9 });
        DIAGS("a\0 K=1\0\0 X=1\n", { "hwdb.indented-property", 4 });
}

TEST(values) {
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
        char out[512];

        CHECK(build_db("m\n K = v \n EQ=a=b=c\n EMPTY=\n    DEEP=1\n  \tTAB=1\n Z=#no\n H=a#b\n\n"
                       "\tt\n T=1\n\n"
                       "dup\n K=first\n K=second\n", NULL, &b) == 0);
        CHECK_INT_EQ(answer(b, "m", out, sizeof(out)), 6);
        CHECK_STR_EQ(out, "DEEP=1\nEMPTY=\nEQ=a=b=c\nH=a\nK = v\nZ=\n");
        CHECK_INT_EQ(answer(b, "\tt", out, sizeof(out)), 1);
        CHECK_INT_EQ(answer(b, "t", out, sizeof(out)), 0);
        CHECK_INT_EQ(answer(b, "dup", out, sizeof(out)), 1);
        CHECK_STR_EQ(out, "K=second\n");
        CHECK_INT_EQ(answer(b, "", out, sizeof(out)), 0);
}

TEST(multiple_matches_and_merging) {
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
        const char *srcs[] = {
                "a:one\na:o*\n M=1\n\nsame\n S=first\n T=first\n",
                "same\n S=second\n",
        };
        _cleanup_(diag_list_done) DiagList d = {};
        void *image;
        size_t size;
        char out[256];

        CHECK(build_image(srcs, NULL, 2, &d, &image, &size) == 0);
        CHECK(hwdb_bin_new_from_memory(image, size, true, &b, NULL) == 0);
        CHECK_INT_EQ(answer(b, "a:one", out, sizeof(out)), 1);
        CHECK_STR_EQ(out, "M=1\n");
        CHECK_INT_EQ(answer(b, "a:other", out, sizeof(out)), 1);
        CHECK_INT_EQ(answer(b, "same", out, sizeof(out)), 2);
        CHECK_STR_EQ(out, "S=second\nT=first\n");
        CHECK_INT_EQ(d.n, 0);
}

TEST(overlong_line) {
        _cleanup_(hwdb_trie_freep) HwdbTrie *t = NULL;
        _cleanup_(diag_list_done) DiagList d = {};
        _cleanup_free_ char *buf = NULL;
        const char *head = "a\n K=1\n\nb\n V=";
        size_t hl = strlen(head), n = hl + HWDB_LINE_MAX + 64;
        void *image;
        size_t size;

        /* Line 5 is exactly HWDB_LINE_MAX bytes: systemd gives up there. */
        buf = malloc(n);
        CHECK(buf);
        memcpy(buf, head, hl);
        memset(buf + hl, 'x', n - hl);
        memcpy(buf + hl + HWDB_LINE_MAX - 3, "\n\nc\n K=3\n", 9);
        CHECK(hwdb_trie_new(&t) == 0);
        CHECK(hwdb_source_parse(t, buf, hl + HWDB_LINE_MAX - 3 + 9, "long.hwdb", 1, &d) >= 0);
        CHECK_INT_EQ(d.n, 1);
        CHECK_STR_EQ(d.items[0].rule, "hwdb.line-too-long");
        CHECK_INT_EQ(d.items[0].line, 5);

        CHECK(hwdb_trie_write_memory(t, &image, &size) == 0);
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
        char out[64];
        CHECK(hwdb_bin_new_from_memory(image, size, true, &b, NULL) == 0);
        CHECK_INT_EQ(answer(b, "a", out, sizeof(out)), 1);
        CHECK_INT_EQ(answer(b, "b", out, sizeof(out)), 0);
        CHECK_INT_EQ(answer(b, "c", out, sizeof(out)), 0);

        /* One byte shorter is fine. */
        _cleanup_(hwdb_trie_freep) HwdbTrie *t2 = NULL;
        _cleanup_(diag_list_done) DiagList d2 = {};
        memcpy(buf + hl + HWDB_LINE_MAX - 4, "\n\nc\n K=3\n", 9);
        CHECK(hwdb_trie_new(&t2) == 0);
        CHECK(hwdb_source_parse(t2, buf, hl + HWDB_LINE_MAX - 4 + 9, "long.hwdb", 1, &d2) >= 0);
        CHECK_INT_EQ(d2.n, 0);
}

TEST(long_glob_tail) {
        /* systemd-hwdb crashes on these; unitguard must answer correctly. */
        _cleanup_free_ char *src = NULL, *key = NULL, *key2 = NULL;
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
        _cleanup_(diag_list_done) DiagList d = {};
        const size_t n = 5000;
        char out[64];

        src = malloc(n + 64);
        key = malloc(n + 16);
        key2 = malloc(n + 16);
        CHECK(src && key && key2);
        strcpy(src, "g:*");
        memset(src + 3, 'a', n);
        strcpy(src + 3 + n, "*\n K=long\n");
        strcpy(key, "g:");
        memset(key + 2, 'a', n);
        strcpy(key + 2 + n, "z");
        strcpy(key2, key);
        key2[2 + n / 2] = 'b';

        CHECK(build_db(src, &d, &b) == 0);
        CHECK_INT_EQ(d.n, 1);
        CHECK_STR_EQ(d.items[0].rule, "hwdb.glob-too-long");
        CHECK_INT_EQ(answer(b, key, out, sizeof(out)), 1);
        CHECK_STR_EQ(out, "K=long\n");
        CHECK_INT_EQ(answer(b, key2, out, sizeof(out)), 0);
}

TEST(binary_junk) {
        /* Random bytes, biased towards the syntax characters. */
        static const char alphabet[] = "ab*?[]\\# =\t\r\n\n\n\0\x80\xff";
        unsigned seed = 7;
        char buf[4096];

        for (int iter = 0; iter < 300; iter++) {
                _cleanup_(hwdb_trie_freep) HwdbTrie *t = NULL;
                _cleanup_(diag_list_done) DiagList d = {};
                _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
                void *image;
                size_t size, n;

                seed = seed * 1103515245u + 12345u;
                n = (seed >> 8) % sizeof(buf);
                for (size_t i = 0; i < n; i++) {
                        seed = seed * 1103515245u + 12345u;
                        buf[i] = (seed >> 20) % 4 == 0 ? (char) (seed >> 9)
                                                       : alphabet[(seed >> 12) % (sizeof(alphabet) - 1)];
                }
                CHECK(hwdb_trie_new(&t) == 0);
                CHECK(hwdb_source_parse(t, buf, n, "junk.hwdb", 1, &d) >= 0);
                CHECK(hwdb_trie_write_memory(t, &image, &size) == 0);
                CHECK(hwdb_bin_new_from_memory(image, size, true, &b, NULL) == 0);
                CHECK(hwdb_bin_verify(b, NULL) > 0);
                for (int k = 0; k < 20; k++) {
                        char key[16], out[4096];
                        for (int j = 0; j < 15; j++) {
                                seed = seed * 1103515245u + 12345u;
                                key[j] = "ab*?[]\\ =#"[(seed >> 16) % 10];
                        }
                        key[1 + k % 14] = '\0';
                        CHECK(answer(b, key, out, sizeof(out)) >= 0);
                }
        }
}

TESTS_MAIN(T(warnings), T(values), T(multiple_matches_and_merging), T(overlong_line), T(long_glob_tail),
           T(binary_junk))
