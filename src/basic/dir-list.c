/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "dir-list.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc-util.h"
#include "strbuf.h"
#include "unaligned.h"

static int entry_compare(const void *a, const void *b) {
        return strcmp(((const DirEntry *) a)->name, ((const DirEntry *) b)->name);
}

/* An entry as it is sorted: the first eight bytes of its name (NUL and
 * what follows it as zeros) read as a big-endian number, whose order is
 * strcmp()'s for those bytes, and where the entry is. Names that share
 * them are told apart by the next eight bytes (keys1[]), the same way, and
 * by strcmp() only past sixteen (a unit directory shares "systemd-"). */
typedef struct SortItem {
        uint64_t key;
        size_t i;
} SortItem;

/* The name's bytes from 8 * word on, as for SortItem.key. */
static uint64_t name_key(const DirEntry *e, size_t word) {
        char pad[8] = {};

        if (e->len >= 8 * word + 8)
                return unaligned_load_be64(e->name + 8 * word);
        if (e->len > 8 * word)
                memcpy(pad, e->name + 8 * word, e->len - 8 * word);
        return unaligned_load_be64(pad);
}

typedef struct SortCtx {
        const DirEntry *e;
        uint64_t *keys1;
} SortCtx;

/* strcmp() < 0 for names with the same first eight bytes: both end in
 * them (then they are the same: the last byte of the key is zero), or
 * both go on. */
static bool tie_less(const SortCtx *c, const SortItem *a, const SortItem *b) {
        uint64_t x = c->keys1[a->i], y = c->keys1[b->i];

        if ((a->key & 0xff) == 0)
                return false;
        if (x != y)
                return x < y;
        return (x & 0xff) != 0 && strcmp(c->e[a->i].name + 16, c->e[b->i].name + 16) < 0;
}

static inline bool item_less(const SortCtx *c, const SortItem *a, const SortItem *b) {
        if (a->key != b->key)
                return a->key < b->key;
        return tie_less(c, a, b);
}

/* Runs of this many entries are sorted by insertion first. */
#define INSERTION_RUN 8

/* Entries sorted without an allocation (a drop-in directory's few). */
#define SORT_ON_STACK 32

int dir_entries_sort(DirEntry *e, size_t n) {
        _Static_assert(sizeof(DirEntry) <= 2 * sizeof(SortItem), "entries are copied into the items' room");
        SortItem stack[3 * SORT_ON_STACK];
        uint64_t keys1_stack[SORT_ON_STACK];
        void *mem = NULL;
        SortItem *from, *to;
        SortCtx c;

        if (n < 2)
                return 0;
        if (n <= SORT_ON_STACK) {
                from = stack;
                c.keys1 = keys1_stack;
        } else {
                mem = malloc_multiply(n, 3 * sizeof(SortItem) + sizeof(uint64_t));
                if (!mem)
                        return -ENOMEM;
                from = mem;
                c.keys1 = (uint64_t *) (from + 3 * n);
        }
        to = from + n;
        /* The entries themselves are read from a copy, in the room after
         * the two runs of items, and written back in order. */
        c.e = memcpy(from + 2 * n, e, n * sizeof(DirEntry));
        for (size_t i = 0; i < n; i++) {
                from[i] = (SortItem) { name_key(&e[i], 0), i };
                c.keys1[i] = name_key(&e[i], 1);
        }

        for (size_t lo = 0; lo < n; lo += INSERTION_RUN) {
                size_t hi = lo + INSERTION_RUN < n ? lo + INSERTION_RUN : n;

                for (size_t i = lo + 1; i < hi; i++) {
                        SortItem x = from[i];
                        size_t j = i;

                        for (; j > lo && item_less(&c, &x, &from[j - 1]); j--)
                                from[j] = from[j - 1];
                        from[j] = x;
                }
        }
        for (size_t width = INSERTION_RUN; width < n; width *= 2) {
                for (size_t lo = 0; lo < n; lo += 2 * width) {
                        size_t mid = lo + width < n ? lo + width : n;
                        size_t hi = lo + 2 * width < n ? lo + 2 * width : n;
                        size_t i = lo, j = mid, k = lo;

                        /* Stable: an equal entry of the right run goes after. */
                        while (i < mid && j < hi)
                                to[k++] = item_less(&c, &from[j], &from[i]) ? from[j++] : from[i++];
                        while (i < mid)
                                to[k++] = from[i++];
                        while (j < hi)
                                to[k++] = from[j++];
                }
                SortItem *swap = from;
                from = to;
                to = swap;
        }
        for (size_t i = 0; i < n; i++)
                e[i] = c.e[from[i].i];
        free(mem);
        return 0;
}

