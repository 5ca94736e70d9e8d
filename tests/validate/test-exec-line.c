/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "basic/macro.h"
#include "tests.h"
#include "validate/exec-line.h"

/* exec_line_check() gives exec_line_parse()'s verdict, only without the
 * commands themselves. */
static void check_agrees(const char *value, unsigned version, const char *unit_name) {
        _cleanup_(exec_line_done) ExecLine a = {}, b = {};

        if (exec_line_parse(value, version, unit_name, &a) < 0 || exec_line_check(value, version, unit_name, &b) < 0) {
                tests_failed++;
                return;
        }
        if (a.severity != b.severity || a.dash_escaped != b.dash_escaped || a.partial != b.partial ||
            a.deferred != b.deferred || a.machine != b.machine || a.unknown_escapes != b.unknown_escapes ||
            a.n_commands != b.n_commands || b.commands || !streq_ptr(a.message, b.message)) {
                fprintf(stderr, "v%u '%s': exec_line_check() differs from exec_line_parse()\n", version, value);
                tests_failed++;
        }
}

static void expect(const char *value, unsigned version, ExecSeverity sev, bool dash, size_t n_commands) {
        _cleanup_(exec_line_done) ExecLine l = {};

        check_agrees(value, version, "a.service");

        if (exec_line_parse(value, version, "a.service", &l) < 0) {
                tests_failed++;
                return;
        }
        if (l.severity != sev || l.dash_escaped != dash || l.n_commands != n_commands) {
                fprintf(stderr, "v%u '%s': severity %d dash %d commands %zu, want %d %d %zu (%s)\n", version,
                        value, l.severity, l.dash_escaped, l.n_commands, sev, dash, n_commands,
                        l.message ? l.message : "-");
                tests_failed++;
        }
        if (sev != EXEC_LINE_OK && !l.message) {
                fprintf(stderr, "'%s': no message\n", value);
                tests_failed++;
        }
}

/* Reference §3.6, systemd 252 column. */
TEST(reference_vectors) {
        expect("true", 252, EXEC_LINE_OK, false, 1);
        expect("bin/true", 252, EXEC_LINE_FATAL, false, 0);
        expect("-bin/true", 252, EXEC_LINE_DROPPED, true, 0);
        expect("/bin/true ; /bin/false", 252, EXEC_LINE_OK, false, 2);
        expect("/bin/true \"unterminated", 252, EXEC_LINE_FATAL, false, 0);
        expect("\"/bin/true", 252, EXEC_LINE_DROPPED, false, 0);
        expect("@/bin/true", 252, EXEC_LINE_FATAL, false, 0);
        expect("@-/bin/true x", 252, EXEC_LINE_OK, false, 1);
        expect("/bin/", 252, EXEC_LINE_FATAL, false, 0);
        expect("/bin/true %Z", 252, EXEC_LINE_FATAL, false, 0);
        expect("|/bin/true", 252, EXEC_LINE_FATAL, false, 0);
        expect("|/bin/true", 258, EXEC_LINE_OK, false, 1);
        expect("!!+/bin/true", 252, EXEC_LINE_FATAL, false, 0);
        expect("+!/bin/true", 252, EXEC_LINE_FATAL, false, 0);
        expect("--/bin/true", 252, EXEC_LINE_DROPPED, true, 0);
        expect("/nonexistent/x", 252, EXEC_LINE_OK, false, 1);
        expect("-/nonexistent/x", 252, EXEC_LINE_OK, false, 1);
        expect("/bin/echo \\q", 252, EXEC_LINE_OK, false, 1);
        expect("/bin/true\\nX", 252, EXEC_LINE_FATAL, false, 0);
}

TEST(versions) {
        expect("true", 238, EXEC_LINE_FATAL, false, 0);   /* names need v239 */
        expect("true", 239, EXEC_LINE_OK, false, 1);
        expect("!/bin/true", 234, EXEC_LINE_FATAL, false, 0); /* '!' arrived in v235 */
        expect("!/bin/true", 235, EXEC_LINE_OK, false, 1);
        expect("!!/bin/true", 235, EXEC_LINE_OK, false, 1);
        expect(":/bin/true", 241, EXEC_LINE_FATAL, false, 0);
        expect(":/bin/true", 242, EXEC_LINE_OK, false, 1);
        expect("+/bin/true", 252, EXEC_LINE_OK, false, 1);
        expect("-+/bin/true", 252, EXEC_LINE_OK, false, 1);
        expect("/bin/..", 252, EXEC_LINE_OK, false, 1);
        expect("/bin/..", 256, EXEC_LINE_FATAL, false, 0);
}

