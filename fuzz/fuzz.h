/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Shared pieces of the fuzz targets. Each target file defines only
 * LLVMFuzzerTestOneInput(); fuzz-main.c supplies a main() that replays
 * corpus files through it when libFuzzer is not linked in. */

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A property did not hold: report and abort, so that libFuzzer keeps the
 * input as a crash and the replay test fails. */
#define fuzz_assert(expr)                                                              \
        do {                                                                           \
                if (!(expr)) {                                                         \
                        fprintf(stderr, "%s:%d: property failed: %s\n", __FILE__,      \
                                __LINE__, #expr);                                      \
                        abort();                                                       \
                }                                                                      \
        } while (0)

/* Out of memory in the harness itself is not a finding. */
static inline void *fuzz_xmalloc(size_t n) {
        void *p = malloc(n ? n : 1);

        if (!p)
                abort();
        return p;
}

/* A copy of the input in a buffer of exactly size (+ extra) bytes, so that
 * the sanitizer sees any read past the end. */
static inline char *fuzz_copy(const uint8_t *data, size_t size, size_t extra) {
        char *p = fuzz_xmalloc(size + extra);

        if (size > 0)
                memcpy(p, data, size);
        memset(p + size, 0, extra);
        return p;
}

/* Standard UTF-8 (no overlongs, no surrogates, nothing past U+10FFFF). */
static inline int fuzz_utf8_ok(const unsigned char *s, size_t n) {
        size_t i = 0;

        while (i < n) {
                unsigned char c = s[i];
                uint32_t cp;
                size_t len;

                if (c < 0x80) {
                        i++;
                        continue;
                }
                if (c >= 0xc2 && c <= 0xdf)
                        len = 2, cp = c & 0x1f;
                else if (c >= 0xe0 && c <= 0xef)
                        len = 3, cp = c & 0x0f;
                else if (c >= 0xf0 && c <= 0xf4)
                        len = 4, cp = c & 0x07;
                else
                        return 0;
                if (n - i < len)
                        return 0;
                for (size_t k = 1; k < len; k++) {
                        if ((s[i + k] & 0xc0) != 0x80)
                                return 0;
                        cp = (cp << 6) | (s[i + k] & 0x3f);
                }
                if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
                    (cp >= 0xd800 && cp <= 0xdfff))
                        return 0;
                i += len;
        }
        return 1;
}

/* A small recursive-descent check that text is one JSON value (RFC 8259)
 * with nothing after it. Depth is bounded by what our writers produce. */
typedef struct FuzzJson {
        const char *p, *end;
        unsigned depth;
} FuzzJson;

static inline int fuzz_json_value(FuzzJson *j);

static inline void fuzz_json_ws(FuzzJson *j) {
        while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r'))
                j->p++;
}

static inline int fuzz_json_lit(FuzzJson *j, const char *lit) {
        size_t n = strlen(lit);

        if ((size_t) (j->end - j->p) < n || memcmp(j->p, lit, n) != 0)
                return 0;
        j->p += n;
        return 1;
}

static inline int fuzz_json_string(FuzzJson *j) {
        if (j->p >= j->end || *j->p != '"')
                return 0;
        j->p++;
        while (j->p < j->end) {
                unsigned char c = (unsigned char) *j->p++;

                if (c == '"')
                        return 1;
                if (c < 0x20)
                        return 0;
                if (c != '\\')
                        continue;
                if (j->p >= j->end)
                        return 0;
                c = (unsigned char) *j->p++;
                if (c == 'u') {
                        for (int k = 0; k < 4; k++, j->p++)
                                if (j->p >= j->end || !strchr("0123456789abcdefABCDEF", *j->p) ||
                                    *j->p == '\0')
                                        return 0;
                } else if (!strchr("\"\\/bfnrt", c) || c == '\0')
                        return 0;
        }
        return 0;
}

static inline int fuzz_json_number(FuzzJson *j) {
        const char *start = j->p;

        if (j->p < j->end && *j->p == '-')
                j->p++;
        if (j->p < j->end && *j->p == '0')
                j->p++;
        else {
                if (j->p >= j->end || *j->p < '1' || *j->p > '9')
                        return 0;
                while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
                        j->p++;
        }
        if (j->p < j->end && *j->p == '.') {
                j->p++;
                if (j->p >= j->end || *j->p < '0' || *j->p > '9')
                        return 0;
                while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
                        j->p++;
        }
        if (j->p < j->end && (*j->p == 'e' || *j->p == 'E')) {
                j->p++;
                if (j->p < j->end && (*j->p == '+' || *j->p == '-'))
                        j->p++;
                if (j->p >= j->end || *j->p < '0' || *j->p > '9')
                        return 0;
                while (j->p < j->end && *j->p >= '0' && *j->p <= '9')
                        j->p++;
        }
        return j->p > start;
}

static inline int fuzz_json_container(FuzzJson *j, char close, int object) {
        j->p++;
        if (++j->depth > 256)
                return 0;
        fuzz_json_ws(j);
        if (j->p < j->end && *j->p == close) {
                j->p++;
                j->depth--;
                return 1;
        }
        for (;;) {
                if (object) {
                        fuzz_json_ws(j);
                        if (!fuzz_json_string(j))
                                return 0;
                        fuzz_json_ws(j);
                        if (j->p >= j->end || *j->p++ != ':')
                                return 0;
                }
                if (!fuzz_json_value(j))
                        return 0;
                fuzz_json_ws(j);
                if (j->p >= j->end)
                        return 0;
                if (*j->p == ',') {
                        j->p++;
                        continue;
                }
                if (*j->p++ != close)
                        return 0;
                j->depth--;
                return 1;
        }
}

static inline int fuzz_json_value(FuzzJson *j) {
        fuzz_json_ws(j);
        if (j->p >= j->end)
                return 0;
        switch (*j->p) {
        case '{':
                return fuzz_json_container(j, '}', 1);
        case '[':
                return fuzz_json_container(j, ']', 0);
        case '"':
                return fuzz_json_string(j);
        case 't':
                return fuzz_json_lit(j, "true");
        case 'f':
                return fuzz_json_lit(j, "false");
        case 'n':
                return fuzz_json_lit(j, "null");
        default:
                return fuzz_json_number(j);
        }
}

/* Valid UTF-8, not a single raw control character, and well-formed JSON. */
static inline int fuzz_json_ok(const char *s, size_t n) {
        FuzzJson j = { .p = s, .end = s + n };

        for (size_t i = 0; i < n; i++)
                if ((unsigned char) s[i] < 0x20)
                        return 0;
        if (!fuzz_utf8_ok((const unsigned char *) s, n))
                return 0;
        if (!fuzz_json_value(&j))
                return 0;
        fuzz_json_ws(&j);
        return j.p == j.end;
}
