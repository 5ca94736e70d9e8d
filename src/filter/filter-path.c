/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Files and directory trees as filter input. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/alloc-util.h"
#include "basic/dir-fds.h"
#include "basic/dir-list.h"
#include "basic/dir-types.h"
#include "basic/file-batch.h"
#include "basic/fileio.h"
#include "basic/strbuf.h"
#include "filter-internal.h"
#include "unit/cat-stream.h"
#include "validate/unit-name.h"

/* check --fix rewrites no file in the place of a symlink, and without
 * --root there is no boundary inside which to follow one. */
#define FIX_REFUSE_LINK "is a symbolic link; without --root, --fix neither replaces nor follows links"

/* Unit files of a directory read at a time (file-batch.h); lent by the
 * reader, they must fit one round. */
#define UNIT_READ_BATCH 64
_Static_assert(UNIT_READ_BATCH <= FILE_BATCH_LEND_MAX, "a tree's batch is lent");

/* Directory recursion stops here; deeper trees are reported. */
#define DIR_DEPTH_MAX 32

/* Hidden entries (".foo", also directories) are skipped, as systemd skips
 * them in unit and drop-in directories; each is counted with the files
 * that are not units and named with -v, never dropped without a word. */
static bool is_hidden(const char *name) {
        return name[0] == '.' && !streq(name, ".") && !streq(name, "..");
}

static int note_hidden(Filter *f, const char *dir, const char *name) {
        _cleanup_free_ char *p = NULL;

        f->n_not_units++;
        if (!f->verbose)
                return 0;
        if (asprintf(&p, "%s/%s", dir, name) < 0)
                return -ENOMEM;
        return filter_report(f, DIAG_NOTE, "input.hidden", p, NULL,
                             "hidden (name starts with '.'): systemd ignores it; not judged");
}

static bool is_unit_file_name(const char *name) {
        const char *dot = strrchr(name, '.');

        return dot && dot != name && unit_type_from_string(dot + 1) >= 0;
}

/* What a directory's entry is called: the form of its name as a unit
 * name (unit_name_classify_type(); negative: systemd accepts no such
 * name), and the type its suffix names, if any (a unit's file name needs
 * nothing more). Worked out once per entry, for the walk and for the
 * group that judges the unit. */
typedef struct EntryName {
        signed char kind;
        signed char type;
} EntryName;

static EntryName entry_name(const DirEntry *e) {
        UnitType type;
        int kind = unit_name_classify_type_n(e->name, e->len, &type);
        const char *dot;

        if (kind >= 0)
                return (EntryName) { (signed char) kind, (signed char) type };
        /* Not a valid unit name; maybe a unit's file name still. */
        dot = memrchr(e->name, '.', e->len);
        if (!dot || dot == e->name)
                return (EntryName) { -1, -1 };
        return (EntryName) { -1, (signed char) unit_type_from_mem(dot + 1, e->len - (size_t) (dot + 1 - e->name)) };
}

/* "# PATH" framing before a file in the output: the absolute path. The
 * working directory is asked for once per run. */
static int make_framing(Filter *f, const char *path, char **ret) {
        const char *cwd = "";
        size_t c = 0, n;
        char *s;

        if (path[0] != '/') {
                if (!f->cwd && !(f->cwd = getcwd(NULL, 0)))
                        return -errno;
                if (!streq(f->cwd, "/"))
                        cwd = f->cwd;
                c = strlen(cwd) + 1;    /* and a '/' */
                if (startswith(path, "./"))
                        path += 2;
        }
        /* "\n# " CWD "/" PATH "\n", put together without strjoin()'s two
         * passes over its arguments (a unit of a tree is framed). */
        n = strlen(path);
        s = malloc(3 + c + n + 2);
        if (!s)
                return -ENOMEM;
        memcpy(s, "\n# ", 3);
        if (c > 0) {
                memcpy(s + 3, cwd, c - 1);
                s[3 + c - 1] = '/';
        }
        memcpy(s + 3 + c, path, n);
        memcpy(s + 3 + c + n, "\n", 2);
        *ret = s;
        return 0;
}

/* A file found in a tree whose type is not known yet (a drop-in, or a
 * symlink to one): only a regular file is read, opened non-blocking, so
 * that a FIFO is refused instead of waited on. */
static int read_tree_file(const char *path, char **ret, size_t *ret_size) {
        struct stat st;
        int fd, r;

        fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0)
                r = -errno;
        else if (S_ISDIR(st.st_mode))
                r = -EISDIR;
        else if (!S_ISREG(st.st_mode))
                r = -EINVAL;
        else
                r = read_full_fd_sized(fd, st.st_size, UNIT_FILE_MAX, ret, ret_size);
        close(fd);
        return r;
}

/* check --fix: the file just added to g is rewritten at its path, unless
 * refusal says why not. */
static int set_fix_target(UnitGroup *g, size_t n_before, const char *path, const char *refusal) {
        GroupFile *gf;

        if (g->n_files == n_before)
                return 0;      /* not kept (over the drop-in cap) */
        gf = &g->files[g->n_files - 1];
        gf->fix_refusal = refusal;
        if (!refusal && !(gf->fix_path = strdup(path)))
                return -ENOMEM;
        return 0;
}

