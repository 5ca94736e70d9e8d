/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "dir-types.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc-util.h"
#include "macro.h"
#include "strmap.h"

#define NONE UINT32_MAX

/* The names asked about, by hash: slot[] holds the first index of each
 * name (NONE: empty), same[i] the next index that asks about the same
 * name as index i. */
typedef struct NameTable {
        uint32_t *slot, *same;
        size_t mask;
} NameTable;

static int table_build(NameTable *t, const char *const *names, size_t n) {
        size_t size = 16;

        while (size < 2 * n)
                size *= 2;
        t->slot = malloc_multiply(size + n, sizeof(uint32_t));
        if (!t->slot)
                return -ENOMEM;
        t->same = t->slot + size;
        t->mask = size - 1;
        memset(t->slot, 0xff, size * sizeof(uint32_t));
        for (size_t i = 0; i < n; i++) {
                size_t h = strmap_hash(names[i]) & t->mask;

                t->same[i] = NONE;
                for (;; h = (h + 1) & t->mask) {
                        uint32_t *s = &t->slot[h];

                        if (*s == NONE) {
                                *s = (uint32_t) i;
                                break;
                        }
                        if (streq(names[*s], names[i])) {
                                /* Asked twice: chained behind the first. */
                                uint32_t j = *s;

                                while (t->same[j] != NONE)
                                        j = t->same[j];
                                t->same[j] = (uint32_t) i;
                                break;
                        }
                }
        }
        return 0;
}

/* The first index asking about name, or NONE. */
static uint32_t table_find(const NameTable *t, const char *const *names, const char *name) {
        for (size_t h = strmap_hash(name) & t->mask;; h = (h + 1) & t->mask) {
                uint32_t i = t->slot[h];

                if (i == NONE || streq(names[i], name))
                        return i;
        }
}

/* getdents64 through a small buffer (a few pages, reused for every read):
 * the entries are not kept, only matched. */
static int read_types(int fd, const NameTable *t, const char *const *names, unsigned char *types) {
        _Alignas(struct dirent64) char buf[8192];

        for (;;) {
                ssize_t k = getdents64(fd, buf, sizeof(buf));

                if (k < 0)
                        return -errno;
                if (k == 0)
                        return 0;
                for (ssize_t off = 0; off < k;) {
                        const struct dirent64 *de = (const struct dirent64 *) (buf + off);

                        off += de->d_reclen;
                        for (uint32_t i = table_find(t, names, de->d_name); i != NONE; i = t->same[i])
                                types[i] = de->d_type;
                }
        }
}

int dir_types_of(int dfd, const char *const *names, size_t n, unsigned char *types) {
        _cleanup_free_ uint32_t *slots = NULL;
        NameTable t;
        struct stat st;
        int fd, r;

        memset(types, DT_UNKNOWN, n);
        if (n < DIR_TYPES_MIN_NAMES || n >= NONE)
                return 0;
        if (fstat(dfd, &st) < 0)
                return -errno;
        if (!S_ISDIR(st.st_mode))
                return -ENOTDIR;
        if (st.st_size < 0 || (uint64_t) st.st_size > (uint64_t) n * DIR_TYPES_BYTES_PER_NAME)
                return 0;
        r = table_build(&t, names, n);
        if (r < 0)
                return r;
        slots = t.slot;
        /* A descriptor of its own: reading entries moves the position of
         * the open directory, which dfd's other users must not see. */
        fd = openat(dfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        r = read_types(fd, &t, names, types);
        close(fd);
        if (r < 0) {
                memset(types, DT_UNKNOWN, n);
                return r;
        }
        return 1;
}

typedef struct PathAt {
        int dfd;
        uint32_t i;
} PathAt;

static int path_at_compare(const void *a, const void *b) {
        const PathAt *x = a, *y = b;

        if (x->dfd != y->dfd)
                return x->dfd < y->dfd ? -1 : 1;
        return x->i < y->i ? -1 : x->i > y->i;
}

int dir_types_of_paths(const int *dfd, const char *const *names, size_t n, unsigned char *types) {
        _cleanup_free_ PathAt *at = NULL;
        _cleanup_free_ const char **run = NULL;
        _cleanup_free_ unsigned char *found = NULL;
        bool in_order = true;
        size_t m = 0;

        memset(types, DT_UNKNOWN, n);
        if (n >= NONE)
                return 0;
        at = malloc_multiply(n ? n : 1, sizeof(PathAt));
        run = malloc_multiply(n ? n : 1, sizeof(const char *));
        found = malloc(n ? n : 1);
        if (!at || !run || !found)
                return -ENOMEM;
        for (size_t i = 0; i < n; i++)
                if (dfd[i] >= 0 && !strchr(names[i], '/')) {
                        in_order = in_order && (m == 0 || at[m - 1].dfd <= dfd[i]);
                        at[m++] = (PathAt) { dfd[i], (uint32_t) i };
                }
        /* By directory, each in the order given. Paths come grouped by
         * directory most of the time (a shell's glob, find, a package's
         * file list), and the directories' descriptors are opened in the
         * order they first come (the lowest free numbers), so such paths
         * are in order already as a rule: sorting 472 of them cost some
         * 85,000 instructions for nothing. */
        if (!in_order)
                qsort(at, m, sizeof(PathAt), path_at_compare);
        for (size_t s = 0, e; s < m; s = e) {
                for (e = s; e < m && at[e].dfd == at[s].dfd; e++)
                        run[e - s] = names[at[e].i];
                if (dir_types_of(at[s].dfd, run, e - s, found) == -ENOMEM)
                        return -ENOMEM;
                for (size_t j = s; j < e; j++)
                        types[at[j].i] = found[j - s];
        }
        return 0;
}

int dir_type_mode(unsigned char type, int dfd, const char *name, mode_t *ret) {
        struct stat st;

        if (type != DT_UNKNOWN) {
                *ret = DTTOIF(type);
                return 0;
        }
        if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return -errno;
        *ret = st.st_mode;
        return 0;
}
