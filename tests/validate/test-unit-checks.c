/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/macro.h"
#include "tests.h"
#include "validate/unit-checks.h"
#include "validate/unit-name-path.h"

/* Vectors of systemd's test-unit-name.c (unit_name_from_path). */
TEST(name_from_path) {
        static const struct {
                const char *path, *suffix, *name;
        } v[] = {
                { "/waldo", ".mount", "waldo.mount" },
                { "/waldo/quuix", ".mount", "waldo-quuix.mount" },
                { "/waldo/quuix/", ".mount", "waldo-quuix.mount" },
                { "", ".mount", "-.mount" },
                { "/", ".mount", "-.mount" },
                { "///", ".mount", "-.mount" },
                { "/foo/../bar", ".mount", NULL },
                { "/foo/./bar", ".mount", "foo-bar.mount" },
                { "/--", ".mount", "\\x2d\\x2d.mount" },
                { "/.hidden/x", ".automount", "\\x2ehidden-x.automount" },
                { "/a.b/c.d", ".mount", "a.b-c.d.mount" },
                { "/dev/disk/by-uuid/1234", ".swap", "dev-disk-by\\x2duuid-1234.swap" },
                { "/a b/\xc3\xbc", ".mount", "a\\x20b-\\xc3\\xbc.mount" },
                { "relative", ".mount", NULL },
        };

        for (size_t i = 0; i < ELEMENTSOF(v); i++) {
                char *s = NULL;
                int r = unit_name_from_path(v[i].path, v[i].suffix, &s);

                if (!v[i].name)
                        CHECK_INT_EQ(r, -EINVAL);
                else {
                        CHECK_INT_EQ(r, 0);
                        CHECK_STR_EQ(s, v[i].name);
                }
                free(s);
        }
}

typedef struct Case {
        unsigned version;
        const char *name;
        const char *unit;
        const char *dropin;    /* NULL: none */
        const char *check;     /* the first finding, NULL: none */
        const char *load_state;
        unsigned line;         /* of the first finding */
} Case;

