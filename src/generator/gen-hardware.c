/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "gen-hardware.h"

int gen_hardware_prepare(GenHardware *hw, const Policy *policy, const char *root, PolicyEngine *engine) {
        *hw = (GenHardware) {};
        /* No policy has hardware conditions yet: nothing to load. */
        return 0;
}

void gen_hardware_done(GenHardware *hw) {
        *hw = (GenHardware) {};
}
