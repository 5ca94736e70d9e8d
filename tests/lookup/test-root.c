/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Path resolution inside a root: nothing leads out of it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lookup/root.h"
#include "test-tree.h"
#include "tests.h"

static char tmpl[] = "/tmp/ug-test-root-XXXXXX";
static const char *dir;

static void setup(void) {
        dir = mkdtemp(tmpl);
        CHECK(dir != NULL);
        tree_dir(dir, "usr");
        tree_dir(dir, "usr/lib");
        tree_dir(dir, "etc");
        tree_file(dir, "usr/lib/x.conf", "inside\n");
        tree_link(dir, "usr/lib", "lib");                    /* merged /usr */
        tree_link(dir, "/etc", "usr/lib/abs-etc");           /* absolute: the root's /etc */
        tree_link(dir, "../../../../../../etc/passwd", "usr/lib/climb");
        tree_link(dir, "loop-b", "usr/lib/loop-a");
        tree_link(dir, "loop-a", "usr/lib/loop-b");
        tree_link(dir, "/usr/lib/x.conf", "etc/abs-file");
        tree_link(dir, "/nonexistent/file", "etc/dangling");
}

static void chase_eq(const char *path, ChaseFlags flags, int want_r, const char *want) {
        Root root;
        char *got = NULL;
        int r;

        CHECK_INT_EQ(root_open(dir, &root), 0);
        r = root_chase(&root, path, flags, &got);
        CHECK_INT_EQ(r, want_r);
        if (want)
                CHECK_STR_EQ(got, want);
        free(got);
        root_done(&root);
}

TEST(symlinks_stay_inside) {
        chase_eq("/lib/x.conf", 0, 0, "/usr/lib/x.conf");
        chase_eq("/usr/lib/abs-etc", 0, 0, "/etc");
        /* ".." stops at the root: the host's /etc/passwd is never reached. */
        chase_eq("/usr/lib/climb", 0, -ENOENT, NULL);
        chase_eq("/usr/lib/climb", CHASE_NONEXISTENT, 0, "/etc/passwd");
        chase_eq("/../../usr/./lib//x.conf", 0, 0, "/usr/lib/x.conf");
        chase_eq("/etc/abs-file", 0, 0, "/usr/lib/x.conf");
        chase_eq("/etc/abs-file", CHASE_NOFOLLOW_LAST, 0, "/etc/abs-file");
        chase_eq("/lib/abs-etc", CHASE_NOFOLLOW_LAST, 0, "/usr/lib/abs-etc");
        chase_eq("/", 0, 0, "/");
}

TEST(loops_and_missing) {
        chase_eq("/usr/lib/loop-a", 0, -ELOOP, NULL);
        chase_eq("/etc/dangling", 0, -ENOENT, NULL);
        chase_eq("/etc/dangling", CHASE_NONEXISTENT, 0, "/nonexistent/file");
        chase_eq("/usr/lib/x.conf/below", 0, -ENOTDIR, NULL);
}

/* root_chase_stat(): the lstat() of the result only where the resolution
 * ended on a component it looked at. */
static void chase_mode_eq(const char *path, ChaseFlags flags, const char *want, mode_t want_type, off_t want_size) {
        struct stat st;
        Root root;
        char *got = NULL;

        CHECK_INT_EQ(root_open(dir, &root), 0);
        memset(&st, 0xff, sizeof(st));
        CHECK_INT_EQ(root_chase_stat(&root, path, flags, &got, &st), 0);
        CHECK_STR_EQ(got, want);
        CHECK_INT_EQ(st.st_mode & S_IFMT, want_type);
        if (want_type == S_IFREG)
                CHECK_INT_EQ(st.st_size, want_size);
        free(got);
        root_done(&root);
}

TEST(chase_stat) {
        chase_mode_eq("/lib/x.conf", 0, "/usr/lib/x.conf", S_IFREG, 7);
        chase_mode_eq("/etc/abs-file", 0, "/usr/lib/x.conf", S_IFREG, 7);
        chase_mode_eq("/etc/abs-file", CHASE_NOFOLLOW_LAST, "/etc/abs-file", S_IFLNK, 0);
        chase_mode_eq("/usr/lib", 0, "/usr/lib", S_IFDIR, 0);
        /* Not looked at: kept as written, or left by "..", or the root. */
        chase_mode_eq("/etc/dangling", CHASE_NONEXISTENT, "/nonexistent/file", 0, 0);
        chase_mode_eq("/usr/lib/nothing/../x.conf", CHASE_NONEXISTENT, "/usr/lib/x.conf", 0, 0);
        chase_mode_eq("/usr/lib/..", 0, "/usr", 0, 0);
        chase_mode_eq("/usr/lib/../lib", 0, "/usr/lib", S_IFDIR, 0);
        chase_mode_eq("/usr/lib/.", 0, "/usr/lib", 0, 0);
        chase_mode_eq("/", 0, "/", 0, 0);
}

