/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The floor of reading unit files: what any per-file tool pays before it
 * looks at a byte. Each argument is a file, read whole and closed, or a
 * directory, walked in readdir() order (entries opened relative to the
 * directory's descriptor, subdirectories recursively). Plain blocking
 * system calls, one buffer for all files, nothing written; the exit code
 * is 1 if anything could not be read.
 *
 * With --batch first, the files are read the way unitguard reads them:
 * through its own reader (src/basic/file-batch.c: io_uring, a batch of
 * up to 64 files in two round trips), each file opened relative to its
 * directory (src/basic/dir-fds.c), directories listed with getdents
 * (src/basic/dir-list.c) and their regular files read a batch at a time;
 * a file named as an argument looked at first, by one read of its
 * directory's entries when that directory holds many of the arguments
 * (src/basic/dir-types.c, as unitguard does).
 * That is the floor of unitguard's own reading, beside the plain one.
 *
 * bench/files-bench.py runs it on the same inputs as `unitguard check`,
 * so that unitguard's marginal cost per unit can be set against the
 * kernel's part of it (open, read, close; getdents for trees). */
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/dir-fds.h"
#include "basic/dir-list.h"
#include "basic/dir-types.h"
#include "basic/file-batch.h"

#define BUF_SIZE 65536

static bool read_fd(int fd, char *buf) {
        for (;;) {
                ssize_t n = read(fd, buf, BUF_SIZE);

                if (n == 0)
                        return true;
                if (n < 0)
                        return false;
        }
}

static bool read_at(int dfd, const char *name, char *buf, int depth);

static bool walk(int fd, char *buf, int depth) {
        DIR *d = fdopendir(fd);
        struct dirent *de;
        bool ok = true;

        if (!d) {
                close(fd);
                return false;
        }
        while ((de = readdir(d)))
                if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0)
                        ok = read_at(dirfd(d), de->d_name, buf, depth + 1) && ok;
        closedir(d);
        return ok;
}

static bool read_at(int dfd, const char *name, char *buf, int depth) {
        int fd = openat(dfd, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
        struct stat st;
        bool ok;

        if (fd < 0)
                return false;
        /* A directory fails read() with EISDIR: only then is it stat'ed,
         * so a file costs open, read, read (EOF), close. */
        if (read_fd(fd, buf)) {
                close(fd);
                return true;
        }
        if (depth > 64 || fstat(fd, &st) < 0 || !S_ISDIR(st.st_mode)) {
                close(fd);
                return false;
        }
        ok = walk(fd, buf, depth);
        return ok;
}

/* --batch: files a batch at a time, every one read whole or failed. */
#define BATCH 64
#define FILE_MAX (16u << 20)

static bool batch_read(FileBatch *b, BatchFile *files, size_t n) {
        bool ok = file_batch_read(b, files, n, FILE_MAX, true) == 0;

        for (size_t i = 0; i < n; i++) {
                ok = ok && files[i].error == 0;
                batch_file_done(&files[i]);
        }
        return ok;
}

static bool batch_walk(FileBatch *b, int dfd, const char *path, int depth) {
        DirList l = DIR_LIST_INIT;
        BatchFile files[BATCH];
        size_t n = 0;
        bool ok;
        int fd = depth > 64 ? -1 : openat(dfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

        /* The listing takes fd, and closes it on failure too. */
        if (fd < 0 || dir_list_read_fd(&l, fd) < 0)
                return false;
        ok = true;
        for (size_t i = 0; i < l.n; i++) {
                unsigned char t = dir_list_type(&l, &l.entries[i]);

                if (t == DT_DIR)
                        ok = batch_walk(b, dir_list_fd(&l), l.entries[i].name, depth + 1) && ok;
                else if (t == DT_REG) {
                        files[n++] = (BatchFile) { .dfd = dir_list_fd(&l), .name = l.entries[i].name };
                        if (n == BATCH) {
                                ok = batch_read(b, files, n) && ok;
                                n = 0;
                        }
                } else
                        ok = false;
        }
        ok = batch_read(b, files, n) && ok;
        dir_list_done(&l);
        return ok;
}

static int main_batch(int argc, char **argv) {
        DirFds dirs = DIR_FDS_INIT(AT_FDCWD, 64);
        BatchFile files[BATCH];
        int *dfd = calloc((size_t) argc + 1, sizeof(int));
        const char **name = calloc((size_t) argc + 1, sizeof(char *));
        unsigned char *types = calloc((size_t) argc + 1, 1);
        FileBatch *b;
        size_t n = 0;
        bool ok = true;

        if (!dfd || !name || !types || file_batch_new(false, &b) < 0)
                return 1;
        /* As `unitguard check FILE...` does: each argument looked at
         * below its directory, whose entries are read once when it holds
         * many of them (dir_types_of_paths()). */
        for (int i = 0; i < argc; i++)
                dfd[i] = dir_fds_at(&dirs, argv[i], true, &name[i]);
        if (dir_types_of_paths(dfd, name, (size_t) argc, types) < 0)
                return 1;
        for (int i = 0; i < argc; i++) {
                mode_t mode;

                if (dir_type_mode(types[i], dfd[i], name[i], &mode) < 0)
                        ok = false;
                else if (S_ISDIR(mode))
                        ok = batch_walk(b, dfd[i], name[i], 0) && ok;
                else {
                        files[n++] = (BatchFile) { .dfd = dfd[i], .name = name[i] };
                        if (n == BATCH) {
                                ok = batch_read(b, files, n) && ok;
                                n = 0;
                        }
                }
        }
        ok = batch_read(b, files, n) && ok;
        dir_fds_done(&dirs);
        file_batch_free(b);
        free(dfd);
        free(name);
        free(types);
        return ok ? 0 : 1;
}

int main(int argc, char **argv) {
        static char buf[BUF_SIZE];
        bool ok = true;

        if (argc > 1 && strcmp(argv[1], "--batch") == 0)
                return main_batch(argc - 2, argv + 2);
        for (int i = 1; i < argc; i++)
                ok = read_at(AT_FDCWD, argv[i], buf, 0) && ok;
        return ok ? 0 : 1;
}
