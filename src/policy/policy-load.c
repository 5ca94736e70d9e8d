/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Policy files: YAML tree -> Policy, with `extends:` and strict checking.
 * Every problem is reported with file:line:col; nothing is ignored. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "policy-builtin.h"
#include "policy-file.h"
#include "policy-internal.h"
#include "policy-load-internal.h"
#include "unit/unit-type.h"
#include "yaml-tree.h"

#define POLICY_FILE_MAX YAML_SIZE_MAX


/* Messages quote tokens of the file: control characters in them are
 * written as \xNN, so that a message stays one line and cannot drive the
 * terminal. */
static char *escape_controls(const char *s) {
        size_t n = 0;
        char *t, *q;

        for (const char *p = s; *p; p++)
                n += (unsigned char) *p < 0x20 || *p == 0x7f ? 4 : 1;
        t = malloc(n + 1);
        if (!t)
                return NULL;
        q = t;
        for (const char *p = s; *p; p++)
                if ((unsigned char) *p < 0x20 || *p == 0x7f)
                        q += sprintf(q, "\\x%02x", (unsigned) (unsigned char) *p);
                else
                        *q++ = *p;
        *q = '\0';
        return t;
}

int load_fail(LoadContext *c, const YNode *at, const char *fmt, ...) {
        _cleanup_free_ char *raw = NULL;
        va_list ap;
        int r;

        policy_error_done(c->err);
        c->err->file = strdup(c->source);
        c->err->line = at ? at->line : 1;
        c->err->column = at ? at->column : 1;
        va_start(ap, fmt);
        r = vasprintf(&raw, fmt, ap);
        va_end(ap);
        if (r >= 0)
                c->err->message = escape_controls(raw);
        return -EINVAL;
}

static const char *kind_name(const YNode *n) {
        switch (n->kind) {
        case YNODE_SCALAR:
                return "a scalar";
        case YNODE_SEQUENCE:
                return "a list";
        case YNODE_MAPPING:
                return "a mapping";
        }
        return "?";
}

int load_expect_kind(LoadContext *c, const YNode *n, YNodeKind kind, const char *what) {
        static const char *const names[] = { "a scalar", "a list", "a mapping" };

        if (n->kind != kind)
                return load_fail(c, n, "%s must be %s, not %s", what, names[kind], kind_name(n));
        return 0;
}

int load_get_bool(LoadContext *c, const YNode *n, const char *what, bool *ret) {
        int r = load_expect_kind(c, n, YNODE_SCALAR, what);

        if (r < 0)
                return r;
        if (streq(n->scalar, "true") || streq(n->scalar, "yes"))
                *ret = true;
        else if (streq(n->scalar, "false") || streq(n->scalar, "no"))
                *ret = false;
        else
                return load_fail(c, n, "%s must be true or false, not '%s'", what, n->scalar);
        return 0;
}

int load_get_string(LoadContext *c, const YNode *n, const char *what, char **ret) {
        int r = load_expect_kind(c, n, YNODE_SCALAR, what);
        char *s;

        if (r < 0)
                return r;
        s = strdup(n->scalar);
        if (!s)
                return -ENOMEM;
        free(*ret);
        *ret = s;
        return 0;
}

/* A scalar that must be one of choices (NULL-terminated): its index. */
int load_get_choice(LoadContext *c, const YNode *n, const char *what, const char *const *choices, int *ret) {
        _cleanup_(strbuf_done) StrBuf list = {};
        int r = load_expect_kind(c, n, YNODE_SCALAR, what);

        if (r < 0)
                return r;
        for (int i = 0; choices[i]; i++)
                if (streq(choices[i], n->scalar)) {
                        *ret = i;
                        return 0;
                }
        /* "a or b", "a, b or c" */
        for (int i = 0; r >= 0 && choices[i]; i++)
                r = strbuf_printf(&list, "%s%s", i == 0 ? "" : choices[i + 1] ? ", " : " or ", choices[i]);
        if (r < 0)
                return r;
        return load_fail(c, n, "%s must be %s, not '%s'", what, list.data, n->scalar);
}

