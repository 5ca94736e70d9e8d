/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* atomic_file_replace(): what it may replace and what it refuses, and that
 * every failure leaves the old file as it was and no temporary file behind.
 * Failures that need privileges (another uid, a full file system) run in a
 * forked child; where they cannot be set up the check says so and skips. */
#include <dirent.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "basic/atomic-file.h"
#include "basic/fileio.h"
#include "basic/macro.h"
#include "tests.h"

static char base_dir[] = "/tmp/test-atomic-file-XXXXXX";

/* A fresh empty directory below base_dir. */
static void fresh_dir(char *buf, size_t size, const char *name) {
        snprintf(buf, size, "%s/%s", base_dir, name);
        if (mkdir(buf, 0755) < 0)
                abort();
}

static void path_in(char *buf, size_t size, const char *dir, const char *name) {
        snprintf(buf, size, "%s/%s", dir, name);
}

static void put(const char *path, const char *content) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

        if (fd < 0 || loop_write(fd, content, strlen(content)) < 0 || close(fd) < 0)
                abort();
}

static bool has_content(const char *path, const char *content) {
        _cleanup_free_ char *buf = NULL;
        size_t size;

        return read_full_file(path, 1 << 20, &buf, &size) >= 0 && size == strlen(content) &&
               memcmp(buf, content, size) == 0;
}

/* The number of entries in dir (without . and ..): no temporary file may
 * stay behind. */
static int count_entries(const char *dir) {
        DIR *d = opendir(dir);
        struct dirent *e;
        int n = 0;

        if (!d)
                return -1;
        while ((e = readdir(d)))
                if (!streq(e->d_name, ".") && !streq(e->d_name, ".."))
                        n++;
        closedir(d);
        return n;
}

static int replace_str(const char *path, const char *content, unsigned flags, mode_t mode) {
        return atomic_file_replace(path, content, strlen(content), flags, mode);
}

TEST(new_file) {
        char dir[256], p[300];
        struct stat st;

        fresh_dir(dir, sizeof(dir), "new");
        path_in(p, sizeof(p), dir, "f");
        CHECK_INT_EQ(replace_str(p, "hello\n", 0, 0640), 0);
        CHECK(has_content(p, "hello\n"));
        CHECK(stat(p, &st) == 0 && (st.st_mode & 07777) == 0640);
        CHECK_INT_EQ(count_entries(dir), 1);

        /* Empty content, and a name without a directory part. */
        CHECK(chdir(dir) == 0);
        CHECK_INT_EQ(atomic_file_replace("g", "", 0, 0, 0600), 0);
        CHECK(has_content(p, "hello\n") && has_content("g", ""));
        CHECK(chdir("/") == 0);
        CHECK_INT_EQ(count_entries(dir), 2);
}

TEST(replace_regular_file) {
        char dir[256], p[300];
        struct stat before, after;

        fresh_dir(dir, sizeof(dir), "replace");
        path_in(p, sizeof(p), dir, "f");
        put(p, "old content\n");
        CHECK(stat(p, &before) == 0);
        CHECK_INT_EQ(replace_str(p, "new\n", 0, 0600), 0);
        CHECK(has_content(p, "new\n"));
        CHECK(stat(p, &after) == 0 && after.st_ino != before.st_ino && (after.st_mode & 07777) == 0600);
        CHECK_INT_EQ(count_entries(dir), 1);
}

TEST(refuses_symlinks) {
        char dir[256], link[300], target[300], dangling[300], buf[300];
        ssize_t n;

        fresh_dir(dir, sizeof(dir), "symlink");
        path_in(link, sizeof(link), dir, "link");
        path_in(target, sizeof(target), dir, "target");
        path_in(dangling, sizeof(dangling), dir, "dangling");
        put(target, "target\n");
        CHECK(symlink("target", link) == 0);
        CHECK(symlink("nowhere", dangling) == 0);

        CHECK_INT_EQ(replace_str(link, "new\n", 0, 0644), -ELOOP);
        CHECK_INT_EQ(replace_str(link, "new\n", ATOMIC_KEEP_ATTRS, 0644), -ELOOP);
        CHECK_INT_EQ(replace_str(dangling, "new\n", 0, 0644), -ELOOP);
        n = readlink(link, buf, sizeof(buf) - 1);
        CHECK(n == 6 && memcmp(buf, "target", 6) == 0);
        CHECK(has_content(target, "target\n"));
        CHECK(access(dangling, F_OK) < 0 && errno == ENOENT);   /* nothing created behind it */
        CHECK_INT_EQ(count_entries(dir), 3);
}

