/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* policies/policy-compile on a policy that holds every feature
 * (compiled-features.yaml, compiled into this test at build time): the
 * compiled form must be the policy the YAML loader gives, field by field,
 * with its regexes compiled and matching alike. The path of the policy is
 * the one the build step was given (COMPILED_FEATURES). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/macro.h"
#include "policy/policy-builtin.h"
#include "policy/policy-condition.h"
#include "policy/policy-hardware.h"
#include "policy/policy-internal.h"
#include "tests.h"

static bool str_eq(const char *a, const char *b) {
        return (!a && !b) || (a && b && streq(a, b));
}

static void check_strv(char *const *a, size_t na, char *const *b, size_t nb) {
        CHECK_INT_EQ(na, nb);
        for (size_t i = 0; i < na && i < nb; i++)
                CHECK_STR_EQ(a[i], b[i]);
}

/* Both compiled, or neither; and the same answer on each subject. */
static void check_regex(const Policy *pa, const void *a, const Policy *pb, const void *b) {
        static const char *const subjects[] = { "", "DEBUG=1", "root", "NVIDIA Corporation", "/var/lib/x",
                                                "-/var/lib/y", "yes", "a$", "svc" };

        CHECK((a == NULL) == (b == NULL));
        if (!a || !b)
                return;
        for (size_t i = 0; i < ELEMENTSOF(subjects); i++)
                CHECK_INT_EQ(regex_match(&pa->matcher, a, subjects[i], NULL, NULL, NULL),
                             regex_match(&pb->matcher, b, subjects[i], NULL, NULL, NULL));
}

static unsigned n_conditions;

static void check_condition(const Policy *pa, const Condition *a, const Policy *pb, const Condition *b) {
        CHECK((a == NULL) == (b == NULL));
        if (!a || !b)
                return;
        n_conditions++;
        CHECK_INT_EQ(a->kind, b->kind);
        CHECK_INT_EQ(a->n_children, b->n_children);
        for (size_t i = 0; i < a->n_children && i < b->n_children; i++)
                check_condition(pa, a->children[i], pb, b->children[i]);
        CHECK_INT_EQ(a->unit_types, b->unit_types);
        check_strv(a->strings, a->n_strings, b->strings, b->n_strings);
        CHECK_INT_EQ(a->flag, b->flag);
        CHECK(str_eq(a->section, b->section));
        CHECK(str_eq(a->key, b->key));
        CHECK_INT_EQ(a->match, b->match);
        CHECK_INT_EQ(a->quant, b->quant);
        CHECK(str_eq(a->pattern, b->pattern));
        check_regex(pa, a->re, pb, b->re);
        CHECK((a->hw == NULL) == (b->hw == NULL));
        if (a->hw && b->hw) {
                const HwMatch *x = a->hw, *y = b->hw;

                check_strv(x->modalias, x->n_modalias, y->modalias, y->n_modalias);
                check_strv(x->subsystem, x->n_subsystem, y->subsystem, y->n_subsystem);
                check_strv(x->driver, x->n_driver, y->driver, y->n_driver);
                check_strv(x->node, x->n_node, y->node, y->n_node);
                CHECK(str_eq(x->property, y->property));
                CHECK_INT_EQ(x->value_match, y->value_match);
                check_strv(x->values, x->n_values, y->values, y->n_values);
                CHECK(str_eq(x->pattern, y->pattern));
                check_regex(pa, x->re, pb, y->re);
                CHECK_INT_EQ(x->bound, y->bound);
                CHECK(str_eq(x->text, y->text));
        }
}

