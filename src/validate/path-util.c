/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdlib.h>
#include <string.h>

#include "basic/macro.h"
#include "basic/utf8.h"
#include "path-util.h"

/* The rule walked byte by byte: any length. */
static bool path_is_valid_walk(const char *p) {
        size_t component = 0, total = 0;

        for (; *p; p++) {
                total++;
                if (total >= VALIDATE_PATH_MAX)
                        return false;
                if (*p == '/')
                        component = 0;
                else if (++component > VALIDATE_NAME_MAX)
                        return false;
        }
        return true;
}

bool path_is_valid(const char *p) {
        if (!p || !p[0])
                return false;
        /* No component of a path this short can be longer than NAME_MAX,
         * nor the whole as long as PATH_MAX: nothing to walk. Most paths
         * are. */
        if (strnlen(p, VALIDATE_NAME_MAX + 1) <= VALIDATE_NAME_MAX)
                return true;
        return path_is_valid_walk(p);
}

bool path_has_dotdot(const char *p) {
        for (const char *s = p;;) {
                const char *e = strchrnul(s, '/');

                if (e - s == 2 && s[0] == '.' && s[1] == '.')
                        return true;
                if (!*e)
                        return false;
                s = e + 1;
        }
}

/* Valid, and no "." or ".." component and no "//": one pass over the
 * components. */
bool path_is_normalized(const char *p) {
        if (!path_is_valid(p))
                return false;
        for (const char *s = p;;) {
                const char *e = strchrnul(s, '/');
                size_t n = (size_t) (e - s);

                if (s[0] == '.' && (n == 1 || (n == 2 && s[1] == '.')))
                        return false;
                if (!*e)
                        return true;
                if (e[1] == '/')
                        return false;
                s = e + 1;
        }
}

bool filename_is_valid(const char *p) {
        if (!p || !p[0] || streq(p, ".") || streq(p, ".."))
                return false;
        if (strchr(p, '/'))
                return false;
        return strlen(p) <= VALIDATE_NAME_MAX;
}

void path_simplify(char *p) {
        char *w = p;
        const char *r = p;
        bool absolute = p[0] == '/';

        if (absolute)
                *w++ = *r++;

        while (*r) {
                const char *e;
                size_t n;

                while (*r == '/')
                        r++;
                if (!*r)
                        break;
                e = strchrnul(r, '/');
                n = (size_t) (e - r);
                if (n == 1 && r[0] == '.') {
                        r = e;
                        continue;
                }
                if (w > p && w[-1] != '/')
                        *w++ = '/';
                memmove(w, r, n);
                w += n;
                r = e;
        }
        /* A relative path made only of "." parts becomes ".". */
        if (w == p)
                *w++ = '.';
        *w = '\0';
}

PathCheck path_check_absolute_full(const char *p) {
        _cleanup_free_ char *copy = NULL;

        if (!utf8_is_valid(p, strlen(p)))
                return PATH_CHECK_BAD_UTF8;
        if (!path_is_absolute(p))
                return PATH_CHECK_NOT_ABSOLUTE;

        copy = strdup(p);
        if (!copy)
                return PATH_CHECK_BAD_LENGTH; /* cannot happen for sane input; err on refusal */
        path_simplify(copy);
        if (!path_is_valid(copy))
                return PATH_CHECK_BAD_LENGTH;
        if (!path_is_normalized(copy))
                return PATH_CHECK_NOT_NORMALIZED;
        return PATH_CHECK_OK;
}

/* Whether p is an absolute ASCII path of at most NAME_MAX bytes with no
 * "//" and no "." or ".." component: then path_check_absolute_full()
 * finds it valid UTF-8, and path_simplify() at most drops a trailing
 * slash, which leaves it valid and normalized. One pass, no copy. Any
 * other path (false) takes the full way. */
static bool path_plainly_ok(const char *p) {
        const char *s = p;

        if (*s != '/')
                return false;
        for (;;) {
                /* s is at a '/': what follows starts a component. */
                s++;
                if (*s == '/')
                        return false;
                if (*s == '.' && (s[1] == '/' || s[1] == '\0' || (s[1] == '.' && (s[2] == '/' || s[2] == '\0'))))
                        return false;
                for (; *s != '/'; s++) {
                        if (*s == '\0')
                                return s - p <= VALIDATE_NAME_MAX;
                        if ((unsigned char) *s >= 0x80)
                                return false;
                }
        }
}

PathCheck path_check_absolute(const char *p) {
        if (path_plainly_ok(p))
                return PATH_CHECK_OK;
        return path_check_absolute_full(p);
}

const char *path_check_to_string(PathCheck c) {
        switch (c) {
        case PATH_CHECK_OK:
                return "path is valid";
        case PATH_CHECK_NOT_ABSOLUTE:
                return "path is not absolute";
        case PATH_CHECK_BAD_UTF8:
                return "path is not valid UTF-8";
        case PATH_CHECK_BAD_LENGTH:
                return "path has an invalid length";
        case PATH_CHECK_NOT_NORMALIZED:
                return "path is not normalized";
        }
        return NULL;
}
