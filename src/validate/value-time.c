/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "basic/macro.h"
#include "value-check.h"

#define USEC_PER_SEC UINT64_C(1000000)
#define NSEC_PER_USEC UINT64_C(1000)

typedef struct TimeUnit {
        const char *suffix;
        uint64_t nsec;
} TimeUnit;

/* Longest suffixes first, so that "msec" is not read as "m" + "sec". */
static const TimeUnit time_units[] = {
        { "seconds", 1000000000ULL },        { "second", 1000000000ULL },
        { "minutes", 60000000000ULL },       { "minute", 60000000000ULL },
        { "months", 2629800000000000ULL },   { "month", 2629800000000000ULL },
        { "hours", 3600000000000ULL },       { "hour", 3600000000000ULL },
        { "weeks", 604800000000000ULL },     { "week", 604800000000000ULL },
        { "years", 31557600000000000ULL },   { "year", 31557600000000000ULL },
        { "days", 86400000000000ULL },       { "day", 86400000000000ULL },
        { "msec", 1000000ULL },              { "usec", 1000ULL },
        { "nsec", 1ULL },                    { "sec", 1000000000ULL },
        { "min", 60000000000ULL },           { "hr", 3600000000000ULL },
        { "ms", 1000000ULL },                { "us", 1000ULL },
        { "\xc2\xb5s", 1000ULL },            { "\xce\xbcs", 1000ULL },
        { "ns", 1ULL },                      { "s", 1000000000ULL },
        { "m", 60000000000ULL },             { "M", 2629800000000000ULL },
        { "h", 3600000000000ULL },           { "d", 86400000000000ULL },
        { "w", 604800000000000ULL },         { "y", 31557600000000000ULL },
};

/* parse_time()/parse_nsec(): a sum of "<number>[.<fraction>][ ]<unit>"
 * terms, or "infinity". default_unit is in the result's unit (usec, or
 * nsec when nsec is set). */
int value_parse_time(const char *s, uint64_t default_unit, bool nsec, uint64_t *ret) {
        const char *p = s;
        unsigned __int128 total = 0;
        bool something = false;

        p += strspn(p, " \t\n");
        if (startswith(p, "infinity")) {
                const char *q = p + strlen("infinity");
                q += strspn(q, " \t\n");
                if (*q)
                        return -EINVAL;
                if (ret)
                        *ret = UINT64_MAX;
                return 0;
        }
        for (;;) {
                unsigned __int128 whole = 0, frac = 0, scale = 1, mult;
                const char *start;
                bool digits = false;

                p += strspn(p, " \t\n");
                if (!*p) {
                        if (!something)
                                return -EINVAL;
                        break;
                }
                if (*p == '-')
                        return -ERANGE;
                start = p;
                while (isdigit((unsigned char) *p)) {
                        whole = whole * 10 + (unsigned) (*p++ - '0');
                        if (whole > UINT64_MAX)
                                return -ERANGE;
                        digits = true;
                }
                if (*p == '.') {
                        p++;
                        if (!isdigit((unsigned char) *p))
                                return -EINVAL;
                        while (isdigit((unsigned char) *p)) {
                                if (scale < 1000000000000000000ULL) {
                                        frac = frac * 10 + (unsigned) (*p - '0');
                                        scale *= 10;
                                }
                                p++;
                        }
                        digits = true;
                }
                if (!digits || p == start)
                        return -EINVAL;
                p += strspn(p, " \t\n");
                mult = nsec ? default_unit : default_unit * NSEC_PER_USEC;
                for (size_t i = 0; i < ELEMENTSOF(time_units); i++) {
                        const char *e = startswith(p, time_units[i].suffix);

                        if (!e)
                                continue;
                        if (!nsec && time_units[i].nsec < NSEC_PER_USEC)
                                continue; /* "ns" only where nanoseconds are parsed */
                        mult = time_units[i].nsec;
                        p = e;
                        break;
                }
                if (*p && !isspace((unsigned char) *p) && !isdigit((unsigned char) *p) && *p != '.')
                        return -EINVAL;
                total += whole * mult + frac * mult / scale;
                if (total >= (unsigned __int128) UINT64_MAX * (nsec ? 1 : NSEC_PER_USEC))
                        return -ERANGE;
                something = true;
        }
        if (ret)
                *ret = (uint64_t) (nsec ? total : total / NSEC_PER_USEC);
        return 0;
}

/* args: "nsec" for nanosecond values (TimerSlackNSec=). */
int value_check_timespan(const char *v, const char *const *args) {
        bool ns = value_args_has(args, "nsec");

        return value_parse_time(v, ns ? 1000000000ULL : USEC_PER_SEC, ns, NULL) < 0 ? VALUE_BAD : VALUE_OK;
}

/* ---- calendar specifications ---- */

/* One component list: "*", "N", "N..M", with "/R" repetition, ','
 * separated. frac: seconds may carry a fraction. Reads up to a char in
 * stop (or the end). */
