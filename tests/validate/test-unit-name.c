/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <string.h>

#include "basic/macro.h"
#include "tests.h"
#include "validate/parse-util.h"
#include "validate/path-util.h"
#include "validate/unit-name.h"

TEST(unit_name_validity) {
        static const struct {
                const char *name;
                int kind;
        } v[] = {
                { "foo.service", UNIT_NAME_PLAIN },
                { "foo@.service", UNIT_NAME_TEMPLATE },
                { "foo@bar.service", UNIT_NAME_INSTANCE },
                { "getty@tty1.service", UNIT_NAME_INSTANCE },
                { "foo@a@b.service", UNIT_NAME_INSTANCE }, /* later '@' belong to the instance */
                { "system-systemd\\x2dcryptsetup.slice", UNIT_NAME_PLAIN },
                { "-.mount", UNIT_NAME_PLAIN },
                { "a:b_c.d-e.target", UNIT_NAME_PLAIN },
                { "@foo.service", -EINVAL },
                { "@.service", -EINVAL },
                { "foo", -EINVAL },
                { ".service", -EINVAL },
                { "foo.bogus", -EINVAL },
                { "foo bar.service", -EINVAL },
                { "foo/bar.service", -EINVAL },
                { "f\xc3\xbc.service", -EINVAL },
                { "", -EINVAL },
                { "foo.service.d", -EINVAL },
                { "foo@bar baz.service", -EINVAL },
        };

        for (size_t i = 0; i < ELEMENTSOF(v); i++) {
                int r = unit_name_classify(v[i].name);
                if (r != v[i].kind) {
                        fprintf(stderr, "classify '%s' = %d, want %d\n", v[i].name, r, v[i].kind);
                        tests_failed++;
                }
        }
        CHECK(!unit_name_is_valid(NULL, UNIT_NAME_ANY));
        CHECK(unit_name_is_template("foo@.service"));
        CHECK(!unit_name_is_template("foo@x.service"));
        CHECK(unit_name_is_instance("foo@x.service"));
        CHECK(unit_name_is_valid("foo@x.service", UNIT_NAME_PLAIN | UNIT_NAME_INSTANCE));
        CHECK(!unit_name_is_valid("foo@.service", UNIT_NAME_PLAIN | UNIT_NAME_INSTANCE));
}

TEST(unit_name_length) {
        char buf[300];

        /* 255 bytes in total is the longest valid name. */
        memset(buf, 'a', sizeof(buf));
        strcpy(buf + 255 - strlen(".service"), ".service");
        CHECK_INT_EQ(strlen(buf), 255);
        CHECK(unit_name_is_valid(buf, UNIT_NAME_PLAIN));
        memset(buf, 'a', sizeof(buf));
        strcpy(buf + 256 - strlen(".service"), ".service");
        CHECK(!unit_name_is_valid(buf, UNIT_NAME_PLAIN));
}

TEST(unit_name_parts) {
        char *s = NULL;

        CHECK_INT_EQ(unit_name_to_prefix("foo@bar.service", &s), 0);
        CHECK_STR_EQ(s, "foo");
        free(s);
        CHECK_INT_EQ(unit_name_to_prefix("foo-bar.service", &s), 0);
        CHECK_STR_EQ(s, "foo-bar");
        free(s);
        CHECK_INT_EQ(unit_name_to_prefix("bad name", &s), -EINVAL);

        CHECK_INT_EQ(unit_name_to_instance("foo@bar.service", &s), UNIT_NAME_INSTANCE);
        CHECK_STR_EQ(s, "bar");
        free(s);
        CHECK_INT_EQ(unit_name_to_instance("foo@.service", &s), UNIT_NAME_TEMPLATE);
        CHECK_STR_EQ(s, "");
        free(s);
        s = (char *) "x";
        CHECK_INT_EQ(unit_name_to_instance("foo.service", &s), UNIT_NAME_PLAIN);
        CHECK(s == NULL);
        CHECK_INT_EQ(unit_name_to_instance("foo@a@b.socket", &s), UNIT_NAME_INSTANCE);
        CHECK_STR_EQ(s, "a@b");
        free(s);

        CHECK_INT_EQ(unit_name_without_suffix("foo@bar.service", &s), 0);
        CHECK_STR_EQ(s, "foo@bar");
        free(s);
        CHECK_INT_EQ(unit_name_template("foo@bar.service", &s), 0);
        CHECK_STR_EQ(s, "foo@.service");
        free(s);
        CHECK_INT_EQ(unit_name_template("foo.service", &s), -EINVAL);

        CHECK_INT_EQ(unit_name_to_type("foo@bar.socket"), UNIT_SOCKET);
        CHECK_INT_EQ(unit_name_to_type("-.mount"), UNIT_MOUNT);
        CHECK_INT_EQ(unit_name_to_type("foo"), _UNIT_TYPE_INVALID);
}

