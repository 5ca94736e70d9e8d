/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "basic/strbuf.h"
#include "hardware/hw-context.h"
#include "hardware/hw-ties.h"
#include "policy-condition.h"
#include "policy.h"

/* Hardware conditions of a policy (`hardware:` and `device-tied:` in a
 * `when:` or a require/forbid body, see HARDWARE in unitguard.policy(5)),
 * evaluated against a HwContext. */

typedef struct HwMatch {
        char **modalias, **subsystem, **driver, **node;        /* globs: one of each list must match */
        size_t n_modalias, n_subsystem, n_driver, n_node;
        char *property;        /* a property name: the device's own or the hwdb's */
        CondMatch value_match; /* MATCH_SET, MATCH_VALUE, MATCH_GLOB or MATCH_REGEX */
        char **values;
        size_t n_values;
        char *pattern;         /* MATCH_REGEX, as written */
        void *re;
        bool bound;            /* bound-device: only the unit's own devices, all present */
        char *text;            /* as YAML, for reports */
} HwMatch;

HwMatch *hw_match_free(HwMatch *m);

/* What a policy needs read before a run. */
typedef struct PolicyHardwareNeeds {
        bool devices;          /* some hardware: condition */
        bool hwdb;             /* ... that tests a property */
        bool ties;             /* device-tied: or bound-device: */
} PolicyHardwareNeeds;

void policy_hardware_needs(const Policy *p, PolicyHardwareNeeds *ret);

/* Reads into ctx what the policy's hardware conditions need: the devices
 * (for hardware:, or when report is set), the hwdb (for property tests),
 * the udev rules of root (for ties, or report; root may be NULL: none).
 * Returns 1 when hardware is on (set up a PolicyHardware with ctx), 0 when
 * the policy needs nothing and nothing was read, -EIO when a source could
 * not be read (the error is in errors; warnings of a partly unreadable
 * tree are in ctx->diags either way), or -ENOMEM. This is what `check`,
 * `filter` and the generator call before judging. */
int policy_hardware_load(const Policy *p, const HwOptions *o, const struct Root *root, bool report, HwContext *ctx,
                         DiagList *errors);
/* The same, reading from a real sysfs only the devices of the subsystems
 * the conditions name, when every hardware: condition names its
 * subsystems exactly and nothing needs device ties (the generator: which
 * device decided a condition may then be another of the same kind). */
int policy_hardware_load_lean(const Policy *p, const HwOptions *o, const struct Root *root, HwContext *ctx,
                              DiagList *errors);

/* One decision of a hardware condition. */
typedef struct HwDecision {
        const Condition *cond;
        int result;            /* 1 holds, 0 not */
        const HwDevice *device;        /* the device that decided, or NULL */
        const char *missing;   /* bound-device: the first device not present (points
                                * into the unit's ties) */
        size_t n_bound;        /* bound-device: how many devices the unit is bound to */
} HwDecision;

/* The hardware side of one engine run. Zero-initialize; set ctx (owned by
 * the caller, loaded with what policy_hardware_needs() asked for) and
 * report; release with policy_hardware_done(). */
typedef struct PolicyHardware {
        HwContext *ctx;
        const struct Root *root;       /* where the udev rules came from, NULL: none */
        bool report;           /* per unit: device ties as notes and in check's JSON record */
        unsigned version;      /* systemd version for specifiers in dependencies */
        bool user_scope;       /* units of a user manager (udev's SYSTEMD_USER_WANTS) */
        /* Conditions on the machine alone are decided once per run. */
        HwDecision *decisions;
        size_t n_decisions, allocated_decisions;
        /* bound-device conditions, per unit (reset for each unit). */
        HwDecision *unit_decisions;
        size_t n_unit_decisions, allocated_unit_decisions;
        size_t n_tied_units;   /* units with at least one tie */
} PolicyHardware;

void policy_hardware_done(PolicyHardware *h);

/* condition_eval() for COND_HARDWARE and COND_DEVICE_TIED. Without a
 * context (ctx->hw NULL or no devices read) returns -ENODEV. */
int condition_eval_hardware(const Condition *c, CondContext *ctx);

/* Engine hooks, around the judging of one unit: the unit's device ties
 * (into *ties), and afterwards the notes and the JSON record member. */
int policy_hardware_unit_begin(PolicyHardware *h, const Policy *p, const UnitGroup *g, HwTieList *ties);
int policy_hardware_unit_end(PolicyHardware *h, const Policy *p, UnitGroup *g, const HwTieList *ties);

/* After the run: one note per machine-wide hardware condition that was
 * evaluated, naming its rule and what decided it (rule POLICY:hardware, at
 * the policy's source), and a note on the devices read. */
int policy_hardware_report(const PolicyHardware *h, const Policy *p, DiagList *out);
/* check --format json: the "hardware" member of the document. */
int policy_hardware_json(const PolicyHardware *h, const Policy *p, StrBuf *out);