static int get_action(LoadContext *c, const YNode *n, const char *what, PolicyAction *ret) {
        const char *actions[_ACTION_MAX + 1] = {};
        int a, r;

        for (a = 0; a < _ACTION_MAX; a++)
                actions[a] = policy_action_to_string((PolicyAction) a);

        r = load_get_choice(c, n, what, actions, &a);
        if (r < 0)
                return r;
        *ret = (PolicyAction) a;
        return 0;
}

/* A choice between two words, the second meaning true. */
static int get_either(LoadContext *c, const YNode *n, const char *what, const char *no, const char *yes,
                      bool *ret) {
        const char *const choices[] = { no, yes, NULL };
        int i, r;

        r = load_get_choice(c, n, what, choices, &i);
        if (r < 0)
                return r;
        *ret = i == 1;
        return 0;
}

/* Checks that a mapping has only the given keys (NULL-terminated).
 * Repeated keys were refused before, for every mapping of the file. */
int load_check_keys(LoadContext *c, const YNode *map, const char *what, const char *const *allowed) {
        for (size_t i = 0; i + 1 < map->n_items; i += 2) {
                const YNode *k = map->items[i];
                bool ok = false;

                if (k->kind != YNODE_SCALAR)
                        return load_fail(c, k, "keys of %s must be scalars", what);
                for (const char *const *a = allowed; *a && !ok; a++)
                        ok = streq(*a, k->scalar);
                if (!ok)
                        return load_fail(c, k, "unknown key '%s' in %s", k->scalar, what);
        }
        return 0;
}

int load_compile_regex(LoadContext *c, const YNode *n, const char *pattern, void **ret) {
        _cleanup_free_ char *why = NULL;
        void *re = NULL;
        int r;

        r = regex_compile(pattern, &re, &why);
        if (r == -EINVAL)
                return load_fail(c, n, "invalid regular expression %s", why ? why : "");
        if (r < 0)
                return r;
        regex_free(*ret);
        *ret = re;
        return 0;
}

static int apply_user_names(LoadContext *c, Policy *p, const YNode *n) {
        static const char *const keys[] = { "rule", "regex", "numeric-ids", "empty-user", NULL };
        const YNode *v;
        int r;

        r = load_expect_kind(c, n, YNODE_MAPPING, "user-names");
        if (r >= 0)
                r = load_check_keys(c, n, "user-names", keys);
        if (r < 0)
                return r;

        if ((v = ynode_get(n, "rule"))) {
                r = load_expect_kind(c, v, YNODE_SCALAR, "user-names.rule");
                if (r < 0)
                        return r;
                if (streq(v->scalar, "systemd"))
                        p->user_rule = USER_RULE_SYSTEMD;
                else if (streq(v->scalar, "regex"))
                        p->user_rule = USER_RULE_REGEX;
                else {
                        int m = user_name_mode_from_string(v->scalar);

                        if (m < 0)
                                return load_fail(c, v, "unknown user-name rule '%s' (strict, relaxed, posix, debian, debian-system, shadow, shadow-upstream, rhel, systemd, regex)",
                                            v->scalar);
                        p->user_rule = m;
                }
        }
        if ((v = ynode_get(n, "regex"))) {
                r = load_get_string(c, v, "user-names.regex", &p->user_regex);
                if (r >= 0)
                        r = load_compile_regex(c, v, p->user_regex, &p->user_re);
                if (r < 0)
                        return r;
        }
        if (p->user_rule == USER_RULE_REGEX && !p->user_regex)
                return load_fail(c, n, "user-names.rule is regex but no user-names.regex is given");
        if ((v = ynode_get(n, "numeric-ids"))) {
                r = load_get_bool(c, v, "user-names.numeric-ids", &p->numeric_ids);
                if (r < 0)
                        return r;
        }
        if ((v = ynode_get(n, "empty-user"))) {
                bool allow;

                r = get_either(c, v, "user-names.empty-user", "reject", "allow", &allow);
                if (r < 0)
                        return r;
                p->empty_user_rejects = !allow;
        }
        return 0;
}

