/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Table tests for the value parsers of src/validate/value-check.h. The
 * vectors carry the facts of systemd's own tests (time, calendar, size,
 * integer, CPU set and unit-file parsers) and of probing systemd 252
 * ("systemd-analyze verify", "systemd-analyze calendar/timespan"). */
#include <errno.h>
#include <string.h>

#include "basic/macro.h"
#include "tests.h"
#include "validate/value-check.h"

typedef struct Vector {
        ValueCheckFn fn;
        const char *args[4];
        const char *value;
        int want;         /* ValueResult */
        unsigned version; /* 0: 252 */
} Vector;

#define OK VALUE_OK
#define BAD VALUE_BAD
#define PART VALUE_BAD_PART

static void run(const Vector *v, size_t n) {
        for (size_t i = 0; i < n; i++) {
                unsigned version = v[i].version ?: 252;
                char args[256];
                size_t o = 0;
                int got;

                /* The arguments as the directive table passes them: a nulstr. */
                for (size_t k = 0; k < ELEMENTSOF(v[i].args) && v[i].args[k]; k++) {
                        size_t l = strlen(v[i].args[k]) + 1;

                        CHECK(o + l < sizeof(args));
                        memcpy(args + o, v[i].args[k], l);
                        o += l;
                }
                args[o] = '\0';
                got = v[i].fn(v[i].value, o > 0 ? args : NULL, version);

                if (got != v[i].want) {
                        fprintf(stderr, "vector %zu '%s' (%u): got %d, want %d\n", i, v[i].value, version, got,
                                v[i].want);
                        tests_failed++;
                }
        }
}

TEST(time_values) {
        static const struct {
                const char *s;
                uint64_t usec;
                int r;
        } t[] = {
                { "5s", 5000000, 0 },
                { "5s500ms", 5500000, 0 },
                { " 5s 500ms  ", 5500000, 0 },
                { " 5.5s  ", 5500000, 0 },
                { " 5.5s 0.5ms ", 5500500, 0 },
                { " .22s ", 220000, 0 },
                { " .50y ", 15778800000000, 0 },
                { "2.5", 2500000, 0 },
                { ".7", 700000, 0 },
                { "23us", 23, 0 },
                { "23\xc2\xb5s", 23, 0 },
                { "infinity", UINT64_MAX, 0 },
                { " infinity ", UINT64_MAX, 0 },
                { "+3.1s", 3100000, 0 },
                { "3.1s.2", 3300000, 0 },   /* two terms in 252 */
                { "3.1 .2", 3300000, 0 },
                { "1.", 0, -EINVAL },
                { ".", 0, -EINVAL },
                { ".s", 0, -EINVAL },
                { "-5s", 0, -ERANGE },
                { "-0.3s", 0, -ERANGE },
                { "-infinity", 0, -ERANGE },
                { "12.3.4s", 0, -EINVAL },
                { "5e3", 0, -EINVAL },
                { "", 0, -EINVAL },
                { "9999999999999999y", 0, -ERANGE },
        };

        for (size_t i = 0; i < ELEMENTSOF(t); i++) {
                uint64_t u = 0;
                int r = value_parse_time(t[i].s, 1000000, false, &u);

                if (r != t[i].r || (r == 0 && u != t[i].usec)) {
                        fprintf(stderr, "time '%s': got %d/%" PRIu64 "\n", t[i].s, r, u);
                        tests_failed++;
                }
        }
        /* Every unit, after a number and alone, glued to the next term,
         * and cut short: the suffixes are told apart by their first byte
         * before they are compared. */
        {
                static const struct {
                        const char *suffix;
                        uint64_t usec;
                } u[] = {
                        { "seconds", 1000000 }, { "second", 1000000 }, { "sec", 1000000 }, { "s", 1000000 },
                        { "minutes", 60000000 }, { "minute", 60000000 }, { "min", 60000000 }, { "m", 60000000 },
                        { "months", 2629800000000 }, { "month", 2629800000000 }, { "M", 2629800000000 },
                        { "hours", 3600000000 }, { "hour", 3600000000 }, { "hr", 3600000000 }, { "h", 3600000000 },
                        { "weeks", 604800000000 }, { "week", 604800000000 }, { "w", 604800000000 },
                        { "years", 31557600000000 }, { "year", 31557600000000 }, { "y", 31557600000000 },
                        { "days", 86400000000 }, { "day", 86400000000 }, { "d", 86400000000 },
                        { "msec", 1000 }, { "ms", 1000 }, { "usec", 1 }, { "us", 1 }, { "\xc2\xb5s", 1 },
                        { "\xce\xbcs", 1 },
                };
                static const char *const bad[] = { "x", "S", "secs", "mins2x", "n", "nsec", "ns", "\xc2", "\xce\xbc",
                                                  "H", "D", "W", "Y", "e", "u", "\xc2\xb5" };

                for (size_t i = 0; i < ELEMENTSOF(u); i++) {
                        char text[64];
                        uint64_t v = 0;

                        snprintf(text, sizeof text, "3%s", u[i].suffix);
                        CHECK_INT_EQ(value_parse_time(text, 1000000, false, &v), 0);
                        CHECK_INT_EQ(v, 3 * u[i].usec);
                        snprintf(text, sizeof text, "2 %s1", u[i].suffix);
                        CHECK_INT_EQ(value_parse_time(text, 1000000, false, &v), 0);
                        CHECK_INT_EQ(v, 2 * u[i].usec + 1000000);
                }
                for (size_t i = 0; i < ELEMENTSOF(bad); i++) {
                        char text[64];

                        snprintf(text, sizeof text, "3%s", bad[i]);
                        CHECK_INT_EQ(value_parse_time(text, 1000000, false, NULL), -EINVAL);
                }
        }
        /* Nanoseconds only where the directive takes them. */
        uint64_t ns = 0;
        CHECK_INT_EQ(value_parse_time("1ns", 1000000000, true, &ns), 0);
        CHECK_INT_EQ(ns, 1);
        CHECK_INT_EQ(value_parse_time("1ns", 1000000, false, NULL), -EINVAL);
        /* Limit*= takes microseconds as the default unit for RTTIME. */
        uint64_t us = 0;
        CHECK_INT_EQ(value_parse_time("10", 1, false, &us), 0);
        CHECK_INT_EQ(us, 10);
}

