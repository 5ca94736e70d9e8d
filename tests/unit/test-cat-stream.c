/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The `systemctl cat` reader: the file size cap at its exact boundary, the
 * same whatever the descriptor delivers per read() (a memfd gives all at
 * once, a pipe fed by another process in small pieces gives little at a
 * time); which file a failure is about; header-like lines without the
 * blank line before them (cat.merged-header). */
#include <errno.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tests.h"
#include "unit/cat-stream.h"

#define CAP 64
/* 64 bytes of content: eight lines of eight bytes. */
#define C64 "#234567\n#234567\n#234567\n#234567\n#234567\n#234567\n#234567\n#234567\n"

typedef struct Split {
        char *shape;           /* "PATH:SIZE;" per file */
        char *diags;           /* "RULE@LINE;" per framing diagnostic */
        char *lines;           /* "LINE;" per file: where its header is */
        int result;            /* what the reader ended with */
        char *failed_path;
} Split;

static void split_done(Split *s) {
        free(s->shape);
        free(s->diags);
        free(s->lines);
        free(s->failed_path);
}

static void split_with(int fd, size_t cap, bool sse2_only, Split *ret) {
        StrBuf shape = {}, diags = {}, lines = {};
        CatReader r;
        CatFile f;
        int k;

        cat_reader_init(&r, fd, "<test>", cap);
        if (sse2_only)
                r.avx2 = false;
        while ((k = cat_reader_next(&r, &f)) > 0) {
                CHECK(strbuf_printf(&shape, "%s:%zu;", f.path ? f.path : "-", f.size) >= 0);
                CHECK(strbuf_printf(&lines, "%u;", f.header_line) >= 0);
                if (f.path) {
                        /* What the reader found out about the path. */
                        CHECK_INT_EQ(f.path_len, strlen(f.path));
                        CHECK(f.name == strrchr(f.path, '/') + 1);
                        CHECK_INT_EQ(f.conf, endswith(f.path, ".conf"));
                        CHECK_INT_EQ(f.type, unit_type_from_name(f.name));
                }
                for (size_t i = 0; i < f.diags.n; i++)
                        CHECK(strbuf_printf(&diags, "%s@%u;", f.diags.items[i].rule, f.diags.items[i].line) >= 0);
                /* The path lives in the framing's allocation, after it;
                 * every other framing goes back to the reader, which
                 * writes a later header into it. */
                CHECK(f.framing);
                CHECK(!f.path || f.path == f.framing + strlen(f.framing) + 1);
                if (f.header_line % 2 == 0)
                        cat_reader_recycle_framing(&r, TAKE_PTR(f.framing));
                cat_file_done(&f);
        }
        *ret = (Split) {
                .shape = strbuf_steal(&shape),
                .diags = strbuf_steal(&diags),
                .lines = strbuf_steal(&lines),
                .result = k,
                .failed_path = r.failed_path ? strdup(r.failed_path) : NULL,
        };
        cat_reader_done(&r);
}

static void split(int fd, size_t cap, Split *ret) {
        split_with(fd, cap, false, ret);
}

static int memfd_with(const char *data, size_t size) {
        int fd = memfd_create("test-cat-stream", MFD_CLOEXEC);

        CHECK(fd >= 0);
        CHECK(write(fd, data, size) == (ssize_t) size);
        CHECK(lseek(fd, 0, SEEK_SET) == 0);
        return fd;
}

/* A pipe fed by a child process in pieces of step bytes. */
static int pipe_with(const char *data, size_t size, size_t step, pid_t *ret_pid) {
        int p[2];
        pid_t pid;

        CHECK(pipe(p) == 0);
        pid = fork();
        CHECK(pid >= 0);
        if (pid == 0) {
                close(p[0]);
                for (size_t i = 0; i < size; i += step) {
                        size_t n = size - i < step ? size - i : step;

                        if (write(p[1], data + i, n) != (ssize_t) n)
                                _exit(1);
                }
                _exit(0);
        }
        close(p[1]);
        *ret_pid = pid;
        return p[0];
}

/* Splits data from a memfd (with the CPU's best LF search, and with SSE2
 * or the portable one only) and, if with_pipes, from pipes fed in pieces of
 * 1, 7 and 4096 bytes, checks they all agree, and returns the memfd's
 * result. */
