/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <strings.h>

#include "basic/macro.h"
#include "parse-util.h"

int parse_boolean(const char *v) {
        if (!v)
                return -EINVAL;
        /* "1", "yes", "y", "true", "t", "on" and "0", "no", "n", "false",
         * "f", "off", in any case; the first letter picks the candidates
         * (the program runs in the C locale: case folding is ASCII's). */
        switch (v[0]) {
        case '1':
                return v[1] == '\0' ? 1 : -EINVAL;
        case '0':
                return v[1] == '\0' ? 0 : -EINVAL;
        case 'y':
        case 'Y':
                return strcasecmp(v, "yes") == 0 || v[1] == '\0' ? 1 : -EINVAL;
        case 't':
        case 'T':
                return strcasecmp(v, "true") == 0 || v[1] == '\0' ? 1 : -EINVAL;
        case 'n':
        case 'N':
                return strcasecmp(v, "no") == 0 || v[1] == '\0' ? 0 : -EINVAL;
        case 'f':
        case 'F':
                return strcasecmp(v, "false") == 0 || v[1] == '\0' ? 0 : -EINVAL;
        case 'o':
        case 'O':
                return strcasecmp(v, "on") == 0 ? 1 : strcasecmp(v, "off") == 0 ? 0 : -EINVAL;
        default:
                return -EINVAL;
        }
}
