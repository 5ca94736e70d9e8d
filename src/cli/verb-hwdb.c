/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "basic/alloc-util.h"
#include "basic/diag.h"
#include "basic/fileio.h"
#include "basic/strbuf.h"
#include "cli-output.h"
#include "exit-codes.h"
#include "hwdb/hwdb-bin.h"
#include "hwdb/hwdb-db.h"
#include "hwdb/hwdb-dirs.h"
#include "hwdb/hwdb-guard.h"
#include "hwdb/hwdb-lookup.h"
#include "hwdb/hwdb-source.h"
#include "hwdb/hwdb-write.h"
#include "verbs.h"

static void help(FILE *f) {
        fprintf(f,
                "Usage: unitguard hwdb query [OPTIONS...] MODALIAS...\n"
                "       unitguard hwdb query --stdin [OPTIONS...]\n"
                "       unitguard hwdb compile [--root DIR] [--hwdb-dir DIR]... -o FILE\n"
                "       unitguard hwdb check [--root DIR] [--hwdb-dir DIR]... [--bin FILE] [FILE...]\n"
                "\n"
                "Read systemd's hardware database and answer like systemd-hwdb.\n"
                "\n"
                "Options:\n"
                "     --root=DIR       look for sources and hwdb.bin below DIR\n"
                "     --hwdb-dir=DIR   read .hwdb sources from DIR (repeatable; earlier\n"
                "                      directories override files of the same name)\n"
                "     --bin=FILE       query (or check) this compiled hwdb.bin\n"
                "     --stdin          read one key per line from standard input\n"
                "  -o --output=FILE    where compile writes hwdb.bin\n"
                "  -h --help           show this help\n"
                "\n"
                "query prints KEY=VALUE lines in systemd-hwdb's order. With --stdin or several\n"
                "keys, every answer is followed by an empty line. Without --bin or --hwdb-dir\n"
                "the first hwdb.bin of systemd's search list is used, else the sources in\n"
                "/etc/udev/hwdb.d and /lib/udev/hwdb.d.\n"
                "\n"
                "Exit status:\n"
                "  0  success (check: no problems found)\n"
                "  1  check: problems in the sources; compile: errors in the sources, nothing\n"
                "     written; query: a key line was refused (its answer is left empty)\n"
                "  2  usage error\n"
                "  3  an input could not be read or is corrupt, or the output could not be written\n");
}

typedef struct Args {
        const char *root;
        const char **dirs;      /* NULL-terminated, NULL if none given */
        size_t n_dirs;
        const char *bin;
        const char *output;
        bool use_stdin;
} Args;

static void args_done(Args *a) {
        free(a->dirs);
}

/* Buffered standard output. A reader that went away (EPIPE) ends the
 * output quietly; other write errors are reported. */
typedef struct Out {
        int fd;
        int error;
        size_t len;
        char buf[1 << 16];
} Out;

static int out_flush(Out *o) {
        int r;

        if (o->error)
                return o->error;
        r = loop_write(o->fd, o->buf, o->len);
        o->len = 0;
        if (r < 0)
                o->error = r;
        return r;
}

static int out_write(Out *o, const char *p, size_t n) {
        if (o->error)
                return o->error;
        while (n > 0) {
                size_t k;

                if (o->len == sizeof(o->buf) && out_flush(o) < 0)
                        return o->error;
                k = MIN(n, sizeof(o->buf) - o->len);
                memcpy(o->buf + o->len, p, k);
                o->len += k;
                p += k;
                n -= k;
        }
        return 0;
}

static int output_status(const Out *o) {
        if (o->error == 0 || o->error == -EPIPE)
                return EXIT_CLEAN;
        fprintf(stderr, "unitguard hwdb: cannot write output: %s\n", strerror(-o->error));
        return EXIT_INPUT;
}

/* Prints diagnostics at or above min to standard error. */
static void print_diags(const DiagList *d, DiagSeverity min) {
        _cleanup_(strbuf_done) StrBuf b = {};

        for (size_t i = 0; i < d->n; i++)
                if (d->items[i].severity >= min && diag_format_text(&d->items[i], &b) < 0)
                        break;
        if (b.len > 0)
                (void) loop_write(STDERR_FILENO, b.data, b.len);
}

