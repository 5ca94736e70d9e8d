/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "basic/fileio.h"
#include "cli-output.h"
#include "cli-policy.h"
#include "exit-codes.h"
#include "policy/policy.h"
#include "verbs.h"

static void help(FILE *f) {
        fprintf(f,
                "Usage: unitguard policy check FILE|NAME...\n"
                "       unitguard policy show [FILE|NAME]\n"
                "       unitguard policy list\n"
                "\n"
                "  check  validate policies; errors as FILE:LINE:COL\n"
                "  show   print the effective policy (extends: resolved); default: the built-in default\n"
                "  list   list the shipped policies\n"
                "\n"
                "Exit status: 0 valid, 2 invalid policy or usage error.\n");
}

/* Loads a policy, printing its error. Returns an exit code. */
static int load(const char *what, Policy **ret) {
        int r = cli_load_policy(what, ret);

        if (r == -ENOMEM)
                return EXIT_INPUT;
        return r < 0 ? EXIT_USAGE : EXIT_CLEAN;
}

static int write_out(StrBuf *b) {
        int r = loop_write(STDOUT_FILENO, b->data, b->len);

        strbuf_done(b);
        if (r < 0 && r != -EPIPE) {
                fprintf(stderr, "unitguard policy: cannot write output: %s\n", strerror(-r));
                return EXIT_INPUT;
        }
        return EXIT_CLEAN;
}

/* The arguments of a subcommand are policy names or files: -h/--help
 * anywhere asks for help, any other option is a usage error (a file
 * whose name starts with '-' is given as ./-name or after "--").
 * Returns -1 to go on, else the exit status; *first is the first
 * argument after a "--". */
static int subcommand_options(int argc, char **argv, int *first) {
        *first = 2;
        for (int i = 2; i < argc; i++) {
                if (streq(argv[i], "--")) {
                        *first = i + 1;
                        return -1;
                }
                if (streq(argv[i], "-h") || streq(argv[i], "--help")) {
                        help(stdout);
                        return cli_finish_stdout("unitguard policy");
                }
                if (argv[i][0] == '-' && argv[i][1]) {
                        fprintf(stderr, "unitguard policy %s: unknown option '%s'; see --help\n", argv[1], argv[i]);
                        return EXIT_USAGE;
                }
        }
        return -1;
}

int verb_policy(int argc, char **argv) {
        StrBuf b = {};
        Policy *p = NULL;
        int rc, first;

        if (argc < 2) {
                help(stderr);
                return EXIT_USAGE;
        }
        if (streq(argv[1], "-h") || streq(argv[1], "--help")) {
                help(stdout);
                return cli_finish_stdout("unitguard policy");
        }

        rc = subcommand_options(argc, argv, &first);
        if (rc >= 0)
                return rc;
        /* Skip a "--": what follows it is taken as written. */
        if (first > 2) {
                argv[first - 1] = argv[1];
                argv += first - 2;
                argc -= first - 2;
        }

        if (streq(argv[1], "list")) {
                const BuiltinPolicy *l;
                size_t n;

                if (argc != 2) {
                        help(stderr);
                        return EXIT_USAGE;
                }
                l = builtin_policies(&n);
                for (size_t i = 0; i < n; i++) {
                        Policy *q = NULL;

                        if (load(l[i].name, &q) != EXIT_CLEAN)
                                return EXIT_USAGE;
                        strbuf_printf(&b, "%-12s %s\n", l[i].name, q->description ? q->description : "");
                        policy_free(q);
                }
                return write_out(&b);
        }

        if (streq(argv[1], "show")) {
                if (argc > 3) {
                        help(stderr);
                        return EXIT_USAGE;
                }
                rc = load(argc == 3 ? argv[2] : DEFAULT_POLICY_NAME, &p);
                if (rc != EXIT_CLEAN)
                        return rc;
                policy_show(p, &b);
                policy_free(p);
                return write_out(&b);
        }

        if (streq(argv[1], "check")) {
                int worst = EXIT_CLEAN;

                if (argc < 3) {
                        help(stderr);
                        return EXIT_USAGE;
                }
                for (int i = 2; i < argc; i++) {
                        rc = load(argv[i], &p);
                        if (rc == EXIT_CLEAN) {
                                printf("%s: ok (%s, target systemd %u, %zu rewrites)\n", argv[i], p->name,
                                       p->target, p->n_rewrites);
                                policy_free(p);
                                p = NULL;
                        } else
                                worst = rc;
                }
                return worst;
        }

        fprintf(stderr, "unitguard policy: unknown command '%s'; see --help\n", argv[1]);
        return EXIT_USAGE;
}
