/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Policy files: conditions (`when:`), require:/forbid: assertions and
 * waivers. Every problem is reported with file:line:col. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "policy-internal.h"
#include "policy-load-internal.h"
#include "unit/unit-type.h"

#define CONDITION_CHILDREN_MAX 4096

static const char *const condition_keys[] = {
        "unit-type", "unit-types", "unit", "units", "path", "scope", "runs-as-root", "absent", "present",
        "not", "any", "all", "key", "value", "value-in", "glob", "regex", "bool", "match", "hardware", "device-tied", NULL,
};

/* The keys that belong to a `key:` test. */
static bool is_key_modifier(const char *k) {
        return streq(k, "value") || streq(k, "value-in") || streq(k, "glob") || streq(k, "regex") ||
               streq(k, "bool") || streq(k, "match");
}

static bool in_list(const char *const *l, const char *s) {
        for (; l && *l; l++)
                if (streq(*l, s))
                        return true;
        return false;
}

/* A node as flow YAML, every scalar quoted. */
static int render(StrBuf *out, const YNode *n) {
        int r = 0;

        switch (n->kind) {
        case YNODE_SCALAR:
                return policy_yaml_quote(out, n->scalar);
        case YNODE_SEQUENCE:
                r = strbuf_append_char(out, '[');
                for (size_t i = 0; r >= 0 && i < n->n_items; i++) {
                        if (i > 0)
                                r = strbuf_append_str(out, ", ");
                        if (r >= 0)
                                r = render(out, n->items[i]);
                }
                return r < 0 ? r : strbuf_append_char(out, ']');
        case YNODE_MAPPING:
                r = strbuf_append_char(out, '{');
                for (size_t i = 0; r >= 0 && i + 1 < n->n_items; i += 2) {
                        if (i > 0)
                                r = strbuf_append_str(out, ", ");
                        if (r >= 0)
                                r = strbuf_printf(out, "%s: ", n->items[i]->scalar);
                        if (r >= 0)
                                r = render(out, n->items[i + 1]);
                }
                return r < 0 ? r : strbuf_append_char(out, '}');
        }
        return 0;
}

int load_render_flow(StrBuf *out, const YNode *n) {
        return render(out, n);
}

static int cond_new(ConditionKind kind, Condition **ret) {
        *ret = new0(Condition, 1);
        if (!*ret)
                return -ENOMEM;
        (*ret)->kind = kind;
        return 0;
}

static int cond_add_child(Condition *parent, Condition *child) {
        Condition **l = reallocarray_safe(parent->children, parent->n_children + 1, sizeof(Condition *));

        if (!l) {
                condition_free(child);
                return -ENOMEM;
        }
        parent->children = l;
        parent->children[parent->n_children++] = child;
        return 0;
}

static int split_section_key(LoadContext *c, const YNode *at, const char *sk, Condition *k) {
        const char *dot;
        int r;

        r = load_check_section_key(c, at, sk);
        if (r < 0)
                return r;
        dot = strchr(sk, '.');
        k->section = strndup(sk, (size_t) (dot - sk));
        k->key = strdup(dot + 1);
        return k->section && k->key ? 0 : -ENOMEM;
}

static int parse_sub(LoadContext *c, const YNode *n, const char *what, Condition **ret) {
        return load_condition(c, n, what, NULL, NULL, ret, NULL);
}

