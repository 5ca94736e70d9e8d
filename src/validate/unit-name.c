/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "basic/hex.h"
#include "basic/macro.h"
#include "path-util.h"
#include "unit-name.h"

/* Letters, digits and ":-_.\\": 0; '@': NAME_AT; anything else (all
 * bytes from 128 on too) NAME_BAD. A table: names are judged by the
 * thousand, and the classes of all bytes of a name are or-ed, with no
 * branch per byte. */
enum {
        NAME_AT = 1,
        NAME_BAD = 2,
};
#define B NAME_BAD
static const uint8_t name_char_class[256] = {
                B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
                B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
                B, B, B, B, B, B, B, B, B, B, B, B, B, 0, 0, B,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, B, B, B, B, B,
                NAME_AT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, B, 0, B, B, 0,
                B, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, B, B, B, B, B,
                B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
                B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
                B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
                B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
                B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
                B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
                B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
                B, B, B, B, B, B, B, B, B, B, B, B, B, B, B, B,
};
#undef B

/* The classes of the m bytes before the suffix, or-ed two at a time. */
static unsigned prefix_classes_bytes(const unsigned char *p, size_t m) {
        const unsigned char *end = p + m;
        unsigned classes = 0;

        for (; end - p >= 2; p += 2)
                classes |= name_char_class[p[0]] | name_char_class[p[1]];
        if (p < end)
                classes |= name_char_class[p[0]];
        return classes;
}

#ifdef __SSE2__
/* Which of 16 bytes (bit i: byte i) are not letters, digits or ":-_.\",
 * and which are '@'. Signed comparisons: bytes from 128 on are negative,
 * outside every range, so bad. */
static inline void classes16(__m128i x, unsigned *ret_bad, unsigned *ret_at) {
#define IN(lo, hi) _mm_and_si128(_mm_cmpgt_epi8(x, _mm_set1_epi8((lo) - 1)), _mm_cmplt_epi8(x, _mm_set1_epi8((hi) + 1)))
        __m128i at = _mm_cmpeq_epi8(x, _mm_set1_epi8('@'));
        __m128i ok = _mm_or_si128(_mm_or_si128(IN('-', '.'), IN('0', ':')),
                                  _mm_or_si128(_mm_or_si128(IN('@', 'Z'), IN('a', 'z')),
                                               _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\\')),
                                                            _mm_cmpeq_epi8(x, _mm_set1_epi8('_')))));
#undef IN
        *ret_bad = (unsigned) _mm_movemask_epi8(ok) ^ 0xffffu;
        *ret_at = (unsigned) _mm_movemask_epi8(at);
}
#endif

/* The classes of the m bytes of name before the suffix (the name has n
 * bytes): sixteen at a time where the name is long enough to load them
 * (a short name's few bytes cost less one by one). */
static unsigned prefix_classes(const char *name, size_t m, size_t n) {
#ifdef __SSE2__
        unsigned bad = 0, at = 0, b, a;

        if (n < 16)
                return prefix_classes_bytes((const unsigned char *) name, m);
        if (m < 16) {
                /* The load stays inside the name; the bytes from the
                 * suffix on are masked off. */
                classes16(_mm_loadu_si128((const __m128i *) name), &b, &a);
                bad = b & ((1u << m) - 1);
                at = a & ((1u << m) - 1);
        } else {
                size_t i = 0;

                for (; i + 16 <= m; i += 16) {
                        classes16(_mm_loadu_si128((const __m128i *) (name + i)), &b, &a);
                        bad |= b, at |= a;
                }
                if (i < m) {
                        /* The last sixteen bytes, again in part. */
                        classes16(_mm_loadu_si128((const __m128i *) (name + m - 16)), &b, &a);
                        bad |= b, at |= a;
                }
        }
        return (bad ? NAME_BAD : 0) | (at ? NAME_AT : 0);
#else
        return prefix_classes_bytes((const unsigned char *) name, m);
#endif
}

int unit_name_classify_type_n(const char *name, size_t n, UnitType *ret_type) {
        const char *dot, *at = NULL;
        UnitType type;

        if (!name || n == 0 || n >= UNIT_NAME_MAX)
                return -EINVAL;

        dot = memrchr(name, '.', n);
        if (!dot || dot == name)
                return -EINVAL;
        /* The suffix from the length known (the strnlen() of
         * unit_type_from_string() spared). */
        type = unit_type_from_mem(dot + 1, n - (size_t) (dot + 1 - name));
        if (type < 0)
                return -EINVAL;

        {
                unsigned classes = prefix_classes(name, (size_t) (dot - name), n);

                if (classes & NAME_BAD)
                        return -EINVAL;
                if (classes & NAME_AT)
                        at = memchr(name, '@', (size_t) (dot - name));
        }

        if (at == name)
                return -EINVAL; /* empty prefix */
        if (ret_type)
                *ret_type = type;
        if (!at)
                return UNIT_NAME_PLAIN;
        return at + 1 == dot ? UNIT_NAME_TEMPLATE : UNIT_NAME_INSTANCE;
}

