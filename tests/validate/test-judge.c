/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdarg.h>
#include <string.h>

#include "basic/macro.h"
#include "tests.h"
#include "validate/judge.h"
#include "unit/unit-type.h"

typedef struct Case {
        const char *unit;    /* unit name; the type comes from it */
        const char *section, *key, *value;
        unsigned version;
        Verdict verdict;
        int flags;           /* expected extra bits, see below */
} Case;

enum {
        F_INVALID = 1 << 0,
        F_DASH = 1 << 1,
        F_DEFERRED = 1 << 2,
        F_ROOT = 1 << 3,
        F_PARTIAL = 1 << 4,
        F_UNKNOWN = 1 << 5, /* no directive */
};

#define OK VERDICT_OK
#define NOTICE VERDICT_NOTICE
#define RESET VERDICT_RESET
#define IGN VERDICT_IGNORED
#define FATAL VERDICT_FATAL

static void run(const Case *cases, size_t n) {
        for (size_t i = 0; i < n; i++) {
                const Case *c = &cases[i];
                JudgeContext ctx = { .version = c->version, .type = _UNIT_TYPE_INVALID, .unit_name = c->unit };
                _cleanup_(judgement_done) Judgement j = {};
                int flags;

                if (judge_assignment(&ctx, c->section, c->key, c->value, &j) < 0) {
                        fprintf(stderr, "judge_assignment failed\n");
                        tests_failed++;
                        continue;
                }
                flags = (j.invalid ? F_INVALID : 0) | (j.dash_escaped ? F_DASH : 0) |
                        (j.deferred ? F_DEFERRED : 0) | (j.names_root ? F_ROOT : 0) |
                        (j.partial ? F_PARTIAL : 0) | (j.directive ? 0 : F_UNKNOWN);
                if (j.verdict != c->verdict || flags != c->flags) {
                        fprintf(stderr, "v%u %s [%s] %s=%s: got %s/0x%x, want %s/0x%x (%s)\n", c->version,
                                c->unit, c->section, c->key, c->value, verdict_to_string(j.verdict), flags,
                                verdict_to_string(c->verdict), c->flags, j.message ? j.message : "-");
                        tests_failed++;
                }
                if (j.verdict != VERDICT_OK && !j.message) {
                        fprintf(stderr, "v%u %s=%s: no message\n", c->version, c->key, c->value);
                        tests_failed++;
                }
        }
}

/* The "Required behaviour" rows of issue 3, systemd-233 and systemd-252 columns. */
TEST(issue_rows) {
        static const Case cases[] = {
                { "a.service", "Service", "User", "0day", 233, IGN, F_INVALID },
                { "a.service", "Service", "User", "0day", 252, NOTICE, 0 },
                { "a.service", "Service", "ExecStart", "bin/true", 233, IGN, F_INVALID },
                { "a.service", "Service", "ExecStart", "bin/true", 252, FATAL, F_INVALID },
                { "a.service", "Service", "ExecStart", "-bin/true", 233, IGN, F_INVALID },
                { "a.service", "Service", "ExecStart", "-bin/true", 252, IGN, F_INVALID | F_DASH },
                { "a.service", "Service", "WorkingDirectory", "-relative", 233, IGN, F_INVALID },
                { "a.service", "Service", "WorkingDirectory", "-relative", 252, IGN, F_INVALID | F_DASH },
                { "a.service", "Service", "DynamicUser", "maybe", 233, IGN, F_INVALID },
                { "a.service", "Service", "DynamicUser", "maybe", 252, FATAL, F_INVALID },
                { "a.service", "Service", "PrivateTmp", "maybe", 233, IGN, F_INVALID },
                { "a.service", "Service", "PrivateTmp", "maybe", 252, IGN, F_INVALID },
                { "a.socket", "Socket", "Service", "foo.socket", 233, IGN, F_INVALID },
                { "a.socket", "Socket", "Service", "foo.socket", 252, IGN, F_INVALID },
                { "a.service", "Service", "SupplementaryGroups", "wheel 0bad", 233, IGN, F_INVALID | F_PARTIAL },
                { "a.service", "Service", "SupplementaryGroups", "wheel 0bad", 252, NOTICE, 0 },
                /* the drop-in row: the line itself, as judged for a main file */
                { "a.service", "Service", "User", "a:b", 233, IGN, F_INVALID },
                { "a.service", "Service", "User", "a:b", 252, FATAL, F_INVALID },
                { "a.service", "Service", "User", "app", 252, OK, 0 },
                { "a.service", "Service", "User", "", 233, RESET, F_ROOT },
                { "a.service", "Service", "User", "", 252, RESET, F_ROOT },
                { "a@.service", "Service", "User", "%i", 233, OK, F_DEFERRED },
                { "a@.service", "Service", "User", "%i", 252, OK, F_DEFERRED },
                { "a@b.service", "Service", "User", "%i", 252, OK, 0 },
                { "a@0day.service", "Service", "User", "%i", 252, NOTICE, 0 },
        };
        run(cases, ELEMENTSOF(cases));
}