/* Adds the file at path, read already (takes data, unless it is borrowed
 * from the reader), to the group; a file that could not be read
 * (error < 0) is reported and counted and rejects the unit, but does not
 * stop the run. fix_refusal: why check --fix must not rewrite the file at
 * path (a symlink), or NULL. */
static int group_add_read(Filter *f, UnitGroup *g, const char *path, size_t path_len, bool dropin, bool framed,
                          int error, char *data, size_t size, bool borrowed, const char *fix_refusal) {
        size_t n_before = g->n_files;
        _cleanup_free_ char *framing = NULL;
        int r;

        if (error == -ENOMEM)
                return error;
        if (error < 0) {
                /* Nothing of a unit is half-passed: an unreadable drop-in
                 * rejects its unit. */
                g->verdict = GROUP_REJECTED;
                g->unreadable = true;
                /* The readers say -EINVAL for a file that is not a regular
                 * one (a FIFO put in place of a listed file): named so. */
                return input_error(f, path, error == -EINVAL ? -EBADFD : error,
                                   error == -EFBIG ? "file too large" : "cannot read");
        }
        /* Only unit text is framed: JSON and check's findings name files
         * their own way. */
        r = framed && f->format == OUTPUT_UNIT ? make_framing(f, path, &framing) : 0;
        if (r < 0) {
                if (!borrowed)
                        free(data);
                return r;
        }
        r = add_file_read(f, g, data, size, borrowed, path, path_len, dropin, TAKE_PTR(framing));
        if (r < 0 || !f->fix)
                return r;
        return set_fix_target(g, n_before, path, fix_refusal);
}

/* Reads path into the group. in_tree: found while walking a directory
 * (regular files only); otherwise named on the command line. */
static int group_read_file(Filter *f, UnitGroup *g, const char *path, bool dropin, bool framed, bool in_tree,
                           const char *fix_refusal) {
        char *data = NULL;
        size_t size = 0;
        int r;

        if (in_tree)
                r = read_tree_file(path, &data, &size);
        else
                r = read_full_file(path, UNIT_FILE_MAX, &data, &size);
        return group_add_read(f, g, path, strlen(path), dropin, framed, r, data, size, false, fix_refusal);
}

/* Whether path, once its symlinks are resolved, lies inside the tree given
 * on the command line (tree: its resolved path). */
static int inside_tree(const char *tree, const char *path, char **ret_real) {
        _cleanup_free_ char *real = realpath(path, NULL);
        const char *rest;

        if (!real)
                return -errno;
        rest = startswith(real, tree);
        if (!streq(tree, "/") && (!rest || (*rest != '/' && *rest != '\0')))
                return 0;
        if (ret_real)
                *ret_real = TAKE_PTR(real);
        return 1;
}

/* A drop-in that cannot be read keeps its unit from being written. */
static int dropin_failure(Filter *f, UnitGroup *g, const char *path, int error, const char *what) {
        g->verdict = GROUP_REJECTED;
        g->unreadable = true;
        return input_error(f, path, error, what);
}

/* A regular drop-in its directory listed (fd), at path: one read for a
 * small file, relative to the directory; fstat() only when that read is
 * empty, to tell a FIFO put in its place (-EINVAL, as read_tree_file()). */
