/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli-output.h"
#include "cli-policy.h"
#include "exit-codes.h"
#include "filter/filter.h"
#include "policy/policy-engine.h"
#include "verbs.h"

static void help(FILE *f) {
        fprintf(f,
                "Usage: unitguard filter [OPTIONS...] [FILE|DIR|-]...\n"
                "\n"
                "Read unit files, judge them and write out what passes.\n"
                "\n"
                "Input: unit files, drop-ins (NAME.d/*.conf), directory trees, or standard\n"
                "input (no argument, or '-'): a single unit or the 'systemctl cat' format.\n"
                "\n"
                "Options:\n"
                "  -p --policy=FILE|NAME policy to apply (default: the built-in 'default';\n"
                "                        'unitguard policy list' shows the shipped ones)\n"
                "  -t --target-version=N predict systemd version N instead of the policy's target\n"
                "     --no-policy        parse and write only: reject just what systemd cannot read\n"
                "  -n --name=NAME        name of the unit read from standard input\n"
                "  -f --format=unit|json write unit text (default) or the parsed model\n"
                "  -h --help             show this help\n"
                "\n"
                "Diagnostics go to standard error as 'PATH:LINE: severity: message'.\n"
                "\n"
                EXIT_STATUS_HELP);
}

static int exit_status(const Filter *f) {
        if (f->n_input_errors > 0)
                return EXIT_INPUT;
        if (f->n_rejected > 0)
                return EXIT_REJECTED;
        return EXIT_CLEAN;
}

int verb_filter(int argc, char **argv) {
        static const struct option options[] = {
                { "name", required_argument, NULL, 'n' },
                { "policy", required_argument, NULL, 'p' },
                { "target-version", required_argument, NULL, 't' },
                { "no-policy", no_argument, NULL, 'P' },
                { "format", required_argument, NULL, 'f' },
                { "help", no_argument, NULL, 'h' },
                {}
        };
        _cleanup_(filter_done) Filter f;
        _cleanup_(policy_freep) Policy *policy = NULL;
        const char *policy_name = DEFAULT_POLICY_NAME;
        bool use_policy = true;
        PolicyEngine engine = {};
        unsigned target = 0;
        bool framed;
        int c, r = 0;

        filter_init(&f, STDOUT_FILENO, STDERR_FILENO);
        optind = 0;
        opterr = 0;
        while ((c = getopt_long(argc, argv, "n:f:p:t:h", options, NULL)) >= 0)
                switch (c) {
                case 'n':
                        f.stdin_name = optarg;
                        break;
                case 'p':
                        policy_name = optarg;
                        break;
                case 'P':
                        use_policy = false;
                        break;
                case 't': {
                        char *end;
                        unsigned long v = strtoul(optarg, &end, 10);

                        if (!*optarg || *end || v < 200 || v > 999) {
                                fprintf(stderr, "unitguard filter: invalid systemd version '%s'\n", optarg);
                                return EXIT_USAGE;
                        }
                        target = (unsigned) v;
                        break;
                }
                case 'f':
                        if (streq(optarg, "unit"))
                                f.format = OUTPUT_UNIT;
                        else if (streq(optarg, "json"))
                                f.format = OUTPUT_JSON;
                        else {
                                fprintf(stderr, "unitguard filter: unknown format '%s' (unit, json)\n", optarg);
                                return EXIT_USAGE;
                        }
                        break;
                case 'h':
                        help(stdout);
                        return cli_finish_stdout("unitguard filter");
                default:
                        if (optopt)
                                fprintf(stderr, "unitguard filter: invalid option '-%c' or missing argument; see --help\n", optopt);
                        else
                                fprintf(stderr, "unitguard filter: unknown option '%s'; see --help\n", argv[optind - 1]);
                        return EXIT_USAGE;
                }

        if (use_policy) {
                r = cli_load_policy(policy_name, &policy);
                if (r < 0)
                        return r == -ENOMEM ? EXIT_INPUT : EXIT_USAGE;
        }
        if (policy) {
                engine.policy = policy;
                engine.version = target ? target : policy->target;
                f.judge = policy_engine_judge;
                f.judge_userdata = &engine;
        }

        /* One plain file comes out as it went in; several inputs are framed
         * like 'systemctl cat' so they can be told apart. */
        framed = argc - optind > 1;
        if (optind >= argc)
                r = filter_stream(&f, STDIN_FILENO, "<stdin>");
        for (int i = optind; r >= 0 && i < argc; i++) {
                if (streq(argv[i], "-"))
                        r = filter_stream(&f, STDIN_FILENO, "<stdin>");
                else
                        r = filter_path(&f, argv[i], framed);
        }
        if (r >= 0)
                r = filter_flush(&f);
        if (r < 0) {
                filter_abort(&f);
                fprintf(stderr, "unitguard filter: %s: %s\n",
                        f.write_failed ? "cannot write output" : "internal error", strerror(-r));
                return EXIT_INPUT;
        }
        return exit_status(&f);
}
