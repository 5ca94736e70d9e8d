/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "unit/unit-group.h"
#include "hw-udev-rules.h"

/* Device ties: why a unit belongs to some hardware. A model of the unit's
 * files only; whether the device is present is hw-context.c's business.
 * See DEVICE TIES in unitguard.policy(5). */

typedef enum HwTieKind {
        HW_TIE_DEPENDENCY,     /* BindsTo= ... After= on a dev-*.device / sys-*.device unit */
        HW_TIE_INSTANCE,       /* an instance for a device (serial-getty@ttyS0.service) */
        HW_TIE_UDEV,           /* a udev rule pulls the unit in (ENV{SYSTEMD_WANTS}) */
        HW_TIE_CONDITION,      /* a device condition (ConditionPathExists=/dev/..., ConditionVirtualization=...) */
        HW_TIE_POLICY,         /* the policy's device-units: names it */
        _HW_TIE_KIND_MAX,
} HwTieKind;

typedef struct HwTie {
        HwTieKind kind;
        char *via;             /* what ties it, as written: "BindsTo=dev-ttyS0.device",
                                * "serial-getty@.service instance", "ConditionVirtualization=kvm" */
        char *node;            /* the device it names: "/dev/..." or "/sys/..."; NULL when none */
        char *subsystem;       /* instead of a node: subsystem and name (systemd-backlight@backlight:x) */
        char *sysname;
        bool bound;            /* the unit needs this device (everything but negated
                                * conditions, udev rules and policy globs) */
        char *file;            /* where: a unit file or a udev rules file (NULL for the policy) */
        unsigned line;
        const HwUdevWants *udev;       /* HW_TIE_UDEV: the rule */
} HwTie;

typedef struct HwTieList {
        HwTie *items;
        size_t n, allocated;
} HwTieList;

#define HW_TIES_MAX 256u

void hw_tie_list_done(HwTieList *l);
const char *hw_tie_kind_to_string(HwTieKind k);

/* The unit's device ties, in the order: dependencies and conditions (file
 * by file, line by line), instance, udev rules, policy globs. rules may be
 * NULL (no rules read); globs are the policy's device-units: list. version
 * is the systemd version specifiers are expanded for; user_scope picks
 * the user managers' udev wants instead of the system's. At most HW_TIES_MAX
 * ties are kept. */
int hw_unit_ties(const UnitGroup *g, const HwUdevRules *rules, char *const *globs, size_t n_globs,
                 unsigned version, bool user_scope, HwTieList *ret);

/* The device a unit name stands for: "dev-ttyS0.device" -> "/dev/ttyS0";
 * NULL (0) when it is not a device unit for a path below /dev or /sys,
 * -ENOMEM. */
int hw_device_unit_to_path(const char *unit, char **ret);
