/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/macro.h"
#include "exec-line.h"
#include "behaviour.h"
#include "judge.h"
#include "parse-util.h"
#include "path-util.h"
#include "specifier.h"
#include "unit-name.h"
#include "user-name.h"
#include "value-check.h"
#include "value-kind.h"

/* What the kind-specific checks found out about a value. */
typedef struct Check {
        bool invalid;
        bool notice;
        bool dash;      /* the value carried the '-' escape */
        bool line_drop; /* systemd drops the line even where the directive is fatal */
        bool deprecated; /* accepted, with a deprecation warning */
} Check;

/* vasprintf() for the formats of the judge's messages: text with "%s",
 * "%u", "%c" and "%%" only, formatted as printf would (NULL as
 * "(null)"), without the stdio machinery. The message is built in buf
 * (size bytes); returns its length, or -1 for a format with anything
 * else or a message that does not fit (then the caller takes vasprintf()
 * with its own copy of the arguments). */
int judge_format_simple(char *buf, size_t size, const char *fmt, va_list ap) {
        char *o = buf, *e = buf + size;

        for (const char *f = fmt; *f; f++) {
                const char *t;
                char num[16];
                size_t n;

                if (*f != '%') {
                        if (o == e)
                                return -1;
                        *o++ = *f;
                        continue;
                }
                switch (*++f) {
                case 's':
                        t = va_arg(ap, const char *);
                        if (!t)
                                t = "(null)";
                        n = strlen(t);
                        break;
                case 'u': {
                        unsigned v = va_arg(ap, unsigned);
                        char *q = num + sizeof num;

                        do
                                *--q = (char) ('0' + v % 10);
                        while (v /= 10);
                        t = q;
                        n = (size_t) (num + sizeof num - q);
                        break;
                }
                case 'c':
                        num[0] = (char) va_arg(ap, int);
                        t = num;
                        n = 1;
                        break;
                case '%':
                        t = "%";
                        n = 1;
                        break;
                default:
                        return -1;
                }
                if ((size_t) (e - o) < n)
                        return -1;
                memcpy(o, t, n);
                o += n;
        }
        if (o == e)
                return -1;
        *o = '\0';
        return (int) (o - buf);
}

_printf_(2, 3) static int set_message(Judgement *j, const char *fmt, ...) {
        char buf[512];
        va_list ap;
        char *m = NULL;
        int r;

        va_start(ap, fmt);
        r = judge_format_simple(buf, sizeof buf, fmt, ap);
        va_end(ap);
        if (r >= 0) {
                m = malloc((size_t) r + 1);
                if (!m)
                        return -ENOMEM;
                memcpy(m, buf, (size_t) r + 1);
        } else {
                va_start(ap, fmt);
                r = vasprintf(&m, fmt, ap);
                va_end(ap);
                if (r < 0)
                        return -ENOMEM;
        }
        free(j->message);
        j->message = m;
        return 0;
}

static const char *spec_error(int r) {
        return r == -EBADSLT ? "unknown specifier" :
               r == -ENAMETOOLONG ? "specifier expansion too long" :
                                    "specifier cannot be expanded";
}

/* Expands specifiers; on failure records the message and marks the value
 * invalid. Returns 1 when *ret holds the expansion (text itself when it has
 * no specifier: only its length is checked, nothing is copied; else *buf,
 * which the caller frees), 0 when not (invalid, or deferred), <0 on OOM.
 * ret may be NULL when only the errors matter. */
static int expand(const JudgeContext *ctx, const char *text, SpecifierContext sc, Judgement *j, Check *c,
                  char **buf, const char **ret) {
        bool plain = !strchr(text, '%');
        SpecifierInfo si;
        int r;

        r = specifier_expand(text, sc, ctx->unit_name, ctx->version, plain ? NULL : buf, &si);
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                c->invalid = true;
                if (si.bad)
                        return set_message(j, "'%s': %s '%%%c'", text, spec_error(r), si.bad) < 0 ? -ENOMEM : 0;
                return set_message(j, "'%s': %s", text, spec_error(r)) < 0 ? -ENOMEM : 0;
        }
        j->machine |= si.machine;
        if (si.deferred) {
                j->deferred = true;
                free(*buf);
                *buf = NULL;
                return 0;
        }
        if (ret)
                *ret = plain ? text : *buf;
        return 1;
}