void dir_list_done(DirList *l) {
        if (l->fd >= 0)
                close(l->fd);
        free(l->entries);
        free(l->names);
        *l = (DirList) { .fd = -EBADF };
}

/* What the listing says of a name besides the name itself. */
typedef struct NameInfo {
        uint32_t len;
        unsigned char type;
} NameInfo;

/* The smallest record getdents64() writes: its header and a name of up
 * to four bytes with the NUL, rounded up to eight bytes. */
#define DIRENT64_MIN 24

/* getdents64 straight into a buffer: fdopendir() and readdir() would add
 * an fstat() and an fcntl() per directory, a tenth of a walk's system
 * calls. */
static int read_names(int fd, StrBuf *names, NameInfo **info, size_t *ret_n) {
        _Alignas(struct dirent64) char buf[32768];
        size_t n = 0, allocated = 0;

        for (;;) {
                ssize_t k = getdents64(fd, buf, sizeof(buf));

                if (k < 0)
                        return -errno;
                if (k == 0)
                        break;
                /* Room for every name of this read at once: a record is
                 * larger than its name with the NUL, and at least
                 * DIRENT64_MIN bytes long. */
                if (strbuf_reserve(names, (size_t) k) < 0 ||
                    GREEDY_REALLOC(*info, allocated, n + (size_t) k / DIRENT64_MIN) < 0)
                        return -ENOMEM;
                for (ssize_t off = 0; off < k;) {
                        const struct dirent64 *de = (const struct dirent64 *) (buf + off);
                        const char *s = de->d_name;
                        size_t len;

                        off += de->d_reclen;
                        if (s[0] == '.' && (s[1] == '\0' || (s[1] == '.' && s[2] == '\0')))
                                continue;
                        len = strlen(s);
                        memcpy(names->data + names->len, s, len + 1);
                        names->len += len + 1;
                        (*info)[n++] = (NameInfo) { .len = (uint32_t) len, .type = de->d_type };
                }
                names->data[names->len] = '\0';
        }
        *ret_n = n;
        return 0;
}

int dir_list_read_fd(DirList *l, int fd) {
        _cleanup_(strbuf_done) StrBuf names = {};
        NameInfo *info = NULL;
        size_t n = 0;
        int r;

        *l = (DirList) { .fd = fd };

        /* Names first into one buffer (it moves as it grows), their
         * lengths and types beside them; the pointers are made once the
         * buffer stays put. */
        r = read_names(l->fd, &names, &info, &n);
        if (r >= 0 && n > 0 && !(l->entries = malloc_multiply(n, sizeof(DirEntry))))
                r = -ENOMEM;
        if (r < 0) {
                free(info);
                dir_list_done(l);
                return r;
        }

        l->names = names.data;
        names = (StrBuf) {};
        for (size_t i = 0, off = 0; i < n; i++) {
                l->entries[i] = (DirEntry) { .name = l->names + off, .len = info[i].len, .type = info[i].type };
                off += info[i].len + 1;
        }
        free(info);
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

unsigned char dir_list_type_stat(const DirList *l, const DirEntry *e) {
        struct stat st;

        if (fstatat(dir_list_fd(l), e->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
                return DT_UNKNOWN;
        return IFTODT(st.st_mode);
}