static void split_ways(const char *data, size_t size, size_t cap, bool with_pipes, Split *ret) {
        static const size_t steps[] = { 1, 7, 4096 };
        int fd = memfd_with(data, size);
        Split narrow;

        split(fd, cap, ret);
        close(fd);
        fd = memfd_with(data, size);
        split_with(fd, cap, true, &narrow);
        close(fd);
        CHECK_STR_EQ(narrow.shape, ret->shape);
        CHECK_STR_EQ(narrow.diags, ret->diags);
        CHECK_STR_EQ(narrow.lines, ret->lines);
        CHECK_INT_EQ(narrow.result, ret->result);
        CHECK(streq_ptr(narrow.failed_path, ret->failed_path));
        split_done(&narrow);
        for (size_t i = 0; with_pipes && i < sizeof(steps) / sizeof(steps[0]); i++) {
                Split s;
                pid_t pid;
                int status;

                fd = pipe_with(data, size, steps[i], &pid);
                split(fd, cap, &s);
                close(fd);
                CHECK(waitpid(pid, &status, 0) == pid);
                CHECK_STR_EQ(s.shape, ret->shape);
                CHECK_STR_EQ(s.diags, ret->diags);
                CHECK_STR_EQ(s.lines, ret->lines);
                CHECK_INT_EQ(s.result, ret->result);
                CHECK(streq_ptr(s.failed_path, ret->failed_path));
                split_done(&s);
        }
}

static void split_all_ways(const char *data, size_t size, size_t cap, Split *ret) {
        split_ways(data, size, cap, true, ret);
}

static void check_split(const char *data, size_t cap, const char *shape, int result, const char *failed_path) {
        Split s;

        split_all_ways(data, strlen(data), cap, &s);
        CHECK_STR_EQ(s.shape, shape);
        CHECK_INT_EQ(s.result, result);
        CHECK(streq_ptr(s.failed_path, failed_path));
        split_done(&s);
}

TEST(cap_last_file) {
        /* The last file: its content, trailing blank lines included. */
        check_split("# /x/a.service\n" C64, CAP, "/x/a.service:64;", 0, NULL);
        check_split("# /x/a.service\n" C64 "#", CAP, "", -EFBIG, "/x/a.service");
        check_split("# /x/a.service\n" C64 "\n", CAP, "", -EFBIG, "/x/a.service");
        check_split("# /x/a.service\n" "#234567\n#234567\n#234567\n#234567\n#234567\n#234567\n#234567\n#234567",
                    CAP, "/x/a.service:63;", 0, NULL);
}

TEST(cap_before_header) {
        /* The blank line before a header is framing, not content. */
        check_split("# /x/a.service\n" C64 "\n# /x/b.service\nX\n", CAP, "/x/a.service:64;/x/b.service:2;", 0,
                    NULL);
        /* One more blank line is content, one byte over. */
        check_split("# /x/a.service\n" C64 "\n\n# /x/b.service\nX\n", CAP, "", -EFBIG, "/x/a.service");
        /* 63 bytes and a blank line of content. */
        check_split("# /x/a.service\n" "#234567\n#234567\n#234567\n#234567\n#234567\n#234567\n#234567\n#23456\n"
                    "\n\n# /x/b.service\n",
                    CAP, "/x/a.service:64;/x/b.service:0;", 0, NULL);
        /* The first file is fine, its drop-in is not: the failure names the drop-in. */
        check_split("# /x/a.service\nX\n\n# /x/a.service.d/b.conf\n" C64 "#\n", CAP, "/x/a.service:2;", -EFBIG,
                    "/x/a.service.d/b.conf");
}

/* "# /x/hhh...h.service", n bytes long (n > 13). */
static char *header_of_length(size_t n) {
        char *h = malloc(n + 1);

        CHECK(h);
        memcpy(h, "# /x/", 5);
        memset(h + 5, 'h', n - 13);
        memcpy(h + n - 8, ".service", 9);
        return h;
}

/* Like check_split(), for long results: says only whether they match. */
static void check_split_quiet(const char *data, size_t cap, const char *shape, int result) {
        Split s;

        split_all_ways(data, strlen(data), cap, &s);
        CHECK(streq(s.shape, shape));
        CHECK_INT_EQ(s.result, result);
        split_done(&s);
}

