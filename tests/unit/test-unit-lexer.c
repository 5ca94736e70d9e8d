/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The one-pass line scanner against the straightforward definitions it
 * replaced (strcspn() for the line end, a byte-wise forward scan for the
 * escaped backslash, a byte-wise test for ASCII), on tricky and on random
 * inputs. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"
#include "unit/unit-lexer.h"

static bool ref_next(const char *data, size_t size, size_t *pos, PhysLine *ret) {
        size_t i = *pos, end;
        unsigned seen = 0;
        bool ascii = true;

        if (i >= size)
                return false;
        end = i + strcspn(data + i, "\n\r");
        if (end > size)
                end = size;
        for (size_t k = i; k < end; k++)
                if ((unsigned char) data[k] >= 0x80)
                        ascii = false;
        for (i = end; i < size; i++) {
                unsigned k = data[i] == '\n' ? LINE_END_LF : data[i] == '\r' ? LINE_END_CR
                                                         : data[i] == '\0' ? LINE_END_NUL : 0;

                if (k == 0 || (seen & LINE_END_NUL) || (seen & k))
                        break;
                seen |= k;
        }
        *ret = (PhysLine) { .start = *pos, .len = end - *pos, .term_len = i - end, .term_kinds = seen,
                            .ascii = ascii };
        *pos = i;
        return true;
}

static bool ref_ends_in_escape(const char *s, size_t n) {
        bool escaped = false;

        for (size_t i = 0; i < n; i++) {
                if (escaped)
                        escaped = false;
                else if (s[i] == '\\')
                        escaped = true;
        }
        return escaped;
}

/* Splits data both ways and compares line by line; data[size] is NUL. */
static void compare_with(const char *data, size_t size, bool avx2, bool padded) {
        size_t ref_pos = 0;
        PhysLine a = {}, b = {};
        LineScanner sc;
        bool more;

        line_scanner_init(&sc, data, size, avx2, padded);
        do {
                more = line_scanner_next(&sc, &a);
                CHECK_INT_EQ(more, ref_next(data, size, &ref_pos, &b));
                if (!more)
                        break;
                CHECK_INT_EQ(a.start, b.start);
                CHECK_INT_EQ(a.len, b.len);
                CHECK_INT_EQ(a.term_len, b.term_len);
                CHECK_INT_EQ(a.term_kinds, b.term_kinds);
                CHECK_INT_EQ(a.ascii, b.ascii);
                CHECK_INT_EQ(line_ends_in_escape(data + a.start, a.len),
                             ref_ends_in_escape(data + b.start, b.len));
        } while (sc.pos == ref_pos && !tests_failed);
        CHECK_INT_EQ(sc.pos, ref_pos);
}

/* With the block reader of every width the CPU has; and with the data
 * padded (the last block read in place), where line ends of every kind
 * follow it. */
static void compare(const char *data, size_t size) {
        char *padded = malloc(size + 64);

        CHECK(padded);
        memcpy(padded, data, size + 1);
        for (size_t i = 1; i < 64; i++)
                padded[size + i] = "\n\r\0\x80"[i % 4];
        compare_with(data, size, false, false);
        compare_with(padded, size, false, true);
        if (line_scanner_has_avx2()) {
                compare_with(data, size, true, false);
                compare_with(padded, size, true, true);
        }
        free(padded);
}

static void compare_str(const char *s, size_t n) {
        char *data = malloc(n + 1);

        memcpy(data, s, n);
        data[n] = '\0';
        compare(data, n);
        free(data);
}

#define COMPARE(lit) compare_str(lit, sizeof(lit) - 1)

TEST(tricky_inputs) {
        COMPARE("");
        COMPARE("\n");
        COMPARE("a");
        COMPARE("[Unit]\r\nA=b\r\n");
        COMPARE("A=b\rC=d\r");               /* lone CR */
        COMPARE("A=b\n\rC=d\n\n\r\r");        /* LF CR is one, LF LF two */
        COMPARE("A=b\\");                     /* backslash at the end of data */
        COMPARE("A=b\\\\\nC=\\\\\\\n");       /* even and odd runs */
        COMPARE("A=b\0C=d\0\0\n\0\r\n");      /* NUL bytes, NUL ends a run */
        COMPARE("\r\0\n");
        COMPARE("ab\xc3\xa9" "cdefghijklmnop\nqrstuvwxyz01234\xff\n");   /* UTF-8, invalid UTF-8 */
        COMPARE("0123456\x80\n01234567\n012345678\x80");                 /* high byte near a word edge */
        COMPARE("01234567\n" "89abcdef\r" "01234567\0" "89abcdef");       /* terminators on word edges */
        COMPARE("\xef\xbb\xbf[Unit]\nDescription=x\n");                   /* BOM */
}