static int set_directive_action(Policy *p, const char *name, PolicyAction a) {
        size_t i;
        int r;

        /* An inherited entry is overridden in place. */
        if (name_index_find(&p->directive_names, name, policy_directive_key, p, &i) >= 0) {
                p->directives[i].action = a;
                return 0;
        }
        r = GREEDY_REALLOC(p->directives, p->allocated_directives, p->n_directives + 1);
        if (r < 0)
                return r;
        p->directives[p->n_directives] = (DirectiveAction) { .name = strdup(name), .action = a };
        if (!p->directives[p->n_directives].name)
                return -ENOMEM;
        r = name_index_add(&p->directive_names, p->n_directives, policy_directive_key, p);
        if (r < 0) {
                free(p->directives[p->n_directives].name);
                return r;
        }
        p->n_directives++;
        return 0;
}

static int apply_invalid(LoadContext *c, Policy *p, const YNode *n) {
        static const char *const keys[] = { "default", "directives", NULL };
        const YNode *v;
        int r;

        r = load_expect_kind(c, n, YNODE_MAPPING, "invalid");
        if (r >= 0)
                r = load_check_keys(c, n, "invalid", keys);
        if (r < 0)
                return r;
        if ((v = ynode_get(n, "default"))) {
                r = get_action(c, v, "invalid.default", &p->invalid_default);
                if (r < 0)
                        return r;
        }
        if ((v = ynode_get(n, "directives"))) {
                r = load_expect_kind(c, v, YNODE_MAPPING, "invalid.directives");
                if (r < 0)
                        return r;
                for (size_t i = 0; i + 1 < v->n_items; i += 2) {
                        const YNode *k = v->items[i];
                        PolicyAction a;

                        r = load_expect_kind(c, k, YNODE_SCALAR, "a directive name");
                        if (r < 0)
                                return r;
                        if (!policy_directive_name_known(k->scalar))
                                return load_fail(c, k, "unknown directive '%s'", k->scalar);
                        r = get_action(c, v->items[i + 1], "a directive's action", &a);
                        if (r >= 0)
                                r = set_directive_action(p, k->scalar, a);
                        if (r < 0)
                                return r;
                }
        }
        return 0;
}

int load_get_string_list(LoadContext *c, const YNode *n, const char *what, char ***ret, size_t *ret_n) {
        char **l;
        int r;

        /* A single scalar counts as a list of one. */
        if (n->kind == YNODE_SCALAR) {
                l = new0(char *, 1);
                if (!l || !(l[0] = strdup(n->scalar))) {
                        free(l);
                        return -ENOMEM;
                }
                *ret = l;
                *ret_n = 1;
                return 0;
        }
        r = load_expect_kind(c, n, YNODE_SEQUENCE, what);
        if (r < 0)
                return r;
        l = new0(char *, n->n_items);
        if (!l)
                return -ENOMEM;
        *ret = l;
        *ret_n = 0;
        for (size_t i = 0; i < n->n_items; i++) {
                r = load_expect_kind(c, n->items[i], YNODE_SCALAR, what);
                if (r < 0)
                        return r;
                l[i] = strdup(n->items[i]->scalar);
                if (!l[i])
                        return -ENOMEM;
                (*ret_n)++;
        }
        return 0;
}

int load_check_section_key(LoadContext *c, const YNode *at, const char *sk) {
        const char *dot = strchr(sk, '.');

        if (!dot || dot == sk || !dot[1])
                return load_fail(c, at, "'%s' must be written Section.Key", sk);
        return 0;
}

static int apply_when(LoadContext *c, Rewrite *rw, const YNode *n) {
        return load_condition(c, n, "when", NULL, NULL, &rw->when, &rw->when_text);
}

static bool is_identity_key(const char *key) {
        return streq(key, "User") || streq(key, "Group") || streq(key, "DynamicUser");
}

