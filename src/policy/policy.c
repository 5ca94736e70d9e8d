/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Policy objects: lifetime, lookups, errors. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <errno.h>
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "policy-internal.h"
#include "validate/directive-table.h"

void rewrite_done(Rewrite *rw) {
        free(rw->id);
        free(rw->description);
        for (size_t i = 0; i < rw->n_unit_globs; i++)
                free(rw->unit_globs[i]);
        free(rw->unit_globs);
        for (size_t i = 0; i < rw->n_absent; i++)
                free(rw->absent[i]);
        free(rw->absent);
        for (size_t i = 0; i < rw->n_present; i++)
                free(rw->present[i]);
        free(rw->present);
        free(rw->section);
        free(rw->key);
        free(rw->value);
        free(rw->to);
        free(rw->matching);
        if (rw->value_re)
                pcre2_code_free(rw->value_re);
        *rw = (Rewrite) {};
}

Policy *policy_free(Policy *p) {
        if (!p)
                return NULL;
        free(p->name);
        free(p->description);
        free(p->source);
        free(p->extends);
        free(p->user_regex);
        if (p->user_re)
                pcre2_code_free(p->user_re);
        if (p->user_match)
                pcre2_match_data_free(p->user_match);
        if (p->user_mctx)
                pcre2_match_context_free(p->user_mctx);
        for (size_t i = 0; i < p->n_directives; i++)
                free(p->directives[i].name);
        free(p->directives);
        for (size_t i = 0; i < p->n_rewrites; i++)
                rewrite_done(&p->rewrites[i]);
        free(p->rewrites);
        free(p);
        return NULL;
}

/* No rule may backtrack for long: these bound every match. */
#define REGEX_MATCH_LIMIT 100000
#define REGEX_DEPTH_LIMIT 1000

int policy_finish(Policy *p) {
        if (p->user_re && !p->user_match) {
                p->user_match = pcre2_match_data_create_from_pattern(p->user_re, NULL);
                if (!p->user_match)
                        return -ENOMEM;
        }
        if (!p->user_mctx) {
                p->user_mctx = pcre2_match_context_create(NULL);
                if (!p->user_mctx)
                        return -ENOMEM;
                pcre2_set_match_limit(p->user_mctx, REGEX_MATCH_LIMIT);
                pcre2_set_depth_limit(p->user_mctx, REGEX_DEPTH_LIMIT);
        }
        return 0;
}

void policy_error_done(PolicyError *e) {
        free(e->file);
        free(e->message);
        *e = (PolicyError) {};
}

int policy_error_format(const PolicyError *e, StrBuf *out) {
        return strbuf_printf(out, "%s:%u:%u: error: %s\n", e->file ? e->file : "<policy>", e->line,
                             e->column, e->message ? e->message : "invalid policy");
}

PolicyAction policy_action_for(const Policy *p, const char *directive) {
        for (size_t i = 0; i < p->n_directives; i++)
                if (streq(p->directives[i].name, directive))
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
