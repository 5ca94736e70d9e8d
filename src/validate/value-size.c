/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <ctype.h>
#include <errno.h>
#include <string.h>

#include "basic/macro.h"
#include "value-check.h"

/* parse_size() with base 1024: a sum of "<number>[.<fraction>][ ]<suffix>"
 * terms in decreasing units, suffixes B K M G T P E (upper case only). */
int value_parse_size(const char *s, uint64_t *ret) {
        static const struct {
                char suffix;
                unsigned shift;
        } table[] = { { 'E', 60 }, { 'P', 50 }, { 'T', 40 }, { 'G', 30 }, { 'M', 20 }, { 'K', 10 }, { 'B', 0 } };
        const char *p = s;
        unsigned __int128 total = 0, last = (unsigned __int128) 1 << 61;
        bool something = false;

        p += strspn(p, " \t\n");
        if (*p == '-')
                return -ERANGE;
        for (;;) {
                unsigned __int128 whole = 0, frac = 0, scale = 1, mult = 1;
                const char *start;

                p += strspn(p, " \t\n");
                if (!*p) {
                        if (!something)
                                return -EINVAL;
                        break;
                }
                start = p;
                while (isdigit((unsigned char) *p)) {
                        whole = whole * 10 + (unsigned) (*p++ - '0');
                        if (whole > UINT64_MAX)
                                return -ERANGE;
                }
                if (p == start)
                        return -EINVAL;
                if (*p == '.') {
                        p++;
                        while (isdigit((unsigned char) *p)) {
                                if (scale < 1000000000000000000ULL) {
                                        frac = frac * 10 + (unsigned) (*p - '0');
                                        scale *= 10;
                                }
                                p++;
                        }
                }
                p += strspn(p, " \t\n");
                for (size_t i = 0; i < ELEMENTSOF(table); i++)
                        if (*p == table[i].suffix) {
                                mult = (unsigned __int128) 1 << table[i].shift;
                                p++;
                                break;
                        }
                if (mult == 1 && *p && !isdigit((unsigned char) *p))
                        return -EINVAL;
                /* Terms go from larger to smaller units: "3.5G3B", not "3B3.5G". */
                if (mult >= last)
                        return -EINVAL;
                last = mult;
                total += whole * mult + frac * mult / scale;
                if (total > UINT64_MAX)
                        return -ERANGE;
                something = true;
        }
        if (ret)
                *ret = (uint64_t) total;
        return 0;
}

/* Plain byte sizes (ReceiveBuffer=, ...). */
int value_check_size(const char *v, const char *args, unsigned version) {
        (void) args;
        return value_parse_size(v, NULL) < 0 ? VALUE_BAD : VALUE_OK;
}

/* MemoryMax= & co: "infinity", a percentage or a size below 2^64-1;
 * args "nonzero": zero is refused (MemoryMax=, MemoryHigh=). */
int value_check_memory(const char *v, const char *args, unsigned version) {
        bool nonzero = value_args_has(args, "nonzero");
        uint64_t b;
        uint32_t pm;

        if (streq(v, "infinity"))
                return VALUE_OK;
        if (endswith(v, "%")) {
                if (value_parse_permyriad(v, false, &pm) < 0)
                        return VALUE_BAD;
                return nonzero && pm == 0 ? VALUE_BAD : VALUE_OK;
        }
        if (value_parse_size(v, &b) < 0 || b == UINT64_MAX)
                return VALUE_BAD;
        return nonzero && b == 0 ? VALUE_BAD : VALUE_OK;
}

/* Splits "DEVICE VALUE" at the first blank; 0 with *rest, or -EINVAL. */
static int device_and_value(const char *v, const char **rest) {
        size_t n = strcspn(v, " \t");

        if (n == 0 || !v[n])
                return -EINVAL;
        *rest = v + n + strspn(v + n, " \t");
        return 0;
}

/* IOReadBandwidthMax= & co: "DEVICE infinity" or "DEVICE SIZE", SIZE > 0. */
int value_check_io_limit(const char *v, const char *args, unsigned version) {
        const char *r;
        uint64_t b;

        (void) args;
        if (device_and_value(v, &r) < 0)
                return VALUE_BAD;
        if (streq(r, "infinity"))
                return VALUE_OK;
        return value_parse_size(r, &b) < 0 || b == 0 ? VALUE_BAD : VALUE_OK;
}

int value_check_io_weight(const char *v, const char *args, unsigned version) {
        const char *r;

        (void) args;
        if (device_and_value(v, &r) < 0)
                return VALUE_BAD;
        return value_check_weight(r, NULL, version);
}

int value_check_io_latency(const char *v, const char *args, unsigned version) {
        const char *r;

        (void) args;
        if (device_and_value(v, &r) < 0)
                return VALUE_BAD;
        return value_check_timespan(r, NULL, version);
}

/* One side of a Limit*= value, as a number where infinity is largest.
 * how: "number", "bytes", "sec", "usec", "nice". */
static int limit_part(const char *s, const char *how, unsigned __int128 *ret) {
        uint64_t x;
        int64_t n;

        if (!*s)
                return -EINVAL;
        if (streq(how, "nice")) {
                if (s[0] == '+' || s[0] == '-') {
                        if (value_parse_signed(s, -20, 19, &n) < 0)
                                return -EINVAL;
                        *ret = (unsigned __int128) (20 - n);
                        return 0;
                }
                if (value_parse_unsigned(s, 40, &x) < 0)
                        return -EINVAL;
                *ret = x;
                return 0;
        }
        if (streq(s, "infinity")) {
                *ret = (unsigned __int128) UINT64_MAX + 1;
                return 0;
        }
        if (streq(how, "bytes")) {
                if (value_parse_size(s, &x) < 0 || x == UINT64_MAX)
                        return -EINVAL;
        } else if (streq(how, "sec") || streq(how, "usec")) {
                if (value_parse_time(s, streq(how, "sec") ? 1000000 : 1, false, &x) < 0 || x == UINT64_MAX)
                        return -EINVAL;
        } else {
                const char *p = s;
                while (isdigit((unsigned char) *p))
                        p++;
                if (p == s || *p || value_parse_unsigned(s, UINT64_MAX - 1, &x) < 0)
                        return -EINVAL;
        }
        *ret = x;
        return 0;
}

/* Limit*=: "SOFT:HARD" or one value for both; SOFT may not exceed HARD. */
int value_check_limit(const char *v, const char *args, unsigned version) {
        const char *how = args && args[0] ? args : "number";
        const char *colon = strchr(v, ':');
        unsigned __int128 soft, hard;
        char buf[256];

        if (!colon)
                return limit_part(v, how, &soft) < 0 ? VALUE_BAD : VALUE_OK;
        if ((size_t) (colon - v) >= sizeof buf || strchr(colon + 1, ':'))
                return VALUE_BAD;
        memcpy(buf, v, (size_t) (colon - v));
        buf[colon - v] = 0;
        if (limit_part(buf, how, &soft) < 0 || limit_part(colon + 1, how, &hard) < 0)
                return VALUE_BAD;
        /* Compared as rlimit values (a nice level N counts as 20 - N). */
        if (soft > hard)
                return VALUE_BAD;
        return VALUE_OK;
}