TEST(refuses_special_files) {
        char dir[256], fifo[300], sub[300], dev[300], slash[300];
        struct stat st;

        fresh_dir(dir, sizeof(dir), "special");
        path_in(fifo, sizeof(fifo), dir, "fifo");
        path_in(sub, sizeof(sub), dir, "sub");
        path_in(dev, sizeof(dev), dir, "null");
        path_in(slash, sizeof(slash), dir, "sub/");
        CHECK(mkfifo(fifo, 0644) == 0);
        CHECK(mkdir(sub, 0755) == 0);

        CHECK_INT_EQ(replace_str(fifo, "x", 0, 0644), -EEXIST);
        CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
        CHECK_INT_EQ(replace_str(sub, "x", 0, 0644), -EISDIR);
        CHECK_INT_EQ(replace_str(slash, "x", 0, 0644), -EISDIR);
        CHECK(lstat(sub, &st) == 0 && S_ISDIR(st.st_mode));

        /* A device node of our own, never a real one in /dev. */
        if (mknod(dev, S_IFCHR | 0666, makedev(1, 3)) == 0) {
                CHECK_INT_EQ(replace_str(dev, "x", 0, 0644), -EEXIST);
                CHECK(lstat(dev, &st) == 0 && S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3));
                CHECK_INT_EQ(count_entries(dir), 3);
        } else {
                printf("skip device node: mknod: %s\n", strerror(errno));
                CHECK_INT_EQ(count_entries(dir), 2);
        }

        CHECK_INT_EQ(replace_str("", "x", 0, 0644), -ENOENT);
        CHECK_INT_EQ(replace_str("/nonexistent-dir-for-test/f", "x", 0, 0644), -ENOENT);
}

/* Runs f(arg) in a child; its exit status is the test's verdict (0 ok,
 * 77 skipped, else failed). */
static int in_child(int (*f)(const char *arg), const char *arg) {
        pid_t pid;
        int status;

        fflush(stdout);
        fflush(stderr);
        pid = fork();
        if (pid < 0)
                return -1;
        if (pid == 0)
                _exit(f(arg));
        if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
                return -1;
        return WEXITSTATUS(status);
}

static int child_read_only_dir(const char *dir) {
        char p[300];
        int r;

        /* Root writes anywhere: drop to nobody first. */
        if (geteuid() == 0 && (setgroups(0, NULL) < 0 || setgid(65534) < 0 || setuid(65534) < 0)) {
                printf("skip read-only directory: cannot drop privileges: %s\n", strerror(errno));
                return 77;
        }
        path_in(p, sizeof(p), dir, "f");
        r = replace_str(p, "new\n", 0, 0644);
        if (r != -EACCES) {
                fprintf(stderr, "read-only directory: got %d (%s), wanted -EACCES\n", r, strerror(-r));
                return 1;
        }
        path_in(p, sizeof(p), dir, "new-file");
        r = replace_str(p, "new\n", 0, 0644);
        if (r != -EACCES) {
                fprintf(stderr, "read-only directory, new file: got %d, wanted -EACCES\n", r);
                return 1;
        }
        return 0;
}

TEST(read_only_directory) {
        char dir[256], p[300];
        int r;

        fresh_dir(dir, sizeof(dir), "readonly");
        path_in(p, sizeof(p), dir, "f");
        put(p, "old\n");
        CHECK(chmod(p, 0666) == 0);     /* the file is writable, the directory is not */
        CHECK(chmod(dir, 0555) == 0);
        r = in_child(child_read_only_dir, dir);
        CHECK(r == 0 || r == 77);
        CHECK(has_content(p, "old\n"));
        CHECK_INT_EQ(count_entries(dir), 1);
        CHECK(chmod(dir, 0755) == 0);
}

/* The write fails half way: a small tmpfs fills up (ENOSPC). */
static int child_enospc(const char *dir) {
        static char big[1 << 20];
        char p[300];
        int r;

        if (unshare(CLONE_NEWNS) < 0 || mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) < 0 ||
            mount("tmpfs", dir, "tmpfs", 0, "size=64k,mode=0755") < 0) {
                printf("skip ENOSPC: cannot mount a small tmpfs: %s\n", strerror(errno));
                return 77;
        }
        path_in(p, sizeof(p), dir, "f");
        put(p, "old\n");
        memset(big, 'x', sizeof(big));
        r = atomic_file_replace(p, big, sizeof(big), 0, 0644);
        if (r != -ENOSPC) {
                fprintf(stderr, "ENOSPC: got %d (%s)\n", r, strerror(-r));
                return 1;
        }
        if (!has_content(p, "old\n") || count_entries(dir) != 1) {
                fprintf(stderr, "ENOSPC: old file changed or temporary file left\n");
                return 1;
        }
        /* With the space back, the same call works. */
        if (atomic_file_replace(p, big, 16 * 1024, 0, 0644) < 0 || count_entries(dir) != 1) {
                fprintf(stderr, "ENOSPC: a write that fits failed\n");
                return 1;
        }
        return 0;
}

