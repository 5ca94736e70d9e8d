/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* StrBuf's formatting and the JSON string writer against the plain
 * definitions they replaced (format twice; copy byte by byte). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/json-writer.h"
#include "basic/strbuf.h"
#include "basic/utf8.h"
#include "tests.h"

TEST(printf_sizes) {
        StrBuf b = {};
        char *big = malloc(5001);

        memset(big, 'y', 5000);
        big[5000] = '\0';
        /* Short text into an empty buffer, then text larger than the room. */
        CHECK_INT_EQ(strbuf_printf(&b, "%s=%u", "a", 7u), 0);
        CHECK_STR_EQ(b.data, "a=7");
        CHECK_INT_EQ(strbuf_printf(&b, "[%s]", big), 0);
        CHECK_INT_EQ(b.len, 3 + 5002);
        CHECK(b.data[3] == '[' && b.data[b.len - 1] == ']' && b.data[b.len] == '\0');
        CHECK_INT_EQ(strbuf_printf(&b, "%s", ""), 0);
        CHECK_INT_EQ(b.len, 3 + 5002);
        /* Exactly filling the room and one byte over it. */
        for (size_t n = 100; n < 300; n++) {
                strbuf_reset(&b);
                CHECK_INT_EQ(strbuf_printf(&b, "%.*s", (int) n, big), 0);
                CHECK_INT_EQ(b.len, n);
                CHECK_INT_EQ(strlen(b.data), n);
        }
        strbuf_done(&b);
        free(big);
}

TEST(append_uint) {
        static const uint64_t values[] = { 0, 1, 9, 10, 99, 4294967295u, UINT64_MAX };
        StrBuf b = {};
        char want[32];

        for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
                strbuf_reset(&b);
                CHECK_INT_EQ(strbuf_append_uint(&b, values[i]), 0);
                snprintf(want, sizeof(want), "%" PRIu64, values[i]);
                CHECK_STR_EQ(b.data, want);
        }
        strbuf_done(&b);
}

static int ref_json(StrBuf *out, const char *s, size_t n) {
        bool replaced = false;

        strbuf_append_char(out, '"');
        for (size_t i = 0; i < n;) {
                unsigned char c = (unsigned char) s[i];
                uint32_t cp;
                size_t l;

                if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
                        strbuf_append_char(out, (char) c);
                        i++;
                } else if (c == '"' || c == '\\') {
                        strbuf_append_char(out, '\\');
                        strbuf_append_char(out, (char) c);
                        i++;
                } else if (c < 0x20) {
                        if (c == '\n')
                                strbuf_append_str(out, "\\n");
                        else if (c == '\t')
                                strbuf_append_str(out, "\\t");
                        else if (c == '\r')
                                strbuf_append_str(out, "\\r");
                        else
                                strbuf_printf(out, "\\u%04x", c);
                        i++;
                } else if ((l = utf8_decode(s + i, n - i, &cp)) == 0) {
                        strbuf_append_str(out, "\\ufffd");
                        replaced = true;
                        i++;
                } else {
                        strbuf_append(out, s + i, l);
                        i += l;
                }
        }
        strbuf_append_char(out, '"');
        return replaced;
}

static void compare_json(const char *s, size_t n) {
        StrBuf a = {}, b = {};
        int ra = json_append_string(&a, s, n), rb = ref_json(&b, s, n);

        CHECK_INT_EQ(ra, rb);
        CHECK_MEM_EQ(a.data, a.len, b.data, b.len);
        strbuf_done(&a);
        strbuf_done(&b);
}

TEST(json_strings) {
        static const char *const tricky[] = {
                "", "plain text of some length", "quote\" and \\ backslash in the middle of a word",
                "tab\there\nnewline\r\x01\x1f\x7f", "\xc3\xa9t\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80",
                "bad \xc3 \xff\xfe tail", "12345678\"12345678\\1234567\x19",
        };
        static const char alphabet[] = "abc =\"\\\\\n\t\x01\x1f\x20\x7f\x80\xc3\xa9\xe2\x82\xac\xff";
        unsigned seed = 4321;
        char buf[100];

        for (size_t i = 0; i < sizeof(tricky) / sizeof(tricky[0]); i++)
                compare_json(tricky[i], strlen(tricky[i]));
        compare_json("a\0b", 3);
        for (int round = 0; round < 100000 && !tests_failed; round++) {
                size_t n;

                seed = seed * 1103515245u + 12345u;
                n = (seed >> 16) % sizeof(buf);
                for (size_t i = 0; i < n; i++) {
                        seed = seed * 1103515245u + 12345u;
                        /* Mostly plain, so that the eight-byte path runs. */
                        buf[i] = (seed >> 28) < 12 ? 'x' : alphabet[(seed >> 16) % (sizeof(alphabet) - 1)];
                }
                compare_json(buf, n);
        }
}

TESTS_MAIN(T(printf_sizes), T(append_uint), T(json_strings))
