/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "atomic-file.h"
#include "fileio.h"
#include "macro.h"

/* Room left for ".", ".unitguard-XXXXXX" and the NUL in a file name of at
 * most NAME_MAX (255) bytes. */
#define TEMP_BASE_MAX 200

void atomic_file_id_from_stat(const struct stat *st, AtomicFileId *ret) {
        *ret = (AtomicFileId) {
                .dev = st->st_dev,
                .ino = st->st_ino,
                .size = st->st_size,
                .mtime = st->st_mtim,
        };
}

static bool id_matches(const AtomicFileId *id, const struct stat *st) {
        return id->dev == st->st_dev && id->ino == st->st_ino && id->size == st->st_size &&
               id->mtime.tv_sec == st->st_mtim.tv_sec && id->mtime.tv_nsec == st->st_mtim.tv_nsec;
}

/* Looks at the target without following it: 1 and *st if it is a regular
 * file, 0 if the name is free, or the refusal. */
static int examine(int dirfd, const char *base, struct stat *st) {
        if (fstatat(dirfd, base, st, AT_SYMLINK_NOFOLLOW) < 0)
                return errno == ENOENT ? 0 : -errno;
        if (S_ISLNK(st->st_mode))
                return -ELOOP;
        if (S_ISDIR(st->st_mode))
                return -EISDIR;
        if (!S_ISREG(st->st_mode))
                return -EEXIST;
        return 1;
}

/* Splits path into its directory (opened) and its last component. */
static int open_parent(const char *path, char **ret_dir, const char **ret_base) {
        const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
        char *dir;

        if (path[0] == '\0')
                return -ENOENT;
        if (base[0] == '\0' || streq(base, ".") || streq(base, ".."))
                return -EISDIR;
        if (!slash)
                dir = strdup(".");
        else if (slash == path)
                dir = strdup("/");
        else
                dir = strndup(path, (size_t) (slash - path));
        if (!dir)
                return -ENOMEM;
        *ret_dir = dir;
        *ret_base = base;
        return 0;
}

static void random_suffix(char *s, size_t n, unsigned attempt) {
        static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        unsigned char bytes[16];

        if (getrandom(bytes, n, GRND_NONBLOCK) != (ssize_t) n) {
                /* O_EXCL keeps this safe; the randomness only avoids
                 * collisions, so a weak fallback will do. */
                struct timespec ts;
                unsigned long long x;

                clock_gettime(CLOCK_MONOTONIC, &ts);
                x = (unsigned long long) ts.tv_nsec * 2654435761u ^ (unsigned long long) getpid() << 20 ^ attempt;
                for (size_t i = 0; i < n; i++, x = x * 6364136223846793005ull + 1442695040888963407ull)
                        bytes[i] = (unsigned char) (x >> 33);
        }
        for (size_t i = 0; i < n; i++)
                s[i] = alphabet[bytes[i] % (sizeof(alphabet) - 1)];
}

/* Creates ".BASE.unitguard-XXXXXX" in dirfd, mode 0600. */
static int create_temp(int dirfd, const char *base, char **ret_name) {
        _cleanup_free_ char *name = NULL;
        size_t len;

        if (asprintf(&name, ".%.*s.unitguard-XXXXXX", TEMP_BASE_MAX, base) < 0)
                return -ENOMEM;
        len = strlen(name);
        for (unsigned attempt = 0; attempt < 100; attempt++) {
                int fd;

                random_suffix(name + len - 6, 6, attempt);
                fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
                if (fd >= 0) {
                        *ret_name = TAKE_PTR(name);
                        return fd;
                }
                if (errno != EEXIST)
                        return -errno;
        }
        return -EEXIST;
}

/* Attributes that carry access rights must arrive; the others (security
 * labels, trusted.*) are copied where the caller may set them. */
static bool xattr_required(const char *name) {
        return startswith(name, "user.") || startswith(name, "system.posix_acl_");
}

static bool xattr_refused(int e) {
        return e == EPERM || e == EACCES || e == ENOTSUP || e == EOPNOTSUPP || e == EINVAL;
}

/* Reads the attribute list of fd (name NULL) or the value of one attribute
 * into a fresh buffer; retries when it grows between asking for the size
 * and reading. */
static ssize_t xattr_read(int fd, const char *name, char **ret) {
        for (unsigned attempt = 0; attempt < 8; attempt++) {
                _cleanup_free_ char *buf = NULL;
                ssize_t n = name ? fgetxattr(fd, name, NULL, 0) : flistxattr(fd, NULL, 0);

                if (n < 0)
                        return -errno;
                buf = malloc((size_t) n + 1);
                if (!buf)
                        return -ENOMEM;
                n = name ? fgetxattr(fd, name, buf, (size_t) n) : flistxattr(fd, buf, (size_t) n);
                if (n < 0) {
                        if (errno == ERANGE)
                                continue;
                        return -errno;
                }
                *ret = TAKE_PTR(buf);
                return n;
        }
        return -ERANGE;
}

