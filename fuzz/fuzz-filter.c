/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The whole filter pipeline: a `systemctl cat` stream through
 * filter_stream(), and a small directory tree (built in a fresh temporary
 * directory) through the tree walker, filter_path(), and as a root through
 * lookup_set_build() + filter_root().
 *
 * Input: FLAGS OP... [7 CUT STREAM...]
 *   FLAGS bit 0/1/2: run the stream / the walker / the root (none: all),
 *         bit 3: also read the stream with a read error after CUT,
 *         bits 4-5: systemd version of the lookup, bit 6: the judge
 *         rejects units whose name starts with 'b'.
 *   OP (byte % 8), arguments index the tables below:
 *     0 FILE DIR NAME LEN DATA      1 DROPIN DIR UNIT CONF LEN DATA
 *     2 LINK DIR NAME TARGET        3 DROPIN-LINK DIR UNIT CONF TARGET
 *     4 DROPIN-DIR-LINK DIR UNIT TARGET
 *     5 DIR DIR NAME (a directory where a file may be expected)
 *     6 FIFO DIR UNIT CONF          7 the rest is the stream
 * Files that cannot be read are made without mode bits (the fuzzer may
 * run as root): directories where a file is expected, FIFOs, dangling,
 * looping and out-of-tree symlinks.
 *
 * Properties, after every run:
 *   - the output is exactly the accepted units, each with all its files,
 *     in the cat framing (a header after a blank line, every file ending
 *     with a newline);
 *   - walker: a unit's drop-ins are all *.conf files of NAME.d (but
 *     /dev/null masks), in name order; a unit with an unreadable drop-in
 *     or a drop-in directory leading out of the tree is not judged, and
 *     nothing of it is written; no file read leads out of the tree;
 *   - walker: every file made is judged, written, or named in a
 *     diagnostic (-v), directly or through its unit or drop-in directory;
 *   - root: every unit of the lookup set is judged with exactly the files
 *     the loader assigned to it, or not at all when one cannot be read;
 *   - stream: each accepted unit's files appear in the output in order;
 *     with a read error after CUT bytes, the output is a prefix of the
 *     output for those CUT bytes alone, the error is reported, and the
 *     unit being read when it happened is not judged or written.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/alloc-util.h"
#include "basic/fileio.h"
#include "basic/macro.h"
#include "filter/filter.h"
#include "fuzz.h"
#include "lookup/lookup.h"
#include "lookup/root.h"
#include "unit/cat-stream.h"
#include "unit/unit-type.h"

static const char *const dirs[] = {
        "etc/systemd/system",
        "usr/lib/systemd/system",
        "run/systemd/system",
        "etc/systemd/system/sub",
        "usr/lib/systemd/system/modules.d",
        "lib/systemd/system",
        "usr/lib/systemd/system/a.service.wants",
        "opt",
};

static const char *const names[] = {
        "a.service", "b.service", "a@.service", "a@x.service", "a-b.service", "a-.service",
        "c.socket", "d.target", "README", "x.conf", "service", "e.mount",
};

static const char *const units[] = {
        "a.service", "b.service", "a@.service", "a@x.service", "a-.service", "a-b.service",
        "service", "c.socket", "modules",
};

static const char *const confs[] = {
        "10-a.conf", "20-b.conf", "50-x.conf", "notes.txt",
};

/* "@" is replaced by the link's own name (a loop). */
static const char *const targets[] = {
        "/dev/null",
        "a.service",
        "../a.service",
        "/etc/systemd/system/a.service",
        "/usr/lib/systemd/system/b.service",
        "/etc",
        "/etc/hostname",
        "missing.service",
        "@",
        "../../../../../../../../../etc/hostname",
        "10-a.conf",
        "../a.service.d/10-a.conf",
        "/usr/lib/systemd/system/a.service.d",
        "a.service.d",
        "../../../../usr/lib/systemd/system/a.service.d",
        "/proc/self/cwd",
        "fifo",
        "b.service.d/10-a.conf",
        "../fifo",
};

static const unsigned versions[] = { 238, 245, 252, 255 };