static int read_listed_file(Filter *f, UnitGroup *g, int dfd, const char *name, const char *path, size_t path_len,
                            bool framed) {
        char *data = NULL;
        size_t size = 0;
        int fd, r;

        fd = openat(dfd, name, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                r = -errno;
        else {
                r = read_full_fd_regular(fd, UNIT_FILE_MAX, &data, &size);
                close(fd);
        }
        return group_add_read(f, g, path, path_len, true, framed, r, data, size, false, NULL);
}

/* Drop-ins of DIR/NAME.d/ in file-name order. Symlinks (the directory
 * itself or its files) are followed only when they stay inside the tree.
 * parent: the descriptor of DIR (NAME.d is opened below it), or AT_FDCWD
 * to open dir by its path; type: NAME.d's type as DIR's listing says, or
 * DT_UNKNOWN (then it is lstat()ed). */
static int group_read_dropins(Filter *f, UnitGroup *g, const char *dir, int parent, unsigned char type, bool framed,
                              const char *tree) {
        _cleanup_(dir_list_done) DirList l = DIR_LIST_INIT;
        _cleanup_(strbuf_done) StrBuf p = {};
        const char *slash = strrchr(dir, '/');
        struct stat st;
        size_t dir_len;
        int fd, r = 0;

        if (type == DT_UNKNOWN) {
                if (lstat(dir, &st) < 0)
                        return errno == ENOENT ? 0 : dropin_failure(f, g, dir, -errno, "cannot read directory");
                type = IFTODT(st.st_mode);
        }
        if (type == DT_LNK) {
                r = inside_tree(tree, dir, NULL);
                if (r == -ENOMEM)
                        return r;
                if (r <= 0)
                        return dropin_failure(f, g, dir, r < 0 ? r : 0,
                                              "symlinked drop-in directory does not lead to a directory inside the tree; not read");
        }

        /* Below DIR when it is open: a path lookup of one component. */
        if (parent != AT_FDCWD && slash && slash[1])
                fd = openat(parent, slash + 1, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY);
        else
                fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY);
        r = fd < 0 ? -errno : dir_list_read_fd(&l, fd);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return dropin_failure(f, g, dir, r, "cannot read directory");
        r = strbuf_append_str(&p, dir);
        if (r >= 0)
                r = strbuf_append_char(&p, '/');
        if (r < 0)
                return r;
        dir_len = p.len;

        for (size_t i = 0; r >= 0 && i < l.n; i++) {
                const DirEntry *e = &l.entries[i];
                const char *name = e->name;
                unsigned char t;

                if (is_hidden(name)) {
                        r = note_hidden(f, dir, name);
                        continue;
                }
                p.len = dir_len;
                r = strbuf_append_str(&p, name);
                if (r < 0)
                        break;
                if (!endswith(name, ".conf")) {
                        f->n_not_units++;
                        if (f->verbose)
                                r = filter_report(f, DIAG_NOTE, "input.not-a-unit", p.data, NULL,
                                                  "not a drop-in (*.conf); not judged");
                        continue;
                }
                /* The listing's type spares an lstat() where it is known. */
                t = e->type;
                if (t == DT_UNKNOWN) {
                        if (fstatat(dir_list_fd(&l), name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                                r = dropin_failure(f, g, p.data, -errno, "cannot read");
                                continue;
                        }
                        t = IFTODT(st.st_mode);
                }
                if (t == DT_REG)
                        r = read_listed_file(f, g, dir_list_fd(&l), name, p.data, p.len, framed);
                else if (t == DT_LNK) {
                        _cleanup_free_ char *real = NULL;
                        char target[16];
                        ssize_t k = readlinkat(dir_list_fd(&l), name, target, sizeof(target) - 1);

                        if (k == 9 && memcmp(target, "/dev/null", 9) == 0) {
                                r = filter_report(f, DIAG_NOTE, "input.symlink", p.data, g->name,
                                                  "masked drop-in (symlink to /dev/null)");
                        } else if ((r = inside_tree(tree, p.data, &real)) == -ENOMEM)
                                ;
                        else if (r <= 0)
                                r = dropin_failure(f, g, p.data, r < 0 ? r : 0,
                                                   "symlinked drop-in does not lead to a file inside the tree; not read");
                        else
                                r = group_read_file(f, g, p.data, true, framed, true, FIX_REFUSE_LINK);
                } else
                        r = dropin_failure(f, g, p.data, t == DT_DIR ? -EISDIR : -EBADFD, "cannot read");
        }
        return r;
}

/* NAME.d beside the sorted listing l's entry i (NAME), or NULL: the names
 * that start with NAME follow it directly. */
static const DirEntry *dropin_dir_of(const DirList *l, size_t i) {
        const char *name = l->entries[i].name;
        size_t n = l->entries[i].len;

        for (size_t j = i + 1; j < l->n && l->entries[j].len >= n && memcmp(l->entries[j].name, name, n) == 0; j++)
                if (l->entries[j].len == n + 2 && memcmp(l->entries[j].name + n, ".d", 2) == 0)
                        return &l->entries[j];
        return NULL;
}

/* The unit l's entry i, at path (DIR/NAME; the buffer is the caller's and
 * left as it was), read into file (its data is taken, or released on
 * failure), with its drop-ins when l has NAME.d. */
static int process_unit(Filter *f, const DirList *l, size_t i, EntryName en, StrBuf *path, BatchFile *file,
                        bool framed, const char *tree) {
        UnitGroup *g;
        size_t len = path->len;
        const DirEntry *d;
        int r;

        /* The group's name is the listing's, which outlives it; what the
         * walk knows of it already goes with it. */
        r = filter_group_new(f, l->entries[i].name, &g);
        if (r < 0) {
                batch_file_done(file);
                return r;
        }
        g->name_len = l->entries[i].len;
        g->name_classified = true;
        g->name_kind = en.kind;
        if (en.kind >= 0)
                g->name_type = en.type;
        g->has_fragment = true;
        r = group_add_read(f, g, path->data, path->len, false, framed, file->error, file->data, file->size,
                           file->borrowed, NULL);
        file->data = NULL;      /* taken */
        if (r >= 0 && (d = dropin_dir_of(l, i))) {
                r = strbuf_append(path, ".d", 2);
                if (r >= 0)
                        r = group_read_dropins(f, g, path->data, dir_list_fd(l), dir_list_type(l, d), framed, tree);
                path->len = len;
                path->data[len] = '\0';
        }
        if (r >= 0)
                r = finish_group(f, g);
        filter_group_recycle(f, g);
        return r;
}

/* DIR/NAME.d without a unit file NAME beside it; parent and type as for
 * group_read_dropins(). */
static int process_orphan_dropins(Filter *f, const char *dir, const char *dname, int parent, unsigned char type,
                                  bool framed, const char *tree) {
        _cleanup_(unit_group_freep) UnitGroup *g = NULL;
        _cleanup_free_ char *unit = NULL, *path = NULL;
        int r;

        unit = strndup(dname, strlen(dname) - 2);
        if (!unit || asprintf(&path, "%s%s%s", dir, *dir ? "/" : "", dname) < 0)
                return -ENOMEM;
        r = unit_group_new(unit, &g);
        if (r < 0)
                return r;
        r = group_read_dropins(f, g, path, parent, type, framed, tree);
        if (r >= 0 && (g->n_files > 0 || g->unreadable))
                r = finish_group(f, g);
        return r;
}

static int note_symlink(Filter *f, const char *path) {
        char target[4096];
        ssize_t n = readlink(path, target, sizeof(target) - 1);

        if (n < 0)
                return input_error(f, path, -errno, "cannot read link");
        target[n] = '\0';
        if (streq(target, "/dev/null"))
                return filter_report(f, DIAG_NOTE, "input.symlink", path, NULL,
                                     "masked (symlink to /dev/null); not copied");
        return filter_report(f, DIAG_NOTE, "input.symlink", path, NULL, "alias of '%s' (symlink); not copied",
                             target);
}

/* NAME.d where NAME is a unit name or a unit type: a drop-in directory.
 * Anything else ending in .d (dracut's modules.d) is an ordinary subtree. */
static bool is_dropin_dir_name(const char *name) {
        /* On the stack: an allocation that failed here would make a drop-in
         * directory an ordinary subtree, and its unit would change without
         * a word. A stem this long is no unit name anyway. */
        char stem[UNIT_NAME_MAX];
        size_t n = strlen(name) - 2;

        if (n >= sizeof(stem))
                return false;
        memcpy(stem, name, n);
        stem[n] = '\0';
        return is_unit_file_name(stem) || unit_type_from_string(stem) >= 0;
}

/* NAME.wants/, .requires/, .upholds/ hold dependency links, not unit
 * files: each entry is counted as not judged (and named with -v), not
 * followed. */
static int note_dependency_dir(Filter *f, const char *dir, int parent, const char *name) {
        _cleanup_(dir_list_done) DirList l = DIR_LIST_INIT;
        int fd, r;

        /* Listed below its parent's descriptor: no scandir() (an fstat
         * and an allocation per entry more). */
        fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY);
        r = fd < 0 ? -errno : dir_list_read_fd(&l, fd);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return input_error(f, dir, r, "cannot read directory");
        for (size_t i = 0; r >= 0 && i < l.n; i++) {
                const char *e = l.entries[i].name;

                if (is_hidden(e))
                        r = note_hidden(f, dir, e);
                else {
                        _cleanup_free_ char *p = NULL;

                        f->n_not_units++;
                        if (!f->verbose)
                                ;
                        else if (asprintf(&p, "%s/%s", dir, e) < 0)
                                r = -ENOMEM;
                        else
                                r = filter_report(f, DIAG_NOTE, "input.not-a-unit", p, NULL,
                                                  "in a dependency directory; not followed, not judged");
                }
        }
        return r;
}