static int apply_rewrite_action(LoadContext *c, Rewrite *rw, const YNode *n, const char *verb) {
        static const char *const keys[] = { "section", "key", "value", "to", "matching", NULL };
        const YNode *section, *key, *value, *to, *matching;
        int r;

        r = load_expect_kind(c, n, YNODE_MAPPING, verb);
        if (r >= 0)
                r = load_check_keys(c, n, verb, keys);
        if (r < 0)
                return r;
        section = ynode_get(n, "section");
        key = ynode_get(n, "key");
        value = ynode_get(n, "value");
        to = ynode_get(n, "to");
        matching = ynode_get(n, "matching");
        if (!section || !key)
                return load_fail(c, n, "%s needs section and key", verb);
        /* Which existing entries the action applies to (set, remove, rename). */
        if (matching) {
                if (rw->kind == REWRITE_ADD)
                        return load_fail(c, matching, "add takes no 'matching'");
                r = load_get_string(c, matching, "matching", &rw->matching);
                if (r >= 0)
                        r = load_compile_regex(c, matching, rw->matching, &rw->value_re);
                if (r < 0)
                        return r;
        }
        r = load_get_string(c, section, "section", &rw->section);
        if (r >= 0)
                r = load_get_string(c, key, "key", &rw->key);
        if (r < 0)
                return r;
        if (!policy_directive_name_known(rw->key) && !startswith(rw->key, "X-"))
                return load_fail(c, key, "unknown directive '%s'", rw->key);

        switch (rw->kind) {
        case REWRITE_SET:
        case REWRITE_ADD:
                if (!value || to)
                        return load_fail(c, n, "%s needs section, key and value", verb);
                r = load_get_string(c, value, "value", &rw->value);
                if (r < 0)
                        return r;
                /* The promise: no rewrite ever makes a unit run as root. */
                if (rw->value[0] == '\0' && is_identity_key(rw->key))
                        return load_fail(c, value, "a rewrite must not set an empty %s= (the unit would run as root)",
                                    rw->key);
                if (streq(rw->key, "User") && (streq(rw->value, "root") || streq(rw->value, "0")))
                        return load_fail(c, value, "a rewrite must not make a unit run as root");
                /* The placeholder is expanded once, and only by add:; anywhere
                 * else it would reach the unit as literal text. */
                if (strstr(rw->value, POLICY_DEVICE_NODE_PLACEHOLDER) &&
                    (rw->kind != REWRITE_ADD ||
                     strstr(strstr(rw->value, POLICY_DEVICE_NODE_PLACEHOLDER) + 1, POLICY_DEVICE_NODE_PLACEHOLDER)))
                        return load_fail(c, value, rw->kind == REWRITE_ADD ?
                                         "%s may appear only once in a value" :
                                         "%s is expanded only in add:, not in set:",
                                         POLICY_DEVICE_NODE_PLACEHOLDER);
                break;
        case REWRITE_REMOVE:
                if (to || value)
                        return load_fail(c, to ? to : value, "remove takes only section, key and matching");
                if (is_identity_key(rw->key))
                        return load_fail(c, key, "a rewrite must not remove %s= (the unit could run as root)", rw->key);
                break;
        case REWRITE_RENAME:
                if (!to || value)
                        return load_fail(c, n, "rename needs section, key and to");
                if (is_identity_key(rw->key))
                        return load_fail(c, key, "a rewrite must not rename %s= (the unit could run as root)", rw->key);
                r = load_get_string(c, to, "to", &rw->to);
                if (r < 0)
                        return r;
                if (!policy_directive_name_known(rw->to) && !startswith(rw->to, "X-"))
                        return load_fail(c, to, "unknown directive '%s'", rw->to);
                break;
        }
        return 0;
}

