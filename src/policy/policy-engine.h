/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "filter/unit-group.h"
#include "policy.h"

/* Applies a policy to one unit: sets the verdict, requests edits and adds
 * diagnostics, each naming the rule that decided. Also predicts what
 * systemd at the target version does, and reports a unit that names User=
 * but would run as root. */

typedef struct PolicyEngine {
        const Policy *policy;
        unsigned version;      /* systemd version predicted (policy target or override) */
        bool user_scope;       /* units of a user manager: they run as that user */
} PolicyEngine;

/* FilterJudge-compatible: userdata is a PolicyEngine. */
int policy_engine_judge(void *userdata, UnitGroup *g);