/* Reference §5 "Empirical fatal checks", across versions. */
TEST(reference_fatal_checks) {
        static const unsigned versions[] = { 233, 234, 239, 246, 247, 252 };
        static const struct {
                const char *unit, *section, *key, *value;
                unsigned fatal_from, fatal_until; /* 0 = never / still */
                bool dash;
        } v[] = {
                { "a.service", "Service", "User", "%Z", 236, 0, false }, /* v234/235 keep %Z: still an invalid name */
                { "a.service", "Service", "User", "%i", 234, 0, false },
                { "a.service", "Service", "Group", "65535", 234, 0, false },
                { "a.service", "Service", "SupplementaryGroups", "a b 0day c:d", 234, 0, false },
                { "a.service", "Service", "SELinuxContext", "%Z", 236, 0, false },
                { "a.service", "Service", "AppArmorProfile", "%Z", 236, 0, false },
                { "a.service", "Service", "SmackProcessLabel", "%Z", 236, 0, false },
                { "a.service", "Service", "RootImage", "%Z", 236, 0, false },
                { "a.service", "Service", "RootImage", "rel.img", 234, 0, false },
                { "a.service", "Service", "RootDirectory", "relative", 234, 0, false },
                { "a.service", "Service", "WorkingDirectory", "relative", 234, 0, false },
                { "a.service", "Service", "DynamicUser", "perhaps", 234, 0, false },
                { "a.socket", "Socket", "SocketUser", "a:b", 234, 0, false },
                { "a.socket", "Socket", "ExecStartPre", "rel/x", 234, 0, false },
                { "a.service", "Service", "SELinuxContext", "-%Z", 0, 0, true },
                { "a.service", "Service", "WorkingDirectory", "-relative", 0, 0, true },
                { "a.socket", "Socket", "Service", "foo.socket", 234, 246, false },
                { "a.service", "Service", "StandardOutput", "file:rel", 239, 246, false },
                { "a.service", "Service", "StandardOutput", "fd:a:b", 239, 246, false },
        };

        for (size_t i = 0; i < ELEMENTSOF(v); i++)
                for (size_t k = 0; k < ELEMENTSOF(versions); k++) {
                        unsigned ver = versions[k];
                        bool fatal = v[i].fatal_from && ver >= v[i].fatal_from &&
                                     (!v[i].fatal_until || ver <= v[i].fatal_until);
                        bool dash = v[i].dash && ver >= 234;
                        Case c = { v[i].unit, v[i].section, v[i].key, v[i].value, ver, fatal ? FATAL : IGN,
                                   F_INVALID | (dash ? F_DASH : 0) };

                        /* Before v236 an unknown %Z is kept verbatim: fine for labels. */
                        if (ver < 236 && strstr(v[i].value, "%Z") &&
                            (strstr(v[i].key, "Context") || strstr(v[i].key, "Profile") || strstr(v[i].key, "Label"))) {
                                c.verdict = OK;
                                c.flags = 0;
                        }
                        /* RootImage=%Z before v236: "%Z" is not absolute. */
                        if (ver < 236 && streq(v[i].key, "RootImage") && ver >= 234)
                                c.verdict = FATAL;
                        if (ver < 236 && streq(v[i].key, "User") && streq(v[i].value, "%Z") && ver >= 234)
                                c.verdict = FATAL;
                        /* Before v234 only the bad group is skipped. */
                        if (ver < 234 && streq(v[i].key, "SupplementaryGroups"))
                                c.flags |= F_PARTIAL;
                        run(&c, 1);
                }
}

