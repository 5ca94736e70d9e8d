/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* file_batch_read(): through io_uring (where the kernel offers it), into
 * buffers registered with the ring and into plain ones, and one by one,
 * the same bytes and the same errors for every kind of entry: small
 * and large files, an empty one, one over the size limit, a directory, a
 * symlink (never followed), a FIFO (never waited on), a missing name; in
 * batches below, at and above the round size. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/file-batch.h"
#include "basic/fileio.h"
#include "tests.h"

static char base_dir[] = "/tmp/test-file-batch-XXXXXX";

#define MAX_SIZE 50000

static size_t size_of(size_t i) {
        static const size_t sizes[] = { 0, 1, 600, FILE_BATCH_SLOT - 1, FILE_BATCH_SLOT, FILE_BATCH_SLOT + 1, 4096, 16384, 30000 };

        return sizes[i % (sizeof(sizes) / sizeof(sizes[0]))];
}

static void put(int dfd, const char *name, size_t n, unsigned seed) {
        char *data = malloc(n ? n : 1);
        int fd;

        if (!data)
                abort();
        for (size_t i = 0; i < n; i++)
                data[i] = (char) ('A' + (i * 31 + seed) % 57);
        fd = openat(dfd, name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        if (fd < 0 || loop_write(fd, data, n) < 0 || close(fd) < 0)
                abort();
        free(data);
}

/* What each name holds: a file of size_of(i) bytes, except these. */
static int expected_error(const char *name) {
        if (strncmp(name, "dir", 3) == 0)
                return -EISDIR;
        if (strncmp(name, "link", 4) == 0 || strncmp(name, "fifo", 4) == 0)
                return -EINVAL;
        if (strncmp(name, "missing", 7) == 0)
                return -ENOENT;
        if (strncmp(name, "big", 3) == 0)
                return -EFBIG;
        return 0;
}

enum { PLAIN, RING_UNREGISTERED, RING };

static void check_batch(int dfd, int mode, bool lend, size_t n, char names[][32]) {
        bool plain = mode == PLAIN;
        FileBatch *b = NULL;
        BatchFile *files = calloc(n ? n : 1, sizeof(BatchFile));

        CHECK_INT_EQ(file_batch_new(plain, &b), 0);
        if (!files || !b)
                abort();
        if (mode == RING_UNREGISTERED)
                file_batch_unregistered(b);
        /* Twice: a second batch reuses the ring. */
        for (int round = 0; round < 2; round++) {
                for (size_t i = 0; i < n; i++)
                        files[i] = (BatchFile) { .dfd = dfd, .name = names[i] };
                CHECK_INT_EQ(file_batch_read(b, files, n, MAX_SIZE, lend), 0);
                if (plain)
                        CHECK(!file_batch_uses_io_uring(b));
                else if (round == 1 && n == 200 && lend)
                        printf("io_uring: %s\n", !file_batch_uses_io_uring(b) ? "not offered here, files read one by one" :
                               file_batch_uses_fixed_buffers(b) ? "used, buffers registered" :
                               mode == RING ? "used, buffers not registered (refused here)" : "used, buffers not registered");
                if (mode != RING || n < 4)
                        CHECK(!file_batch_uses_fixed_buffers(b));
                for (size_t i = 0; i < n; i++) {
                        int want = expected_error(names[i]);

                        if (files[i].error != want)
                                fprintf(stderr, "%s (mode=%d, n=%zu): error %d, want %d\n", names[i], mode, n,
                                        files[i].error, want);
                        CHECK_INT_EQ(files[i].error, want);
                        if (want == 0) {
                                size_t size = size_of(i);
                                char *expect = malloc(size + 1);

                                for (size_t j = 0; j < size; j++)
                                        expect[j] = (char) ('A' + (j * 31 + i) % 57);
                                CHECK(files[i].data != NULL);
                                /* Lent: only a small file that the batch's one
                                 * read took whole, of a batch of one round. */
                                if (files[i].borrowed) {
                                        CHECK(lend && !plain && file_batch_uses_io_uring(b));
                                        CHECK(n <= FILE_BATCH_LEND_MAX && size > 0 && size < FILE_BATCH_SLOT);
                                } else if (lend && file_batch_uses_io_uring(b) && n <= FILE_BATCH_LEND_MAX &&
                                           n >= 4 && size > 0 && size < FILE_BATCH_SLOT)
                                        CHECK(files[i].borrowed);
                                if (files[i].data) {
                                        CHECK_MEM_EQ(files[i].data, files[i].size, expect, size);
                                        CHECK_INT_EQ(files[i].data[files[i].size], '\0');
                                }
                                free(expect);
                        } else
                                CHECK(!files[i].data && !files[i].borrowed);
                }
                /* Released only now: lent data of one file must survive
                 * the checks of all the others. */
                for (size_t i = 0; i < n; i++) {
                        batch_file_done(&files[i]);
                        CHECK(!files[i].data && !files[i].borrowed);
                }
        }
        file_batch_free(b);
        free(files);
}

TEST(batches) {
        static char names[200][32];
        int dfd;

        dfd = open(base_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        CHECK(dfd >= 0);
        for (size_t i = 0; i < 200; i++) {
                switch (i % 23) {
                case 5:
                        snprintf(names[i], sizeof(names[i]), "dir-%zu", i);
                        CHECK_INT_EQ(mkdirat(dfd, names[i], 0755), 0);
                        break;
                case 7:
                        snprintf(names[i], sizeof(names[i]), "link-%zu", i);
                        CHECK_INT_EQ(symlinkat("file-0", dfd, names[i]), 0);
                        break;
                case 11:
                        snprintf(names[i], sizeof(names[i]), "fifo-%zu", i);
                        CHECK_INT_EQ(mkfifoat(dfd, names[i], 0644), 0);
                        break;
                case 13:
                        snprintf(names[i], sizeof(names[i]), "missing-%zu", i);
                        break;
                case 17:
                        snprintf(names[i], sizeof(names[i]), "big-%zu", i);
                        put(dfd, names[i], MAX_SIZE + 1, (unsigned) i);
                        break;
                default:
                        snprintf(names[i], sizeof(names[i]), "file-%zu", i);
                        put(dfd, names[i], size_of(i), (unsigned) i);
                }
        }
        /* The FIFO's open with O_NONBLOCK and O_RDONLY succeeds; it must read
         * as an error, not as an empty file, either way. */
        for (int mode = PLAIN; mode <= RING; mode++) {
                static const size_t counts[] = { 0, 1, 3, 4, 63, 64, 65, 129, 200 };

                for (size_t c = 0; c < sizeof(counts) / sizeof(counts[0]); c++)
                        for (int lend = 0; lend <= 1; lend++)
                                check_batch(dfd, mode, lend, counts[c], names);
        }
        close(dfd);
}

static void cleanup(void) {
        char cmd[128];

        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base_dir);
        if (system(cmd) != 0)
                fprintf(stderr, "could not remove %s\n", base_dir);
}

int tests_main(int argc, char **argv);

#define main tests_main
TESTS_MAIN(T(batches))
#undef main

int main(int argc, char **argv) {
        int r;

        if (!mkdtemp(base_dir))
                return 1;
        r = tests_main(argc, argv);
        cleanup();
        return r;
}