static bool is_root(const char *name, uint32_t uid) {
        return streq(name, "root") || uid == 0;
}

/* One user or group name, after specifiers. */
static int check_user(const JudgeContext *ctx, const char *value, Judgement *j, Check *c, bool *ret_root) {
        _cleanup_free_ char *buf = NULL;
        const char *e;
        uint32_t uid;
        int r;

        r = expand(ctx, value, SPECIFIER_FULL, j, c, &buf, &e);
        if (r <= 0)
                return r;

        switch (user_name_check_systemd(e, ctx->version, &uid)) {
        case USER_CHECK_OK:
                break;
        case USER_CHECK_NOTICE:
                c->notice = true;
                r = set_message(j, "user/group name '%s' does not match the strict name rules", e);
                if (r < 0)
                        return r;
                break;
        case USER_CHECK_INVALID:
                c->invalid = true;
                if (!e[0])
                        return set_message(j, "'%s' expands to an empty user/group name", value);
                return set_message(j, "invalid user/group name or numeric ID '%s'", e);
        }
        if (ret_root && is_root(e, uid))
                *ret_root = true;
        return 0;
}

/* The next word of a list value, into word (a WordRoom's, reused from
 * word to word), its length in *ret_len: 1 with a word, 0 at the end,
 * -EBADMSG for a syntax error (recorded in j and c), -ENOMEM. */
static int next_word(const char **p, const char *value, const char *end, char *word, size_t *ret_len, Judgement *j,
                     Check *c) {
        int r;

        r = exec_extract_word_to(p, end, word, ret_len, NULL);
        if (r >= 0)
                return r;
        c->invalid = true;
        r = set_message(j, "invalid syntax in '%s'", value);
        return r < 0 ? r : -EBADMSG;
}

static int check_group_list(const JudgeContext *ctx, const char *value, Judgement *j, Check *c) {
        _cleanup_(word_room_done) WordRoom word;
        const char *p = value;
        bool any_good = false;
        size_t n, len;
        int r;

        n = strlen(value);
        r = word_room_init(&word, n);
        if (r < 0)
                return r;
        for (;;) {
                Check wc = {};

                r = next_word(&p, value, value + n, word.data, &len, j, c);
                if (r == 0)
                        break;
                if (r < 0)
                        return r == -EBADMSG ? 0 : r; /* a syntax error is recorded in j */

                r = check_user(ctx, word.data, j, &wc, &j->names_root);
                if (r < 0)
                        return r;
                c->notice |= wc.notice;
                if (!wc.invalid) {
                        any_good = true;
                        continue;
                }
                c->invalid = true;
                if (sd_behaves(SD_FATAL_SECURITY_DIRECTIVES, ctx->version))
                        return 0; /* the first bad name decides */
                /* Older versions skipped just the bad word and went on. */
                j->partial = true;
        }
        if (c->invalid && j->partial && !any_good)
                j->partial = false;
        return 0;
}

static int check_exec(const JudgeContext *ctx, const char *value, Judgement *j, Check *c) {
        _cleanup_(exec_line_done) ExecLine l = {};
        int r;

        r = exec_line_check(value, ctx->version, ctx->unit_name, &l);
        if (r < 0)
                return r;

        j->deferred |= l.deferred;
        j->machine |= l.machine;
        if (l.severity == EXEC_LINE_OK) {
                if (l.unknown_escapes) {
                        c->notice = true;
                        return set_message(j, "unknown escape sequences kept verbatim");
                }
                return 0;
        }

        c->invalid = true;
        c->dash = l.dash_escaped;
        c->line_drop = l.severity == EXEC_LINE_DROPPED && !l.dash_escaped;
        j->partial = l.partial;
        return set_message(j, "%s", l.message ? l.message : "invalid command line");
}

static int check_path(const JudgeContext *ctx, const char *value, Judgement *j, Check *c) {
        _cleanup_free_ char *buf = NULL;
        const char *e;
        PathCheck pc;
        int r;

        r = expand(ctx, value, SPECIFIER_PATH, j, c, &buf, &e);
        if (r <= 0)
                return r;
        pc = path_check_absolute(e);
        if (pc == PATH_CHECK_OK)
                return 0;
        c->invalid = true;
        return set_message(j, "%s: '%s'", path_check_to_string(pc), e);
}