#define PICK(table, byte) ((table)[(byte) % ELEMENTSOF(table)])

typedef struct Input {
        const uint8_t *p, *end;
} Input;

static bool take(Input *in, uint8_t *ret) {
        if (in->p >= in->end)
                return false;
        *ret = *in->p++;
        return true;
}

/* ---- the tree ------------------------------------------------------- */

typedef struct Tree {
        char *dir;             /* the temporary directory */
        char *real;            /* its resolved path */
        char **leaves;         /* absolute paths of everything made */
        size_t n_leaves;
} Tree;

static void add_leaf(Tree *t, const char *path) {
        t->leaves = realloc(t->leaves, (t->n_leaves + 1) * sizeof(char *));
        fuzz_assert(t->leaves);
        t->leaves[t->n_leaves] = strdup(path);
        fuzz_assert(t->leaves[t->n_leaves]);
        t->n_leaves++;
}

/* Makes the directories of rel below the tree, never through a symlink
 * (a link made earlier must not send the harness out of its directory).
 * Returns the absolute path or NULL when something else is in the way. */
static char *make_dirs(const Tree *t, const char *rel) {
        char *path = NULL;

        fuzz_assert(asprintf(&path, "%s/%s", t->dir, rel) >= 0);
        for (char *s = path + strlen(t->dir) + 1;; s++) {
                if (*s == '/' || *s == '\0') {
                        char c = *s;
                        struct stat st;

                        *s = '\0';
                        (void) mkdir(path, 0755);
                        if (lstat(path, &st) < 0 || !S_ISDIR(st.st_mode)) {
                                free(path);
                                return NULL;
                        }
                        *s = c;
                        if (c == '\0')
                                break;
                }
        }
        return path;
}

static char *leaf_path(const Tree *t, const char *dir, const char *unit, const char *name) {
        _cleanup_free_ char *rel = NULL;
        char *d, *p = NULL;

        if (unit)
                fuzz_assert(asprintf(&rel, "%s/%s.d", dir, unit) >= 0);
        d = make_dirs(t, rel ? rel : dir);
        if (!d)
                return NULL;
        fuzz_assert(asprintf(&p, "%s/%s", d, name) >= 0);
        free(d);
        return p;
}

static void make_file(Tree *t, const char *path, const uint8_t *data, size_t size) {
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);

        if (fd < 0)
                return;
        fuzz_assert(loop_write(fd, data, size) >= 0);
        close(fd);
        add_leaf(t, path);
}

static void make_link(Tree *t, const char *path, uint8_t target) {
        const char *tg = PICK(targets, target);
        const char *base = strrchr(path, '/') + 1;

        if (streq(tg, "@"))
                tg = base;
        if (symlink(tg, path) == 0)
                add_leaf(t, path);
}

/* Decodes the tree operations; returns the stream (the rest after op 7),
 * or an empty one. */
