/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__) && !defined(JSON_WRITER_SCALAR)
#include <emmintrin.h>
#endif

#include "json-writer.h"
#include "utf8.h"

/* Input taken at a time: room for its worst case (every byte "\ufffd",
 * six bytes) is reserved up front, so that the bytes are written straight
 * into the buffer, without a check per append. */
#define JSON_CHUNK ((size_t) 4096)
/* Past the worst case: the quotes, a sixteen-byte block stored whole, and
 * a UTF-8 sequence that starts in the chunk and ends after it. */
#define JSON_SLACK 32

/* Writes the escape (or the UTF-8 sequence, or U+FFFD) for the byte at
 * s[*i], which is not plain, to o; returns the new end of output. */
static inline char *escape_one(const char *s, size_t n, size_t *i, char *o, bool *replaced) {
        static const char hex[] = "0123456789abcdef";
        unsigned char c = (unsigned char) s[*i];
        uint32_t cp;
        size_t l;

        if (c == '"' || c == '\\') {
                *o++ = '\\';
                *o++ = (char) c;
                (*i)++;
                return o;
        }
        if (c < 0x20) {
                *o++ = '\\';
                switch (c) {
                case '\n':
                        *o++ = 'n';
                        break;
                case '\t':
                        *o++ = 't';
                        break;
                case '\r':
                        *o++ = 'r';
                        break;
                default:
                        memcpy(o, "u00", 3);
                        o[3] = hex[c >> 4];
                        o[4] = hex[c & 15];
                        o += 5;
                }
                (*i)++;
                return o;
        }
        l = utf8_decode(s + *i, n - *i, &cp);
        if (l == 0) {
                memcpy(o, "\\ufffd", 6);
                *replaced = true;
                (*i)++;
                return o + 6;
        }
        memcpy(o, s + *i, l);
        *i += l;
        return o + l;
}

#if defined(__SSE2__) && !defined(JSON_WRITER_SCALAR)
/* The n < 16 bytes at p in a block padded with zeros, read without going
 * past p[n - 1]: overlapping loads of eight or four bytes, shifted. */
static inline __m128i load_partial(const char *p, size_t n) {
        uint64_t lo = 0, hi = 0;

        if (n >= 8) {
                memcpy(&lo, p, 8);
                if (n > 8) {
                        memcpy(&hi, p + n - 8, 8);
                        hi >>= 8 * (16 - n);
                }
        } else if (n >= 4) {
                uint32_t a, b;

                memcpy(&a, p, 4);
                memcpy(&b, p + n - 4, 4);
                lo = a | ((uint64_t) b << (8 * (n - 4)));
        } else
                for (size_t k = 0; k < n; k++)
                        lo |= (uint64_t) (unsigned char) p[k] << (8 * k);
        return _mm_set_epi64x((long long) hi, (long long) lo);
}

/* Sixteen bytes at a time: each block is stored as it is, then the first
 * byte that needs a look (below 0x20 or from 0x80 on, which is one signed
 * comparison, a quote, a backslash) is found in its mask. padded: the input
 * is followed by at least 15 readable bytes, and the last block is loaded
 * whole, its mask cut to the input; otherwise a short tail is read through
 * a zeroed block, never past the input. */
static inline __attribute__((always_inline)) char *escape_run(const char *s, size_t n, size_t *pi, size_t end,
                                                           char *o, bool *replaced, bool padded) {
        const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\');
        size_t i = *pi;

        while (i < end) {
                size_t avail = end - i;
                unsigned mask;
                __m128i v;

                if (padded || avail >= 16)
                        v = _mm_loadu_si128((const __m128i *) (const void *) (s + i));
                else
                        v = load_partial(s + i, avail);
                _mm_storeu_si128((__m128i *) (void *) o, v);
                mask = (unsigned) _mm_movemask_epi8(_mm_or_si128(
                        _mm_cmplt_epi8(v, space), _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, bs))));
                if (avail < 16)
                        mask &= (1u << avail) - 1;
                if (mask == 0) {
                        size_t k = MIN(avail, (size_t) 16);

                        i += k;
                        o += k;
                        continue;
                }
                {
                        unsigned k = (unsigned) __builtin_ctz(mask);

                        i += k;
                        o += k;
                }
                o = escape_one(s, n, &i, o, replaced);
        }
        *pi = i;
        return o;
}
#else
static inline bool byte_is_plain(unsigned char c) {
        return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

/* Byte by byte: padded makes no difference. */
static inline __attribute__((always_inline)) char *escape_run(const char *s, size_t n, size_t *pi, size_t end,
                                                           char *o, bool *replaced, bool padded) {
        size_t i = *pi;

        (void) padded;
        while (i < end) {
                if (byte_is_plain((unsigned char) s[i]))
                        *o++ = s[i++];
                else
                        o = escape_one(s, n, &i, o, replaced);
        }
        *pi = i;
        return o;
}
#endif

char *json_write_uint_slow(char *o, uint64_t v) {
        size_t digits = 1;
        char *end;

        /* Counted first, then written from the last digit on. */
        for (uint64_t t = v; t >= 10; t /= 10)
                digits++;
        end = o + digits;
        o = end;
        do {
                *--o = (char) ('0' + v % 10);
                v /= 10;
        } while (v > 0);
        return end;
}

char *json_write_string_padded(char *o, const char *s, size_t n, bool *replaced) {
        size_t i = 0;

        *o++ = '"';
        o = escape_run(s, n, &i, n, o, replaced, true);
        *o++ = '"';
        return o;
}

char *json_write_string(char *o, const char *s, size_t n, bool *replaced) {
        size_t i = 0;

        *o++ = '"';
        o = escape_run(s, n, &i, n, o, replaced, false);
        *o++ = '"';
        return o;
}

int json_append_string(StrBuf *out, const char *s, size_t n) {
        bool replaced = false;
        size_t i = 0;
        char *o;
        int r;

        for (;;) {
                size_t chunk = MIN(n - i, JSON_CHUNK);

                r = strbuf_reserve(out, 6 * chunk + JSON_SLACK);
                if (r < 0)
                        return r;
                o = out->data + out->len;
                if (i == 0)
                        *o++ = '"';
                o = escape_run(s, n, &i, i + chunk, o, &replaced, false);
                if (i >= n) {
                        *o++ = '"';
                        out->len = (size_t) (o - out->data);
                        break;
                }
                out->len = (size_t) (o - out->data);
        }
        out->data[out->len] = '\0';
        return replaced ? 1 : 0;
}

int json_append_cstring(StrBuf *out, const char *s) {
        return json_append_string(out, s ? s : "", s ? strlen(s) : 0);
}