TEST(calendar) {
        static const Vector v[] = {
                { value_check_calendar, {}, "Sat,Thu,Mon-Wed,Sat-Sun", OK },
                { value_check_calendar, {}, "Sat,Thu,Mon..Wed,Sat..Sun", OK },
                { value_check_calendar, {}, "Mon,Sun 12-*-* 2,1:23", OK },
                { value_check_calendar, {}, "Wed, 17:48", OK },
                { value_check_calendar, {}, "*-*-7 0:0:0", OK },
                { value_check_calendar, {}, "10-15", OK },
                { value_check_calendar, {}, "mon,fri *-1/2-1,3 *:30:45", OK },
                { value_check_calendar, {}, "12,14,13,12:20,10,30", OK },
                { value_check_calendar, {}, "semi-annually", OK },
                { value_check_calendar, {}, "2015-10-25 01:00:00 uTc", OK },
                { value_check_calendar, {}, "2016-03-27 03:17:00/0.42", OK },
                { value_check_calendar, {}, "00:00:1.125..2.125", OK },
                { value_check_calendar, {}, "*-*~05,3 ", OK },
                { value_check_calendar, {}, "Mon 2017-05~07/1 UTC", OK },
                { value_check_calendar, {}, "*-04-31", OK },  /* never elapses, still valid */
                { value_check_calendar, {}, "test", BAD },
                { value_check_calendar, {}, " utc", BAD },
                { value_check_calendar, {}, "7", BAD },
                { value_check_calendar, {}, "121212:1:2", BAD },
                { value_check_calendar, {}, "2000-03-05.23 00:00:00", BAD },
                { value_check_calendar, {}, "2000-03-05 00:00.1:00", BAD },
                { value_check_calendar, {}, "00:00:00/0.00000001", BAD },
                { value_check_calendar, {}, "00:00:00.0..00.9", BAD },
                { value_check_calendar, {}, "2016~11-22", BAD },
                { value_check_calendar, {}, "*-*~5/5", BAD },
                { value_check_calendar, {}, "*-*-*/2", BAD },
                { value_check_calendar, {}, "Fri..Mon", BAD },
                { value_check_calendar, {}, "25:00", BAD },
                { value_check_calendar, {}, "2200-01-01", BAD },
                { value_check_calendar, {}, "05:40 Nowhere/City", BAD },
        };
        run(v, ELEMENTSOF(v));
}