static int parse_args(int argc, char **argv, const char *verb, const char *allowed, Args *a) {
        static const struct option options[] = {
                { "root", required_argument, NULL, 'r' },
                { "hwdb-dir", required_argument, NULL, 'd' },
                { "bin", required_argument, NULL, 'b' },
                { "stdin", no_argument, NULL, 's' },
                { "output", required_argument, NULL, 'o' },
                { "help", no_argument, NULL, 'h' },
                {}
        };
        int c;

        optind = 0;
        opterr = 0;
        while ((c = getopt_long(argc, argv, "o:h", options, NULL)) >= 0) {
                if (c != '?' && c != 'h' && !strchr(allowed, c)) {
                        fprintf(stderr, "unitguard hwdb %s: option '%s' does not apply here; see --help\n",
                                verb, argv[optind - 1]);
                        return -EINVAL;
                }
                switch (c) {
                case 'r':
                        a->root = optarg;
                        break;
                case 'd': {
                        const char **n = reallocarray_safe(a->dirs, a->n_dirs + 2, sizeof(char *));

                        if (!n)
                                return -ENOMEM;
                        a->dirs = n;
                        a->dirs[a->n_dirs++] = optarg;
                        a->dirs[a->n_dirs] = NULL;
                        break;
                }
                case 'b':
                        a->bin = optarg;
                        break;
                case 's':
                        a->use_stdin = true;
                        break;
                case 'o':
                        a->output = optarg;
                        break;
                case 'h':
                        help(stdout);
                        return 0;
                default:
                        if (optopt)
                                fprintf(stderr, "unitguard hwdb %s: invalid option '-%c' or missing argument; see --help\n",
                                        verb, optopt);
                        else
                                fprintf(stderr, "unitguard hwdb %s: unknown option '%s'; see --help\n",
                                        verb, argv[optind - 1]);
                        return -EINVAL;
                }
        }
        return 1;
}

static int print_answer(Out *o, const HwdbLookup *l, bool block) {
        for (size_t i = 0; i < l->n_props; i++) {
                const HwdbProperty *p = &l->props[i];

                out_write(o, p->key, strlen(p->key));
                out_write(o, "=", 1);
                out_write(o, p->value, strlen(p->value));
                out_write(o, "\n", 1);
        }
        if (block)
                out_write(o, "\n", 1);
        return o->error;
}

typedef struct Query {
        Out *o;
        HwdbLookup *l;
        const HwdbBin *db;
        const char *key;
        bool block;
} Query;

/* Runs under the SIGBUS guard: touches the mapping, holds nothing. */
static int lookup_and_print(void *userdata) {
        const Query *q = userdata;
        int r;

        r = hwdb_lookup_next(q->l, q->db, q->key);
        if (r < 0)
                return r;
        return print_answer(q->o, q->l, q->block);
}

static int query_one(Out *o, HwdbLookup *l, const HwdbBin *db, const char *what, const char *key,
                     bool block) {
        Query q = { o, l, db, key, block };
        int r;

        r = hwdb_guard_run(lookup_and_print, &q);
        if (r < 0 && r != o->error)
                fprintf(stderr, "%s: error: %s (key '%.200s%s')\n", what,
                        r == -ELOOP     ? "database is corrupt (cycle or runaway structure)"
                        : r == -EBADMSG ? "database is corrupt (offset out of bounds)"
                        : r == -ESTALE  ? "the file was truncated while in use; replace hwdb.bin by "
                                          "renaming a new file over it, never in place"
                                        : strerror(-r),
                        key, strlen(key) > 200 ? "..." : "");
        return r;
}

/* Answers one line of --stdin: a refused line (too long, or with a NUL
 * byte, which no key contains) gets an error naming it and an empty answer
 * block, so answers stay in step with the input lines. */
static int query_line(Out *o, HwdbLookup *l, const HwdbBin *db, const char *what, char *key, size_t len,
                      unsigned long long line, bool too_long, bool has_nul, size_t *n_refused) {
        if (too_long || has_nul) {
                (void) out_flush(o);
                if (too_long)
                        fprintf(stderr, "<stdin>:%llu: error: key is longer than %u bytes; skipped\n", line,
                                HWDB_KEY_MAX);
                else
                        fprintf(stderr, "<stdin>:%llu: error: key contains a NUL byte; skipped\n", line);
                (*n_refused)++;
                return out_write(o, "\n", 1);
        }
        key[len] = '\0';
        return query_one(o, l, db, what, key, true);
}

/* Reads keys line by line from fd. Every byte is looked at once: the scan
 * goes on where the last read ended, and a line longer than HWDB_KEY_MAX
 * is not kept but dropped up to its line feed, so memory stays at the
 * buffer and time linear whatever comes in. Output is flushed before every
 * read that may block, so a caller talking to us through pipes gets each
 * answer without waiting for the buffer to fill. */
