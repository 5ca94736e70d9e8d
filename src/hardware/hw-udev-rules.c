/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* SYSTEMD_WANTS in udev rules: which units udev pulls in, for which devices. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/alloc-util.h"
#include "basic/fileio.h"
#include "basic/strbuf.h"
#include "hw-udev-rules.h"
#include "lookup/root.h"

const char *const hw_udev_rules_dirs[] = {
        "/etc/udev/rules.d",
        "/run/udev/rules.d",
        "/usr/local/lib/udev/rules.d",
        "/usr/lib/udev/rules.d",
        "/lib/udev/rules.d",
        NULL,
};

static void wants_done(HwUdevWants *w) {
        free(w->unit);
        free(w->glob);
        free(w->match);
        for (size_t i = 0; i < w->n_matches; i++) {
                free(w->matches[i].name);
                free(w->matches[i].value);
        }
        free(w->matches);
        free(w->file);
}

void hw_udev_rules_done(HwUdevRules *r) {
        for (size_t i = 0; i < r->n; i++)
                wants_done(&r->wants[i]);
        free(r->wants);
        *r = (HwUdevRules) {};
}

/* One token of a rule: KEY[{ATTR}] OP "VALUE". */
typedef struct Token {
        char key[64], attr[128];
        char op[3];
        char *value;           /* unescaped: \" and \\ */
} Token;

/* Parses the next token at *p; 1 with a token, 0 at the end of the rule,
 * -EINVAL when the rule cannot be parsed (udev ignores such a line). */
static int next_token(const char **p, Token *t) {
        const char *s = *p;
        size_t n;
        StrBuf v = {};

        s += strspn(s, " \t,");
        if (!*s)
                return 0;
        n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");
        if (n == 0 || n >= sizeof(t->key))
                return -EINVAL;
        memcpy(t->key, s, n);
        t->key[n] = '\0';
        s += n;
        t->attr[0] = '\0';
        if (*s == '{') {
                const char *close = strchr(s, '}');

                if (!close || (size_t) (close - s - 1) >= sizeof(t->attr))
                        return -EINVAL;
                memcpy(t->attr, s + 1, (size_t) (close - s - 1));
                t->attr[close - s - 1] = '\0';
                s = close + 1;
        }
        s += strspn(s, " \t");
        if ((s[0] == '=' || s[0] == '!' || s[0] == '+' || s[0] == '-' || s[0] == ':') && s[1] == '=') {
                t->op[0] = s[0];
                t->op[1] = '=';
                t->op[2] = '\0';
                s += 2;
        } else if (s[0] == '=') {
                t->op[0] = '=';
                t->op[1] = '\0';
                s++;
        } else
                return -EINVAL;
        s += strspn(s, " \t");
        if (*s == 'e' && s[1] == '"')
                s++;   /* e"..." (escapes); kept as written apart from \" */
        if (*s != '"')
                return -EINVAL;
        for (s++; *s && *s != '"'; s++) {
                if (*s == '\\' && (s[1] == '"' || s[1] == '\\'))
                        s++;
                if (strbuf_append_char(&v, *s) < 0) {
                        strbuf_done(&v);
                        return -ENOMEM;
                }
        }
        if (*s != '"') {
                strbuf_done(&v);
                return -EINVAL;
        }
        t->value = strbuf_steal(&v);
        if (!t->value)
                return -ENOMEM;
        *p = s + 1;
        return 1;
}

/* "systemd-backlight@backlight:$name.service" -> "systemd-backlight@backlight:*.service" */
static char *subst_to_glob(const char *s) {
        StrBuf b = {};
        int r = 0;

        for (; *s && r >= 0; s++) {
                if ((*s == '$' || *s == '%') && s[1] == *s) {
                        r = strbuf_append_char(&b, *s);
                        s++;
                } else if (*s == '$' && ((s[1] >= 'a' && s[1] <= 'z'))) {
                        s++;
                        while (s[1] >= 'a' && s[1] <= 'z')
                                s++;
                        if (s[1] == '{') {
                                const char *c = strchr(s + 1, '}');
                                s = c ? c : s + strlen(s) - 1;
                        }
                        r = strbuf_append_char(&b, '*');
                } else if (*s == '%' && s[1] && strchr("rpbkmnNMsEcS", s[1])) {
                        s++;
                        if (s[1] == '{') {
                                const char *c = strchr(s + 1, '}');
                                s = c ? c : s + strlen(s) - 1;
                        }
                        r = strbuf_append_char(&b, '*');
                } else
                        r = strbuf_append_char(&b, *s);
        }
        if (r < 0) {
                strbuf_done(&b);
                return NULL;
        }
        return strbuf_steal(&b);
}