TEST(sizes) {
        static const struct {
                const char *s;
                uint64_t bytes;
                int r;
        } t[] = {
                { "111", 111, 0 },
                { "111.4", 111, 0 },
                { " 112 B", 112, 0 },
                { " 112.6 B", 112, 0 },
                { "0.5K", 512, 0 },
                { "3.5G", 3758096384ULL, 0 },
                { "3.5G3B", 3758096387ULL, 0 },
                { "3.5G 4B", 3758096388ULL, 0 },
                { "15E", 17293822569102704640ULL, 0 },
                { "3B3.5G", 0, -EINVAL },
                { "12P12P", 0, -EINVAL },
                { "3 .5G", 0, -EINVAL },
                { "12e", 0, -EINVAL },
                { "16E", 0, -ERANGE },
                { "-1", 0, -ERANGE },
                { "0x10", 0, -EINVAL },
                { "K", 0, -EINVAL },
        };

        for (size_t i = 0; i < ELEMENTSOF(t); i++) {
                uint64_t b = 0;
                int r = value_parse_size(t[i].s, &b);

                if (r != t[i].r || (r == 0 && b != t[i].bytes)) {
                        fprintf(stderr, "size '%s': got %d/%" PRIu64 "\n", t[i].s, r, b);
                        tests_failed++;
                }
        }
        static const Vector v[] = {
                { value_check_memory, { "nonzero" }, "0", BAD },
                { value_check_memory, {}, "0", OK },
                { value_check_memory, {}, "12.34%", OK },
                { value_check_memory, {}, "1.234%", BAD },
                { value_check_memory, {}, "101%", BAD },
                { value_check_memory, {}, "18446744073709551615", BAD },
                { value_check_io_limit, {}, "/dev/sda 0", BAD },
                { value_check_io_limit, {}, "/dev/sda infinity", OK },
                { value_check_io_limit, {}, "1M", BAD },
                { value_check_limit, { "number" }, "10:5", BAD },
                { value_check_limit, { "number" }, "5:infinity", OK },
                { value_check_limit, { "number" }, "infinity:5", BAD },
                { value_check_limit, { "number" }, "1K", BAD },
                { value_check_limit, { "bytes" }, "1K", OK },
                { value_check_limit, { "sec" }, "1h", OK },
                { value_check_limit, { "nice" }, "-20", OK },
                { value_check_limit, { "nice" }, "-21", BAD },
                { value_check_limit, { "nice" }, "40", OK },
                { value_check_limit, { "nice" }, "41", BAD },
                { value_check_limit, { "number" }, "1:2:3", BAD },
        };
        run(v, ELEMENTSOF(v));
}

