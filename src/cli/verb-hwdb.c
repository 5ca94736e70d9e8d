/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Placeholder until the hwdb component lands. */
#include <stdio.h>

#include "exit-codes.h"
#include "verbs.h"

int verb_hwdb(int argc, char **argv) {
        fprintf(stderr, "unitguard hwdb: not implemented yet\n");
        return EXIT_USAGE;
}
