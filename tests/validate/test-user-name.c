/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "basic/macro.h"
#include "tests.h"
#include "validate/user-name.h"

/* The reference's §6.6 table, one row per name. Columns, in order:
 * strict, unit v246+ (Y/W/F/R), unit v234-v245 (Y/F/W=FATAL in 234-242 but a
 * warning in 243-245 / uid), POSIX, adduser NAME, adduser SYS, Debian 12
 * useradd, shadow upstream, RHEL. */
typedef struct Row {
        const char *name;
        char strict;
        char v246;        /* Y ok, W notice, F fatal, R reset */
        const char *v234; /* "Y", "F", "F1" (warning in v243-v245), "R", or "uid N" */
        char posix, adduser, adduser_sys, useradd, upstream, rhel;
} Row;

static char A31[32], A32[33], A33[34], A256[257];

static const Row rows[] = {
        { "root",       'Y', 'Y', "Y",        'Y', 'Y', 'Y', 'Y', 'Y', 'Y' },
        { "nobody",     'Y', 'Y', "Y",        'Y', 'Y', 'Y', 'Y', 'Y', 'Y' },
        { "0day",       'N', 'W', "F",        'Y', 'N', 'N', 'Y', 'Y', 'Y' },
        { "a.b",        'N', 'W', "F1",       'Y', 'N', 'N', 'Y', 'Y', 'Y' },
        { "-x",         'N', 'W', "F",        'N', 'N', 'N', 'N', 'N', 'N' },
        { "_x",         'Y', 'Y', "Y",        'Y', 'N', 'Y', 'Y', 'Y', 'Y' },
        { "x-",         'Y', 'Y', "Y",        'Y', 'Y', 'Y', 'Y', 'Y', 'Y' },
        { "x$",         'N', 'W', "F",        'N', 'Y', 'Y', 'Y', 'Y', 'Y' },
        { "x$y",        'N', 'W', "F",        'N', 'N', 'N', 'Y', 'N', 'N' },
        { "$x",         'N', 'W', "F",        'N', 'N', 'N', 'Y', 'N', 'N' },
        { "foo bar",    'N', 'W', "F",        'N', 'N', 'N', 'N', 'N', 'N' },
        { A31,          'Y', 'Y', "Y",        'Y', 'Y', 'Y', 'Y', 'Y', 'Y' },
        { A32,          'N', 'W', "F",        'Y', 'Y', 'Y', 'Y', 'Y', 'Y' },
        { A33,          'N', 'W', "F",        'Y', 'N', 'N', 'N', 'Y', 'N' },
        { A256,         'N', 'W', "F",        'Y', 'N', 'N', 'N', 'N', 'N' },
        { "Admin",      'Y', 'Y', "Y",        'Y', 'N', 'N', 'Y', 'Y', 'Y' },
        { "j\xc3\xbcrgen", 'N', 'W', "F",     'N', 'N', 'N', 'Y', 'N', 'N' },
        { ".",          'N', 'F', "F",        'Y', 'N', 'N', 'Y', 'N', 'N' },
        { "..",         'N', 'F', "F",        'Y', 'N', 'N', 'Y', 'N', 'N' },
        { ".hidden",    'N', 'W', "F",        'Y', 'N', 'N', 'Y', 'Y', 'Y' },
        { "0",          'N', 'Y', "uid 0",    'Y', 'N', 'N', 'Y', 'N', 'N' },
        { "65534",      'N', 'Y', "uid 65534", 'Y', 'N', 'N', 'Y', 'N', 'N' },
        { "65535",      'N', 'F', "F",        'Y', 'N', 'N', 'Y', 'N', 'N' },
        { "4294967294", 'N', 'Y', "uid 4294967294", 'Y', 'N', 'N', 'Y', 'N', 'N' },
        { "4294967295", 'N', 'F', "F",        'Y', 'N', 'N', 'Y', 'N', 'N' },
        { "4294967296", 'N', 'F', "F",        'Y', 'N', 'N', 'Y', 'N', 'N' },
        { "007",        'N', 'F', "uid 7",    'Y', 'N', 'N', 'Y', 'N', 'N' },
        { "123",        'N', 'Y', "uid 123",  'Y', 'N', 'N', 'Y', 'N', 'N' },
        { "-1",         'N', 'F', "F",        'N', 'N', 'N', 'N', 'N', 'N' },
        { "+1",         'N', 'W', "uid 1",    'N', 'N', 'N', 'N', 'N', 'N' },
        { "0x10",       'N', 'W', "uid 16",   'Y', 'N', 'N', 'Y', 'Y', 'Y' },
        { "",           'N', 'R', "R",        'N', 'N', 'N', 'N', 'N', 'N' },
        { "a:b",        'N', 'F', "F",        'N', 'N', 'N', 'N', 'N', 'N' },
        { "a/b",        'N', 'F', "F",        'N', 'N', 'N', 'Y', 'N', 'N' },
        { "a,b",        'N', 'W', "F",        'N', 'N', 'N', 'N', 'N', 'N' },
        { "user@dom",   'N', 'W', "F",        'N', 'N', 'N', 'Y', 'N', 'N' },
        { "DOM\\user",  'N', 'W', "F",        'N', 'N', 'N', 'Y', 'N', 'N' },
        { "x\ty",       'N', 'F', "F",        'N', 'N', 'N', 'N', 'N', 'N' },
        { "_",          'Y', 'Y', "Y",        'Y', 'N', 'Y', 'Y', 'Y', 'Y' },
        { "-",          'N', 'F', "F",        'N', 'N', 'N', 'N', 'N', 'N' },
};

