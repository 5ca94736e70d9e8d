/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdint.h>
#include <string.h>

#include "json-writer.h"
#include "utf8.h"

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* Whether the eight bytes are all copied as they are: ASCII from 0x20 on,
 * no quote, no backslash. (Exact for ASCII words: a byte below 0x20, or
 * one that is zero after XOR, sets its high bit in the subtraction.) */
static inline bool word_is_plain(uint64_t w) {
        uint64_t q = w ^ (ONES * '"'), bs = w ^ (ONES * '\\');

        return ((w | ((w - ONES * 0x20) & ~w) | ((q - ONES) & ~q) | ((bs - ONES) & ~bs)) & HIGHS) == 0;
}

static inline bool byte_is_plain(unsigned char c) {
        return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

/* How many bytes from s on are copied as they are. */
static size_t plain_run(const char *s, size_t n) {
        size_t i = 0;

        for (; n - i >= 8; i += 8) {
                uint64_t w;

                memcpy(&w, s + i, 8);
                if (!word_is_plain(w))
                        break;
        }
        while (i < n && byte_is_plain((unsigned char) s[i]))
                i++;
        return i;
}

int json_append_string(StrBuf *out, const char *s, size_t n) {
        bool replaced = false;
        size_t i = 0;
        int r;

        /* Room for the common case at once: no escapes. */
        r = strbuf_reserve(out, n + 2);
        if (r >= 0)
                r = strbuf_append_char(out, '"');
        while (r >= 0 && i < n) {
                unsigned char c = (unsigned char) s[i];
                size_t run = plain_run(s + i, n - i);

                /* Copy runs of plain ASCII at once. */
                if (run > 0) {
                        r = strbuf_append(out, s + i, run);
                        i += run;
                        continue;
                }

                if (c == '"' || c == '\\') {
                        char esc[2] = { '\\', (char) c };
                        r = strbuf_append(out, esc, 2);
                        i++;
                } else if (c < 0x20 || c == 0x7f) {
                        switch (c) {
                        case '\n':
                                r = strbuf_append_str(out, "\\n");
                                break;
                        case '\t':
                                r = strbuf_append_str(out, "\\t");
                                break;
                        case '\r':
                                r = strbuf_append_str(out, "\\r");
                                break;
                        default:
                                r = strbuf_printf(out, "\\u%04x", c);
                        }
                        i++;
                } else {
                        uint32_t cp;
                        size_t l = utf8_decode(s + i, n - i, &cp);

                        if (l == 0) {
                                r = strbuf_append_str(out, "\\ufffd");
                                replaced = true;
                                i++;
                        } else {
                                r = strbuf_append(out, s + i, l);
                                i += l;
                        }
                }
        }
        if (r >= 0)
                r = strbuf_append_char(out, '"');
        if (r < 0)
                return r;
        return replaced ? 1 : 0;
}

int json_append_cstring(StrBuf *out, const char *s) {
        return json_append_string(out, s ? s : "", s ? strlen(s) : 0);
}