static int add_match(HwUdevWants *w, HwUdevMatchKey key, const char *name, const char *value, bool negate) {
        HwUdevMatch *l;

        if (w->n_matches >= HW_UDEV_MATCHES_MAX) {
                w->simple = false;
                return 0;
        }
        l = reallocarray_safe(w->matches, w->n_matches + 1, sizeof(HwUdevMatch));
        if (!l)
                return -ENOMEM;
        w->matches = l;
        l[w->n_matches] = (HwUdevMatch) { .key = key, .negate = negate };
        l[w->n_matches].value = strdup(value);
        l[w->n_matches].name = name ? strdup(name) : NULL;
        w->n_matches++;
        if (!l[w->n_matches - 1].value || (name && !l[w->n_matches - 1].name))
                return -ENOMEM;
        return 0;
}

/* A match key of the rule: recorded when simple, else the rule is not. */
static int record_match(HwUdevWants *w, const Token *t) {
        bool neg = t->op[0] == '!';

        if (streq(t->key, "SUBSYSTEM"))
                return add_match(w, UDEV_MATCH_SUBSYSTEM, NULL, t->value, neg);
        if (streq(t->key, "KERNEL"))
                return add_match(w, UDEV_MATCH_KERNEL, NULL, t->value, neg);
        if (streq(t->key, "DRIVER"))
                return add_match(w, UDEV_MATCH_DRIVER, NULL, t->value, neg);
        if (streq(t->key, "ACTION"))
                return add_match(w, UDEV_MATCH_ACTION, NULL, t->value, neg);
        if ((streq(t->key, "ATTR") && streq(t->attr, "modalias")) ||
            (streq(t->key, "ENV") && streq(t->attr, "MODALIAS")))
                return add_match(w, UDEV_MATCH_MODALIAS, NULL, t->value, neg);
        if (streq(t->key, "ENV") && t->attr[0])
                return add_match(w, UDEV_MATCH_ENV, t->attr, t->value, neg);
        w->simple = false;     /* ATTRS, SUBSYSTEMS, TAG, PROGRAM, ... */
        return 0;
}

static int add_wants(HwUdevRules *rules, const char *file, unsigned line, const char *match_text,
                     const HwUdevWants *tmpl, const char *unit, bool user) {
        HwUdevWants *w;
        int r;

        if (rules->n >= HW_UDEV_WANTS_MAX)
                return -E2BIG;
        r = GREEDY_REALLOC(rules->wants, rules->allocated, rules->n + 1);
        if (r < 0)
                return r;
        w = &rules->wants[rules->n];
        *w = (HwUdevWants) { .line = line, .simple = tmpl->simple, .user = user };
        rules->n++;
        w->unit = strdup(unit);
        w->glob = subst_to_glob(unit);
        w->match = strdup(match_text);
        w->file = strdup(file);
        if (!w->unit || !w->glob || !w->match || !w->file)
                return -ENOMEM;
        for (size_t i = 0; i < tmpl->n_matches; i++) {
                r = add_match(w, tmpl->matches[i].key, tmpl->matches[i].name, tmpl->matches[i].value,
                              tmpl->matches[i].negate);
                if (r < 0)
                        return r;
        }
        return 0;
}

static void matches_free(HwUdevMatch *m, size_t n) {
        for (size_t i = 0; i < n; i++) {
                free(m[i].name);
                free(m[i].value);
        }
        free(m);
}

/* A GOTO="label" seen earlier in the file whose LABEL is still ahead: the
 * rules in between run only when the GOTO rule's match keys did not all
 * hold. */
