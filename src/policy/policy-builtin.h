/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "policy.h"

/* Shipped policies compiled at build time: policies/policy-compile loads
 * each one through the YAML loader (extends: resolved) and writes a C
 * function per policy that rebuilds the effective Policy, so that a run
 * with a shipped policy parses no YAML. */

typedef struct BuiltinCompiled {
        const char *name;
        int (*build)(Policy *p);       /* fills a zeroed Policy; -ENOMEM */
} BuiltinCompiled;

/* The compiled form of shipped policy name, or NULL: defined by the
 * generated builtin-compiled.c, or by builtin-compiled-none.c in the build
 * tool itself (which must load the YAML). */
const BuiltinCompiled *builtin_compiled_find(const char *name);

/* Builds the policy, then what the loader derives from it: the name
 * indexes, the compiled regexes, the match data. */
int policy_builtin_instantiate(const BuiltinCompiled *b, Policy **ret);
