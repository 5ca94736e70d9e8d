/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <string.h>

#include "basic/macro.h"
#include "tests.h"
#include "validate/specifier.h"

static void expect(const char *text, SpecifierContext ctx, const char *unit, unsigned v, int r_want,
                   const char *want, bool deferred, bool machine) {
        _cleanup_free_ char *s = NULL;
        SpecifierInfo si;
        int r = specifier_expand(text, ctx, unit, v, &s, &si);

        if (r != r_want || (want && (!s || !streq(s, want))) || si.deferred != deferred || si.machine != machine) {
                fprintf(stderr, "'%s' ctx %d unit %s v%u: r=%d '%s' d=%d m=%d, want r=%d '%s' d=%d m=%d\n", text, ctx,
                        unit ? unit : "(null)", v, r, s ? s : "", si.deferred, si.machine, r_want,
                        want ? want : "", deferred, machine);
                tests_failed++;
        }
}

TEST(expansion) {
        const char *u = "foo-bar@a\\x3ab-c.service";

        expect("%n", SPECIFIER_FULL, u, 252, 0, "foo-bar@a\\x3ab-c.service", false, false);
        expect("%N", SPECIFIER_FULL, u, 252, 0, "foo-bar@a\\x3ab-c", false, false);
        expect("%p %P", SPECIFIER_FULL, u, 252, 0, "foo-bar foo/bar", false, false);
        expect("%i", SPECIFIER_FULL, u, 252, 0, "a\\x3ab-c", false, false);
        expect("%I", SPECIFIER_FULL, u, 252, 0, "a:b/c", false, false);
        expect("%j %J", SPECIFIER_FULL, u, 252, 0, "bar bar", false, false);
        expect("%f", SPECIFIER_FULL, u, 252, 0, "/a:b/c", false, false);
        expect("%f", SPECIFIER_FULL, "var-lib-x.mount", 252, 0, "/var/lib/x", false, false);
        expect("%i|%I", SPECIFIER_FULL, "plain.service", 252, 0, "|", false, false);
        expect("%u %U %g %G %h %t", SPECIFIER_FULL, u, 252, 0, "root 0 root 0 /root /run", false, false);
        expect("%S %C %L %E %T %V", SPECIFIER_FULL, u, 252, 0, "/var/lib /var/cache /var/log /etc /tmp /var/tmp",
               false, false);
        expect("%d", SPECIFIER_FULL, "x.service", 252, 0, "/run/credentials/x.service", false, false);
        expect("%%i %- a%", SPECIFIER_FULL, u, 252, 0, "%i %- a%", false, false);
        expect("100%", SPECIFIER_FULL, u, 252, 0, "100%", false, false);
}

TEST(unknown_and_versions) {
        expect("%Z", SPECIFIER_FULL, "a.service", 252, -EBADSLT, NULL, false, false);
        expect("%9", SPECIFIER_FULL, "a.service", 252, -EBADSLT, NULL, false, false);
        expect("%Z", SPECIFIER_FULL, "a.service", 235, 0, "%Z", false, false); /* kept before v236 */
        expect("%j", SPECIFIER_FULL, "a.service", 238, -EBADSLT, NULL, false, false);
        expect("%j", SPECIFIER_FULL, "a.service", 235, 0, "%j", false, false);
        expect("%j", SPECIFIER_FULL, "a.service", 239, 0, "a", false, false);
        expect("%S", SPECIFIER_FULL, "a.service", 236, 0, "/var/lib", false, false);
        expect("%g", SPECIFIER_FULL, "a.service", 239, -EBADSLT, NULL, false, false);
        expect("%D", SPECIFIER_FULL, "a.service", 252, -EBADSLT, NULL, false, false);
        expect("%D", SPECIFIER_FULL, "a.service", 256, 0, "/usr/share", false, false);
        expect("%I", SPECIFIER_FULL, "a@x\\q.service", 252, -EINVAL, NULL, false, false);
}

TEST(contexts) {
        /* The reduced unit-name table. */
        expect("%i %j %n %N %p %u %U %g %G", SPECIFIER_UNIT_NAME, "a-b@c.service", 252, 0,
               "c b a-b@c.service a-b@c a-b root 0 root 0", false, false);
        expect("%I", SPECIFIER_UNIT_NAME, "a@c.service", 252, -EBADSLT, NULL, false, false);
        expect("%f", SPECIFIER_UNIT_NAME, "a@c.service", 252, -EBADSLT, NULL, false, false);
        expect("%t", SPECIFIER_UNIT_NAME, "a@c.service", 252, -EBADSLT, NULL, false, false);
        expect("%P", SPECIFIER_UNIT_NAME, "a@c.service", 252, -EBADSLT, NULL, false, false);
        expect("%H", SPECIFIER_UNIT_NAME, "a@c.service", 252, 0, "%H", false, true);

        /* Path context: PATH_MAX. */
        {
                char buf[5000];
                memset(buf, 'a', sizeof(buf));
                buf[0] = '/';
                buf[4096] = '\0';
                expect(buf, SPECIFIER_PATH, "a.service", 252, -ENAMETOOLONG, NULL, false, false);
                buf[4095] = '\0';
                expect(buf, SPECIFIER_PATH, "a.service", 252, 0, buf, false, false);
                buf[4095] = 'a';
                expect(buf, SPECIFIER_FULL, "a.service", 252, 0, buf, false, false);
        }
}

TEST(deferred_and_machine) {
        expect("%i", SPECIFIER_FULL, "a@.service", 252, 0, "%i", true, false);
        expect("%I-%n-%N-%f", SPECIFIER_FULL, "a@.service", 252, 0, "%I-%n-%N-%f", true, false);
        expect("%p", SPECIFIER_FULL, "a@.service", 252, 0, "a", false, false);
        expect("%p", SPECIFIER_FULL, NULL, 252, 0, "%p", true, false);
        expect("%u", SPECIFIER_FULL, NULL, 252, 0, "root", false, false);
        expect("%H %m %b %v %a %o %s %y", SPECIFIER_FULL, "a.service", 252, 0, "%H %m %b %v %a %o %s %y", false,
               true);
        CHECK(specifier_known('H', SPECIFIER_FULL, 252));
        CHECK(!specifier_known('l', SPECIFIER_FULL, 245));
        CHECK(!specifier_known('Z', SPECIFIER_FULL, 252));
}

TESTS_MAIN(T(expansion), T(unknown_and_versions), T(contexts), T(deferred_and_machine))