/* key: with its value test, from the same mapping. */
static int parse_key_test(LoadContext *c, const YNode *map, const YNode *keynode, Condition **ret) {
        static const char *const matchers[] = { "value", "value-in", "glob", "regex", "bool", NULL };
        static const char *const quants[] = { "any", "all", "none", NULL };
        _cleanup_(condition_freep) Condition *k = NULL;
        const YNode *m = NULL, *v;
        int r, i;

        r = load_expect_kind(c, keynode, YNODE_SCALAR, "key");
        if (r >= 0)
                r = cond_new(COND_KEY, &k);
        if (r >= 0)
                r = split_section_key(c, keynode, keynode->scalar, k);
        if (r < 0)
                return r;
        k->match = MATCH_SET;
        for (i = 0; matchers[i]; i++)
                if ((v = ynode_get(map, matchers[i]))) {
                        if (m)
                                return load_fail(c, v, "a key test has at most one of value, value-in, glob, regex, bool");
                        m = v;
                        k->match = i == 0 || i == 1 ? MATCH_VALUE : i == 2 ? MATCH_GLOB : i == 3 ? MATCH_REGEX : MATCH_BOOL;
                        if (i == 0)
                                r = load_expect_kind(c, v, YNODE_SCALAR, "value");
                        if (r >= 0 && i <= 2)
                                r = load_get_string_list(c, v, matchers[i], &k->strings, &k->n_strings);
                        else if (r >= 0 && i == 3) {
                                r = load_expect_kind(c, v, YNODE_SCALAR, "regex");
                                if (r >= 0)
                                        r = load_compile_regex(c, v, v->scalar, &k->re);
                                if (r >= 0 && !(k->pattern = strdup(v->scalar)))
                                        r = -ENOMEM;
                        } else if (r >= 0)
                                r = load_get_bool(c, v, "bool", &k->flag);
                        if (r < 0)
                                return r;
                }
        if ((v = ynode_get(map, "match"))) {
                if (!m)
                        return load_fail(c, v, "match: needs one of value, value-in, glob, regex, bool");
                r = load_get_choice(c, v, "match", quants, &i);
                if (r < 0)
                        return r;
                k->quant = (CondQuantifier) i;
        }
        *ret = TAKE_PTR(k);
        return 0;
}

static int parse_list_of(LoadContext *c, const YNode *v, const char *what, ConditionKind kind, Condition **ret) {
        _cleanup_(condition_freep) Condition *all = NULL;
        int r;

        r = load_expect_kind(c, v, YNODE_SEQUENCE, what);
        if (r >= 0 && v->n_items == 0)
                r = load_fail(c, v, "%s needs at least one condition", what);
        if (r >= 0 && v->n_items > CONDITION_CHILDREN_MAX)
                r = load_fail(c, v, "%s has more than %d conditions", what, CONDITION_CHILDREN_MAX);
        if (r >= 0)
                r = cond_new(kind, &all);
        for (size_t i = 0; r >= 0 && i < v->n_items; i++) {
                Condition *sub = NULL;

                r = parse_sub(c, v->items[i], what, &sub);
                if (r >= 0 && !sub)
                        r = load_fail(c, v->items[i], "an empty condition in %s", what);
                if (r >= 0)
                        r = cond_add_child(all, sub);
        }
        if (r < 0)
                return r;
        *ret = TAKE_PTR(all);
        return 0;
}

static int parse_globs(LoadContext *c, const YNode *v, const char *what, ConditionKind kind, Condition **ret) {
        _cleanup_(condition_freep) Condition *g = NULL;
        int r = cond_new(kind, &g);

        if (r >= 0)
                r = load_get_string_list(c, v, what, &g->strings, &g->n_strings);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(g);
        return 0;
}

static int parse_unit_types(LoadContext *c, const YNode *v, const char *what, Condition **ret) {
        _cleanup_(condition_freep) Condition *t = NULL;
        int r = parse_globs(c, v, what, COND_UNIT_TYPE, &t);

        for (size_t i = 0; r >= 0 && i < t->n_strings; i++) {
                UnitType u = unit_type_from_string(t->strings[i]);

                if (u < 0)
                        return load_fail(c, v, "unknown unit type '%s'", t->strings[i]);
                t->unit_types |= UNIT_TYPE_BIT(u);
        }
        if (r < 0)
                return r;
        *ret = TAKE_PTR(t);
        return 0;
}