TEST(more) {
        static const Case cases[] = {
                /* unknown keys and sections */
                { "a.service", "Service", "Foo", "bar", 252, IGN, F_UNKNOWN },
                { "a.service", "Service", "X-Foo", "bar", 252, OK, F_UNKNOWN },
                { "a.service", "X-Mine", "Foo", "bar", 252, OK, F_UNKNOWN },
                { "a.service", "Socket", "ListenStream", "1", 252, IGN, F_UNKNOWN },
                { "a.service", "Service", "execstart", "/bin/true", 252, IGN, F_UNKNOWN },
                { "a.service", "Service", "ExecCondition", "/bin/true", 242, IGN, F_UNKNOWN },
                { "a.service", "Service", "ExecCondition", "/bin/true", 243, OK, 0 },
                /* empty values */
                { "a.service", "Service", "DynamicUser", "", 252, FATAL, F_INVALID },
                { "a.service", "Service", "DynamicUser", "", 233, IGN, F_INVALID },
                { "a.service", "Unit", "After", "", 252, OK, 0 }, /* a silent no-op */
                { "a.service", "Service", "ExecStart", "", 252, RESET, 0 },
                { "a.service", "Service", "Group", "", 252, RESET, 0 },
                { "a.service", "Service", "SupplementaryGroups", "", 252, RESET, 0 },
                { "a.service", "Service", "PrivateTmp", "", 252, IGN, F_INVALID },
                { "a.service", "Service", "StandardOutput", "", 240, IGN, F_INVALID },
                { "a.socket", "Socket", "Service", "", 240, FATAL, F_INVALID },
                { "a.socket", "Socket", "Service", "", 252, IGN, F_INVALID },
                /* user names across eras */
                { "a.service", "Service", "User", "root", 252, OK, F_ROOT },
                { "a.service", "Service", "User", "0", 252, OK, F_ROOT },
                { "a.service", "Service", "User", "00", 245, OK, F_ROOT },
                { "a.service", "Service", "User", "00", 252, FATAL, F_INVALID },
                { "a.service", "Service", "User", "0x10", 245, OK, 0 },
                { "a.service", "Service", "User", "0x10", 252, NOTICE, 0 },
                { "a.service", "Service", "User", "a.b", 242, FATAL, F_INVALID },
                { "a.service", "Service", "User", "a.b", 243, NOTICE, 0 },
                { "a.service", "Service", "User", "a.b", 252, NOTICE, 0 },
                { "a.service", "Service", "User", "%u", 252, OK, F_ROOT },
                { "a.service", "Service", "User", "bin # x", 252, NOTICE, 0 },
                { "a.service", "Service", "User", "\"bin\"", 252, NOTICE, 0 },
                { "a@a\\x3ab.service", "Service", "User", "%I", 252, FATAL, F_INVALID },
                { "a@a\\x3ab.service", "Service", "User", "%i", 252, NOTICE, 0 },
                { "a.service", "Service", "User", "%i", 252, FATAL, F_INVALID },
                { "a.service", "Service", "SupplementaryGroups", "wheel root", 252, OK, F_ROOT },
                { "a.service", "Service", "SupplementaryGroups", "a:b c:d", 233, IGN, F_INVALID },
                { "a.mount", "Mount", "User", "a:b", 252, FATAL, F_INVALID },
                { "a.timer", "Timer", "User", "a:b", 252, IGN, F_UNKNOWN },
                /* exec */
                { "a.service", "Service", "ExecStart", "true", 252, OK, 0 },
                { "a.service", "Service", "ExecStart", "true", 238, FATAL, F_INVALID },
                { "a.service", "Service", "ExecStart", "\"/bin/true", 252, IGN, F_INVALID },
                { "a.service", "Service", "ExecStart", "/bin/true \"x", 252, FATAL, F_INVALID },
                { "a.service", "Service", "ExecStart", "-/bin/true \"x", 252, IGN, F_INVALID | F_DASH },
                { "a.service", "Service", "ExecStart", "/bin/true ; \"/bin/x", 252, IGN, F_INVALID | F_PARTIAL },
                { "a.service", "Service", "ExecStart", "/bin/echo \\q", 252, NOTICE, 0 },
                { "a@.service", "Service", "ExecStart", "/bin/echo %i", 252, OK, F_DEFERRED },
                /* paths, labels, unit names, enums, stdio */
                { "a.service", "Service", "RootDirectory", "/srv/root", 252, OK, 0 },
                { "a.service", "Service", "RootDirectory", "-/srv/root", 252, FATAL, F_INVALID },
                { "a.service", "Service", "RootDirectory", "/a/../b", 252, FATAL, F_INVALID },
                { "a.service", "Service", "RootVerity", "rel", 245, IGN, F_UNKNOWN },
                { "a.service", "Service", "RootVerity", "rel", 246, FATAL, F_INVALID },
                { "a.service", "Service", "TTYPath", "tty1", 252, IGN, F_INVALID },
                { "a.service", "Service", "WorkingDirectory", "~", 252, OK, 0 },
                { "a.service", "Service", "WorkingDirectory", "-~", 252, OK, 0 },
                { "a.service", "Service", "WorkingDirectory", "/var/lib/%N", 252, OK, 0 },
                { "a.service", "Service", "SELinuxContext", "-system_u:system_r:foo_t", 252, OK, 0 },
                { "a.service", "Service", "Slice", "foo.slice", 252, OK, 0 },
                { "a.service", "Service", "Slice", "foo.service", 252, IGN, F_INVALID },
                { "a.service", "Unit", "Wants", "b.service c d.service", 252, IGN, F_INVALID | F_PARTIAL },
                { "a@x.service", "Unit", "Wants", "b@%i.service", 252, OK, 0 },
                { "a.service", "Unit", "Wants", "b@%i.service", 252, OK, 0 }, /* a template: becomes b@a.service */
                { "a.service", "Unit", "Wants", "b@%I.service", 252, IGN, F_INVALID },
                { "a.socket", "Socket", "Service", "foo@.service", 252, IGN, F_INVALID },
                { "a.socket", "Socket", "Service", "foo@bar.service", 240, OK, 0 },
                { "a.service", "Install", "WantedBy", "multi-user.target", 252, OK, 0 },
                { "a.service", "Install", "WantedBy", "bad name", 252, OK, F_INVALID },
                { "a.service", "Service", "Type", "oneshot", 252, OK, 0 },
                { "a.service", "Service", "Type", "Oneshot", 252, IGN, F_INVALID },
                { "a.service", "Service", "ProtectSystem", "strict", 252, OK, 0 },
                { "a.service", "Service", "ProtectSystem", "yes", 252, OK, 0 },
                { "a.service", "Service", "ProtectSystem", "bogus", 252, IGN, F_INVALID },
                { "a.service", "Service", "StandardOutput", "journal", 252, OK, 0 },
                { "a.service", "Service", "StandardOutput", "bogus", 240, IGN, F_INVALID },
                { "a.service", "Service", "StandardOutput", "file:/var/log/x", 240, OK, 0 },
                { "a.service", "Service", "StandardOutput", "append:rel", 240, FATAL, F_INVALID },
                { "a.service", "Service", "StandardOutput", "file:rel", 252, IGN, F_INVALID },
                { "a.service", "Service", "StandardInput", "fd:stdin", 252, OK, 0 },
                { "a.service", "Service", "Nice", "whatever", 252, IGN, F_INVALID },
                { "a.service", "Service", "Nice", "19", 252, OK, 0 },
                { "a.service", "Service", "Environment", "A=1", 252, OK, 0 },
        };
        run(cases, ELEMENTSOF(cases));
}