TEST(escape_runs) {
        CHECK(!line_ends_in_escape("", 0));
        CHECK(line_ends_in_escape("\\", 1));
        CHECK(!line_ends_in_escape("\\\\", 2));
        CHECK(line_ends_in_escape("a\\\\\\", 4));
        CHECK(line_ends_in_escape("\\a\\", 3));     /* the first escapes 'a' */
        CHECK(!line_ends_in_escape("\\\\a", 3));
}

TEST(random_inputs) {
        static const char alphabet[] = "ab =#;[]\\\\\\\n\n\r\0\x80\xc3\xa9\xff\t ";
        unsigned seed = 12345;
        char buf[200];
        int rounds = test_rounds(200000, 20000);

        for (int round = 0; round < rounds && !tests_failed; round++) {
                size_t n;

                seed = seed * 1103515245u + 12345u;
                n = (seed >> 16) % (sizeof(buf) - 1);
                for (size_t i = 0; i < n; i++) {
                        seed = seed * 1103515245u + 12345u;
                        buf[i] = alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
                }
                buf[n] = '\0';
                compare(buf, n);
        }
}

TEST(huge_lines) {
        size_t n = 3 * 1024 * 1024 + 5;
        char *data = malloc(n + 1);

        memset(data, 'x', n);
        data[n] = '\0';
        compare(data, n);
        data[n - 1] = '\\';
        data[2 * 1024 * 1024 + 3] = '\r';
        data[1024 * 1024] = '\xc3';
        compare(data, n);
        free(data);
}

/* The lexer reads 64-byte blocks (the last one copied into a zeroed one):
 * each kind of byte that needs a look, at every position of inputs of
 * every size up to three blocks, in a line of plain bytes and after an
 * early line end, so that lines start and end on both sides of each block
 * edge, and the data end falls anywhere in a block. */
TEST(block_edges) {
#define S(lit) { lit, sizeof(lit) - 1 }
        static const struct {
                const char *s;
                size_t n;
        } specials[] = {
                S("\n"), S("\r"), S("\r\n"), S("\n\r"), S("\n\n"), S("\0"), S("\0\n"), S("\n\0"), S("\t"), S("\x7f"),
                S("\x80"), S("\xff"), S("\xc3\xa9"), S("\\\n"), S("\\"),
        };
#undef S
        char buf[200];
        /* Under valgrind only the sizes within four bytes of a block's end. */
        int light = test_light();

        for (size_t size = 0; size <= 3 * 64 + 2 && !tests_failed; size++)
                for (size_t at = 0; at < size && (!light || size % 64 <= 4 || size % 64 >= 60); at++)
                        for (size_t k = 0; k < sizeof(specials) / sizeof(specials[0]); k++)
                                for (int early = 0; early < 2; early++) {
                                        size_t n = specials[k].n < size - at ? specials[k].n : size - at;

                                        memset(buf, 'x', size);
                                        if (early && size > 3)
                                                buf[size / 3] = '\n';
                                        memcpy(buf + at, specials[k].s, n);
                                        buf[size] = '\0';
                                        compare(buf, size);
                                }
}

/* The marks of a block: every byte value at the first, a middle and the
 * last position, against their definition. */
TEST(block_marks_bytes) {
        char block[64];

        for (unsigned c = 0; c < 256; c++)
                for (unsigned at = 0; at < 64; at += 21) {
                        uint64_t want = (c < 0x0e || c >= 0x80) ? UINT64_C(1) << at : 0;

                        memset(block, 'a', sizeof(block));
                        block[at] = (char) c;
                        CHECK_INT_EQ(block_marks(block), want);
#ifdef UNIT_LEXER_AVX2
                        if (line_scanner_has_avx2())
                                CHECK_INT_EQ(block_marks_avx2(block), want);
#endif
                }
}

TESTS_MAIN(T(tricky_inputs), T(escape_runs), T(block_edges), T(block_marks_bytes), T(random_inputs), T(huge_lines))
