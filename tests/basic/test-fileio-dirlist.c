/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* read_full_fd_regular(): every size around its one-read buffer reads back
 * whole; the size limit holds. dir_list_open(): entries sorted with their
 * types, lookups by name, errors for what is not a directory. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/dir-list.h"
#include "basic/fileio.h"
#include "basic/macro.h"
#include "tests.h"

static char base_dir[] = "/tmp/test-fileio-dirlist-XXXXXX";

static void put_bytes(const char *path, const char *data, size_t n) {
        int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

        if (fd < 0 || loop_write(fd, data, n) < 0 || close(fd) < 0)
                abort();
}

static void check_size(size_t n) {
        char path[256], *data = malloc(n + 1), *got = NULL;
        size_t size = 0;
        int fd, r;

        if (!data)
                abort();
        for (size_t i = 0; i < n; i++)
                data[i] = (char) ('a' + (i * 7 + i / 13) % 26);
        snprintf(path, sizeof(path), "%s/size-%zu", base_dir, n);
        put_bytes(path, data, n);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        CHECK(fd >= 0);
        r = read_full_fd_regular(fd, 1 << 20, &got, &size);
        CHECK_INT_EQ(r, 0);
        if (r == 0) {
                CHECK_MEM_EQ(got, size, data, n);
                CHECK_INT_EQ(got[size], '\0');
        }
        close(fd);
        free(got);
        free(data);
}

TEST(regular_sizes) {
        static const size_t sizes[] = { 0, 1, 600, 16383, 16384, 16385, 32768, 65535, 65536, 65537, 200000 };

        for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
                check_size(sizes[i]);
}

TEST(regular_limit) {
        char path[256], *got = NULL, data[20000];
        size_t size = 0;
        int fd;

        memset(data, 'x', sizeof(data));
        snprintf(path, sizeof(path), "%s/limit", base_dir);
        put_bytes(path, data, sizeof(data));
        /* Over the limit within the first read, and after it. */
        fd = open(path, O_RDONLY | O_CLOEXEC);
        CHECK_INT_EQ(read_full_fd_regular(fd, 100, &got, &size), -EFBIG);
        close(fd);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        CHECK_INT_EQ(read_full_fd_regular(fd, 19999, &got, &size), -EFBIG);
        close(fd);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        CHECK_INT_EQ(read_full_fd_regular(fd, 20000, &got, &size), 0);
        CHECK_INT_EQ(size, 20000);
        close(fd);
        free(got);
        /* A directory read as a file fails, it does not hang or crash. */
        fd = open(base_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        got = NULL;
        CHECK_INT_EQ(read_full_fd_regular(fd, 100, &got, &size), -EISDIR);
        CHECK(!got);
        close(fd);
}

TEST(dir_list) {
        static const char *const names[] = { "b.service", "a.service", "a.service.d", "link", "z", ".hidden" };
        char dir[256], path[512];
        DirList l = DIR_LIST_INIT;
        const DirEntry *e;

        snprintf(dir, sizeof(dir), "%s/list", base_dir);
        CHECK_INT_EQ(mkdir(dir, 0755), 0);
        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
                snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
                if (strcmp(names[i], "a.service.d") == 0)
                        CHECK_INT_EQ(mkdir(path, 0755), 0);
                else if (strcmp(names[i], "link") == 0)
                        CHECK_INT_EQ(symlink("/dev/null", path), 0);
                else
                        put_bytes(path, "x", 1);
        }

        CHECK_INT_EQ(dir_list_open(&l, dir), 0);
        CHECK_INT_EQ(l.n, 6);
        /* strcmp order, "." and ".." left out. */
        if (l.n == 6) {
                CHECK_STR_EQ(l.entries[0].name, ".hidden");
                CHECK_STR_EQ(l.entries[1].name, "a.service");
                CHECK_STR_EQ(l.entries[2].name, "a.service.d");
                CHECK_STR_EQ(l.entries[3].name, "b.service");
                CHECK_STR_EQ(l.entries[4].name, "link");
                CHECK_STR_EQ(l.entries[5].name, "z");
        }
        e = dir_list_find(&l, "a.service.d");
        CHECK(e && dir_list_type(&l, e) == DT_DIR);
        e = dir_list_find(&l, "link");
        CHECK(e && dir_list_type(&l, e) == DT_LNK);
        e = dir_list_find(&l, "b.service");
        CHECK(e && dir_list_type(&l, e) == DT_REG);
        /* The type of an entry the file system did not report comes from fstatat. */
        CHECK(e && dir_list_type(&l, &(DirEntry) { e->name, DT_UNKNOWN }) == DT_REG);
        CHECK(dir_list_type(&l, &(DirEntry) { (char *) "gone", DT_UNKNOWN }) == DT_UNKNOWN);
        CHECK(!dir_list_find(&l, "c.service"));
        CHECK(!dir_list_find(&l, "a.service.dd"));
        CHECK(dir_list_fd(&l) >= 0);
        dir_list_done(&l);
        CHECK(l.fd < 0 && !l.entries && l.n == 0);

        snprintf(path, sizeof(path), "%s/z", dir);
        CHECK_INT_EQ(dir_list_open(&l, path), -ENOTDIR);
        CHECK(l.fd < 0 && l.n == 0);
        snprintf(path, sizeof(path), "%s/missing", dir);
        CHECK_INT_EQ(dir_list_open(&l, path), -ENOENT);

        /* An empty directory lists nothing. */
        snprintf(path, sizeof(path), "%s/a.service.d", dir);
        CHECK_INT_EQ(dir_list_open(&l, path), 0);
        CHECK_INT_EQ(l.n, 0);
        CHECK(!dir_list_find(&l, "x"));
        dir_list_done(&l);

        /* More entries than one getdents64() buffer holds: all listed, in
         * order, none twice. */
        snprintf(dir, sizeof(dir), "%s/many", base_dir);
        CHECK_INT_EQ(mkdir(dir, 0755), 0);
        for (unsigned i = 0; i < 1500; i++) {
                snprintf(path, sizeof(path), "%s/%04u-a-long-name-so-that-the-entries-fill-many-buffers.service", dir,
                         (i * 7919) % 1500);
                put_bytes(path, "x", 1);
        }
        CHECK_INT_EQ(dir_list_open(&l, dir), 0);
        CHECK_INT_EQ(l.n, 1500);
        for (size_t i = 0; i < l.n; i++) {
                char want[128];

                snprintf(want, sizeof(want), "%04zu-a-long-name-so-that-the-entries-fill-many-buffers.service", i);
                if (strcmp(l.entries[i].name, want) != 0) {
                        CHECK_STR_EQ(l.entries[i].name, want);
                        break;
                }
        }
        dir_list_done(&l);
}

