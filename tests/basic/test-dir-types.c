/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* dir_types_of(): each name asked about gets the type lstat() gives it (or
 * DT_UNKNOWN, for the caller to look at), a name not in the directory
 * DT_UNKNOWN, a name asked twice the same type twice; nothing is read for
 * too few names or too large a directory, and a descriptor that is not a
 * directory is an error. dir_types_of_paths() does it per directory for
 * paths given in any order; dir_type_mode() falls back to fstatat(). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/dir-types.h"
#include "test-tree.h"
#include "tests.h"

static char tmpl[] = "/tmp/test-dir-types-XXXXXX";
static const char *top;

TEST(setup_fixture) {
        char name[64], p[512];

        top = mkdtemp(tmpl);
        CHECK(top != NULL);
        tree_dir(top, "small");
        for (int i = 0; i < 40; i++) {
                snprintf(name, sizeof(name), "small/f%02d.service", i);
                tree_file(top, name, "[Unit]\n");
        }
        tree_dir(top, "small/sub.d");
        tree_link(top, "f00.service", "small/alias.service");
        snprintf(p, sizeof(p), "%s/small/fifo.service", top);
        CHECK(mkfifo(p, 0644) == 0);
        tree_dir(top, "large");
        for (int i = 0; i < 600; i++) {
                snprintf(name, sizeof(name), "large/e%03d", i);
                tree_file(top, name, "");
        }
}

static int open_dir(const char *rel) {
        char p[512];
        int fd;

        snprintf(p, sizeof(p), "%s/%s", top, rel);
        fd = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
        CHECK(fd >= 0);
        return fd;
}

/* What readdir() gives name in small/: its d_type, DT_UNKNOWN if absent. */
static unsigned char readdir_type(const char *name) {
        char p[512];
        DIR *d;
        struct dirent *de;
        unsigned char t = DT_UNKNOWN;

        snprintf(p, sizeof(p), "%s/small", top);
        d = opendir(p);
        CHECK(d != NULL);
        while (d && (de = readdir(d)))
                if (strcmp(de->d_name, name) == 0)
                        t = de->d_type;
        if (d)
                closedir(d);
        return t;
}

TEST(types_as_lstat_gives_them) {
        static const char *const names[] = {
                "f00.service", "f01.service", "f17.service", "f39.service", "sub.d", "alias.service",
                "fifo.service", "missing.service", "f17.service", "f40.service", "f39.service",
        };
        size_t n = sizeof(names) / sizeof(names[0]);
        unsigned char types[sizeof(names) / sizeof(names[0])];
        int dfd = open_dir("small"), known = 0;

        CHECK_INT_EQ(dir_types_of(dfd, names, n, types), 1);
        for (size_t i = 0; i < n; i++) {
                struct stat st;

                CHECK_INT_EQ(types[i], readdir_type(names[i]));
                if (fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0) {
                        CHECK_INT_EQ(errno, ENOENT);
                        CHECK_INT_EQ(types[i], DT_UNKNOWN);
                        continue;
                }
                /* A file system may give no types; where it does, lstat()'s. */
                if (types[i] == DT_UNKNOWN)
                        continue;
                CHECK_INT_EQ(types[i], IFTODT(st.st_mode));
                known++;
        }
        /* Asked twice: the same answer twice. */
        CHECK_INT_EQ(types[8], types[2]);
        CHECK_INT_EQ(types[10], types[3]);
        printf("%d of %zu types from the listing\n", known, n);
        close(dfd);
}

TEST(not_worth_listing) {
        static const char *const names[] = { "e000", "e001", "e002", "e003", "e004", "e005", "e006", "e599" };
        unsigned char types[8];
        struct stat st;
        int dfd = open_dir("large"), r;

        /* Seven names: too few. */
        memset(types, DT_REG, sizeof(types));
        CHECK_INT_EQ(dir_types_of(dfd, names, 7, types), 0);
        for (size_t i = 0; i < 7; i++)
                CHECK_INT_EQ(types[i], DT_UNKNOWN);

        /* Eight names in a directory of 600 entries: listed only where it
         * is no larger than 1 KiB per name. */
        CHECK(fstat(dfd, &st) == 0);
        r = dir_types_of(dfd, names, 8, types);
        CHECK_INT_EQ(r, st.st_size > 8 * (off_t) DIR_TYPES_BYTES_PER_NAME ? 0 : 1);
        for (size_t i = 0; i < 8; i++)
                CHECK(types[i] == (r == 0 ? DT_UNKNOWN : types[i]));
        printf("600 entries, st_size %lld: %s\n", (long long) st.st_size, r ? "listed" : "not listed");
        close(dfd);
}