typedef struct PendingGoto {
        char *label;
        unsigned line;         /* of the GOTO rule */
        size_t target;         /* index of the logical line with the label */
        HwUdevWants cond;      /* the GOTO rule's match keys (matches, simple) */
} PendingGoto;

/* What the rules in between the GOTOs still pending and their labels need:
 * the negation of each GOTO rule's match. One match key negates into one
 * match key; none (an unconditional GOTO) means the rule is never reached
 * (returns 0); more is a disjunction, which the simple form cannot hold. */
static int add_goto_conditions(HwUdevWants *tmpl, const PendingGoto *gotos, size_t n_gotos) {
        for (size_t i = 0; i < n_gotos; i++) {
                const HwUdevWants *c = &gotos[i].cond;
                int r;

                if (c->simple && c->n_matches == 0)
                        return 0;
                if (!c->simple || c->n_matches > 1) {
                        tmpl->simple = false;
                        continue;
                }
                r = add_match(tmpl, c->matches[0].key, c->matches[0].name, c->matches[0].value, !c->matches[0].negate);
                if (r < 0)
                        return r;
        }
        return 1;
}

/* Adds one wants record per unit named in the space-separated list. */
static int add_unit_list(HwUdevRules *rules, const char *file, unsigned line, const char *match_text,
                         const HwUdevWants *tmpl, char *units, bool user) {
        for (char *u = units, *end; *u; u = end) {
                int r;

                u += strspn(u, " \t");
                if (!*u)
                        break;
                end = u + strcspn(u, " \t");
                if (*end)
                        *end++ = '\0';
                r = add_wants(rules, file, line, match_text, tmpl, u, user);
                if (r < 0)
                        return r;
        }
        return 1;
}

/* One logical rule line: its SYSTEMD_WANTS and SYSTEMD_USER_WANTS units,
 * and its GOTO and LABEL (*ret_goto, *ret_label, owned, NULL when none;
 * *ret_goto_cond gets the rule's match keys when it has a GOTO). */
static int parse_rule(HwUdevRules *rules, const char *file, unsigned line, const char *text,
                      const PendingGoto *gotos, size_t n_gotos, char **ret_goto, HwUdevWants *ret_goto_cond,
                      char **ret_label) {
        _cleanup_(strbuf_done) StrBuf match_text = {}, units = {}, user_units = {};
        _cleanup_free_ char *goto_label = NULL, *label = NULL;
        HwUdevWants tmpl = { .simple = true };
        const char *p = text;
        Token t;
        int r;

        *ret_goto = *ret_label = NULL;
        for (;;) {
                r = next_token(&p, &t);
                if (r <= 0)
                        break;
                if (streq(t.op, "==") || streq(t.op, "!=")) {
                        r = record_match(&tmpl, &t);
                        if (r >= 0)
                                r = strbuf_printf(&match_text, "%s%s%s%s%s%s\"%s\"", match_text.len ? ", " : "",
                                                  t.key, t.attr[0] ? "{" : "", t.attr, t.attr[0] ? "}" : "", t.op,
                                                  t.value);
                } else if (streq(t.key, "ENV") &&
                           (streq(t.attr, "SYSTEMD_WANTS") || streq(t.attr, "SYSTEMD_USER_WANTS"))) {
                        StrBuf *b = streq(t.attr, "SYSTEMD_USER_WANTS") ? &user_units : &units;

                        if (!streq(t.op, "+="))
                                strbuf_reset(b);     /* = and := replace */
                        r = strbuf_printf(b, "%s ", t.value);
                } else if (streq(t.key, "GOTO")) {
                        free(goto_label);
                        goto_label = TAKE_PTR(t.value);
                } else if (streq(t.key, "LABEL")) {
                        free(label);
                        label = TAKE_PTR(t.value);
                }
                free(t.value);
                if (r < 0)
                        break;
        }
        if (r == -EINVAL)
                r = 0;          /* a line udev cannot parse pulls nothing in and jumps nowhere */
        else if (r >= 0 && goto_label) {
                *ret_goto_cond = (HwUdevWants) { .simple = tmpl.simple };
                for (size_t i = 0; r >= 0 && i < tmpl.n_matches; i++)
                        r = add_match(ret_goto_cond, tmpl.matches[i].key, tmpl.matches[i].name,
                                      tmpl.matches[i].value, tmpl.matches[i].negate);
                *ret_goto = TAKE_PTR(goto_label);
        }
        if (r >= 0 && (units.len > 0 || user_units.len > 0)) {
                /* The rule's own match keys, then what the pending GOTOs imply. */
                const char *m;

                /* Reports say which GOTOs the rule sits behind. */
                for (size_t i = 0; r >= 0 && i < n_gotos; i++)
                        r = strbuf_printf(&match_text, "%snot GOTO=\"%s\" of line %u", match_text.len ? ", " : "",
                                          gotos[i].label, gotos[i].line);
                m = match_text.data ? match_text.data : "";
                if (r >= 0)
                        r = add_goto_conditions(&tmpl, gotos, n_gotos);
                if (r > 0 && units.len > 0)
                        r = add_unit_list(rules, file, line, m, &tmpl, units.data, false);
                if (r > 0 && user_units.len > 0)
                        r = add_unit_list(rules, file, line, m, &tmpl, user_units.data, true);
        }
        matches_free(tmpl.matches, tmpl.n_matches);
        if (r >= 0)
                *ret_label = TAKE_PTR(label);
        return r < 0 ? r : 0;
}