static int apply_rewrite(LoadContext *c, Policy *p, const YNode *n) {
        static const char *const keys[] = { "id", "description", "when", "set", "add", "remove", "rename", NULL };
        static const char *const verbs[] = { "set", "add", "remove", "rename" };
        _cleanup_(rewrite_done) Rewrite rw = {};
        const YNode *v, *action = NULL;
        size_t i;
        int r;

        r = load_expect_kind(c, n, YNODE_MAPPING, "a rewrite");
        if (r >= 0)
                r = load_check_keys(c, n, "a rewrite", keys);
        if (r < 0)
                return r;
        if (!(v = ynode_get(n, "id")))
                return load_fail(c, n, "a rewrite needs an id");
        r = load_get_string(c, v, "id", &rw.id);
        if (r < 0)
                return r;
        if ((v = ynode_get(n, "description"))) {
                r = load_get_string(c, v, "description", &rw.description);
                if (r < 0)
                        return r;
        }
        if ((v = ynode_get(n, "when"))) {
                r = apply_when(c, &rw, v);
                if (r < 0)
                        return r;
        }
        for (i = 0; i < ELEMENTSOF(verbs); i++)
                if ((v = ynode_get(n, verbs[i]))) {
                        if (action)
                                return load_fail(c, v, "a rewrite has exactly one of set, add, remove, rename");
                        action = v;
                        rw.kind = (RewriteKind) i;
                }
        if (!action)
                return load_fail(c, n, "rewrite '%s' needs one of set, add, remove, rename", rw.id);
        r = apply_rewrite_action(c, &rw, action, verbs[rw.kind]);
        if (r < 0)
                return r;

        /* A rewrite with the id of an inherited one replaces it, in place. */
        if (name_index_find(&p->rewrite_ids, rw.id, policy_rewrite_key, p, &i) >= 0) {
                rewrite_done(&p->rewrites[i]);
                p->rewrites[i] = rw;
                rw = (Rewrite) {};
                return 0;
        }
        r = GREEDY_REALLOC(p->rewrites, p->allocated_rewrites, p->n_rewrites + 1);
        if (r < 0)
                return r;
        p->rewrites[p->n_rewrites] = rw;
        r = name_index_add(&p->rewrite_ids, p->n_rewrites, policy_rewrite_key, p);
        if (r < 0) {
                p->rewrites[p->n_rewrites] = (Rewrite) {};
                return r;
        }
        p->n_rewrites++;
        rw = (Rewrite) {};
        return 0;
}

static int load_source(LoadContext *c, const char *name_or_path, const char *relative_to,
                       const YNode *at, Policy **ret);

/* The rewrites of one file. Ids are unique within a file; an id that
 * repeats an inherited one replaces that rewrite. */
static const char *id_at(const void *ids, size_t i) {
        return ((const YNode *const *) ids)[i]->scalar;
}

static int apply_rewrites(LoadContext *c, Policy *p, const YNode *v) {
        _cleanup_free_ const YNode **ids = NULL;  /* by item: the id of each rewrite applied */
        NameIndex seen = {};
        int r;

        r = load_expect_kind(c, v, YNODE_SEQUENCE, "rewrites");
        if (r < 0)
                return r;
        ids = new0(const YNode *, v->n_items);
        if (!ids)
                return -ENOMEM;
        for (size_t i = 0; r >= 0 && i < v->n_items; i++) {
                size_t first;

                r = apply_rewrite(c, p, v->items[i]);
                if (r < 0)
                        break;
                ids[i] = ynode_get(v->items[i], "id");  /* a scalar, or apply_rewrite() refused it */
                if (name_index_find(&seen, ids[i]->scalar, id_at, ids, &first) >= 0)
                        r = load_fail(c, ids[i], "duplicate rewrite id '%s' (first given at line %u, column %u)",
                                 ids[i]->scalar, ids[first]->line, ids[first]->column);
                else
                        r = name_index_add(&seen, i, id_at, ids);
        }
        name_index_done(&seen);
        return r;
}

static int apply_name(LoadContext *c, Policy *p, const YNode *v) {
        return load_get_string(c, v, "name", &p->name);
}