/* absent: / present: lists of Section.Key. */
static int parse_presence(LoadContext *c, const YNode *v, const char *what, bool present, Condition **ret) {
        _cleanup_(condition_freep) Condition *all = NULL;
        char **keys = NULL;
        size_t n = 0;
        int r;

        r = load_get_string_list(c, v, what, &keys, &n);
        if (r >= 0)
                r = cond_new(COND_ALL, &all);
        for (size_t i = 0; r >= 0 && i < n; i++) {
                Condition *k = NULL, *neg = NULL;

                r = cond_new(COND_KEY, &k);
                if (r >= 0)
                        r = split_section_key(c, v, keys[i], k);
                if (r >= 0 && !present) {
                        r = cond_new(COND_NOT, &neg);
                        if (r >= 0) {
                                r = cond_add_child(neg, TAKE_PTR(k));   /* frees k on failure */
                                k = TAKE_PTR(neg);
                        }
                }
                if (r >= 0)
                        r = cond_add_child(all, TAKE_PTR(k));
                condition_free(k);
        }
        for (size_t i = 0; i < n; i++)
                free(keys[i]);
        free(keys);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(all);
        return 0;
}

static int parse_one(LoadContext *c, const YNode *map, const YNode *k, const YNode *v, Condition **ret) {
        const char *name = k->scalar;
        int r;

        if (streq(name, "unit-type") || streq(name, "unit-types"))
                return parse_unit_types(c, v, name, ret);
        if (streq(name, "unit") || streq(name, "units"))
                return parse_globs(c, v, name, COND_UNIT_NAME, ret);
        if (streq(name, "path"))
                return parse_globs(c, v, name, COND_PATH, ret);
        if (streq(name, "absent") || streq(name, "present"))
                return parse_presence(c, v, name, streq(name, "present"), ret);
        if (streq(name, "key"))
                return parse_key_test(c, map, v, ret);
        if (streq(name, "hardware"))
                return load_hardware_condition(c, v, ret);
        if (streq(name, "device-tied")) {
                bool b = true;

                /* true, false, or bound: tied to a device node or device of its own. */
                if (v->kind == YNODE_SCALAR && streq(v->scalar, "bound")) {
                        _cleanup_(condition_freep) Condition *t = NULL;

                        r = cond_new(COND_DEVICE_TIED, &t);
                        if (r >= 0)
                                r = load_get_string_list(c, v, name, &t->strings, &t->n_strings);
                        if (r >= 0)
                                *ret = TAKE_PTR(t);
                } else {
                        r = load_get_bool(c, v, name, &b);
                        if (r == -EINVAL)
                                return load_fail(c, v, "device-tied: takes true, false or bound");
                        if (r >= 0)
                                r = cond_new(COND_DEVICE_TIED, ret);
                }
                if (r >= 0)
                        (*ret)->flag = b;
                return r;
        }
        if (streq(name, "any"))
                return parse_list_of(c, v, "any", COND_ANY, ret);
        if (streq(name, "all"))
                return parse_list_of(c, v, "all", COND_ALL, ret);
        if (streq(name, "not")) {
                _cleanup_(condition_freep) Condition *neg = NULL;
                Condition *sub = NULL;

                r = parse_sub(c, v, "not", &sub);
                if (r >= 0 && !sub)
                        r = load_fail(c, v, "not: needs a condition");
                if (r >= 0)
                        r = cond_new(COND_NOT, &neg);
                if (r >= 0)
                        r = cond_add_child(neg, TAKE_PTR(sub));
                condition_free(sub);
                if (r < 0)
                        return r;
                *ret = TAKE_PTR(neg);
                return 0;
        }
        if (streq(name, "scope")) {
                static const char *const scopes[] = { "system", "user", NULL };
                int i;

                r = load_get_choice(c, v, "scope", scopes, &i);
                if (r >= 0)
                        r = cond_new(COND_SCOPE, ret);
                if (r >= 0)
                        (*ret)->flag = i == 1;
                return r;
        }
        /* runs-as-root */
        {
                bool b;

                r = load_get_bool(c, v, name, &b);
                if (r >= 0)
                        r = cond_new(COND_RUNS_AS_ROOT, ret);
                if (r >= 0)
                        (*ret)->flag = b;
                return r;
        }
}

