/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* unitguard units: the unit set systemd would assemble from a root. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/fileio.h"
#include "basic/json-writer.h"
#include "cli-options.h"
#include "cli-output.h"
#include "exit-codes.h"
#include "lookup/lookup.h"
#include "verbs.h"

static void help(FILE *f) {
        fprintf(f,
                "Usage: unitguard units [OPTIONS...] [NAME...]\n"
                "\n"
                "List the units systemd would load from a root: each unit's file, its\n"
                "aliases and its drop-ins in the order systemd applies them, masks, and\n"
                "what in the unit directories is not a unit.\n"
                "\n"
                "Options:\n"
                "  -r --root=DIR         the root to read (default: /)\n"
                "     --user             the user manager's directories\n"
                "     --system           the system manager's directories (default)\n"
                "  -t --target-version=N systemd version whose lookup rules apply (default 252)\n"
                "  -f --format=text|json one unit per paragraph, or one JSON object per line\n"
                "  -v --verbose          also show notes (overridden files, non-units)\n"
                "     --paths            print the unit search path of the scope, highest\n"
                "                        precedence first (as systemd-analyze unit-paths,\n"
                "                        without per-user and runtime directories)\n"
                "  -h --help             show this help\n"
                "\n"
                EXIT_STATUS_HELP);
}

static int file_json(StrBuf *b, const LookupFile *f) {
        int r = strbuf_append_str(b, "{\"path\":");

        if (r >= 0)
                r = json_append_cstring(b, f->path);
        if (r >= 0)
                r = strbuf_printf(b, ",\"masked\":%s,\"error\":", !f->source && !f->error ? "true" : "false");
        if (r >= 0)
                r = f->error ? json_append_cstring(b, strerror(-f->error)) : strbuf_append_str(b, "null");
        if (r >= 0)
                r = strbuf_append_char(b, '}');
        return r;
}

static int unit_json(StrBuf *b, const LookupUnit *u) {
        int r = strbuf_append_str(b, "{\"id\":");

        if (r >= 0)
                r = json_append_cstring(b, u->id);
        if (r >= 0)
                r = strbuf_printf(b, ",\"state\":\"%s\",\"fragment\":", lookup_unit_state_to_string(u->state));
        if (r >= 0)
                r = u->fragment.path ? file_json(b, &u->fragment) : strbuf_append_str(b, "null");
        if (r >= 0)
                r = strbuf_append_str(b, ",\"masked_by\":");
        if (r >= 0)
                r = u->masked_by ? json_append_cstring(b, u->masked_by) : strbuf_append_str(b, "null");
        if (r >= 0)
                r = strbuf_append_str(b, ",\"aliases\":[");
        for (size_t i = 0; r >= 0 && i < u->n_aliases; i++) {
                if (i > 0)
                        r = strbuf_append_char(b, ',');
                if (r >= 0)
                        r = json_append_cstring(b, u->aliases[i]);
        }
        if (r >= 0)
                r = strbuf_append_str(b, "],\"dropins\":[");
        for (size_t i = 0; r >= 0 && i < u->n_dropins; i++) {
                if (i > 0)
                        r = strbuf_append_char(b, ',');
                if (r >= 0)
                        r = file_json(b, &u->dropins[i]);
        }
        if (r >= 0)
                r = strbuf_append_str(b, "]}\n");
        return r;
}

static int file_text(StrBuf *b, const char *what, const LookupFile *f) {
        if (f->error)
                return strbuf_printf(b, "  %s: %s (%s)\n", what, f->path, strerror(-f->error));
        return strbuf_printf(b, "  %s: %s%s\n", what, f->path, f->source ? "" : " (masked)");
}

static int unit_text(StrBuf *b, const LookupUnit *u) {
        int r = strbuf_printf(b, "%s: %s\n", u->id, lookup_unit_state_to_string(u->state));

        if (r >= 0 && u->masked_by)
                r = strbuf_printf(b, "  masked by: %s\n", u->masked_by);
        if (r >= 0 && u->fragment.path)
                r = file_text(b, "file", &u->fragment);
        for (size_t i = 0; r >= 0 && i < u->n_aliases; i++)
                r = strbuf_printf(b, "  alias: %s\n", u->aliases[i]);
        for (size_t i = 0; r >= 0 && i < u->n_dropins; i++)
                r = file_text(b, "drop-in", &u->dropins[i]);
        return r;
}