int unit_name_classify_type(const char *name, UnitType *ret_type) {
        if (!name)
                return -EINVAL;
        return unit_name_classify_type_n(name, strlen(name), ret_type);
}

int unit_name_classify(const char *name) {
        return unit_name_classify_type(name, NULL);
}

bool unit_name_is_valid(const char *name, UnitNameFlags flags) {
        int r = unit_name_classify(name);

        return r > 0 && (r & flags);
}

int unit_name_to_prefix(const char *name, char **ret) {
        const char *end;
        char *s;

        if (unit_name_classify(name) < 0)
                return -EINVAL;
        end = strchr(name, '@');
        if (!end)
                end = strrchr(name, '.');
        s = strndup(name, (size_t) (end - name));
        if (!s)
                return -ENOMEM;
        *ret = s;
        return 0;
}

int unit_name_to_instance(const char *name, char **ret) {
        const char *at, *dot;
        int kind;

        kind = unit_name_classify(name);
        if (kind < 0)
                return kind;
        if (kind == UNIT_NAME_PLAIN) {
                if (ret)
                        *ret = NULL;
                return kind;
        }
        at = strchr(name, '@');
        dot = strrchr(name, '.');
        if (ret) {
                char *s = strndup(at + 1, (size_t) (dot - at - 1));
                if (!s)
                        return -ENOMEM;
                *ret = s;
        }
        return kind;
}

int unit_name_without_suffix(const char *name, char **ret) {
        char *s;

        if (unit_name_classify(name) < 0)
                return -EINVAL;
        s = strndup(name, (size_t) (strrchr(name, '.') - name));
        if (!s)
                return -ENOMEM;
        *ret = s;
        return 0;
}

int unit_name_template(const char *name, char **ret) {
        const char *at, *dot;
        size_t a;
        char *s;

        if (!unit_name_is_valid(name, UNIT_NAME_TEMPLATE | UNIT_NAME_INSTANCE))
                return -EINVAL;
        at = strchr(name, '@');
        dot = strrchr(name, '.');
        a = (size_t) (at - name) + 1;
        s = malloc(a + strlen(dot) + 1);
        if (!s)
                return -ENOMEM;
        memcpy(s, name, a);
        strcpy(s + a, dot);
        *ret = s;
        return 0;
}

UnitType unit_name_to_type(const char *name) {
        UnitType type;

        if (unit_name_classify_type(name, &type) < 0)
                return _UNIT_TYPE_INVALID;
        return type;
}

int unit_name_unescape(const char *s, char **ret) {
        _cleanup_free_ char *r = NULL;
        char *t;

        r = strdup(s);
        if (!r)
                return -ENOMEM;

        for (t = r; *s; s++) {
                if (*s == '-')
                        *t++ = '/';
                else if (*s == '\\') {
                        int a, b;

                        if (s[1] != 'x')
                                return -EINVAL;
                        a = unhexchar(s[2]);
                        if (a < 0)
                                return -EINVAL;
                        b = unhexchar(s[3]);
                        if (b < 0)
                                return -EINVAL;
                        *t++ = (char) ((a << 4) | b);
                        s += 3;
                } else
                        *t++ = *s;
        }
        *t = '\0';
        *ret = TAKE_PTR(r);
        return 0;
}

int unit_name_path_unescape(const char *s, char **ret) {
        _cleanup_free_ char *w = NULL;
        char *p;
        int r;

        if (!s || !s[0])
                return -EINVAL;
        if (streq(s, "-")) {
                p = strdup("/");
                if (!p)
                        return -ENOMEM;
                *ret = p;
                return 0;
        }

        r = unit_name_unescape(s, &w);
        if (r < 0)
                return r;
        if (w[0] == '/' || endswith(w, "/"))
                return -EINVAL;

        p = malloc(strlen(w) + 2);
        if (!p)
                return -ENOMEM;
        p[0] = '/';
        strcpy(p + 1, w);
        if (!path_is_normalized(p)) {
                free(p);
                return -EINVAL;
        }
        *ret = p;
        return 0;
}