TEST(strings) {
        CHECK_STR_EQ(verdict_to_string(VERDICT_FATAL), "fatal");
        CHECK(!verdict_to_string((Verdict) 99));
}

/* Words of an enumeration that later versions added ("word^N"). */
TEST(enum_words_by_version) {
        static const Case cases[] = {
                { "a.service", "Service", "Type", "notify-reload", 252, IGN, F_INVALID },
                { "a.service", "Service", "Type", "notify-reload", 253, OK, 0 },
                { "a.service", "Service", "Type", "notify-reload^253", 257, IGN, F_INVALID },
                { "a.service", "Unit", "OnFailureJobMode", "restart-dependencies", 253, IGN, F_INVALID },
                { "a.service", "Unit", "OnFailureJobMode", "restart-dependencies", 254, OK, 0 },
                { "a.service", "Unit", "FailureAction", "kexec", 253, IGN, F_INVALID },
                { "a.service", "Unit", "FailureAction", "kexec", 254, OK, 0 },
                { "a.service", "Unit", "JobTimeoutAction", "soft-reboot", 252, IGN, F_INVALID },
                { "a.service", "Unit", "StartLimitAction", "halt-immediate", 257, OK, 0 },
                { "a.service", "Unit", "FailureAction", "reboot", 252, OK, 0 },
                /* Booleans that grew words. */
                { "a.service", "Service", "PrivateTmp", "disconnected", 256, IGN, F_INVALID },
                { "a.service", "Service", "PrivateTmp", "disconnected", 257, OK, 0 },
                { "a.service", "Service", "PrivateTmp", "yes", 252, OK, 0 },
                { "a.service", "Service", "PrivateUsers", "identity", 252, IGN, F_INVALID },
                { "a.service", "Service", "PrivateUsers", "identity", 257, OK, 0 },
                { "a.service", "Service", "PrivateUsers", "self", 257, OK, 0 },
                { "a.service", "Service", "PrivateUsers", "full", 257, IGN, F_INVALID },
                { "a.service", "Service", "ProtectControlGroups", "strict", 252, IGN, F_INVALID },
                { "a.service", "Service", "ProtectControlGroups", "private", 257, OK, 0 },
                { "a.service", "Service", "ProtectControlGroups", "0", 257, OK, 0 },
        };
        run(cases, ELEMENTSOF(cases));
}