int load_condition(LoadContext *c, const YNode *map, const char *what, const char *const *skip,
                   const char *indent, Condition **ret, char **ret_text) {
        _cleanup_(condition_freep) Condition *all = NULL;
        _cleanup_(strbuf_done) StrBuf text = {};
        bool first = true;
        int r;

        r = load_expect_kind(c, map, YNODE_MAPPING, what);
        if (r < 0)
                return r;
        for (size_t i = 0; i + 1 < map->n_items; i += 2) {
                const YNode *k = map->items[i];

                if (k->kind != YNODE_SCALAR)
                        return load_fail(c, k, "keys of %s must be scalars", what);
                if (in_list(skip, k->scalar))
                        continue;
                if (!in_list(condition_keys, k->scalar))
                        return load_fail(c, k, "unknown key '%s' in %s", k->scalar, what);
                if (is_key_modifier(k->scalar) && !ynode_get(map, "key"))
                        return load_fail(c, k, "'%s' needs a 'key: Section.Key' beside it", k->scalar);
        }
        r = cond_new(COND_ALL, &all);
        if (r >= 0 && !indent)
                r = strbuf_append_char(&text, '{');
        for (size_t i = 0; r >= 0 && i + 1 < map->n_items; i += 2) {
                const YNode *k = map->items[i];
                Condition *sub = NULL;

                if (in_list(skip, k->scalar))
                        continue;
                if (indent)
                        r = strbuf_printf(&text, "%s%s: ", indent, k->scalar);
                else
                        r = strbuf_printf(&text, "%s%s: ", first ? "" : ", ", k->scalar);
                if (r >= 0)
                        r = render(&text, map->items[i + 1]);
                if (r >= 0 && indent)
                        r = strbuf_append_char(&text, '\n');
                first = false;
                if (r < 0 || is_key_modifier(k->scalar))
                        continue;
                r = parse_one(c, map, k, map->items[i + 1], &sub);
                if (r >= 0)
                        r = cond_add_child(all, sub);
        }
        if (r >= 0 && !indent)
                r = strbuf_append_char(&text, '}');
        if (r < 0)
                return r;
        if (all->n_children == 0)
                all = condition_free(all);
        else if (all->n_children == 1) {
                Condition *only = all->children[0];

                all->n_children = 0;
                condition_free(all);
                all = only;
        }
        *ret = TAKE_PTR(all);
        if (ret_text) {
                *ret_text = strdup(text.data ? text.data : "");
                if (!*ret_text)
                        return -ENOMEM;
        }
        return 0;
}

static int find_assertion(const Policy *p, bool forbid, const char *id) {
        for (size_t i = 0; i < p->n_assertions; i++)
                if (p->assertions[i].forbid == forbid && streq(p->assertions[i].id, id))
                        return (int) i;
        return -1;
}

static int apply_assertion(LoadContext *c, Policy *p, const YNode *n, bool forbid) {
        static const char *const meta[] = { "id", "description", "severity", "when", NULL };
        static const char *const severities[] = { "note", "warning", "error", NULL };
        const char *what = forbid ? "a forbid rule" : "a require rule";
        _cleanup_(assertion_done) Assertion a = { .forbid = forbid, .severity = ASSERT_ERROR };
        const YNode *v;
        int r, i;

        r = load_expect_kind(c, n, YNODE_MAPPING, what);
        if (r < 0)
                return r;
        if (!(v = ynode_get(n, "id")))
                return load_fail(c, n, "%s needs an id", what);
        r = load_get_string(c, v, "id", &a.id);
        if (r >= 0 && !a.id[0])
                r = load_fail(c, v, "the id of %s must not be empty", what);
        if (r >= 0 && (v = ynode_get(n, "description")))
                r = load_get_string(c, v, "description", &a.description);
        if (r >= 0 && (v = ynode_get(n, "severity"))) {
                r = load_get_choice(c, v, "severity", severities, &i);
                a.severity = (AssertionSeverity) i;
        }
        if (r >= 0 && (v = ynode_get(n, "when")))
                r = load_condition(c, v, "when", NULL, NULL, &a.when, &a.when_text);
        if (r >= 0)
                r = load_condition(c, n, what, meta, "    ", &a.body, &a.body_text);
        if (r < 0)
                return r;
        if (!a.body)
                return load_fail(c, n, "%s '%s' states nothing: give a condition (key:, runs-as-root:, ...)", what,
                                 a.id);

        i = find_assertion(p, forbid, a.id);
        if (i >= 0) {
                /* Same kind and id as an inherited rule: replaces it. */
                assertion_done(&p->assertions[i]);
                p->assertions[i] = a;
                a = (Assertion) {};
                return 0;
        }
        if (p->n_assertions >= POLICY_ASSERTIONS_MAX)
                return load_fail(c, n, "more than %d require and forbid rules", POLICY_ASSERTIONS_MAX);
        r = GREEDY_REALLOC(p->assertions, p->allocated_assertions, p->n_assertions + 1);
        if (r < 0)
                return r;
        p->assertions[p->n_assertions++] = a;
        a = (Assertion) {};
        return 0;
}

