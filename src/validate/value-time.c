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
                if (*p == '+') /* strtoll() takes a sign */
                        p++;
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
                size_t blanks = strspn(p, " \t\n");
                p += blanks;
                mult = nsec ? default_unit : default_unit * NSEC_PER_USEC;
                bool unit = blanks > 0;
                for (size_t i = 0; i < ELEMENTSOF(time_units); i++) {
                        const char *e;

                        /* Most suffixes differ from the text in the first
                         * byte: told without a call. */
                        if (time_units[i].suffix[0] != *p)
                                continue;
                        e = startswith(p, time_units[i].suffix);
                        if (!e)
                                continue;
                        if (!nsec && time_units[i].nsec < NSEC_PER_USEC)
                                continue; /* "ns" only where nanoseconds are parsed */
                        mult = time_units[i].nsec;
                        p = e;
                        unit = true;
                        break;
                }
                /* "3.1s.2" and "3.1 .2" are two terms; "12.3.4s" is not
                 * (unit: a unit or blanks ended the term). */
                if (*p && !isspace((unsigned char) *p) && !isdigit((unsigned char) *p) && (*p != '.' || !unit))
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

/* args: "nsec" for nanosecond values (TimerSlackNSec=), "min=USEC" for a
 * lower bound, "finite" where "infinity" is refused. */
int value_check_timespan(const char *v, const char *args, unsigned version) {
        bool ns = value_args_has(args, "nsec");
        const char *min = value_args_get(args, "min=");
        uint64_t t;

        if (value_parse_time(v, ns ? 1000000000ULL : USEC_PER_SEC, ns, &t) < 0)
                return VALUE_BAD;
        if ((min && t < strtoull(min, NULL, 10)) || (t == UINT64_MAX && value_args_has(args, "finite")))
                return VALUE_BAD;
        return VALUE_OK;
}

/* ---- calendar specifications ---- */

/* One number of a component: digits, with a fraction where frac is set.
 * Returns the value in millionths (or whole units). */
static int calendar_number(const char **pp, bool frac, uint64_t *ret) {
        const char *p = *pp;
        uint64_t v = 0, f = 0, scale = 1000000;

        if (!isdigit((unsigned char) *p))
                return -EINVAL;
        for (; isdigit((unsigned char) *p); p++) {
                v = v * 10 + (uint64_t) (*p - '0');
                if (v > 100000)
                        return -ERANGE;
        }
        if (frac && *p == '.') {
                p++;
                if (!isdigit((unsigned char) *p))
                        return -EINVAL;
                for (; isdigit((unsigned char) *p); p++)
                        if (scale > 1) {
                                scale /= 10;
                                f += (uint64_t) (*p - '0') * scale;
                        }
        }
        *pp = p;
        *ret = v * 1000000 + f;
        return 0;
}

/* One component list: "*", "N", "N..M", "N/R", "N..M/R", ','-separated.
 * Values in [min, max]; a year may be given with two digits (70-99 is
 * 19xx, 00-69 is 20xx). frac: seconds, with fractions. */
static int calendar_component(const char **pp, unsigned min, unsigned max, bool frac, bool year) {
        const char *p = *pp;

        for (;;) {
                uint64_t a, b, rep;
                const char *numstart = p;

                if (*p == '*') {
                        p++;
                        if (*p == '/')
                                return -EINVAL; /* "*" repeats already */
                } else {
                        if (calendar_number(&p, frac, &a) < 0)
                                return -EINVAL;
                        if (year && p - numstart <= 2)
                                a = (a / 1000000 < 70 ? 2000 : 1900) * 1000000 + a;
                        if (a / 1000000 < min || a / 1000000 > max)
                                return -ERANGE;
                        if (startswith(p, "..")) {
                                p += 2;
                                if (calendar_number(&p, frac, &b) < 0)
                                        return -EINVAL;
                                if (b / 1000000 > max || (frac ? b / 1000000 <= a / 1000000 : b < a))
                                        return -ERANGE;
                        }
                        if (*p == '/') {
                                p++;
                                if (calendar_number(&p, frac, &rep) < 0 || rep == 0)
                                        return -EINVAL;
                        }
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
                        else if (range == 0 && *p == '-')
                                p++;
                        else
                                break;
                }
                if (*p != ',')
                        break;
                p++;
                if (!*p)
                        break; /* "Wed, 17:48" */
        }
        *pp = p;
        return 0;
}

static bool timezone_ok(const char *tz) {
        char path[512];
        struct stat st;

        if (strcasecmp(tz, "UTC") == 0)
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
        r = calendar_component(&p, 1, 12, false, false);
        if (r < 0 || (*p != '-' && *p != '~'))
                return -EINVAL;
        bool last = *p++ == '~';
        const char *day = p;
        r = calendar_component(&p, 1, 31, false, false);
        if (r < 0 || *p)
                return -EINVAL;
        /* Counting back from the month's end, "~N/R" needs R < N. */
        if (last && !strchr(day, ',') && !strstr(day, "..") && strchr(day, '/') &&
            strtoul(strchr(day, '/') + 1, NULL, 10) >= strtoul(day, NULL, 10))
                return -EINVAL;
        return 0;
}

static int calendar_time(const char *t) {
        const char *p = t;
        int r;

        r = calendar_component(&p, 0, 23, false, false);
        if (r < 0 || *p != ':')
                return -EINVAL;
        p++;
        r = calendar_component(&p, 0, 59, false, false);
        if (r < 0)
                return -EINVAL;
        if (*p == ':') {
                p++;
                r = calendar_component(&p, 0, 59, true, false);
                if (r < 0)
                        return -EINVAL;
        }
        return *p ? -EINVAL : 0;
}

/* calendar_spec_from_string() of systemd 252 as far as validity goes. */
int value_check_calendar(const char *v, const char *args, unsigned version) {
        static const char *const shortcuts[] = { "minutely", "hourly", "daily", "monthly", "weekly", "yearly",
                                                 "annually", "quarterly", "semiannually", "semi-annually", NULL };
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
