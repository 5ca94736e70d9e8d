/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/alloc-util.h"
#include "hwdb-bin.h"
#include "hwdb-format.h"

/* Strides above this are surely garbage; it also keeps the arithmetic far
 * from overflowing. */
#define HWDB_MAX_STRIDE 4096u

static int fail(const char **ret_reason, const char *reason) {
        if (ret_reason)
                *ret_reason = reason;
        return -EBADMSG;
}

static int check_header(HwdbBin *b, const char **ret_reason) {
        const uint8_t *h = b->data;
        HwdbNode root;
        uint64_t header_size;

        if (b->size < HWDB_HEADER_SIZE)
                return fail(ret_reason, "file is shorter than the hwdb.bin header");
        if (memcmp(h + HWDB_HDR_SIGNATURE, HWDB_SIGNATURE, HWDB_SIGNATURE_LEN) != 0)
                return fail(ret_reason, "wrong signature, not a hwdb.bin file");
        if (hwdb_get64(h + HWDB_HDR_FILE_SIZE) != (uint64_t) b->size)
                return fail(ret_reason, "file size does not match the header (truncated or extended file)");

        header_size = hwdb_get64(h + HWDB_HDR_HEADER_SIZE);
        b->node_size = hwdb_get64(h + HWDB_HDR_NODE_SIZE);
        b->child_size = hwdb_get64(h + HWDB_HDR_CHILD_SIZE);
        b->value_size = hwdb_get64(h + HWDB_HDR_VALUE_SIZE);
        b->root_off = hwdb_get64(h + HWDB_HDR_ROOT_OFF);

        if (header_size < HWDB_HEADER_SIZE || header_size > b->size)
                return fail(ret_reason, "invalid header size");
        if (b->node_size < HWDB_NODE_SIZE || b->node_size > HWDB_MAX_STRIDE)
                return fail(ret_reason, "invalid node size");
        if (b->child_size < HWDB_CHILD_SIZE || b->child_size > HWDB_MAX_STRIDE)
                return fail(ret_reason, "invalid child entry size");
        if (b->value_size < HWDB_VALUE_SIZE_OLD || b->value_size > HWDB_MAX_STRIDE)
                return fail(ret_reason, "invalid value entry size");

        b->max_nodes = b->size / b->node_size + 1;

        if (hwdb_bin_node(b, b->root_off, &root) < 0)
                return fail(ret_reason, "root node lies outside the file");
        return 0;
}

static int bin_new(const void *data, size_t size, bool nul_terminated, HwdbBin **ret,
                   const char **ret_reason) {
        _cleanup_free_ HwdbBin *b = NULL;
        int r;

        b = new0(HwdbBin, 1);
        if (!b)
                return -ENOMEM;
        b->data = data;
        b->size = size;
        b->nul_terminated = nul_terminated;
        r = check_header(b, ret_reason);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(b);
        return 0;
}

int hwdb_bin_new_from_memory(void *data, size_t size, bool take_ownership, HwdbBin **ret,
                             const char **ret_reason) {
        int r;

        r = bin_new(data, size, size > 0 && ((const uint8_t *) data)[size - 1] == 0, ret, ret_reason);
        if (r < 0) {
                if (take_ownership)
                        free(data);
                return r;
        }
        if (take_ownership)
                (*ret)->owned = data;
        return 0;
}

/* Opens path and checks what it is; returns the descriptor and its size. */
static int open_regular(const char *path, uint64_t *ret_size, const char **ret_reason) {
        struct stat st;
        int fd, r;

        /* O_NONBLOCK: a FIFO must not block the open; it is refused below. */
        fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0)
                r = -errno;
        else if (!S_ISREG(st.st_mode))
                r = S_ISDIR(st.st_mode) ? -EISDIR : fail(ret_reason, "not a regular file");
        else if ((uint64_t) st.st_size < HWDB_HEADER_SIZE)
                r = fail(ret_reason, "file is shorter than the hwdb.bin header");
        else if ((uint64_t) st.st_size > HWDB_BIN_SIZE_MAX)
                r = -EFBIG;
        else {
                *ret_size = (uint64_t) st.st_size;
                return fd;
        }
        close(fd);
        return r;
}