static int apply_assertions(LoadContext *c, Policy *p, const YNode *v, bool forbid) {
        const char *what = forbid ? "forbid" : "require";
        int r;

        r = load_expect_kind(c, v, YNODE_SEQUENCE, what);
        if (r < 0)
                return r;
        for (size_t i = 0; i < v->n_items; i++) {
                const YNode *id;

                r = apply_assertion(c, p, v->items[i], forbid);
                if (r < 0)
                        return r;
                /* Ids are unique within one file's list. */
                id = ynode_get(v->items[i], "id");
                for (size_t j = 0; j < i; j++) {
                        const YNode *other = ynode_get(v->items[j], "id");

                        if (streq(other->scalar, id->scalar))
                                return load_fail(c, id, "duplicate %s id '%s' (first given at line %u, column %u)",
                                                 what, id->scalar, other->line, other->column);
                }
        }
        return 0;
}

int load_apply_require(LoadContext *c, Policy *p, const YNode *v) {
        return apply_assertions(c, p, v, false);
}

int load_apply_forbid(LoadContext *c, Policy *p, const YNode *v) {
        return apply_assertions(c, p, v, true);
}

int load_apply_waivers(LoadContext *c, Policy *p, const YNode *v) {
        static const char *const keys[] = { "rule", "unit", "reason", NULL };
        int r;

        r = load_expect_kind(c, v, YNODE_SEQUENCE, "waivers");
        if (r < 0)
                return r;
        for (size_t i = 0; i < v->n_items; i++) {
                const YNode *n = v->items[i], *f;
                _cleanup_(policy_waiver_done) PolicyWaiver w = {};

                r = load_expect_kind(c, n, YNODE_MAPPING, "a waiver");
                if (r >= 0)
                        r = load_check_keys(c, n, "a waiver", keys);
                if (r < 0)
                        return r;
                if (!(f = ynode_get(n, "rule")))
                        return load_fail(c, n, "a waiver needs a rule");
                r = load_get_string(c, f, "rule", &w.rule);
                if (r < 0)
                        return r;
                if ((f = ynode_get(n, "unit")))
                        r = load_get_string(c, f, "unit", &w.unit);
                else
                        w.unit = strdup("*");
                if (r >= 0 && !w.unit)
                        r = -ENOMEM;
                if (r < 0)
                        return r;
                f = ynode_get(n, "reason");
                if (!f || (f->kind == YNODE_SCALAR && !f->scalar[strspn(f->scalar, " \t")]))
                        return load_fail(c, f ? f : n, "the waiver of '%s' needs a reason: say why the rule does not apply",
                                         w.rule);
                r = load_get_string(c, f, "reason", &w.reason);
                if (r < 0)
                        return r;
                w.file = strdup(c->source);
                if (!w.file)
                        return -ENOMEM;
                w.line = n->line;
                if (p->n_waivers >= POLICY_WAIVERS_MAX)
                        return load_fail(c, n, "more than %d waivers", POLICY_WAIVERS_MAX);
                r = GREEDY_REALLOC(p->waivers, p->allocated_waivers, p->n_waivers + 1);
                if (r < 0)
                        return r;
                p->waivers[p->n_waivers++] = w;
                w = (PolicyWaiver) {};
        }
        return 0;
}
