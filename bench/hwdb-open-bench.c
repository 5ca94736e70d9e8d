/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* How should `hwdb query` hold hwdb.bin? Mapped (what systemd does; a file
 * truncated meanwhile raises SIGBUS), mapped under the SIGBUS guard (what
 * unitguard does), or read into private memory (immune to truncation)? And
 * what would checking the whole trie at every open add?
 *
 * Each run is a fresh process (this program executing itself), as every
 * `hwdb query` is, which opens the file, looks up the keys and exits: a
 * process that opened the file before would reuse memory that is already
 * paged in and hide the cost of reading. The ways run alternately, the
 * order rotating round by round; printed are the median wall time (spawn to
 * exit) and CPU time (user + system of the child), and the median of the
 * pairwise ratios against the unguarded mapping.
 *
 * Usage: hwdb-open-bench HWDB.BIN KEYS-FILE [ROUNDS]
 *   KEYS-FILE  one key per line; each run looks up every key once
 *   ROUNDS     default 30 */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "basic/alloc-util.h"
#include "basic/fileio.h"
#include "basic/macro.h"
#include "hwdb/hwdb-bin.h"
#include "hwdb/hwdb-guard.h"
#include "hwdb/hwdb-lookup.h"

enum { MAPPED, GUARDED, COPIED, GUARDED_VERIFY, N_WAYS };
static const char *const way_name[N_WAYS] = {
        [MAPPED] = "mmap, unguarded (systemd)",
        [GUARDED] = "mmap + SIGBUS guard (unitguard)",
        [COPIED] = "read into memory",
        [GUARDED_VERIFY] = "mmap + guard + verify at open",
};

typedef struct Sample {
        double wall, cpu;
} Sample;

typedef struct Lookup {
        HwdbLookup *l;
        const HwdbBin *b;
        const char *key;
} Lookup;

static int guarded_lookup(void *userdata) {
        const Lookup *x = userdata;

        return hwdb_lookup(x->l, x->b, x->key);
}

/* The child: open, look up every key, exit. */
static int child(int way, const char *path, const char *keys_path) {
        _cleanup_(hwdb_lookup_done) HwdbLookup l = {};
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
        _cleanup_(hwdb_guard_uninstall) HwdbGuard guard = {};
        _cleanup_free_ char *text = NULL;
        size_t size;
        int r;

        r = read_full_file(keys_path, 1 << 30, &text, &size);
        if (r < 0)
                return 1;
        if (way == MAPPED) {
                /* systemd's way, without any guard. */
                struct stat st;
                void *map;
                int fd = open(path, O_RDONLY | O_CLOEXEC);

                if (fd < 0 || fstat(fd, &st) < 0)
                        return 1;
                map = mmap(NULL, (size_t) st.st_size, PROT_READ, MAP_SHARED, fd, 0);
                close(fd);
                if (map == MAP_FAILED)
                        return 1;
                r = hwdb_bin_new_from_memory(map, (size_t) st.st_size, false, &b, NULL);
        } else if (way == COPIED)
                r = hwdb_bin_read(path, &b, NULL);
        else {
                r = hwdb_bin_open(path, &b, NULL);
                if (r >= 0)
                        r = hwdb_guard_install(&guard);
                if (r >= 0 && way == GUARDED_VERIFY)
                        r = hwdb_bin_verify(b, NULL);
        }
        if (r < 0)
                return 1;

        for (char *p = text, *nl; *p; p = nl + 1) {
                Lookup x = { &l, b, p };

                nl = strchr(p, '\n');
                if (!nl)
                        break;
                *nl = '\0';
                r = guard.installed ? hwdb_guard_run(guarded_lookup, &x) : hwdb_lookup(&l, b, p);
                if (r < 0)
                        return 1;
        }
        return 0;
}

static double now(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static int one_run(char **argv, int way, Sample *ret) {
        char way_arg[16];
        char *child_argv[] = { (char *) "/proc/self/exe", (char *) "--child", way_arg, argv[1], argv[2], NULL };
        struct rusage ru;
        double t0 = now();
        pid_t pid;
        int status;

        snprintf(way_arg, sizeof(way_arg), "%d", way);
        if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, child_argv, NULL) != 0)
                return -1;
        if (wait4(pid, &status, 0, &ru) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
                return -1;
        ret->wall = now() - t0;
        ret->cpu = (double) ru.ru_utime.tv_sec + (double) ru.ru_utime.tv_usec * 1e-6 +
                   (double) ru.ru_stime.tv_sec + (double) ru.ru_stime.tv_usec * 1e-6;
        return 0;
}

static int cmp_double(const void *a, const void *b) {
        double x = *(const double *) a, y = *(const double *) b;

        return x < y ? -1 : x > y;
}

static double median(double *v, size_t n) {
        qsort(v, n, sizeof(double), cmp_double);
        return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv) {
        _cleanup_free_ Sample *s = NULL;
        _cleanup_free_ double *v = NULL;
        size_t rounds, n_samples, n_keys = 0;
        FILE *f;
        int c;

        if (argc == 5 && streq(argv[1], "--child"))
                return child(atoi(argv[2]), argv[3], argv[4]);
        if (argc < 3) {
                fprintf(stderr, "usage: %s HWDB.BIN KEYS-FILE [ROUNDS]\n", argv[0]);
                return 2;
        }
        rounds = argc > 3 ? strtoul(argv[3], NULL, 10) : 30;
        if (rounds == 0)
                rounds = 1;
        n_samples = rounds * (size_t) N_WAYS;
        s = new0(Sample, n_samples);
        v = new0(double, rounds);
        if (!s || !v)
                return 1;
        f = fopen(argv[2], "re");
        if (!f)
                return 1;
        while ((c = fgetc(f)) != EOF)
                n_keys += c == '\n';
        fclose(f);

        /* Warm the page cache once per way. */
        for (int w = 0; w < N_WAYS; w++) {
                Sample scratch;

                if (one_run(argv, w, &scratch) < 0) {
                        fprintf(stderr, "%s: run failed (%s)\n", argv[1], way_name[w]);
                        return 1;
                }
        }
        for (size_t i = 0; i < rounds; i++)
                for (int k = 0; k < N_WAYS; k++) {
                        int w = (int) ((i + (size_t) k) % N_WAYS);

                        if (one_run(argv, w, &s[i * N_WAYS + (size_t) w]) < 0)
                                return 1;
                }

        printf("new process, open + %zu lookup(s), %zu rounds, medians:\n", n_keys, rounds);
        for (int w = 0; w < N_WAYS; w++) {
                double wall, cpu, rw, rc;

#define COLLECT(expr)                                                           \
        do {                                                                    \
                for (size_t i = 0; i < rounds; i++) {                           \
                        const Sample *x = &s[i * N_WAYS + (size_t) w];          \
                        const Sample *ref = &s[i * N_WAYS + MAPPED];            \
                        (void) ref;                                             \
                        v[i] = (expr);                                          \
                }                                                               \
        } while (0)
                COLLECT(x->wall);
                wall = median(v, rounds);
                COLLECT(x->cpu);
                cpu = median(v, rounds);
                COLLECT(x->wall / ref->wall);
                rw = median(v, rounds);
                COLLECT(x->cpu / MAX(ref->cpu, 1e-6));
                rc = median(v, rounds);
#undef COLLECT
                printf("  %-33s wall %8.3f ms  cpu %8.3f ms  ratio: wall %5.2f  cpu %5.2f\n", way_name[w],
                       wall * 1e3, cpu * 1e3, rw, rc);
        }
        return 0;
}
