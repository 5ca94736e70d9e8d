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
        _cleanup_free_ char *rule = NULL;
        _cleanup_free_ char *tail = NULL;
        DiagSeverity sev;
        int r;

        if (asprintf(&rule, "%s:%s.%s", e->policy->name, mirror ? "mirror" : "systemd-check", c->name) < 0)
                return -ENOMEM;

        switch (c->effect) {
        case UNIT_CHECK_WARNING:
                sev = DIAG_WARNING;
                r = asprintf(&tail, "systemd %u loads the unit with a warning", e->version);
                break;
        case UNIT_CHECK_NOT_LOADED:
                /* Like an invalid unit name: nothing systemd would load is
                 * passed on, whatever the policy. */
                sev = DIAG_ERROR;
                *rejected = true;
                r = asprintf(&tail, "systemd %u does not load this unit; unit rejected", e->version);
                break;
        case UNIT_CHECK_REFUSED:
        default:
                sev = mirror ? DIAG_ERROR : DIAG_WARNING;
                if (mirror)
                        *rejected = true;
                r = mirror ? asprintf(&tail, "systemd %u refuses the unit", e->version)
                           : asprintf(&tail, "systemd %u would refuse to load this unit", e->version);
                break;
        }

        if (r < 0)
                return -ENOMEM;
        return diag_add(&g->diags, sev, effect_of(c), rule, f->path, f->line, NULL, NULL, "%s%s%s%s; %s",
                        c->message, f->detail[0] ? " (" : "", f->detail, f->detail[0] ? ")" : "", tail);
}

int policy_unit_checks(const PolicyEngine *e, UnitGroup *g, const UnitCheckResult *res, bool *rejected) {
        for (size_t i = 0; i < res->n; i++) {
                int r = report(e, g, &res->findings[i], e->policy->mode == MODE_MIRROR, rejected);

                if (r < 0)
                        return r;
        }
        return 0;
}
