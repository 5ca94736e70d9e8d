/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#if defined(__SSE2__) && !defined(EXEC_LINE_SCALAR)
#include <emmintrin.h>
#endif

#include "basic/hex.h"
#include "behaviour.h"
#include "basic/alloc-util.h"
#include "basic/macro.h"
#include "basic/strbuf.h"
#include "basic/unaligned.h"
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

/* cp as UTF-8 at o; returns the bytes written. */
static size_t put_utf8(char *o, uint32_t cp) {
        if (cp < 0x80) {
                o[0] = (char) cp;
                return 1;
        }
        if (cp < 0x800) {
                o[0] = (char) (0xc0 | (cp >> 6));
                o[1] = (char) (0x80 | (cp & 0x3f));
                return 2;
        }
        if (cp < 0x10000) {
                o[0] = (char) (0xe0 | (cp >> 12));
                o[1] = (char) (0x80 | ((cp >> 6) & 0x3f));
                o[2] = (char) (0x80 | (cp & 0x3f));
                return 3;
        }
        o[0] = (char) (0xf0 | (cp >> 18));
        o[1] = (char) (0x80 | ((cp >> 12) & 0x3f));
        o[2] = (char) (0x80 | ((cp >> 6) & 0x3f));
        o[3] = (char) (0x80 | (cp & 0x3f));
        return 4;
}

/* Decodes the escape whose letter is at p (the backslash already
 * consumed) to *o, advanced past what it writes. Returns the number of
 * input bytes used, or -EINVAL for an unknown or NUL-producing escape
 * (nothing written). Each escape writes fewer bytes than it uses with
 * its backslash (\uXXXX: 6 for at most 3, \UXXXXXXXX: 10 for at most 4),
 * which exec_extract_word_to()'s room relies on. */
static int decode_escape(const char *p, char **o) {
        static const char simple_in[] = "abfnrtv\\\"'s";
        static const char simple_out[] = "\a\b\f\n\r\t\v\\\"' ";
        const char *q;

        q = *p ? strchr(simple_in, *p) : NULL;
        if (q) {
                *(*o)++ = simple_out[q - simple_in];
                return 1;
        }

        switch (*p) {
        case 'x': {
                int a = unhexchar(p[1]), c = a < 0 ? -1 : unhexchar(p[2]);

                if (a < 0 || c < 0 || (a == 0 && c == 0))
                        return -EINVAL;
                *(*o)++ = (char) ((a << 4) | c);
                return 3;
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
                *o += put_utf8(*o, cp);
                return (int) n + 1;
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
                *(*o)++ = (char) v;
                return 3;
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

#if defined(__SSE2__) && !defined(EXEC_LINE_SCALAR)
/* The bytes of v that end a plain run outside quotes (ends_plain_run(),
 * but for NUL: there is none before the text's end), as a bit mask. */
static _always_inline_ unsigned plain_run_ends(__m128i v) {
        __m128i m = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8(' ')),
                                              _mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))),
                                 _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\n')),
                                              _mm_cmpeq_epi8(v, _mm_set1_epi8('\r'))));

        m = _mm_or_si128(m, _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\\')),
                                                      _mm_cmpeq_epi8(v, _mm_set1_epi8('\''))),
                                         _mm_cmpeq_epi8(v, _mm_set1_epi8('"'))));
        return (unsigned) _mm_movemask_epi8(m);
}
#endif

/* A run of plain characters outside quotes from s on, copied to *o: both
 * advanced past it. Sixteen bytes at a time while the text's end is that
 * far: each block is stored whole, which the room allows (the word so
 * far is no longer than the text so far, and the room is as long as the
 * text). */
static _always_inline_ const char *copy_plain_run(const char *s, const char *end, char **o) {
        char *w = *o;

#if defined(__SSE2__) && !defined(EXEC_LINE_SCALAR)
        while (end - s >= 16) {
                __m128i v = _mm_loadu_si128((const __m128i *) (const void *) s);
                unsigned m = plain_run_ends(v);

                _mm_storeu_si128((__m128i *) (void *) w, v);
                if (m) {
                        unsigned k = (unsigned) __builtin_ctz(m);

                        *o = w + k;
                        return s + k;
                }
                s += 16;
                w += 16;
        }
#else
        (void) end;
#endif
        while (!ends_plain_run(*s))
                *w++ = *s++;
        *o = w;
        return s;
}

