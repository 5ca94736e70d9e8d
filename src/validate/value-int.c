/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "basic/macro.h"
#include "value-check.h"
#include "value-tables.h"

bool value_args_has(const char *args, const char *word) {
        return nulstr_contains(args, word);
}

const char *value_args_get(const char *args, const char *prefix) {
        NULSTR_FOREACH(a, args) {
                const char *r = startswith(a, prefix);
                if (r)
                        return r;
        }
        return NULL;
}

bool value_in_list(const char *const *list, const char *word) {
        for (; list && *list; list++)
                if (streq(*list, word))
                        return true;
        return false;
}

/* Like strtoll/strtoull with base 0 (so "0x10" and "007" count), leading
 * blanks skipped, the whole string used. */
int value_parse_signed(const char *s, int64_t min, int64_t max, int64_t *ret) {
        char *e;
        long long l;

        if (!s || !*s)
                return -EINVAL;
        errno = 0;
        l = strtoll(s, &e, 0);
        if (errno > 0)
                return -errno;
        if (e == s || *e)
                return -EINVAL;
        if (l < min || l > max)
                return -ERANGE;
        if (ret)
                *ret = l;
        return 0;
}

int value_parse_unsigned(const char *s, uint64_t max, uint64_t *ret) {
        const char *p = s;
        char *e;
        unsigned long long l;

        if (!s)
                return -EINVAL;
        while (isspace((unsigned char) *p))
                p++;
        if (*p == '-')
                return -ERANGE;
        errno = 0;
        l = strtoull(s, &e, 0);
        if (errno > 0)
                return -errno;
        if (e == s || *e)
                return -EINVAL;
        if (l > max)
                return -ERANGE;
        if (ret)
                *ret = l;
        return 0;
}

/* "N%", "N.M%" or "N.MM%" in permyriad (1/10000); at most 100% unless
 * unbounded. */
int value_parse_permyriad(const char *s, bool unbounded, uint32_t *ret) {
        size_t n = strlen(s), digits = 0, frac = 0;
        uint64_t v = 0;
        bool dot = false;

        if (n < 2 || s[n - 1] != '%')
                return -EINVAL;
        for (size_t i = 0; i + 1 < n; i++) {
                if (s[i] == '.') {
                        if (dot || digits == 0)
                                return -EINVAL;
                        dot = true;
                        continue;
                }
                if (!isdigit((unsigned char) s[i]))
                        return -EINVAL;
                if (dot && ++frac > 2)
                        return -EINVAL;
                digits++;
                v = v * 10 + (uint64_t) (s[i] - '0');
                if (v > UINT32_MAX)
                        return -ERANGE;
        }
        if (digits == 0 || (dot && frac == 0))
                return -EINVAL;
        for (; frac < 2; frac++)
                v *= 10;
        if (v > UINT32_MAX || (!unbounded && v > 10000))
                return -ERANGE;
        if (ret)
                *ret = (uint32_t) v;
        return 0;
}

/* args: a type ("int", "unsigned", "long", "uint64"), optionally "min=N"
 * and "max=N". */
int value_check_integer(const char *v, const char *args, unsigned version) {
        const char *lo = value_args_get(args, "min="), *hi = value_args_get(args, "max=");

        if (value_args_has(args, "int") || value_args_has(args, "long")) {
                bool l = value_args_has(args, "long");
                int64_t min = lo ? strtoll(lo, NULL, 10) : l ? INT64_MIN : INT_MIN;
                int64_t max = hi ? strtoll(hi, NULL, 10) : l ? INT64_MAX : INT_MAX;
                int64_t x;

                /* Parsed at the type's width first: overflow is a parse error. */
                if (value_parse_signed(v, l ? INT64_MIN : INT_MIN, l ? INT64_MAX : INT_MAX, &x) < 0)
                        return VALUE_BAD;
                return x < min || x > max ? VALUE_BAD : VALUE_OK;
        }
        uint64_t max = value_args_has(args, "uint64") ? UINT64_MAX - 1 : UINT32_MAX, x;
        if (value_parse_unsigned(v, max, &x) < 0)
                return VALUE_BAD;
        if ((lo && x < strtoull(lo, NULL, 10)) || (hi && x > strtoull(hi, NULL, 10)))
                return VALUE_BAD;
        return VALUE_OK;
}

/* parse_mode(): octal, at most 07777. */
int value_check_mode(const char *v, const char *args, unsigned version) {
        const char *p = v;
        char *e;
        unsigned long m;

        (void) args;
        while (isspace((unsigned char) *p))
                p++;
        if (!isdigit((unsigned char) *p))
                return VALUE_BAD;
        errno = 0;
        m = strtoul(p, &e, 8);
        if (errno > 0 || e == p || *e || m > 07777)
                return VALUE_BAD;
        return VALUE_OK;
}

/* CPU and IO weights: 1..10000; "idle" where args say so. */
int value_check_weight(const char *v, const char *args, unsigned version) {
        if (value_args_has(args, "idle") && streq(v, "idle"))
                return VALUE_OK;
        return value_check_integer(v, "uint64\0min=1\0max=10000\0", version);
}

/* TasksMax=: "infinity", a percentage, or a number of at least 1. */
int value_check_tasks(const char *v, const char *args, unsigned version) {
        (void) args;
        if (streq(v, "infinity"))
                return VALUE_OK;
        if (endswith(v, "%"))
                return value_parse_permyriad(v, false, NULL) < 0 ? VALUE_BAD : VALUE_OK;
        return value_check_integer(v, "uint64\0min=1\0", version);
}

/* CPUQuota=: a positive percentage, which may exceed 100%. */
int value_check_quota(const char *v, const char *args, unsigned version) {
        uint32_t p;

        (void) args;
        if (value_parse_permyriad(v, true, &p) < 0 || p == 0)
                return VALUE_BAD;
        return VALUE_OK;
}