static void check_policy(const Policy *a, const Policy *b) {
        CHECK(str_eq(a->name, b->name));
        CHECK(str_eq(a->description, b->description));
        CHECK(str_eq(a->source, b->source));
        CHECK(str_eq(a->extends, b->extends));
        CHECK_INT_EQ(a->target, b->target);
        CHECK_INT_EQ(a->mode, b->mode);
        CHECK_INT_EQ(a->user_rule, b->user_rule);
        CHECK(str_eq(a->user_regex, b->user_regex));
        check_regex(a, a->user_re, b, b->user_re);
        CHECK_INT_EQ(a->numeric_ids, b->numeric_ids);
        CHECK_INT_EQ(a->empty_user_rejects, b->empty_user_rejects);
        CHECK_INT_EQ(a->dropins_strict, b->dropins_strict);
        CHECK_INT_EQ(a->invalid_default, b->invalid_default);
        CHECK_INT_EQ(a->unknown_action, b->unknown_action);
        CHECK_INT_EQ(a->comment_removed, b->comment_removed);
        CHECK_INT_EQ(a->generator_condition, b->generator_condition);
        CHECK_INT_EQ(a->generator_initrd, b->generator_initrd);

        CHECK_INT_EQ(a->n_directives, b->n_directives);
        for (size_t i = 0; i < a->n_directives && i < b->n_directives; i++) {
                CHECK_STR_EQ(a->directives[i].name, b->directives[i].name);
                CHECK_INT_EQ(a->directives[i].action, b->directives[i].action);
                /* The index finds each name in both. */
                CHECK_INT_EQ(policy_action_for(a, b->directives[i].name), b->directives[i].action);
        }
        CHECK_INT_EQ(policy_action_for(a, "NoSuchDirective"), policy_action_for(b, "NoSuchDirective"));

        CHECK_INT_EQ(a->n_rewrites, b->n_rewrites);
        for (size_t i = 0; i < a->n_rewrites && i < b->n_rewrites; i++) {
                const Rewrite *x = &a->rewrites[i], *y = &b->rewrites[i];
                size_t pos = SIZE_MAX;

                CHECK_STR_EQ(x->id, y->id);
                CHECK(str_eq(x->description, y->description));
                check_condition(a, x->when, b, y->when);
                CHECK(str_eq(x->when_text, y->when_text));
                CHECK_INT_EQ(x->kind, y->kind);
                CHECK(str_eq(x->section, y->section));
                CHECK(str_eq(x->key, y->key));
                CHECK(str_eq(x->value, y->value));
                CHECK(str_eq(x->to, y->to));
                CHECK(str_eq(x->matching, y->matching));
                check_regex(a, x->value_re, b, y->value_re);
                CHECK_INT_EQ(name_index_find(&a->rewrite_ids, y->id, policy_rewrite_key, a, &pos), 0);
                CHECK_INT_EQ(pos, i);
        }

        CHECK_INT_EQ(a->n_assertions, b->n_assertions);
        for (size_t i = 0; i < a->n_assertions && i < b->n_assertions; i++) {
                const Assertion *x = &a->assertions[i], *y = &b->assertions[i];

                CHECK_STR_EQ(x->id, y->id);
                CHECK(str_eq(x->description, y->description));
                CHECK_INT_EQ(x->forbid, y->forbid);
                CHECK_INT_EQ(x->severity, y->severity);
                check_condition(a, x->when, b, y->when);
                check_condition(a, x->body, b, y->body);
                CHECK(str_eq(x->when_text, y->when_text));
                CHECK(str_eq(x->body_text, y->body_text));
        }

        CHECK_INT_EQ(a->n_waivers, b->n_waivers);
        for (size_t i = 0; i < a->n_waivers && i < b->n_waivers; i++) {
                CHECK(str_eq(a->waivers[i].rule, b->waivers[i].rule));
                CHECK(str_eq(a->waivers[i].unit, b->waivers[i].unit));
                CHECK(str_eq(a->waivers[i].reason, b->waivers[i].reason));
                CHECK(str_eq(a->waivers[i].file, b->waivers[i].file));
                CHECK_INT_EQ(a->waivers[i].line, b->waivers[i].line);
        }
        check_strv(a->device_units, a->n_device_units, b->device_units, b->n_device_units);
        CHECK(a->matcher.context && a->matcher.data);
}

static const char features_path[] = COMPILED_FEATURES;

TEST(compiled_is_yaml) {
        _cleanup_(policy_freep) Policy *compiled = NULL, *yaml = NULL;
        _cleanup_(strbuf_done) StrBuf a = {}, b = {};
        PolicyError err = {};
        const BuiltinCompiled *bc = builtin_compiled_find(features_path);

        CHECK(bc);
        if (!bc)
                return;
        CHECK_INT_EQ(policy_builtin_instantiate(bc, &compiled), 0);
        CHECK_INT_EQ(policy_load(features_path, &yaml, &err), 0);
        policy_error_done(&err);
        if (!compiled || !yaml)
                return;
        n_conditions = 0;
        check_policy(compiled, yaml);
        /* The policy holds rewrites, rules, a waiver and nested
         * conditions with hardware matches: all of them were compared. */
        CHECK(compiled->n_rewrites >= 4 && compiled->n_assertions >= 6 && compiled->n_waivers == 1);
        CHECK(n_conditions >= 20);
        CHECK_INT_EQ(policy_show(compiled, &a), 0);
        CHECK_INT_EQ(policy_show(yaml, &b), 0);
        CHECK_MEM_EQ(a.data, a.len, b.data, b.len);
}

/* A name the build step was not given: not compiled. */
TEST(unknown_name) {
        CHECK(!builtin_compiled_find("default"));
        CHECK(!builtin_compiled_find(""));
}

TESTS_MAIN(T(compiled_is_yaml), T(unknown_name))