TEST(unit_name_unescaping) {
        char *s = NULL;

        CHECK_INT_EQ(unit_name_unescape("a\\x3ab", &s), 0);
        CHECK_STR_EQ(s, "a:b");
        free(s);
        CHECK_INT_EQ(unit_name_unescape("dev-sda1", &s), 0);
        CHECK_STR_EQ(s, "dev/sda1");
        free(s);
        CHECK_INT_EQ(unit_name_unescape("system-systemd\\x2dcryptsetup", &s), 0);
        CHECK_STR_EQ(s, "system/systemd-cryptsetup");
        free(s);
        CHECK_INT_EQ(unit_name_unescape("a\\x4", &s), -EINVAL);
        CHECK_INT_EQ(unit_name_unescape("a\\n", &s), -EINVAL);
        CHECK_INT_EQ(unit_name_unescape("a\\", &s), -EINVAL);

        CHECK_INT_EQ(unit_name_path_unescape("-", &s), 0);
        CHECK_STR_EQ(s, "/");
        free(s);
        CHECK_INT_EQ(unit_name_path_unescape("var-lib-x", &s), 0);
        CHECK_STR_EQ(s, "/var/lib/x");
        free(s);
        CHECK_INT_EQ(unit_name_path_unescape("-var", &s), -EINVAL);
        CHECK_INT_EQ(unit_name_path_unescape("a--b", &s), -EINVAL);
        CHECK_INT_EQ(unit_name_path_unescape("", &s), -EINVAL);
}

TEST(booleans) {
        static const char *const yes[] = { "1", "yes", "YES", "y", "Y", "true", "True", "t", "T", "on", "On", "oN" };
        static const char *const no[] = { "0", "no", "No", "n", "N", "false", "FALSE", "f", "F", "off", "OFF", "oFf" };
        static const char *const bad[] = { "", "maybe", "2", "yess", "o", " yes", "-1", "ja", "10", "00", "1 ",
                                           "ye", "tru", "tr", "nope", "fals", "fa", "of", "offf", "onn", "y ",
                                           "\xc3\xbf", "yes\n" };

        for (size_t i = 0; i < ELEMENTSOF(yes); i++)
                CHECK_INT_EQ(parse_boolean(yes[i]), 1);
        for (size_t i = 0; i < ELEMENTSOF(no); i++)
                CHECK_INT_EQ(parse_boolean(no[i]), 0);
        for (size_t i = 0; i < ELEMENTSOF(bad); i++)
                CHECK_INT_EQ(parse_boolean(bad[i]), -EINVAL);
        CHECK_INT_EQ(parse_boolean(NULL), -EINVAL);
}

