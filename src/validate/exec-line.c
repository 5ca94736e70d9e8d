/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "basic/hex.h"
#include "behaviour.h"
#include "basic/alloc-util.h"
#include "basic/macro.h"
#include "basic/strbuf.h"
#include "exec-line.h"
#include "path-util.h"
#include "specifier.h"

#define BLANKS " \t\n\r"

static inline bool is_blank_char(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* strspn(s, BLANKS) for the usual zero or one blank, without a call. */
static inline const char *skip_blanks(const char *s) {
        while (is_blank_char(*s))
                s++;
        return s;
}

static int append_utf8(StrBuf *b, uint32_t cp) {
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
static int decode_escape(const char *p, StrBuf *b) {
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
                r = append_utf8(b, cp);
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
static bool ends_plain_run(char c) {
        static const bool table[256] = {
                ['\0'] = true, ['\\'] = true, ['\''] = true, ['"'] = true,
                [' '] = true,  ['\t'] = true, ['\n'] = true, ['\r'] = true,
        };

        return table[(unsigned char) c];
}

int exec_extract_word_buf(const char **p, StrBuf *b, bool *ret_unknown_escape) {
        const char *s = *p;
        char quote = 0;
        int r;

        s = skip_blanks(s);
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
                        while (!ends_plain_run(*s))
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
                        r = decode_escape(s, b);
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
                s = skip_blanks(s);
                break;
        }

        *p = s;
        return 1;
}

int exec_extract_word(const char **p, char **ret, bool *ret_unknown_escape) {
        _cleanup_(strbuf_done) StrBuf b = {};
        int r;

        r = exec_extract_word_buf(p, &b, ret_unknown_escape);
        if (r <= 0)
                return r;
        *ret = strbuf_steal(&b);
        return *ret ? 1 : -ENOMEM;
}

static void command_done(ExecCommand *c) {
        free(c->path);
        for (size_t i = 0; i < c->argc; i++)
                free(c->argv[i]);
        free(c->argv);
        *c = (ExecCommand) {};
}

void exec_line_done(ExecLine *l) {
        if (!l)
                return;
        for (size_t i = 0; l->commands && i < l->n_commands; i++)
                command_done(&l->commands[i]);
        free(l->commands);
        free(l->message);
        *l = (ExecLine) {};
}

static int argv_push(ExecCommand *c, char *word, size_t *allocated) {
        if (GREEDY_REALLOC(c->argv, *allocated, c->argc + 2) < 0) {
                free(word);
                return -ENOMEM;
        }
        c->argv[c->argc++] = word;
        c->argv[c->argc] = NULL;
        return 0;
}

/* Records why the line fails. '-' turns a fatal error into a dropped line. */
_printf_(4, 5) static int fail(ExecLine *l, ExecSeverity sev, ExecFlags flags, const char *fmt, ...) {
        va_list ap;
        char *m = NULL;
        int r;

        if (sev == EXEC_LINE_FATAL && (flags & EXEC_IGNORE_FAILURE)) {
                sev = EXEC_LINE_DROPPED;
                l->dash_escaped = true;
        }
        l->severity = sev;
        l->partial = l->n_commands > 0;

        va_start(ap, fmt);
        r = vasprintf(&m, fmt, ap);
        va_end(ap);
        if (r < 0)
                return -ENOMEM;
        free(l->message);
        l->message = m;
        return 0;
}

/* Strips the prefix characters that systemd `version` knows. */
static const char *parse_prefixes(const char *f, unsigned version, ExecFlags *ret) {
        ExecFlags flags = 0;
        const ExecFlags privs = EXEC_FULLY_PRIVILEGED | EXEC_NO_SETUID | EXEC_AMBIENT_MAGIC;

        for (;; f++) {
                if (*f == '-' && !(flags & EXEC_IGNORE_FAILURE))
                        flags |= EXEC_IGNORE_FAILURE;
                else if (*f == '@' && !(flags & EXEC_SEPARATE_ARGV0))
                        flags |= EXEC_SEPARATE_ARGV0;
                else if (*f == ':' && sd_behaves(SD_EXEC_PREFIX_COLON, version) && !(flags & EXEC_NO_ENV_EXPAND))
                        flags |= EXEC_NO_ENV_EXPAND;
                else if (*f == '+' && sd_behaves(SD_EXEC_PREFIX_PLUS, version) && !(flags & privs))
                        flags |= EXEC_FULLY_PRIVILEGED;
                else if (*f == '!' && sd_behaves(SD_EXEC_PREFIX_BANG, version) && !(flags & privs))
                        flags |= EXEC_NO_SETUID;
                else if (*f == '!' && sd_behaves(SD_EXEC_PREFIX_BANG, version) && (flags & privs) == EXEC_NO_SETUID) {
                        /* "!!": ambient-capability fallback; v258 dropped the
                         * feature and treats "!!" as "no prefix". */
                        flags &= ~EXEC_NO_SETUID;
                        if (sd_behaves(SD_EXEC_PREFIX_AMBIENT, version))
                                flags |= EXEC_AMBIENT_MAGIC;
                } else if (*f == '|' && sd_behaves(SD_EXEC_PREFIX_PIPE, version) && !(flags & EXEC_VIA_SHELL))
                        flags |= EXEC_VIA_SHELL;
                else
                        break;
        }
        *ret = flags;
        return f;
}

static bool string_is_safe(const char *p) {
        for (; *p; p++)
                if ((unsigned char) *p < ' ' || *p == 0x7f || *p == '"' || *p == '\'' || *p == '\\')
                        return false;
        return true;
}

static const char *spec_error(int r) {
        return r == -EBADSLT ? "unknown specifier" : r == -ENAMETOOLONG ? "result too long" : "specifier cannot be expanded";
}

/* Parses one command; returns 1 when a ';' follows, 0 at the end of the
 * line or after an error recorded in l, <0 on OOM. keep: the command goes
 * into l->commands; without, it is only counted (n_commands), and words
 * without specifiers are judged as written, without copies. */
static int parse_command(const char **p, unsigned version, const char *unit_name, ExecLine *l, StrBuf *word,
                         bool keep) {
        _cleanup_free_ char *path = NULL;
        ExecCommand c = {};
        size_t allocated = 0, n_args = 0;
        bool semicolon = false, unknown = false;
        SpecifierInfo si;
        ExecFlags flags;
        const char *f;
        int r;

        strbuf_reset(word);
        r = exec_extract_word_buf(p, word, &unknown);
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                /* systemd returns before looking at prefixes: dropped, even without '-'. */
                r = fail(l, EXEC_LINE_DROPPED, 0, "unbalanced quoting in the executable word");
                return r < 0 ? r : 0;
        }
        if (r == 0)
                return 0;
        l->unknown_escapes |= unknown;

        f = parse_prefixes(word->data, version, &flags);

        if (flags & EXEC_VIA_SHELL) {
                /* The words become the shell's command line; no executable check. */
                if (keep) {
                        path = strdup("/bin/sh");
                        if (!path)
                                return -ENOMEM;
                }
                if (*f) {
                        if (keep) {
                                char *w = strdup(f);
                                if (!w || argv_push(&c, w, &allocated) < 0)
                                        goto oom;
                        }
                        n_args++;
                }
        } else {
                /* The executable as written when there is nothing to expand. */
                bool copy = keep || strchr(f, '%');
                const char *exe;

                r = specifier_expand(f, SPECIFIER_PATH, unit_name, version, copy ? &path : NULL, &si);
                if (r == -ENOMEM)
                        return r;
                if (r < 0) {
                        r = fail(l, EXEC_LINE_FATAL, flags, "executable '%s': %s", f, spec_error(r));
                        return r < 0 ? r : 0;
                }
                exe = copy ? path : f;
                l->deferred |= si.deferred;
                l->machine |= si.machine;

                if (!exe[0]) {
                        r = fail(l, EXEC_LINE_FATAL, flags, "empty executable path");
                        return r < 0 ? r : 0;
                }
                if (!string_is_safe(exe)) {
                        r = fail(l, EXEC_LINE_FATAL, flags, "executable name contains special characters");
                        return r < 0 ? r : 0;
                }
                if (sd_behaves(SD_EXEC_PATH_SEARCHED, version)) {
                        bool ok = path_is_absolute(exe) ? path_is_valid(exe) : filename_is_valid(exe);
                        if (!ok) {
                                r = fail(l, EXEC_LINE_FATAL, flags,
                                         "'%s' is neither a valid executable name nor an absolute path", exe);
                                return r < 0 ? r : 0;
                        }
                } else if (!path_is_absolute(exe) || !path_is_valid(exe)) {
                        r = fail(l, EXEC_LINE_FATAL, flags, "executable path '%s' is not absolute", exe);
                        return r < 0 ? r : 0;
                }
                if (endswith(exe, "/") ||
                    (sd_behaves(SD_EXEC_PATH_DOT_DIRECTORY, version) && (endswith(exe, "/.") || endswith(exe, "/..")))) {
                        r = fail(l, EXEC_LINE_FATAL, flags, "executable path '%s' specifies a directory", exe);
                        return r < 0 ? r : 0;
                }
                if (!(flags & EXEC_SEPARATE_ARGV0)) {
                        if (keep) {
                                char *w = strdup(exe);
                                if (!w || argv_push(&c, w, &allocated) < 0)
                                        goto oom;
                        }
                        n_args++;
                }
        }

        while (**p) {
                char *expanded = NULL;
                const char *s = *p;

                /* A lone unquoted ';' separates commands; "\;" alone is a literal ';'. */
                if (s[0] == ';' && (!s[1] || is_blank_char(s[1]))) {
                        *p = s + 1 + strspn(s + 1, BLANKS);
                        semicolon = true;
                        break;
                }
                if (s[0] == '\\' && s[1] == ';' && (!s[2] || is_blank_char(s[2]))) {
                        *p = s + 2 + strspn(s + 2, BLANKS);
                        if (keep) {
                                expanded = strdup(";");
                                if (!expanded || argv_push(&c, expanded, &allocated) < 0)
                                        goto oom;
                        }
                        n_args++;
                        continue;
                }

                unknown = false;
                strbuf_reset(word);
                r = exec_extract_word_buf(p, word, &unknown);
                if (r == -ENOMEM)
                        goto oom;
                if (r < 0) {
                        command_done(&c);
                        r = fail(l, EXEC_LINE_FATAL, flags, "unbalanced quoting in an argument");
                        return r < 0 ? r : 0;
                }
                if (r == 0)
                        break;
                l->unknown_escapes |= unknown;

                r = specifier_expand(word->data, SPECIFIER_FULL, unit_name, version, keep ? &expanded : NULL, &si);
                if (r == -ENOMEM)
                        goto oom;
                if (r < 0) {
                        command_done(&c);
                        r = fail(l, EXEC_LINE_FATAL, flags, "argument '%s': %s", word->data, spec_error(r));
                        return r < 0 ? r : 0;
                }
                l->deferred |= si.deferred;
                l->machine |= si.machine;
                if (keep && argv_push(&c, expanded, &allocated) < 0)
                        goto oom;
                n_args++;
        }

        if (n_args == 0) {
                command_done(&c);
                r = fail(l, EXEC_LINE_FATAL, flags, "empty executable name or zeroeth argument");
                return r < 0 ? r : 0;
        }

        if (!keep) {
                l->n_commands++;
                return semicolon ? 1 : 0;
        }

        if (flags & EXEC_VIA_SHELL) {
                /* argv[0] of the shell: "sh", or "-sh" (login shell) with '@'. */
                char *w = strdup(flags & EXEC_SEPARATE_ARGV0 ? "-sh" : "sh");
                if (!w || argv_push(&c, w, &allocated) < 0)
                        goto oom;
                memmove(c.argv + 1, c.argv, (c.argc - 1) * sizeof(char *));
                c.argv[0] = w;
        }

        c.path = TAKE_PTR(path);
        c.flags = flags;
        {
                ExecCommand *n = reallocarray_safe(l->commands, l->n_commands + 1, sizeof(ExecCommand));
                if (!n)
                        goto oom;
                l->commands = n;
                l->commands[l->n_commands++] = c;
        }
        return semicolon ? 1 : 0;

oom:
        command_done(&c);
        return -ENOMEM;
}

static int parse_line(const char *value, unsigned version, const char *unit_name, bool keep, ExecLine *ret) {
        _cleanup_(strbuf_done) StrBuf word = {}; /* one buffer for all words of the line */
        ExecLine l = {};
        const char *p = value;
        int r;

        do {
                r = parse_command(&p, version, unit_name, &l, &word, keep);
                if (r < 0) {
                        exec_line_done(&l);
                        return r;
                }
        } while (r > 0 && l.severity == EXEC_LINE_OK);

        *ret = l;
        return 0;
}

int exec_line_parse(const char *value, unsigned version, const char *unit_name, ExecLine *ret) {
        return parse_line(value, version, unit_name, true, ret);
}

int exec_line_check(const char *value, unsigned version, const char *unit_name, ExecLine *ret) {
        return parse_line(value, version, unit_name, false, ret);
}