TEST(integers) {
        int64_t x;
        uint64_t u;
        uint32_t pm;

        CHECK_INT_EQ(value_parse_signed("0x10", INT32_MIN, INT32_MAX, &x), 0);
        CHECK_INT_EQ(x, 16);
        CHECK_INT_EQ(value_parse_signed("007", INT32_MIN, INT32_MAX, &x), 0);
        CHECK_INT_EQ(x, 7);
        CHECK_INT_EQ(value_parse_signed("1x", INT32_MIN, INT32_MAX, &x), -EINVAL);
        CHECK_INT_EQ(value_parse_signed("", INT32_MIN, INT32_MAX, &x), -EINVAL);
        CHECK_INT_EQ(value_parse_unsigned("-1", UINT32_MAX, &u), -ERANGE);
        CHECK_INT_EQ(value_parse_unsigned(" -1", UINT32_MAX, &u), -ERANGE);
        CHECK_INT_EQ(value_parse_unsigned("+5", UINT32_MAX, &u), 0);
        CHECK_INT_EQ(value_parse_unsigned("4294967296", UINT32_MAX, &u), -ERANGE);
        CHECK_INT_EQ(value_parse_permyriad("0.5%", false, &pm), 0);
        CHECK_INT_EQ(pm, 50);
        CHECK_INT_EQ(value_parse_permyriad("12.34%", false, &pm), 0);
        CHECK_INT_EQ(pm, 1234);
        CHECK_INT_EQ(value_parse_permyriad("200%", true, &pm), 0);
        CHECK_INT_EQ(value_parse_permyriad("200%", false, &pm), -ERANGE);
        CHECK_INT_EQ(value_parse_permyriad("%", false, &pm), -EINVAL);
        CHECK_INT_EQ(value_parse_permyriad("1.%", false, &pm), -EINVAL);

        static const Vector v[] = {
                { value_check_integer, { "int", "min=-20", "max=19" }, "19", OK },
                { value_check_integer, { "int", "min=-20", "max=19" }, "20", BAD },
                { value_check_integer, { "int", "min=-20", "max=19" }, "4294967295", BAD },
                { value_check_integer, { "unsigned" }, "4294967295", OK },
                { value_check_integer, { "long" }, "4294967296", OK },
                { value_check_integer, { "int", "min=0", "max=7" }, "0x10", BAD },
                { value_check_mode, {}, "0755", OK },
                { value_check_mode, {}, "7777", OK },
                { value_check_mode, {}, "17777", BAD },
                { value_check_mode, {}, "+644", BAD },
                { value_check_mode, {}, "999", BAD },
                { value_check_weight, { "idle" }, "idle", OK },
                { value_check_weight, {}, "idle", BAD },
                { value_check_weight, {}, "10001", BAD },
                { value_check_tasks, {}, "0", BAD },
                { value_check_tasks, {}, "0%", OK },
                { value_check_quota, {}, "0%", BAD },
                { value_check_quota, {}, "10", BAD },
                { value_check_exit_status, {}, "1 2 SIGKILL", OK },
                { value_check_exit_status, {}, "NAMESPACE ABRT", OK },
                { value_check_exit_status, {}, "1 x", PART },
                { value_check_exit_status, {}, "256", BAD },
                { value_check_exit_status, { "number" }, "SIGTERM", BAD },
                { value_check_signal, {}, "RTMIN+1", OK },
                { value_check_signal, {}, "SIGRTMAX-1", OK },
                { value_check_signal, {}, "SIGRTMIN+40", BAD },
                { value_check_signal, {}, "sigterm", BAD },
                { value_check_signal, {}, "64", OK },
                { value_check_signal, {}, "65", BAD },
                { value_check_log_level, {}, "warn", BAD },
                { value_check_facility, {}, "local8", BAD },
        };
        run(v, ELEMENTSOF(v));
}

