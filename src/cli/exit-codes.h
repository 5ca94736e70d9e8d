/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The documented exit codes of every unitguard command. */
enum {
        EXIT_CLEAN = 0,     /* nothing rejected */
        EXIT_REJECTED = 1,  /* at least one unit rejected */
        EXIT_USAGE = 2,     /* usage or policy error */
        EXIT_INPUT = 3,     /* an input could not be read (or output not written) */
};

/* The exit codes as --help shows them. */
#define EXIT_STATUS_HELP                                                        \
        "Exit status:\n"                                                        \
        "  0  nothing was rejected\n"                                           \
        "  1  at least one unit was rejected\n"                                 \
        "  2  usage error or invalid policy\n"                                  \
        "  3  an input could not be read, the output could not be written,\n"   \
        "     or unitguard ran out of memory\n"
