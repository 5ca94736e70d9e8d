/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "json-writer.h"
#include "utf8.h"

int json_append_string(StrBuf *out, const char *s, size_t n) {
        bool replaced = false;
        size_t i = 0;
        int r;

        r = strbuf_append_char(out, '"');
        while (r >= 0 && i < n) {
                unsigned char c = (unsigned char) s[i];
                size_t run = i;

                /* Copy runs of plain ASCII at once. */
                while (run < n && (unsigned char) s[run] >= 0x20 && (unsigned char) s[run] < 0x80 &&
                       s[run] != '"' && s[run] != '\\')
                        run++;
                if (run > i) {
                        r = strbuf_append(out, s + i, run - i);
                        i = run;
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