TEST(lists_and_names) {
        static const Vector v[] = {
                { value_check_cpu_set, {}, "0 1-2 3", OK },
                { value_check_cpu_set, {}, "1,,2", OK },
                { value_check_cpu_set, {}, "3-1", BAD },
                { value_check_cpu_set, {}, "0-", BAD },
                { value_check_cpu_set, {}, "8192", BAD },
                { value_check_cpu_set, {}, "all", BAD },
                { value_check_cpu_set, { "all" }, "all", OK },
                { value_check_syscall_filter, {}, "read @basic-io", OK },
                { value_check_syscall_filter, {}, "read foo write", PART },
                { value_check_syscall_filter, {}, "@sandbox", BAD },
                { value_check_syscall_filter, {}, "~read:EPERM", OK },
                { value_check_syscall_filter, {}, "read:EPERM", BAD },
                { value_check_errno, { "kill" }, "kill", OK },
                { value_check_errno, { "kill" }, "eperm", OK },
                { value_check_errno, { "kill" }, "4096", BAD },
                { value_check_address_families, {}, "~AF_INET AF_FOO", PART },
                { value_check_address_families, {}, "none", OK },
                { value_check_device_allow, {}, "char-pts rw", OK },
                { value_check_device_allow, {}, "/sys/x r", BAD },
                { value_check_device_allow, {}, "/dev/null x", BAD },
                { value_check_ip_prefixes, {}, "10.0.0.0/8 ::1/128 any", OK },
                { value_check_ip_prefixes, {}, "10/8", BAD },
                { value_check_ip_prefixes, {}, "1.2.3.4/33", BAD },
                { value_check_controllers, { "any" }, "cpu foo", OK },
                { value_check_controllers, { "bool" }, "cpu foo", BAD },
                { value_check_namespaces, {}, "~net ipc", OK },
                { value_check_namespaces, {}, "NET", BAD },
                { value_check_environment, {}, "\"A=1 2\" B=3", OK },
                { value_check_environment, {}, "A=1 B", PART },
                { value_check_environment, {}, "A=\\x", BAD },
                { value_check_env_names, {}, "A=B", BAD },
                { value_check_env_names, { "assign" }, "A=B", OK },
                { value_check_urls, {}, "man:foo(1) https://x", OK },
                { value_check_urls, {}, "https://", BAD },
                { value_check_urls, {}, "http://x", OK },
                { value_check_urls, {}, "http://", BAD },
                { value_check_urls, {}, "https:/x", BAD },
                { value_check_urls, {}, "http:x", BAD },
                { value_check_urls, {}, "file:/", OK },
                { value_check_urls, {}, "file:", BAD },
                { value_check_urls, {}, "file:/x", OK },
                { value_check_urls, {}, "info:", BAD },
                { value_check_urls, {}, "info:x", OK },
                { value_check_urls, {}, "man:", BAD },
                { value_check_urls, {}, "man:x", OK },
                { value_check_urls, {}, "mans:x", BAD },
                { value_check_urls, {}, "Man:x", BAD },
                { value_check_urls, {}, "h", BAD },
                { value_check_urls, {}, "man:x h", PART },
                { value_check_urls, {}, "'man:x' \"https://y z\"", OK },
                { value_check_bus_name, {}, "org.freedesktop.x", OK },
                { value_check_bus_name, {}, "a.1b", BAD },
                { value_check_base64, {}, "Y Q = =", OK },
                { value_check_base64, {}, "YQ=", BAD },
                { value_check_ifname, {}, "aaaaaaaaaaaaaaa", OK },
                { value_check_ifname, {}, "aaaaaaaaaaaaaaaa", BAD },
                { value_check_socket_address, { "inet" }, "[::1]:80", OK },
                { value_check_socket_address, { "inet" }, "127.0.0.1:0", BAD },
                { value_check_socket_address, {}, "80", BAD },
                { value_check_netlink, {}, "kobject-uevent 1", OK },
                { value_check_fdname, {}, "a:b", BAD },
                { value_check_root_hash, {}, "ABCD", BAD },
                { value_check_root_hash, {}, "0123456789abcdef0123456789abcdef", OK },
                { value_check_root_hash, { "signature" }, "base64:YQ==", OK },
                { value_check_root_hash, { "signature" }, "x", BAD },
                { value_check_coredump_filter, {}, "0x33", OK },
                { value_check_coredump_filter, {}, "elf-headers foo", BAD },
                { value_check_credential, { "set" }, "a:", BAD },
                { value_check_credential, {}, "a:rel", OK },
                { value_check_credential, {}, "a/b", BAD },
                { value_check_log_fields, {}, "A=1 b=2", PART },
                { value_check_log_fields, {}, "_A=b", BAD },
                { value_check_socket_bind, {}, "ipv6:udp:53-54", OK },
                { value_check_socket_bind, {}, "tcp:0", BAD },
                { value_check_bpf_program, {}, "egress:rel", BAD },
                { value_check_log_namespace, {}, "a!b", BAD },
                { value_check_image_list, { "mount" }, "/x", BAD },
                { value_check_image_list, {}, "/x:opt", OK },
                { value_check_pressure_limit, {}, "50", BAD },
        };
        run(v, ELEMENTSOF(v));
}

