/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An LD_PRELOAD shim for fault-injection tests: with UNITGUARD_FAIL_AT=N
 * the N-th allocation (malloc, calloc, realloc), read or write of the
 * process fails (NULL with ENOMEM, or -1 with EIO). With
 * UNITGUARD_FAIL_COUNT=FILE, the number of such calls and the number of
 * allocations still live at exit are written to FILE, so a driver knows
 * how many N to try and can compare what a failing run leaves allocated
 * with what a clean run does. Only for tests. */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* A test shim has to keep its counter across calls: this is the one
 * place in the tree with process-wide state. */
static unsigned long calls, fail_at;
static long live;
static int initialised;
static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);

/* dlsym() itself may allocate: serve that from a small static arena. */
static char bootstrap[4096];
static size_t bootstrap_used;
static int resolving;

static void init(void) {
        const char *s;

        if (initialised)
                return;
        resolving = 1;
        real_malloc = dlsym(RTLD_NEXT, "malloc");
        real_calloc = dlsym(RTLD_NEXT, "calloc");
        real_realloc = dlsym(RTLD_NEXT, "realloc");
        real_read = dlsym(RTLD_NEXT, "read");
        real_write = dlsym(RTLD_NEXT, "write");
        resolving = 0;
        s = getenv("UNITGUARD_FAIL_AT");
        fail_at = s ? strtoul(s, NULL, 10) : 0;
        initialised = 1;
}

static int should_fail(void) {
        if (!initialised)
                init();
        return ++calls == fail_at;
}

void *malloc(size_t n) {
        if (resolving) {
                void *p = bootstrap + bootstrap_used;
                bootstrap_used += (n + 15) & ~(size_t) 15;
                return bootstrap_used <= sizeof(bootstrap) ? p : NULL;
        }
        if (should_fail()) {
                errno = ENOMEM;
                return NULL;
        }
        {
                void *p = real_malloc(n);
                if (p)
                        live++;
                return p;
        }
}

void *calloc(size_t a, size_t b) {
        if (resolving) {
                void *p = malloc(a * b);
                if (p)
                        memset(p, 0, a * b);
                return p;
        }
        if (should_fail()) {
                errno = ENOMEM;
                return NULL;
        }
        {
                void *p = real_calloc(a, b);
                if (p)
                        live++;
                return p;
        }
}

void *realloc(void *p, size_t n) {
        if (should_fail()) {
                errno = ENOMEM;
                return NULL;
        }
        {
                void *q = real_realloc(p, n);
                if (q && !p)
                        live++;
                return q;
        }
}

void free(void *p) {
        static void (*real_free)(void *);

        if ((char *) p >= bootstrap && (char *) p < bootstrap + sizeof(bootstrap))
                return;
        if (!real_free)
                real_free = dlsym(RTLD_NEXT, "free");
        if (p)
                live--;
        real_free(p);
}

ssize_t read(int fd, void *buf, size_t n) {
        if (should_fail()) {
                errno = EIO;
                return -1;
        }
        return real_read(fd, buf, n);
}

ssize_t write(int fd, const void *buf, size_t n) {
        if (should_fail()) {
                errno = EIO;
                return -1;
        }
        return real_write(fd, buf, n);
}

__attribute__((destructor)) static void report(void) {
        const char *path = getenv("UNITGUARD_FAIL_COUNT");
        FILE *f;

        if (!path)
                return;
        fail_at = 0;
        f = fopen(path, "w");
        if (f) {
                fprintf(f, "%lu %ld\n", calls, live);
                fclose(f);
        }
}