TEST(read_inside_only) {
        Root root;
        char *data = NULL, *p = NULL;
        size_t size = 0;

        CHECK_INT_EQ(root_open(dir, &root), 0);
        CHECK_INT_EQ(root_chase(&root, "/etc/abs-file", 0, &p), 0);
        CHECK_INT_EQ(root_read_file(&root, p, 1024, &data, &size), 0);
        CHECK_STR_EQ(data, "inside\n");
        free(data);
        /* A resolved path is opened without following: a link is refused. */
        CHECK_INT_EQ(root_read_file(&root, "/etc/abs-file", 1024, &data, &size), -ELOOP);
        CHECK_INT_EQ(root_read_file(&root, "/usr/lib", 1024, &data, &size), -EISDIR);
        free(p);
        root_done(&root);
}

TEST(list_dir_inside_only) {
        DirList l;
        Root root;

        CHECK_INT_EQ(root_open(dir, &root), 0);
        CHECK_INT_EQ(root_list_dir(&root, "/usr/lib", &l), 0);
        /* Sorted by name, with the types the directory records. */
        CHECK_INT_EQ((int) l.n, 5);
        if (l.n == 5) {
                CHECK_STR_EQ(l.entries[0].name, "abs-etc");
                CHECK_STR_EQ(l.entries[1].name, "climb");
                CHECK_STR_EQ(l.entries[4].name, "x.conf");
                CHECK(l.entries[4].type == DT_REG || l.entries[4].type == DT_UNKNOWN);
        }
        /* The listing's descriptor is the directory's. */
        CHECK(faccessat(dir_list_fd(&l), "x.conf", R_OK, 0) == 0);
        dir_list_done(&l);
        /* A resolved path is not followed: "/lib" is a symlink. */
        CHECK(root_list_dir(&root, "/lib", &l) < 0);
        CHECK_INT_EQ(dir_list_fd(&l), -EBADF);
        CHECK_INT_EQ((int) l.n, 0);
        CHECK_INT_EQ(root_list_dir(&root, "/usr/lib/x.conf", &l), -ENOTDIR);
        root_done(&root);
}

/* The memo of directories: every directory a resolution passes through,
 * under its relative path, and nothing else (no symlink, no file, no
 * miss). A Root set up by hand (no memo) resolves the same. */
TEST(directory_memo) {
        Root root, plain = { .fd = -EBADF };
        const char *paths[] = { "/lib/x.conf", "/usr/lib/abs-etc", "/etc/abs-file", "/usr/lib/new", "/usr/lib",
                                "/etc/dangling" };
        char *a = NULL, *b = NULL, *path;
        struct stat sa, sb;

        CHECK_INT_EQ(root_open(dir, &root), 0);
        CHECK(root.dirs != NULL);
        plain.fd = root.fd;
        for (size_t round = 0; round < 2; round++)
                for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
                        int ra, rb;

                        memset(&sa, 0, sizeof(sa));
                        memset(&sb, 0, sizeof(sb));
                        ra = root_chase_stat(&root, paths[i], CHASE_NONEXISTENT, &a, &sa);
                        rb = root_chase_stat(&plain, paths[i], CHASE_NONEXISTENT, &b, &sb);

                        CHECK_INT_EQ(ra, rb);
                        CHECK_STR_EQ(a, b);
                        CHECK_INT_EQ(sa.st_mode, sb.st_mode);
                        CHECK(sa.st_ino == sb.st_ino);
                        free(a), free(b);
                        a = b = NULL;
                }
        CHECK_INT_EQ((int) strmap_size(root.dirs), 3);
        CHECK(strmap_get(root.dirs, "usr") != NULL);
        CHECK(strmap_get(root.dirs, "usr/lib") != NULL);
        CHECK(strmap_get(root.dirs, "etc") != NULL);
        CHECK(strmap_get(root.dirs, "lib") == NULL);                    /* a symlink */
        CHECK(strmap_get(root.dirs, "usr/lib/x.conf") == NULL);         /* a file */

        /* A miss is not remembered: a file made after it is found. */
        CHECK_INT_EQ(root_chase(&root, "/usr/lib/new", 0, &a), -ENOENT);
        path = malloc(strlen(dir) + 32);
        CHECK(path != NULL);
        sprintf(path, "%s/usr/lib/new", dir);
        CHECK(mkdir(path, 0755) == 0);
        CHECK_INT_EQ(root_chase(&root, "/usr/lib/new", 0, &a), 0);
        CHECK_STR_EQ(a, "/usr/lib/new");
        free(a);
        CHECK_INT_EQ(root_is_dir(&root, "/lib/new"), 1);
        CHECK_INT_EQ(root_is_dir(&root, "/lib/x.conf"), 0);
        CHECK_INT_EQ(root_is_dir(&root, "/"), 1);
        CHECK(rmdir(path) == 0);
        free(path);
        root_done(&root);
        CHECK(root.dirs == NULL);
}

TEST(setup_fixture) {
        setup();
}

TEST(cleanup_fixture) {
        tree_remove(dir);
}

TESTS_MAIN(T(setup_fixture), T(symlinks_stay_inside), T(loops_and_missing), T(chase_stat), T(read_inside_only),
           T(list_dir_inside_only), T(directory_memo), T(cleanup_fixture))