static int walk_dir(Filter *f, const char *dir, unsigned depth, const char *tree) {
        _cleanup_(dir_list_done) DirList l = DIR_LIST_INIT;
        _cleanup_(strbuf_done) StrBuf path = {};
        _cleanup_free_ EntryName *names = NULL;
        size_t dir_len;
        int r = 0;

        if (depth > DIR_DEPTH_MAX)
                return input_error(f, dir, -ELOOP, "directory tree too deep");

        r = dir_list_open(&l, dir);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return input_error(f, dir, r, "cannot read directory");

        /* Which entries have a unit's name, once; DIR/NAME is made in one
         * buffer for every unit of the directory. */
        names = malloc_multiply(l.n, sizeof(EntryName));
        if (!names)
                return -ENOMEM;
        for (size_t i = 0; i < l.n; i++)
                names[i] = l.entries[i].name[0] != '.' ? entry_name(&l.entries[i]) : (EntryName) { -1, -1 };
        r = strbuf_append_str(&path, dir);
        if (r >= 0)
                r = strbuf_append_char(&path, '/');
        if (r < 0)
                return r;
        dir_len = path.len;

        /* Units of this directory first, each with its drop-ins, their
         * files read a batch at a time... */
        for (size_t i = 0; r >= 0 && i < l.n;) {
                BatchFile files[UNIT_READ_BATCH];
                size_t k = 0, used = 0, end;

                for (end = i; end < l.n && k < UNIT_READ_BATCH; end++) {
                        DirEntry *e = &l.entries[end];

                        if (names[end].type < 0)
                                continue;
                        e->type = dir_list_type(&l, e);
                        if (e->type == DT_REG)
                                files[k++] = (BatchFile) { .dfd = dir_list_fd(&l), .name = e->name };
                }
                if (k > 0) {
                        if (!f->batch)
                                r = file_batch_new(f->plain_reads, &f->batch);
                        if (r >= 0)
                                r = file_batch_read(f->batch, files, k, UNIT_FILE_MAX, true);
                        if (r < 0)
                                return r;
                }

                for (; r >= 0 && i < end; i++) {
                        const DirEntry *e = &l.entries[i];

                        if (names[i].type < 0)
                                continue;
                        if (e->type == DT_UNKNOWN)
                                continue;       /* gone meanwhile */
                        path.len = dir_len;
                        r = strbuf_append_str(&path, e->name);
                        if (r < 0)
                                break;
                        if (e->type == DT_REG)
                                r = process_unit(f, &l, i, names[i], &path, &files[used++], true, tree);
                        /* Symlinks are aliases or masks, not content: say so. */
                        else if (e->type == DT_LNK)
                                r = note_symlink(f, path.data);
                        else {
                                f->n_not_units++;
                                r = filter_report(f, DIAG_WARNING, "input.not-a-file", path.data, NULL,
                                                  "has a unit name but is not a regular file; skipped");
                        }
                }
                for (; used < k; used++)
                        batch_file_done(&files[used]);
        }

        /* ...then drop-in directories without a unit here, then subtrees. */
        for (size_t i = 0; r >= 0 && i < l.n; i++) {
                const DirEntry *e = &l.entries[i];
                _cleanup_free_ char *p = NULL;
                const char *name = e->name;
                bool unit_name, dropin_dir;
                unsigned char type;

                if (is_hidden(name)) {
                        r = note_hidden(f, dir, name);
                        continue;
                }
                if (name[0] == '.')
                        continue;
                unit_name = names[i].type >= 0;
                type = dir_list_type(&l, e);
                if (type == DT_UNKNOWN || (type == DT_REG && unit_name))
                        continue;       /* gone, or a unit read above */
                /* A symlinked NAME.d is a drop-in directory too (followed
                 * only inside the tree). */
                dropin_dir = endswith(name, ".d") && is_dropin_dir_name(name);
                if (type == DT_LNK && dropin_dir)
                        type = DT_DIR;
                p = strjoin(dir, "/", name);
                if (!p)
                        return -ENOMEM;
                if (type != DT_DIR) {
                        /* Files that are not units: counted, listed with -v. */
                        if (!unit_name) {
                                f->n_not_units++;
                                if (f->verbose)
                                        r = filter_report(f, DIAG_NOTE, "input.not-a-unit", p, NULL,
                                                          type == DT_LNK ? "symlink that is not a unit; not followed"
                                                                         : "not a unit file; not judged");
                        }
                        continue;
                }
                if (dropin_dir) {
                        _cleanup_free_ char *unit = strndup(name, strlen(name) - 2);
                        const DirEntry *u;

                        if (!unit)
                                return -ENOMEM;
                        u = dir_list_find(&l, unit);
                        if (u && dir_list_type(&l, u) == DT_REG && is_unit_file_name(unit))
                                continue; /* read with its unit */
                        r = process_orphan_dropins(f, dir, name, dir_list_fd(&l), dir_list_type(&l, e), true, tree);
                        continue;
                }
                if (endswith(name, ".wants") || endswith(name, ".requires") ||
                    endswith(name, ".upholds")) {
                        r = note_dependency_dir(f, p, dir_list_fd(&l), name);
                        continue;
                }
                r = walk_dir(f, p, depth + 1, tree);
        }
        return r;
}