TEST(paths) {
        char buf[5000];

        CHECK_INT_EQ(path_check_absolute("/var/lib/x"), PATH_CHECK_OK);
        CHECK_INT_EQ(path_check_absolute("/"), PATH_CHECK_OK);
        CHECK_INT_EQ(path_check_absolute("/a//b/./c/"), PATH_CHECK_OK);
        CHECK_INT_EQ(path_check_absolute("relative"), PATH_CHECK_NOT_ABSOLUTE);
        CHECK_INT_EQ(path_check_absolute("-/x"), PATH_CHECK_NOT_ABSOLUTE);
        CHECK_INT_EQ(path_check_absolute(""), PATH_CHECK_NOT_ABSOLUTE);
        CHECK_INT_EQ(path_check_absolute("~"), PATH_CHECK_NOT_ABSOLUTE);
        CHECK_INT_EQ(path_check_absolute("/a/../b"), PATH_CHECK_NOT_NORMALIZED);
        CHECK_INT_EQ(path_check_absolute("/a/.."), PATH_CHECK_NOT_NORMALIZED);
        CHECK_INT_EQ(path_check_absolute("/\xff"), PATH_CHECK_BAD_UTF8);

        memset(buf, 'a', sizeof(buf));
        buf[0] = '/';
        buf[257] = '\0';
        CHECK_INT_EQ(path_check_absolute(buf), PATH_CHECK_BAD_LENGTH); /* 256-byte component */
        buf[256] = '\0';
        CHECK_INT_EQ(path_check_absolute(buf), PATH_CHECK_OK);
        memset(buf, 'a', sizeof(buf));
        for (size_t i = 0; i < 4096; i += 100)
                buf[i] = '/';
        buf[4096] = '\0'; /* PATH_MAX counts the NUL */
        CHECK_INT_EQ(path_check_absolute(buf), PATH_CHECK_BAD_LENGTH);
        buf[4095] = '\0';
        CHECK_INT_EQ(path_check_absolute(buf), PATH_CHECK_OK);

        CHECK(path_is_normalized("/a/b"));
        CHECK(!path_is_normalized("/a//b"));
        CHECK(!path_is_normalized("/a/./b"));
        CHECK(!path_is_normalized("./a"));
        CHECK(path_is_normalized("/a/.b/..c"));
        CHECK(path_is_normalized("/a/b/"));
        CHECK(path_is_normalized("a"));
        CHECK(path_is_normalized("/"));
        CHECK(path_is_normalized("/a/b.../c."));
        CHECK(!path_is_normalized("/a/.."));
        CHECK(!path_is_normalized("/a/."));
        CHECK(!path_is_normalized("../a"));
        CHECK(!path_is_normalized("."));
        CHECK(!path_is_normalized("//a"));
        CHECK(!path_is_normalized("/a/b//"));
        CHECK(!path_is_normalized(""));
        CHECK(filename_is_valid("true"));
        CHECK(filename_is_valid("${FOO}"));
        CHECK(!filename_is_valid("bin/true"));
        CHECK(!filename_is_valid(".."));
        CHECK(!filename_is_valid(""));
}

TEST(simplify) {
        static const char *const v[][2] = {
                { "///foo//./bar/.", "/foo/bar" },
                { ".//./foo//./bar/.", "foo/bar" },
                { "/../foo", "/../foo" },
                { "/", "/" },
                { "//", "/" },
                { "/a/", "/a" },
                { "./", "." },
        };
        for (size_t i = 0; i < ELEMENTSOF(v); i++) {
                char b[64];
                strcpy(b, v[i][0]);
                path_simplify(b);
                CHECK_STR_EQ(b, v[i][1]);
        }
}

/* The classification as systemd's unit_name_is_valid() spells it, a byte
 * at a time: the fast one (the bytes' classes or-ed, two at a time) must
 * agree on every byte at every place, odd and even, around '@' and '.'. */
static int classify_slowly(const char *name, UnitType *ret_type) {
        const char *dot, *at = NULL;
        UnitType type;

        if (!name || !name[0] || strlen(name) >= UNIT_NAME_MAX)
                return -EINVAL;
        dot = strrchr(name, '.');
        if (!dot || dot == name)
                return -EINVAL;
        type = unit_type_from_string(dot + 1);
        if (type < 0)
                return -EINVAL;
        for (const char *p = name; p < dot; p++) {
                if (*p == '@') {
                        if (!at)
                                at = p;
                        continue;
                }
                if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
                      strchr(":-_.\\", *p)))
                        return -EINVAL;
        }
        if (at == name)
                return -EINVAL;
        *ret_type = type;
        return !at ? UNIT_NAME_PLAIN : at + 1 == dot ? UNIT_NAME_TEMPLATE : UNIT_NAME_INSTANCE;
}