#define KEY_BUFFER_SIZE (1u << 16)
static int query_stream(Out *o, HwdbLookup *l, const HwdbBin *db, const char *what, int fd,
                        size_t *n_refused) {
        _cleanup_free_ char *buf = NULL;
        size_t start = 0, scan = 0, len = 0;    /* line at start, no LF in [start, scan) */
        unsigned long long line = 1;
        bool too_long = false, has_nul = false, eof = false;
        int r;

        /* A kept partial line is at most HWDB_KEY_MAX bytes: room is left
         * for the next read and for a terminating NUL. */
        buf = malloc(KEY_BUFFER_SIZE);
        if (!buf) {
                fprintf(stderr, "unitguard hwdb: out of memory\n");
                return -ENOMEM;
        }

        for (;;) {
                while (scan < len) {
                        char *nl = memchr(buf + scan, '\n', len - scan);
                        size_t end = nl ? (size_t) (nl - buf) : len;

                        if (!too_long) {
                                if (end - start > HWDB_KEY_MAX)
                                        too_long = true;
                                else if (!has_nul && memchr(buf + scan, '\0', end - scan))
                                        has_nul = true;
                        }
                        scan = end;
                        if (too_long)
                                start = end;    /* nothing of it is kept */
                        if (!nl)
                                break;
                        r = query_line(o, l, db, what, buf + start, end - start, line, too_long, has_nul,
                                       n_refused);
                        if (r < 0)
                                return r;
                        start = scan = end + 1;
                        line++;
                        too_long = has_nul = false;
                }
                if (eof)
                        break;

                /* Keep the partial line, make room behind it. */
                memmove(buf, buf + start, len - start);
                len -= start;
                scan -= start;
                start = 0;

                r = out_flush(o);
                if (r < 0)
                        return r;
                for (;;) {
                        ssize_t n = read(fd, buf + len, KEY_BUFFER_SIZE - 1 - len);

                        if (n >= 0) {
                                len += (size_t) n;
                                eof = n == 0;
                                break;
                        }
                        if (errno != EINTR) {
                                r = -errno;
                                fprintf(stderr, "unitguard hwdb: cannot read standard input: %s\n",
                                        strerror(-r));
                                return r;
                        }
                }
        }

        /* A last line without a line feed is a key too. */
        if (len > start || too_long)
                return query_line(o, l, db, what, buf + start, len - start, line, too_long, has_nul,
                                  n_refused);
        return 0;
}

static int open_database(const Args *a, HwdbBin **ret, char **ret_what) {
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_free_ char *path = NULL;
        const char *reason = NULL;
        size_t n_files = 0, n_unreadable = 0;
        int r;

        if (a->bin) {
                r = hwdb_bin_open(a->bin, ret, &reason);
                path = strdup(a->bin);
        } else if (a->dirs)
                goto text;
        else {
                r = hwdb_open_default_bin(a->root, ret, &path, &reason);
                if (r == -ENOENT)
                        goto text;
        }
        if (r < 0) {
                fprintf(stderr, "unitguard hwdb: %s: %s\n", path ?: a->bin,
                        r == -EBADMSG && reason ? reason : strerror(-r));
                return r;
        }
        *ret_what = TAKE_PTR(path);
        return 0;

text:
        r = hwdb_open_sources(a->root, a->dirs, &diags, ret, &n_files, &n_unreadable);
        print_diags(&diags, DIAG_ERROR);
        if (r < 0) {
                fprintf(stderr, "unitguard hwdb: cannot load sources: %s\n", strerror(-r));
                return r;
        }
        if (n_unreadable > 0) {
                *ret = hwdb_bin_free(*ret);
                return -EIO;
        }
        if (n_files == 0 && !a->dirs) {
                fprintf(stderr, "unitguard hwdb: no hwdb.bin and no .hwdb sources found%s%s\n",
                        a->root ? " below " : "", a->root ?: "");
                *ret = hwdb_bin_free(*ret);
                return -ENOENT;
        }
        *ret_what = strdup("hwdb sources");
        return 0;
}

