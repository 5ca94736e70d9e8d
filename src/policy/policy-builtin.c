/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A compiled shipped policy -> a Policy ready for use. */
#include <errno.h>

#include "basic/alloc-util.h"
#include "policy-builtin.h"
#include "policy-condition.h"
#include "policy-hardware.h"
#include "policy-internal.h"

/* The patterns were compiled once at build time already, so they are
 * valid: a failure here is out of memory. */
static int compile(const char *pattern, void **re) {
        _cleanup_free_ char *why = NULL;
        int r;

        if (!pattern)
                return 0;
        r = regex_compile(pattern, re, &why);
        return r == -EINVAL ? -EBADMSG : r;
}

static int compile_condition(Condition *c) {
        int r;

        if (!c)
                return 0;
        r = compile(c->pattern, &c->re);
        if (r >= 0 && c->hw)
                r = compile(c->hw->pattern, &c->hw->re);
        for (size_t i = 0; r >= 0 && i < c->n_children; i++)
                r = compile_condition(c->children[i]);
        return r;
}

static int compile_regexes(Policy *p) {
        int r;

        r = compile(p->user_regex, &p->user_re);
        for (size_t i = 0; r >= 0 && i < p->n_rewrites; i++) {
                r = compile(p->rewrites[i].matching, &p->rewrites[i].value_re);
                if (r >= 0)
                        r = compile_condition(p->rewrites[i].when);
        }
        for (size_t i = 0; r >= 0 && i < p->n_assertions; i++) {
                r = compile_condition(p->assertions[i].when);
                if (r >= 0)
                        r = compile_condition(p->assertions[i].body);
        }
        return r;
}

int policy_builtin_instantiate(const BuiltinCompiled *b, Policy **ret) {
        _cleanup_(policy_freep) Policy *p = NULL;
        int r;

        p = new0(Policy, 1);
        if (!p)
                return -ENOMEM;
        r = b->build(p);
        for (size_t i = 0; r >= 0 && i < p->n_directives; i++)
                r = name_index_add(&p->directive_names, i, policy_directive_key, p);
        for (size_t i = 0; r >= 0 && i < p->n_rewrites; i++)
                r = name_index_add(&p->rewrite_ids, i, policy_rewrite_key, p);
        if (r >= 0)
                r = compile_regexes(p);
        if (r >= 0)
                r = policy_finish(p);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(p);
        return 0;
}