static void fill(char *buf, size_t n) {
        memset(buf, 'a', n);
        buf[n] = '\0';
}

static void check_mode(const Row *r, UserNameMode mode, char want) {
        bool got = user_name_is_valid(r->name, mode);

        if (got != (want == 'Y')) {
                fprintf(stderr, "mode %s, name '%.40s': got %s, table says %c\n",
                        user_name_mode_to_string(mode), r->name, got ? "valid" : "invalid", want);
                tests_failed++;
        }
}

TEST(table_modes) {
        fill(A31, 31), fill(A32, 32), fill(A33, 33), fill(A256, 256);

        for (size_t i = 0; i < ELEMENTSOF(rows); i++) {
                const Row *r = &rows[i];

                check_mode(r, USER_NAME_STRICT, r->strict);
                /* The relaxed mode is the v246+ column: accepted with or without notice. */
                check_mode(r, USER_NAME_RELAXED, (r->v246 == 'Y' || r->v246 == 'W') ? 'Y' : 'N');
                check_mode(r, USER_NAME_POSIX, r->posix);
                check_mode(r, USER_NAME_DEBIAN, r->adduser);
                check_mode(r, USER_NAME_DEBIAN_SYSTEM, r->adduser_sys);
                check_mode(r, USER_NAME_SHADOW, r->useradd);
                check_mode(r, USER_NAME_SHADOW_UPSTREAM, r->upstream);
                check_mode(r, USER_NAME_RHEL, r->rhel);
        }
}

static UserCheck expect_v246(char c) {
        return c == 'Y' ? USER_CHECK_OK : c == 'W' ? USER_CHECK_NOTICE : USER_CHECK_INVALID;
}

TEST(table_systemd_versions) {
        fill(A31, 31), fill(A32, 32), fill(A33, 33), fill(A256, 256);

        for (size_t i = 0; i < ELEMENTSOF(rows); i++) {
                const Row *r = &rows[i];
                uint32_t uid;
                UserCheck c;

                if (r->v246 == 'R')
                        continue; /* empty: a reset, the judge's business */

                c = user_name_check_systemd(r->name, 252, NULL);
                if (c != expect_v246(r->v246)) {
                        fprintf(stderr, "v252 '%.40s': got %d want %c\n", r->name, c, r->v246);
                        tests_failed++;
                }

                for (unsigned v = 233; v <= 245; v++) {
                        UserCheck want;

                        c = user_name_check_systemd(r->name, v, &uid);
                        if (startswith(r->v234, "uid ")) {
                                want = USER_CHECK_OK;
                                CHECK_INT_EQ(uid, strtoul(r->v234 + 4, NULL, 10));
                        } else if (streq(r->v234, "Y"))
                                want = USER_CHECK_OK;
                        else if (streq(r->v234, "F1"))
                                want = v >= 243 ? USER_CHECK_NOTICE : USER_CHECK_INVALID;
                        else
                                want = USER_CHECK_INVALID;
                        if (c != want) {
                                fprintf(stderr, "v%u '%.40s': got %d want %s\n", v, r->name, c, r->v234);
                                tests_failed++;
                        }
                }
        }
}

