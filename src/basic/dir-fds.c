/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "dir-fds.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc-util.h"

static int add_n(DirFds *d, const char *dir, size_t len) {
        char *p;

        if (GREEDY_REALLOC(d->items, d->allocated, d->n + 1) < 0)
                return -ENOMEM;
        p = strndup(dir, len);
        if (!p)
                return -ENOMEM;
        d->items[d->n++] = (DirFd) { .path = p, .len = len, .fd = -EBADF };
        return 0;
}

int dir_fds_add(DirFds *d, const char *dir) {
        size_t len = strlen(dir);

        while (len > 0 && dir[len - 1] == '/')
                len--;
        for (size_t i = 0; i < d->n; i++)
                if (d->items[i].len == len && strncmp(d->items[i].path, dir, len) == 0)
                        return 0;
        return len > 0 ? add_n(d, dir, len) : 0;
}

/* Whether e holds path: path continues after e's path with a '/' and a
 * name. */
static bool holds(const DirFd *e, const char *path) {
        return strncmp(path, e->path, e->len) == 0 && path[e->len] == '/' && path[e->len + 1] != '\0';
}

static int use(DirFds *d, size_t i, const char *path, const char **ret_name) {
        DirFd *e = &d->items[i];

        if (e->fd == -EBADF) {
                e->fd = openat(d->base, e->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
                if (e->fd < 0)
                        e->fd = errno == EBADF ? -EIO : -errno;
        }
        if (e->fd < 0) {
                *ret_name = path;
                return d->base;
        }
        d->last = i;
        *ret_name = path + e->len + 1;
        return e->fd;
}

int dir_fds_at(DirFds *d, const char *path, bool add, const char **ret_name) {
        const char *slash;
        size_t best = SIZE_MAX;

        if (d->last < d->n && holds(&d->items[d->last], path) && !strchr(path + d->items[d->last].len + 1, '/'))
                return use(d, d->last, path, ret_name);
        for (size_t i = 0; i < d->n; i++)
                if (holds(&d->items[i], path) && (best == SIZE_MAX || d->items[i].len > d->items[best].len))
                        best = i;
        slash = strrchr(path, '/');
        /* Path's own directory, unless one holding it is open already. */
        if (add && d->n < d->max && slash && slash > path && slash[1] != '\0' &&
            (best == SIZE_MAX || (size_t) (slash - path) != d->items[best].len) &&
            add_n(d, path, (size_t) (slash - path)) >= 0)
                best = d->n - 1;        /* (out of memory: the whole path) */
        if (best == SIZE_MAX) {
                *ret_name = path;
                return d->base;
        }
        return use(d, best, path, ret_name);
}

void dir_fds_done(DirFds *d) {
        for (size_t i = 0; i < d->n; i++) {
                if (d->items[i].fd >= 0)
                        close(d->items[i].fd);
                free(d->items[i].path);
        }
        free(d->items);
        *d = (DirFds) { .base = d->base, .max = d->max };
}