TEST(words_and_flags) {
        _cleanup_(exec_line_done) ExecLine l = {};
        ExecCommand *c;

        CHECK_INT_EQ(exec_line_parse("-@/bin/ec'ho' arg0 a\"b c\"d '\\x41\\t' \\; ; :/bin/x \"\"", 252, "a.service", &l), 0);
        CHECK_INT_EQ(l.severity, EXEC_LINE_OK);
        CHECK_INT_EQ(l.n_commands, 2);
        c = &l.commands[0];
        CHECK_STR_EQ(c->path, "/bin/echo");
        CHECK_INT_EQ(c->flags, EXEC_IGNORE_FAILURE | EXEC_SEPARATE_ARGV0);
        CHECK_INT_EQ(c->argc, 4);
        CHECK_STR_EQ(c->argv[0], "arg0");
        CHECK_STR_EQ(c->argv[1], "ab cd");
        CHECK_STR_EQ(c->argv[2], "A\t");
        CHECK_STR_EQ(c->argv[3], ";");
        CHECK(c->argv[4] == NULL);
        c = &l.commands[1];
        CHECK_STR_EQ(c->path, "/bin/x");
        CHECK_INT_EQ(c->flags, EXEC_NO_ENV_EXPAND);
        CHECK_INT_EQ(c->argc, 2);
        CHECK_STR_EQ(c->argv[0], "/bin/x");
        CHECK_STR_EQ(c->argv[1], "");
        exec_line_done(&l);

        /* foo; is an ordinary word; a lone ';' at the end ends the list. */
        CHECK_INT_EQ(exec_line_parse("/bin/echo foo; ;", 252, "a.service", &l), 0);
        CHECK_INT_EQ(l.n_commands, 1);
        CHECK_STR_EQ(l.commands[0].argv[1], "foo;");
        exec_line_done(&l);

        /* Escapes: unicode, octal, NUL refused (kept verbatim). */
        CHECK_INT_EQ(exec_line_parse("/bin/echo \\u00fc \\101 \\x00 \\s", 252, "a.service", &l), 0);
        CHECK_STR_EQ(l.commands[0].argv[1], "\xc3\xbc");
        CHECK_STR_EQ(l.commands[0].argv[2], "A");
        CHECK_STR_EQ(l.commands[0].argv[3], "\\x00");
        CHECK_STR_EQ(l.commands[0].argv[4], " ");
        CHECK(l.unknown_escapes);
        exec_line_done(&l);

        /* Specifiers: expanded in path and arguments; deferred in a template. */
        CHECK_INT_EQ(exec_line_parse("/usr/lib/%p/run %i %H", 252, "foo@bar.service", &l), 0);
        CHECK_STR_EQ(l.commands[0].path, "/usr/lib/foo/run");
        CHECK_STR_EQ(l.commands[0].argv[1], "bar");
        CHECK_STR_EQ(l.commands[0].argv[2], "%H");
        CHECK(l.machine && !l.deferred);
        exec_line_done(&l);
        CHECK_INT_EQ(exec_line_parse("/bin/echo %i", 252, "foo@.service", &l), 0);
        CHECK(l.deferred && l.severity == EXEC_LINE_OK);
        exec_line_done(&l);

        /* The shell prefix (v258). */
        CHECK_INT_EQ(exec_line_parse("@|echo hi", 258, "a.service", &l), 0);
        CHECK_INT_EQ(l.severity, EXEC_LINE_OK);
        CHECK_STR_EQ(l.commands[0].path, "/bin/sh");
        CHECK_STR_EQ(l.commands[0].argv[0], "-sh");
        CHECK_STR_EQ(l.commands[0].argv[1], "echo");
        CHECK_STR_EQ(l.commands[0].argv[2], "hi");
        exec_line_done(&l);

        /* An error after ';' keeps the first command. */
        CHECK_INT_EQ(exec_line_parse("/bin/true ; bin/x", 252, "a.service", &l), 0);
        CHECK_INT_EQ(l.severity, EXEC_LINE_FATAL);
        CHECK(l.partial);
        CHECK_INT_EQ(l.n_commands, 1);
}

/* The lines above, and ones whose executable or arguments carry
 * specifiers, judged without keeping the commands. */
TEST(check_without_commands) {
        static const char *const lines[] = {
                "-@/bin/ec'ho' arg0 a\"b c\"d '\\x41\\t' \\; ; :/bin/x \"\"",
                "/bin/echo foo; ;",
                "/bin/echo \\u00fc \\101 \\x00 \\s",
                "/usr/lib/%p/run %i %H",
                "/bin/echo %i",
                "%i/run",
                "/bin/%q",
                "/bin/echo %q",
                "-/bin/echo %q",
                "/bin/true ; bin/x",
                "/bin/true ; /bin/false ; -",
                "@/bin/true",
                "/bin/'unbalanced",
                "/bin/echo 'unbalanced",
                "/bin/",
                "/bin/..",
                "bin/true",
                "\"\"",
        };
        static const unsigned versions[] = { 233, 240, 252, 258 };
        static const char *const names[] = { "a.service", "foo@.service", "foo@bar.service", NULL };

        for (size_t i = 0; i < ELEMENTSOF(lines); i++)
                for (size_t v = 0; v < ELEMENTSOF(versions); v++)
                        for (size_t n = 0; n < ELEMENTSOF(names); n++)
                                check_agrees(lines[i], versions[v], names[n]);
        check_agrees("@|echo hi", 258, "a.service");
        check_agrees("|", 258, "a.service");
}

TESTS_MAIN(T(reference_vectors), T(versions), T(words_and_flags), T(check_without_commands))