TEST(paths) {
        static const Vector v[] = {
                { value_check_path_list, { "prefix=-+" }, "-+/x /a//b/./c", OK },
                { value_check_path_list, { "prefix=-+" }, "+-/x", BAD },
                { value_check_path_list, { "prefix=-+" }, "/a rel", PART },
                { value_check_path_list, {}, "/a/b/..", BAD },
                { value_check_path_single, { "prefix=-" }, "-/a rel", OK },
                { value_check_pid_file, {}, "rel", OK },
                { value_check_pid_file, {}, "-/a/../b", BAD },
                { value_check_path_colon_list, {}, "/a:/b", OK },
                { value_check_path_colon_list, {}, "/a:rel", BAD },
                { value_check_tmpfs_list, {}, "/a:size=10M", OK },
                { value_check_bind_list, {}, "-/a:/b:rbind", OK },
                { value_check_bind_list, {}, "/a:/b:foo", BAD },
                { value_check_directory_list, { "symlink" }, "a:b:c", OK },
                { value_check_directory_list, { "symlink" }, "a:../b", BAD },
                { value_check_directory_list, {}, "a:b", BAD },
                { value_check_directory_list, {}, "a:", OK },
                { value_check_directory_list, {}, "private/x", BAD },
                { value_check_directory_list, {}, "./a", OK },
                { value_check_condition, { "path" }, "|!/a", OK },
                { value_check_condition, { "path" }, "!|/a", BAD },
                { value_check_condition, {}, "anything", OK },
        };
        run(v, ELEMENTSOF(v));
}

/* Rules that changed after 252, each with the last version before and the
 * first one with the change (probed with systemd 252 and 257). */