static int check_working_directory(const JudgeContext *ctx, const char *value, Judgement *j, Check *c) {
        if (value[0] == '-') {
                c->dash = true;
                value++;
        }
        if (streq(value, "~"))
                return 0;
        return check_path(ctx, value, j, c);
}

static int check_security_label(const JudgeContext *ctx, const char *value, Judgement *j, Check *c) {
        _cleanup_free_ char *e = NULL;
        int r;

        if (value[0] == '-') {
                c->dash = true;
                value++;
        }
        /* Only the specifiers can be wrong; the label itself is the
         * security module's business at exec time. */
        r = expand(ctx, value, SPECIFIER_FULL, j, c, &e, NULL);
        return r < 0 ? r : 0;
}

/* allow_template: dependencies may name a template; systemd fills in the
 * unit's own instance (or, for a plain unit, its prefix). */
static int check_unit_name(const JudgeContext *ctx, const Directive *d, const char *value, bool allow_template,
                           Judgement *j, Check *c) {
        _cleanup_free_ char *expanded = NULL;
        const char *e = value;
        int r;

        /* Most names have no specifier: judge them as written, without a copy. */
        if (strchr(value, '%')) {
                r = expand(ctx, value, SPECIFIER_UNIT_NAME, j, c, &expanded, &e);
                if (r <= 0)
                        return r;
        }
        if (directive_values(d) && directive_values(d)[0] == '.' && !endswith(e, directive_values(d))) {
                c->invalid = true;
                return set_message(j, "'%s': unit must be of type %s", e, directive_values(d) + 1);
        }
        if (!unit_name_is_valid(e, UNIT_NAME_PLAIN | UNIT_NAME_INSTANCE |
                                           (allow_template ? UNIT_NAME_TEMPLATE : 0))) {
                c->invalid = true;
                return set_message(j, "'%s' is not a valid unit name", e);
        }
        return 0;
}

/* Whether a name of len bytes passes check_unit_name() as written: a
 * valid name of an allowed form (which has no '%': nothing to expand),
 * of the type the directive asks for if it does. Most names of a list
 * are such, told without check_unit_name()'s search for a '%' and
 * measuring; any other name goes through check_unit_name(), which finds
 * what is wrong with it. */
static bool unit_name_plainly_ok(const Directive *d, const char *name, size_t len, bool allow_template) {
        const char *type = directive_values(d);
        int kind = unit_name_classify_type_n(name, len, NULL);
        size_t k;

        if (kind < 0 || !(kind & (UNIT_NAME_PLAIN | UNIT_NAME_INSTANCE | (allow_template ? UNIT_NAME_TEMPLATE : 0))))
                return false;
        if (!type || type[0] != '.')
                return true;
        k = strlen(type);
        return len >= k && memcmp(name + len - k, type, k) == 0;
}

static int check_unit_name_list(const JudgeContext *ctx, const Directive *d, const char *value, Judgement *j,
                                Check *c) {
        _cleanup_(word_room_done) WordRoom word;
        const char *p = value;
        bool any_good = false;
        bool allow_template = d->section_id == DIRECTIVE_SECTION_UNIT;
        size_t n, len;
        int r;

        n = strlen(value);
        r = word_room_init(&word, n);
        if (r < 0)
                return r;
        for (;;) {
                Check wc = {};

                r = next_word(&p, value, value + n, word.data, &len, j, c);
                if (r == 0)
                        break;
                if (r < 0)
                        return r == -EBADMSG ? 0 : r; /* a syntax error is recorded in j */
                if (unit_name_plainly_ok(d, word.data, len, allow_template)) {
                        any_good = true;
                        continue;
                }
                r = check_unit_name(ctx, d, word.data, allow_template, j, &wc);
                if (r < 0)
                        return r;
                if (wc.invalid)
                        c->invalid = true;
                else
                        any_good = true;
        }
        /* Each bad name is skipped on its own. */
        j->partial = c->invalid && any_good;
        return 0;
}