/* The same through the file size limit, which needs no privileges. */
static int child_efbig(const char *dir) {
        static char big[1 << 20];
        struct rlimit rl = { 4096, 4096 };
        char p[300];
        int r;

        signal(SIGXFSZ, SIG_IGN);
        path_in(p, sizeof(p), dir, "f");
        if (setrlimit(RLIMIT_FSIZE, &rl) < 0)
                return 1;
        r = atomic_file_replace(p, big, sizeof(big), 0, 0644);
        if (r != -EFBIG) {
                fprintf(stderr, "EFBIG: got %d (%s)\n", r, strerror(-r));
                return 1;
        }
        return 0;
}

TEST(write_fails_half_way) {
        char dir[256], p[300];
        int r;

        fresh_dir(dir, sizeof(dir), "enospc");
        r = in_child(child_enospc, dir);
        CHECK(r == 0 || r == 77);
        CHECK_INT_EQ(count_entries(dir), 0);    /* the tmpfs was the child's */

        path_in(p, sizeof(p), dir, "f");
        put(p, "old\n");
        CHECK_INT_EQ(in_child(child_efbig, dir), 0);
        CHECK(has_content(p, "old\n"));
        CHECK_INT_EQ(count_entries(dir), 1);
}

static int fill_fails(void *userdata, int fd) {
        (void) loop_write(fd, "partial", 7);
        return -ENOSPC;
}

TEST(fill_fails) {
        char dir[256], p[300], q[300];

        fresh_dir(dir, sizeof(dir), "fill");
        path_in(p, sizeof(p), dir, "f");
        path_in(q, sizeof(q), dir, "new");
        put(p, "old\n");
        CHECK_INT_EQ(atomic_file_replace_full(p, NULL, 0, 0644, fill_fails, NULL), -ENOSPC);
        CHECK_INT_EQ(atomic_file_replace_full(q, NULL, ATOMIC_KEEP_ATTRS, 0644, fill_fails, NULL), -ENOSPC);
        CHECK(has_content(p, "old\n"));
        CHECK_INT_EQ(count_entries(dir), 1);
}

static int fill_str(void *userdata, int fd) {
        return loop_write(fd, userdata, strlen(userdata));
}

typedef struct Meddle {
        const char *path;
        const char *content;    /* written to path while the new file is being filled */
} Meddle;

static int fill_and_meddle(void *userdata, int fd) {
        const Meddle *m = userdata;
        char tmp[320];

        /* Another writer replaces the target (its own atomic rename). */
        snprintf(tmp, sizeof(tmp), "%s.other", m->path);
        put(tmp, m->content);
        if (rename(tmp, m->path) < 0)
                return -errno;
        return loop_write(fd, "ours\n", 5);
}