/* A comment line: '#' after blanks, within the n bytes of the line (the
 * text is not NUL-terminated). */
static bool is_comment(const char *p, size_t n) {
        size_t i = 0;

        while (i < n && (p[i] == ' ' || p[i] == '\t'))
                i++;
        return i < n && p[i] == '#';
}

/* Calls fn for each logical line of a rules file (continuations joined,
 * comment lines left out, lines with NUL bytes skipped), with the number
 * of its first physical line and its index among the logical lines. */
typedef int (*LogicalLineFn)(const char *text, unsigned line, size_t index, void *userdata);

static int for_each_logical_line(const char *text, size_t size, LogicalLineFn fn, void *userdata) {
        _cleanup_(strbuf_done) StrBuf logical = {};
        const char *p = text, *end = text + size;
        unsigned line = 0, first = 0;
        size_t index = 0;
        int r;

        while (p < end) {
                const char *nl = memchr(p, '\n', (size_t) (end - p));
                size_t n = (size_t) ((nl ? nl : end) - p);
                bool cont;

                line++;
                if (n > 0 && p[n - 1] == '\r')
                        n--;
                cont = n > 0 && p[n - 1] == '\\';
                if (logical.len == 0)
                        first = line;
                if (!(logical.len == 0 && is_comment(p, n))) {
                        r = strbuf_append(&logical, p, cont ? n - 1 : n);
                        if (r < 0)
                                return r;
                }
                p = nl ? nl + 1 : end;
                if (cont && p < end)
                        continue;
                if (logical.len > 0 && !memchr(logical.data, '\0', logical.len)) {
                        r = fn(logical.data, first, index++, userdata);
                        if (r < 0)
                                return r;
                }
                strbuf_reset(&logical);
        }
        return 0;
}

typedef struct Label {
        char *name;
        size_t index;          /* the logical line that carries it */
} Label;

typedef struct ParseState {
        HwUdevRules *rules;
        const char *file;
        Label *labels;
        size_t n_labels, allocated_labels;
        PendingGoto *gotos;
        size_t n_gotos, allocated_gotos;
} ParseState;

static void parse_state_done(ParseState *st) {
        for (size_t i = 0; i < st->n_labels; i++)
                free(st->labels[i].name);
        free(st->labels);
        for (size_t i = 0; i < st->n_gotos; i++) {
                free(st->gotos[i].label);
                matches_free(st->gotos[i].cond.matches, st->gotos[i].cond.n_matches);
        }
        free(st->gotos);
}

/* The first pass: where each LABEL is (a GOTO counts only when its label
 * comes later in the same file; udev ignores it otherwise). */
