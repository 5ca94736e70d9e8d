/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "basic/macro.h"
#include "path-util.h"
#include "unit-name-path.h"
#include "unit-name.h"

/* Kept as they are in an escaped name; everything else becomes \xNN. */
static bool plain_char(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == ':' ||
               c == '_' || c == '.';
}

int unit_name_from_path(const char *path, const char *suffix, char **ret) {
        _cleanup_free_ char *p = NULL, *out = NULL;
        const char *s;
        size_t n, len;
        char *t;

        if (!path || !suffix)
                return -EINVAL;
        if (!path[0])
                path = "/"; /* systemd takes the empty path as the root */
        if (!path_is_absolute(path))
                return -EINVAL;
        p = strdup(path);
        if (!p)
                return -ENOMEM;
        path_simplify(p);
        if (!path_is_normalized(p))
                return -EINVAL;

        s = p;
        while (*s == '/')
                s++;
        len = strlen(s);
        while (len > 0 && s[len - 1] == '/')
                len--;

        /* Four bytes at most per input byte, then the suffix. */
        out = malloc(4 * len + strlen(suffix) + 2);
        if (!out)
                return -ENOMEM;
        t = out;
        if (len == 0)
                *t++ = '-';
        for (n = 0; n < len; n++) {
                unsigned char c = (unsigned char) s[n];

                if (c == '/')
                        *t++ = '-';
                else if ((c == '.' && n == 0) || !plain_char((char) c))
                        t += sprintf(t, "\\x%02x", c); /* a leading dot would hide the unit */
                else
                        *t++ = (char) c;
        }
        strcpy(t, suffix);
        if (strlen(out) >= UNIT_NAME_MAX)
                return -EINVAL;
        *ret = TAKE_PTR(out);
        return 0;
}