/* The rest of a word that is more than a run of plain characters: s is
 * at its first quote or backslash, o past what the run wrote. */
static int __attribute__((noinline)) extract_word_rest(const char **p, const char *s, const char *end, char *out,
                                                       char *o, size_t *ret_len, bool *ret_unknown_escape) {
        char quote = 0;
        int r;

        for (;;) {
                char c;

                /* Plain characters are copied as they are scanned: most
                 * words are nothing else. */
                if (quote)
                        while (*s && *s != quote && *s != '\\')
                                *o++ = *s++;
                else
                        s = copy_plain_run(s, end, &o);

                c = *s;
                if (c == '\0') {
                        if (quote)
                                goto invalid;
                        break;
                }
                if (c == '\\') {
                        s++;
                        if (*s == '\0') {
                                /* A trailing backslash survives outside quotes. */
                                if (quote)
                                        goto invalid;
                                *o++ = '\\';
                                if (ret_unknown_escape)
                                        *ret_unknown_escape = true;
                                break;
                        }
                        r = decode_escape(s, &o);
                        if (r < 0) {
                                /* Unknown escape: kept as written. */
                                *o++ = '\\';
                                *o++ = *s;
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

        *o = '\0';
        *p = s;
        *ret_len = (size_t) (o - out);
        return 1;

invalid:
        *o = '\0';
        *ret_len = (size_t) (o - out);
        return -EINVAL;
}

int exec_extract_word_to(const char **p, const char *end, char *out, size_t *ret_len, bool *ret_unknown_escape) {
        const char *s = skip_blanks(*p);
        char *o = out;

        if (!*s) {
                *p = s;
                *out = '\0';
                *ret_len = 0;
                return 0;
        }
        /* Most words are one run of plain characters, ended by a blank or
         * the end: done here, with little to set up. */
        s = copy_plain_run(s, end, &o);
        if (*s != '\0' && !is_blank_char(*s))
                return extract_word_rest(p, s, end, out, o, ret_len, ret_unknown_escape);
        *o = '\0';
        *p = skip_blanks(s);
        *ret_len = (size_t) (o - out);
        return 1;
}

int exec_extract_word_buf(const char **p, StrBuf *b, bool *ret_unknown_escape) {
        size_t n;
        int r;

        /* Room for the rest of the text: the word cannot be longer. */
        n = strlen(*p);
        r = strbuf_reserve(b, n);
        if (r < 0)
                return r;
        r = exec_extract_word_to(p, *p + strlen(*p), b->data + b->len, &n, ret_unknown_escape);
        b->len += n;
        return r;
}

int word_room_init(WordRoom *w, size_t text_len) {
        if (text_len < sizeof w->small) {
                w->data = w->small;
                return 0;
        }
        w->data = malloc(text_len + 1);
        return w->data ? 0 : -ENOMEM;
}

void word_room_done(WordRoom *w) {
        if (w->data != w->small)
                free(w->data);
        w->data = NULL;
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

static bool byte_is_unsafe(char c) {
        return (unsigned char) c < ' ' || c == 0x7f || c == '"' || c == '\'' || c == '\\';
}

/* Whether a byte of w is below ' ' or one of 0x7f '"' '\'' '\\': the
 * borrow tests, exact for a whole word (a byte below n <= 128, a byte
 * equal to c as a zero byte of w ^ c repeated). */
static inline bool word_is_unsafe(uint64_t w) {
        const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
        uint64_t a = w ^ (ones * 0x7f), b = w ^ (ones * '"'), c = w ^ (ones * '\''), d = w ^ (ones * '\\');

        return ((w - ones * ' ') & ~w & highs) ||
               (((a - ones) & ~a) | ((b - ones) & ~b) | ((c - ones) & ~c) | ((d - ones) & ~d)) & highs;
}

/* None of p's n bytes (no NUL among them) is a control character, a
 * quote or a backslash: eight bytes at a time, the last word overlapping
 * the one before, no load past p + n. */
static bool string_is_safe_n(const char *p, size_t n) {
        if (n >= 8) {
                for (size_t i = 0; i + 8 < n; i += 8)
                        if (word_is_unsafe(unaligned_load64(p + i)))
                                return false;
                return !word_is_unsafe(unaligned_load64(p + n - 8));
        }
        if (n >= 4) /* the first and the last four bytes, as one word */
                return !word_is_unsafe(unaligned_load32(p) | unaligned_load32(p + n - 4) << 32);
        for (size_t i = 0; i < n; i++)
                if (byte_is_unsafe(p[i]))
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
static int parse_command(const char **p, const char *end, unsigned version, const char *unit_name, ExecLine *l,
                         char *word, bool keep) {
        _cleanup_free_ char *path = NULL;
        ExecCommand c = {};
        size_t allocated = 0, n_args = 0, word_len;
        bool semicolon = false, unknown = false;
        SpecifierInfo si;
        ExecFlags flags;
        const char *f;
        int r;

        r = exec_extract_word_to(p, end, word, &word_len, &unknown);
        if (r < 0) {
                /* systemd returns before looking at prefixes: dropped, even without '-'. */
                r = fail(l, EXEC_LINE_DROPPED, 0, "unbalanced quoting in the executable word");
                return r < 0 ? r : 0;
        }
        if (r == 0)
                return 0;
        l->unknown_escapes |= unknown;

        f = parse_prefixes(word, version, &flags);

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
                size_t f_len = word_len - (size_t) (f - word);
                bool copy = keep || memchr(f, '%', f_len);
                const char *exe;
                size_t exe_len;

                if (!copy && f_len < SPECIFIER_PATH_TEXT_MAX) {
                        /* What specifier_expand() says of it, without the call. */
                        si = (SpecifierInfo) {};
                        r = 0;
                } else
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
                exe_len = copy ? strlen(exe) : f_len;
                if (!string_is_safe_n(exe, exe_len)) {
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
                /* A directory: "/" at the end; "/." and "/.." too where they count
                 * (exe_len >= 1: the empty one failed above). */
                if (exe[exe_len - 1] == '/' ||
                    (sd_behaves(SD_EXEC_PATH_DOT_DIRECTORY, version) &&
                     ((exe_len >= 2 && memcmp(exe + exe_len - 2, "/.", 2) == 0) ||
                      (exe_len >= 3 && memcmp(exe + exe_len - 3, "/..", 3) == 0)))) {
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
                r = exec_extract_word_to(p, end, word, &word_len, &unknown);
                if (r < 0) {
                        command_done(&c);
                        r = fail(l, EXEC_LINE_FATAL, flags, "unbalanced quoting in an argument");
                        return r < 0 ? r : 0;
                }
                if (r == 0)
                        break;
                l->unknown_escapes |= unknown;

                if (!keep && word_len < SPECIFIER_TEXT_MAX && !memchr(word, '%', word_len)) {
                        /* Nothing to expand, and short enough: what
                         * specifier_expand() would say, without the call. */
                        n_args++;
                        continue;
                }
                r = specifier_expand(word, SPECIFIER_FULL, unit_name, version, keep ? &expanded : NULL, &si);
                if (r == -ENOMEM)
                        goto oom;
                if (r < 0) {
                        command_done(&c);
                        r = fail(l, EXEC_LINE_FATAL, flags, "argument '%s': %s", word, spec_error(r));
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
        _cleanup_(word_room_done) WordRoom word; /* one room for all words of the line */
        ExecLine l = {};
        const char *p = value;
        size_t n;
        int r;

        n = strlen(value);
        r = word_room_init(&word, n);
        if (r < 0) {
                *ret = l;
                return r;
        }
        do {
                r = parse_command(&p, value + n, version, unit_name, &l, word.data, keep);
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
