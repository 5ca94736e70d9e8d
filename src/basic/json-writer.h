/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__) && !defined(JSON_WRITER_SCALAR)
#include <emmintrin.h>
#endif

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
/* For text followed by at least 15 bytes that may be read: whether it
 * goes into a literal unchanged (printable ASCII without '"' and '\\'),
 * and a copy of it to o that may write up to 15 bytes past o + n (into
 * room reserved for the literal); returns o + n. Together they write a
 * plain literal in blocks, without looking at a byte twice. */
static inline bool json_is_plain_padded(const char *s, size_t n);
/* The same, but the byte at skip (< n, or SIZE_MAX for none) is not
 * looked at: a "KEY=VALUE" line's '=' in one pass. */
static inline bool json_is_plain_padded_but(const char *s, size_t n, size_t skip);
static inline char *json_copy_padded(char *o, const char *s, size_t n);
/* Decimal digits of v at o (at most 20); returns their end. Inline for
 * one or two digits (most line numbers). */
char *json_write_uint_slow(char *o, uint64_t v);
static inline char *json_write_uint(char *o, uint64_t v) {
        if (v < 10) {
                *o = (char) ('0' + v);
                return o + 1;
        }
        if (v < 100) {
                o[0] = (char) ('0' + v / 10);
                o[1] = (char) ('0' + v % 10);
                return o + 2;
        }
        return json_write_uint_slow(o, v);
}

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

/* ---- implementation ---------------------------------------------------- */

#if defined(__SSE2__) && !defined(JSON_WRITER_SCALAR)
/* Sixteen bytes at a time: below 0x20 or from 0x80 on (one signed
 * comparison), a quote, a backslash; the last block's mask cut to the text. */
static inline bool json_is_plain_padded_but(const char *s, size_t n, size_t skip) {
        const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\');

        for (size_t i = 0; i < n; i += 16) {
                __m128i v = _mm_loadu_si128((const __m128i *) (const void *) (s + i));
                unsigned mask = (unsigned) _mm_movemask_epi8(_mm_or_si128(
                        _mm_cmplt_epi8(v, space), _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bs))));

                if (n - i < 16)
                        mask &= (1u << (n - i)) - 1;
                if (skip - i < 16)
                        mask &= ~(1u << (skip - i));
                if (mask != 0)
                        return false;
        }
        return true;
}

static inline char *json_copy_padded(char *o, const char *s, size_t n) {
        for (size_t i = 0; i < n; i += 16)
                _mm_storeu_si128((__m128i *) (void *) (o + i), _mm_loadu_si128((const __m128i *) (const void *) (s + i)));
        return o + n;
}
#else
static inline bool json_is_plain_padded_but(const char *s, size_t n, size_t skip) {
        for (size_t i = 0; i < n; i++) {
                unsigned char c = (unsigned char) s[i];

                if (i != skip && (c < 0x20 || c >= 0x80 || c == '"' || c == '\\'))
                        return false;
        }
        return true;
}

static inline char *json_copy_padded(char *o, const char *s, size_t n) {
        memcpy(o, s, n);
        return o + n;
}
#endif

static inline bool json_is_plain_padded(const char *s, size_t n) {
        return json_is_plain_padded_but(s, n, SIZE_MAX);
}
