/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Replays inputs through a fuzz target without libFuzzer: every argument is
 * a file or a directory (whose regular files are run in name order). Used
 * by `meson test` so that each corpus file is a regression test, and with
 * gcc or valgrind where libFuzzer is not available. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

/* libFuzzer calls this once before the first input when a target has it. */
__attribute__((weak)) int LLVMFuzzerInitialize(int *argc, char ***argv);

static int read_all(int fd, uint8_t **ret, size_t *ret_size) {
        size_t size = 0, allocated = 0;
        uint8_t *buf = NULL;

        for (;;) {
                ssize_t n;

                if (allocated - size < 65536) {
                        uint8_t *b;

                        allocated = allocated ? allocated * 2 : 65536;
                        b = realloc(buf, allocated);
                        if (!b) {
                                free(buf);
                                return -ENOMEM;
                        }
                        buf = b;
                }
                n = read(fd, buf + size, allocated - size);
                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        free(buf);
                        return -errno;
                }
                if (n == 0)
                        break;
                size += (size_t) n;
        }
        *ret = buf;
        *ret_size = size;
        return 0;
}

static int run_file(const char *path, unsigned *n_run) {
        uint8_t *buf = NULL, *exact;
        size_t size = 0;
        int fd, r;

        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
                fprintf(stderr, "%s: %s\n", path, strerror(errno));
                return -errno;
        }
        r = read_all(fd, &buf, &size);
        close(fd);
        if (r < 0) {
                fprintf(stderr, "%s: %s\n", path, strerror(-r));
                return r;
        }
        /* Hand the target a buffer of the exact size, as libFuzzer does, so
         * that the sanitizers see a read past the end. */
        exact = malloc(size ? size : 1);
        if (!exact) {
                free(buf);
                return -ENOMEM;
        }
        if (size > 0)
                memcpy(exact, buf, size);
        free(buf);

        if (getenv("FUZZ_REPLAY_VERBOSE"))
                fprintf(stderr, "Running %s (%zu bytes)\n", path, size);
        (void) LLVMFuzzerTestOneInput(exact, size);
        free(exact);
        (*n_run)++;
        return 0;
}

static int compare_names(const void *a, const void *b) {
        return strcmp(*(char *const *) a, *(char *const *) b);
}

static int run_dir(const char *path, unsigned *n_run) {
        char **names = NULL;
        size_t n = 0, allocated = 0;
        struct dirent *de;
        DIR *d;
        int r = 0;

        d = opendir(path);
        if (!d) {
                fprintf(stderr, "%s: %s\n", path, strerror(errno));
                return -errno;
        }
        while ((de = readdir(d))) {
                if (de->d_name[0] == '.')
                        continue;
                if (n == allocated) {
                        char **p;

                        allocated = allocated ? allocated * 2 : 64;
                        p = realloc(names, allocated * sizeof(char *));
                        if (!p) {
                                r = -ENOMEM;
                                break;
                        }
                        names = p;
                }
                names[n] = strdup(de->d_name);
                if (!names[n]) {
                        r = -ENOMEM;
                        break;
                }
                n++;
        }
        closedir(d);
        if (r >= 0)
                qsort(names, n, sizeof(char *), compare_names);

        for (size_t i = 0; i < n; i++) {
                char *p;
                struct stat st;

                if (r >= 0) {
                        if (asprintf(&p, "%s/%s", path, names[i]) < 0)
                                r = -ENOMEM;
                        else {
                                if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
                                        r = run_file(p, n_run);
                                free(p);
                        }
                }
                free(names[i]);
        }
        free(names);
        return r;
}

int main(int argc, char **argv) {
        struct timespec t0, t1;
        unsigned n_run = 0;
        int r = 0;

        if (LLVMFuzzerInitialize)
                (void) LLVMFuzzerInitialize(&argc, &argv);

        clock_gettime(CLOCK_MONOTONIC, &t0);
        for (int i = 1; i < argc && r >= 0; i++) {
                struct stat st;

                if (stat(argv[i], &st) < 0) {
                        fprintf(stderr, "%s: %s\n", argv[i], strerror(errno));
                        return EXIT_FAILURE;
                }
                r = S_ISDIR(st.st_mode) ? run_dir(argv[i], &n_run) : run_file(argv[i], &n_run);
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        if (r < 0)
                return EXIT_FAILURE;
        if (n_run == 0) {
                fprintf(stderr, "No input was run.\n");
                return EXIT_FAILURE;
        }
        printf("%u inputs run in %.3f s\n", n_run,
               (double) (t1.tv_sec - t0.tv_sec) + (double) (t1.tv_nsec - t0.tv_nsec) / 1e9);
        return EXIT_SUCCESS;
}
