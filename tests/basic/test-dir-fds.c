/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* dir_fds_at(): a path is opened below the longest held directory that
 * holds it, or below its own directory, added while there is room; a
 * directory that cannot be opened, a path without a directory or one past
 * the limit is used whole, relative to the base. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/dir-fds.h"
#include "test-tree.h"
#include "tests.h"

static char tmpl[] = "/tmp/test-dir-fds-XXXXXX";
static const char *top;

/* The entry at fd/name is the file at top/rel. */
static void same_file(int fd, const char *name, const char *rel) {
        struct stat a, b;
        char p[512];

        snprintf(p, sizeof(p), "%s/%s", top, rel);
        CHECK(fstatat(fd, name, &a, AT_SYMLINK_NOFOLLOW) == 0);
        CHECK(stat(p, &b) == 0);
        CHECK(a.st_ino == b.st_ino && a.st_dev == b.st_dev);
}

TEST(setup_fixture) {
        top = mkdtemp(tmpl);
        CHECK(top != NULL);
        tree_dir(top, "a");
        tree_dir(top, "a/b");
        tree_file(top, "a/x.service", "");
        tree_file(top, "a/b/y.service", "");
        tree_file(top, "a/b/z.service", "");
        tree_file(top, "file", "");
}

TEST(own_directory_added) {
        DirFds d = DIR_FDS_INIT(AT_FDCWD, 8);
        char p[512], q[512];
        const char *name;
        int fd, fd2;

        snprintf(p, sizeof(p), "%s/a/b/y.service", top);
        fd = dir_fds_at(&d, p, true, &name);
        CHECK(fd >= 0);
        CHECK_STR_EQ(name, "y.service");
        same_file(fd, name, "a/b/y.service");
        CHECK_INT_EQ((int) d.n, 1);
        /* The same directory again: the same descriptor, nothing added. */
        snprintf(q, sizeof(q), "%s/a/b/z.service", top);
        fd2 = dir_fds_at(&d, q, true, &name);
        CHECK_INT_EQ(fd2, fd);
        CHECK_STR_EQ(name, "z.service");
        CHECK_INT_EQ((int) d.n, 1);
        /* Not held and not to be added: the whole path. */
        snprintf(p, sizeof(p), "%s/a/x.service", top);
        CHECK_INT_EQ(dir_fds_at(&d, p, false, &name), AT_FDCWD);
        CHECK(name == p);
        /* No directory part, or a trailing slash: the whole path. */
        CHECK_INT_EQ(dir_fds_at(&d, "x.service", true, &name), AT_FDCWD);
        CHECK_STR_EQ(name, "x.service");
        snprintf(p, sizeof(p), "%s/a/", top);
        CHECK_INT_EQ(dir_fds_at(&d, p, true, &name), AT_FDCWD);
        dir_fds_done(&d);
}

TEST(longest_holder_and_limits) {
        DirFds d = DIR_FDS_INIT(AT_FDCWD, 1);
        char p[512];
        const char *name;
        int fd;

        snprintf(p, sizeof(p), "%s/a", top);
        CHECK_INT_EQ(dir_fds_add(&d, p), 0);
        snprintf(p, sizeof(p), "%s/a/b", top);
        CHECK_INT_EQ(dir_fds_add(&d, p), 0);
        /* Below a/b: the longer one answers. */
        snprintf(p, sizeof(p), "%s/a/b/y.service", top);
        fd = dir_fds_at(&d, p, false, &name);
        CHECK_STR_EQ(name, "y.service");
        same_file(fd, name, "a/b/y.service");
        snprintf(p, sizeof(p), "%s/a/x.service", top);
        fd = dir_fds_at(&d, p, false, &name);
        CHECK_STR_EQ(name, "x.service");
        same_file(fd, name, "a/x.service");
        /* "a/bb" is not below "a/b". */
        snprintf(p, sizeof(p), "%s/a/bb/w.service", top);
        fd = dir_fds_at(&d, p, false, &name);
        CHECK_STR_EQ(name, "bb/w.service");
        /* At the limit (max 1, two held): nothing more is added. */
        snprintf(p, sizeof(p), "%s/file/y.service", top);
        CHECK_INT_EQ(dir_fds_at(&d, p, true, &name), AT_FDCWD);
        CHECK_INT_EQ((int) d.n, 2);
        dir_fds_done(&d);
}

TEST(unopenable_directory) {
        DirFds d = DIR_FDS_INIT(AT_FDCWD, 8);
        char p[512];
        const char *name;

        /* "file" is not a directory: the whole path, whose error is ENOTDIR. */
        snprintf(p, sizeof(p), "%s/file/y.service", top);
        CHECK_INT_EQ(dir_fds_at(&d, p, true, &name), AT_FDCWD);
        CHECK(name == p);
        CHECK(d.items[0].fd == -ENOTDIR);
        CHECK_INT_EQ(dir_fds_at(&d, p, true, &name), AT_FDCWD);
        CHECK_INT_EQ((int) d.n, 1);
        dir_fds_done(&d);
        /* Relative to a base descriptor. */
        d = DIR_FDS_INIT(open(top, O_PATH | O_DIRECTORY | O_CLOEXEC), 8);
        CHECK(d.base >= 0);
        CHECK_INT_EQ(dir_fds_add(&d, "a/b/"), 0);
        CHECK(dir_fds_at(&d, "a/b/y.service", false, &name) != d.base);
        CHECK_STR_EQ(name, "y.service");
        close(d.base);
        dir_fds_done(&d);
}

TEST(cleanup_fixture) {
        tree_remove(top);
}

TESTS_MAIN(T(setup_fixture), T(own_directory_added), T(longest_holder_and_limits), T(unopenable_directory),
           T(cleanup_fixture))
