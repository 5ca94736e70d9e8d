/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Policy objects: lifetime, lookups, errors. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "policy-condition.h"
#include "policy-internal.h"
#include "validate/directive-table.h"

void rewrite_done(Rewrite *rw) {
        free(rw->id);
        free(rw->description);
        condition_free(rw->when);
        free(rw->when_text);
        free(rw->section);
        free(rw->key);
        free(rw->value);
        free(rw->to);
        free(rw->matching);
        regex_free(rw->value_re);
        *rw = (Rewrite) {};
}

void assertion_done(Assertion *a) {
        free(a->id);
        free(a->description);
        condition_free(a->when);
        condition_free(a->body);
        free(a->when_text);
        free(a->body_text);
        *a = (Assertion) {};
}

void policy_waiver_done(PolicyWaiver *w) {
        free(w->rule);
        free(w->unit);
        free(w->reason);
        free(w->file);
        *w = (PolicyWaiver) {};
}

Policy *policy_free(Policy *p) {
        if (!p)
                return NULL;
        free(p->name);
        free(p->description);
        free(p->source);
        free(p->extends);
        free(p->user_regex);
        regex_free(p->user_re);
        regex_matcher_done(&p->matcher);
        for (size_t i = 0; i < p->n_directives; i++)
                free(p->directives[i].name);
        free(p->directives);
        name_index_done(&p->directive_names);
        for (size_t i = 0; i < p->n_rewrites; i++)
                rewrite_done(&p->rewrites[i]);
        free(p->rewrites);
        for (size_t i = 0; i < p->n_device_units; i++)
                free(p->device_units[i]);
        free(p->device_units);
        name_index_done(&p->rewrite_ids);
        for (size_t i = 0; i < p->n_assertions; i++)
                assertion_done(&p->assertions[i]);
        free(p->assertions);
        for (size_t i = 0; i < p->n_waivers; i++)
                policy_waiver_done(&p->waivers[i]);
        free(p->waivers);
        free(p);
        return NULL;
}

int policy_finish(Policy *p) {
        return regex_matcher_init(&p->matcher);
}

void policy_error_done(PolicyError *e) {
        free(e->file);
        free(e->message);
        *e = (PolicyError) {};
}

int policy_error_format(const PolicyError *e, StrBuf *out) {
        const char *file = e->file ? e->file : "<policy>", *message = e->message ? e->message : "invalid policy";

        if (e->line == 0)
                return strbuf_printf(out, "%s: error: %s\n", file, message);
        return strbuf_printf(out, "%s:%u:%u: error: %s\n", file, e->line, e->column, message);
}

const char *policy_directive_key(const void *policy, size_t i) {
        return ((const Policy *) policy)->directives[i].name;
}

const char *policy_rewrite_key(const void *policy, size_t i) {
        return ((const Policy *) policy)->rewrites[i].id;
}

PolicyAction policy_action_for(const Policy *p, const char *directive) {
        size_t i;

        if (name_index_find(&p->directive_names, directive, policy_directive_key, p, &i) >= 0)
                return p->directives[i].action;
        return p->invalid_default;
}

static const char *const action_names[_ACTION_MAX] = {
        [ACTION_FATAL] = "fatal",
        [ACTION_DROP] = "drop",
        [ACTION_WARN] = "warn",
};

const char *policy_action_to_string(PolicyAction a) {
        return a >= 0 && a < _ACTION_MAX ? action_names[a] : "?";
}

PolicyAction policy_action_from_string(const char *s) {
        for (int a = 0; a < _ACTION_MAX; a++)
                if (streq(action_names[a], s))
                        return (PolicyAction) a;
        return _ACTION_INVALID;
}

bool policy_directive_name_known(const char *name) {
        return directive_name_known(name);
}