static void build_tree(Tree *t, Input *in, Input *stream, uint8_t *cut) {
        uint8_t op, d, n, u, c, tg, len;

        *stream = (Input) { in->end, in->end };
        *cut = 0;
        while (take(in, &op)) {
                _cleanup_free_ char *p = NULL;

                switch (op % 8) {
                case 0:
                        if (!take(in, &d) || !take(in, &n) || !take(in, &len))
                                return;
                        len = (uint8_t) MIN((size_t) len, (size_t) (in->end - in->p));
                        p = leaf_path(t, PICK(dirs, d), NULL, PICK(names, n));
                        if (p)
                                make_file(t, p, in->p, len);
                        in->p += len;
                        break;
                case 1:
                        if (!take(in, &d) || !take(in, &u) || !take(in, &c) || !take(in, &len))
                                return;
                        len = (uint8_t) MIN((size_t) len, (size_t) (in->end - in->p));
                        p = leaf_path(t, PICK(dirs, d), PICK(units, u), PICK(confs, c));
                        if (p)
                                make_file(t, p, in->p, len);
                        in->p += len;
                        break;
                case 2:
                        if (!take(in, &d) || !take(in, &n) || !take(in, &tg))
                                return;
                        p = leaf_path(t, PICK(dirs, d), NULL, PICK(names, n));
                        if (p)
                                make_link(t, p, tg);
                        break;
                case 3:
                        if (!take(in, &d) || !take(in, &u) || !take(in, &c) || !take(in, &tg))
                                return;
                        p = leaf_path(t, PICK(dirs, d), PICK(units, u), PICK(confs, c));
                        if (p)
                                make_link(t, p, tg);
                        break;
                case 4: {
                        _cleanup_free_ char *name = NULL;

                        if (!take(in, &d) || !take(in, &u) || !take(in, &tg))
                                return;
                        fuzz_assert(asprintf(&name, "%s.d", PICK(units, u)) >= 0);
                        p = leaf_path(t, PICK(dirs, d), NULL, name);
                        if (p)
                                make_link(t, p, tg);
                        break;
                }
                case 5:
                        if (!take(in, &d) || !take(in, &n))
                                return;
                        /* Odd: at a drop-in's place. */
                        if (n & 1)
                                p = leaf_path(t, PICK(dirs, d), PICK(units, n / 2), PICK(confs, n / 32));
                        else
                                p = leaf_path(t, PICK(dirs, d), NULL, PICK(names, n / 2));
                        if (p && mkdir(p, 0755) == 0 && (n & 1))
                                add_leaf(t, p);
                        break;
                case 6:
                        if (!take(in, &d) || !take(in, &u) || !take(in, &c))
                                return;
                        if (c & 0x80)
                                p = leaf_path(t, PICK(dirs, d), NULL, "fifo");
                        else
                                p = leaf_path(t, PICK(dirs, d), PICK(units, u), PICK(confs, c));
                        if (p && mkfifo(p, 0644) == 0 && !(c & 0x80))
                                add_leaf(t, p);
                        break;
                case 7:
                        (void) take(in, cut);
                        *stream = *in;
                        return;
                }
        }
}