static int verb_query(int argc, char **argv) {
        _cleanup_(args_done) Args a = {};
        _cleanup_(hwdb_bin_freep) HwdbBin *db = NULL;
        _cleanup_(hwdb_lookup_done) HwdbLookup l = {};
        _cleanup_free_ char *what = NULL;
        _cleanup_free_ Out *o = NULL;
        _cleanup_(hwdb_guard_uninstall) HwdbGuard guard = {};
        size_t n_refused = 0;
        bool block;
        int r;

        r = parse_args(argc, argv, "query", "rdbs", &a);
        if (r <= 0)
                return r < 0 ? EXIT_USAGE : cli_finish_stdout("unitguard hwdb");
        if (a.bin && a.dirs) {
                fprintf(stderr, "unitguard hwdb query: --bin and --hwdb-dir exclude each other\n");
                return EXIT_USAGE;
        }
        if (optind >= argc && !a.use_stdin) {
                fprintf(stderr, "unitguard hwdb query: no MODALIAS given (or use --stdin); see --help\n");
                return EXIT_USAGE;
        }
        for (int i = optind; i < argc; i++)
                if (strlen(argv[i]) > HWDB_KEY_MAX) {
                        fprintf(stderr, "unitguard hwdb query: key %d is %zu bytes long; keys are at most %u bytes\n",
                                i - optind + 1, strlen(argv[i]), HWDB_KEY_MAX);
                        return EXIT_USAGE;
                }

        r = open_database(&a, &db, &what);
        if (r < 0)
                return EXIT_INPUT;
        /* hwdb.bin is mapped: a truncation under us is an error, not a
         * crash (hwdb-guard.h). */
        r = hwdb_guard_install(&guard);
        if (r < 0) {
                fprintf(stderr, "unitguard hwdb: cannot install a SIGBUS handler: %s\n", strerror(-r));
                return EXIT_INPUT;
        }

        /* Not zeroed: clearing the 64 KiB buffer faulted in 16 pages, a
         * tenth of what a one-key query costs beyond process start-up. */
        o = malloc(sizeof(Out));
        if (!o) {
                fprintf(stderr, "unitguard hwdb: out of memory\n");
                return EXIT_INPUT;
        }
        o->fd = STDOUT_FILENO;
        o->error = 0;
        o->len = 0;

        /* One key prints exactly what systemd-hwdb prints; more are framed. */
        block = a.use_stdin || argc - optind > 1;
        /* A failed lookup ends the run, but the answers before it are
         * written first, whether they came one by one or in a batch. */
        for (int i = optind; i < argc && !o->error; i++) {
                r = query_one(o, &l, db, what, argv[i], block);
                if (r < 0 && r != o->error) {
                        (void) out_flush(o);
                        return EXIT_INPUT;
                }
        }
        if (a.use_stdin && !o->error) {
                r = query_stream(o, &l, db, what, STDIN_FILENO, &n_refused);
                if (r < 0 && r != o->error) {
                        (void) out_flush(o);
                        return EXIT_INPUT;
                }
        }
        (void) out_flush(o);
        r = output_status(o);
        if (r == EXIT_CLEAN && n_refused > 0)
                return EXIT_REJECTED;
        return r;
}

static int verb_compile(int argc, char **argv) {
        _cleanup_(args_done) Args a = {};
        _cleanup_(diag_list_done) DiagList diags = {};
        _cleanup_(hwdb_trie_freep) HwdbTrie *t = NULL;
        size_t n_files = 0, n_unreadable = 0;
        int r;

        r = parse_args(argc, argv, "compile", "rdo", &a);
        if (r <= 0)
                return r < 0 ? EXIT_USAGE : cli_finish_stdout("unitguard hwdb");
        if (!a.output || optind < argc) {
                fprintf(stderr, "unitguard hwdb compile: %s; see --help\n",
                        a.output ? "unexpected argument" : "-o FILE is required");
                return EXIT_USAGE;
        }

        r = hwdb_load_sources(a.root, a.dirs, &diags, &t, &n_files, &n_unreadable);
        print_diags(&diags, DIAG_WARNING);
        if (r < 0) {
                fprintf(stderr, "unitguard hwdb compile: cannot load sources: %s\n", strerror(-r));
                return EXIT_INPUT;
        }
        if (n_unreadable > 0) {
                fprintf(stderr, "unitguard hwdb compile: %zu source file(s) could not be read, %s not written\n",
                        n_unreadable, a.output);
                return EXIT_INPUT;
        }
        /* An error (a line systemd-hwdb would stop reading the file at)
         * means the database would lack records the sources have: refuse,
         * as for an unreadable file. Warnings are lines systemd ignores as
         * well; the database is the same as its own. */
        if (diag_list_count(&diags, DIAG_ERROR) > 0) {
                fprintf(stderr, "unitguard hwdb compile: %zu error(s) in the sources, %s not written\n",
                        diag_list_count(&diags, DIAG_ERROR), a.output);
                return EXIT_REJECTED;
        }
        if (n_files == 0)
                fprintf(stderr, "unitguard hwdb compile: no .hwdb files found, writing an empty database\n");

        r = hwdb_trie_write_file(t, a.output);
        if (r < 0) {
                fprintf(stderr, "unitguard hwdb compile: %s: %s\n", a.output,
                        r == -ELOOP    ? "is a symbolic link; refusing to replace it (name its target)"
                        : r == -EISDIR ? "is a directory; refusing to replace it"
                        : r == -EEXIST ? "is not a regular file; refusing to replace it"
                        : r == -ESTALE ? "changed while the database was written; left as it is"
                                       : strerror(-r));
                return EXIT_INPUT;
        }
        return EXIT_CLEAN;
}

