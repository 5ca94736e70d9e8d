/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"

int strbuf_reserve_slow(StrBuf *b, size_t extra) {
        size_t need, n;
        char *q;

        if (extra > SIZE_MAX - b->len - 1)
                return -ENOMEM;
        need = b->len + extra + 1;
        if (b->data && need <= b->allocated)
                return 0;

        n = b->allocated ? b->allocated : 64;
        while (n < need) {
                if (n > SIZE_MAX / 2)
                        return -ENOMEM;
                n *= 2;
        }
        q = realloc(b->data, n);
        if (!q)
                return -ENOMEM;
        b->data = q;
        b->allocated = n;
        b->data[b->len] = '\0';
        return 0;
}

int strbuf_append_slow(StrBuf *b, const void *p, size_t n) {
        int r;

        r = strbuf_reserve(b, n);
        if (r < 0)
                return r;
        if (n > 0)
                memcpy(b->data + b->len, p, n);
        b->len += n;
        b->data[b->len] = '\0';
        return 0;
}

int strbuf_append_char_slow(StrBuf *b, char c) {
        return strbuf_append(b, &c, 1);
}

int strbuf_printf(StrBuf *b, const char *fmt, ...) {
        va_list ap;
        size_t avail;
        int n, r;

        /* Formatted once into the room at hand (made at least 128 bytes);
         * only text that does not fit is formatted a second time. */
        r = strbuf_reserve(b, 128);
        if (r < 0)
                return r;
        avail = b->allocated - b->len;
        va_start(ap, fmt);
        n = vsnprintf(b->data + b->len, avail, fmt, ap);
        va_end(ap);
        if (n < 0) {
                b->data[b->len] = '\0';
                return -EINVAL;
        }
        if ((size_t) n >= avail) {
                r = strbuf_reserve(b, (size_t) n);
                if (r < 0) {
                        b->data[b->len] = '\0';
                        return r;
                }
                va_start(ap, fmt);
                vsnprintf(b->data + b->len, (size_t) n + 1, fmt, ap);
                va_end(ap);
        }
        b->len += (size_t) n;
        return 0;
}

int strbuf_append_uint(StrBuf *b, uint64_t v) {
        size_t digits = 1;
        char *p;
        int r;

        /* Counted first, then written in place from the last digit on. */
        for (uint64_t t = v; t >= 10; t /= 10)
                digits++;
        r = strbuf_reserve(b, digits);
        if (r < 0)
                return r;
        b->len += digits;
        p = b->data + b->len;
        *p = '\0';
        do {
                *--p = (char) ('0' + v % 10);
                v /= 10;
        } while (v > 0);
        return 0;
}

void strbuf_reset(StrBuf *b) {
        b->len = 0;
        if (b->data)
                b->data[0] = '\0';
}

void strbuf_done(StrBuf *b) {
        free(b->data);
        *b = (StrBuf) {};
}

char *strbuf_steal(StrBuf *b) {
        char *p;

        if (!b->data && strbuf_reserve(b, 0) < 0)
                return NULL;
        p = b->data;
        *b = (StrBuf) {};
        return p;
}
