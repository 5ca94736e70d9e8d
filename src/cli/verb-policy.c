/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Placeholder until the policy engine lands. */
#include <stdio.h>

#include "exit-codes.h"
#include "verbs.h"

int verb_policy(int argc, char **argv) {
        fprintf(stderr, "unitguard policy: not implemented yet\n");
        return EXIT_USAGE;
}
