/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "policy/policy-engine.h"

/* The hook for hardware conditions (`hardware:` in a policy's when:, issue
 * 11, written on its own branch): before any unit is judged, the generator
 * hands the policy to gen_hardware_prepare(), which loads what the
 * policy's hardware conditions need — the devices under ROOT/sys, the
 * root's hwdb — and attaches it to the engine that evaluates them.
 *
 * A policy without hardware conditions needs nothing: then the call reads
 * nothing and costs nothing, so a boot with such a policy pays only for
 * what it uses. Until hardware conditions exist, every policy is one. */

typedef struct GenHardware {
        void *devices;         /* owned by the hardware code; NULL when nothing was loaded */
} GenHardware;

/* root: NULL for the host. Returns 0, or a negative errno (the generator
 * logs it and judges without hardware information). */
int gen_hardware_prepare(GenHardware *hw, const Policy *policy, const char *root, PolicyEngine *engine);
void gen_hardware_done(GenHardware *hw);
