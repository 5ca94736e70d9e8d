/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdint.h>

#include "user-name.h"
#include "behaviour.h"

/* The two IDs that can never name a user: (uid_t) -1 and its 16-bit twin. */
static int check_uid(uint64_t v, uint32_t *ret) {
        if (v > UINT32_MAX)
                return -ERANGE;
        if (v == UINT32_MAX || v == 65535)
                return -ENXIO;
        *ret = (uint32_t) v;
        return 0;
}

static int digit_value(char c, unsigned base) {
        int d;

        if (c >= '0' && c <= '9')
                d = c - '0';
        else if (c >= 'a' && c <= 'f')
                d = c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
                d = c - 'A' + 10;
        else
                return -1;
        return (unsigned) d < base ? d : -1;
}

/* Decimal only, no sign, no leading zero, no blanks (v246+). */
static int parse_uid_strict(const char *s, uint32_t *ret) {
        uint64_t v = 0;

        if (!*s)
                return -EINVAL;
        if (s[0] == '0' && s[1])
                return -EINVAL;
        for (const char *p = s; *p; p++) {
                if (*p < '0' || *p > '9')
                        return -EINVAL;
                v = v * 10 + (uint64_t) (*p - '0');
                if (v > UINT32_MAX)
                        return -ERANGE;
        }
        return check_uid(v, ret);
}

/* What safe_atou32() did before v246: skip blanks, refuse a '-', then let
 * strtoul(..., 0) pick the base from the prefix and demand that it consumed
 * everything. Written by hand so that the result does not depend on the
 * width of unsigned long. */
static int parse_uid_legacy(const char *s, uint32_t *ret) {
        unsigned base = 10;
        uint64_t v = 0;
        const char *p;

        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
                s++;
        if (*s == '-')
                return -ERANGE;

        p = s;
        /* strtoul() skips these too, and only then looks for a sign. */
        while (*p == ' ' || (*p >= '\t' && *p <= '\r'))
                p++;
        if (*p == '-')
                return -ERANGE; /* would wrap around to a huge value */
        if (*p == '+')
                p++;

        if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && digit_value(p[2], 16) >= 0) {
                base = 16;
                p += 2;
        } else if (p[0] == '0')
                base = 8;

        if (digit_value(*p, base) < 0)
                return -EINVAL;
        for (; *p; p++) {
                int d = digit_value(*p, base);

                if (d < 0)
                        return -EINVAL;
                v = v * base + (uint64_t) d;
                if (v > UINT32_MAX)
                        return -ERANGE;
        }
        return check_uid(v, ret);
}

int parse_uid(const char *s, unsigned systemd_version, uint32_t *ret) {
        uint32_t uid;
        int r;

        if (!s)
                return -EINVAL;
        if (sd_behaves(SD_UID_STRICT_PARSE, systemd_version))
                r = parse_uid_strict(s, &uid);
        else
                r = parse_uid_legacy(s, &uid);
        if (r < 0)
                return r;
        if (ret)
                *ret = uid;
        return 0;
}