TEST(cap_long_lines) {
        _cleanup_free_ char *h = NULL, *text = NULL, *want = NULL;
        StrBuf b = {};

        /* A header of CAT_HEADER_MAX bytes, right at the cap. */
        h = header_of_length(CAT_HEADER_MAX);
        CHECK(strbuf_printf(&b, "# /x/a.service\n" C64 "\n%s\nX\n", h) >= 0);
        text = strbuf_steal(&b);
        CHECK(asprintf(&want, "/x/a.service:64;%s:2;", h + 2) > 0);
        check_split_quiet(text, CAP, want, 0);

        /* One byte longer, it is content even where it looks like a header. */
        free(h);
        free(text);
        free(want);
        h = header_of_length(CAT_HEADER_MAX + 1);
        CHECK(strbuf_printf(&b, "# /x/a.service\n\n%s\n", h) >= 0);
        text = strbuf_steal(&b);
        check_split(text, CAP, "", -EFBIG, "/x/a.service");
        CHECK(asprintf(&want, "/x/a.service:%zu;", CAT_HEADER_MAX + 2 + 1) > 0);
        check_split_quiet(text, 1024 * 1024, want, 0);

        /* A line far longer than the cap fails without being read whole. */
        free(text);
        text = malloc(100000);
        CHECK(text);
        memcpy(text, "# /x/a.service\n", 15);
        memset(text + 15, 'x', 100000 - 16);
        text[100000 - 1] = '\0';
        check_split(text, CAP, "", -EFBIG, "/x/a.service");
}

TEST(cap_bare) {
        check_split(C64, CAP, "-:64;", 0, NULL);
        check_split(C64 "x", CAP, "", -EFBIG, NULL);
        check_split("#234567#234567#234567#234567#234567#234567#234567#234567#234567#23\n", CAP, "", -EFBIG, NULL);
}

static void check_diags(const char *data, const char *diags) {
        Split s;

        split_all_ways(data, strlen(data), 1024, &s);
        CHECK_INT_EQ(s.result, 0);
        CHECK_STR_EQ(s.diags, diags);
        split_done(&s);
}

TEST(merged_header) {
        /* A file without its final newline, then the next header. */
        check_diags("# /x/a.service\n[Service]\nUser=app\n# /x/a.service.d/root.conf\nUser=root\n",
                    "cat.merged-header@4;");
        check_diags("# /x/a.service\n[Service]\rUser=app\r\n# /x/b.service\n", "cat.merged-header@3;");
        check_diags("# /x/a.service\nX=1\n# Unit b.service is masked.\n", "cat.merged-header@3;");
        /* With the blank line, it is a header. */
        check_diags("# /x/a.service\nX=1\n\n# /x/b.service\n", "");
        /* A unit naming itself in a comment; the first line after a header
         * (a file cannot have merged into an empty one: systemctl puts a
         * blank line there). */
        check_diags("# /x/a.service\n# /x/a.service\n# about it\n# /x/a.service\nX=1\n", "");
        check_diags("# /x/a.service\n# /x/b.service\nX=1\n", "");
        /* A comment with a path and more (systemd's syslog.socket has one). */
        check_diags("# /x/a.socket\n# Examples:\n# /x/syslog.service -> /lib/rsyslog.service\n", "");
        /* Bare input has no headers at all. */
        check_diags("X=1\n# /x/b.service\n", "");
        /* Line numbers count the content lines passed over in bulk (any
         * line not starting with LF, '#' or ESC), read in any pieces. */
        check_diags("# /x/a.service\n[Service]\nA=1\n B=2\n\tC=3\r\nD=4\n# /x/b.service\nE=5\nF=6\n# /x/c.service\n",
                    "cat.merged-header@7;cat.merged-header@10;");
        check_diags("# /x/a.service\nA=1\n\nB=2\nC=3\n\n\nD=4\n# /x/b.service\n\n# /x/c.service\nX=1\n# /x/d.service\n",
                    "cat.merged-header@9;cat.merged-header@13;");
}

/* Content lines passed over in bulk stop at the size cap exactly: the
 * file of cap bytes is read, one byte more fails, whatever the pieces. */
