/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/alloc-util.h"
#include "basic/fileio.h"
#include "hwdb-dirs.h"
#include "hwdb-source.h"

/* Largest source file we read (Debian's biggest is about 4 MB). */
#define HWDB_SOURCE_MAX ((size_t) 256 * 1024 * 1024)

const char *const hwdb_default_source_dirs[] = {
        "/etc/udev/hwdb.d",
        "/lib/udev/hwdb.d",
        NULL,
};

const char *const hwdb_default_bin_paths[] = {
        "/etc/systemd/hwdb/hwdb.bin",
        "/etc/udev/hwdb.bin",
        "/usr/lib/systemd/hwdb/hwdb.bin",
        "/lib/systemd/hwdb/hwdb.bin",
        "/lib/udev/hwdb.bin",
        NULL,
};

/* Not asprintf(): a one-key query would fault in printf's code pages for
 * this alone (each page fault of a fresh process costs more than all of
 * its lookup). */
char *hwdb_path_join(const char *root, const char *path) {
        size_t rl = root ? strlen(root) : 0, pl = strlen(path);
        char *s;

        while (rl > 0 && root[rl - 1] == '/')
                rl--;
        s = malloc(rl + pl + 1);
        if (!s)
                return NULL;
        if (rl > 0)
                memcpy(s, root, rl);
        memcpy(s + rl, path, pl + 1);
        return s;
}

void hwdb_source_list_done(HwdbSourceList *l) {
        for (size_t i = 0; i < l->n; i++) {
                free(l->files[i].name);
                free(l->files[i].path);
        }
        free(l->files);
        *l = (HwdbSourceList) {};
}

static int file_cmp(const void *a, const void *b) {
        return strcmp(((const HwdbSourceFile *) a)->name, ((const HwdbSourceFile *) b)->name);
}

static bool have_name(const HwdbSourceList *l, const char *name) {
        for (size_t i = 0; i < l->n; i++)
                if (streq(l->files[i].name, name))
                        return true;
        return false;
}

static void closedirp(DIR **d) {
        if (*d)
                closedir(*d);
}

int hwdb_source_list(const char *root, const char *const *dirs, HwdbSourceList *ret) {
        _cleanup_(hwdb_source_list_done) HwdbSourceList l = {};
        int r;

        for (const char *const *dir = dirs; *dir; dir++) {
                _cleanup_free_ char *dpath = NULL;
                _cleanup_(closedirp) DIR *d = NULL;
                struct dirent *de;

                dpath = hwdb_path_join(root, *dir);
                if (!dpath)
                        return -ENOMEM;
                d = opendir(dpath);
                if (!d) {
                        /* A missing directory is normal; anything else is
                         * an error, not an empty database. */
                        if (errno == ENOENT || errno == ENOTDIR)
                                continue;
                        return -errno;
                }

                /* Like systemd, only the name is looked at here: a
                 * directory or a dangling link named x.hwdb takes its
                 * slot and just contributes nothing when read. */
                for (;;) {
                        HwdbSourceFile f;

                        errno = 0;
                        de = readdir(d);
                        if (!de) {
                                if (errno != 0)
                                        return -errno;
                                break;
                        }

                        if (de->d_name[0] == '.' || !endswith(de->d_name, ".hwdb"))
                                continue;
                        if (have_name(&l, de->d_name))
                                continue;

                        r = GREEDY_REALLOC(l.files, l.allocated, l.n + 1);
                        if (r < 0)
                                return r;
                        f.name = strdup(de->d_name);
                        if (asprintf(&f.path, "%s/%s", dpath, de->d_name) < 0)
                                f.path = NULL;
                        if (!f.name || !f.path) {
                                free(f.name);
                                free(f.path);
                                return -ENOMEM;
                        }
                        l.files[l.n++] = f;
                }
        }

        if (l.n > 0)
                qsort(l.files, l.n, sizeof(HwdbSourceFile), file_cmp);
        *ret = l;
        l = (HwdbSourceList) {};
        return 0;
}

static int load_one(const char *path, uint16_t priority, HwdbTrie *t, DiagList *diags) {
        _cleanup_free_ char *buf = NULL;
        struct stat st;
        size_t size;
        int fd, r;

        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) {
                r = -errno;
                goto unreadable;
        }
        if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
                close(fd);
                /* systemd fails to read it and moves on without a word. */
                r = diag_add(diags, DIAG_WARNING, EFFECT_FILE_FAILED, "hwdb.not-a-file", path, 0,
                             NULL, NULL, "Is a directory, ignoring");
                return r < 0 ? r : 0;
        }
        r = read_full_fd(fd, HWDB_SOURCE_MAX, &buf, &size);
        close(fd);
        if (r < 0)
                goto unreadable;

        r = hwdb_source_parse(t, buf, size, path, priority, diags);
        return r < 0 ? r : 0;

unreadable:
        if (r == -ENOMEM)
                return r;
        r = diag_add(diags, DIAG_ERROR, EFFECT_FILE_FAILED, "hwdb.unreadable", path, 0, NULL, NULL,
                     "Failed to read file: %s", strerror(-r));
        return r < 0 ? r : 1;
}

int hwdb_source_list_load(const HwdbSourceList *l, HwdbTrie *t, DiagList *diags) {
        int failed = 0;

        for (size_t i = 0; i < l->n; i++) {
                /* Priorities are 16 bits in the format; systemd wraps too. */
                int r = load_one(l->files[i].path, (uint16_t) (i + 1), t, diags);
                if (r < 0)
                        return r;
                failed += r;
        }
        return failed;
}