/* A word of a values list matches; "word!" is a deprecated word (accepted
 * with a warning), "word^N" a word systemd accepts since version N (both
 * may be combined: "word^N!"), "@bool" any boolean, "@uint:MAX" a number
 * 0..MAX. */
static bool enum_word_ok(const char *allowed, const char *value, unsigned version, bool *deprecated) {
        const char *max, *caret;
        size_t n;
        bool dep = false;

        /* A plain word (at least its first character) must begin the value:
         * most words of a list fail here, without being taken apart. */
        if (allowed[0] != '@' && allowed[0] != '^' && allowed[0] != value[0])
                return false;
        n = strlen(allowed);
        if (streq(allowed, "@bool"))
                return parse_boolean(value) >= 0;
        if ((max = startswith(allowed, "@uint:"))) {
                char args[48];
                /* The nulstr "unsigned\0max=MAX\0\0": snprintf adds the last NUL. */
                snprintf(args, sizeof args, "unsigned%cmax=%s%c", 0, max, 0);
                return value_check_integer(value, args, version) == VALUE_OK;
        }
        if (n > 1 && allowed[n - 1] == '!') {
                dep = true;
                n--;
        }
        caret = memchr(allowed, '^', n);
        if (caret) {
                if ((unsigned) strtoul(caret + 1, NULL, 10) > version)
                        return false;   /* not known to this version */
                n = (size_t) (caret - allowed);
        }
        if (strlen(value) != n || strncmp(allowed, value, n) != 0)
                return false;
        if (dep)
                *deprecated = true;
        return true;
}

static bool enum_ok(const Directive *d, const char *value, unsigned version, bool *deprecated) {
        NULSTR_FOREACH(v, directive_values(d))
                if (enum_word_ok(v, value, version, deprecated))
                        return true;
        return false;
}

/* fdname_is_valid(): printable ASCII without ':', at most 255 bytes. */
static bool fdname_ok(const char *s) {
        if (strlen(s) > 255)
                return false;
        for (; *s; s++)
                if (*s < ' ' || *s > '~' || *s == ':')
                        return false;
        return true;
}

static int check_stdio(const JudgeContext *ctx, const Directive *d, const char *value, Judgement *j, Check *c,
                       bool *ret_fatal_kind) {
        static const char *const inputs[] = { "null", "tty", "tty-force", "tty-fail", "socket", "data", NULL };
        /* "syslog" is read as "journal", with a warning ('!'). */
        static const char *const outputs[] = { "inherit", "null", "tty", "journal", "kmsg", "journal+console",
                                               "kmsg+console", "socket", "syslog!", "syslog+console!", NULL };
        bool output = d->kind == DIRECTIVE_STDIO_OUTPUT;
        const char *rest;
        unsigned v = ctx->version;

        /* Only file:/fd: style errors were ever fatal (v239-v246). */
        if ((rest = startswith(value, "fd:")) && sd_behaves(SD_STDIO_FD, v)) {
                _cleanup_free_ char *buf = NULL;
                const char *e;
                int r = expand(ctx, rest, SPECIFIER_FULL, j, c, &buf, &e);

                *ret_fatal_kind = true;
                if (r <= 0)
                        return r;
                if (!fdname_ok(e)) {
                        c->invalid = true;
                        return set_message(j, "invalid file descriptor name '%s'", e);
                }
                return 0;
        }
        if (((rest = startswith(value, "file:")) && sd_behaves(SD_STDIO_FILE, v)) ||
            (output && (rest = startswith(value, "append:")) && sd_behaves(SD_STDIO_APPEND, v)) ||
            (output && (rest = startswith(value, "truncate:")) && sd_behaves(SD_STDIO_TRUNCATE, v))) {
                *ret_fatal_kind = true;
                return check_path(ctx, rest, j, c);
        }

        for (const char *const *w = output ? outputs : inputs; *w; w++)
                if (enum_word_ok(*w, value, v, &c->deprecated))
                        return 0;
        c->invalid = true;
        return set_message(j, "unknown %s specifier '%s'", output ? "output" : "input", value);
}

/* The kinds with a parser in value-check.h: specifiers first, then the
 * parser, with the directive's values column as its arguments. */
