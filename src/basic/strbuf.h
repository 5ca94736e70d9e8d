/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "macro.h"

/* A growable byte buffer. The content is always NUL-terminated (the NUL is
 * not counted in len), so it can be handed to string functions when it holds
 * no embedded NUL. */
typedef struct StrBuf {
        char *data;
        size_t len;
        size_t allocated;
} StrBuf;

int strbuf_reserve_slow(StrBuf *b, size_t extra);
/* Room for extra more bytes (and the NUL); the common case without a call. */
static inline int strbuf_reserve(StrBuf *b, size_t extra) {
        if (b->data && extra < b->allocated - b->len)
                return 0;
        return strbuf_reserve_slow(b, extra);
}
int strbuf_append_slow(StrBuf *b, const void *p, size_t n);
/* With room in the buffer (the common case), without a call. */
static _always_inline_ int strbuf_append(StrBuf *b, const void *p, size_t n) {
        if (b->data && n < b->allocated - b->len) {
                if (n > 0)
                        memcpy(b->data + b->len, p, n);
                b->len += n;
                b->data[b->len] = '\0';
                return 0;
        }
        return strbuf_append_slow(b, p, n);
}
/* Always inline: for a literal, the length is known at compile time. */
static _always_inline_ int strbuf_append_str(StrBuf *b, const char *s) {
        return strbuf_append(b, s, strlen(s));
}
int strbuf_append_char_slow(StrBuf *b, char c);
/* The common case, room in the buffer, without a call. */
static inline int strbuf_append_char(StrBuf *b, char c) {
        if (b->data && b->len + 2 <= b->allocated) {
                b->data[b->len++] = c;
                b->data[b->len] = '\0';
                return 0;
        }
        return strbuf_append_char_slow(b, c);
}
int strbuf_printf(StrBuf *b, const char *fmt, ...) _printf_(2, 3);
/* Decimal digits of v, like "%" PRIu64 without printf. */
int strbuf_append_uint(StrBuf *b, uint64_t v);
void strbuf_reset(StrBuf *b);
void strbuf_done(StrBuf *b);
/* Hands the buffer over (never NULL on success: an empty buffer gives ""). */
char *strbuf_steal(StrBuf *b);
