/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Placeholder until the parser lands. */
#include <stdio.h>

#include "exit-codes.h"
#include "verbs.h"

int verb_filter(int argc, char **argv) {
        fprintf(stderr, "unitguard filter: not implemented yet\n");
        return EXIT_USAGE;
}
