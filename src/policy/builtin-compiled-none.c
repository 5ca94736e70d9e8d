/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* For policies/policy-compile: no compiled policies, every shipped policy
 * is loaded from its YAML text. */
#include <stddef.h>

#include "policy-builtin.h"

const BuiltinCompiled *builtin_compiled_find(const char *name) {
        return NULL;
}
