/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "basic/strbuf.h"
#include "name-index.h"
#include "policy-regex.h"
#include "validate/user-name.h"

/* A policy, after `extends:` has been resolved. See unitguard.policy(5). */

typedef enum PolicyAction {
        ACTION_FATAL,          /* reject the unit */
        ACTION_DROP,           /* remove the line, warn */
        ACTION_WARN,           /* keep the line, warn */
        _ACTION_MAX,
        _ACTION_INVALID = -1,
} PolicyAction;

typedef enum PolicyMode {
        MODE_ENFORCE,          /* decide by the policy's rules */
        MODE_MIRROR,           /* predict systemd exactly: its verdicts decide */
} PolicyMode;

typedef enum UserRule {
        /* The first values match UserNameMode. */
        USER_RULE_SYSTEMD = _USER_NAME_MODE_MAX, /* what systemd at the target accepts */
        USER_RULE_REGEX,
} UserRule;

typedef enum RewriteKind {
        REWRITE_SET,           /* replace the value of matching entries, or add one */
        REWRITE_ADD,           /* always add an entry */
        REWRITE_REMOVE,        /* drop matching entries */
        REWRITE_RENAME,        /* rename the key of matching entries */
} RewriteKind;

typedef struct Condition Condition;   /* policy-condition.h */

/* In an add: value, stands for each device node the unit is bound to. */
#define POLICY_DEVICE_NODE_PLACEHOLDER "{device-node}"

typedef struct Rewrite {
        char *id;
        char *description;
        Condition *when;       /* NULL: every unit */
        char *when_text;       /* `when:` as YAML, for `policy show` */
        /* The action. */
        RewriteKind kind;
        char *section, *key;
        char *value;           /* set/add: the new value (add: may hold POLICY_DEVICE_NODE_PLACEHOLDER once) */
        char *to;              /* rename: the new key */
        char *matching;        /* set/remove/rename: regex the old value must match, or NULL */
        void *value_re;        /* compiled `matching` (see policy-regex.h) */
} Rewrite;

/* require: / forbid: rules. */
typedef enum AssertionSeverity {
        ASSERT_NOTE,           /* the values of DiagSeverity */
        ASSERT_WARNING,
        ASSERT_ERROR,          /* rejects the unit */
} AssertionSeverity;

typedef struct Assertion {
        char *id;
        char *description;
        bool forbid;           /* violated when body holds; require: when it does not */
        AssertionSeverity severity;
        Condition *when;       /* NULL: every unit */
        Condition *body;
        char *when_text, *body_text;   /* as YAML, for `policy show` */
} Assertion;

/* A policy's waiver: findings of rule on units whose name matches unit
 * are reported as notes and do not reject. */
#define POLICY_WAIVERS_MAX 1024
#define POLICY_ASSERTIONS_MAX 1024

typedef struct PolicyWaiver {
        char *rule;            /* "forbid.ID", "require.ID" or a bare ID */
        char *unit;            /* glob on the unit name */
        char *reason;
        char *file;            /* where the waiver is written, for its warning */
        unsigned line;
} PolicyWaiver;

typedef struct DirectiveAction {
        char *name;            /* directive name, e.g. "User" */
        PolicyAction action;
} DirectiveAction;

typedef struct Policy {
        char *name;
        char *description;
        char *source;          /* file path, or "builtin:NAME" */
        char *extends;         /* as written, for `policy show` */
        unsigned target;       /* systemd version */
        PolicyMode mode;

        int user_rule;         /* UserNameMode or UserRule */
        char *user_regex;
        void *user_re;         /* compiled user_regex (see policy-regex.h) */
        RegexMatcher matcher;  /* limits and match data of every regex above and below */
        bool numeric_ids;
        bool empty_user_rejects;

        bool dropins_strict;   /* errors in drop-ins count like in the unit file */
        PolicyAction invalid_default;
        DirectiveAction *directives;
        size_t n_directives, allocated_directives;
        NameIndex directive_names;     /* name -> position in directives */
        PolicyAction unknown_action;
        bool comment_removed;  /* comment removed lines out instead of deleting them */

        Rewrite *rewrites;
        size_t n_rewrites, allocated_rewrites;
        NameIndex rewrite_ids;         /* id -> position in rewrites */

        Assertion *assertions; /* require: and forbid:, inherited ones first */
        size_t n_assertions, allocated_assertions;
        PolicyWaiver *waivers;
        size_t n_waivers, allocated_waivers;

        /* generator: how unitguard-generator(8) acts on the verdicts. */
        bool generator_condition;      /* rejected units that systemd would load get a
                                        * failing condition instead of a mask */
        bool generator_initrd;         /* also act in the initrd */

        char **device_units;   /* device-units: globs of units that are device-tied */
        size_t n_device_units;
} Policy;

typedef struct PolicyError {
        char *file;
        unsigned line, column;
        char *message;
} PolicyError;

void policy_error_done(PolicyError *e);
/* "FILE:LINE:COL: error: message", or "FILE: error: message" when line is 0
 * (a file named on the command line that cannot be read). */
int policy_error_format(const PolicyError *e, StrBuf *out);

/* Loads a shipped policy by name, or a file (anything with a '/' or ending
 * in .yaml). On a policy error returns -EINVAL and fills *err. */
int policy_load(const char *name_or_path, Policy **ret, PolicyError *err);
/* Loads policy text; source names it in errors and resolves relative
 * `extends:` paths. */
int policy_load_buffer(const char *text, size_t size, const char *source, Policy **ret,
                       PolicyError *err);
Policy *policy_free(Policy *p);
static inline void policy_freep(Policy **p) {
        policy_free(*p);
}

/* The action for an invalid value of directive name. */
PolicyAction policy_action_for(const Policy *p, const char *directive);

const char *policy_action_to_string(PolicyAction a);
PolicyAction policy_action_from_string(const char *s);

/* Shipped policies, compiled into the binary. */
typedef struct BuiltinPolicy {
        const char *name;
        const char *text;
} BuiltinPolicy;
const BuiltinPolicy *builtin_policy_find(const char *name);
const BuiltinPolicy *builtin_policies(size_t *n);
#define DEFAULT_POLICY_NAME "default"

/* The site policy: the first of /etc, /run, /usr/lib /unitguard/policy.yaml
 * that exists below root_dir (NULL or "/": the host), as a path to load, or
 * NULL in *ret when there is none (the built-in default applies). */
int policy_site_path(const char *root_dir, char **ret);

/* Writes the effective policy as YAML (extends resolved). */
int policy_show(const Policy *p, StrBuf *out);
