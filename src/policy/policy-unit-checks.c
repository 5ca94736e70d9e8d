/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* systemd's checks of a unit as a whole (src/validate/unit-checks.h),
 * turned into diagnostics: what systemd does, and what the policy makes
 * of it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "basic/alloc-util.h"
#include "policy-engine.h"
#include "policy-internal.h"
#include "validate/unit-checks.h"

static SystemdEffect effect_of(const UnitCheck *c) {
        if (c->effect == UNIT_CHECK_WARNING)
                return EFFECT_NONE;
        return c->effect == UNIT_CHECK_REFUSED ? EFFECT_UNIT_FATAL : EFFECT_FILE_FAILED;
}

static int report(const PolicyEngine *e, UnitGroup *g, const UnitFinding *f, bool mirror, bool *rejected) {
        const UnitCheck *c = f->check;
        _cleanup_free_ char *rule = strjoin(e->policy->name, mirror ? ":mirror." : ":systemd-check.", c->name);
        const char *tail;
        DiagSeverity sev;

        if (!rule)
                return -ENOMEM;

        /* One format for the whole message: "...; systemd N <tail>". */
        switch (c->effect) {
        case UNIT_CHECK_WARNING:
                sev = DIAG_WARNING;
                tail = "loads the unit with a warning";
                break;
        case UNIT_CHECK_NOT_LOADED:
                /* Like an invalid unit name: nothing systemd would load is
                 * passed on, whatever the policy. */
                sev = DIAG_ERROR;
                *rejected = true;
                tail = "does not load this unit; unit rejected";
                break;
        case UNIT_CHECK_REFUSED:
        default:
                sev = mirror ? DIAG_ERROR : DIAG_WARNING;
                if (mirror)
                        *rejected = true;
                tail = mirror ? "refuses the unit" : "would refuse to load this unit";
                break;
        }

        return diag_add(&g->diags, sev, effect_of(c), rule, f->path, f->line, NULL, NULL, "%s%s%s%s; systemd %u %s",
                        c->message, f->detail[0] ? " (" : "", f->detail, f->detail[0] ? ")" : "", e->version, tail);
}

int policy_unit_checks(const PolicyEngine *e, UnitGroup *g, const UnitCheckResult *res, bool *rejected) {
        for (size_t i = 0; i < res->n; i++) {
                int r = report(e, g, &res->findings[i], e->policy->mode == MODE_MIRROR, rejected);

                if (r < 0)
                        return r;
        }
        return 0;
}