TEST(cap_plain_lines) {
        /* 64 bytes: eight plain lines of eight bytes. */
        static const char p64[] = "A=34567\nB=34567\nC=34567\nD=34567\nE=34567\nF=34567\nG=34567\nH=34567\n";

        check_split("# /x/a.service\n" "A=34567\nB=34567\nC=34567\nD=34567\nE=34567\nF=34567\nG=34567\nH=34567\n"
                    "\n# /x/b.service\nX=1\n",
                    CAP, "/x/a.service:64;/x/b.service:4;", 0, NULL);
        check_split("# /x/a.service\n" "A=34567\nB=34567\nC=34567\nD=34567\nE=34567\nF=34567\nG=34567\nH=34567\nI\n"
                    "\n# /x/b.service\nX=1\n",
                    CAP, "", -EFBIG, "/x/a.service");
        check_split("# /x/a.service\nA=345678\nB=34567\nC=34567\nD=34567\nE=34567\nF=34567\nG=34567\nH=34567\n",
                    CAP, "", -EFBIG, "/x/a.service");
        CHECK_INT_EQ(sizeof(p64) - 1, CAP);
}

/* Lines that need a look (a header after a blank line, a note, a second
 * blank line, a header-like comment without one) at every offset in the
 * 64-byte blocks in which plain lines are passed over: after content of
 * every length from 2 to 161 bytes (to 65 in light runs), found where they are, counted on the
 * right line, by the AVX2, SSE2 and portable searches alike. */
TEST(looks_at_block_edges) {
        static const struct {
                const char *tail, *shape, *diags;
        } cases[] = {
                { "\n# /x/b.service\nB=1\n", "/x/b.service:4;", "" },
                { "\n\n# /x/b.service\nB=1\n", "/x/b.service:4;", "" },
                { "\n# Unit b.service is masked.\n", "-:0;", "" },
                { "\n\x1b[1m# /x/b.service\x1b[0m\nB=1\n", "/x/b.service:4;", "" },
                { "# /x/b.service\nB=1\n", "", "cat.merged-header@4;" },
                { "\n# /x\n# /x/b.service\nB=1\n", "", "cat.merged-header@6;" },
        };
        /* Light runs (valgrind) go through each offset in a block once. */
        size_t k_max = (size_t) test_rounds(161, 65);
        StrBuf data = {};

        for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++)
                for (size_t k = 2; k <= k_max && !tests_failed; k++) {
                        _cleanup_free_ char *shape = NULL;
                        size_t size;
                        Split s;

                        strbuf_reset(&data);
                        /* A comment line, then one line of k bytes. */
                        CHECK(strbuf_append_str(&data, "# /x/a.service\n#\n") >= 0);
                        for (size_t i = 0; i + 1 < k; i++)
                                CHECK(strbuf_append_char(&data, i == 0 ? 'A' : i == 1 ? '=' : 'x') >= 0);
                        CHECK(strbuf_append_str(&data, "\n") >= 0);
                        size = data.len;
                        CHECK(strbuf_append_str(&data, cases[c].tail) >= 0);
                        split_ways(data.data, data.len, 1 << 20, false, &s);
                        /* A second blank line is content; the one before
                         * the header is framing. */
                        size += strspn(cases[c].tail, "\n") - 1;
                        if (cases[c].shape[0] != '\0')
                                CHECK(asprintf(&shape, "/x/a.service:%zu;%s", size - 15, cases[c].shape) >= 0);
                        else
                                CHECK(asprintf(&shape, "/x/a.service:%zu;", data.len - 15) >= 0);
                        CHECK_STR_EQ(s.shape, shape);
                        CHECK_STR_EQ(s.diags, cases[c].diags);
                        split_done(&s);
                }
        strbuf_done(&data);
}

/* A header's path: no control character anywhere (the check reads sixteen
 * bytes at a time, the last block overlapping the one before), a unit or
 * drop-in name at the end. */
