/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "dir-list.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc-util.h"
#include "strbuf.h"

static int entry_compare(const void *a, const void *b) {
        return strcmp(((const DirEntry *) a)->name, ((const DirEntry *) b)->name);
}

/* Runs of this many entries are sorted by insertion first. */
#define INSERTION_RUN 8

int dir_entries_sort(DirEntry *e, size_t n) {
        DirEntry *tmp, *from, *to;

        for (size_t lo = 0; lo < n; lo += INSERTION_RUN) {
                size_t hi = lo + INSERTION_RUN < n ? lo + INSERTION_RUN : n;

                for (size_t i = lo + 1; i < hi; i++) {
                        DirEntry x = e[i];
                        size_t j = i;

                        for (; j > lo && strcmp(e[j - 1].name, x.name) > 0; j--)
                                e[j] = e[j - 1];
                        e[j] = x;
                }
        }
        if (n <= INSERTION_RUN)
                return 0;

        tmp = malloc_multiply(n, sizeof(DirEntry));
        if (!tmp)
                return -ENOMEM;
        from = e;
        to = tmp;
        for (size_t width = INSERTION_RUN; width < n; width *= 2) {
                for (size_t lo = 0; lo < n; lo += 2 * width) {
                        size_t mid = lo + width < n ? lo + width : n;
                        size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
                        size_t i = lo, j = mid, k = lo;

                        while (i < mid && j < hi)
                                to[k++] = strcmp(from[j].name, from[i].name) < 0 ? from[j++] : from[i++];
                        while (i < mid)
                                to[k++] = from[i++];
                        while (j < hi)
                                to[k++] = from[j++];
                }
                DirEntry *swap = from;
                from = to;
                to = swap;
        }
        if (from != e)
                memcpy(e, from, n * sizeof(DirEntry));
        free(tmp);
        return 0;
}

void dir_list_done(DirList *l) {
        if (l->fd >= 0)
                close(l->fd);
        free(l->entries);
        free(l->names);
        *l = (DirList) { .fd = -EBADF };
}

/* getdents64 straight into a buffer: fdopendir() and readdir() would add
 * an fstat() and an fcntl() per directory, a tenth of a walk's system
 * calls. */
static int read_names(int fd, StrBuf *names, unsigned char **types, size_t *ret_n) {
        _Alignas(struct dirent64) char buf[32768];
        size_t n = 0, allocated = 0;
        int r;

        for (;;) {
                ssize_t k = getdents64(fd, buf, sizeof(buf));

                if (k < 0)
                        return -errno;
                if (k == 0)
                        break;
                for (ssize_t off = 0; off < k;) {
                        const struct dirent64 *de = (const struct dirent64 *) (buf + off);

                        off += de->d_reclen;
                        if (streq(de->d_name, ".") || streq(de->d_name, ".."))
                                continue;
                        r = GREEDY_REALLOC(*types, allocated, n + 1);
                        if (r < 0)
                                return r;
                        r = strbuf_append(names, de->d_name, strlen(de->d_name) + 1);
                        if (r < 0)
                                return r;
                        (*types)[n++] = de->d_type;
                }
        }
        *ret_n = n;
        return 0;
}

int dir_list_read_fd(DirList *l, int fd) {
        _cleanup_(strbuf_done) StrBuf names = {};
        unsigned char *types = NULL;
        size_t n = 0;
        int r;

        *l = (DirList) { .fd = fd };

        /* Names first into one buffer (it moves as it grows), types beside
         * them; the pointers are made once the buffer stays put. */
        r = read_names(l->fd, &names, &types, &n);
        if (r >= 0 && n > 0 && !(l->entries = malloc_multiply(n, sizeof(DirEntry))))
                r = -ENOMEM;
        if (r < 0) {
                free(types);
                dir_list_done(l);
                return r;
        }

        l->names = names.data;
        names = (StrBuf) {};
        for (size_t i = 0, off = 0; i < n; i++) {
                l->entries[i] = (DirEntry) { .name = l->names + off, .type = types[i] };
                off += strlen(l->names + off) + 1;
        }
        free(types);
        l->n = n;
        r = dir_entries_sort(l->entries, n);
        if (r < 0)
                dir_list_done(l);
        return r;
}

int dir_list_open(DirList *l, const char *path) {
        int fd;

        *l = (DirList) { .fd = -EBADF };
        fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return -errno;
        return dir_list_read_fd(l, fd);
}

char *dir_list_steal_names(DirList *l) {
        char *names = l->names;

        l->names = NULL;
        return names;
}

const DirEntry *dir_list_find(const DirList *l, const char *name) {
        DirEntry key = { .name = (char *) name };

        if (l->n == 0)
                return NULL;
        return bsearch(&key, l->entries, l->n, sizeof(DirEntry), entry_compare);
}

unsigned char dir_list_type(const DirList *l, const DirEntry *e) {
        struct stat st;

        if (e->type != DT_UNKNOWN)
                return e->type;
        if (fstatat(dir_list_fd(l), e->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return DT_UNKNOWN;
        return IFTODT(st.st_mode);
}
