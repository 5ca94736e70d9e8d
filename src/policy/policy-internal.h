/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdlib.h>

#include "unit/unit-group.h"
#include "policy.h"

void rewrite_done(Rewrite *rw);
void assertion_done(Assertion *a);
void policy_waiver_done(PolicyWaiver *w);
/* Writes s as a double-quoted YAML scalar. */
int policy_yaml_quote(StrBuf *out, const char *s);
/* Prepares a loaded policy for use (match data for regexes). */
int policy_finish(Policy *p);
/* NameIndexKey functions: names of directives[i], ids of rewrites[i]. */
const char *policy_directive_key(const void *policy, size_t i);
const char *policy_rewrite_key(const void *policy, size_t i);
/* Whether name is a directive systemd knows in any section. */
bool policy_directive_name_known(const char *name);

static inline char *mfree_str(char *s) {
        free(s);
        return NULL;
}

/* Applies the policy's rewrites to an accepted unit. Returns 0, 1 when a
 * rewrite could not be decided and the unit must be rejected (the error is
 * reported), or a negative errno. */
struct PolicyHardware;
struct HwTieList;
int policy_apply_rewrites(const Policy *p, UnitGroup *g, bool user_scope, struct PolicyHardware *hw,
                          const struct HwTieList *ties);
