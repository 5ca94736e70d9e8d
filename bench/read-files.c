/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The floor of reading unit files: what any per-file tool pays before it
 * looks at a byte. Each argument is a file, read whole and closed, or a
 * directory, walked in readdir() order (entries opened relative to the
 * directory's descriptor, subdirectories recursively). Plain blocking
 * system calls, one buffer for all files, nothing written; the exit code
 * is 1 if anything could not be read.
 *
 * bench/files-bench.py runs it on the same inputs as `unitguard check`,
 * so that unitguard's marginal cost per unit can be set against the
 * kernel's part of it (open, read, close; getdents for trees). */
#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int main(int argc, char **argv) {
        static char buf[BUF_SIZE];
        bool ok = true;

        for (int i = 1; i < argc; i++)
                ok = read_at(AT_FDCWD, argv[i], buf, 0) && ok;
        return ok ? 0 : 1;
}