/* One case per check, with the nearest unit that passes beside it. */
static const Case check_cases[] = {
        /* names */
        { 252, "mnt-x@y.mount", "[Mount]\nWhat=/x\n", NULL, "name.instance", "error", 0 },
        { 252, "a@.slice", "[Slice]\n", NULL, "name.instance", "error", 0 },
        { 252, "a@b.timer", "[Timer]\nOnBootSec=5\n", NULL, NULL, "loaded", 0 },
        { 252, "x.scope", "[Scope]\n", NULL, "scope.file", "not-found", 0 },
        { 252, "a--b.slice", "[Slice]\n", NULL, "slice.name", "error", 0 },
        { 252, "-a.slice", "[Slice]\n", NULL, "slice.name", "error", 0 },
        { 252, "a-.slice", "[Slice]\n", NULL, "slice.name", "error", 0 },
        { 252, "a-b.slice", "[Slice]\n", NULL, NULL, "loaded", 0 },
        { 252, "-.slice", "[Slice]\n", NULL, NULL, "loaded", 0 },
        /* timers */
        { 252, "t.timer", "[Timer]\nAccuracySec=1\n", NULL, "timer.no-trigger", "bad-setting", 0 },
        { 252, "t.timer", "[Timer]\nOnBootSec=5\nOnCalendar=\n", NULL, "timer.no-trigger", "bad-setting", 3 },
        { 252, "t.timer", "[Timer]\nOnCalendar=daily\nOnUnitActiveSec=\nOnBootSec=5\n", NULL, NULL, "loaded", 0 },
        { 252, "t.timer", "[Timer]\nOnBootSec=5\n", "[Timer]\nOnActiveSec=\n", "timer.no-trigger", "bad-setting", 2 },
        { 252, "t.timer", "[Timer]\nOnClockChange=yes\n", NULL, NULL, "loaded", 0 },
        /* paths */
        { 252, "p.path", "[Path]\nMakeDirectory=yes\n", NULL, "path.no-path", "bad-setting", 0 },
        { 252, "p.path", "[Path]\nPathExists=/x\nPathExists=\n", NULL, "path.no-path", "bad-setting", 3 },
        { 252, "p.path", "[Path]\nDirectoryNotEmpty=/x\n", NULL, NULL, "loaded", 0 },
        /* sockets */
        { 252, "s.socket", "[Socket]\nBacklog=5\n", NULL, "socket.no-listen", "bad-setting", 0 },
        { 252, "s.socket", "[Socket]\nListenStream=/run/s\nListenStream=\n", NULL, "socket.no-listen", "bad-setting", 3 },
        { 252, "s.socket", "[Socket]\nListenStream=/run/s\nAccept=yes\nService=x.service\n", NULL,
          "socket.accept-service", "bad-setting", 4 },
        { 252, "s.socket", "[Socket]\nListenStream=/run/s\nService=x.service\n", NULL, NULL, "loaded", 0 },
        { 252, "s.socket", "[Socket]\nListenDatagram=/run/s\nAccept=yes\n", NULL, "socket.accept-non-accepting",
          "bad-setting", 3 },
        { 252, "s.socket", "[Socket]\nListenSequentialPacket=/run/s\nAccept=yes\n", NULL, NULL, "loaded", 0 },
        { 252, "s.socket", "[Socket]\nListenStream=5\nAccept=yes\nMaxConnections=0\n", NULL,
          "socket.accept-max-connections", "bad-setting", 3 },
        { 252, "s.socket", "[Socket]\nListenStream=5\nSymlinks=/run/x\n", NULL, "socket.symlinks", "bad-setting", 3 },
        { 252, "s.socket", "[Socket]\nListenFIFO=/run/f\nSymlinks=/run/x\n", NULL, NULL, "loaded", 0 },
        { 252, "s.socket", "[Socket]\nListenStream=/run/s\nPAMName=login\nKillMode=mixed\n", NULL,
          "exec.pam-kill-mode", "bad-setting", 3 },
        { 257, "s.socket", "[Socket]\nListenStream=/run/s\nPAMName=login\nKillMode=mixed\n", NULL, NULL, "loaded", 0 },
        { 257, "s.socket", "[Socket]\nListenStream=/run/s\nPAMName=login\nKillMode=process\n", NULL,
          "exec.pam-kill-mode", "bad-setting", 3 },
        { 252, "mnt-x.mount", "[Mount]\nWhat=/x\nPAMName=login\nKillMode=mixed\n", NULL, "exec.pam-kill-mode",
          "bad-setting", 3 },
        { 252, "dev-x.swap", "[Swap]\nPAMName=login\nKillMode=process\n", NULL, "exec.pam-kill-mode", "bad-setting", 2 },
        /* mounts, automounts, swaps */
        { 252, "mnt-x.mount", "[Mount]\nWhat=/dev/x\nWhere=/mnt/y\n", NULL, "mount.where-name", "bad-setting", 3 },
        { 252, "mnt-a\\x2db.mount", "[Mount]\nWhat=/dev/x\nWhere=/mnt//a-b/\n", NULL, NULL, "loaded", 0 },
        { 252, "mnt-x.mount", "[Mount]\nWhere=/mnt/x\n", NULL, "mount.no-what", "bad-setting", 0 },
        { 252, "mnt-x.mount", "[Mount]\nWhat=/dev/x\n", NULL, NULL, "loaded", 0 },
        { 252, "proc.mount", "[Mount]\nWhat=proc\n", NULL, "mount.api-file-system", "bad-setting", 0 },
        { 252, "sys-fs-cgroup-x.mount", "[Mount]\nWhat=x\n", NULL, "mount.api-file-system", "bad-setting", 0 },
        { 252, "run-host-x.mount", "[Mount]\nWhat=x\n", NULL, "mount.api-file-system", "bad-setting", 0 },
        { 252, "run-hostx.mount", "[Mount]\nWhat=x\n", NULL, NULL, "loaded", 0 },
        { 252, "x.automount", "[Automount]\nWhere=/y\n", NULL, "automount.where-name", "bad-setting", 2 },
        { 252, "-.automount", "[Automount]\n", NULL, "automount.root", "error", 0 },
        /* MaxConnections=0: 252 only with Accept=yes, 257 always */
        { 252, "s.socket", "[Socket]\nListenStream=/run/s\nMaxConnections=0\n", NULL, NULL, "loaded", 0 },
        { 257, "s.socket", "[Socket]\nListenStream=/run/s\nMaxConnections=0\n", NULL, "socket.max-connections",
          "bad-setting", 3 },
        { 257, "s.socket", "[Socket]\nListenDatagram=/run/s\nAccept=yes\nMaxConnections=0\n", NULL,
          "socket.max-connections", "bad-setting", 4 },
        { 252, "s.socket", "[Socket]\nListenStream=/run/s\nAccept=yes\nMaxConnections=0\n", NULL,
          "socket.accept-max-connections", "bad-setting", 3 },
        { 257, "s.socket", "[Socket]\nListenStream=/run/s\nMaxConnections=0\nMaxConnections=0x10\n", NULL, NULL,
          "loaded", 0 },
        { 257, "s.socket", "[Socket]\nListenStream=/run/s\nMaxConnections=0\nMaxConnections=1x\nMaxConnections=+5\n",
          NULL, NULL, "loaded", 0 },
        { 257, "s.socket", "[Socket]\nListenStream=/run/s\nMaxConnections=5\nMaxConnections=+0\n", NULL,
          "socket.max-connections", "bad-setting", 4 },
        /* socket paths with "..": refused when mount dependencies are added */
        { 252, "s.socket", "[Socket]\nListenStream=/run/../x\n", NULL, "socket.path-dotdot", "error", 2 },
        { 257, "s.socket", "[Socket]\nListenDatagram=/run/x/..\nSymlinks=/y\n", NULL, "socket.path-dotdot", "error", 2 },
        { 252, "s.socket", "[Socket]\nListenSequentialPacket=/a/../b\nListenStream=\nListenStream=/run/x\n", NULL, NULL,
          "loaded", 0 },
        { 252, "s.socket", "[Socket]\nListenStream=/run/./x\nListenStream=@/a/../b\nListenStream=/run//y\n", NULL, NULL,
          "loaded", 0 },
        { 252, "dev-sdb.swap", "[Swap]\nWhat=/dev/sdc\n", NULL, "swap.what-name", "bad-setting", 2 },
        { 252, "dev-sdb.swap", "[Swap]\nWhat=/dev/sdb\n", NULL, NULL, "loaded", 0 },
        /* services */
        { 252, "s.service", "[Service]\nType=simple\n", NULL, "service.no-command", "bad-setting", 0 },
        { 252, "s.service", "[Service]\nExecStop=/bin/true\n", NULL, "service.nothing-remains", "bad-setting", 0 },
        { 252, "s.service", "[Service]\nExecStop=/bin/true\nRemainAfterExit=yes\n", NULL, NULL, "loaded", 0 },
        { 252, "s.service", "[Service]\nExecStop=/bin/true\nRemainAfterExit=yes\nType=exec\n", NULL,
          "service.no-exec-start", "bad-setting", 4 },
        { 252, "s.service", "[Service]\nExecStart=/bin/a\nExecStart=/bin/b\n", NULL,
          "service.multiple-exec-start", "bad-setting", 3 },
        { 252, "s.service", "[Service]\nExecStart=/bin/a ; /bin/b\n", NULL, "service.multiple-exec-start",
          "bad-setting", 2 },
        { 252, "s.service", "[Service]\nType=oneshot\nExecStart=/bin/a\nExecStart=/bin/b\n", NULL, NULL, "loaded", 0 },
        { 252, "s.service", "[Service]\nExecStart=/bin/a\nExecStart=\nExecStart=/bin/b\n", NULL, NULL, "loaded", 0 },
        { 252, "s.service", "[Service]\nType=oneshot\nRestart=always\nExecStart=/bin/a\n", NULL,
          "service.oneshot-restart", "bad-setting", 3 },
        { 252, "s.service", "[Service]\nType=oneshot\nRestart=on-failure\nExecStart=/bin/a\n", NULL, NULL, "loaded", 0 },
        { 243, "s.service", "[Service]\nType=oneshot\nRestart=on-failure\nExecStart=/bin/a\n", NULL,
          "service.oneshot-restart", "bad-setting", 3 },
        { 252, "s.service", "[Service]\nType=oneshot\nExitType=cgroup\nExecStart=/bin/a\n", NULL,
          "service.oneshot-exit-cgroup", "bad-setting", 3 },
        { 252, "s.service", "[Service]\nType=dbus\nExecStart=/bin/a\n", NULL, "service.dbus-no-bus-name",
          "bad-setting", 2 },
        { 252, "s.service", "[Service]\nBusName=org.x\nExecStart=/bin/a\n", NULL, NULL, "loaded", 0 },
        { 252, "s.service", "[Service]\nExecStart=/bin/a\nPAMName=login\nKillMode=process\n", NULL,
          "service.pam-kill-mode", "bad-setting", 3 },
        { 257, "s.service", "[Service]\nExecStart=/bin/a\nPAMName=login\nKillMode=process\n", NULL,
          "exec.pam-kill-mode", "bad-setting", 3 },
        { 252, "s.service", "[Service]\nExecStart=/bin/a\nPAMName=login\nKillMode=mixed\n", NULL, NULL, "loaded", 0 },
        { 257, "s.service", "[Service]\nType=forking\nPrivatePIDs=yes\nExecStart=/bin/a\n", NULL,
          "service.forking-private-pids", "bad-setting", 3 },
        { 252, "s.service", "[Service]\nType=forking\nPrivatePIDs=yes\nExecStart=/bin/a\n", NULL, NULL, "loaded", 0 },
        { 257, "s.service", "[Service]\nExecStart=/bin/a\nDynamicUser=yes\nWorkingDirectory=~\n", NULL,
          "exec.dynamic-user-home", "bad-setting", 4 },
        { 252, "s.service", "[Service]\nExecStart=/bin/a\nDynamicUser=yes\nWorkingDirectory=~\n", NULL, NULL,
          "loaded", 0 },
        { 252, "s.service", "[Service]\nType=oneshot\nRuntimeMaxSec=5\nExecStart=/bin/a\n", NULL,
          "service.oneshot-runtime-max", "loaded", 3 },
        { 252, "s.service", "[Service]\nExecStart=/bin/a\nUSBFunctionStrings=/x\n", NULL, "service.usb-function",
          "loaded", 3 },
        /* lines systemd ignores or that end a drop-in do not count */
        { 252, "s.service", "[Service]\nType=dbus\nType=bogus\nExecStart=/bin/a\n", NULL,
          "service.dbus-no-bus-name", "bad-setting", 2 },
        { 252, "s.service", "[Service]\nExecStart=/bin/a\n", "[Service]\nUser=a:b\nExecStart=/bin/b\n", NULL,
          "loaded", 0 },
        { 252, "s.service", "[Service]\nExecStart=/bin/a\n", "[Service]\nExecStart=\n", "service.no-command",
          "bad-setting", 0 },
        /* a fatal line in the unit file: no unit-level check */
        { 252, "s.service", "[Service]\nUser=a:b\n", NULL, NULL, "bad-setting", 0 },
};

