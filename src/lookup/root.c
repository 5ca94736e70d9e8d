/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/alloc-util.h"
#include "basic/fileio.h"
#include "basic/macro.h"
#include "basic/strbuf.h"
#include "root.h"

/* A directory path resolution found: its lstat() under its relative path. */
typedef struct RootDir {
        struct stat st;
        char path[];
} RootDir;

int root_open(const char *dir, Root *ret) {
        int fd;

        *ret = (Root) { .fd = -EBADF };
        fd = open(dir && *dir ? dir : "/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        ret->fd = fd;
        ret->dirs = new0(StrMap, 1);
        if (!ret->dirs)
                goto fail;
        if (dir && *dir && !streq(dir, "/")) {
                ret->dir = strdup(dir);
                if (!ret->dir)
                        goto fail;
        }
        return 0;
fail:
        root_done(ret);
        return -ENOMEM;
}

void root_done(Root *r) {
        if (r->fd >= 0)
                close(r->fd);
        free(r->dir);
        if (r->dirs) {
                const char *key;
                void *d;

                for (size_t i = 0; strmap_next(r->dirs, &i, &key, &d);)
                        free(d);
                strmap_done(r->dirs);
                free(r->dirs);
        }
        *r = (Root) { .fd = -EBADF };
}

/* dir's length without its trailing slashes, and name past its leading
 * ones: the two parts root_path_join() puts a single slash between. */
static size_t join_parts(const char *dir, const char **name) {
        size_t a = strlen(dir);

        while (a > 0 && dir[a - 1] == '/')
                a--;
        while (**name == '/')
                (*name)++;
        return a;
}

size_t root_path_join_size(const char *dir, const char *name) {
        size_t a = join_parts(dir, &name), k = strlen(name);

        return a > SIZE_MAX - k - 2 ? 0 : a + 1 + k + 1;
}

char *root_path_join_to(char *p, const char *dir, const char *name) {
        size_t a = join_parts(dir, &name);

        memcpy(p, dir, a);
        p[a] = '/';
        strcpy(p + a + 1, name);
        return p;
}

char *root_path_join(const char *dir, const char *name) {
        size_t n = root_path_join_size(dir, name);
        char *p = n > 0 ? malloc(n) : NULL;

        return p ? root_path_join_to(p, dir, name) : NULL;
}

/* The path relative to the root descriptor: "" + "usr/lib" for "/usr/lib". */
static const char *rel(const char *resolved) {
        while (*resolved == '/')
                resolved++;
        return *resolved ? resolved : ".";
}

/* Drops the last component of a resolved path held in b ("" is the root). */
static void pop_component(StrBuf *b) {
        char *slash = b->len > 0 ? memrchr(b->data, '/', b->len) : NULL;

        b->len = slash ? (size_t) (slash - b->data) : 0;
        b->data[b->len] = '\0';
}

static int append_component(StrBuf *b, const char *c, size_t n) {
        int r = strbuf_append_char(b, '/');

        return r < 0 ? r : strbuf_append(b, c, n);
}

/* The next component of the path at *p (slashes skipped): false at the end. */
static bool next_component(const char **p, const char **ret, size_t *ret_len) {
        while (**p == '/')
                (*p)++;
        if (!**p)
                return false;
        *ret = *p;
        *ret_len = strcspn(*p, "/");
        *p += *ret_len;
        return true;
}

/* Applies "." and ".." to done lexically; false for any other component. */
static bool apply_dots(StrBuf *done, const char *c, size_t n) {
        if (n == 1 && c[0] == '.')
                return true;
        if (n == 2 && c[0] == '.' && c[1] == '.') {
                pop_component(done);
                return true;
        }
        return false;
}

/* lstat() of a path relative to the root, a directory answered from (and
 * added to) the root's memo: 0 or -errno. */
static int lstat_below(const Root *root, const char *path, struct stat *ret) {
        uint32_t hash = 0;
        RootDir *d;
        size_t n;
        int r;

        if (root->dirs) {
                hash = strmap_hash(path);
                d = strmap_get_hashed(root->dirs, path, hash);
                if (d) {
                        *ret = d->st;
                        return 0;
                }
        }
        if (fstatat(root->fd, path, ret, AT_SYMLINK_NOFOLLOW) < 0)
                return -errno;
        if (!root->dirs || !S_ISDIR(ret->st_mode))
                return 0;
        n = strlen(path);
        d = malloc(sizeof(RootDir) + n + 1);
        if (!d)
                return -ENOMEM;
        d->st = *ret;
        memcpy(d->path, path, n + 1);
        r = strmap_put_hashed(root->dirs, d->path, d, hash);
        if (r <= 0)
                free(d);
        return r < 0 ? r : 0;
}

int root_chase(const Root *root, const char *path, ChaseFlags flags, char **ret) {
        return root_chase_stat(root, path, flags, ret, NULL);
}

int root_chase_stat(const Root *root, const char *path, ChaseFlags flags, char **ret, struct stat *ret_st) {
        _cleanup_(strbuf_done) StrBuf done = {};
        _cleanup_free_ char *todo = strdup(path);
        /* The lstat() of done as it is: only while nothing but a component
         * that was looked at has been added. */
        struct stat last = {};
        bool last_valid = false;
        unsigned hops = 0;
        const char *p;
        size_t n;
        int r;

        if (!todo)
                return -ENOMEM;
        r = strbuf_reserve(&done, 64);
        if (r < 0)
                return r;
        done.data[0] = '\0';

        p = todo;
        for (const char *c; next_component(&p, &c, &n);) {
                struct stat st;
                bool last_component = p[strspn(p, "/")] == '\0';

                if (apply_dots(&done, c, n)) {
                        last_valid = false;
                        continue;
                }
                r = append_component(&done, c, n);
                if (r < 0)
                        return r;
                r = lstat_below(root, rel(done.data), &st);
                if (r < 0) {
                        if (r != -ENOENT || !(flags & CHASE_NONEXISTENT))
                                return r;
                        /* Keep the rest as written, normalized lexically. */
                        last_valid = false;
                        while (next_component(&p, &c, &n))
                                if (!apply_dots(&done, c, n) && (r = append_component(&done, c, n)) < 0)
                                        return r;
                        break;
                }

                last = st;
                last_valid = true;
                if (S_ISLNK(st.st_mode) && !(last_component && (flags & CHASE_NOFOLLOW_LAST))) {
                        char target[PATH_MAX];
                        ssize_t k;
                        char *next;

                        if (++hops > ROOT_FOLLOW_MAX)
                                return -ELOOP;
                        k = readlinkat(root->fd, rel(done.data), target, sizeof(target) - 1);
                        if (k < 0)
                                return -errno;
                        if (k == 0)
                                return -ENOENT;
                        target[k] = '\0';
                        last_valid = false;
                        pop_component(&done);
                        if (target[0] == '/')
                                strbuf_reset(&done), done.data[0] = '\0';
                        if (asprintf(&next, "%s/%s", target, p) < 0)
                                return -ENOMEM;
                        free(todo);
                        todo = next;
                        p = todo;
                        continue;
                }
                if (!last_component && !S_ISDIR(st.st_mode))
                        return -ENOTDIR;
        }

        if (ret_st)
                *ret_st = last_valid ? last : (struct stat) {};
        if (done.len == 0) {
                r = strbuf_append_char(&done, '/');
                if (r < 0)
                        return r;
        }
        *ret = strbuf_steal(&done);
        return 0;
}

int root_open_resolved(const Root *root, const char *resolved, int flags) {
        int fd = openat(root->fd, rel(resolved), flags | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);

        return fd < 0 ? -errno : fd;
}

int root_read_file(const Root *root, const char *resolved, size_t max_size, char **ret, size_t *ret_size) {
        struct stat st;
        int fd, r;

        /* Non-blocking: a FIFO planted in a tree must not hang the run. */
        fd = root_open_resolved(root, resolved, O_RDONLY | O_NONBLOCK);
        if (fd < 0)
                return fd;
        if (fstat(fd, &st) < 0) {
                r = -errno;
                close(fd);
                return r;
        }
        if (!S_ISREG(st.st_mode)) {
                close(fd);
                return S_ISDIR(st.st_mode) ? -EISDIR : -EBADFD;
        }
        r = read_full_fd_sized(fd, st.st_size, max_size, ret, ret_size);
        close(fd);
        return r;
}

int root_is_dir(const Root *root, const char *path) {
        _cleanup_free_ char *resolved = NULL;
        struct stat st;
        int r;

        r = root_chase_stat(root, path, 0, &resolved, &st);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return 0;
        /* Not looked at by the resolution: the root itself, or a path
         * that "." or ".." ended. */
        if (st.st_mode == 0 && (r = lstat_below(root, rel(resolved), &st)) < 0)
                return r == -ENOMEM ? r : 0;
        return S_ISDIR(st.st_mode);
}

int root_read_regular_file(const Root *root, const char *resolved, size_t max_size, char **ret,
                           size_t *ret_size) {
        int fd, r;

        fd = root_open_resolved(root, resolved, O_RDONLY | O_NONBLOCK);
        if (fd < 0)
                return fd == -ELOOP ? -EBADFD : fd;
        r = read_full_fd_regular(fd, max_size, ret, ret_size);
        close(fd);
        return r == -EINVAL ? -EBADFD : r;
}

int root_list_dir(const Root *root, const char *resolved, DirList *ret) {
        int fd;

        *ret = DIR_LIST_INIT;
        fd = root_open_resolved(root, resolved, O_RDONLY | O_DIRECTORY);
        if (fd < 0)
                return fd;
        return dir_list_read_fd(ret, fd);
}
