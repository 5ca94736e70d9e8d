/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdlib.h>

#include "filter/unit-group.h"
#include "policy.h"

void rewrite_done(Rewrite *rw);
/* Prepares a loaded policy for use (match data for regexes). */
int policy_finish(Policy *p);
/* Whether name is a directive systemd knows in any section. */
bool policy_directive_name_known(const char *name);

static inline char *mfree_str(char *s) {
        free(s);
        return NULL;
}

/* Applies the policy's rewrites to an accepted unit. */
int policy_apply_rewrites(const Policy *p, UnitGroup *g);