static UnitFile *parse(const char *name, const char *text, bool dropin) {
        size_t n = strlen(text);
        char *data = malloc(n + 1);
        UnitFile *f = NULL;

        if (!data)
                abort();
        memcpy(data, text, n + 1);
        if (unit_file_parse(data, n, dropin ? "over.conf" : name, name, dropin, &f) < 0)
                abort();
        return f;
}

TEST(checks) {
        for (size_t i = 0; i < ELEMENTSOF(check_cases); i++) {
                const Case *c = &check_cases[i];
                UnitFile *files[2] = { parse(c->name, c->unit, false), c->dropin ? parse(c->name, c->dropin, true) : NULL };
                UnitCheckResult res;
                const char *got;

                CHECK_INT_EQ(unit_checks_run(c->name, (const UnitFile *const *) files, NULL, c->dropin ? 2 : 1, c->version,
                                             &res), 0);
                got = res.n > 0 ? res.findings[0].check->name : NULL;
                if ((got == NULL) != (c->check == NULL) || (got && !streq(got, c->check)) ||
                    !streq(res.load_state, c->load_state) || (got && res.findings[0].line != c->line)) {
                        fprintf(stderr, "case %zu (%s, v%u): got %s/%s line %u, want %s/%s line %u\n", i, c->name,
                                c->version, got ? got : "-", res.load_state, got ? res.findings[0].line : 0,
                                c->check ? c->check : "-", c->load_state, c->line);
                        tests_failed++;
                }
                unit_file_free(files[0]);
                unit_file_free(files[1]);
        }
}