/* judge_format_simple() with its arguments, against vsnprintf(). */
static int fmt_simple(char *buf, size_t size, const char *fmt, ...) {
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = judge_format_simple(buf, size, fmt, ap);
        va_end(ap);
        return r;
}

#define FORMAT_AGREES(size, fmt, ...)                                                                  \
        do {                                                                                           \
                char _a[size], _b[4096];                                                               \
                int _ra = fmt_simple(_a, sizeof _a, fmt, __VA_ARGS__);                                 \
                int _rb = snprintf(_b, sizeof _b, fmt, __VA_ARGS__);                                   \
                if (_ra >= 0 ? (_ra != _rb || memcmp(_a, _b, (size_t) _rb + 1) != 0)                   \
                             : _rb >= 0 && (size_t) _rb < sizeof _a) {                                 \
                        fprintf(stderr, "%s:%d: format '%s': %d '%s', snprintf %d '%s'\n", __FILE__, __LINE__, \
                                fmt, _ra, _ra >= 0 ? _a : "", _rb, _b);                                \
                        tests_failed++;                                                                \
                }                                                                                      \
        } while (0)

/* The judge's messages skip printf for their simple formats: the same
 * text, or a refusal (-1) where only a message too long for the buffer or
 * a conversion it does not do would be. */
TEST(message_format) {
        static char longer[700];
        const char *null = NULL;

        memset(longer, 'x', sizeof longer - 1);
        FORMAT_AGREES(512, "%s=%s is deprecated; systemd %u warns about it", "Key", "value", 252u);
        FORMAT_AGREES(512, "%s= is deprecated; systemd %u warns about it", "K", 0u);
        FORMAT_AGREES(512, "'%s': %s '%%%c'", "%q", "unknown specifier", 'q');
        FORMAT_AGREES(512, "'%s' depends on the instance name", "%i");
        FORMAT_AGREES(512, "unknown key '%s' in section [%s]", "", "Unit");
        FORMAT_AGREES(512, "%u %u %u", 4294967295u, 10u, 9u);
        FORMAT_AGREES(512, "%s", "");
        FORMAT_AGREES(512, "%s%s", "100%", "%s");
        FORMAT_AGREES(512, "a%cb", 'z');
        FORMAT_AGREES(512, "%s|%c|", "\xff\xfe", '\xe9');
        FORMAT_AGREES(512, "%%%%%s", "x");
        {
                /* NULL as glibc prints it. */
                char b[64];

                CHECK_INT_EQ(fmt_simple(b, sizeof b, "'%s' is not a boolean", null), 25);
                CHECK_STR_EQ(b, "'(null)' is not a boolean");
        }
        /* At and about the buffer's size. */
        FORMAT_AGREES(16, "%s", "0123456789abcde");
        FORMAT_AGREES(16, "%s", "0123456789abcdef");
        FORMAT_AGREES(16, "%s!", "0123456789abcde");
        FORMAT_AGREES(16, "0123456789abcde%u", 7u);
        FORMAT_AGREES(16, "0123456789abcd%u", 7u);
        FORMAT_AGREES(16, "0123456789abcd%u", 77u);
        FORMAT_AGREES(16, "0123456789abcde%%%s", "");
        FORMAT_AGREES(16, "0123456789abcd%%%s", "");
        FORMAT_AGREES(16, "0123456789abcd%c", 'x');
        FORMAT_AGREES(512, "'%s' expands to nothing", longer);
        /* Conversions it leaves to vasprintf(). */
        CHECK_INT_EQ(fmt_simple(longer, 64, "%d", 1), -1);
        CHECK_INT_EQ(fmt_simple(longer, 64, "%zu", (size_t) 1), -1);
        CHECK_INT_EQ(fmt_simple(longer, 64, "%5s", "a"), -1);
        CHECK_INT_EQ(fmt_simple(longer, 64, "trailing %", 0), -1);
}