static int collect_label(const char *text, unsigned line, size_t index, void *userdata) {
        ParseState *st = userdata;
        _cleanup_free_ char *label = NULL;
        const char *p = text;
        Token t;
        int r;

        (void) line;
        if (!strstr(text, "LABEL"))
                return 0;
        while ((r = next_token(&p, &t)) > 0) {
                if (streq(t.key, "LABEL")) {
                        free(label);
                        label = TAKE_PTR(t.value);
                }
                free(t.value);
        }
        /* A line udev cannot parse is ignored whole, its label too. */
        if (r < 0 || !label)
                return r == -ENOMEM ? r : 0;
        if (GREEDY_REALLOC(st->labels, st->allocated_labels, st->n_labels + 1) < 0)
                return -ENOMEM;
        st->labels[st->n_labels++] = (Label) { TAKE_PTR(label), index };
        return 0;
}

/* Where a GOTO at index lands: the first such LABEL after it. */
static bool label_ahead(const ParseState *st, const char *name, size_t index, size_t *ret) {
        for (size_t i = 0; i < st->n_labels; i++)
                if (st->labels[i].index > index && streq(st->labels[i].name, name)) {
                        *ret = st->labels[i].index;
                        return true;
                }
        return false;
}

static int parse_line(const char *text, unsigned line, size_t index, void *userdata) {
        ParseState *st = userdata;
        _cleanup_free_ char *goto_label = NULL, *label = NULL;
        HwUdevWants goto_cond = {};
        size_t k = 0, target;
        bool nested = false;
        int r;

        if (!strstr(text, "SYSTEMD_") && !strstr(text, "GOTO") && !strstr(text, "LABEL"))
                return 0;
        /* A rule that carries a label is where the GOTOs to it land. */
        for (size_t g = 0; g < st->n_gotos; g++)
                if (st->gotos[g].target == index) {
                        free(st->gotos[g].label);
                        matches_free(st->gotos[g].cond.matches, st->gotos[g].cond.n_matches);
                        st->gotos[g].label = NULL;
                }
        for (size_t g = 0; g < st->n_gotos; g++)
                if (st->gotos[g].label)
                        st->gotos[k++] = st->gotos[g];
        st->n_gotos = k;
        r = parse_rule(st->rules, st->file, line, text, st->gotos, st->n_gotos, &goto_label, &goto_cond, &label);
        if (r < 0) {
                matches_free(goto_cond.matches, goto_cond.n_matches);
                return r;
        }
        if (!goto_label || !label_ahead(st, goto_label, index, &target)) {
                matches_free(goto_cond.matches, goto_cond.n_matches);
                return 0;
        }
        /* Whether this GOTO is reached at all depends on the pending ones;
         * that matters only past a label that comes before this one's. */
        for (size_t g = 0; g < st->n_gotos; g++)
                nested = nested || st->gotos[g].target < target;
        if (nested)
                goto_cond.simple = false;
        if (GREEDY_REALLOC(st->gotos, st->allocated_gotos, st->n_gotos + 1) < 0) {
                matches_free(goto_cond.matches, goto_cond.n_matches);
                return -ENOMEM;
        }
        st->gotos[st->n_gotos++] = (PendingGoto) { TAKE_PTR(goto_label), line, target, goto_cond };
        return 0;
}

int hw_udev_rules_parse(HwUdevRules *rules, const char *file, const char *text, size_t size) {
        ParseState st = { .rules = rules, .file = file };
        int r;

        r = for_each_logical_line(text, size, collect_label, &st);
        if (r >= 0)
                r = for_each_logical_line(text, size, parse_line, &st);
        parse_state_done(&st);
        return r;
}

/* Rules files are read in the order of their names, wherever they are. */
static int cmp_base(const void *a, const void *b) {
        return strcmp(strrchr(*(char *const *) a, '/'), strrchr(*(char *const *) b, '/'));
}