static int check_value_kind(const JudgeContext *ctx, const Directive *d, const char *value, Judgement *j,
                            Check *c) {
        ValueCheckFn fn = value_checker(d->kind);
        _cleanup_free_ char *buf = NULL;
        const char *e;
        int r;

        /* "@verbatim": systemd takes the value without specifiers. */
        if (strchr(value, '%') && !value_args_has(directive_values(d), "@verbatim")) {
                bool deferred = j->deferred;

                r = expand(ctx, value, SPECIFIER_FULL, j, c, &buf, &e);
                /* Free text that depends on the instance is fine as it is. */
                if (!fn)
                        j->deferred = deferred;
                if (r <= 0)
                        return r;
                if (!e[0] && fn) {
                        /* "%i" of a plain unit: nothing is left to parse. */
                        c->invalid = true;
                        return set_message(j, "'%s' expands to nothing", value);
                }
                value = e;
        }
        if (!fn)
                return 0; /* free text: any non-empty value passes */
        r = fn(value, directive_values(d), ctx->version);
        if (r < 0)
                return r;
        switch (r) {
        case VALUE_BAD_PART:
                j->partial = true;
                _fallthrough_;
        case VALUE_BAD:
                c->invalid = true;
                return set_message(j, "invalid %s value '%s'", directive_kind_to_string(d->kind), value);
        default:
                return 0;
        }
}

static int judge_value(const JudgeContext *ctx, const Directive *d, const char *value, Judgement *j, Check *c,
                       bool *fatal_kind) {
        bool root = false;
        int r;

        switch (d->kind) {
        case DIRECTIVE_BOOL:
                if (parse_boolean(value) < 0) {
                        c->invalid = true;
                        return set_message(j, "'%s' is not a boolean", value);
                }
                return 0;
        case DIRECTIVE_USER:
        case DIRECTIVE_GROUP:
                r = check_user(ctx, value, j, c, &root);
                j->names_root = root;
                return r;
        case DIRECTIVE_GROUP_LIST:
                return check_group_list(ctx, value, j, c);
        case DIRECTIVE_EXEC:
                return check_exec(ctx, value, j, c);
        case DIRECTIVE_PATH:
                return check_path(ctx, value, j, c);
        case DIRECTIVE_WORKING_DIRECTORY:
                return check_working_directory(ctx, value, j, c);
        case DIRECTIVE_SECURITY_LABEL:
                return check_security_label(ctx, value, j, c);
        case DIRECTIVE_UNIT_NAME:
                /* Timers and paths may trigger a template ("@template"). */
                return check_unit_name(ctx, d, value, directive_values(d) && streq(directive_values(d), "@template"), j, c);
        case DIRECTIVE_UNIT_NAME_LIST:
                return check_unit_name_list(ctx, d, value, j, c);
        case DIRECTIVE_ENUM:
                if (!enum_ok(d, value, ctx->version, &c->deprecated)) {
                        c->invalid = true;
                        return set_message(j, "'%s' is not a valid value for %s=", value, directive_name(d));
                }
                return 0;
        case DIRECTIVE_STDIO_INPUT:
        case DIRECTIVE_STDIO_OUTPUT:
                return check_stdio(ctx, d, value, j, c, fatal_kind);
        default:
                return check_value_kind(ctx, d, value, j, c);
        }
}

int judge_assignment(const JudgeContext *ctx, const char *section, const char *key, const char *value,
                     Judgement *ret) {
        return judge_assignment_in(ctx, directive_section_from_name(section), section, key, value, ret);
}

int judge_assignment_in(const JudgeContext *ctx, DirectiveSection section_id, const char *section, const char *key,
                        const char *value, Judgement *ret) {
        return judge_assignment_in_n(ctx, section_id, section, key, strlen(key), value, ret);
}

