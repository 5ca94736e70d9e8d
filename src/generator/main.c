/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* unitguard-generator: option parsing and the summary line only; the work
 * is in generator.c. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "basic/macro.h"
#include "generator.h"

enum {
        GEN_EXIT_OK = 0,           /* whatever the verdicts */
        GEN_EXIT_OUTPUT = 1,       /* an output could not be written, or out of memory */
        GEN_EXIT_USAGE = 2,
};

static void help(FILE *f) {
        fprintf(f,
                "Usage: unitguard-generator [OPTIONS...] NORMAL-DIR [EARLY-DIR LATE-DIR]\n"
                "\n"
                "systemd generator: judge the units systemd is about to load with the site\n"
                "policy; mask rejected units and write sanitized copies of changed ones into\n"
                "EARLY-DIR (with one directory given, into it). See unitguard-generator(8).\n"
                "\n"
                "Options:\n"
                "  -r --root=DIR         judge the units below DIR instead of the host's\n"
                "  -p --policy=FILE|NAME policy (default: the site policy below the root,\n"
                "                        else the built-in 'default')\n"
                "     --log=auto|kmsg|stderr  where the log goes (default: auto)\n"
                "  -h --help             show this help\n"
                "\n"
                "Exit status: 0 done (whatever was rejected), 1 an output could not be\n"
                "written or out of memory, 2 usage error.\n");
}

static double elapsed_ms(const struct timespec *a, const struct timespec *b) {
        return (double) (b->tv_sec - a->tv_sec) * 1e3 + (double) (b->tv_nsec - a->tv_nsec) / 1e6;
}

int main(int argc, char **argv) {
        static const struct option options[] = {
                { "root", required_argument, NULL, 'r' },
                { "policy", required_argument, NULL, 'p' },
                { "log", required_argument, NULL, 'L' },
                { "help", no_argument, NULL, 'h' },
                {}
        };
        GeneratorOptions o = {};
        GenLogTarget target = GEN_LOG_AUTO;
        const char *scope = getenv("SYSTEMD_SCOPE"), *initrd = getenv("SYSTEMD_IN_INITRD");
        struct timespec t0, t1;
        GeneratorStats st;
        GenLog log;
        int c, r;

        (void) clock_gettime(CLOCK_MONOTONIC, &t0);
        opterr = 0;
        while ((c = getopt_long(argc, argv, "r:p:h", options, NULL)) >= 0)
                switch (c) {
                case 'r':
                        o.root = optarg;
                        break;
                case 'p':
                        o.policy = optarg;
                        break;
                case 'L':
                        if (streq(optarg, "auto"))
                                target = GEN_LOG_AUTO;
                        else if (streq(optarg, "kmsg"))
                                target = GEN_LOG_KMSG;
                        else if (streq(optarg, "stderr"))
                                target = GEN_LOG_STDERR;
                        else {
                                fprintf(stderr, "unitguard-generator: unknown log target '%s' (auto, kmsg, stderr)\n", optarg);
                                return GEN_EXIT_USAGE;
                        }
                        break;
                case 'h':
                        help(stdout);
                        return fflush(stdout) == 0 ? GEN_EXIT_OK : GEN_EXIT_OUTPUT;
                default:
                        if (optopt > 0 && optopt < 128)
                                fprintf(stderr, "unitguard-generator: unknown option or missing argument: '-%c' (see --help)\n",
                                        optopt);
                        else
                                fprintf(stderr, "unitguard-generator: unknown option or missing argument: '%s' (see --help)\n",
                                        argv[optind - 1]);
                        return GEN_EXIT_USAGE;
                }
        /* systemd.generator(7): three directories, or one for all three. */
        if (argc - optind != 1 && argc - optind != 3) {
                fprintf(stderr, "unitguard-generator: expected 1 or 3 output directories, got %d (see --help)\n",
                        argc - optind);
                return GEN_EXIT_USAGE;
        }
        o.early_dir = argv[argc - optind == 3 ? optind + 1 : optind];
        o.in_initrd = initrd && streq(initrd, "1");

        /* Installed for the system manager only; as a user generator it
         * leaves the user's units alone. */
        if (scope && streq(scope, "user"))
                return GEN_EXIT_OK;

        gen_log_open(&log, target, scope != NULL);
        r = generator_run(&o, &log, &st);
        (void) clock_gettime(CLOCK_MONOTONIC, &t1);
        if (r < 0)
                gen_log(&log, GEN_LOG_ERR, "stopped: %s", strerror(-r));
        else if (!st.skipped) {
                gen_log_finish(&log);
                gen_log(&log, st.masked + st.conditioned + st.sanitized + st.write_errors > 0 ? GEN_LOG_NOTICE : GEN_LOG_INFO,
                        "%u units judged: %u masked, %u condition set, %u sanitized, %u not overridable, "
                        "%u write errors, %u unreadable, %u tree errors%s; %.1f ms",
                        st.units, st.masked, st.conditioned, st.sanitized, st.not_overridable, st.write_errors,
                        st.input_errors, st.tree_errors, st.policy_fallback ? " (site policy broken: built-in default)" : "",
                        elapsed_ms(&t0, &t1));
        }
        gen_log_close(&log);
        return r < 0 || st.write_errors > 0 ? GEN_EXIT_OUTPUT : GEN_EXIT_OK;
}