int filter_path(Filter *f, const char *given, bool framed) {
        _cleanup_free_ char *trimmed = strdup(given);
        const char *path = trimmed;
        _cleanup_(unit_group_freep) UnitGroup *g = NULL;
        _cleanup_free_ char *name = NULL, *dropin_of = NULL;
        struct stat st;
        int r;

        if (!trimmed)
                return -ENOMEM;
        /* "units/" and "units" are the same tree: no "units//app.service". */
        for (size_t n = strlen(trimmed); n > 1 && trimmed[n - 1] == '/'; n--)
                trimmed[n - 1] = '\0';

        if (stat(path, &st) < 0) {
                r = input_error(f, path, -errno, "cannot open");
                return r < 0 ? r : filter_flush(f);
        }
        if (S_ISDIR(st.st_mode)) {
                _cleanup_free_ char *tree = realpath(path, NULL);
                _cleanup_free_ char *base = path_basename_dup(path);
                unsigned units_before = f->n_units, not_units_before = f->n_not_units;

                if (!tree || !base)
                        return errno == ENOMEM || !base ? -ENOMEM : input_error(f, path, -errno, "cannot open");
                /* NAME.d given directly: the drop-ins of NAME. */
                if (endswith(base, ".d") && is_dropin_dir_name(base)) {
                        _cleanup_free_ char *parent = strndup(path, strlen(path) - strlen(base));

                        if (!parent)
                                return -ENOMEM;
                        /* "x.service.d/" names the same directory. */
                        if (*parent && endswith(parent, "/"))
                                parent[strlen(parent) - 1] = '\0';
                        r = process_orphan_dropins(f, parent, base, AT_FDCWD, DT_UNKNOWN, framed, tree);
                } else
                        r = walk_dir(f, path, 0, tree);
                if (r >= 0 && f->n_not_units > not_units_before && !f->verbose)
                        r = filter_report(f, DIAG_NOTE, "input.not-a-unit", path, NULL, "%u %s, not judged; -v lists them", f->n_not_units - not_units_before,
                                          f->n_not_units - not_units_before == 1 ? "file is not a unit file or drop-in"
                                                                                 : "files are not unit files or drop-ins");
                if (r >= 0 && f->n_units == units_before) {
                        f->n_input_errors++;
                        r = filter_report(f, DIAG_ERROR, "input.no-units", path, NULL, "no unit files found under %s",
                                          path);
                }
                return r < 0 ? r : filter_flush(f);
        }

        /* A single file: a unit, or a drop-in if it sits in NAME.d/. */
        r = cat_dropin_unit_name(path, &dropin_of);
        if (r < 0)
                return r;
        name = dropin_of ? strdup(dropin_of) : path_basename_dup(path);
        if (!name)
                return -ENOMEM;
        r = unit_group_new(name, &g);
        if (r < 0)
                return r;
        g->has_fragment = !dropin_of;
        r = group_read_file(f, g, path, dropin_of != NULL, framed, false,
                            lstat(path, &st) == 0 && S_ISLNK(st.st_mode) ? FIX_REFUSE_LINK : NULL);
        if (r >= 0 && (g->n_files > 0 || g->unreadable))
                r = finish_group(f, g);
        return r < 0 ? r : filter_flush(f);
}