TEST(header_path_controls) {
        char path[64];

        CHECK(cat_header_path_is_plausible("/etc/systemd/system/a.service", 29));
        CHECK(cat_header_path_is_plausible("/etc/systemd/system/a.service.d/x.conf", 38));
        CHECK(!cat_header_path_is_plausible("/etc/systemd/system/a.servic", 28));
        /* The type after the last dot is read by length, not up to a NUL:
         * every type, and what is one byte short or long of one. */
        CHECK(cat_header_path_is_plausible("/x/a.automount", 14));
        CHECK(cat_header_path_is_plausible("/x/a.swap", 9));
        CHECK(!cat_header_path_is_plausible("/x/a.swapx", 10));
        CHECK(!cat_header_path_is_plausible("/x/a.swa", 8));
        CHECK(!cat_header_path_is_plausible("/x/a.s", 6));
        CHECK(!cat_header_path_is_plausible("/x/a.", 5));
        CHECK(!cat_header_path_is_plausible("/x/a.service", 11));
        CHECK(!cat_header_path_is_plausible("/x/a.servicexxxxxxxxxxxxxxxxx", 29));
        for (size_t len = 12; len < sizeof(path); len++)
                for (size_t at = 1; at < len - 8; at++) {
                        static const unsigned char probes[] = { 0x01, 0x1f, 0x7f, 0x20, 0x80, 0xff, 0x9f };

                        for (size_t p = 0; p < sizeof(probes); p++) {
                                bool control = probes[p] < 0x20 || probes[p] == 0x7f;

                                memset(path, 'a', len);
                                path[0] = '/';
                                memcpy(path + len - 8, ".service", 8);
                                path[at] = (char) probes[p];
                                CHECK_INT_EQ(cat_header_path_is_plausible(path, len), !control);
                        }
                }
}

/* Each unit type from its name, by length (no NUL after it), and what
 * is a byte off: one short or long, a letter changed anywhere. */
TEST(unit_types_from_mem) {
        for (UnitType t = 0; t < _UNIT_TYPE_MAX; t++) {
                const char *name = unit_type_to_string(t);
                size_t n = strlen(name);
                char buf[16];

                memcpy(buf, name, n);
                buf[n] = 'x';
                CHECK_INT_EQ(unit_type_from_mem(buf, n), t);
                CHECK_INT_EQ(unit_type_from_mem(buf, n - 1), _UNIT_TYPE_INVALID);
                CHECK_INT_EQ(unit_type_from_mem(buf, n + 1), _UNIT_TYPE_INVALID);
                CHECK_INT_EQ(unit_type_from_string(name), t);
                for (size_t i = 0; i < n; i++) {
                        buf[i] ^= 0x20;
                        CHECK_INT_EQ(unit_type_from_mem(buf, n), _UNIT_TYPE_INVALID);
                        buf[i] ^= 0x20;
                }
        }
        CHECK_INT_EQ(unit_type_from_mem("servicex", 8), _UNIT_TYPE_INVALID);
        CHECK_INT_EQ(unit_type_from_mem("aut", 3), _UNIT_TYPE_INVALID);
        CHECK_INT_EQ(unit_type_from_mem("automounts", 10), _UNIT_TYPE_INVALID);
}

/* A header's path as the reader checks it (one pass for the control bytes
 * sixteen bytes at a time, then the last '/' block by block from the end,
 * and the last '.' after it), against cat_header_path_is_plausible(): paths
 * of every length up to three such blocks, of each kind of name, a probe
 * byte at every position; and some longer ones (as long as a corpus's
 * paths, whose names start blocks before the end), probed at their start
 * and in their last 40 bytes. */
TEST(header_paths_in_stream) {
        static const char *const suffixes[] = { ".service", ".d/x.conf", "/x.conf", ".socket", ".servic", "" };
        static const unsigned char probes[] = { 0x00, 0x01, 0x1f, 0x7f, '/', '.', 'a', 0x80, ' ' };
        char path[130];

        /* One stream per suffix: a file, then a header-like line after a
         * blank line per case, which starts a file or is content. */
        for (size_t s = 0; s < ELEMENTSOF(suffixes) && !tests_failed; s++) {
                StrBuf data = {}, want = {};
                size_t sl = strlen(suffixes[s]), cur = 4;
                Split sp;

                CHECK(strbuf_append_str(&data, "# /x/first.service\nA=1\n") >= 0);
                CHECK(strbuf_append_str(&want, "/x/first.service") >= 0);
                for (size_t len = sl + 2; len < 130; len += len < 50 ? 1 : 11)
                        for (size_t at = 1; at < len; at = len < 50 || at < 4 || at + 41 >= len ? at + 1 : len - 40)
                                for (size_t p = 0; p < ELEMENTSOF(probes); p++) {
                                        memset(path, 'd', len);
                                        path[0] = '/';
                                        memcpy(path + len - sl, suffixes[s], sl);
                                        path[at] = (char) probes[p];
                                        CHECK(strbuf_append_str(&data, "\n# ") >= 0);
                                        CHECK(strbuf_append(&data, path, len) >= 0);
                                        CHECK(strbuf_append_str(&data, "\nB=2\n") >= 0);
                                        if (cat_header_path_is_plausible(path, len)) {
                                                CHECK(strbuf_printf(&want, ":%zu;", cur) >= 0);
                                                CHECK(strbuf_append(&want, path, len) >= 0);
                                                cur = 4;
                                        } else
                                                cur += len + 8;
                                }
                CHECK(strbuf_printf(&want, ":%zu;", cur) >= 0);
                split_ways(data.data, data.len, 1 << 20, false, &sp);
                CHECK_STR_EQ(sp.shape, want.data);
                CHECK_INT_EQ(sp.result, 0);
                split_done(&sp);
                strbuf_done(&data);
                strbuf_done(&want);
        }
}

