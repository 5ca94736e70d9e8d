/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The name index behind rewrite ids, directive names and YAML keys, and
 * what policies built on it answer: lookups, overrides through extends:,
 * duplicate keys found in document order. */
#include <errno.h>
#include <stdio.h>

#include "basic/macro.h"
#include "policy/name-index.h"
#include "policy/policy.h"
#include "policy/yaml-tree.h"
#include "tests.h"

#define N 100000

static const char *name_at(const void *names, size_t i) {
        return ((char *const *) names)[i];
}

TEST(name_index_many) {
        char **names = calloc(N, sizeof(char *));
        NameIndex x = {};
        size_t at;

        CHECK(names);
        if (!names)
                return;
        for (size_t i = 0; i < N; i++) {
                CHECK(asprintf(&names[i], "r%zu", i) > 0);
                CHECK_INT_EQ(name_index_add(&x, i, name_at, names), 0);
        }
        CHECK_INT_EQ(x.n_used, N);
        CHECK(x.n_slots >= 2 * N);
        for (size_t i = 0; i < N; i += 7) {
                CHECK_INT_EQ(name_index_find(&x, names[i], name_at, names, &at), 0);
                CHECK_INT_EQ(at, i);
        }
        CHECK_INT_EQ(name_index_find(&x, "r100000", name_at, names, &at), -ENOENT);
        CHECK_INT_EQ(name_index_find(&x, "", name_at, names, &at), -ENOENT);
        name_index_done(&x);
        CHECK_INT_EQ(name_index_find(&x, "r1", name_at, names, &at), -ENOENT);
        for (size_t i = 0; i < N; i++)
                free(names[i]);
        free(names);
}

static Policy *load(const char *text) {
        PolicyError err = {};
        Policy *p = NULL;

        if (policy_load_buffer(text, strlen(text), "/nonexistent/test.yaml", &p, &err) < 0)
                fprintf(stderr, "load: %s\n", err.message ? err.message : "?");
        policy_error_done(&err);
        return p;
}

TEST(directives_and_rewrites_by_name) {
        Policy *p = load("version: 1\nextends: default\n"
                         "invalid:\n  default: warn\n  directives: {User: warn, Nice: fatal}\n"
                         "rewrites:\n"
                         "  - id: a\n    add: {section: Service, key: Nice, value: '1'}\n"
                         "  - id: b\n    add: {section: Service, key: Nice, value: '2'}\n");

        CHECK(p);
        if (!p)
                return;
        /* Overridden in place, added, inherited, absent. */
        CHECK_INT_EQ(policy_action_for(p, "User"), ACTION_WARN);
        CHECK_INT_EQ(policy_action_for(p, "Nice"), ACTION_FATAL);
        CHECK_INT_EQ(policy_action_for(p, "ExecStart"), ACTION_FATAL);
        CHECK_INT_EQ(policy_action_for(p, "CPUWeight"), ACTION_WARN);
        CHECK_INT_EQ(p->n_rewrites, 2);
        CHECK_STR_EQ(p->rewrites[0].id, "a");
        CHECK_STR_EQ(p->rewrites[1].value, "2");
        policy_free(p);
}

TEST(first_duplicate_in_document_order) {
        const char *text = "a: 1\n"
                           "b:\n"
                           "  x: 1\n"
                           "  y: {p: 1, p: 2}\n"   /* line 4: the first repeat */
                           "  x: 2\n"
                           "a: 3\n";
        const YNode *dup = NULL, *first = NULL;
        YNode *root = NULL;

        CHECK_INT_EQ(ynode_parse(text, strlen(text), &root, NULL), 0);
        CHECK_INT_EQ(ynode_find_duplicate_key(root, &dup, &first), 1);
        CHECK(dup && first);
        if (dup && first) {
                CHECK_STR_EQ(dup->scalar, "p");
                CHECK_INT_EQ(dup->line, 4);
                CHECK_INT_EQ(first->line, 4);
                CHECK(first->column < dup->column);
        }
        ynode_free(root);

        text = "a: {b: 1}\nb: [{a: 1}, {a: 2}]\n";   /* same names, different mappings */
        CHECK_INT_EQ(ynode_parse(text, strlen(text), &root, NULL), 0);
        CHECK_INT_EQ(ynode_find_duplicate_key(root, &dup, &first), 0);
        ynode_free(root);
}

TESTS_MAIN(T(name_index_many), T(directives_and_rewrites_by_name), T(first_duplicate_in_document_order))