/* A unit file or drop-in named on the command line, read already (its
 * data taken and done with here; error < 0 when it could not be read):
 * what filter_path() does with a regular file that is not a symlink.
 * unit_base: the file name of a unit file (not in a NAME.d/), as
 * filter_paths() found it, which outlives the group; NULL to work it out
 * here. */
static int filter_read_file(Filter *f, const char *path, const char *unit_base, bool framed, BatchFile *file) {
        bool borrowed = file->borrowed;
        char *data = TAKE_PTR(file->data);
        _cleanup_free_ char *dropin_of = NULL;
        UnitGroup *g;
        bool dropin;
        int r;

        r = unit_base ? 0 : cat_dropin_unit_name(path, &dropin_of);
        dropin = dropin_of != NULL;
        if (r >= 0 && !unit_base && !dropin) {
                const char *slash = strrchr(path, '/');

                unit_base = slash ? slash + 1 : path;   /* path outlives the group too */
        }
        if (r >= 0)
                r = filter_group_new(f, unit_base, &g);
        if (r < 0) {
                if (!borrowed)
                        free(data);
                return r;
        }
        if (dropin) {
                /* The group's own copy of the name, freed with it. */
                g->name = TAKE_PTR(dropin_of);
                g->name_borrowed = false;
        } else {
                /* The unit file's name classified once, here, for the
                 * reader (its length and type) and for the check of the
                 * name (finish_group()), which would each work it out. */
                g->name_len = strlen(unit_base);
                g->name_kind = unit_name_classify_type_n(unit_base, g->name_len, &g->name_type);
                g->name_classified = true;
        }
        g->has_fragment = !dropin;
        r = group_add_read(f, g, path, strlen(path), dropin, framed, file->error, data, file->size, borrowed, NULL);
        if (r >= 0 && (g->n_files > 0 || g->unreadable))
                r = finish_group(f, g);
        filter_group_recycle(f, g);
        return r < 0 ? r : filter_flush(f);
}

/* ---- several paths ------------------------------------------------------ */

/* The resolved directory that holds path (a file). */
static char *dir_of_realpath(const char *path) {
        _cleanup_free_ char *dir = NULL;
        const char *slash = strrchr(path, '/');

        dir = !slash ? strdup(".") : slash == path ? strdup("/") : strndup(path, (size_t) (slash - path));
        return dir ? realpath(dir, NULL) : NULL;
}

/* For a drop-in path ("DIR/NAME.d/X.conf"), the resolved DIR and NAME. */
static int dropin_home(const char *path, char **ret_dir, char **ret_name, bool *ret_named) {
        _cleanup_free_ char *name = NULL, *d = NULL, *parent = NULL;
        int r;

        /* Whether path names a drop-in at all, also when its directory
         * cannot be resolved. */
        r = cat_dropin_unit_name(path, &name);
        *ret_named = r > 0;
        if (r <= 0)
                return r;
        d = dir_of_realpath(path);       /* DIR/NAME.d */
        if (!d)
                return errno == ENOMEM ? -ENOMEM : 0;
        parent = dir_of_realpath(d);
        if (!parent)
                return errno == ENOMEM ? -ENOMEM : 0;
        *ret_dir = TAKE_PTR(parent);
        *ret_name = TAKE_PTR(name);
        return 1;
}

