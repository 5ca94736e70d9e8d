/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "basic/macro.h"
#include "tests.h"
#include "validate/directive-table.h"

TEST(lookup) {
        const Directive *d;

        d = directive_lookup(UNIT_SERVICE, "Service", "User");
        CHECK(d && d->kind == DIRECTIVE_USER && d->section_id == DIRECTIVE_SECTION_TYPE && !directive_values(d));
        CHECK_STR_EQ(directive_name(d), "User");
        CHECK_STR_EQ(directive_section(d, UNIT_SOCKET), "Socket");
        CHECK(directive_lookup(UNIT_SOCKET, "Socket", "User") == d);
        CHECK(directive_lookup(UNIT_MOUNT, "Mount", "User") == d);
        CHECK(directive_lookup(UNIT_SWAP, "Swap", "User") == d);
        CHECK(!directive_lookup(UNIT_TIMER, "Timer", "User"));
        CHECK(!directive_lookup(UNIT_SERVICE, "Socket", "User")); /* wrong section for the type */
        CHECK(!directive_lookup(UNIT_SERVICE, "Unit", "User"));
        CHECK(!directive_lookup(UNIT_SERVICE, "Service", "user")); /* keys are case-sensitive */
        CHECK(!directive_lookup(UNIT_SERVICE, "service", "User"));
        CHECK(directive_lookup(_UNIT_TYPE_INVALID, "Socket", "User") == d);

        d = directive_lookup(UNIT_TIMER, "Unit", "After");
        CHECK(d && d->kind == DIRECTIVE_UNIT_NAME_LIST && d->empty == DIRECTIVE_EMPTY_IGNORED && d->list);
        CHECK_STR_EQ(directive_section(d, UNIT_TIMER), "Unit");
        CHECK(directive_lookup(UNIT_SERVICE, "Install", "WantedBy"));
        CHECK(!directive_lookup(UNIT_SERVICE, "Install", "After"));

        /* Same name, different meaning per type. */
        d = directive_lookup(UNIT_SERVICE, "Service", "Type");
        CHECK(d && d->kind == DIRECTIVE_ENUM && directive_values(d));
        /* The values, a nulstr in the string pool: the words in the order of directives.tsv. */
        CHECK_STR_EQ(directive_values(d), "simple");
        CHECK(nulstr_contains(directive_values(d), "oneshot") && nulstr_contains(directive_values(d), "notify"));
        CHECK(!nulstr_contains(directive_values(d), "simpl") && !nulstr_contains(directive_values(d), ""));
        d = directive_lookup(UNIT_MOUNT, "Mount", "Type");
        CHECK(d && d->kind == DIRECTIVE_STRING);
        d = directive_lookup(UNIT_SOCKET, "Socket", "Service");
        CHECK(d && d->kind == DIRECTIVE_UNIT_NAME && directive_values(d) && streq(directive_values(d), ".service"));
        CHECK(!directive_lookup(UNIT_SERVICE, "Service", "Service"));

        CHECK(directive_name_known("ExecStart"));
        CHECK(directive_name_known("WantedBy"));
        CHECK(!directive_name_known("ExecStartt"));
        CHECK(!directive_name_known(NULL));
        CHECK(!directive_lookup(UNIT_SERVICE, NULL, "User"));
}

