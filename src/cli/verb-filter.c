/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "basic/file-batch.h"
#include "basic/fileio.h"
#include "check-report.h"
#include "cli-options.h"
#include "cli-output.h"
#include "cli-policy.h"
#include "exit-codes.h"
#include "filter/filter-fix.h"
#include "filter/filter-predict.h"
#include "filter/filter.h"
#include "lookup/lookup.h"
#include "policy/policy-engine.h"
#include "policy/policy-hardware.h"
#include "validate/predict-cache.h"
#include "validate/predict.h"
#include "verbs.h"

static void help_check(FILE *f) {
        fprintf(f,
                "Usage: unitguard check [OPTIONS...] [FILE|DIR|-]...\n"
                "       unitguard check --root DIR [OPTIONS...]\n"
                "\n"
                "Judge unit files and report the findings; nothing is written unless --fix\n"
                "is given. With --root, the units are those systemd would load from DIR\n"
                "(search path, masks, aliases, drop-ins from every directory), each judged\n"
                "with all its files.\n"
                "\n"
                "Options:\n"
                "  -r --root=DIR         judge the unit set of DIR as systemd builds it\n"
                "     --user             the user manager's unit set (with --root)\n"
                "     --system           the system manager's unit set (default)\n"
                "  -p --policy=FILE|NAME policy (default: the site policy, see unitguard(1),\n"
                "                        else the built-in 'default')\n"
                "  -t --target-version=N predict systemd version N\n"
                "  -f --format=text|json|sarif  findings as text (default), one JSON document\n"
                "                        (see unitguard(1)) or SARIF 2.1.0\n"
                "     --fail-on=LEVEL    exit 1 on findings of LEVEL or worse: error (default),\n"
                "                        warning, note, never\n"
                "     --fix              rewrite the files of accepted units that the policy\n"
                "                        changed, in place and atomically (not standard input;\n"
                "                        files of rejected units are left alone)\n"
                "  -v --verbose          also show notes\n"
                "     --sysfs=DIR        devices from this sysfs tree (default: /sys); devices\n"
                "                        are read only for a policy with hardware conditions,\n"
                "                        or with --devices\n"
                "     --hardware=FILE    devices from a hardware profile instead (see unitguard.policy(5))\n"
                "     --hwdb-bin=FILE    hwdb properties from this hwdb.bin (default: the root's)\n"
                "     --hwdb=DIR         hwdb properties from the .hwdb sources in DIR\n"
                "     --devices          report every unit's device ties (notes; JSON: device_ties)\n"
                "  -h --help             show this help\n"
                "\n"
                "Findings go to standard output as 'PATH:LINE: severity: message', then one\n"
                "summary line.\n"
                "\n"
                EXIT_STATUS_HELP);
}

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
                "     --no-policy        no policy: change nothing, reject just what systemd\n"
                "                        cannot read; with -v or --format=json, what systemd\n"
                "                        does with each line is reported as notes\n"
                "  -v --verbose          list hidden entries; with --no-policy, systemd's view\n"
                "  -r --root=DIR         the unit set of DIR as systemd builds it, framed\n"
                "                        like 'systemctl cat' with paths inside DIR\n"
                "     --user             the user manager's unit set (with --root)\n"
                "  -n --name=NAME        name of the unit read from standard input\n"
                "  -f --format=unit|json write unit text (default) or the parsed model\n"
                "     --sysfs=DIR        devices from this sysfs tree (default: /sys); devices\n"
                "                        are read only for a policy with hardware conditions,\n"
                "                        or with --devices\n"
                "     --hardware=FILE    devices from a hardware profile instead (see unitguard.policy(5))\n"
                "     --hwdb-bin=FILE    hwdb properties from this hwdb.bin (default: the root's)\n"
                "     --hwdb=DIR         hwdb properties from the .hwdb sources in DIR\n"
                "     --devices          report every unit's device ties (notes; JSON: device_ties)\n"
                "  -h --help             show this help\n"
                "\n"
                "Diagnostics go to standard error as 'PATH:LINE: severity: message'.\n"
                "\n"
                EXIT_STATUS_HELP);
}

typedef enum FailOn {
        FAIL_ON_ERROR,
        FAIL_ON_WARNING,
        FAIL_ON_NOTE,
        FAIL_ON_NEVER,
} FailOn;

