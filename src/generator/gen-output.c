/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "basic/alloc-util.h"
#include "basic/atomic-file.h"
#include "basic/macro.h"
#include "gen-output.h"

/* Creates UNIT.d for "UNIT.d/FILE". */
static int make_parent(const char *dir, const char *name) {
        _cleanup_free_ char *sub = NULL;
        const char *slash = strchr(name, '/');
        struct stat st;

        if (!slash)
                return 0;
        if (asprintf(&sub, "%s/%.*s", dir, (int) (slash - name), name) < 0)
                return -ENOMEM;
        if (mkdir(sub, 0755) >= 0)
                return 0;
        if (errno != EEXIST)
                return -errno;
        /* Something else by that name (a symlink, a file) is not ours to follow. */
        if (lstat(sub, &st) < 0)
                return -errno;
        return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

int gen_output_file(const char *dir, const char *name, const void *data, size_t size) {
        _cleanup_free_ char *path = NULL;
        int r;

        r = make_parent(dir, name);
        if (r < 0)
                return r;
        if (asprintf(&path, "%s/%s", dir, name) < 0)
                return -ENOMEM;
        /* The output directories live in /run and vanish at shutdown: no fsync. */
        return atomic_file_replace(path, data, size, ATOMIC_NO_SYNC, 0644);
}

static int is_mask(const char *path) {
        char target[16];
        ssize_t n = readlink(path, target, sizeof(target));

        return n == 9 && memcmp(target, "/dev/null", 9) == 0;
}

int gen_output_mask(const char *dir, const char *name) {
        _cleanup_free_ char *path = NULL, *tmp = NULL;
        const char *base;
        struct timespec ts;
        int r;

        r = make_parent(dir, name);
        if (r < 0)
                return r;
        if (asprintf(&path, "%s/%s", dir, name) < 0)
                return -ENOMEM;
        if (symlink("/dev/null", path) >= 0)
                return 0;
        if (errno != EEXIST)
                return -errno;
        if (is_mask(path))
                return 0;

        /* Replaces what is there (a sanitized copy written before) in one
         * rename; a directory stays and is an error. */
        base = strrchr(path, '/') + 1;
        (void) clock_gettime(CLOCK_MONOTONIC, &ts);
        if (asprintf(&tmp, "%.*s.%s.unitguard-%lx%lx", (int) (base - path), path, base, (unsigned long) getpid(),
                     (unsigned long) ts.tv_nsec) < 0)
                return -ENOMEM;
        if (symlink("/dev/null", tmp) < 0)
                return -errno;
        if (rename(tmp, path) < 0) {
                r = -errno;
                (void) unlink(tmp);
                return r;
        }
        return 0;
}
