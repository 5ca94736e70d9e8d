/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-options.h"
#include "exit-codes.h"
#include "validate/judge.h"

int cli_parse_version(const char *verb, const char *arg, unsigned *ret) {
        char *end;
        unsigned long v;

        errno = 0;
        v = strtoul(arg, &end, 10);
        if (!*arg || *end || errno || v < 1 || v > 100000) {
                fprintf(stderr, "unitguard %s: invalid systemd version '%s'\n", verb, arg);
                return -EINVAL;
        }
        if (cli_check_version(verb, (unsigned) v, "--target-version") < 0)
                return -ERANGE;
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

int cli_check_version(const char *verb, unsigned v, const char *what) {
        if (v >= SYSTEMD_VERSION_OLDEST_MODELLED && v <= SYSTEMD_VERSION_NEWEST_MODELLED)
                return 0;
        fprintf(stderr,
                "unitguard %s: %s: systemd %u is outside the versions unitguard models (%d to %d); a prediction would be a guess\n",
                verb, what, v, SYSTEMD_VERSION_OLDEST_MODELLED, SYSTEMD_VERSION_NEWEST_MODELLED);
        return -ERANGE;
}