/* A caller that classified the name already (the filter, once per unit)
 * gets the same result from unit_checks_run_classified(), also for names
 * systemd does not accept, whose type is then not looked at. */
TEST(classified) {
        static const char *const bad_names[] = { "", "x", "@a.service", "a.nosuchtype", "a b.service", "service" };

        for (size_t i = 0; i < ELEMENTSOF(check_cases) + ELEMENTSOF(bad_names); i++) {
                const Case *c = &check_cases[i < ELEMENTSOF(check_cases) ? i : 0];
                const char *name = i < ELEMENTSOF(check_cases) ? c->name : bad_names[i - ELEMENTSOF(check_cases)];
                UnitFile *files[2] = { parse(c->name, c->unit, false), c->dropin ? parse(c->name, c->dropin, true) : NULL };
                UnitCheckResult plain, classified;
                UnitType type = UNIT_SOCKET;    /* must be ignored for an invalid name */
                int kind = unit_name_classify_type(name, &type);

                CHECK_INT_EQ(unit_checks_run(name, (const UnitFile *const *) files, NULL, c->dropin ? 2 : 1,
                                             c->version, &plain), 0);
                CHECK_INT_EQ(unit_checks_run_classified(name, kind, type, (const UnitFile *const *) files, NULL,
                                                        c->dropin ? 2 : 1, c->version, &classified), 0);
                CHECK_INT_EQ(plain.n, classified.n);
                CHECK(streq(plain.load_state, classified.load_state));
                CHECK(plain.refused_by_line == classified.refused_by_line);
                for (size_t k = 0; k < plain.n && k < classified.n; k++) {
                        CHECK(plain.findings[k].check == classified.findings[k].check);
                        CHECK_INT_EQ(plain.findings[k].line, classified.findings[k].line);
                }
                unit_file_free(files[0]);
                unit_file_free(files[1]);
        }
}

/* Every check has a name, a message and a load state that fits its effect. */
TEST(table) {
        for (int id = 0; id < _UNIT_CHECK_MAX; id++) {
                const UnitCheck *c = unit_check_get((UnitCheckId) id);

                CHECK(c && (int) c->id == id && c->name && c->message && c->types != 0);
                CHECK(streq(c->load_state, "loaded") == (c->effect == UNIT_CHECK_WARNING));
                CHECK(c->until == 0 || c->since <= c->until);
        }
        CHECK(unit_check_get(_UNIT_CHECK_MAX) == NULL);
        CHECK(!unit_check_applies(unit_check_get(UNIT_CHECK_SERVICE_FORKING_PRIVATE_PIDS), 256));
        CHECK(unit_check_applies(unit_check_get(UNIT_CHECK_SERVICE_FORKING_PRIVATE_PIDS), 257));
        CHECK(unit_check_applies(unit_check_get(UNIT_CHECK_SERVICE_ONESHOT_RESTART_ANY), 243));
        CHECK(!unit_check_applies(unit_check_get(UNIT_CHECK_SERVICE_ONESHOT_RESTART_ANY), 244));
}

TESTS_MAIN(T(name_from_path), T(checks), T(classified), T(table))
