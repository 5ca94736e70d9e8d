/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "gen-log.h"
#include "hardware/hw-context.h"
#include "lookup/root.h"
#include "policy/policy-engine.h"
#include "policy/policy-hardware.h"

/* Hardware conditions (`hardware:` in a policy's when: or require/forbid
 * body): before any unit is judged, the generator hands the policy to
 * gen_hardware_prepare(), which reads what the policy's hardware
 * conditions need — the devices under ROOT/sys, the hwdb properties from
 * the root's hwdb.bin (systemd's search order), the root's udev rules for
 * device ties — and attaches it to the engine that evaluates them.
 *
 * A policy without hardware conditions needs nothing: then the call reads
 * nothing and costs nothing, so a boot with such a policy pays only for
 * what it uses. */

typedef struct GenHardware {
        HwContext ctx;
        PolicyHardware hw;
} GenHardware;

/* root_dir: NULL for the host; root: the opened root (udev rules). What
 * could not be read is logged; the engine then judges without hardware
 * (a hardware condition it cannot decide rejects its unit, as in
 * `unitguard check`). Returns 1 when hardware is on, 0 when the policy
 * needs none or it could not be read, or -ENOMEM. */
int gen_hardware_prepare(GenHardware *hw, const Policy *policy, const char *root_dir, const Root *root,
                         PolicyEngine *engine, GenLog *log);
void gen_hardware_done(GenHardware *hw);
