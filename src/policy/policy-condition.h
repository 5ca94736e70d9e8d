/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "basic/strbuf.h"
#include "unit/unit-group.h"
#include "policy-regex.h"

/* Conditions on a unit: the `when:` of rewrites and assertions, and the
 * body of an assertion (see unitguard.policy(5)). A YAML mapping is the
 * conjunction of its keys; not:, any: and all: combine conditions. */

typedef enum ConditionKind {
        COND_ALL,              /* every child holds (no children: true) */
        COND_ANY,              /* some child holds */
        COND_NOT,              /* the one child does not hold */
        COND_UNIT_TYPE,        /* the unit's type is in a mask */
        COND_UNIT_NAME,        /* the unit's name matches one of globs */
        COND_PATH,             /* the unit's file path matches one of globs */
        COND_SCOPE,            /* system or user manager */
        COND_RUNS_AS_ROOT,     /* systemd's prediction equals flag */
        COND_KEY,              /* a key's effective values, see CondMatch */
        COND_HARDWARE,         /* a present device matches (policy-hardware.h) */
        COND_DEVICE_TIED,      /* the unit has device ties equals flag */
} ConditionKind;

typedef enum CondMatch {
        MATCH_SET,             /* the key has at least one effective value */
        MATCH_VALUE,           /* equal to one of strings */
        MATCH_GLOB,            /* fnmatch() on one of strings */
        MATCH_REGEX,           /* PCRE2, anywhere in the value */
        MATCH_BOOL,            /* parses as the boolean flag */
} CondMatch;

typedef enum CondQuantifier {
        QUANT_ANY,             /* some entry matches */
        QUANT_ALL,             /* there are entries and all match */
        QUANT_NONE,            /* no entry matches */
} CondQuantifier;

typedef struct Condition Condition;
struct Condition {
        ConditionKind kind;
        Condition **children;
        size_t n_children;
        unsigned unit_types;   /* COND_UNIT_TYPE: UNIT_TYPE_BIT mask */
        char **strings;        /* globs or values */
        size_t n_strings;
        bool flag;             /* COND_SCOPE: user; COND_RUNS_AS_ROOT, MATCH_BOOL: the value */
        char *section, *key;   /* COND_KEY */
        CondMatch match;
        CondQuantifier quant;
        char *pattern;         /* MATCH_REGEX, as written */
        void *re;              /* MATCH_REGEX, compiled */
        struct HwMatch *hw;    /* COND_HARDWARE */
};

Condition *condition_free(Condition *c);
static inline void condition_freep(Condition **c) {
        condition_free(*c);
}

/* What a condition is evaluated against. */
typedef struct CondContext {
        const RegexMatcher *matcher;
        const UnitGroup *g;
        bool user_scope;
        const char *limit;     /* set when a regex hit its limit */
        struct PolicyHardware *hw;     /* NULL: hardware conditions cannot be decided */
        const struct HwTieList *ties;  /* the unit's device ties, when computed */
} CondContext;

/* 1 when c holds for the unit, 0 when not, -ENOMEM, -E2BIG when a regex
 * limit stopped a match (ctx->limit names it), or -ENODEV for a hardware
 * condition without devices to decide it. A NULL condition holds. */
int condition_eval(const Condition *c, CondContext *ctx);

/* One effective value of a key: fragment and drop-ins in order, as they
 * are written out (removed entries left out, replacements and additions
 * counted); an empty assignment resets the key. f and e are NULL for a
 * value a rewrite added. */
typedef struct CondValue {
        const char *value;
        const UnitFile *f;
        const UnitEntry *e;
} CondValue;

/* The effective values of section.key (a key that is not a list keeps
 * only its last value). *ret is malloc'd, also when *ret_n is 0. */
int condition_key_values(const UnitGroup *g, const char *section, const char *key, CondValue **ret,
                         size_t *ret_n);