TEST(fatal_lists) {
        /* reference §5, per version */
        static const struct {
                UnitType type;
                const char *section, *key;
                unsigned since, until;
                bool dash;
        } v[] = {
                { UNIT_SERVICE, "Service", "ExecStart", 234, 0, true },
                { UNIT_SERVICE, "Service", "ExecStartPre", 234, 0, true },
                { UNIT_SERVICE, "Service", "ExecCondition", 234, 0, true },
                { UNIT_SERVICE, "Service", "ExecReload", 234, 0, true },
                { UNIT_SERVICE, "Service", "ExecStop", 234, 0, true },
                { UNIT_SERVICE, "Service", "ExecStopPost", 234, 0, true },
                { UNIT_SOCKET, "Socket", "ExecStartPre", 234, 0, true },
                { UNIT_SOCKET, "Socket", "ExecStopPre", 234, 0, true },
                { UNIT_SERVICE, "Service", "WorkingDirectory", 234, 0, true },
                { UNIT_SERVICE, "Service", "SELinuxContext", 234, 0, true },
                { UNIT_SERVICE, "Service", "AppArmorProfile", 234, 0, true },
                { UNIT_SERVICE, "Service", "SmackProcessLabel", 234, 0, true },
                { UNIT_SERVICE, "Service", "User", 234, 0, false },
                { UNIT_SERVICE, "Service", "Group", 234, 0, false },
                { UNIT_SERVICE, "Service", "SupplementaryGroups", 234, 0, false },
                { UNIT_SOCKET, "Socket", "SocketUser", 234, 0, false },
                { UNIT_SOCKET, "Socket", "SocketGroup", 234, 0, false },
                { UNIT_SERVICE, "Service", "RootDirectory", 234, 0, false },
                { UNIT_SERVICE, "Service", "RootImage", 234, 0, false },
                { UNIT_SERVICE, "Service", "RootVerity", 246, 0, false },
                { UNIT_SERVICE, "Service", "DynamicUser", 234, 0, false },
                { UNIT_MOUNT, "Mount", "DynamicUser", 234, 0, false },
                { UNIT_SOCKET, "Socket", "Service", 234, 246, false },
                { UNIT_SERVICE, "Service", "StandardOutput", 239, 246, false },
                { UNIT_SERVICE, "Service", "StandardInput", 239, 246, false },
                { UNIT_SERVICE, "Service", "StandardError", 239, 246, false },
                { UNIT_SERVICE, "Service", "PrivateTmp", 0, 0, false },
                { UNIT_SERVICE, "Service", "NoNewPrivileges", 0, 0, false },
                { UNIT_SERVICE, "Service", "ProtectSystem", 0, 0, false },
                { UNIT_SERVICE, "Unit", "Description", 0, 0, false },
        };

        for (size_t i = 0; i < ELEMENTSOF(v); i++) {
                const Directive *d = directive_lookup(v[i].type, v[i].section, v[i].key);

                if (!d) {
                        fprintf(stderr, "missing %s\n", v[i].key);
                        tests_failed++;
                        continue;
                }
                CHECK_INT_EQ(d->fatal_since, v[i].since);
                CHECK_INT_EQ(d->fatal_until, v[i].until);
                CHECK_INT_EQ(d->dash_escape, v[i].dash);
                CHECK(!directive_is_fatal(d, 233));
                if (v[i].since) {
                        CHECK(directive_is_fatal(d, v[i].since));
                        CHECK(!directive_is_fatal(d, v[i].since - 1));
                        CHECK_INT_EQ(directive_is_fatal(d, 252), v[i].until == 0);
                        if (v[i].until)
                                CHECK(!directive_is_fatal(d, v[i].until + 1));
                } else
                        CHECK(!directive_is_fatal(d, 252));
        }
}

TEST(empties) {
        const Directive *d;

        d = directive_lookup(UNIT_SERVICE, "Service", "DynamicUser");
        CHECK(d && d->empty == DIRECTIVE_EMPTY_INVALID);
        d = directive_lookup(UNIT_SERVICE, "Service", "User");
        CHECK(d && d->empty == DIRECTIVE_EMPTY_RESETS);
        d = directive_lookup(UNIT_SERVICE, "Service", "ExecStart");
        CHECK(d && d->empty == DIRECTIVE_EMPTY_RESETS && d->list);
        d = directive_lookup(UNIT_SERVICE, "Service", "PrivateDevices");
        CHECK(d && d->kind == DIRECTIVE_BOOL && d->empty == DIRECTIVE_EMPTY_INVALID);
        d = directive_lookup(UNIT_SERVICE, "Unit", "Wants");
        CHECK(d && d->empty == DIRECTIVE_EMPTY_IGNORED);
        d = directive_lookup(UNIT_SOCKET, "Socket", "Service");
        CHECK(d && d->empty == DIRECTIVE_EMPTY_INVALID);
}