static int compare_basenames(const void *a, const void *b) {
        const char *x = *(const char *const *) a, *y = *(const char *const *) b;
        const char *sx = strrchr(x, '/'), *sy = strrchr(y, '/');

        return strcmp(sx ? sx + 1 : x, sy ? sy + 1 : y);
}

/* A unit file given together with drop-ins of it: judged as one unit, the
 * drop-ins in file-name order, as systemd applies them. */
static int process_given_unit(Filter *f, const char *path, const char **dropins, size_t n, bool framed) {
        _cleanup_(unit_group_freep) UnitGroup *g = NULL;
        _cleanup_free_ char *name = path_basename_dup(path);
        struct stat st;
        int r;

        if (!name)
                return -ENOMEM;
        r = unit_group_new(name, &g);
        if (r < 0)
                return r;
        g->has_fragment = true;
        qsort(dropins, n, sizeof(char *), compare_basenames);
        r = group_read_file(f, g, path, false, framed, false,
                            lstat(path, &st) == 0 && S_ISLNK(st.st_mode) ? FIX_REFUSE_LINK : NULL);
        for (size_t i = 0; r >= 0 && i < n; i++)
                r = group_read_file(f, g, dropins[i], true, framed, false,
                                    lstat(dropins[i], &st) == 0 && S_ISLNK(st.st_mode) ? FIX_REFUSE_LINK : NULL);
        if (r >= 0 && (g->n_files > 0 || g->unreadable))
                r = finish_group(f, g);
        return r < 0 ? r : filter_flush(f);
}

/* What filter_paths() knows about one argument. */
typedef struct GivenPath {
        bool regular;          /* a regular file itself (lstat(), not through a symlink) */
        bool unit;             /* a regular file, not in a NAME.d/ directory */
        const char *base;      /* its file name, in the argument (units only) */
        char *home, *name;     /* drop-ins: DIR (resolved) and NAME of DIR/NAME.d/X.conf */
        int dfd;               /* where it was looked at: a directory (or AT_FDCWD) */
        const char *rel;       /* and the path relative to it (in the argument) */
} GivenPath;

static void given_paths_free(GivenPath *g, size_t n) {
        for (size_t i = 0; g && i < n; i++) {
                free(g[i].home);
                free(g[i].name);
        }
        free(g);
}

/* Directories of the paths given held open, at most this many. */
#define GIVEN_DIRS_MAX 64

/* lstat()'s type of each path, below the directory it is read from too:
 * from one read of the entries of a directory that holds many of them
 * (dir_types_of_paths(): an fstatat() per path costs a system call each,
 * which on the machines measured costs more than matching the name; 472
 * corpus files named on the command line: 0.63 ms of 7.2 ms), else by
 * itself; always by itself with plain reads (UNITGUARD_IO_URING=0), so
 * that tests/unit/tree-accounting.py compares the two ways. */
static int given_paths_scan(DirFds *dirs, char *const *paths, size_t n, bool list_dirs, GivenPath *g) {
        _cleanup_free_ int *dfd = malloc_multiply(n ? n : 1, sizeof(int));
        _cleanup_free_ const char **rel = malloc_multiply(n ? n : 1, sizeof(const char *));
        _cleanup_free_ unsigned char *types = malloc(n ? n : 1);
        int r;

        if (!dfd || !rel || !types)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++) {
                if (streq(paths[i], "-")) {
                        dfd[i] = -EBADF;
                        rel[i] = paths[i];
                        continue;
                }
                g[i].dfd = dir_fds_at(dirs, paths[i], true, &g[i].rel);
                /* Not below a directory of its own: looked at by itself. */
                dfd[i] = g[i].dfd == dirs->base ? -EBADF : g[i].dfd;
                rel[i] = g[i].rel;
        }
        if (list_dirs) {
                r = dir_types_of_paths(dfd, rel, n, types);
                if (r < 0)
                        return r;
        } else
                memset(types, DT_UNKNOWN, n);

        for (size_t i = 0; i < n; i++) {
                struct stat st;
                mode_t mode;
                const char *slash;
                bool named;

                if (streq(paths[i], "-") || dir_type_mode(types[i], g[i].dfd, g[i].rel, &mode) < 0)
                        continue;
                g[i].regular = S_ISREG(mode);
                if (S_ISLNK(mode)) {
                        if (stat(paths[i], &st) < 0)
                                continue;
                        mode = st.st_mode;
                }
                if (S_ISDIR(mode))
                        continue;
                /* A drop-in that is not a regular file (a FIFO, a device)
                 * still belongs to its unit: that unit is then judged as
                 * unreadable, not written without it. */
                r = dropin_home(paths[i], &g[i].home, &g[i].name, &named);
                if (r < 0)
                        return r;
                if (r > 0 || !S_ISREG(mode))
                        continue;
                if (named)
                        continue;       /* a drop-in whose directory cannot be resolved */
                g[i].unit = true;
                slash = strrchr(paths[i], '/');
                g[i].base = slash ? slash + 1 : paths[i];
        }
        return 0;
}