static int copy_xattrs(int from, int to) {
        _cleanup_free_ char *names = NULL;
        ssize_t n;

        n = xattr_read(from, NULL, &names);
        if (n == -ENOTSUP || n == -EOPNOTSUPP)
                return 0;
        if (n < 0)
                return (int) n;

        for (const char *name = names; name < names + n; name += strlen(name) + 1) {
                _cleanup_free_ char *value = NULL;
                ssize_t len;

                len = xattr_read(from, name, &value);
                if (len == -ENODATA)
                        continue;       /* removed meanwhile */
                if (len < 0) {
                        if (!xattr_required(name) && xattr_refused((int) -len))
                                continue;
                        return (int) len;
                }
                if (fsetxattr(to, name, value, (size_t) len, 0) < 0) {
                        if (!xattr_required(name) && xattr_refused(errno))
                                continue;
                        return -errno;
                }
        }
        return 0;
}

/* Gives fd the attributes of the regular file base (examined as *st). */
static int keep_attrs(int dirfd, const char *base, const struct stat *st, int fd) {
        struct stat now;
        int from, r;

        from = openat(dirfd, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (from < 0)
                return errno == ELOOP ? -ESTALE : -errno;
        if (fstat(from, &now) < 0)
                r = -errno;
        else if (now.st_dev != st->st_dev || now.st_ino != st->st_ino)
                r = -ESTALE;
        else
                r = copy_xattrs(from, fd);
        close(from);
        if (r < 0)
                return r;

        /* Owner before mode: chown clears the set-id bits. An unprivileged
         * caller may still hand the file to one of its groups. */
        if ((st->st_uid != geteuid() || st->st_gid != getegid()) &&
            fchown(fd, st->st_uid, st->st_gid) < 0) {
                if (errno != EPERM)
                        return -errno;
                if (fchown(fd, (uid_t) -1, st->st_gid) < 0 && errno != EPERM)
                        return -errno;
        }
        if (fchmod(fd, st->st_mode & 07777) < 0)
                return -errno;
        return 0;
}

static int rename_into_place(int dirfd, const char *tmp, const char *base, bool replacing) {
        /* A name that was free must still be free: a file that appeared
         * meanwhile is not ours to overwrite. */
        if (!replacing) {
                if (renameat2(dirfd, tmp, dirfd, base, RENAME_NOREPLACE) >= 0)
                        return 0;
                if (errno == EEXIST)
                        return -ESTALE;
                if (errno != EINVAL && errno != ENOSYS)
                        return -errno;
                /* The file system cannot do it: plain rename. */
        }
        if (renameat(dirfd, tmp, dirfd, base) < 0)
                return -errno;
        return 0;
}

int atomic_file_replace_full(const char *path, const AtomicFileId *expected, unsigned flags, mode_t mode,
                             int (*fill)(void *userdata, int fd), void *userdata) {
        _cleanup_free_ char *dir = NULL, *tmp = NULL;
        struct stat st = {}, again;
        const char *base;
        int dirfd = -1, fd = -1, r, exists;

        r = open_parent(path, &dir, &base);
        if (r < 0)
                return r;
        dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (dirfd < 0)
                return -errno;

        exists = examine(dirfd, base, &st);
        if (exists < 0) {
                r = exists;
                goto finish;
        }
        if (expected && (!exists || !id_matches(expected, &st))) {
                r = -ESTALE;
                goto finish;
        }

        fd = create_temp(dirfd, base, &tmp);
        if (fd < 0) {
                r = fd;
                goto finish;
        }
        r = fill(userdata, fd);
        if (r >= 0) {
                if ((flags & ATOMIC_KEEP_ATTRS) && exists)
                        r = keep_attrs(dirfd, base, &st, fd);
                else if (fchmod(fd, mode & 07777) < 0)
                        r = -errno;
        }
        if (r >= 0 && !(flags & ATOMIC_NO_SYNC) && fsync(fd) < 0)
                r = -errno;
        if (close(fd) < 0 && r >= 0)
                r = -errno;
        fd = -1;
        if (r < 0)
                goto finish;

        /* The target must still be what we looked at. */
        r = examine(dirfd, base, &again);
        if (r >= 0 && (r != exists || (exists && (again.st_dev != st.st_dev || again.st_ino != st.st_ino))))
                r = -ESTALE;
        if (r >= 0 && expected && !id_matches(expected, &again))
                r = -ESTALE;
        if (r == -ELOOP || r == -EISDIR || r == -EEXIST)
                r = -ESTALE;    /* it was a regular file or free before */
        if (r < 0)
                goto finish;

        r = rename_into_place(dirfd, tmp, base, exists);
        if (r < 0)
                goto finish;
        free(tmp);              /* renamed: nothing to remove any more */
        tmp = NULL;

        if (!(flags & ATOMIC_NO_SYNC) && fsync(dirfd) < 0)
                r = -errno;

finish:
        if (fd >= 0)
                close(fd);
        if (tmp)
                (void) unlinkat(dirfd, tmp, 0);
        close(dirfd);
        return r;
}

typedef struct Buffer {
        const void *data;
        size_t size;
} Buffer;

static int write_buffer(void *userdata, int fd) {
        const Buffer *b = userdata;

        return loop_write(fd, b->data, b->size);
}

int atomic_file_replace(const char *path, const void *data, size_t size, unsigned flags, mode_t mode) {
        Buffer b = { data, size };

        return atomic_file_replace_full(path, NULL, flags, mode, write_buffer, &b);
}