int hwdb_bin_open(const char *path, HwdbBin **ret, const char **ret_reason) {
        uint64_t size;
        uint8_t last = 1;
        size_t map_size;
        void *map;
        int fd, r;

        fd = open_regular(path, &size, ret_reason);
        if (fd < 0)
                return fd;

        /* One byte more than the file: the mapping then always reaches past
         * its end, into the zeroed rest of the last page or into a page
         * beyond the end of the file. A string whose NUL is overwritten in
         * place thus ends there or faults (SIGBUS, see hwdb-guard.h); it
         * never runs into whatever memory follows the mapping. */
        map_size = (size_t) size + 1;
        map = mmap(NULL, map_size, PROT_READ, MAP_SHARED, fd, 0);
        r = map == MAP_FAILED ? -errno : 0;
        /* The last byte is read, not looked at through the mapping: that
         * page is rarely one a lookup needs, and a page fault costs a fresh
         * process more than a system call. If it changes later, the
         * mapping's extra byte above still ends the strings. */
        if (r >= 0 && pread(fd, &last, 1, (off_t) size - 1) != 1)
                last = 1;       /* then every string is checked */
        if (r < 0) {
                close(fd);
                return r;
        }

        r = bin_new(map, (size_t) size, last == 0, ret, ret_reason);
        if (r < 0) {
                munmap(map, map_size);
                close(fd);
                return r;
        }
        /* Kept for hwdb_bin_make_private(). */
        (*ret)->map_fd = fd;
        (*ret)->file_mapped = true;
        (*ret)->map_size = map_size;
        return 0;
}

#define HUGE_PAGE_SIZE ((size_t) 2 << 20)

/* Whether madvise(MADV_HUGEPAGE) can give a process transparent huge
 * pages: "always" or "madvise" is the one in brackets. */