int judge_assignment_in_n(const JudgeContext *ctx, DirectiveSection section_id, const char *section, const char *key,
                          size_t key_len, const char *value, Judgement *ret) {
        JudgeContext c2 = *ctx;
        Judgement j = {};
        Check c = {};
        const Directive *d;
        bool fatal, fatal_kind = true;
        int r;

        *ret = (Judgement) {};
        if (!value)
                value = "";

        if (c2.type < 0 || c2.type >= _UNIT_TYPE_MAX)
                c2.type = c2.unit_name ? unit_name_to_type(c2.unit_name) : _UNIT_TYPE_INVALID;

        /* X- sections and keys are for other programs: silently ignored. */
        if (startswith(section, "X-") || startswith(key, "X-"))
                return 0;

        if (!directive_section_in_type(section_id, c2.type)) {
                j.verdict = VERDICT_IGNORED;
                r = set_message(&j, "unknown section '%s'", section);
                goto finish;
        }

        d = directive_lookup_in_n(c2.type, section_id, key, key_len);
        if (!d || !directive_exists_in(d, c2.version)) {
                j.verdict = VERDICT_IGNORED;
                r = set_message(&j, "unknown key '%s' in section [%s]", key, section);
                goto finish;
        }
        j.directive = d;
        fatal = directive_is_fatal(d, c2.version);
        /* For StandardInput=/Output=/Error= only file:/fd: errors were fatal. */
        fatal_kind = d->kind != DIRECTIVE_STDIO_INPUT && d->kind != DIRECTIVE_STDIO_OUTPUT;

        if (!value[0]) {
                switch (d->empty) {
                case DIRECTIVE_EMPTY_RESETS:
                        j.verdict = VERDICT_RESET;
                        /* An empty User= puts the service back to root. */
                        j.names_root = d->kind == DIRECTIVE_USER;
                        if (d->deprecated) {
                                j.verdict = VERDICT_NOTICE;
                                r = set_message(&j, "%s= is deprecated; systemd %u warns about it", key,
                                                c2.version);
                        } else
                                r = set_message(&j, "empty %s= resets it to the default", key);
                        goto finish;
                case DIRECTIVE_EMPTY_IGNORED:
                        /* A silent no-op: nothing to warn about. */
                        j.verdict = VERDICT_OK;
                        r = 0;
                        goto finish;
                case DIRECTIVE_EMPTY_INVALID:
                        c.invalid = true;
                        r = set_message(&j, "empty value is not valid for %s=", key);
                        if (r < 0)
                                goto finish;
                        break;
                }
        } else {
                r = judge_value(&c2, d, value, &j, &c, &fatal_kind);
                if (r < 0)
                        goto finish;
        }

        j.invalid = c.invalid;
        if (c.invalid) {
                bool would_be_fatal = fatal && fatal_kind && !c.line_drop;

                if (would_be_fatal && c.dash && d->dash_escape) {
                        j.dash_escaped = true;
                        j.verdict = VERDICT_IGNORED;
                } else
                        j.verdict = would_be_fatal ? VERDICT_FATAL : VERDICT_IGNORED;
                /* A bad part of a fatal value refuses the unit as a whole. */
                if (j.verdict == VERDICT_FATAL)
                        j.partial = false;
                /* [Install] is only read by "systemctl enable", never at load. */
                if (d->section_id == DIRECTIVE_SECTION_INSTALL)
                        j.verdict = VERDICT_OK;
        } else if (j.deferred) {
                j.verdict = VERDICT_OK;
                if (!j.message)
                        r = set_message(&j, "'%s' depends on the instance name", value);
        } else if (c.notice)
                j.verdict = VERDICT_NOTICE;
        else if (c.deprecated || d->deprecated) {
                j.verdict = VERDICT_NOTICE;
                r = set_message(&j, "%s=%s is deprecated; systemd %u warns about it", key, value, c2.version);
                if (r < 0)
                        goto finish;
        }
        else {
                j.verdict = VERDICT_OK;
                if (j.message) {
                        free(j.message);
                        j.message = NULL;
                }
        }
        r = 0;

finish:
        if (r < 0) {
                judgement_done(&j);
                return r;
        }
        *ret = j;
        return 0;
}

void judgement_done(Judgement *j) {
        if (!j)
                return;
        free(j->message);
        *j = (Judgement) {};
}

const char *verdict_to_string(Verdict v) {
        static const char *const names[] = {
                [VERDICT_OK] = "ok",           [VERDICT_NOTICE] = "notice", [VERDICT_RESET] = "reset",
                [VERDICT_IGNORED] = "ignored", [VERDICT_FATAL] = "fatal",
        };

        if ((int) v < 0 || (size_t) v >= ELEMENTSOF(names))
                return NULL;
        return names[v];
}
