/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli-output.h"
#include "exit-codes.h"

int cli_finish_stdout(const char *prog) {
        int r = 0;

        /* fflush() reports what it failed to write now; ferror() also what
         * an earlier, implicit flush failed to write. */
        errno = 0;
        if (fflush(stdout) != 0)
                r = errno > 0 ? -errno : -EIO;
        else if (ferror(stdout))
                r = -EIO;
        if (r == 0 || r == -EPIPE)
                return EXIT_CLEAN;
        fprintf(stderr, "%s: cannot write to standard output: %s\n", prog, strerror(-r));
        return EXIT_INPUT;
}