TEST(changed_since_read) {
        char dir[256], p[300], q[300];
        AtomicFileId id;
        struct stat st;
        int fd;

        fresh_dir(dir, sizeof(dir), "stale");
        path_in(p, sizeof(p), dir, "f");
        put(p, "as read\n");
        fd = open(p, O_RDONLY | O_CLOEXEC);
        CHECK(fd >= 0 && fstat(fd, &st) == 0);
        close(fd);
        atomic_file_id_from_stat(&st, &id);

        /* Unchanged: the check passes (and the fill's error comes back). */
        CHECK_INT_EQ(atomic_file_replace_full(p, &id, 0, 0644, fill_fails, NULL), -ENOSPC);
        CHECK(has_content(p, "as read\n"));

        /* Changed in place (size and mtime): refused, the change kept. */
        put(p, "changed by someone else\n");
        CHECK_INT_EQ(atomic_file_replace_full(p, &id, 0, 0644, fill_fails, NULL), -ESTALE);
        CHECK(has_content(p, "changed by someone else\n"));

        /* Replaced by another file: refused. */
        CHECK(stat(p, &st) == 0);
        atomic_file_id_from_stat(&st, &id);
        {
                Meddle m = { p, "another file\n" };

                CHECK_INT_EQ(atomic_file_replace_full(p, &id, 0, 0644, fill_and_meddle, &m), -ESTALE);
                CHECK(has_content(p, "another file\n"));
                /* Without an expected identity the late check still sees
                 * the swap. */
                m.content = "yet another\n";
                CHECK_INT_EQ(atomic_file_replace_full(p, NULL, 0, 0644, fill_and_meddle, &m), -ESTALE);
                CHECK(has_content(p, "yet another\n"));
        }

        /* Removed: refused, not recreated. */
        CHECK(stat(p, &st) == 0);
        atomic_file_id_from_stat(&st, &id);
        CHECK(unlink(p) == 0);
        CHECK_INT_EQ(atomic_file_replace_full(p, &id, 0, 0644, fill_fails, NULL), -ESTALE);
        CHECK(access(p, F_OK) < 0);

        /* A free name that gets taken meanwhile is not overwritten. */
        path_in(q, sizeof(q), dir, "new");
        {
                Meddle m = { q, "first\n" };

                CHECK_INT_EQ(atomic_file_replace_full(q, NULL, 0, 0644, fill_and_meddle, &m), -ESTALE);
                CHECK(has_content(q, "first\n"));
        }
        CHECK_INT_EQ(count_entries(dir), 1);

        /* And the happy path with an identity. */
        CHECK(stat(q, &st) == 0);
        atomic_file_id_from_stat(&st, &id);
        CHECK_INT_EQ(atomic_file_replace_full(q, &id, 0, 0644, fill_str, (void *) "fixed\n"), 0);
        CHECK(has_content(q, "fixed\n"));
        CHECK_INT_EQ(count_entries(dir), 1);
}

TEST(keep_attrs) {
        char dir[256], p[300], q[300], value[64];
        struct stat st;
        bool xattrs;
        ssize_t n;

        fresh_dir(dir, sizeof(dir), "attrs");
        path_in(p, sizeof(p), dir, "f");
        path_in(q, sizeof(q), dir, "g");
        put(p, "old\n");
        put(q, "old\n");
        CHECK(chmod(p, 0751) == 0 && chmod(q, 0751) == 0);
        xattrs = setxattr(p, "user.unitguard-test", "v1", 2, 0) == 0;
        if (!xattrs)
                printf("skip xattr check: setxattr on %s: %s\n", dir, strerror(errno));
        else
                CHECK(setxattr(q, "user.unitguard-test", "v1", 2, 0) == 0 &&
                      setxattr(p, "user.second", "", 0, 0) == 0);
        if (geteuid() == 0)
                CHECK(chown(p, 1234, 1235) == 0);

        CHECK_INT_EQ(replace_str(p, "new\n", ATOMIC_KEEP_ATTRS, 0600), 0);
        CHECK(has_content(p, "new\n"));
        CHECK(stat(p, &st) == 0);
        CHECK_INT_EQ(st.st_mode & 07777, 0751);
        if (geteuid() == 0)
                CHECK(st.st_uid == 1234 && st.st_gid == 1235);
        else
                printf("skip owner check: not root\n");
        if (xattrs) {
                n = getxattr(p, "user.unitguard-test", value, sizeof(value));
                CHECK(n == 2 && memcmp(value, "v1", 2) == 0);
                CHECK_INT_EQ(getxattr(p, "user.second", value, sizeof(value)), 0);
        }

        /* Without the flag: the mode given, no attributes. */
        CHECK_INT_EQ(replace_str(q, "new\n", 0, 0600), 0);
        CHECK(stat(q, &st) == 0 && (st.st_mode & 07777) == 0600);
        if (xattrs)
                CHECK(getxattr(q, "user.unitguard-test", value, sizeof(value)) < 0 && errno == ENODATA);
        CHECK_INT_EQ(count_entries(dir), 2);
}

static void cleanup(void) {
        char cmd[300];

        snprintf(cmd, sizeof(cmd), "chmod -R u+w '%s' && rm -rf '%s'", base_dir, base_dir);
        if (system(cmd) != 0)
                fprintf(stderr, "could not remove %s\n", base_dir);
}

int tests_main(int argc, char **argv);

#define main tests_main
TESTS_MAIN(T(new_file), T(replace_regular_file), T(refuses_symlinks), T(refuses_special_files),
           T(read_only_directory), T(write_fails_half_way), T(fill_fails), T(changed_since_read),
           T(keep_attrs))
#undef main

int main(int argc, char **argv) {
        int r;

        if (!mkdtemp(base_dir))
                return 1;
        /* Readable for the unprivileged child of read_only_directory. */
        if (chmod(base_dir, 0755) < 0)
                return 1;
        r = tests_main(argc, argv);
        cleanup();
        return r;
}
