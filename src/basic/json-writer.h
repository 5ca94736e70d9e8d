/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "strbuf.h"

/* Appends s[0..n) as a JSON string literal, quotes included. The result is
 * always valid JSON: control characters are escaped, and every byte that is
 * not part of a valid UTF-8 sequence becomes U+FFFD. Returns 1 if such a
 * replacement happened, 0 if the text was carried over exactly, or -ENOMEM. */
int json_append_string(StrBuf *out, const char *s, size_t n);
int json_append_cstring(StrBuf *out, const char *s);

/* For a writer that reserves the room of a whole record once: how much
 * room the literal of n bytes may take at most, and the writer itself,
 * which puts the literal (quotes included) at o and returns its end.
 * *replaced is set when a byte became U+FFFD. */
#define JSON_STRING_ROOM(n) (6 * (n) + 34)
char *json_write_string(char *o, const char *s, size_t n, bool *replaced);
/* The same for text followed by at least 15 bytes that may be read (and
 * are not written out): it is read sixteen bytes at a time to the end. */
char *json_write_string_padded(char *o, const char *s, size_t n, bool *replaced);
/* Decimal digits of v at o (at most 20); returns their end. */
char *json_write_uint(char *o, uint64_t v);

/* Writing a record at a pointer: json_begin() reserves its worst case and
 * returns where it starts (NULL when out of memory); JSON_PUT() writes a
 * string literal and returns its end; json_end() closes the buffer after
 * what was written up to o. */
static inline char *json_begin(StrBuf *out, size_t room) {
        return strbuf_reserve(out, room) < 0 ? NULL : out->data + out->len;
}
#define JSON_PUT(o, lit) (memcpy((o), (lit), sizeof(lit) - 1), (o) + sizeof(lit) - 1)
static inline void json_end(StrBuf *out, char *o) {
        *o = '\0';
        out->len = (size_t) (o - out->data);
}