int hw_udev_rules_load(const Root *root, HwUdevRules *ret, DiagList *diags) {
        _cleanup_(hw_udev_rules_done) HwUdevRules rules = {};
        char **names = NULL;
        size_t n = 0;
        int r = 0;

        /* Collect file names: the first directory that has a name wins. */
        for (const char *const *d = hw_udev_rules_dirs; *d && r >= 0; d++) {
                _cleanup_free_ char *resolved = NULL;
                DIR *dir;
                struct dirent *de;
                int fd;

                if (root_chase(root, *d, 0, &resolved) < 0)
                        continue;
                fd = root_open_resolved(root, resolved, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                if (fd < 0)
                        continue;
                dir = fdopendir(fd);
                if (!dir) {
                        close(fd);
                        continue;
                }
                while (r >= 0 && (de = readdir(dir))) {
                        bool seen = false;
                        char **l;

                        if (de->d_name[0] == '.' || !endswith(de->d_name, ".rules"))
                                continue;
                        for (size_t i = 0; i < n && !seen; i++)
                                seen = streq(strrchr(names[i], '/') + 1, de->d_name);
                        if (seen)
                                continue;
                        if (n >= HW_UDEV_RULES_FILES_MAX) {
                                r = -E2BIG;
                                break;
                        }
                        l = reallocarray_safe(names, n + 1, sizeof(char *));
                        if (!l) {
                                r = -ENOMEM;
                                break;
                        }
                        names = l;
                        names[n] = root_path_join(*d, de->d_name);
                        if (!names[n]) {
                                r = -ENOMEM;
                                break;
                        }
                        n++;
                }
                closedir(dir);
        }
        if (n > 1)
                qsort(names, n, sizeof(char *), cmp_base);
        for (size_t i = 0; r >= 0 && i < n; i++) {
                _cleanup_free_ char *resolved = NULL, *text = NULL;
                size_t size = 0;
                int q;

                q = root_chase(root, names[i], 0, &resolved);
                if (q >= 0)
                        q = root_read_file(root, resolved, HW_UDEV_RULES_FILE_MAX, &text, &size);
                if (q == -ENOMEM)
                        r = q;
                else if (q < 0)
                        r = diag_add(diags, DIAG_WARNING, EFFECT_NONE, "hardware.udev-rules", names[i], 0, NULL, NULL,
                                     "cannot read udev rules: %s",
                                     q == -EFBIG ? "larger than 4 MiB" : read_error_to_string(q));
                else {
                        rules.n_files++;
                        r = hw_udev_rules_parse(&rules, names[i], text, size);
                }
        }
        for (size_t i = 0; i < n; i++)
                free(names[i]);
        free(names);
        if (r < 0)
                return r;
        *ret = rules;
        rules = (HwUdevRules) {};
        return 0;
}

static bool pattern_matches(const char *pattern, const char *s) {
        _cleanup_free_ char *copy = strdup(pattern);

        if (!copy)
                return false;
        if (!s)
                return pattern[0] == '\0';
        for (char *alt = copy, *bar; alt; alt = bar) {
                bar = strchr(alt, '|');
                if (bar)
                        *bar++ = '\0';
                if (fnmatch(alt, s, 0) == 0)
                        return true;
        }
        return false;
}

int hw_udev_wants_matches(const HwUdevWants *w, const HwDevice *d) {
        if (!w->simple)
                return -EDOM;
        for (size_t i = 0; i < w->n_matches; i++) {
                const HwUdevMatch *m = &w->matches[i];
                const char *v = NULL;
                bool hit;

                switch (m->key) {
                case UDEV_MATCH_SUBSYSTEM:
                        v = d->subsystem;
                        break;
                case UDEV_MATCH_KERNEL:
                        v = hw_device_sysname(d);
                        break;
                case UDEV_MATCH_DRIVER:
                        v = d->driver;
                        break;
                case UDEV_MATCH_MODALIAS:
                        v = d->modalias;
                        break;
                case UDEV_MATCH_ENV:
                        v = hw_device_prop(d, m->name);
                        break;
                case UDEV_MATCH_ACTION:
                        v = "add";
                        break;
                }
                hit = pattern_matches(m->value, v);
                if (hit == m->negate)
                        return 0;
        }
        return 1;
}