static bool thp_enabled(void) {
        char buf[128] = {};
        ssize_t n;
        int fd;

        fd = open("/sys/kernel/mm/transparent_hugepage/enabled", O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return false;
        n = read(fd, buf, sizeof(buf) - 1);
        close(fd);
        return n > 0 && (strstr(buf, "[always]") || strstr(buf, "[madvise]"));
}

/* The kB of anonymous memory in huge pages the process has, or -1. */
static long anon_huge_kb(void) {
        char buf[2048] = {};
        const char *p;
        size_t len = 0;
        ssize_t n;
        int fd;

        fd = open("/proc/self/smaps_rollup", O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return -1;
        while (len < sizeof(buf) - 1 && (n = read(fd, buf + len, sizeof(buf) - 1 - len)) > 0)
                len += (size_t) n;
        close(fd);
        p = strstr(buf, "\nAnonHugePages:");
        return p ? strtol(p + strlen("\nAnonHugePages:"), NULL, 10) : -1;
}

/* Fresh anonymous memory of size bytes (a multiple of HUGE_PAGE_SIZE) that
 * starts on a huge page boundary, or NULL. */
static uint8_t *huge_alloc(size_t size) {
        uint8_t *m, *start;
        size_t head;

        m = mmap(NULL, size + HUGE_PAGE_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (m == MAP_FAILED)
                return NULL;
        start = (uint8_t *) (((uintptr_t) m + HUGE_PAGE_SIZE - 1) & ~(uintptr_t) (HUGE_PAGE_SIZE - 1));
        head = (size_t) (start - m);
        if (head > 0)
                munmap(m, head);
        munmap(start + size, HUGE_PAGE_SIZE - head);
        return start;
}

int hwdb_bin_make_private(HwdbBin *b, bool huge_only) {
        HwdbBin copy = {};
        size_t alloc, len = 0;
        long before, after;
        uint8_t *m;

        if (!b->file_mapped || (huge_only && !thp_enabled()))
                return 0;
        /* One zero byte after the file, as the mapping has. */
        alloc = (b->size + 1 + HUGE_PAGE_SIZE - 1) & ~(HUGE_PAGE_SIZE - 1);
        m = huge_alloc(alloc);
        if (!m)
                return 0;
        /* Huge pages are granted only if the kernel finds free 2 MiB
         * blocks: the first page, touched, tells. */
        before = huge_only ? anon_huge_kb() : 0;
        if (madvise(m, alloc, MADV_HUGEPAGE) < 0 && huge_only)
                goto fail;
        m[0] = 1;
        after = huge_only ? anon_huge_kb() : 0;
        if (before < 0 || after < before + (huge_only ? (long) (HUGE_PAGE_SIZE / 1024) : 0))
                goto fail;

        while (len < b->size) {
                ssize_t n = pread(b->map_fd, m + len, b->size - len, (off_t) len);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        goto fail;      /* shrunk since it was opened */
                len += (size_t) n;
        }
        /* What was read is checked as at opening: the file may have been
         * rewritten in place meanwhile. */
        copy.data = m;
        copy.size = b->size;
        copy.nul_terminated = m[b->size - 1] == 0;
        if (check_header(&copy, NULL) < 0)
                goto fail;

        munmap((void *) b->data, b->map_size);
        close(b->map_fd);
        copy.map_size = alloc;
        copy.map_fd = -1;
        *b = copy;
        return 1;

fail:
        munmap(m, alloc);
        return 0;
}

/* Reads the whole of fd into a fresh buffer. The size is what read()
 * delivered, not what fstat() said: a file that shrinks or grows meanwhile
 * then fails the header's size check instead of being half read. */
static int read_all(int fd, uint64_t expected, void **ret, size_t *ret_size) {
        _cleanup_free_ uint8_t *buf = NULL;
        size_t size = (size_t) expected, len = 0;

        buf = malloc(size + 1);
        if (!buf)
                return -ENOMEM;
        /* One byte more than expected shows whether the file grew. */
        while (len < size + 1) {
                ssize_t n = read(fd, buf + len, size + 1 - len);

                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                if (n == 0)
                        break;
                len += (size_t) n;
        }
        *ret = TAKE_PTR(buf);
        *ret_size = len;
        return 0;
}

int hwdb_bin_read(const char *path, HwdbBin **ret, const char **ret_reason) {
        uint64_t size;
        void *data = NULL;
        size_t len = 0;
        int fd, r;

        fd = open_regular(path, &size, ret_reason);
        if (fd < 0)
                return fd;
        r = read_all(fd, size, &data, &len);
        close(fd);
        if (r < 0)
                return r;
        return hwdb_bin_new_from_memory(data, len, true, ret, ret_reason);
}

HwdbBin *hwdb_bin_free(HwdbBin *b) {
        if (!b)
                return NULL;
        if (b->map_size > 0)
                munmap((void *) b->data, b->map_size);
        if (b->file_mapped)
                close(b->map_fd);
        free(b->owned);
        free(b);
        return NULL;
}

int hwdb_bin_string_slow(const HwdbBin *b, uint64_t off, const char **ret) {
        const uint8_t *p;

        if (off >= b->size)
                return -EBADMSG;
        p = b->data + off;
        if (!b->nul_terminated && !memchr(p, 0, b->size - (size_t) off))
                return -EBADMSG;
        *ret = (const char *) p;
        return 0;
}

int hwdb_bin_find_child(const HwdbBin *b, const HwdbNode *n, uint8_t c, uint64_t *ret_off) {
        const uint8_t *base = b->data + n->children_off;
        unsigned lo = 0, hi = n->n_children;

        while (lo < hi) {
                unsigned mid = lo + (hi - lo) / 2;
                const uint8_t *e = base + (uint64_t) mid * b->child_size;

                if (e[HWDB_CHILD_C] == c) {
                        *ret_off = hwdb_get64(e + HWDB_CHILD_OFF);
                        return 0;
                }
                if (e[HWDB_CHILD_C] < c)
                        lo = mid + 1;
                else
                        hi = mid;
        }
        return -ENOENT;
}

/* A node is "seen" when its offset is marked in a bitmap indexed by offset;
 * a second visit means a cycle or a shared subtree. */
int hwdb_bin_verify(const HwdbBin *b, const char **ret_reason) {
        _cleanup_free_ uint64_t *seen = NULL;
        _cleanup_free_ uint64_t *stack = NULL;
        size_t n_stack = 0, allocated = 0;
        int count = 0, r;

        seen = new0(uint64_t, b->size / 64 + 1);
        if (!seen)
                return -ENOMEM;

        r = GREEDY_REALLOC(stack, allocated, 1);
        if (r < 0)
                return r;
        stack[n_stack++] = b->root_off;

        while (n_stack > 0) {
                uint64_t off = stack[--n_stack];
                HwdbNode n;
                int last = -1;

                if (hwdb_bin_node(b, off, &n) < 0)
                        return fail(ret_reason, "node, child array or value array out of bounds");
                if (seen[off / 64] & (UINT64_C(1) << (off % 64)))
                        return fail(ret_reason, "node reached twice (cycle or shared subtree)");
                seen[off / 64] |= UINT64_C(1) << (off % 64);
                if (count == INT32_MAX)
                        return fail(ret_reason, "too many nodes");
                count++;

                for (uint64_t i = 0; i < n.n_values; i++) {
                        const uint8_t *v = hwdb_bin_value_entry(b, &n, i);
                        const char *s;

                        if (hwdb_bin_string(b, hwdb_get64(v + HWDB_VALUE_KEY), &s) < 0 ||
                            hwdb_bin_string(b, hwdb_get64(v + HWDB_VALUE_VALUE), &s) < 0)
                                return fail(ret_reason, "value string out of bounds");
                        if (b->value_size >= HWDB_VALUE_SIZE &&
                            hwdb_bin_string(b, hwdb_get64(v + HWDB_VALUE_FILENAME), &s) < 0)
                                return fail(ret_reason, "file name string out of bounds");
                }

                r = GREEDY_REALLOC(stack, allocated, n_stack + n.n_children);
                if (r < 0)
                        return r;
                for (unsigned i = 0; i < n.n_children; i++) {
                        uint8_t c;
                        uint64_t child;

                        hwdb_bin_child(b, &n, i, &c, &child);
                        if (child >= off)
                                return fail(ret_reason, "child entry points at or above its parent "
                                                        "(a cycle; writers store children first)");
                        if ((int) c <= last)
                                return fail(ret_reason, "child entries not sorted or duplicated");
                        if (c == 0)
                                return fail(ret_reason, "child entry with a NUL edge byte");
                        last = c;
                        stack[n_stack++] = child;
                }
        }
        return count;
}