TEST(iteration) {
        size_t n = 0;
        const Directive *d, *prev = NULL;

        for (size_t i = 0; (d = directive_get(i)); i++) {
                n++;
                CHECK(directive_name(d)[0]);
                CHECK(d->types != 0);
                CHECK(directive_kind_to_string(d->kind));
                CHECK(d->section_id == DIRECTIVE_SECTION_UNIT || d->section_id == DIRECTIVE_SECTION_INSTALL ||
                      d->section_id == DIRECTIVE_SECTION_TYPE);
                if (d->kind == DIRECTIVE_ENUM)
                        CHECK(directive_values(d) && directive_values(d)[0]);
                if (prev)
                        CHECK(strcmp(directive_name(prev), directive_name(d)) <= 0);
                /* every entry must be found again by lookup */
                for (int t = 0; t < _UNIT_TYPE_MAX; t++)
                        if (d->types & UNIT_TYPE_BIT(t))
                                CHECK(directive_lookup((UnitType) t, directive_section(d, (UnitType) t), directive_name(d)) == d);
                prev = d;
        }
        CHECK_INT_EQ(n, directive_count());
        CHECK(n > 400);
}

/* The name hash finds every name, and nothing that differs from one in a
 * single byte, in its length, or in the middle of a long name (which the
 * first and last eight bytes do not cover). */
TEST(name_hash) {
        const Directive *d;

        for (size_t i = 0; (d = directive_get(i)); i++) {
                char buf[64];
                size_t n = strlen(directive_name(d));

                CHECK_INT_EQ(directive_name_find(directive_name(d)), d->name_id);
                CHECK_INT_EQ(directive_section_from_name(directive_section(d, _UNIT_TYPE_INVALID)) >= 0, 1);
                if (n + 2 > sizeof(buf))
                        continue;
                for (size_t k = 0; k < n; k++) {
                        memcpy(buf, directive_name(d), n + 1);
                        buf[k] ^= 0x20; /* the other case (or a punctuation character) */
                        CHECK_INT_EQ(directive_name_find(buf), -1);
                }
                memcpy(buf, directive_name(d), n + 1);
                buf[n - 1] = '\0';
                if (!directive_name_known(buf))
                        CHECK_INT_EQ(directive_name_find(buf), -1);
                memcpy(buf, directive_name(d), n);
                buf[n] = 'x';
                buf[n + 1] = '\0';
                if (!directive_name_known(buf))
                        CHECK_INT_EQ(directive_name_find(buf), -1);
        }
        CHECK_INT_EQ(directive_name_find(""), -1);
        CHECK_INT_EQ(directive_name_find("X-Foo"), -1);
        /* Same length, first and last eight bytes as a real name. */
        CHECK(directive_name_find("ProtectKernelTunables") >= 0);
        CHECK_INT_EQ(directive_name_find("ProtectKeXnelTunables"), -1);
        CHECK_INT_EQ(directive_section_from_name("Service"), DIRECTIVE_SECTION_TYPE + UNIT_SERVICE);
        CHECK_INT_EQ(directive_section_from_name("Unit"), DIRECTIVE_SECTION_UNIT);
        CHECK_INT_EQ(directive_section_from_name("Sxxx"), _DIRECTIVE_SECTION_INVALID);
        CHECK_INT_EQ(directive_section_from_name("S"), _DIRECTIVE_SECTION_INVALID);
        CHECK_INT_EQ(directive_section_from_name("Servic"), _DIRECTIVE_SECTION_INVALID);
        CHECK_INT_EQ(directive_section_from_name("X-Foo"), _DIRECTIVE_SECTION_INVALID);
        CHECK_INT_EQ(directive_section_from_name(""), _DIRECTIVE_SECTION_INVALID);
}

TESTS_MAIN(T(lookup), T(fatal_lists), T(empties), T(iteration), T(name_hash))