TEST(by_version) {
        static const Vector v[] = {
                /* *Directory=: NAME:LINK before 257 ("::" is one separator, the
                 * rest ignored); NAME:LINK:FLAGS since, FLAGS empty or "ro". */
                { value_check_directory_list, { "symlink" }, "a:b:c", OK, 256 },
                { value_check_directory_list, { "symlink" }, "a:b:c", BAD, 257 },
                { value_check_directory_list, { "symlink" }, "a:b:ro", OK, 257 },
                { value_check_directory_list, { "symlink" }, "a:b:ro:x", OK, 257 },
                { value_check_directory_list, { "symlink" }, "a:b:", OK, 257 },
                { value_check_directory_list, { "symlink" }, "a::ro", OK, 257 },
                { value_check_directory_list, { "symlink" }, "a::b", OK, 252 },
                { value_check_directory_list, { "symlink" }, "a::b", BAD, 257 },
                { value_check_directory_list, { "symlink" }, ":b", OK, 252 },
                { value_check_directory_list, { "symlink" }, ":b", BAD, 257 },
                { value_check_directory_list, { "symlink" }, ":", BAD, 252 },
                { value_check_directory_list, { "symlink" }, "a:b:RO", BAD, 257 },
                { value_check_directory_list, { "symlink" }, "a:b:/c", OK, 252 },
                { value_check_directory_list, { "symlink" }, "a:/b:ro", BAD, 257 },
                { value_check_directory_list, {}, "a::ro", BAD, 252 },
                { value_check_directory_list, {}, "a::ro", OK, 257 },
                { value_check_directory_list, {}, "a:b:ro", BAD, 257 },
                { value_check_directory_list, {}, ":a", OK, 252 },
                /* RestrictNetworkInterfaces= takes alternative names since 256;
                 * BindToDevice= does not. Numbers are refused in both. */
                { value_check_ifname, { "list" }, "aaaaaaaaaaaaaaaa", BAD, 255 },
                { value_check_ifname, { "list" }, "aaaaaaaaaaaaaaaa", OK, 256 },
                { value_check_ifname, { "list" }, "eth0 aaaaaaaaaaaaaaaaaaaaaaaa", OK, 257 },
                { value_check_ifname, { "list" }, "a:b", BAD, 257 },
                { value_check_ifname, {}, "aaaaaaaaaaaaaaaa", BAD, 257 },
                { value_check_ifname, { "list" }, "12", BAD, 252 },
                { value_check_ifname, { "list" }, "0", BAD, 252 },
                { value_check_ifname, { "list" }, "4294967296", BAD, 252 },
                { value_check_ifname, { "list" }, "0x1a", BAD, 257 },
                { value_check_ifname, { "list" }, "+1", BAD, 257 },
                { value_check_ifname, { "list" }, "0o7", BAD, 257 },
                { value_check_ifname, { "list" }, "0x0", OK, 257 },
                { value_check_ifname, { "list" }, "0x80000000", OK, 257 },
                { value_check_ifname, { "list" }, "1e3", OK, 252 },
                { value_check_ifname, { "list" }, "-1", OK, 252 },
                { value_check_ifname, { "list" }, "all", BAD, 252 },
                { value_check_ifname, { "list" }, "any", OK, 252 },
                { value_check_ifname, { "list" }, "a\"b", BAD, 252 },
                { value_check_ifname, { "list" }, "\"ab\"", OK, 252 },
                { value_check_ifname, {}, "+0", OK, 257 },
                { value_check_ifname, {}, "01", BAD, 257 },
                /* SocketBindAllow=: port 0 since 256. */
                { value_check_socket_bind, {}, "tcp:0", BAD, 255 },
                { value_check_socket_bind, {}, "tcp:0", OK, 256 },
                { value_check_socket_bind, {}, "0-65535", BAD, 252 },
                { value_check_socket_bind, {}, "0-65535", OK, 257 },
                { value_check_socket_bind, {}, "tcp:65536", BAD, 257 },
                { value_check_socket_bind, {}, "ipv6", OK, 252 },
                { value_check_socket_bind, {}, "ipv4:udp", OK, 252 },
                { value_check_socket_bind, {}, "TCP:80", OK, 252 },
                { value_check_socket_bind, {}, "IPV4:80", BAD, 252 },
                { value_check_socket_bind, {}, "tcp:", BAD, 252 },
                { value_check_socket_bind, {}, "tcp:+80", OK, 252 },
                { value_check_socket_bind, {}, "80-0x60", OK, 252 },
                { value_check_socket_bind, {}, "00080", BAD, 252 },
                { value_check_socket_bind, {}, "sctp:80", BAD, 257 },
                { value_check_socket_bind, {}, "6:80", BAD, 257 },
                /* System call groups and names by version. */
                { value_check_syscall_filter, {}, "@sandbox", BAD, 253 },
                { value_check_syscall_filter, {}, "@sandbox", OK, 254 },
                { value_check_syscall_filter, {}, "mseal", BAD, 256 },
                { value_check_syscall_filter, {}, "mseal", OK, 257 },
                { value_check_syscall_filter, {}, "~listmount:EPERM", OK, 257 },
                { value_check_syscall_filter, {}, "riscv_hwprobe", BAD, 252 },
                { value_check_syscall_filter, {}, "cachestat", OK, 252 },
                { value_check_syscall_filter, {}, "osf_stat", BAD, 257 },
                { value_check_syscall_filter, {}, "_llseek", OK, 252 },
                { value_check_syscall_filter, {}, "writev", OK, 252 },
                { value_check_syscall_filter, {}, "zzz", BAD, 257 },
                /* Image policies (RootImagePolicy= & co, since 254). */
                { value_check_image_list, { "policy" }, "*", OK, 257 },
                { value_check_image_list, { "policy" }, "root=verity+signed:usr=unprotected", OK, 257 },
                { value_check_image_list, { "policy" }, "=verity:root = -", OK, 257 },
                { value_check_image_list, { "policy" }, "root=", OK, 257 },
                { value_check_image_list, { "policy" }, "usr-verity-sig=open", OK, 257 },
                { value_check_image_list, { "policy" }, "root=*", BAD, 257 },
                { value_check_image_list, { "policy" }, "root=verity:root=signed", BAD, 257 },
                { value_check_image_list, { "policy" }, "=open:=ignore", BAD, 257 },
                { value_check_image_list, { "policy" }, "root=verity:", BAD, 257 },
                { value_check_image_list, { "policy" }, "root=verity+", BAD, 257 },
                { value_check_image_list, { "policy" }, "ROOT=verity", BAD, 257 },
                { value_check_image_list, { "policy" }, "root", BAD, 257 },
                { value_check_image_list, { "policy" }, "foo", BAD, 257 },
                /* ImportCredential= (254; renaming since 257). */
                { value_check_credential, { "import" }, "a*", OK, 257 },
                { value_check_credential, { "import" }, "*", OK, 257 },
                { value_check_credential, { "import" }, "a*:b", OK, 257 },
                { value_check_credential, { "import" }, "a:", OK, 257 },
                { value_check_credential, { "import" }, "a*b", BAD, 257 },
                { value_check_credential, { "import" }, "**", BAD, 257 },
                { value_check_credential, { "import" }, ":b", BAD, 257 },
                { value_check_credential, { "import" }, "a:b/c", BAD, 257 },
                { value_check_credential, { "import" }, "/x", BAD, 257 },
                { value_check_credential, { "import" }, "..", BAD, 257 },
                /* OpenFile= (253), NFTSet= (255), DelegateSubgroup= (254). */
                { value_check_open_file, {}, "/x::append", OK, 257 },
                { value_check_open_file, {}, "/x:a:read-only,graceful", OK, 257 },
                { value_check_open_file, {}, "/x:a:", OK, 257 },
                { value_check_open_file, {}, "rel", BAD, 257 },
                { value_check_open_file, {}, "/x:a:append,truncate", BAD, 257 },
                { value_check_open_file, {}, "/x:a:foo", BAD, 257 },
                { value_check_open_file, {}, "/x:a:read-only:x", BAD, 257 },
                { value_check_nft_set, {}, "cgroup:inet:filter:x user:arp:t:s", OK, 257 },
                { value_check_nft_set, {}, "group:ip6:a_1:b/c", OK, 257 },
                { value_check_nft_set, {}, "address:inet:t:s", BAD, 257 },
                { value_check_nft_set, {}, "cgroup:INET:t:s", BAD, 257 },
                { value_check_nft_set, {}, "cgroup:inet:t", BAD, 257 },
                { value_check_nft_set, {}, "cgroup:inet:t:s:x", BAD, 257 },
                { value_check_nft_set, {}, "cgroup:inet:a-b:s", BAD, 257 },
                { value_check_nft_set, {}, "cgroup:inet:1a:s", BAD, 257 },
                { value_check_nft_set, {}, "cgroup:inet:t:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", BAD, 257 },
                { value_check_nft_set, {}, "cgroup:inet:t:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", OK, 257 },
                { value_check_cgroup_name, {}, "supervisor", OK, 257 },
                { value_check_cgroup_name, {}, "foo.bar", OK, 257 },
                { value_check_cgroup_name, {}, "rdma.x", OK, 257 },
                { value_check_cgroup_name, {}, "cpu.max", BAD, 257 },
                { value_check_cgroup_name, {}, "cgroup.procs", BAD, 257 },
                { value_check_cgroup_name, {}, "_a", BAD, 257 },
                { value_check_cgroup_name, {}, "tasks", BAD, 257 },
                { value_check_cgroup_name, {}, "a/b", BAD, 257 },
                { value_check_cgroup_name, {}, "..", BAD, 257 },
                /* SocketProtocol=: mptcp since 257; names in any case, numbers. */
                { value_check_ip_protocol, {}, "mptcp", BAD, 256 },
                { value_check_ip_protocol, {}, "MPTCP", OK, 257 },
                { value_check_ip_protocol, {}, "SCTP", OK, 252 },
                { value_check_ip_protocol, {}, "0x84", OK, 252 },
                { value_check_ip_protocol, {}, "+136", OK, 252 },
                { value_check_ip_protocol, {}, "262", BAD, 252 },
                { value_check_ip_protocol, {}, "262", OK, 257 },
                { value_check_ip_protocol, {}, "0132", BAD, 257 },
                { value_check_ip_protocol, {}, "tcp", BAD, 257 },
                /* ManagedOOMMemoryPressureDurationSec= (257): at least 1s, finite. */
                { value_check_timespan, { "min=1000000", "finite" }, "1s", OK, 257 },
                { value_check_timespan, { "min=1000000", "finite" }, "999ms", BAD, 257 },
                { value_check_timespan, { "min=1000000", "finite" }, "infinity", BAD, 257 },
                { value_check_timespan, {}, "infinity", OK, 257 },
        };
        run(v, ELEMENTSOF(v));
}

TESTS_MAIN(T(time_values), T(calendar), T(sizes), T(integers), T(lists_and_names), T(paths), T(by_version));