static int apply_description(LoadContext *c, Policy *p, const YNode *v) {
        return load_get_string(c, v, "description", &p->description);
}

static int apply_target(LoadContext *c, Policy *p, const YNode *v) {
        unsigned long t;
        char *end;
        int r;

        r = load_expect_kind(c, v, YNODE_SCALAR, "target");
        if (r < 0)
                return r;
        t = strtoul(v->scalar, &end, 10);
        if (!v->scalar[0] || *end || t < 200 || t > 999)
                return load_fail(c, v, "target must be a systemd version number like 252, not '%s'", v->scalar);
        p->target = (unsigned) t;
        return 0;
}

static int apply_mode(LoadContext *c, Policy *p, const YNode *v) {
        bool mirror;
        int r;

        r = get_either(c, v, "mode", "enforce", "mirror", &mirror);
        if (r >= 0)
                p->mode = mirror ? MODE_MIRROR : MODE_ENFORCE;
        return r;
}

static int apply_dropins(LoadContext *c, Policy *p, const YNode *v) {
        bool systemd;
        int r;

        r = get_either(c, v, "drop-ins", "strict", "systemd", &systemd);
        if (r >= 0)
                p->dropins_strict = !systemd;
        return r;
}

static int apply_unknown_directives(LoadContext *c, Policy *p, const YNode *v) {
        return get_action(c, v, "unknown-directives", &p->unknown_action);
}

static int apply_removed_lines(LoadContext *c, Policy *p, const YNode *v) {
        return get_either(c, v, "removed-lines", "delete", "comment", &p->comment_removed);
}

/* generator: {rejected: mask|condition, initrd: BOOL} */
static int apply_generator(LoadContext *c, Policy *p, const YNode *v) {
        static const char *const keys[] = { "rejected", "initrd", NULL };
        const YNode *n;
        int r;

        r = load_expect_kind(c, v, YNODE_MAPPING, "generator");
        if (r >= 0)
                r = load_check_keys(c, v, "generator", keys);
        if (r >= 0 && (n = ynode_get(v, "rejected")))
                r = get_either(c, n, "generator.rejected", "mask", "condition", &p->generator_condition);
        if (r >= 0 && (n = ynode_get(v, "initrd")))
                r = load_get_bool(c, n, "generator.initrd", &p->generator_initrd);
        return r;
}

/* The keys of a policy, applied in this order whatever their order in the
 * file. version and extends (no apply) are read before the others. */
typedef struct PolicyKey {
        const char *name;
        int (*apply)(LoadContext *c, Policy *p, const YNode *v);
} PolicyKey;

static const PolicyKey policy_keys[] = {
        { "version", NULL },
        { "extends", NULL },
        { "name", apply_name },
        { "description", apply_description },
        { "target", apply_target },
        { "mode", apply_mode },
        { "user-names", apply_user_names },
        { "drop-ins", apply_dropins },
        { "invalid", apply_invalid },
        { "unknown-directives", apply_unknown_directives },
        { "removed-lines", apply_removed_lines },
        { "rewrites", apply_rewrites },
        { "require", load_apply_require },
        { "forbid", load_apply_forbid },
        { "waivers", load_apply_waivers },
        { "generator", apply_generator },
        { "device-units", load_apply_device_units },
};

static int check_policy_keys(LoadContext *c, const YNode *root) {
        for (size_t i = 0; i + 1 < root->n_items; i += 2) {
                const YNode *k = root->items[i];
                bool ok = false;

                if (k->kind != YNODE_SCALAR)
                        return load_fail(c, k, "keys of a policy must be scalars");
                for (size_t j = 0; j < ELEMENTSOF(policy_keys) && !ok; j++)
                        ok = streq(policy_keys[j].name, k->scalar);
                if (!ok)
                        return load_fail(c, k, "unknown key '%s' in a policy", k->scalar);
        }
        return 0;
}