TEST(parse_uid_eras) {
        static const struct {
                const char *s;
                unsigned version;
                int r;
                uint32_t uid;
        } v[] = {
                { "0", 252, 0, 0 },
                { "1000", 252, 0, 1000 },
                { "007", 252, -EINVAL, 0 },
                { "+1", 252, -EINVAL, 0 },
                { " 1", 252, -EINVAL, 0 },
                { "-1", 252, -EINVAL, 0 },
                { "0x10", 252, -EINVAL, 0 },
                { "", 252, -EINVAL, 0 },
                { "65535", 252, -ENXIO, 0 },
                { "4294967295", 252, -ENXIO, 0 },
                { "4294967294", 252, 0, 4294967294u },
                { "4294967296", 252, -ERANGE, 0 },
                { "99999999999999999999999", 252, -ERANGE, 0 },
                { "007", 245, 0, 7 },
                { "010", 234, 0, 8 },
                { "0x10", 234, 0, 16 },
                { "0X1f", 234, 0, 31 },
                { "+1", 234, 0, 1 },
                { " \t5", 234, 0, 5 },
                { "-1", 234, -ERANGE, 0 },
                { " -1", 234, -ERANGE, 0 },
                { "0x", 234, -EINVAL, 0 },
                { "08", 234, -EINVAL, 0 },
                { "1x", 234, -EINVAL, 0 },
                { "", 234, -EINVAL, 0 },
                { " ", 234, -EINVAL, 0 },
                { "0177777", 234, -ENXIO, 0 },
                { "0xffffffff", 234, -ENXIO, 0 },
                { "0x100000000", 234, -ERANGE, 0 },
                { "0", 233, 0, 0 },
                { "00", 233, 0, 0 },
                { "0x0", 240, 0, 0 },
        };

        for (size_t i = 0; i < ELEMENTSOF(v); i++) {
                uint32_t uid = 12345;
                int r = parse_uid(v[i].s, v[i].version, &uid);

                if (r != v[i].r || (r == 0 && uid != v[i].uid)) {
                        fprintf(stderr, "parse_uid('%s', %u) = %d/%u, want %d/%u\n", v[i].s,
                                v[i].version, r, uid, v[i].r, v[i].uid);
                        tests_failed++;
                }
        }
}

TEST(mode_strings) {
        for (int m = 0; m < _USER_NAME_MODE_MAX; m++) {
                const char *s = user_name_mode_to_string((UserNameMode) m);
                CHECK(s);
                CHECK_INT_EQ(user_name_mode_from_string(s), m);
        }
        CHECK_STR_EQ(user_name_mode_to_string(USER_NAME_DEBIAN_SYSTEM), "debian-system");
        CHECK_STR_EQ(user_name_mode_to_string(USER_NAME_SHADOW_UPSTREAM), "shadow-upstream");
        CHECK_INT_EQ(user_name_mode_from_string("Strict"), _USER_NAME_MODE_INVALID);
        CHECK_INT_EQ(user_name_mode_from_string(NULL), _USER_NAME_MODE_INVALID);
        CHECK(!user_name_is_valid(NULL, USER_NAME_POSIX));
        CHECK(!user_name_is_valid("root", _USER_NAME_MODE_MAX));
}

TESTS_MAIN(T(table_modes), T(table_systemd_versions), T(parse_uid_eras), T(mode_strings))
