/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-options.h"
#include "exit-codes.h"

int cli_parse_version(const char *verb, const char *arg, unsigned *ret) {
        char *end;
        unsigned long v;

        errno = 0;
        v = strtoul(arg, &end, 10);
        if (!*arg || *end || errno || v < 200 || v > 999) {
                fprintf(stderr, "unitguard %s: invalid systemd version '%s'\n", verb, arg);
                return -EINVAL;
        }
        *ret = (unsigned) v;
        return 0;
}

int cli_bad_option(const char *verb, int argc, char **argv, int opt) {
        if (opt)
                fprintf(stderr, "unitguard %s: invalid option '-%c' or missing argument; see --help\n", verb, opt);
        else if (optind - 1 < argc)
                fprintf(stderr, "unitguard %s: unknown option '%s'; see --help\n", verb, argv[optind - 1]);
        return EXIT_USAGE;
}