int verb_units(int argc, char **argv) {
        static const struct option options[] = {
                { "root", required_argument, NULL, 'r' },
                { "user", no_argument, NULL, 'U' },
                { "system", no_argument, NULL, 'S' },
                { "target-version", required_argument, NULL, 't' },
                { "format", required_argument, NULL, 'f' },
                { "verbose", no_argument, NULL, 'v' },
                { "paths", no_argument, NULL, 'P' },
                { "help", no_argument, NULL, 'h' },
                {}
        };
        _cleanup_(strbuf_done) StrBuf out = {}, err = {};
        LookupScope scope = LOOKUP_SYSTEM;
        const char *root_dir = NULL;
        unsigned version = 252;
        bool json = false, verbose = false, paths = false;
        LookupSet set = {};
        Root root = { .fd = -EBADF };
        int c, r, status = EXIT_CLEAN;

        optind = 0;
        opterr = 0;
        while ((c = getopt_long(argc, argv, "r:t:f:vh", options, NULL)) >= 0)
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
                case 't':
                        if (cli_parse_version("units", optarg, &version) < 0)
                                return EXIT_USAGE;
                        break;
                case 'f':
                        if (streq(optarg, "json"))
                                json = true;
                        else if (streq(optarg, "text"))
                                json = false;
                        else {
                                fprintf(stderr, "unitguard units: unknown format '%s' (text, json)\n", optarg);
                                return EXIT_USAGE;
                        }
                        break;
                case 'v':
                        verbose = true;
                        break;
                case 'P':
                        paths = true;
                        break;
                case 'h':
                        help(stdout);
                        return cli_finish_stdout("unitguard units");
                default:
                        return cli_bad_option("units", argc, argv, optopt);
                }

        if (paths) {
                for (const char *const *d = lookup_paths_candidates(scope); *d; d++)
                        puts(*d);
                return cli_finish_stdout("unitguard units");
        }

        r = root_open(root_dir, &root);
        if (r < 0) {
                fprintf(stderr, "%s: error: cannot open root directory: %s\n", root_dir, strerror(-r));
                return EXIT_INPUT;
        }
        r = lookup_set_build(&root, scope, version, &set);
        if (r < 0) {
                root_done(&root);
                fprintf(stderr, "unitguard units: %s\n", strerror(-r));
                return EXIT_INPUT;
        }

        for (size_t i = 0; r >= 0 && i < set.diags.n; i++) {
                if (set.diags.items[i].severity == DIAG_NOTE && !verbose)
                        continue;
                if (set.diags.items[i].severity == DIAG_ERROR)
                        status = EXIT_INPUT;
                r = diag_format_text(&set.diags.items[i], &err);
        }
        for (size_t i = 0; r >= 0 && i < set.n_units; i++) {
                const LookupUnit *u = set.units[i];
                bool wanted = optind >= argc;

                for (int k = optind; !wanted && k < argc; k++) {
                        wanted = streq(argv[k], u->id);
                        for (size_t a = 0; !wanted && a < u->n_aliases; a++)
                                wanted = streq(argv[k], u->aliases[a]);
                }
                if (wanted)
                        r = json ? unit_json(&out, u) : unit_text(&out, u);
        }
        lookup_set_done(&set);
        root_done(&root);
        if (r < 0) {
                fprintf(stderr, "unitguard units: %s\n", strerror(-r));
                return EXIT_INPUT;
        }
        if (err.len > 0)
                (void) loop_write(STDERR_FILENO, err.data, err.len);
        r = out.len > 0 ? loop_write(STDOUT_FILENO, out.data, out.len) : 0;
        if (r < 0 && r != -EPIPE) {
                fprintf(stderr, "unitguard units: cannot write output: %s\n", strerror(-r));
                return EXIT_INPUT;
        }
        return status;
}