/* The words of a dependency list that are plain valid names are passed
 * without check_unit_name() (check_unit_name_list()'s fast path): each
 * word judged in After= must come out as the same word in a timer's
 * Unit= (the same forms allowed, no type asked for, always judged by
 * check_unit_name()), invalid or not, with the same message; and in
 * Sockets= (".socket" asked for, no template) and WantedBy= (no
 * template) as the rules say. Every byte at a few places of short and
 * long names, '@' and '.' among them, and specifiers. */
static void judge_word(const char *unit, const char *section, const char *key, const char *word, Judgement *ret) {
        JudgeContext ctx = { .version = 252, .type = _UNIT_TYPE_INVALID, .unit_name = unit };

        CHECK_INT_EQ(judge_assignment(&ctx, section, key, word, ret), 0);
}

static bool word_is_name(const char *w, bool allow_template, const char *suffix) {
        const char *dot = strrchr(w, '.'), *at = strchr(w, '@');

        if (!dot || dot == w || strlen(w) >= 256 || unit_type_from_string(dot + 1) < 0 || at == w)
                return false;
        for (const char *p = w; p < dot; p++)
                if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:-_.@\\", *p))
                        return false;
        if (at && at + 1 == dot && !allow_template)
                return false;
        return !suffix || endswith(w, suffix);
}

TEST(unit_name_list_words) {
        static const char *const shapes[] = { "#.service", "a#.socket", "#a.timer", "a@#.service", "#@.socket",
                                              "ab.soc#et", "x.automoun#", "a@.servic#", "a#", "#",
                                              "abcdefghijklmnopq#.socket", "abcdefgh@ijklmnop#.service",
                                              "abcdefghijklmno#@.socket", "abcdefghijklmnopqrstuvwxyz0123456789#" };
        static const char *const specified[] = { "%n", "%N.socket", "%p@x.service", "a%z.service", "%i.target",
                                                  "x@%i.service", "%%.service" };
        unsigned valid = 0, total = 0;

        for (size_t i = 0; i < ELEMENTSOF(shapes) + ELEMENTSOF(specified); i++)
                for (unsigned c = 1; c < 256; c++) {
                        _cleanup_(judgement_done) Judgement list = {}, single = {}, sockets = {}, wanted = {};
                        char w[64];
                        bool spec = i >= ELEMENTSOF(shapes);

                        if (spec) {
                                if (c > 1)
                                        break;
                                strcpy(w, specified[i - ELEMENTSOF(shapes)]);
                        } else {
                                /* Bytes the word splitter reads as syntax are not part of a word. */
                                if (strchr(" \t\n\r\"'\\%;", (int) c))
                                        continue;
                                for (size_t k = 0; k <= strlen(shapes[i]); k++)
                                        w[k] = shapes[i][k] == '#' ? (char) c : shapes[i][k];
                        }
                        judge_word("a@b.service", "Unit", "After", w, &list);
                        judge_word("a@b.timer", "Timer", "Unit", w, &single);
                        CHECK_INT_EQ(list.invalid, single.invalid);
                        CHECK_INT_EQ(list.deferred, single.deferred);
                        CHECK_STR_EQ(list.message ?: "-", single.message ?: "-");
                        total++;
                        if (spec)
                                continue;
                        valid += !list.invalid;
                        CHECK_INT_EQ(!list.invalid, word_is_name(w, true, NULL));
                        judge_word("a.service", "Service", "Sockets", w, &sockets);
                        CHECK_INT_EQ(!sockets.invalid, word_is_name(w, false, ".socket"));
                        judge_word("a.service", "Install", "WantedBy", w, &wanted);
                        CHECK_INT_EQ(!wanted.invalid, word_is_name(w, false, NULL));
                        if (list.invalid != single.invalid || !list.invalid != word_is_name(w, true, NULL) ||
                            !sockets.invalid != word_is_name(w, false, ".socket") ||
                            !wanted.invalid != word_is_name(w, false, NULL)) {
                                fprintf(stderr, "  word '%s' (byte %u)\n", w, c);
                                return;
                        }
                }
        CHECK(valid > 64 * 3 && valid < total);
}

TESTS_MAIN(T(unit_name_list_words), T(enum_words_by_version), T(issue_rows), T(reference_fatal_checks), T(more), T(strings),
           T(message_format))
