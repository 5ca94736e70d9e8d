/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "basic/macro.h"
#include "tests.h"
#include "validate/exec-line.h"
#include "basic/hex.h"
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

/* The word splitter as it was before it wrote into a room sized for the
 * whole text (a StrBuf grown as it went): the reference that
 * exec_extract_word_to() and exec_extract_word_buf() are held to. */
static int ref_append_utf8(StrBuf *b, uint32_t cp) {
        char s[4];
        size_t n;

        if (cp < 0x80) {
                s[0] = (char) cp;
                n = 1;
        } else if (cp < 0x800) {
                s[0] = (char) (0xc0 | (cp >> 6));
                s[1] = (char) (0x80 | (cp & 0x3f));
                n = 2;
        } else if (cp < 0x10000) {
                s[0] = (char) (0xe0 | (cp >> 12));
                s[1] = (char) (0x80 | ((cp >> 6) & 0x3f));
                s[2] = (char) (0x80 | (cp & 0x3f));
                n = 3;
        } else {
                s[0] = (char) (0xf0 | (cp >> 18));
                s[1] = (char) (0x80 | ((cp >> 12) & 0x3f));
                s[2] = (char) (0x80 | ((cp >> 6) & 0x3f));
                s[3] = (char) (0x80 | (cp & 0x3f));
                n = 4;
        }
        return strbuf_append(b, s, n);
}

/* Decodes the escape whose letter is at p (the backslash already
 * consumed). Returns the number of input bytes used, or -EINVAL for an
 * unknown or NUL-producing escape. */
