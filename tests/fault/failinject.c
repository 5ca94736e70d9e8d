/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* An LD_PRELOAD shim for fault-injection tests: with UNITGUARD_FAIL_AT=N
 * the N-th allocation (malloc, calloc, realloc), read or write of the
 * process fails (NULL with ENOMEM, or -1 with EIO). With
 * UNITGUARD_FAIL_COUNT=FILE, the number of such calls and the number of
 * allocations still live at exit are written to FILE, so a driver knows
 * how many N to try and can compare what a failing run leaves allocated
 * with what a clean run does.
 *
 * Two more faults for check --fix, independent of the counter above:
 *   UNITGUARD_WRITE_ERRNO=E with UNITGUARD_WRITE_ERRNO_PATH=S: every
 *     write() to a file whose path (/proc/self/fd) contains S fails with
 *     errno E (28: ENOSPC, a full disk);
 *   UNITGUARD_CHANGE_PATH=S with UNITGUARD_CHANGE_AT_OPEN=N: just before
 *     the N-th open()/openat() of a path ending in S, a line is appended to
 *     that file, as another program changing it meanwhile would;
 *   UNITGUARD_SIGTERM_ON_WRITE_PATH=S: the first write() to a file whose
 *     path contains S raises SIGTERM first (a signal in mid-write).
 * Only for tests. */
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
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
static int (*real_open)(const char *, int, ...);
static int (*real_openat)(int, const char *, int, ...);
static int write_errno;
static const char *write_errno_path, *change_path, *sigterm_path;
static unsigned long change_at, change_opens;

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
        real_open = dlsym(RTLD_NEXT, "open");
        real_openat = dlsym(RTLD_NEXT, "openat");
        resolving = 0;
        s = getenv("UNITGUARD_WRITE_ERRNO");
        write_errno = s ? atoi(s) : 0;
        write_errno_path = getenv("UNITGUARD_WRITE_ERRNO_PATH");
        change_path = getenv("UNITGUARD_CHANGE_PATH");
        sigterm_path = getenv("UNITGUARD_SIGTERM_ON_WRITE_PATH");
        s = getenv("UNITGUARD_CHANGE_AT_OPEN");
        change_at = s ? strtoul(s, NULL, 10) : 0;
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

/* Whether fd is open on a path that contains s. */
static int fd_path_contains(int fd, const char *s) {
        char link[64], target[4096];
        ssize_t k;

        snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
        k = readlink(link, target, sizeof(target) - 1);
        if (k < 0)
                return 0;
        target[k] = '\0';
        return strstr(target, s) != NULL;
}

ssize_t write(int fd, const void *buf, size_t n) {
        if (should_fail()) {
                errno = EIO;
                return -1;
        }
        if (sigterm_path && fd_path_contains(fd, sigterm_path)) {
                sigterm_path = NULL;
                raise(SIGTERM);
        }
        if (write_errno > 0 && write_errno_path && fd_path_contains(fd, write_errno_path)) {
                errno = write_errno;
                return -1;
        }
        return real_write(fd, buf, n);
}

/* Appends a line to the file about to be opened, on the N-th open. */
static void maybe_change(int dirfd, const char *path) {
        size_t lp, ls;
        int fd;

        if (!initialised)
                init();
        if (!change_path || !change_at || !path)
                return;
        lp = strlen(path);
        ls = strlen(change_path);
        if (lp < ls || strcmp(path + lp - ls, change_path) != 0 || ++change_opens != change_at)
                return;
        fd = real_openat(dirfd, path, O_WRONLY | O_APPEND | O_CLOEXEC);
        if (fd >= 0) {
                (void) !real_write(fd, "# changed meanwhile\n", 20);
                close(fd);
        }
}

/* The build defines _FILE_OFFSET_BITS=64, so glibc's headers give these
 * two the symbol names open64 and openat64, which is what the program
 * calls. */
int open(const char *path, int flags, ...) {
        mode_t mode = 0;
        va_list ap;

        if (flags & (O_CREAT | O_TMPFILE)) {
                va_start(ap, flags);
                mode = va_arg(ap, mode_t);
                va_end(ap);
        }
        maybe_change(AT_FDCWD, path);
        return real_open(path, flags, mode);
}

int openat(int dirfd, const char *path, int flags, ...) {
        mode_t mode = 0;
        va_list ap;

        if (flags & (O_CREAT | O_TMPFILE)) {
                va_start(ap, flags);
                mode = va_arg(ap, mode_t);
                va_end(ap);
        }
        maybe_change(dirfd, path);
        return real_openat(dirfd, path, flags, mode);
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