static int check_files(char **files, size_t n, DiagList *diags, size_t *n_unreadable) {
        _cleanup_(hwdb_trie_freep) HwdbTrie *t = NULL;
        int r;

        r = hwdb_trie_new(&t);
        if (r < 0)
                return r;
        for (size_t i = 0; i < n; i++) {
                _cleanup_free_ char *buf = NULL;
                size_t size;

                r = read_full_file(files[i], 256 * 1024 * 1024, &buf, &size);
                if (r < 0) {
                        if (r == -ENOMEM)
                                return r;
                        (*n_unreadable)++;
                        r = diag_add(diags, DIAG_ERROR, EFFECT_FILE_FAILED, "hwdb.unreadable", files[i], 0,
                                     NULL, NULL, "Failed to read file: %s", strerror(-r));
                        if (r < 0)
                                return r;
                        continue;
                }
                r = hwdb_source_parse(t, buf, size, files[i], (uint16_t) (i + 1), diags);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int verb_check(int argc, char **argv) {
        _cleanup_(args_done) Args a = {};
        _cleanup_(diag_list_done) DiagList diags = {};
        size_t n_unreadable = 0;
        int r, status = EXIT_CLEAN;

        r = parse_args(argc, argv, "check", "rdb", &a);
        if (r <= 0)
                return r < 0 ? EXIT_USAGE : cli_finish_stdout("unitguard hwdb");

        if (a.bin) {
                _cleanup_(hwdb_bin_freep) HwdbBin *db = NULL;
                const char *reason = NULL;

                /* Read, not mapped: verification touches every byte
                 * anyway, and a private copy cannot change under it. */
                r = hwdb_bin_read(a.bin, &db, &reason);
                if (r >= 0)
                        r = hwdb_bin_verify(db, &reason);
                if (r < 0) {
                        fprintf(stderr, "%s: error: %s\n", a.bin,
                                r == -EBADMSG && reason ? reason : strerror(-r));
                        return EXIT_INPUT;
                }
        }

        if (optind < argc)
                r = check_files(argv + optind, (size_t) (argc - optind), &diags, &n_unreadable);
        else if (!a.bin || a.dirs || a.root) {
                _cleanup_(hwdb_trie_freep) HwdbTrie *t = NULL;

                r = hwdb_load_sources(a.root, a.dirs, &diags, &t, NULL, &n_unreadable);
        }
        print_diags(&diags, DIAG_NOTE);
        if (r < 0) {
                fprintf(stderr, "unitguard hwdb check: %s\n", strerror(-r));
                return EXIT_INPUT;
        }
        if (n_unreadable > 0)
                return EXIT_INPUT;
        if (diag_list_count(&diags, DIAG_WARNING) + diag_list_count(&diags, DIAG_ERROR) > 0)
                status = EXIT_REJECTED;
        return status;
}

int verb_hwdb(int argc, char **argv) {
        if (argc < 2) {
                help(stderr);
                return EXIT_USAGE;
        }
        if (streq(argv[1], "-h") || streq(argv[1], "--help") || streq(argv[1], "help")) {
                help(stdout);
                return cli_finish_stdout("unitguard hwdb");
        }
        if (streq(argv[1], "query"))
                return verb_query(argc - 1, argv + 1);
        if (streq(argv[1], "compile"))
                return verb_compile(argc - 1, argv + 1);
        if (streq(argv[1], "check"))
                return verb_check(argc - 1, argv + 1);

        fprintf(stderr, "unitguard hwdb: unknown command '%s'; see 'unitguard hwdb --help'\n", argv[1]);
        return EXIT_USAGE;
}
