/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The `systemctl cat` stream splitter, reading from a memfd and from a
 * pipe. Properties: framing + content of all files, in order, reproduce
 * the input exactly; both kinds of descriptor give the same split; with a
 * small file size cap the files read before -EFBIG are a prefix of it. */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "unit/cat-stream.h"

/* Splits the stream read from fd; the concatenation goes to out, and a
 * summary (sizes and paths) to shape. Returns what the reader ended with. */
static int split(int fd, size_t max_file, StrBuf *out, StrBuf *shape) {
        CatReader r;
        CatFile f;
        int k;

        cat_reader_init(&r, fd, "<fuzz>", max_file);
        while ((k = cat_reader_next(&r, &f)) > 0) {
                fuzz_assert(f.framing && f.data);
                fuzz_assert(f.data[f.size] == '\0');
                fuzz_assert(strlen(f.framing) > 0 || f.header_line == 0);
                if (f.path) {
                        char *unit = NULL;

                        fuzz_assert(!f.is_note);
                        fuzz_assert(cat_header_path_is_plausible(f.path, strlen(f.path)));
                        fuzz_assert(cat_dropin_unit_name(f.path, &unit) >= 0);
                        /* What the reader found out about the path. */
                        fuzz_assert(f.path_len == strlen(f.path));
                        fuzz_assert(f.name == strrchr(f.path, '/') + 1);
                        fuzz_assert(f.conf == endswith(f.path, ".conf"));
                        fuzz_assert(!unit || f.conf);
                        fuzz_assert(f.type == unit_type_from_name(f.name));
                        free(unit);
                }
                fuzz_assert(strbuf_append_str(out, f.framing) >= 0);
                fuzz_assert(strbuf_append(out, f.data, f.size) >= 0);
                fuzz_assert(strbuf_printf(shape, "%zu:%zu:%s:%u:%d;", strlen(f.framing), f.size,
                                          f.path ?: "-", f.header_line, f.is_note) >= 0);
                cat_file_done(&f);
        }
        /* A finished reader stays finished. */
        if (k == 0)
                fuzz_assert(cat_reader_next(&r, &f) == 0);
        cat_reader_done(&r);
        return k;
}

static int write_all(int fd, const uint8_t *data, size_t size) {
        while (size > 0) {
                ssize_t n = write(fd, data, size);

                if (n < 0 && errno == EINTR)
                        continue;
                if (n <= 0)
                        return -1;
                data += n;
                size -= (size_t) n;
        }
        return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        StrBuf out = {}, shape = {}, out2 = {}, shape2 = {};
        /* Every third input runs with a tiny cap to reach the -EFBIG paths. */
        size_t max_file = size % 3 == 0 ? 97 : ((size_t) 64 * 1024 * 1024);
        int fd, p[2], k, k2;

        fd = memfd_create("fuzz-cat", MFD_CLOEXEC);
        fuzz_assert(fd >= 0);
        fuzz_assert(write_all(fd, data, size) == 0);
        fuzz_assert(lseek(fd, 0, SEEK_SET) == 0);
        k = split(fd, max_file, &out, &shape);
        close(fd);

        /* A header line holds no NUL byte, so the content cannot either be
         * mistaken for a string: the comparison is on bytes. */
        if (k == 0) {
                fuzz_assert(out.len == size);
                fuzz_assert(size == 0 || memcmp(out.data, data, size) == 0);
        } else {
                fuzz_assert(k == -EFBIG);
                fuzz_assert(max_file < size);
                fuzz_assert(out.len <= size);
                fuzz_assert(out.len == 0 || memcmp(out.data, data, out.len) == 0);
        }

        /* The same bytes through a pipe (small inputs fit its buffer, so no
         * second thread is needed to feed it). */
        if (size <= 60000) {
                fuzz_assert(pipe2(p, O_CLOEXEC) == 0);
                fuzz_assert(write_all(p[1], data, size) == 0);
                close(p[1]);
                k2 = split(p[0], max_file, &out2, &shape2);
                close(p[0]);
                fuzz_assert(k2 == k);
                fuzz_assert(out2.len == out.len);
                fuzz_assert(out.len == 0 || memcmp(out.data, out2.data, out.len) == 0);
                fuzz_assert(shape.len == shape2.len);
                fuzz_assert(shape.len == 0 || memcmp(shape.data, shape2.data, shape.len) == 0);
        }

        strbuf_done(&out);
        strbuf_done(&out2);
        strbuf_done(&shape);
        strbuf_done(&shape2);
        return 0;
}