/* Regular files given alone (no drop-ins of theirs given beside them) are
 * read a batch at a time, ahead of judging them in order. */
typedef struct GivenBatch {
        BatchFile files[UNIT_READ_BATCH];
        size_t path[UNIT_READ_BATCH];   /* which argument each file is */
        size_t n, next;                 /* read, and the next not taken yet */
} GivenBatch;

static bool read_alone(const GivenPath *given, const size_t *owner, const size_t *n_dropins, size_t i) {
        return given[i].regular && !owner[i] && n_dropins[i] == 0;
}

static int given_batch_fill(Filter *f, GivenBatch *b, char *const *paths, const GivenPath *given,
                            const size_t *owner, const size_t *n_dropins, size_t from, size_t n) {
        int r;

        b->n = b->next = 0;
        for (size_t i = from; i < n && b->n < UNIT_READ_BATCH; i++) {
                if (owner[i])
                        continue;       /* judged with its unit, read then */
                if (!read_alone(given, owner, n_dropins, i)) {
                        /* Stdin and a unit with its drop-ins are read
                         * without the batch: the run goes on past them.
                         * Anything else may be a directory, walked through
                         * the batch: the run ends there, so that every file
                         * lent here is taken before the batch reads again. */
                        if (streq(paths[i], "-") || (given[i].regular && n_dropins[i] > 0))
                                continue;
                        break;
                }
                /* regular: looked at, so dfd and rel are set. */
                b->files[b->n] = (BatchFile) { .dfd = given[i].dfd, .name = given[i].rel };
                b->path[b->n++] = i;
        }
        if (!f->batch) {
                r = file_batch_new(f->plain_reads, &f->batch);
                if (r < 0)
                        return r;
        }
        /* Lent: each file's bytes are copied into its unit as it is taken,
         * and the batch is read again only once all are taken. */
        return file_batch_read(f->batch, b->files, b->n, UNIT_FILE_MAX, true);
}

static void given_batch_done(GivenBatch *b) {
        for (; b->next < b->n; b->next++)
                batch_file_done(&b->files[b->next]);
}

int filter_paths(Filter *f, char *const *paths, size_t n, bool framed) {
        _cleanup_free_ size_t *owner = new0(size_t, n ? n : 1);
        _cleanup_free_ size_t *n_dropins = new0(size_t, n ? n : 1);
        _cleanup_free_ const char **dropins = new0(const char *, n ? n : 1);
        _cleanup_(given_batch_done) GivenBatch batch = {};
        _cleanup_(dir_fds_done) DirFds dirs = DIR_FDS_INIT(AT_FDCWD, GIVEN_DIRS_MAX);
        GivenPath *given = new0(GivenPath, n ? n : 1);
        int r;

        if (!owner || !n_dropins || !dropins || !given) {
                given_paths_free(given, n);
                return -ENOMEM;
        }

        /* Which drop-ins sit next to a unit file also given: DIR/NAME.d/X.conf
         * beside DIR/NAME (the same directory once resolved). Only a unit
         * with the right file name has its directory resolved. */
        r = given_paths_scan(&dirs, paths, n, !f->plain_reads, given);
        for (size_t i = 0; r >= 0 && i < n; i++) {
                if (!given[i].home)
                        continue;
                for (size_t j = 0; j < n && !owner[i]; j++) {
                        _cleanup_free_ char *dir = NULL;

                        if (!given[j].unit || !streq(given[j].base, given[i].name))
                                continue;
                        dir = dir_of_realpath(paths[j]);
                        if (!dir && errno == ENOMEM)
                                r = -ENOMEM;
                        if (dir && streq(dir, given[i].home)) {
                                owner[i] = j + 1;
                                n_dropins[j]++;
                        }
                }
        }
        if (r < 0) {
                given_paths_free(given, n);
                return r;
        }

        r = 0;
        for (size_t i = 0; r >= 0 && i < n; i++) {
                size_t k = 0;

                if (owner[i])
                        continue;       /* judged with its unit */
                if (streq(paths[i], "-")) {
                        r = filter_stream(f, STDIN_FILENO, "<stdin>");
                        continue;
                }
                if (read_alone(given, owner, n_dropins, i)) {
                        BatchFile *file;

                        if (batch.next == batch.n) {
                                r = given_batch_fill(f, &batch, paths, given, owner, n_dropins, i, n);
                                if (r < 0)
                                        break;
                        }
                        file = &batch.files[batch.next++];
                        r = filter_read_file(f, paths[i], given[i].unit ? given[i].base : NULL, framed, file);
                        continue;
                }
                for (size_t j = 0; j < n; j++) {
                        bool dup = false;

                        if (owner[j] != i + 1)
                                continue;
                        /* The same path given twice is read once. */
                        for (size_t m = 0; m < k && !dup; m++)
                                dup = streq(dropins[m], paths[j]);
                        if (!dup)
                                dropins[k++] = paths[j];
                }
                r = k > 0 ? process_given_unit(f, paths[i], dropins, k, framed) : filter_path(f, paths[i], framed);
        }
        given_paths_free(given, n);
        return r;
}
