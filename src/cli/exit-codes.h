/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The documented exit codes of every unitguard command. */
enum {
        EXIT_CLEAN = 0,     /* nothing rejected */
        EXIT_REJECTED = 1,  /* at least one unit rejected */
        EXIT_USAGE = 2,     /* usage or policy error */
        EXIT_INPUT = 3,     /* an input could not be read (or output not written) */
};