static int name_compare(const void *a, const void *b) {
        return strcmp(((const DirEntry *) a)->name, ((const DirEntry *) b)->name);
}

/* Names that share prefixes of 8, 15, 16 and 17 bytes and more, end
 * right at the sixteen bytes the sort compares as numbers, or carry bytes
 * from 128 on (strcmp() compares them unsigned). */
static void make_name(char *s, size_t size, unsigned v) {
        static const char *const prefixes[] = {
                "app-", "a", "systemd-", "systemd-journald", "systemd-journal", "systemd-journald-",
                "a-very-long-common-prefix-of-names-", "\xc3\xa9t\xc3\xa9-", "\x7f", "\xff\xfe", "",
        };

        snprintf(s, size, "%s%u%s", prefixes[v % ELEMENTSOF(prefixes)], (v >> 4) % 400,
                 (v >> 12) % 3 == 0 ? ".service" : (v >> 12) % 3 == 1 ? "" : "@.socket");
}

/* The merge sort agrees with qsort() at every length around its insertion
 * runs, its stack room and its merge widths, with duplicates and shared
 * prefixes; each entry's type and length go along with its name. */
TEST(sort) {
        static char names[1100][64];
        static DirEntry a[1100], b[1100];
        unsigned seed = 12345;

        for (size_t i = 0; i < 1100; i++) {
                seed = seed * 1103515245u + 12345u;
                make_name(names[i], sizeof(names[i]), seed >> 8);
        }
        for (size_t n = 0; n <= 1100; n += n < 70 ? 1 : 97) {
                for (size_t i = 0; i < n; i++)
                        a[i] = b[i] = (DirEntry) { names[i], (unsigned char) (i % 7), (uint32_t) strlen(names[i]) };
                CHECK_INT_EQ(dir_entries_sort(a, n), 0);
                if (n > 0)
                        qsort(b, n, sizeof(DirEntry), name_compare);
                for (size_t i = 0; i < n; i++) {
                        size_t k = (size_t) (a[i].name - names[0]) / sizeof(names[0]);

                        CHECK_STR_EQ(a[i].name, b[i].name);
                        CHECK_INT_EQ(a[i].type, k % 7);
                        CHECK_INT_EQ(a[i].len, strlen(a[i].name));
                }
                for (size_t i = 1; i < n; i++)
                        CHECK(strcmp(a[i - 1].name, a[i].name) <= 0);
        }
}

static void cleanup(void) {
        char cmd[128];

        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base_dir);
        if (system(cmd) != 0)
                fprintf(stderr, "could not remove %s\n", base_dir);
}

int tests_main(int argc, char **argv);

#define main tests_main
TESTS_MAIN(T(regular_sizes), T(regular_limit), T(dir_list), T(sort))
#undef main

int main(int argc, char **argv) {
        int r;

        if (!mkdtemp(base_dir))
                return 1;
        r = tests_main(argc, argv);
        cleanup();
        return r;
}