/* Streams made of pieces that matter to the reader (blank lines, headers
 * with and without the blank line before them, comments that look like
 * headers or not, escape sequences, CR, NUL, content lines of lengths
 * around the 64-byte blocks in which plain lines are passed over), split
 * all ways: from a memfd the reader sees all at once and passes lines over
 * in bulk, from a pipe fed a byte at a time mostly line by line; they must
 * agree, on the files, the diagnostics' lines, the failure. Caps near the
 * sizes make the size checks meet the bulk path too. */
TEST(random_streams) {
        static const char *const pieces[] = {
                "\n", "\n", "\n", "# /x/a.service\n", "\n# /x/b.service\n", "\n# /x/a.service.d/o.conf\n",
                "# Unit c.service is masked.\n", "\n# Unit c.service is masked.\n", "# comment\n", "#\n", "# \n",
                "# U\n", "# /\n", "\x1b[1m# /x/d.service\x1b[0m\n", "\x1b\n", ";x\n", "A=1\n", " B=2\n", "C=3\r\n",
                "D\r", "E\0F\n", "[Service]\n", "X=0123456789abcdef0123456789abcdef0123456789abcdef0123456789a\n",
                "Y=0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab\n", "Z=0123456789\n", "#", "\xc3\xa9\n",
                /* Near misses of the bytes that make a line need a look,
                 * and a hyperlinked header ("# ", OSC 8, the path). */
                "#U\n", "# u\n", "#  /x\n", "\n# \x1b]8;;\x1b\\/x/e.service\n",
        };
        static const size_t caps[] = { 16, 63, 64, 65, 200, 1 << 20 };
        unsigned seed = 4242;
        StrBuf data = {};
        int rounds = test_rounds(400, 100);

        for (int round = 0; round < rounds && !tests_failed; round++) {
                size_t n, cap;
                Split s;

                strbuf_reset(&data);
                seed = seed * 1103515245u + 12345u;
                n = (seed >> 16) % 40;
                cap = caps[(seed >> 8) % (sizeof(caps) / sizeof(caps[0]))];
                if (round % 2 == 0)
                        CHECK(strbuf_append(&data, "# /x/a.service\n", 15) >= 0);
                for (size_t i = 0; i < n; i++) {
                        const char *p;

                        seed = seed * 1103515245u + 12345u;
                        p = pieces[(seed >> 16) % (sizeof(pieces) / sizeof(pieces[0]))];
                        /* "E\0F\n": strlen() stops at the NUL. */
                        CHECK(strbuf_append(&data, p, p[0] == 'E' ? 5 : strlen(p)) >= 0);
                }
                /* Each pipe costs a child process (and under valgrind a
                 * traced one): every third round goes through pipes, the
                 * rest compare the bulk path with the SSE2/portable one. */
                split_ways(data.data ? data.data : "", data.len, cap, round % 3 == 0, &s);
                split_done(&s);
        }
        strbuf_done(&data);
}

TESTS_MAIN(T(unit_types_from_mem), T(header_paths_in_stream), T(random_streams), T(header_path_controls), T(cap_last_file), T(cap_before_header), T(cap_long_lines), T(cap_bare), T(merged_header), T(cap_plain_lines),
           T(looks_at_block_edges))