TEST(unit_name_every_byte) {
        /* '#' stands for the byte. */
        static const char *const shapes[] = { "#.service", "a#.service", "ab#.socket", "#a.timer",
                                              "a@#.service", "a@b#.service", "#@.service", "ab@##.mount",
                                              "x#@y.service", "abc.d#.service", "###.target" };
        unsigned n = 0;

        for (unsigned c = 1; c < 256; c++)
                for (size_t i = 0; i < ELEMENTSOF(shapes); i++) {
                        char name[64];
                        UnitType a = _UNIT_TYPE_INVALID, b = _UNIT_TYPE_INVALID;
                        int fast, slow;

                        for (size_t k = 0; k <= strlen(shapes[i]); k++)
                                name[k] = shapes[i][k] == '#' ? (char) c : shapes[i][k];
                        fast = unit_name_classify_type(name, &a);
                        slow = classify_slowly(name, &b);
                        CHECK_INT_EQ(fast, slow);
                        if (fast >= 0)
                                CHECK_INT_EQ(a, b);
                        n += fast >= 0;
                }
        CHECK(n > 62 * ELEMENTSOF(shapes) / 2); /* letters and digits everywhere, at least */
}

/* Names long enough for the sixteen-byte classification: every byte at
 * every place of prefixes of 1 to 70 bytes (one load masked at the
 * suffix, whole loads, an overlapping last load), also beside an '@', and
 * near the length limit; by strlen() and by the length given. */
TEST(unit_name_every_byte_long) {
        static const char *const suffixes[] = { ".service", ".automount", ".d.socket", "@x.timer", "@.path" };
        static const size_t lengths[] = { 1, 2, 7, 8, 9, 15, 16, 17, 23, 31, 32, 33, 47, 48, 49, 63, 64, 65, 70, 240, 246 };
        unsigned valid = 0, total = 0;

        for (size_t li = 0; li < ELEMENTSOF(lengths); li++)
                for (size_t si = 0; si < ELEMENTSOF(suffixes); si++)
                        for (size_t pos = 0; pos < lengths[li]; pos += lengths[li] > 70 ? 7 : 1)
                                for (unsigned c = 1; c < 256; c++)
                                        for (int with_at = 0; with_at < 2; with_at++) {
                                                char name[300];
                                                size_t m = lengths[li];
                                                UnitType a = _UNIT_TYPE_INVALID, b = _UNIT_TYPE_INVALID,
                                                         t = _UNIT_TYPE_INVALID;
                                                int fast, fast_n, slow;

                                                memset(name, 'a', m);
                                                if (with_at)
                                                        name[(pos + m / 2 + 1) % m] = '@';
                                                name[pos] = (char) c;
                                                strcpy(name + m, suffixes[si]);
                                                fast = unit_name_classify_type(name, &a);
                                                fast_n = unit_name_classify_type_n(name, strlen(name), &t);
                                                slow = classify_slowly(name, &b);
                                                CHECK_INT_EQ(fast, slow);
                                                CHECK_INT_EQ(fast_n, slow);
                                                if (fast >= 0)
                                                        CHECK_INT_EQ(a, b);
                                                if (fast_n >= 0)
                                                        CHECK_INT_EQ(t, b);
                                                if (fast != slow || fast_n != slow) {
                                                        fprintf(stderr, "  name '%s' (byte %u at %zu)\n", name, c, pos);
                                                        return;
                                                }
                                                valid += fast >= 0;
                                                total++;
                                        }
        CHECK(valid > total / 5 && valid < total);
}

TESTS_MAIN(T(unit_name_validity), T(unit_name_every_byte), T(unit_name_every_byte_long), T(unit_name_length), T(unit_name_parts), T(unit_name_unescaping),
           T(booleans), T(paths), T(simplify))