static int calendar_component(const char **pp, unsigned min, unsigned max, bool frac, bool allow_star) {
        const char *p = *pp;

        for (;;) {
                unsigned long a, b;
                char *e;

                if (*p == '*') {
                        if (!allow_star)
                                return -EINVAL;
                        p++;
                        a = min;
                } else {
                        if (!isdigit((unsigned char) *p))
                                return -EINVAL;
                        a = strtoul(p, &e, 10);
                        p = e;
                        if (frac && *p == '.') {
                                p++;
                                if (!isdigit((unsigned char) *p))
                                        return -EINVAL;
                                while (isdigit((unsigned char) *p))
                                        p++;
                        }
                        if (a < min || a > max)
                                return -ERANGE;
                        if (startswith(p, "..")) {
                                p += 2;
                                if (!isdigit((unsigned char) *p))
                                        return -EINVAL;
                                b = strtoul(p, &e, 10);
                                p = e;
                                if (frac && *p == '.') {
                                        p++;
                                        while (isdigit((unsigned char) *p))
                                                p++;
                                }
                                if (b < a || b > max)
                                        return -ERANGE;
                        }
                }
                if (*p == '/') {
                        double r;
                        p++;
                        if (!isdigit((unsigned char) *p))
                                return -EINVAL;
                        r = strtod(p, &e);
                        if (!frac) {
                                r = (double) strtoul(p, &e, 10);
                        }
                        p = e;
                        if (r <= 0)
                                return -ERANGE;
                }
                if (*p != ',')
                        break;
                p++;
        }
        *pp = p;
        return 0;
}

static int calendar_weekday(const char **pp) {
        static const char *const days[] = { "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday" };
        const char *p = *pp;

        for (;;) {
                int first = -1;

                for (int range = 0; range < 2; range++) {
                        int found = -1;
                        size_t n = 0;

                        for (int d = 0; d < 7 && found < 0; d++) {
                                size_t full = strlen(days[d]);
                                if (strncasecmp(p, days[d], full) == 0)
                                        found = d, n = full;
                                else if (strncasecmp(p, days[d], 3) == 0)
                                        found = d, n = 3;
                        }
                        if (found < 0 || isalpha((unsigned char) p[n]))
                                return -EINVAL;
                        p += n;
                        if (range == 1 && found < first)
                                return -EINVAL;
                        first = found;
                        if (range == 0 && startswith(p, ".."))
                                p += 2;
                        else
                                break;
                }
                if (*p != ',')
                        break;
                p++;
        }
        *pp = p;
        return 0;
}

static bool timezone_ok(const char *tz) {
        char path[512];
        struct stat st;

        if (streq(tz, "UTC"))
                return true;
        if (!*tz || tz[0] == '/' || strstr(tz, "..") || strlen(tz) > 255)
                return false;
        for (const char *c = tz; *c; c++)
                if (!isalnum((unsigned char) *c) && !strchr("/-_+", *c))
                        return false;
        snprintf(path, sizeof path, "/usr/share/zoneinfo/%s", tz);
        return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int calendar_date(const char *t) {
        const char *p = t;
        const char *dash1 = strpbrk(t, "-~"), *dash2 = dash1 ? strpbrk(dash1 + 1, "-~") : NULL;
        int r;

        if (!dash1)
                return -EINVAL;
        if (dash2) { /* year-month-day */
                if (*dash1 != '-')
                        return -EINVAL;
                r = calendar_component(&p, 1970, 2199, false, true);
                if (r < 0 || *p != '-')
                        return -EINVAL;
                p++;
        }
        r = calendar_component(&p, 1, 12, false, true);
        if (r < 0 || (*p != '-' && *p != '~'))
                return -EINVAL;
        p++;
        r = calendar_component(&p, 1, 31, false, true);
        if (r < 0 || *p)
                return -EINVAL;
        return 0;
}

static int calendar_time(const char *t) {
        const char *p = t;
        int r;

        r = calendar_component(&p, 0, 23, false, true);
        if (r < 0 || *p != ':')
                return -EINVAL;
        p++;
        r = calendar_component(&p, 0, 59, false, true);
        if (r < 0)
                return -EINVAL;
        if (*p == ':') {
                p++;
                r = calendar_component(&p, 0, 59, true, true);
                if (r < 0)
                        return -EINVAL;
        }
        return *p ? -EINVAL : 0;
}

/* calendar_spec_from_string() of systemd 252 as far as validity goes. */
int value_check_calendar(const char *v, const char *const *args) {
        static const char *const shortcuts[] = { "minutely", "hourly", "daily", "monthly", "weekly", "yearly",
                                                 "annually", "quarterly", "semiannually", NULL };
        char buf[1024], *words[8];
        size_t n = 0;
        char *p, *save = NULL;

        (void) args;
        if (strlen(v) >= sizeof buf)
                return VALUE_BAD;
        strcpy(buf, v);
        for (p = strtok_r(buf, " \t", &save); p; p = strtok_r(NULL, " \t", &save)) {
                if (n >= ELEMENTSOF(words))
                        return VALUE_BAD;
                words[n++] = p;
        }
        if (n == 0)
                return VALUE_BAD;
        /* A trailing time zone. */
        if (n > 1 && timezone_ok(words[n - 1]))
                n--;
        if (n == 1 && (value_in_list(shortcuts, words[0])))
                return VALUE_OK;
        if (n == 1 && words[0][0] == '@') {
                uint64_t x;
                return value_parse_unsigned(words[0] + 1, UINT64_MAX, &x) < 0 ? VALUE_BAD : VALUE_OK;
        }
        size_t i = 0;
        if (isalpha((unsigned char) words[0][0])) {
                const char *q = words[0];
                if (calendar_weekday(&q) < 0 || *q)
                        return VALUE_BAD;
                i++;
        }
        bool date = false, time = false;
        for (; i < n; i++) {
                if (strchr(words[i], ':')) {
                        if (time || calendar_time(words[i]) < 0)
                                return VALUE_BAD;
                        time = true;
                } else {
                        if (date || time || calendar_date(words[i]) < 0)
                                return VALUE_BAD;
                        date = true;
                }
        }
        return VALUE_OK;
}