TEST(not_a_directory) {
        static const char *const names[] = { "a", "b", "c", "d", "e", "f", "g", "h" };
        unsigned char types[8];
        char p[512];
        int fd;

        snprintf(p, sizeof(p), "%s/small/f00.service", top);
        fd = open(p, O_RDONLY | O_CLOEXEC);
        CHECK(fd >= 0);
        CHECK_INT_EQ(dir_types_of(fd, names, 8, types), -ENOTDIR);
        for (size_t i = 0; i < 8; i++)
                CHECK_INT_EQ(types[i], DT_UNKNOWN);
        close(fd);
}

/* Every path's type as readdir() gives it where its directory is small/
 * (read: ten of the names are there, DIR_TYPES_MIN_NAMES or more),
 * DT_UNKNOWN elsewhere; and dir_type_mode() as lstat() says either way. */
static void check_paths(const int *dfd, const char *const *names, size_t n, int small) {
        unsigned char types[32];

        CHECK(n <= sizeof(types));
        CHECK_INT_EQ(dir_types_of_paths(dfd, names, n, types), 0);
        for (size_t i = 0; i < n; i++) {
                mode_t mode;
                struct stat st;
                bool looked_up = dfd[i] == small && !strchr(names[i], '/');

                CHECK_INT_EQ(types[i], looked_up ? readdir_type(names[i]) : DT_UNKNOWN);
                if (dfd[i] < 0 || fstatat(dfd[i], names[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
                        continue;
                CHECK_INT_EQ(dir_type_mode(types[i], dfd[i], names[i], &mode), 0);
                CHECK_INT_EQ((int) (mode & S_IFMT), (int) (st.st_mode & S_IFMT));
        }
}

TEST(paths_by_directory) {
        /* small/ holds 10 of the paths, interleaved with sub.d/ (3, too few
         * to read) and paths that are not looked up. */
        static const char *const names[] = {
                "f00.service", "a", "f01.service", "b", "f02.service", "f03.service", "c", "sub.d",
                "f04.service", "f05.service", "alias.service", "fifo.service", "x/f06.service", "f07.service",
        };
        /* The same, grouped by directory: in order already (no sort), and
         * with the directories the other way round. */
        static const char *const grouped[] = {
                "f00.service", "f01.service", "f02.service", "f03.service", "sub.d", "f04.service",
                "f05.service", "alias.service", "fifo.service", "x/f06.service", "a", "b", "c", "f07.service",
        };
        size_t n = sizeof(names) / sizeof(names[0]);
        int small = open_dir("small"), sub = open_dir("small/sub.d");
        int dfd[] = { small, sub, small, sub, small, small, sub, small, small, small, small, small, small, -EBADF };
        int ascending[] = { small, small, small, small, small, small,
                            small, small, small, small, sub, sub, sub, -EBADF };
        int descending[] = { sub, sub, sub, small, small, small, small, small, small, small, small, small, small, -EBADF };
        static const char *const descending_names[] = {
                "a", "b", "c", "f00.service", "f01.service", "f02.service", "f03.service", "sub.d",
                "f04.service", "f05.service", "alias.service", "fifo.service", "x/f06.service", "f07.service",
        };

        tree_file(top, "small/sub.d/a", "");
        tree_file(top, "small/sub.d/b", "");
        tree_file(top, "small/sub.d/c", "");
        CHECK(small < sub);
        check_paths(dfd, names, n, small);
        check_paths(ascending, grouped, n, small);
        check_paths(descending, descending_names, n, small);
        CHECK(dir_type_mode(DT_UNKNOWN, small, "missing.service", &(mode_t) { 0 }) == -ENOENT);
        close(small);
        close(sub);
}

TEST(cleanup_fixture) {
        tree_remove(top);
}

TESTS_MAIN(T(setup_fixture), T(types_as_lstat_gives_them), T(not_worth_listing), T(not_a_directory),
           T(paths_by_directory), T(cleanup_fixture))
