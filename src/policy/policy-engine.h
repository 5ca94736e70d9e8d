/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdint.h>

#include "unit/unit-group.h"
#include "policy.h"

struct HwTieList;
struct PolicyHardware;

/* Applies a policy to one unit: sets the verdict, requests edits and adds
 * diagnostics, each naming the rule that decided. Also predicts what
 * systemd at the target version does, and reports a unit that names User=
 * but would run as root. */

typedef struct PolicyEngine {
        const Policy *policy;
        unsigned version;      /* systemd version predicted (policy target or override) */
        bool user_scope;       /* units of a user manager: they run as that user */
        /* Which of policy->waivers applied to some unit so far (bit i for
         * waivers[i]); zero-initialized with the rest of the engine. */
        uint64_t waivers_used[POLICY_WAIVERS_MAX / 64];
        /* Hardware conditions and device ties (policy-hardware.h); NULL:
         * off (a hardware condition then rejects the unit, undecided). */
        struct PolicyHardware *hw;
        unsigned n_waived;     /* findings a waiver (policy or inline) turned into notes */
        struct PredictCache *cache; /* a memo of systemd's answers, or NULL */
        /* The run renders no notes (check without -v): the engine's own
         * notes are not made at all, rather than made and dropped. */
        bool skip_notes;
        /* For tests: every entry is looked at, not only those the
         * prediction calls notable (the slow path the fast one must match). */
        bool every_entry;
} PolicyEngine;

/* FilterJudge-compatible: userdata is a PolicyEngine. It remembers which
 * policy waivers were used, so one engine judges the units of one run. */
int policy_engine_judge(void *userdata, UnitGroup *g);

/* After the run: one warning in out for each waiver of the policy that no
 * finding used (rule "POLICY:waiver", at the waiver's file and line), in
 * the order of the policy. Returns 0 or -ENOMEM. */
int policy_engine_unused_waivers(const PolicyEngine *e, DiagList *out);

/* Internal to the engine: the policy's require:/forbid: rules on one unit,
 * as it would be written out. Sets *rejected when an error-severity rule
 * is broken and not waived. */
int policy_engine_assertions(PolicyEngine *e, UnitGroup *g, const struct HwTieList *ties, bool *rejected);

/* Internal to the engine: the findings of systemd's checks of the unit as a
 * whole (name against type, each type's verification; computed by the
 * systemd model), reported on g. Sets *rejected when systemd would not load
 * the unit and the policy follows systemd there. Returns 0 or -ENOMEM. */
struct UnitCheckResult;
int policy_unit_checks(const PolicyEngine *e, UnitGroup *g, const struct UnitCheckResult *res, bool *rejected);