static int apply_tree(LoadContext *c, Policy *p, const YNode *root) {
        for (size_t i = 0; i < ELEMENTSOF(policy_keys); i++) {
                const YNode *v;
                int r;

                if (!policy_keys[i].apply || !(v = ynode_get(root, policy_keys[i].name)))
                        continue;
                r = policy_keys[i].apply(c, p, v);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int policy_new_defaults(Policy **ret) {
        Policy *p = new0(Policy, 1);

        if (!p)
                return -ENOMEM;
        /* Defaults of a policy that names nothing: what systemd 252 does. */
        p->target = 252;
        p->mode = MODE_ENFORCE;
        p->user_rule = USER_RULE_SYSTEMD;
        p->numeric_ids = true;
        p->dropins_strict = true;
        p->invalid_default = ACTION_DROP;
        p->unknown_action = ACTION_WARN;
        *ret = p;
        return 0;
}

static char *resolve_relative(const char *name, const char *relative_to) {
        const char *slash;

        if (name[0] == '/' || !relative_to || startswith(relative_to, "builtin:"))
                return strdup(name);
        slash = strrchr(relative_to, '/');
        if (!slash)
                return strdup(name);
        {
                char *s;

                if (asprintf(&s, "%.*s/%s", (int) (slash - relative_to), relative_to, name) < 0)
                        return NULL;
                return s;
        }
}

static bool looks_like_path(const char *s) {
        return strchr(s, '/') || endswith(s, ".yaml") || endswith(s, ".yml");
}

/* A key given twice in any mapping is an error: YAML leaves it to the
 * reader, and "last one wins" would let a later line undo an earlier one
 * unnoticed (User: fatal ... User: warn). */
static int check_duplicate_keys(LoadContext *c, const YNode *root) {
        const YNode *dup, *first;
        int r;

        r = ynode_find_duplicate_key(root, &dup, &first);
        if (r <= 0)
                return r;
        return load_fail(c, dup, "duplicate key '%s' (first given at line %u, column %u)", dup->scalar, first->line,
                    first->column);
}

static int load_tree(LoadContext *c, const char *text, size_t size, const char *source, const YNode *at,
                     Policy **ret) {
        _cleanup_(policy_freep) Policy *p = NULL;
        YNode *root = NULL;
        _cleanup_free_ char *canonical = NULL;
        const char *saved = c->source;
        _cleanup_free_ char *yerr = NULL;
        const YNode *v;
        int r;

        /* c->source is still the file whose extends: led here. The same file
         * can be named in many ways: compare canonical paths. */
        canonical = startswith(source, "builtin:") ? strdup(source) : realpath(source, NULL);
        if (!canonical)
                canonical = strdup(source);
        if (!canonical)
                return -ENOMEM;
        for (size_t i = 0; i < c->depth; i++)
                if (streq(c->chain[i], canonical))
                        return load_fail(c, at, "extends: cycle through '%s'", source);
        if (c->depth >= EXTENDS_DEPTH_MAX)
                return load_fail(c, at, "extends: more than %d levels", EXTENDS_DEPTH_MAX);

        c->source = source;
        r = ynode_parse(text, size, &root, &yerr);
        if (r < 0) {
                unsigned line = 1, col = 1;

                if (!yerr)
                        goto out;
                sscanf(yerr, "%u:%u:", &line, &col);
                policy_error_done(c->err);
                c->err->file = strdup(source);
                c->err->line = line;
                c->err->column = col;
                c->err->message = strdup(strchr(strchr(yerr, ':') + 1, ':') + 2);
                r = -EINVAL;
                goto out;
        }
        if (!root) {
                r = load_fail(c, NULL, "empty policy: at least 'version: 1' is needed");
                goto out;
        }
        /* Whether this is a policy at all comes first: a file that is not
         * one (extends: /etc/shadow) gets no token of it quoted back. */
        r = load_expect_kind(c, root, YNODE_MAPPING, "a policy");
        if (r < 0)
                goto out;
        v = ynode_get(root, "version");
        if (!v) {
                r = load_fail(c, root, "the policy must say 'version: 1'");
                goto out;
        }
        if (v->kind != YNODE_SCALAR || !streq(v->scalar, "1")) {
                r = load_fail(c, v, "unsupported policy version (this unitguard reads version 1)");
                goto out;
        }
        r = check_duplicate_keys(c, root);
        if (r < 0)
                goto out;
        r = check_policy_keys(c, root);
        if (r < 0)
                goto out;

        c->chain[c->depth++] = canonical;
        v = ynode_get(root, "extends");
        if (v) {
                r = load_expect_kind(c, v, YNODE_SCALAR, "extends");
                if (r >= 0)
                        r = load_source(c, v->scalar, source, v, &p);
                c->source = source;
                if (r >= 0) {
                        free(p->extends);
                        p->extends = strdup(v->scalar);
                        if (!p->extends)
                                r = -ENOMEM;
                }
        } else
                r = policy_new_defaults(&p);
        c->depth--;
        if (r < 0)
                goto out;

        /* A child's name and description are its own. */
        p->name = mfree_str(p->name);
        p->description = mfree_str(p->description);
        free(p->source);
        p->source = strdup(source);
        if (!p->source) {
                r = -ENOMEM;
                goto out;
        }
        r = apply_tree(c, p, root);
        if (r < 0)
                goto out;
        if (!p->name) {
                const char *base = strrchr(source, '/');

                p->name = strdup(startswith(source, "builtin:") ? source + 8 : base ? base + 1 : source);
                if (p->name && (endswith(p->name, ".yaml") || endswith(p->name, ".yml")))
                        *strrchr(p->name, '.') = '\0';
                if (!p->name) {
                        r = -ENOMEM;
                        goto out;
                }
        }
        r = policy_finish(p);
        if (r < 0)
                goto out;
        *ret = TAKE_PTR(p);
out:
        ynode_free(root);
        c->source = saved;
        return r;
}

static int load_source(LoadContext *c, const char *name_or_path, const char *relative_to,
                       const YNode *at, Policy **ret) {
        _cleanup_free_ char *path = NULL, *text = NULL, *source = NULL;
        const BuiltinPolicy *b;
        const char *type = NULL;
        size_t size;
        int r;

        if (!looks_like_path(name_or_path)) {
                /* Compiled at build time from the same YAML: no parse. */
                const BuiltinCompiled *compiled = builtin_compiled_find(name_or_path);

                if (compiled)
                        return policy_builtin_instantiate(compiled, ret);
                b = builtin_policy_find(name_or_path);
                if (!b)
                        return load_fail(c, at, "no shipped policy named '%s' (see 'unitguard policy list')", name_or_path);
                if (asprintf(&source, "builtin:%s", b->name) < 0)
                        return -ENOMEM;
                return load_tree(c, b->text, strlen(b->text), source, at, ret);
        }

        path = resolve_relative(name_or_path, relative_to);
        if (!path)
                return -ENOMEM;
        r = policy_file_read(path, POLICY_FILE_MAX, &text, &size, &type);
        if (r < 0) {
                if (r == -ENOMEM)
                        return r;
                r = load_fail(c, at, "cannot read policy '%s': %s%s", path,
                         r == -EFBIG         ? "larger than 16 MiB"
                         : r == -EMEDIUMTYPE ? "not a regular file but "
                                             : strerror(-r),
                         r == -EMEDIUMTYPE ? type : "");
                /* Named on the command line: there is no position to give. */
                if (!at)
                        c->err->line = c->err->column = 0;
                return r;
        }
        return load_tree(c, text, size, path, at, ret);
}

int policy_load(const char *name_or_path, Policy **ret, PolicyError *err) {
        LoadContext c = { .err = err, .source = name_or_path };

        return load_source(&c, name_or_path, NULL, NULL, ret);
}

int policy_load_buffer(const char *text, size_t size, const char *source, Policy **ret,
                       PolicyError *err) {
        LoadContext c = { .err = err, .source = source };

        return load_tree(&c, text, size, source, NULL, ret);
}
