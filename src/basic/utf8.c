/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "utf8.h"

size_t utf8_decode(const char *s, size_t n, uint32_t *ret_cp) {
        const unsigned char *p = (const unsigned char *) s;
        uint32_t cp, min;
        size_t len;

        if (n == 0)
                return 0;
        if (p[0] < 0x80) {
                *ret_cp = p[0];
                return 1;
        }
        if ((p[0] & 0xe0) == 0xc0) {
                len = 2;
                cp = p[0] & 0x1f;
                min = 0x80;
        } else if ((p[0] & 0xf0) == 0xe0) {
                len = 3;
                cp = p[0] & 0x0f;
                min = 0x800;
        } else if ((p[0] & 0xf8) == 0xf0) {
                len = 4;
                cp = p[0] & 0x07;
                min = 0x10000;
        } else
                return 0;

        if (n < len)
                return 0;
        for (size_t i = 1; i < len; i++) {
                if ((p[i] & 0xc0) != 0x80)
                        return 0;
                cp = (cp << 6) | (p[i] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
                return 0;

        *ret_cp = cp;
        return len;
}

static bool is_noncharacter(uint32_t cp) {
        return (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) == 0xfffe;
}

static bool validate(const char *s, size_t n, bool systemd) {
        size_t i = 0;

        while (i < n) {
                uint32_t cp;
                size_t l;
                uint64_t w;

                /* Skip plain ASCII eight bytes at a time. */
                if (n - i >= 8) {
                        memcpy(&w, s + i, 8);
                        if ((w & UINT64_C(0x8080808080808080)) == 0) {
                                i += 8;
                                continue;
                        }
                }
                if ((unsigned char) s[i] < 0x80) {
                        i++;
                        continue;
                }
                l = utf8_decode(s + i, n - i, &cp);
                if (l == 0)
                        return false;
                if (systemd && is_noncharacter(cp))
                        return false;
                i += l;
        }
        return true;
}

bool utf8_is_valid(const char *s, size_t n) {
        return validate(s, n, false);
}

bool utf8_is_valid_systemd(const char *s, size_t n) {
        return validate(s, n, true);
}
