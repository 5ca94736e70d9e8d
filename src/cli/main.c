/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "basic/macro.h"
#include "cli-output.h"
#include "exit-codes.h"
#include "verbs.h"

static void help(FILE *f) {
        fprintf(f,
                "Usage: unitguard COMMAND [OPTIONS...]\n"
                "\n"
                "Check systemd unit files against a policy before they reach a system.\n"
                "\n"
                "Commands:\n"
                "  filter [FILE|DIR|-]...   read units, apply the policy, write what passes\n"
                "  check [--root DIR] ...   judge units (a package tree as systemd sees it)\n"
                "  policy check|show|list   validate, show and list policies\n"
                "  hwdb query|compile|check read systemd's hardware database\n"
                "  units [--root DIR]       list the units systemd would load from a root\n"
                "\n"
                "Options:\n"
                "  -h --help                show this help\n"
                "     --version             show the version\n"
                "\n"
                EXIT_STATUS_HELP
                "\n"
                "See unitguard(1) and 'unitguard COMMAND --help'.\n");
}

int main(int argc, char **argv) {
        static const struct {
                const char *name;
                int (*run)(int argc, char **argv);
        } verbs[] = {
                { "filter", verb_filter },
                { "check", verb_unit_check },
                { "policy", verb_policy },
                { "hwdb", verb_hwdb },
                { "units", verb_units },
        };

        /* A closed pipe on stdout is reported by write() as EPIPE and ends
         * the program quietly; no signal should kill it half-way. */
        signal(SIGPIPE, SIG_IGN);

        if (argc < 2) {
                help(stderr);
                return EXIT_USAGE;
        }
        if (streq(argv[1], "-h") || streq(argv[1], "--help") || streq(argv[1], "help")) {
                help(stdout);
                return cli_finish_stdout("unitguard");
        }
        if (streq(argv[1], "--version")) {
                printf("unitguard %s\n", PACKAGE_VERSION);
                return cli_finish_stdout("unitguard");
        }

        for (size_t i = 0; i < ELEMENTSOF(verbs); i++)
                if (streq(argv[1], verbs[i].name))
                        return verbs[i].run(argc - 1, argv + 1);

        fprintf(stderr, "unitguard: unknown command '%s'; see 'unitguard --help'\n", argv[1]);
        return EXIT_USAGE;
}