static int rm_one(const char *path, const struct stat *st, int type, struct FTW *ftw) {
        (void) st, (void) type, (void) ftw;
        return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

static void tree_done(Tree *t) {
        if (t->dir)
                fuzz_assert(nftw(t->dir, rm_one, 16, FTW_DEPTH | FTW_PHYS) == 0);
        for (size_t i = 0; i < t->n_leaves; i++)
                free(t->leaves[i]);
        free(t->leaves);
        free(t->dir);
        free(t->real);
}

/* ---- what the judge saw ------------------------------------------- */

typedef struct RecFile {
        char *path, *framing, *data;
        size_t size;
} RecFile;

typedef struct RecGroup {
        char *name;
        bool has_fragment;
        GroupVerdict verdict;
        RecFile *files;
        size_t n_files;
} RecGroup;

typedef struct Rec {
        bool reject_b;
        RecGroup *groups;
        size_t n_groups;
} Rec;

static char *xstrdup(const char *s) {
        char *p = strdup(s ? s : "");

        fuzz_assert(p);
        return p;
}

static int judge(void *userdata, UnitGroup *g) {
        Rec *rec = userdata;
        RecGroup *rg;

        for (size_t i = 0; i < g->n_files; i++)
                if (g->files[i].file && (g->files[i].file->failed_line > 0 || g->files[i].file->limit_line > 0))
                        g->verdict = GROUP_REJECTED;
        if (rec->reject_b && g->name && g->name[0] == 'b')
                g->verdict = GROUP_REJECTED;
        /* Never asked about a unit that is already refused. */
        fuzz_assert(!g->unreadable);

        rec->groups = realloc(rec->groups, (rec->n_groups + 1) * sizeof(RecGroup));
        fuzz_assert(rec->groups);
        rg = &rec->groups[rec->n_groups++];
        *rg = (RecGroup) { .name = xstrdup(g->name), .has_fragment = g->has_fragment, .verdict = g->verdict };
        rg->files = fuzz_xmalloc(g->n_files * sizeof(RecFile));
        for (size_t i = 0; i < g->n_files; i++) {
                const UnitFile *uf = g->files[i].file;

                if (!uf)
                        continue;
                rg->files[rg->n_files++] = (RecFile) {
                        .path = xstrdup(uf->path),
                        .framing = xstrdup(g->files[i].framing),
                        .data = fuzz_copy((const uint8_t *) uf->data, uf->size, 0),
                        .size = uf->size,
                };
        }
        return 0;
}

static void rec_done(Rec *rec) {
        for (size_t i = 0; i < rec->n_groups; i++) {
                for (size_t k = 0; k < rec->groups[i].n_files; k++) {
                        free(rec->groups[i].files[k].path);
                        free(rec->groups[i].files[k].framing);
                        free(rec->groups[i].files[k].data);
                }
                free(rec->groups[i].files);
                free(rec->groups[i].name);
        }
        free(rec->groups);
        *rec = (Rec) {};
}

static const RecGroup *rec_find(const Rec *rec, const char *name) {
        const RecGroup *found = NULL;

        for (size_t i = 0; i < rec->n_groups; i++)
                if (streq(rec->groups[i].name, name)) {
                        fuzz_assert(!found);    /* judged once */
                        found = &rec->groups[i];
                }
        return found;
}

static bool rec_same_group(const RecGroup *a, const RecGroup *b) {
        if (!streq(a->name, b->name) || a->verdict != b->verdict || a->n_files != b->n_files)
                return false;
        for (size_t i = 0; i < a->n_files; i++)
                if (!streq(a->files[i].path, b->files[i].path) || a->files[i].size != b->files[i].size ||
                    memcmp(a->files[i].data, b->files[i].data, a->files[i].size) != 0)
                        return false;
        return true;
}

/* ---- running the filter -------------------------------------------- */

typedef struct Run {
        Rec rec;
        char *out, *err;
        size_t out_size, err_size;
        unsigned n_input_errors, n_units, n_rejected;
} Run;

typedef enum Mode { MODE_STREAM, MODE_PATH, MODE_ROOT } Mode;

static void read_back(int fd, char **ret, size_t *ret_size) {
        fuzz_assert(lseek(fd, 0, SEEK_SET) == 0);
        fuzz_assert(read_full_fd(fd, SIZE_MAX / 2, ret, ret_size) >= 0);
        close(fd);
}

static void run_filter(Mode mode, int in_fd, const Tree *t, unsigned version, bool reject_b, Run *ret) {
        int out_fd = memfd_create("fuzz-filter-out", MFD_CLOEXEC);
        int err_fd = memfd_create("fuzz-filter-err", MFD_CLOEXEC);
        Filter f;
        int r = 0;

        fuzz_assert(out_fd >= 0 && err_fd >= 0);
        *ret = (Run) { .rec.reject_b = reject_b };
        filter_init(&f, out_fd, err_fd);
        f.judge = judge;
        f.judge_userdata = &ret->rec;
        f.verbose = true;

        switch (mode) {
        case MODE_STREAM:
                r = filter_stream(&f, in_fd, "<fuzz>");
                break;
        case MODE_PATH:
                r = filter_path(&f, t->dir, true);
                break;
        case MODE_ROOT: {
                Root root;
                LookupSet set;

                fuzz_assert(root_open(t->dir, &root) >= 0);
                fuzz_assert(lookup_set_build(&root, LOOKUP_SYSTEM, version, &set) >= 0);
                r = filter_root(&f, &root, &set, t->dir);
                /* Every unit the loader assembled: judged with exactly its
                 * files, or not at all when one of them cannot be read. */
                for (size_t i = 0; r >= 0 && i < set.n_units; i++) {
                        const LookupUnit *u = set.units[i];
                        const RecGroup *g = rec_find(&ret->rec, u->id);
                        bool unreadable = false;
                        size_t n = 0;

                        if (u->state != LOOKUP_UNIT_LOADED && u->state != LOOKUP_UNIT_DROPINS_ONLY) {
                                fuzz_assert(!g);
                                continue;
                        }
                        for (ssize_t k = u->fragment.path ? -1 : 0; k < (ssize_t) u->n_dropins; k++) {
                                const LookupFile *lf = k < 0 ? &u->fragment : &u->dropins[k];
                                _cleanup_free_ char *p = NULL, *real = NULL;
                                struct stat st;
                                int fd;

                                if (!lf->source && !lf->error)
                                        continue;       /* a masked drop-in */
                                if (lf->error) {
                                        unreadable = true;
                                        continue;
                                }
                                fuzz_assert(lf->source[0] == '/');
                                fuzz_assert(asprintf(&p, "%s%s", t->dir, lf->source) >= 0);
                                fd = open(p, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
                                if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
                                        unreadable = true;
                                if (fd >= 0)
                                        close(fd);
                                /* What is read lies inside the root. */
                                real = realpath(p, NULL);
                                fuzz_assert(!real || startswith(real, t->real));
                                if (g && !unreadable) {
                                        fuzz_assert(n < g->n_files);
                                        fuzz_assert(streq(g->files[n].path, lf->path));
                                }
                                n++;
                        }
                        if (unreadable || n == 0)
                                fuzz_assert(!g);
                        else {
                                fuzz_assert(g);
                                fuzz_assert(g->n_files == n);
                        }
                }
                /* And nothing else. */
                for (size_t i = 0; r >= 0 && i < ret->rec.n_groups; i++)
                        fuzz_assert(lookup_set_find(&set, ret->rec.groups[i].name));
                lookup_set_done(&set);
                root_done(&root);
                break;
        }
        }
        fuzz_assert(r >= 0);
        fuzz_assert(filter_flush(&f) >= 0);
        fuzz_assert(!f.write_failed);
        ret->n_input_errors = f.n_input_errors;
        ret->n_units = f.n_units;
        ret->n_rejected = f.n_rejected;
        filter_done(&f);
        read_back(out_fd, &ret->out, &ret->out_size);
        read_back(err_fd, &ret->err, &ret->err_size);
}

static void run_done(Run *r) {
        rec_done(&r->rec);
        free(r->out);
        free(r->err);
}

/* The judged units that are written, in the framing the filter adds. */
static void expected_output(const Rec *rec, StrBuf *b) {
        bool first = true;

        for (size_t i = 0; i < rec->n_groups; i++) {
                if (rec->groups[i].verdict == GROUP_REJECTED)
                        continue;
                for (size_t k = 0; k < rec->groups[i].n_files; k++) {
                        const RecFile *rf = &rec->groups[i].files[k];
                        const char *framing = rf->framing;

                        if (first && framing[0] == '\n')
                                framing++;
                        fuzz_assert(strbuf_append_str(b, framing) >= 0);
                        fuzz_assert(strbuf_append(b, rf->data, rf->size) >= 0);
                        if (framing[0] && b->len > 0 && b->data[b->len - 1] != '\n')
                                fuzz_assert(strbuf_append_char(b, '\n') >= 0);
                        first = false;
                }
        }
}

/* Well-framed: "# /path" headers, each after a blank line but the first,
 * and every file ending with a newline. */
static void check_framing(const Run *run, const Rec *rec) {
        _cleanup_(strbuf_done) StrBuf want = {};

        expected_output(rec, &want);
        fuzz_assert(want.len == run->out_size);
        fuzz_assert(want.len == 0 || memcmp(want.data, run->out, want.len) == 0);
        fuzz_assert(run->out_size == 0 || run->out[run->out_size - 1] == '\n');
        for (size_t i = 0; i < rec->n_groups; i++)
                for (size_t k = 0; k < rec->groups[i].n_files; k++) {
                        const char *fr = rec->groups[i].files[k].framing;

                        fuzz_assert(startswith(fr, "\n# /") && endswith(fr, "\n"));
                        fuzz_assert(!strchr(fr + 3, '\n') || strchr(fr + 3, '\n')[1] == '\0');
                }
}

/* Whether text names path as a whole (followed by ':', a space, a quote or
 * the end of the line). */
static bool mentions(const char *text, size_t size, const char *path) {
        size_t n = strlen(path);

        for (const char *s = text; s && (size_t) (s - text) + n <= size;) {
                s = memmem(s, size - (size_t) (s - text), path, n);
                if (!s)
                        break;
                if ((size_t) (s - text) + n == size || strchr(":\n '", s[n]))
                        return true;
                s++;
        }
        return false;
}

static bool rec_has_path(const Rec *rec, const char *path) {
        for (size_t i = 0; i < rec->n_groups; i++)
                for (size_t k = 0; k < rec->groups[i].n_files; k++)
                        if (streq(rec->groups[i].files[k].path, path))
                                return true;
        return false;
}

static int compare_str(const void *a, const void *b) {
        return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Whether a drop-in at path can be read: a regular file inside the tree. */
static bool readable_inside(const Tree *t, const char *path) {
        _cleanup_free_ char *real = realpath(path, NULL);
        const char *rest = real ? startswith(real, t->real) : NULL;
        struct stat st;
        int fd;
        bool ok;

        if (!rest || (*rest != '/' && *rest != '\0'))
                return false;
        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
                return false;
        ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
        close(fd);
        return ok;
}

/* Whether path names a drop-in directory: NAME.d for a unit name or a type. */
static bool is_dropin_dir(const char *path) {
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        _cleanup_free_ char *stem = NULL;
        const char *dot;

        if (!endswith(base, ".d"))
                return false;
        stem = strndup(base, strlen(base) - 2);
        fuzz_assert(stem);
        dot = strrchr(stem, '.');
        return unit_type_from_string(dot && dot != stem ? dot + 1 : stem) >= 0;
}

/* The walker's groups against the tree: all drop-ins of NAME.d, nothing
 * unreadable, nothing from outside. */
static void check_walk(const Tree *t, const Run *run) {
        for (size_t i = 0; i < run->rec.n_groups; i++) {
                const RecGroup *g = &run->rec.groups[i];
                _cleanup_free_ char *dd = NULL;
                char **want = NULL;
                size_t n_want = 0, first_dropin = g->has_fragment ? 1 : 0;
                DIR *d;
                struct dirent *de;

                fuzz_assert(g->n_files > 0);
                for (size_t k = 0; k < g->n_files; k++)
                        fuzz_assert(readable_inside(t, g->files[k].path));
                if (g->has_fragment)
                        fuzz_assert(asprintf(&dd, "%s.d", g->files[0].path) >= 0);
                else {
                        dd = xstrdup(g->files[0].path);
                        *strrchr(dd, '/') = '\0';
                }
                d = opendir(dd);
                if (!d) {
                        /* No drop-in directory: no drop-ins. */
                        fuzz_assert(errno == ENOENT && g->n_files == first_dropin);
                        continue;
                }
                {
                        _cleanup_free_ char *real = realpath(dd, NULL);
                        const char *rest = real ? startswith(real, t->real) : NULL;

                        fuzz_assert(rest && (*rest == '/' || *rest == '\0'));
                }
                while ((de = readdir(d))) {
                        _cleanup_free_ char *p = NULL;
                        char target[16];
                        ssize_t k;

                        if (de->d_name[0] == '.' || !endswith(de->d_name, ".conf"))
                                continue;
                        fuzz_assert(asprintf(&p, "%s/%s", dd, de->d_name) >= 0);
                        k = readlink(p, target, sizeof(target));
                        if (k == 9 && memcmp(target, "/dev/null", 9) == 0)
                                continue;
                        /* A unit with an unreadable drop-in is never judged. */
                        fuzz_assert(readable_inside(t, p));
                        want = realloc(want, (n_want + 1) * sizeof(char *));
                        fuzz_assert(want);
                        want[n_want++] = TAKE_PTR(p);
                }
                closedir(d);
                if (n_want > 0)
                        qsort(want, n_want, sizeof(char *), compare_str);
                fuzz_assert(g->n_files == first_dropin + n_want);
                for (size_t k = 0; k < n_want; k++) {
                        fuzz_assert(streq(g->files[first_dropin + k].path, want[k]));
                        free(want[k]);
                }
                free(want);
        }

        /* Every file made is accounted for. */
        for (size_t i = 0; i < t->n_leaves; i++) {
                const char *leaf = t->leaves[i];
                struct stat st;
                _cleanup_free_ char *parent = xstrdup(leaf), *unit = NULL;

                if (rec_has_path(&run->rec, leaf) || mentions(run->err, run->err_size, leaf))
                        continue;
                /* A NAME.d link followed inside the tree is a directory. */
                if (endswith(leaf, ".d")) {
                        _cleanup_free_ char *real = realpath(leaf, NULL);
                        const char *rest = real ? startswith(real, t->real) : NULL;

                        if (rest && (*rest == '/' || *rest == '\0') && stat(real, &st) == 0 && S_ISDIR(st.st_mode))
                                continue;
                }
                /* A drop-in of a unit that was reported as a whole. */
                *strrchr(parent, '/') = '\0';
                /* A directory outside a drop-in directory is only a subtree. */
                if (lstat(leaf, &st) == 0 && S_ISDIR(st.st_mode) && !is_dropin_dir(parent))
                        continue;
                if (endswith(parent, ".d")) {
                        unit = strndup(parent, strlen(parent) - 2);
                        fuzz_assert(unit);
                        if (mentions(run->err, run->err_size, parent) || mentions(run->err, run->err_size, unit))
                                continue;
                }
                fprintf(stderr, "not accounted for: %s\n--- stderr:\n%.*s---\n", leaf, (int) run->err_size,
                        run->err);
                fuzz_assert(!"every file made is judged, written or reported");
        }
}

/* ---- the stream ----------------------------------------------------- */

static int stream_fd(const uint8_t *data, size_t size) {
        int fd = memfd_create("fuzz-filter-in", MFD_CLOEXEC);

        fuzz_assert(fd >= 0);
        fuzz_assert(loop_write(fd, data, size) >= 0);
        fuzz_assert(lseek(fd, 0, SEEK_SET) == 0);
        return fd;
}

/* A non-blocking pipe holding data whose writer stays open: once the data
 * is read, the next read fails with EAGAIN. Returns the reading end. */
static int failing_fd(const uint8_t *data, size_t size, int *ret_writer) {
        int p[2];

        fuzz_assert(pipe2(p, O_CLOEXEC | O_NONBLOCK) == 0);
        fuzz_assert(loop_write(p[1], data, size) >= 0);
        *ret_writer = p[1];
        return p[0];
}

/* How the stream splits: whether it is one bare file, and whether the
 * last thing in it is a file (not a note line). */
static void stream_shape(const uint8_t *data, size_t size, bool *ret_bare, bool *ret_ends_in_file) {
        CatReader r;
        CatFile f;
        bool file = false;
        int fd = stream_fd(data, size), k;

        cat_reader_init(&r, fd, "<fuzz>", UNIT_FILE_MAX);
        while ((k = cat_reader_next(&r, &f)) > 0) {
                file = !f.is_note;
                cat_file_done(&f);
        }
        fuzz_assert(k == 0);
        *ret_bare = r.bare;
        *ret_ends_in_file = file;
        cat_reader_done(&r);
        close(fd);
}

static void check_stream_units(const Run *run) {
        size_t pos = 0;
        bool first = true;

        /* Each accepted unit's files, in order (a subsequence: notes and
         * their text come in between). */
        for (size_t i = 0; i < run->rec.n_groups; i++) {
                if (run->rec.groups[i].verdict == GROUP_REJECTED)
                        continue;
                for (size_t k = 0; k < run->rec.groups[i].n_files; k++) {
                        const RecFile *rf = &run->rec.groups[i].files[k];
                        _cleanup_(strbuf_done) StrBuf needle = {};
                        const char *s;
                        size_t skip = 0;

                        /* The framing and the content together (either may
                         * recur inside other files of the stream); the very
                         * first file may have lost its leading blank line. */
                        fuzz_assert(strbuf_append_str(&needle, rf->framing) >= 0);
                        fuzz_assert(strbuf_append(&needle, rf->data, rf->size) >= 0);
                        s = memmem(run->out + pos, run->out_size - pos, needle.data, needle.len);
                        if (!s && first && needle.data[0] == '\n') {
                                skip = 1;
                                s = memmem(run->out + pos, run->out_size - pos, needle.data + 1, needle.len - 1);
                        }
                        first = false;
                        fuzz_assert(s);
                        pos = (size_t) (s - run->out) + needle.len - skip;
                }
        }
}

static void fuzz_stream(const uint8_t *data, size_t size, uint8_t cut_byte, bool inject, bool reject_b) {
        Run full, err, pre;
        size_t cut;
        int fds, writer;
        bool bare, ends_in_file;

        fds = stream_fd(data, size);
        run_filter(MODE_STREAM, fds, NULL, 0, reject_b, &full);
        close(fds);
        check_stream_units(&full);
        /* Well-framed: in the cat format everything written ends with a
         * newline (a bare file is written as it came). */
        stream_shape(data, size, &bare, &ends_in_file);
        fuzz_assert(bare || full.out_size == 0 || full.out[full.out_size - 1] == '\n');
        run_done(&full);

        if (!inject || size > 60000)
                return;
        cut = size * cut_byte / 255;
        fds = failing_fd(data, cut, &writer);
        run_filter(MODE_STREAM, fds, NULL, 0, reject_b, &err);
        close(fds);
        close(writer);
        fds = stream_fd(data, cut);
        run_filter(MODE_STREAM, fds, NULL, 0, reject_b, &pre);
        close(fds);

        /* The read error is reported. */
        fuzz_assert(err.n_input_errors > pre.n_input_errors);
        /* Nothing that the same bytes up to EOF would not write... */
        fuzz_assert(err.out_size <= pre.out_size);
        fuzz_assert(err.out_size == 0 || memcmp(err.out, pre.out, err.out_size) == 0);
        /* ...the same units judged alike, but never the one being read when
         * the error came. */
        fuzz_assert(err.rec.n_groups <= pre.rec.n_groups);
        for (size_t i = 0; i < err.rec.n_groups; i++) {
                if (!rec_same_group(&err.rec.groups[i], &pre.rec.groups[i]))
                        fprintf(stderr, "unit %s judged differently after a read error (%zu files, %s) than at EOF (%zu files, %s)\n",
                                err.rec.groups[i].name, err.rec.groups[i].n_files,
                                group_verdict_to_string(err.rec.groups[i].verdict), pre.rec.groups[i].n_files,
                                group_verdict_to_string(pre.rec.groups[i].verdict));
                fuzz_assert(rec_same_group(&err.rec.groups[i], &pre.rec.groups[i]));
        }
        stream_shape(data, cut, &bare, &ends_in_file);
        if (pre.rec.n_groups > 0 && ends_in_file) {
                if (err.rec.n_groups >= pre.rec.n_groups)
                        fprintf(stderr, "unit judged and written after a read error: %s\n",
                                pre.rec.groups[pre.rec.n_groups - 1].name);
                fuzz_assert(err.rec.n_groups < pre.rec.n_groups);
        }
        run_done(&err);
        run_done(&pre);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        Input in = { data, data + size }, stream;
        Tree t = {};
        uint8_t flags = 0, cut;
        unsigned version;
        bool reject_b;
        const char *tmp = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

        (void) take(&in, &flags);
        if ((flags & 7) == 0)
                flags |= 7;
        version = versions[(flags >> 4) & 3];
        reject_b = flags & 0x40;

        fuzz_assert(asprintf(&t.dir, "%s/fuzz-filter-XXXXXX", tmp) >= 0);
        fuzz_assert(mkdtemp(t.dir));
        t.real = realpath(t.dir, NULL);
        fuzz_assert(t.real);
        build_tree(&t, &in, &stream, &cut);

        if (flags & 1)
                fuzz_stream(stream.p, (size_t) (stream.end - stream.p), cut, flags & 8, reject_b);
        if (flags & 2) {
                Run run;

                run_filter(MODE_PATH, -EBADF, &t, version, reject_b, &run);
                check_framing(&run, &run.rec);
                check_walk(&t, &run);
                run_done(&run);
        }
        if (flags & 4) {
                Run run;

                run_filter(MODE_ROOT, -EBADF, &t, version, reject_b, &run);
                check_framing(&run, &run.rec);
                run_done(&run);
        }
        tree_done(&t);
        return 0;
}