static int ref_decode_escape(const char *p, StrBuf *b) {
        static const char simple_in[] = "abfnrtv\\\"'s";
        static const char simple_out[] = "\a\b\f\n\r\t\v\\\"' ";
        const char *q;
        int r;

        q = *p ? strchr(simple_in, *p) : NULL;
        if (q) {
                r = strbuf_append_char(b, simple_out[q - simple_in]);
                return r < 0 ? r : 1;
        }

        switch (*p) {
        case 'x': {
                int a = unhexchar(p[1]), c = a < 0 ? -1 : unhexchar(p[2]);

                if (a < 0 || c < 0 || (a == 0 && c == 0))
                        return -EINVAL;
                r = strbuf_append_char(b, (char) ((a << 4) | c));
                return r < 0 ? r : 3;
        }
        case 'u':
        case 'U': {
                size_t n = *p == 'u' ? 4 : 8;
                uint32_t cp = 0;

                for (size_t i = 1; i <= n; i++) {
                        int d = unhexchar(p[i]);
                        if (d < 0)
                                return -EINVAL;
                        cp = (cp << 4) | (uint32_t) d;
                }
                if (cp == 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
                        return -EINVAL;
                r = ref_append_utf8(b, cp);
                return r < 0 ? r : (int) n + 1;
        }
        default:
                break;
        }

        /* Three octal digits, not NUL and not above 255. */
        if (*p >= '0' && *p <= '7') {
                unsigned v = 0;

                for (size_t i = 0; i < 3; i++) {
                        if (p[i] < '0' || p[i] > '7')
                                return -EINVAL;
                        v = v * 8 + (unsigned) (p[i] - '0');
                }
                if (v == 0 || v > 255)
                        return -EINVAL;
                r = strbuf_append_char(b, (char) v);
                return r < 0 ? r : 3;
        }
        return -EINVAL;
}

/* The characters that end a run of plain ones outside quotes: NUL,
 * backslash, quotes and blanks. */
static bool ref_ends_plain_run(char c) {
        static const bool table[256] = {
                ['\0'] = true, ['\\'] = true, ['\''] = true, ['"'] = true,
                [' '] = true,  ['\t'] = true, ['\n'] = true, ['\r'] = true,
        };

        return table[(unsigned char) c];
}

static int ref_extract_word_buf(const char **p, StrBuf *b, bool *ret_unknown_escape) {
        const char *s = *p;
        char quote = 0;
        int r;

        s += strspn(s, " \t\n\r");
        if (!*s) {
                *p = s;
                return 0;
        }

        r = strbuf_reserve(b, 0);
        if (r < 0)
                return r;

        for (;;) {
                const char *run = s;
                char c;

                /* Plain characters go in as one run: most words are nothing else. */
                if (quote)
                        while (*s && *s != quote && *s != '\\')
                                s++;
                else
                        while (!ref_ends_plain_run(*s))
                                s++;
                if (s > run) {
                        r = strbuf_append(b, run, (size_t) (s - run));
                        if (r < 0)
                                return r;
                }

                c = *s;
                if (c == '\0') {
                        if (quote)
                                return -EINVAL;
                        break;
                }
                if (c == '\\') {
                        s++;
                        if (*s == '\0') {
                                /* A trailing backslash survives outside quotes. */
                                if (quote)
                                        return -EINVAL;
                                r = strbuf_append_char(b, '\\');
                                if (r < 0)
                                        return r;
                                if (ret_unknown_escape)
                                        *ret_unknown_escape = true;
                                break;
                        }
                        r = ref_decode_escape(s, b);
                        if (r == -ENOMEM)
                                return r;
                        if (r < 0) {
                                /* Unknown escape: keep it as written. */
                                r = strbuf_append(b, s - 1, 2);
                                if (r < 0)
                                        return r;
                                if (ret_unknown_escape)
                                        *ret_unknown_escape = true;
                                s++;
                        } else
                                s += r;
                        continue;
                }
                if (quote) {
                        /* The closing quote. */
                        quote = 0;
                        s++;
                        continue;
                }
                if (c == '\'' || c == '"') {
                        quote = c;
                        s++;
                        continue;
                }
                /* A blank ends the word. */
                s += strspn(s, " \t\n\r");
                break;
        }

        *p = s;
        return 1;
}


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


/* One word of text both ways: the same result, word, length, unknown
 * escape and rest. The room is exactly strlen(text) + 1 bytes, allocated
 * apart, so that the sanitizers see a word that would not fit. */
static void extract_agrees(const char *text) {
        _cleanup_(strbuf_done) StrBuf ref = {}, buf = {};
        const char *p = text, *q = text, *t = text;
        bool u1 = false, u2 = false, u3 = false;
        size_t n = strlen(text), len = 0;
        char *room = malloc(n + 1);
        int r1, r2, r3;

        if (!room) {
                tests_failed++;
                return;
        }
        r1 = ref_extract_word_buf(&p, &ref, &u1);
        r2 = exec_extract_word_to(&q, text + n, room, &len, &u2);
        r3 = exec_extract_word_buf(&t, &buf, &u3);
        if (r1 != r2 || r1 != r3 || (r1 >= 0 && (p != q || p != t)) || u1 != u2 || u1 != u3 ||
            (r1 > 0 && (len != ref.len || memcmp(room, ref.data, len) != 0 || room[len] != '\0' ||
                        buf.len != ref.len || memcmp(buf.data, ref.data, len) != 0))) {
                fprintf(stderr, "word of '%s': %d/%d/%d, rest %td/%td/%td, unknown %d/%d/%d\n", text, r1, r2, r3,
                        p - text, q - text, t - text, u1, u2, u3);
                tests_failed++;
        }
        free(room);
}

/* Every word of text, one after the other (the rest of one is the next's text). */
static void extract_all_agree(const char *text) {
        const char *p = text;
        StrBuf ref = {};

        for (int i = 0; i < 64; i++) {
                bool u = false;
                int r;

                extract_agrees(p);
                strbuf_reset(&ref);
                r = ref_extract_word_buf(&p, &ref, &u);
                if (r <= 0)
                        break;
        }
        strbuf_done(&ref);
}

TEST(word_room_matches_reference) {
        static const char *const texts[] = {
                "", " ", "a", " a b ", "/bin/echo hello world", "'a b' \"c d\"", "a'b'c\"d\"e", "'unterminated",
                "\"unterminated", "trailing\\", "'quoted trailing\\", "\\x41\\x00\\x4", "\\u00e9\\u0000\\ud800\\u12",
                "\\U0001F600\\U00110000\\U0000", "\\101\\000\\400\\7", "\\q\\ \\;", "a\\\tb", "\\a\\b\\f\\n\\r\\t\\v",
                "\\\\\\\"\\'\\s", "'\\x41' \"\\u00e9\"", "\"it's\"", "'say \"hi\"'", "a\t\n\rb", "%i %n \\x25i",
                "\xff\xfe 'x\xc3'", "\"\\", "'\\'", "\\", "\\\\", "--a=b;c ;", "x\\U0010FFFF y",
                "\\xff\\xFF\\xg0", "\\u00", "\\uFFFF\\U0000ffff", "\\777\\377\\1234",
        };

        for (size_t i = 0; i < ELEMENTSOF(texts); i++)
                extract_all_agree(texts[i]);
}

TEST(word_room_random) {
        static const char *const pieces[] = {
                "a", "b", " ", "\t", "'", "\"", "\\", "\\x4", "1", "\\u00e9", "\\U0001f600", "\\0", "\\101", "x",
                "\\s", "\\q", "%", "\xc3", "\xa9", ";", "7", "f", "\\x", "\\u", "\\U", "0",
                /* Runs about the sixteen bytes of a block. */
                "abcdefghijklmno", "abcdefghijklmnop", "abcdefghijklmnopq", "/usr/lib/x", "--opt=value", "\n", "\r",
        };
        uint64_t x = 0x9e3779b97f4a7c15ULL;
        int rounds = test_rounds(200000, 10000);
        char text[128];

        for (int i = 0; i < rounds; i++) {
                size_t n = 0;
                int k;

                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                k = (int) (x % 24);
                for (int j = 0; j < k; j++) {
                        const char *piece;

                        x ^= x << 13;
                        x ^= x >> 7;
                        x ^= x << 17;
                        piece = pieces[(x >> 11) % ELEMENTSOF(pieces)];
                        if (n + strlen(piece) >= sizeof text)
                                break;
                        memcpy(text + n, piece, strlen(piece));
                        n += strlen(piece);
                }
                text[n] = '\0';
                extract_all_agree(text);
        }
}

/* exec_line_check() skips specifier_expand() for words without '%' below
 * its limits: at and about the limits it must still say what
 * exec_line_parse() (which always expands) says. */
TEST(check_at_expansion_limits) {
        static const size_t exe_lens[] = { 4094, 4095, 4096, 4097 };
        static const size_t arg_lens[] = { 1024 * 1024 - 2, 1024 * 1024 - 1, 1024 * 1024, 1024 * 1024 + 1 };
        char *v = malloc(1024 * 1024 + 64);

        if (!v) {
                tests_failed++;
                return;
        }
        for (size_t i = 0; i < ELEMENTSOF(exe_lens); i++) {
                /* "/aaa/aaa/..." of that length, then with an argument. */
                for (size_t k = 0; k < exe_lens[i]; k++)
                        v[k] = k % 200 == 0 ? '/' : 'a';
                v[exe_lens[i]] = '\0';
                check_agrees(v, 252, "a.service");
                check_agrees(v, 233, "a@.service");
                strcpy(v + exe_lens[i], " x %i");
                check_agrees(v, 252, "a@.service");
        }
        for (size_t i = 0; i < ELEMENTSOF(arg_lens); i++) {
                strcpy(v, "/bin/true ");
                memset(v + 10, 'b', arg_lens[i]);
                v[10 + arg_lens[i]] = '\0';
                check_agrees(v, 252, "a.service");
                strcpy(v + 10 + arg_lens[i], " ; -/x");
                check_agrees(v, 252, "a.service");
        }
        free(v);
}

/* The executable's bytes are checked eight at a time: a control
 * character, DEL, a quote or a backslash (written as an escape) at any
 * place of an executable of any length is found, and no other byte is
 * taken for one. */
TEST(special_characters_anywhere) {
        static const unsigned char bytes[] = { 0x01, 0x09, 0x1f, 0x20, 0x21, 0x22, 0x23, 0x26, 0x27, 0x28, 0x5b,
                                               0x5c, 0x5d, 0x7e, 0x7f, 0x80, 0x9f, 0xa0, 0xfe, 0xff };

        for (size_t len = 1; len < 40; len++)
                for (size_t at = 1; at < len; at++)
                        for (size_t b = 0; b < ELEMENTSOF(bytes); b++) {
                                _cleanup_(exec_line_done) ExecLine l = {};
                                unsigned char c = bytes[b];
                                bool bad = c < 0x20 || c == 0x7f || c == '"' || c == '\'' || c == '\\';
                                char v[128];
                                size_t n = 0;

                                v[n++] = '/';
                                for (size_t k = 1; k < len; k++) {
                                        if (k == at)
                                                n += (size_t) snprintf(v + n, sizeof v - n, "\\x%02x", c);
                                        else
                                                v[n++] = (char) ('a' + k % 26);
                                }
                                strcpy(v + n, " arg");
                                if (exec_line_check(v, 252, "a.service", &l) < 0) {
                                        tests_failed++;
                                        continue;
                                }
                                if (bad != (l.severity != EXEC_LINE_OK) ||
                                    (bad && !streq_ptr(l.message, "executable name contains special characters"))) {
                                        fprintf(stderr, "'%s': severity %d (%s)\n", v, l.severity,
                                                l.message ? l.message : "-");
                                        tests_failed++;
                                }
                                check_agrees(v, 252, "a.service");
                        }
}

/* A directory is told by the executable's last bytes. */
TEST(directory_endings) {
        expect("/usr/bin/", 252, EXEC_LINE_FATAL, false, 0);
        expect("/", 252, EXEC_LINE_FATAL, false, 0);
        expect("/.", 257, EXEC_LINE_FATAL, false, 0);
        expect("/..", 257, EXEC_LINE_FATAL, false, 0);
        expect("/a/.", 257, EXEC_LINE_FATAL, false, 0);
        expect("/a/..", 257, EXEC_LINE_FATAL, false, 0);
        expect("/a/.", 252, EXEC_LINE_OK, false, 1);
        expect("/a/..", 252, EXEC_LINE_OK, false, 1);
        expect("/a.", 257, EXEC_LINE_OK, false, 1);
        expect("/a..", 257, EXEC_LINE_OK, false, 1);
        expect("/a/...", 257, EXEC_LINE_OK, false, 1);
        expect("/a/x.", 257, EXEC_LINE_OK, false, 1);
        expect("-/a/", 252, EXEC_LINE_DROPPED, true, 0);
}

TESTS_MAIN(T(reference_vectors), T(versions), T(words_and_flags), T(check_without_commands),
           T(word_room_matches_reference), T(word_room_random), T(check_at_expansion_limits),
           T(special_characters_anywhere), T(directory_endings))