static int exit_status(const Filter *f, FailOn fail_on) {
        if (f->n_input_errors > 0 || filter_fix_n_failed(f->fix) > 0)
                return EXIT_INPUT;
        switch (fail_on) {
        case FAIL_ON_NOTE:
                if (f->n_diags[DIAG_NOTE] > 0)
                        return EXIT_REJECTED;
                _fallthrough_;
        case FAIL_ON_WARNING:
                if (f->n_diags[DIAG_WARNING] > 0)
                        return EXIT_REJECTED;
                _fallthrough_;
        case FAIL_ON_ERROR:
                if (f->n_rejected > 0 || f->n_tree_errors > 0)
                        return EXIT_REJECTED;
                _fallthrough_;
        case FAIL_ON_NEVER:
                break;
        }
        return EXIT_CLEAN;
}

static int run_root(Filter *f, const char *dir, LookupScope scope, unsigned version) {
        LookupSet set = {};
        Root root = { .fd = -EBADF };
        int r;

        r = root_open(dir, &root);
        if (r < 0) {
                f->n_input_errors++;
                /* Paths under --root are seen from inside it: the root
                 * itself is "/" (to SARIF, the ROOT base), named in the
                 * message as given. */
                return filter_report(f, DIAG_ERROR, "input.unreadable", "/", NULL,
                                     "cannot open root directory %s: %s", dir, strerror(-r));
        }
        /* Every fragment is read anyway: its emptiness (a mask) is seen then. */
        r = lookup_set_build_full(&root, scope, version, LOOKUP_LAZY_EMPTY, &set);
        if (r >= 0 && set.n_units == 0) {
                /* Nothing here for this manager: say whether the other has units. */
                LookupSet other = {};

                r = lookup_set_build(&root, scope == LOOKUP_USER ? LOOKUP_SYSTEM : LOOKUP_USER, version, &other);
                if (r >= 0)
                        f->other_scope_units = (unsigned) other.n_units;
                lookup_set_done(&other);
        }
        if (r >= 0)
                r = filter_root(f, &root, &set, dir);
        lookup_set_done(&set);
        root_done(&root);
        return r;
}

/* One line; "fixed" only with --fix. */
static int check_summary(const Filter *f, unsigned n_waived) {
        printf("unitguard: %u units, %u rejected, %u changed, ", f->n_units, f->n_rejected, f->n_changed);
        if (f->fix)
                printf("%u fixed, ", filter_fix_n_fixed(f->fix));
        printf("%u masked, %u errors, %u warnings, %u notes, %u waived\n", f->n_masked,
               f->n_diags[DIAG_ERROR], f->n_diags[DIAG_WARNING], f->n_diags[DIAG_NOTE], n_waived);
        return fflush(stdout) == 0 ? 0 : -errno;
}

static char *with_trailing_slash(const char *dir) {
        size_t n = strlen(dir);
        char *s = malloc(n + 2);

        if (!s)
                return NULL;
        memcpy(s, dir, n + 1);
        if (n == 0 || s[n - 1] != '/')
                memcpy(s + n, "/", 2);
        return s;
}

/* check --format json|sarif: one document on stdout. */
static int check_write_report(const Filter *f, CheckContext *ctx, bool sarif) {
        _cleanup_(strbuf_done) StrBuf doc = {};
        _cleanup_free_ char *base = NULL, *dir = NULL, *cwd = NULL, *work = NULL;
        int r;

        /* A root that cannot be resolved (the report's one finding says
         * why) is named as given. */
        dir = ctx->root ? realpath(ctx->root, NULL) : getcwd(NULL, 0);
        cwd = getcwd(NULL, 0);
        if (!dir && ctx->root && cwd && errno != ENOMEM)
                dir = ctx->root[0] == '/' ? strdup(ctx->root) : root_path_join(cwd, ctx->root);
        base = dir ? with_trailing_slash(dir) : NULL;
        work = cwd ? with_trailing_slash(cwd) : NULL;
        if (!base || !work) {
                fprintf(stderr, "unitguard check: %s\n", strerror(errno ? errno : ENOMEM));
                return -ENOMEM;
        }
        ctx->base_dir = base;
        ctx->work_dir = work;
        r = sarif ? check_report_sarif(f, ctx, &doc) : check_report_json(f, ctx, &doc);
        if (r >= 0)
                r = loop_write(STDOUT_FILENO, doc.data, doc.len);
        if (r < 0 && r != -EPIPE) {
                fprintf(stderr, "unitguard check: cannot write output: %s\n", strerror(-r));
                return r;
        }
        return 0;
}

/* Reads what the policy's hardware conditions need (and, with --devices,
 * the devices and udev rules for the report); reports what went wrong.
 * Returns 1 when hardware is on, 0 when nothing was needed, -EIO when a
 * source could not be read (an input error), or -ENOMEM. */
