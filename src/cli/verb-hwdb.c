/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "basic/alloc-util.h"
#include "basic/diag.h"
#include "basic/fileio.h"
#include "basic/strbuf.h"
#include "cli-output.h"
#include "exit-codes.h"
#include "hwdb/hwdb-batch.h"
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

static int out_write_slow(Out *o, const char *p, size_t n) {
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

/* Room in the buffer (the usual case): one copy, no loop. */
static inline int out_write(Out *o, const char *p, size_t n) {
        if (o->error || n > sizeof(o->buf) - o->len)
                return out_write_slow(o, p, n);
        memcpy(o->buf + o->len, p, n);
        o->len += n;
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

static inline void print_property(Out *o, const char *key, const char *value) {
        size_t kl = strlen(key), vl = strlen(value);

        /* Room for the whole line (the usual case): one check, the two
         * separators stored directly. */
        if (!o->error && kl < sizeof(o->buf) && vl < sizeof(o->buf) && kl + vl + 2 <= sizeof(o->buf) - o->len) {
                char *p = o->buf + o->len;

                memcpy(p, key, kl);
                p[kl] = '=';
                memcpy(p + kl + 1, value, vl);
                p[kl + 1 + vl] = '\n';
                o->len += kl + vl + 2;
                return;
        }
        out_write(o, key, kl);
        out_write(o, "=", 1);
        out_write(o, value, vl);
        out_write(o, "\n", 1);
}

static int print_answer(Out *o, const HwdbLookup *l, bool block) {
        for (size_t i = 0; i < l->n_props; i++)
                print_property(o, l->props[i].key, l->props[i].value);
        if (block)
                out_write(o, "\n", 1);
        return o->error;
}

static void report_lookup_error(const char *what, const char *key, int r) {
        fprintf(stderr, "%s: error: %s (key '%.200s%s')\n", what,
                r == -ELOOP     ? "database is corrupt (cycle or runaway structure)"
                : r == -EBADMSG ? "database is corrupt (offset out of bounds)"
                : r == -ESTALE  ? "the file was truncated while in use; replace hwdb.bin by "
                                  "renaming a new file over it, never in place"
                                : strerror(-r),
                key, strlen(key) > 200 ? "..." : "");
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
                report_lookup_error(what, key, r);
        return r;
}

/* The error for a refused --stdin line (too long, or with a NUL byte,
 * which no key contains); its answer block stays empty, so answers stay in
 * step with the input lines. */
static int refuse_line(Out *o, unsigned long long line, bool too_long, size_t *n_refused) {
        (void) out_flush(o);
        if (too_long)
                fprintf(stderr, "<stdin>:%llu: error: key is longer than %u bytes; skipped\n", line,
                        HWDB_KEY_MAX);
        else
                fprintf(stderr, "<stdin>:%llu: error: key contains a NUL byte; skipped\n", line);
        (*n_refused)++;
        return out_write(o, "\n", 1);
}

/* The complete --stdin lines read since the last answers. */
typedef struct KeyLine {
        const char *key;        /* NULL: refused */
        unsigned long long line;
        bool too_long;
} KeyLine;

typedef struct Pending {
        Out *o;
        HwdbLookup *l;
        HwdbBin *db;
        const char *what;
        KeyLine *lines;
        size_t n_lines, lines_allocated;
        HwdbBatch batch;
        size_t next_answer;     /* while printing: the batch key printed next */
        size_t n_keys_seen;     /* keys answered so far */
        bool private_tried;     /* hwdb_bin_make_private() was asked */
} Pending;

static void pending_done(Pending *p) {
        free(p->lines);
        hwdb_batch_done(&p->batch);
}

static int pending_add(Pending *p, char *key, size_t len, unsigned long long line, bool too_long,
                       bool has_nul) {
        int r;

        r = GREEDY_REALLOC(p->lines, p->lines_allocated, p->n_lines + 1);
        if (r < 0)
                return r;
        if (too_long || has_nul) {
                p->lines[p->n_lines++] = (KeyLine) { NULL, line, too_long };
                return 0;
        }
        key[len] = '\0';
        r = hwdb_batch_add(&p->batch, key, len);
        if (r < 0)
                return r;
        p->lines[p->n_lines++] = (KeyLine) { key, line, false };
        return 0;
}

/* Guarded: reads the mapping. */
static int pending_lookup(void *userdata) {
        Pending *p = userdata;

        return hwdb_batch_lookup(&p->batch, p->l, p->db);
}

/* Guarded: prints the answers of lines [at, to), none of them refused. */
typedef struct PrintRun {
        Pending *p;
        volatile size_t at;     /* the line being printed, also after a SIGBUS */
        size_t to;
} PrintRun;

#define PRINT_AHEAD 4

static int pending_print_run(void *userdata) {
        PrintRun *run = userdata;
        Pending *p = run->p;

        for (; run->at < run->to; run->at++) {
                const HwdbBatchProp *props;
                size_t n;

                /* The strings lie all over the database: fetch a later
                 * answer's while this one is printed. */
                if (p->next_answer + PRINT_AHEAD < p->batch.n_keys) {
                        n = hwdb_batch_answer(&p->batch, p->next_answer + PRINT_AHEAD, &props);
                        for (size_t k = 0; k < n; k++) {
                                __builtin_prefetch(props[k].key);
                                __builtin_prefetch(props[k].value);
                        }
                }
                n = hwdb_batch_answer(&p->batch, p->next_answer, &props);

                for (size_t k = 0; k < n; k++)
                        print_property(p->o, props[k].key, props[k].value);
                out_write(p->o, "\n", 1);
                if (p->o->error)
                        return p->o->error;
                p->next_answer++;
        }
        return 0;
}

/* A private copy of hwdb.bin in huge pages (hwdb_bin_make_private())
 * costs a few milliseconds and saves about a microsecond per key at first,
 * a tenth of a lookup's time after that: it is made once this many keys
 * have come, not for a caller that asks for a few. */
#define PRIVATE_MIN_KEYS 4096u

static void maybe_make_private(Pending *p) {
        if (p->private_tried || p->n_keys_seen + p->batch.n_keys < PRIVATE_MIN_KEYS)
                return;
        p->private_tried = true;
        /* The lookup's kept path points into the old data. */
        if (hwdb_bin_make_private(p->db, true) > 0)
                hwdb_lookup_done(p->l);
}

/* Answers the pending lines in their order. The keys are looked up as one
 * batch (hwdb-batch.h: sorted, so neighbours share their trie path); if
 * that fails (a corrupt database, answers too many to keep) they are looked
 * up again one by one, so the answers before a failing key are written and
 * the error names that key, as without batching. */
static int pending_answer(Pending *p, size_t *n_refused) {
        int r = 0;

        if (p->n_lines == 0)
                return 0;

        maybe_make_private(p);
        p->n_keys_seen += p->batch.n_keys;
        if (p->batch.n_keys > 0 && hwdb_guard_run(pending_lookup, p) < 0) {
                for (size_t i = 0; i < p->n_lines && r >= 0; i++) {
                        const KeyLine *k = &p->lines[i];

                        r = k->key ? query_one(p->o, p->l, p->db, p->what, k->key, true)
                                   : refuse_line(p->o, k->line, k->too_long, n_refused);
                }
                goto finish;
        }

        p->next_answer = 0;
        for (size_t i = 0; i < p->n_lines && r >= 0;) {
                PrintRun run = { p, i, i };

                if (!p->lines[i].key) {
                        r = refuse_line(p->o, p->lines[i].line, p->lines[i].too_long, n_refused);
                        i++;
                        continue;
                }
                while (run.to < p->n_lines && p->lines[run.to].key)
                        run.to++;
                r = hwdb_guard_run(pending_print_run, &run);
                if (r < 0 && r != p->o->error)
                        report_lookup_error(p->what, p->lines[run.at].key, r);
                i = run.to;
        }
finish:
        p->n_lines = 0;
        hwdb_batch_clear(&p->batch);
        return r;
}

static int pending_add_line(Pending *p, char *key, size_t len, unsigned long long line, bool too_long,
                            bool has_nul) {
        int r = pending_add(p, key, len, line, too_long, has_nul);

        if (r < 0)
                fprintf(stderr, "unitguard hwdb: out of memory\n");
        return r;
}

/* Whether a read of fd would return at once (data or end of file). */
static bool input_ready(int fd) {
        struct pollfd pfd = { .fd = fd, .events = POLLIN };

        return poll(&pfd, 1, 0) > 0;
}

/* Reads keys line by line from fd. Every byte is looked at once: the scan
 * goes on where the last read ended, and a line longer than HWDB_KEY_MAX
 * is not kept but dropped up to its line feed, so memory stays at the
 * buffer and time linear whatever comes in.
 *
 * Complete lines are answered together (pending_answer()): as long as more
 * input is already there, and room and PENDING_MAX_LINES allow, reading
 * goes on first, since the more keys a batch has the more trie path
 * neighbours share (cachegrind, the benchmark's 50,000 keys, 512 KiB cache:
 * sorted in 64 KiB batches a key misses it 10.8 times, all in one 3.7
 * times). But a batch's arrays are fresh pages too: 256 KiB and 16,384
 * lines beat 1 MiB and 65,536 (0.92, CPU time, 11 alternating pairs) and
 * 128 KiB (noise). Before a read that may block, everything read is
 * answered and the output flushed, so a caller talking to us through pipes
 * gets each answer without waiting for the buffer to fill. */
#define KEY_BUFFER_SIZE (1u << 18)
#define KEY_READ_MIN (1u << 16)         /* less room than this: answer first */
#define PENDING_MAX_LINES 16384u

/* Where the first NUL byte in buf[from, len) is, or len. */
static size_t next_nul(const char *buf, size_t from, size_t len) {
        const char *z = memchr(buf + from, '\0', len - from);

        return z ? (size_t) (z - buf) : len;
}

static int query_stream(Out *o, HwdbLookup *l, HwdbBin *db, const char *what, int fd,
                        size_t *n_refused) {
        _cleanup_(pending_done) Pending p = { .o = o, .l = l, .db = db, .what = what };
        _cleanup_free_ char *buf = NULL;
        size_t start = 0, scan = 0, len = 0;    /* line at start, no LF in [start, scan) */
        /* The first NUL byte at or after scan, len if none: looked for once
         * per read rather than once per line (keys hold none). */
        size_t nul = 0;
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
                                else if (nul < end)
                                        has_nul = true;
                        }
                        scan = end;
                        if (nul < scan)
                                nul = next_nul(buf, scan, len);
                        if (too_long)
                                start = end;    /* nothing of it is kept */
                        if (!nl)
                                break;
                        r = pending_add_line(&p, buf + start, end - start, line, too_long, has_nul);
                        if (r >= 0 && p.n_lines >= PENDING_MAX_LINES)
                                r = pending_answer(&p, n_refused);
                        if (r < 0)
                                return r;
                        start = scan = end + 1;
                        if (nul < scan)
                                nul = next_nul(buf, scan, len);
                        line++;
                        too_long = has_nul = false;
                }
                if (eof)
                        break;
                if (p.n_lines > 0 && (KEY_BUFFER_SIZE - 1 - len < KEY_READ_MIN || !input_ready(fd))) {
                        r = pending_answer(&p, n_refused);
                        if (r < 0)
                                return r;
                }
                if (p.n_lines == 0) {
                        /* Keep the partial line, make room behind it. */
                        memmove(buf, buf + start, len - start);
                        len -= start;
                        scan -= start;
                        nul -= start;
                        start = 0;

                        r = out_flush(o);
                        if (r < 0)
                                return r;
                }
                for (;;) {
                        ssize_t n = read(fd, buf + len, KEY_BUFFER_SIZE - 1 - len);

                        if (n >= 0) {
                                size_t old = len;

                                len += (size_t) n;
                                if (nul == old)
                                        nul = next_nul(buf, old, len);
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
        if (len > start || too_long) {
                r = pending_add_line(&p, buf + start, len - start, line, too_long, has_nul);
                if (r < 0)
                        return r;
        }
        return pending_answer(&p, n_refused);
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
