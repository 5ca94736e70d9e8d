/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Small language helpers shared by every component. */

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _printf_(a, b) __attribute__((format(printf, a, b)))
#define _unused_ __attribute__((unused))
#define _must_check_ __attribute__((warn_unused_result))
#define _noreturn_ __attribute__((noreturn))
#define _always_inline_ inline __attribute__((always_inline))

#define ELEMENTSOF(x) (sizeof(x) / sizeof((x)[0]))
#define _fallthrough_ __attribute__((__fallthrough__))
#define MIN(a, b) ((a) < (b) ? (a) : (b))
#define MAX(a, b) ((a) > (b) ? (a) : (b))

static inline void freep(void *p) {
        free(*(void **) p);
}
#define _cleanup_free_ _cleanup_(freep)

static inline bool streq(const char *a, const char *b) {
        return strcmp(a, b) == 0;
}

static inline bool streq_ptr(const char *a, const char *b) {
        if (!a || !b)
                return a == b;
        return strcmp(a, b) == 0;
}

/* Returns a pointer just past the prefix, or NULL if s does not start with it. */
static inline const char *startswith(const char *s, const char *prefix) {
        size_t l = strlen(prefix);
        return strncmp(s, prefix, l) == 0 ? s + l : NULL;
}

static inline bool endswith(const char *s, const char *suffix) {
        size_t ls = strlen(s), lx = strlen(suffix);
        return ls >= lx && memcmp(s + ls - lx, suffix, lx) == 0;
}

/* Hand ownership of a pointer over, leaving NULL behind. */
#define TAKE_PTR(p)                             \
        ({                                      \
                __typeof__(p) _taken = (p);     \
                (p) = NULL;                     \
                _taken;                         \
        })

/* A "nulstr": strings one after the other, each with its NUL, ended by an
 * empty string ("a\0b\0\0"). Tables of words kept this way need no
 * pointer per word, hence no dynamic relocations in a PIE. A NULL list
 * is an empty one. */
#define NULSTR_FOREACH(i, l) \
        for (const char *i = (l); i && *i; i = strchr(i, '\0') + 1)

static inline bool nulstr_contains(const char *l, const char *word) {
        NULSTR_FOREACH(i, l)
                if (strcmp(i, word) == 0)
                        return true;
        return false;
}