static int setup_hardware(Filter *f, const Policy *policy, const HwOptions *o, const char *root_dir,
                          bool devices_report, HwContext *ctx) {
        _cleanup_(diag_list_done) DiagList errors = {};
        Root root = { .fd = -EBADF };
        int r = 0;

        if (root_dir) {
                r = root_open(root_dir, &root);
                if (r < 0)
                        return 0;      /* run_root() reports it */
        }
        r = policy_hardware_load(policy, o, root_dir ? &root : NULL, devices_report, ctx, &errors);
        root_done(&root);
        if (r == -ENOMEM)
                return r;
        /* Warnings while reading (unreadable sysfs files, rules files),
         * then the error that stops the run. */
        for (size_t i = 0; i < ctx->diags.n; i++) {
                int q = filter_emit(f, &ctx->diags.items[i], NULL);

                if (q < 0)
                        return q;
        }
        if (r == -EIO)
                f->n_input_errors++;
        for (size_t i = 0; i < errors.n; i++) {
                int q = filter_emit(f, &errors.items[i], NULL);

                if (q < 0)
                        return q;
        }
        return r;
}

static int pipeline(int argc, char **argv, bool check) {
        static const struct option options[] = {
                { "root", required_argument, NULL, 'r' },
                { "user", no_argument, NULL, 'U' },
                { "system", no_argument, NULL, 'S' },
                { "fail-on", required_argument, NULL, 'F' },
                { "fix", no_argument, NULL, 'X' },
                { "verbose", no_argument, NULL, 'v' },
                { "name", required_argument, NULL, 'n' },
                { "policy", required_argument, NULL, 'p' },
                { "target-version", required_argument, NULL, 't' },
                { "no-policy", no_argument, NULL, 'P' },
                { "format", required_argument, NULL, 'f' },
                { "sysfs", required_argument, NULL, 1001 },
                { "hardware", required_argument, NULL, 1002 },
                { "hwdb-bin", required_argument, NULL, 1003 },
                { "hwdb", required_argument, NULL, 1004 },
                { "devices", no_argument, NULL, 1005 },
                { "help", no_argument, NULL, 'h' },
                {}
        };
        _cleanup_(hw_context_done) HwContext hwctx = {};
        _cleanup_(policy_hardware_done) PolicyHardware hardware = {};
        _cleanup_(strbuf_done) StrBuf hardware_json = {};
        HwOptions hwopts = {};
        bool devices_report = false, hw_active = false, hw_failed = false;
        _cleanup_(filter_done) Filter f;
        _cleanup_(policy_freep) Policy *policy = NULL;
        FilterPredictor predictor = {};
        const char *verb = check ? "check" : "filter";
        const char *policy_name = NULL, *root_dir = NULL;
        _cleanup_free_ char *site_policy = NULL;
        LookupScope scope = LOOKUP_SYSTEM;
        FailOn fail_on = FAIL_ON_ERROR;
        bool use_policy = true, verbose = false, fix = false;
        const char *check_format = "text";
        PolicyEngine engine = {};
        /* One memo of systemd's answers for the whole run. */
        _cleanup_(predict_cache_freep) PredictCache *cache = NULL;
        unsigned target = 0;
        bool framed;
        int c, r = 0;

        /* check reports its findings on stdout and writes no units. */
        filter_init(&f, STDOUT_FILENO, check ? STDOUT_FILENO : STDERR_FILENO);
        f.plain_reads = file_batch_plain_from_env();
        optind = 0;
        opterr = 0;
        while ((c = getopt_long(argc, argv, check ? "r:f:p:t:vh" : "r:n:f:p:t:vh", options, NULL)) >= 0)
                switch (c) {
                case 'r':
                        root_dir = optarg;
                        break;
                case 'U':
                        scope = LOOKUP_USER;
                        break;
                case 'S':
                        scope = LOOKUP_SYSTEM;
                        break;
                case 'v':
                        verbose = true;
                        break;
                case 'X':
                        if (!check)
                                return cli_bad_option(verb, argc, argv, 0);
                        fix = true;
                        break;
                case 'F':
                        if (!check)
                                return cli_bad_option(verb, argc, argv, 0);
                        if (streq(optarg, "error"))
                                fail_on = FAIL_ON_ERROR;
                        else if (streq(optarg, "warning"))
                                fail_on = FAIL_ON_WARNING;
                        else if (streq(optarg, "note"))
                                fail_on = FAIL_ON_NOTE;
                        else if (streq(optarg, "never"))
                                fail_on = FAIL_ON_NEVER;
                        else {
                                fprintf(stderr, "unitguard check: unknown level '%s' for --fail-on (error, warning, note, never)\n", optarg);
                                return EXIT_USAGE;
                        }
                        break;
                case 'n':
                        f.stdin_name = optarg;
                        break;
                case 'p':
                        policy_name = optarg;
                        break;
                case 'P':
                        use_policy = false;
                        break;
                case 't':
                        if (cli_parse_version(verb, optarg, &target) < 0)
                                return EXIT_USAGE;
                        break;
                case 'f':
                        if (check) {
                                if (streq(optarg, "text") || streq(optarg, "json") || streq(optarg, "sarif"))
                                        check_format = optarg;
                                else {
                                        fprintf(stderr, "unitguard check: unknown format '%s' (text, json, sarif)\n", optarg);
                                        return EXIT_USAGE;
                                }
                        } else if (streq(optarg, "unit"))
                                f.format = OUTPUT_UNIT;
                        else if (streq(optarg, "json"))
                                f.format = OUTPUT_JSON;
                        else {
                                fprintf(stderr, "unitguard filter: unknown format '%s' (unit, json)\n", optarg);
                                return EXIT_USAGE;
                        }
                        break;
                case 1001:
                        hwopts.sysfs_dir = optarg;
                        break;
                case 1002:
                        hwopts.profile = optarg;
                        break;
                case 1003:
                        hwopts.hwdb_bin = optarg;
                        break;
                case 1004:
                        hwopts.hwdb_dir = optarg;
                        break;
                case 1005:
                        devices_report = true;
                        break;
                case 'h':
                        if (check)
                                help_check(stdout);
                        else
                                help(stdout);
                        return cli_finish_stdout(check ? "unitguard check" : "unitguard filter");
                default:
                        return cli_bad_option(verb, argc, argv, optopt);
                }

        if (root_dir && optind < argc) {
                fprintf(stderr, "unitguard %s: --root takes no FILE arguments\n", verb);
                return EXIT_USAGE;
        }
        if (hwopts.sysfs_dir && hwopts.profile) {
                fprintf(stderr, "unitguard %s: --sysfs and --hardware exclude each other\n", verb);
                return EXIT_USAGE;
        }
        if (hwopts.hwdb_bin && hwopts.hwdb_dir) {
                fprintf(stderr, "unitguard %s: --hwdb-bin and --hwdb exclude each other\n", verb);
                return EXIT_USAGE;
        }
        if (scope == LOOKUP_USER && !root_dir) {
                fprintf(stderr, "unitguard %s: --user needs --root\n", verb);
                return EXIT_USAGE;
        }
        if (fix) {
                bool from_stdin = !root_dir && optind >= argc;

                for (int i = optind; i < argc; i++)
                        from_stdin = from_stdin || streq(argv[i], "-");
                if (from_stdin) {
                        fprintf(stderr, "unitguard check: --fix rewrites files; it cannot fix standard input\n");
                        return EXIT_USAGE;
                }
                r = filter_fix_new(root_dir, &f.fix);
                if (r < 0) {
                        fprintf(stderr, "unitguard check: %s\n", strerror(-r));
                        return EXIT_INPUT;
                }
        }
        f.verbose = verbose;
        if (check) {
                f.format = OUTPUT_NONE;
                f.show_notes = verbose || fail_on == FAIL_ON_NOTE;
                /* Machine formats carry every finding, notes included, the
                 * same ones as text with -v. */
                if (!streq(check_format, "text"))
                        f.collect = f.show_notes = f.verbose = true;
                if (!policy_name && use_policy) {
                        r = cli_site_policy(root_dir, &site_policy);
                        if (r < 0) {
                                fprintf(stderr, "unitguard %s: cannot look for the site policy: %s\n", verb,
                                        strerror(-r));
                                return EXIT_INPUT;
                        }
                        policy_name = site_policy;
                }
        }
        if (!policy_name)
                policy_name = DEFAULT_POLICY_NAME;

        if (use_policy) {
                r = cli_load_policy(policy_name, &policy);
                if (r < 0)
                        return r == -ENOMEM ? EXIT_INPUT : EXIT_USAGE;
        }
        if (policy && !target && cli_check_version(verb, policy->target, "the policy's target") < 0)
                return EXIT_USAGE;
        cache = predict_cache_new();
        if (!cache) {
                fprintf(stderr, "unitguard %s: %s\n", verb, strerror(ENOMEM));
                return EXIT_INPUT;
        }
        if (policy) {
                engine.cache = cache;
                engine.policy = policy;
                engine.version = target ? target : policy->target;
                engine.user_scope = scope == LOOKUP_USER;
                /* Notes not shown are not made: set after show_notes is final. */
                engine.skip_notes = !f.show_notes;
                f.judge = policy_engine_judge;
                f.judge_userdata = &engine;
                hwopts.root = root_dir;
                r = setup_hardware(&f, policy, &hwopts, root_dir, devices_report, &hwctx);
                if (r == -EIO)
                        hw_failed = true;
                else if (r < 0) {
                        fprintf(stderr, "unitguard %s: %s\n", verb, strerror(-r));
                        return EXIT_INPUT;
                } else if (r > 0) {
                        hw_active = true;
                        hardware.ctx = &hwctx;
                        hardware.report = devices_report || check;
                        hardware.version = engine.version;
                        hardware.user_scope = engine.user_scope;
                        engine.hw = &hardware;
                }
                r = 0;
        } else {
                /* No policy decides; systemd's view is still reported where
                 * it is asked for (-v, JSON, check). A plain pipe only
                 * parses and writes. */
                predictor = (FilterPredictor) {
                        .cache = cache,
                        .version = target ? target : SYSTEMD_VERSION_DEFAULT_TARGET,
                        .user_scope = scope == LOOKUP_USER,
                };
                if (verbose || check || f.format == OUTPUT_JSON) {
                        f.judge = filter_predict_judge;
                        f.judge_userdata = &predictor;
                }
        }

        /* One plain file comes out as it went in; several inputs are framed
         * like 'systemctl cat' so they can be told apart. */
        framed = argc - optind > 1;
        if (hw_failed)
                ;      /* the devices could not be read: no unit is judged */
        else if (root_dir)
                r = run_root(&f, root_dir, scope, engine.version ? engine.version : predictor.version);
        else if (optind >= argc)
                r = filter_stream(&f, STDIN_FILENO, "<stdin>");
        else
                r = filter_paths(&f, argv + optind, (size_t) (argc - optind), framed);
        /* check --fix: every unit is judged; now the changed files of the
         * accepted ones are rewritten. */
        if (r >= 0 && !hw_failed)
                r = filter_fix_apply(&f);
        /* What the hardware conditions decided, and the devices read. */
        if (r >= 0 && hw_active && (check || devices_report)) {
                _cleanup_(diag_list_done) DiagList notes = {};

                r = policy_hardware_report(&hardware, policy, &notes);
                for (size_t i = 0; r >= 0 && i < notes.n; i++)
                        r = filter_emit(&f, &notes.items[i], NULL);
                if (r >= 0 && check && f.collect)
                        r = policy_hardware_json(&hardware, policy, &hardware_json);
        }
        /* check: waivers of the policy that no finding used are warnings. */
        if (r >= 0 && check && policy) {
                _cleanup_(diag_list_done) DiagList unused = {};

                r = policy_engine_unused_waivers(&engine, &unused);
                for (size_t i = 0; r >= 0 && i < unused.n; i++)
                        r = filter_emit(&f, &unused.items[i], NULL);
        }
        /* check: an input that holds no unit at all is an error, not a pass. */
        if (r >= 0 && check && !root_dir && f.n_units == 0 && f.n_input_errors == 0) {
                f.n_input_errors++;
                r = filter_report(&f, DIAG_ERROR, "input.no-units", optind < argc && !streq(argv[optind], "-") ? argv[optind] : "<stdin>", NULL,
                                  "no unit files found in the input");
        }
        if (r >= 0)
                r = filter_flush(&f);
        if (r < 0) {
                filter_abort(&f);
                fprintf(stderr, "unitguard %s: %s: %s\n", verb,
                        f.write_failed ? "cannot write output" : "internal error", strerror(-r));
                return EXIT_INPUT;
        }
        if (check && f.collect) {
                CheckContext ctx = {
                        .policy_name = policy ? policy->name : NULL,
                        .policy_source = policy ? policy->source : NULL,
                        .target_version = engine.version,
                        .root = root_dir,
                        .scope = lookup_scope_to_string(scope),
                        .hardware_json = hardware_json.data,
                        .n_waived = engine.n_waived,
                };

                r = check_write_report(&f, &ctx, streq(check_format, "sarif"));
                if (r < 0)
                        return EXIT_INPUT;
        } else if (check && check_summary(&f, engine.n_waived) < 0) {
                fprintf(stderr, "unitguard check: cannot write output: %s\n", strerror(errno));
                return EXIT_INPUT;
        }
        return exit_status(&f, check ? fail_on : FAIL_ON_ERROR);
}

int verb_filter(int argc, char **argv) {
        return pipeline(argc, argv, false);
}

int verb_unit_check(int argc, char **argv) {
        return pipeline(argc, argv, true);
}