/* SuccessExitStatus= & co: numbers 0..255, exit status names and signal
 * names, item by item; args "number" allows numbers only (one value). */
int value_check_exit_status(const char *v, const char *args, unsigned version) {
        bool numbers_only = value_args_has(args, "number");
        bool any_bad = false, any_good = false;
        const char *p = v;

        for (;;) {
                char w[256];
                size_t n;

                p += strspn(p, " \t\n");
                if (!*p)
                        break;
                n = strcspn(p, " \t\n");
                if (numbers_only && p[n])
                        return VALUE_BAD;
                if (n >= sizeof(w))
                        return VALUE_BAD;
                memcpy(w, p, n);
                w[n] = 0;
                p += n;
                if (value_check_integer(w, "int\0min=0\0max=255\0", version) == VALUE_OK ||
                    (!numbers_only && (value_in_list(value_exit_status_names, w) || value_signal_from_string(w) > 0)))
                        any_good = true;
                else
                        any_bad = true;
        }
        if (!any_bad)
                return VALUE_OK;
        /* The first bad word ends the parse; words before it are kept. */
        return any_good ? VALUE_BAD_PART : VALUE_BAD;
}

static const char *const signal_names[] = {
        [SIGHUP] = "HUP",   [SIGINT] = "INT",       [SIGQUIT] = "QUIT",     [SIGILL] = "ILL",
        [SIGTRAP] = "TRAP", [SIGABRT] = "ABRT",     [SIGBUS] = "BUS",       [SIGFPE] = "FPE",
        [SIGKILL] = "KILL", [SIGUSR1] = "USR1",     [SIGSEGV] = "SEGV",     [SIGUSR2] = "USR2",
        [SIGPIPE] = "PIPE", [SIGALRM] = "ALRM",     [SIGTERM] = "TERM",     [SIGSTKFLT] = "STKFLT",
        [SIGCHLD] = "CHLD", [SIGCONT] = "CONT",     [SIGSTOP] = "STOP",     [SIGTSTP] = "TSTP",
        [SIGTTIN] = "TTIN", [SIGTTOU] = "TTOU",     [SIGURG] = "URG",       [SIGXCPU] = "XCPU",
        [SIGXFSZ] = "XFSZ", [SIGVTALRM] = "VTALRM", [SIGPROF] = "PROF",     [SIGWINCH] = "WINCH",
        [SIGIO] = "IO",     [SIGPWR] = "PWR",       [SIGSYS] = "SYS",
};

#define VALUE_SIGRTMIN 34
#define VALUE_SIGRTMAX 64

/* signal_from_string(): "SIGTERM", "TERM", "RTMIN+n", "RTMAX-n" with or
 * without "SIG", or a number 1..64. Returns the signal or -EINVAL. */
int value_signal_from_string(const char *s) {
        const char *p = startswith(s, "SIG") ?: s, *r;
        int64_t n;

        for (size_t i = 1; i < ELEMENTSOF(signal_names); i++)
                if (signal_names[i] && streq(p, signal_names[i]))
                        return (int) i;
        if ((r = startswith(p, "RTMIN"))) {
                if (!*r)
                        return VALUE_SIGRTMIN;
                if (*r != '+' || value_parse_signed(r + 1, 0, VALUE_SIGRTMAX - VALUE_SIGRTMIN, &n) < 0)
                        return -EINVAL;
                return VALUE_SIGRTMIN + (int) n;
        }
        if ((r = startswith(p, "RTMAX"))) {
                if (!*r)
                        return VALUE_SIGRTMAX;
                if (*r != '-' || value_parse_signed(r + 1, 0, VALUE_SIGRTMAX - VALUE_SIGRTMIN, &n) < 0)
                        return -EINVAL;
                return VALUE_SIGRTMAX - (int) n;
        }
        if (p == s && value_parse_signed(s, 1, VALUE_SIGRTMAX, &n) == 0)
                return (int) n;
        return -EINVAL;
}

int value_check_signal(const char *v, const char *args, unsigned version) {
        (void) args;
        return value_signal_from_string(v) > 0 ? VALUE_OK : VALUE_BAD;
}

int value_check_log_level(const char *v, const char *args, unsigned version) {
        static const char *const levels[] = { "emerg", "alert", "crit", "err", "warning", "notice", "info", "debug", NULL };

        (void) args;
        if (value_in_list(levels, v))
                return VALUE_OK;
        return value_check_integer(v, "int\0min=0\0max=7\0", version);
}

int value_check_facility(const char *v, const char *args, unsigned version) {
        static const char *const facilities[] = { "kern", "user", "mail", "daemon", "auth", "syslog", "lpr",
                                                  "news", "uucp", "cron", "authpriv", "ftp", "local0", "local1",
                                                  "local2", "local3", "local4", "local5", "local6", "local7", NULL };

        (void) args;
        if (value_in_list(facilities, v))
                return VALUE_OK;
        return value_check_integer(v, "int\0min=0\0max=23\0", version);
}

int value_check_ip_tos(const char *v, const char *args, unsigned version) {
        static const char *const names[] = { "low-delay", "throughput", "reliability", "low-cost", NULL };

        (void) args;
        if (value_in_list(names, v))
                return VALUE_OK;
        return value_check_integer(v, "int\0min=0\0max=255\0", version);
}

/* ManagedOOMMemoryPressureLimit=: a percentage up to 100%. */
int value_check_pressure_limit(const char *v, const char *args, unsigned version) {
        (void) args;
        return value_parse_permyriad(v, false, NULL) < 0 ? VALUE_BAD : VALUE_OK;
}
