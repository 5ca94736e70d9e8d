/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The documented input limits, tested at the boundary: the largest input
 * that is allowed passes, one byte (node, level) more is a clear error.
 * See LIMITS in unitguard(1) and unitguard.policy(5). The unit line limit
 * (1 MiB) is tested in tests/unit/test-unit-parser.c, the hwdb line limit in
 * tests/hwdb/test-hwdb-source.c. */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "policy/policy.h"
#include "policy/yaml-tree.h"
#include "tests.h"
#include "unit/cat-stream.h"
#include "unit/unit-file.h"

/* A stream with one file of content_size bytes after its header. */
static int stream_fd(size_t content_size) {
        static const char header[] = "# /etc/systemd/system/big.service\n";
        static char chunk[65536];
        int fd = memfd_create("limits", MFD_CLOEXEC);

        if (fd < 0)
                return -errno;
        memset(chunk, '#', sizeof(chunk));
        for (size_t i = 63; i < sizeof(chunk); i += 64)
                chunk[i] = '\n';
        if (write(fd, header, sizeof(header) - 1) != (ssize_t) sizeof(header) - 1)
                return -EIO;
        for (size_t left = content_size; left > 0;) {
                size_t n = left < sizeof(chunk) ? left : sizeof(chunk);

                if (write(fd, chunk, n) != (ssize_t) n)
                        return -EIO;
                left -= n;
        }
        if (lseek(fd, 0, SEEK_SET) != 0)
                return -errno;
        return fd;
}

static int read_stream(size_t content_size, size_t *ret_size) {
        CatReader r;
        CatFile f;
        int fd, k;

        fd = stream_fd(content_size);
        if (fd < 0)
                return fd;
        cat_reader_init(&r, fd, "<limits>", UNIT_FILE_MAX);
        k = cat_reader_next(&r, &f);
        if (k > 0) {
                *ret_size = f.size;
                cat_file_done(&f);
        }
        cat_reader_done(&r);
        close(fd);
        return k;
}

TEST(unit_file_max_in_stream) {
        size_t size = 0;

        CHECK_INT_EQ(read_stream(UNIT_FILE_MAX, &size), 1);
        CHECK_INT_EQ(size, UNIT_FILE_MAX);
        CHECK_INT_EQ(read_stream(UNIT_FILE_MAX + 1, &size), -EFBIG);
}

static int load(const char *text, size_t size, char **ret_message) {
        Policy *p = NULL;
        PolicyError err = {};
        int r;

        r = policy_load_buffer(text, size, "limits.yaml", &p, &err);
        *ret_message = err.message ? strdup(err.message) : NULL;
        if (getenv("LIMITS_VERBOSE"))
                fprintf(stderr, "%zu bytes: %d %s\n", size, r, err.message ? err.message : "");
        policy_error_done(&err);
        policy_free(p);
        return r;
}

#define POLICY_HEAD "version: 1\ntarget: 252\n"

/* A valid policy padded with a comment to exactly size bytes. */
static char *policy_of_size(size_t size) {
        char *t = malloc(size);

        if (!t)
                return NULL;
        memcpy(t, POLICY_HEAD "#", strlen(POLICY_HEAD) + 1);
        memset(t + strlen(POLICY_HEAD) + 1, 'x', size - strlen(POLICY_HEAD) - 2);
        t[size - 1] = '\n';
        return t;
}

TEST(policy_size) {
        char *t, *msg = NULL;

        t = policy_of_size(YAML_SIZE_MAX);
        CHECK(t);
        CHECK_INT_EQ(load(t, YAML_SIZE_MAX, &msg), 0);
        free(msg);
        free(t);

        t = policy_of_size(YAML_SIZE_MAX + 1);
        CHECK(t);
        CHECK_INT_EQ(load(t, YAML_SIZE_MAX + 1, &msg), -EINVAL);
        CHECK(msg && strstr(msg, "larger than 16 MiB"));
        free(msg);
        free(t);
}

/* POLICY_HEAD, then a key whose value is nested depth - 1 levels deeper
 * than the top-level mapping ("x-pad" keys are not part of the policy
 * language, so only the structural check may refuse them first). */
static int load_nested(unsigned depth, char **ret_message) {
        StrBuf b = {};
        int r;

        CHECK(strbuf_append_str(&b, POLICY_HEAD "description: ") >= 0);
        for (unsigned i = 1; i < depth; i++)
                CHECK(strbuf_append_char(&b, '[') >= 0);
        for (unsigned i = 1; i < depth; i++)
                CHECK(strbuf_append_char(&b, ']') >= 0);
        CHECK(strbuf_append_char(&b, '\n') >= 0);
        r = load(b.data, b.len, ret_message);
        strbuf_done(&b);
        return r;
}

TEST(policy_depth) {
        char *msg = NULL;

        /* At the limit the structure is accepted, and the loader refuses the
         * value for its type, not for its depth. */
        CHECK_INT_EQ(load_nested(YAML_DEPTH_MAX, &msg), -EINVAL);
        CHECK(msg && !strstr(msg, "nesting too deep"));
        free(msg);
        CHECK_INT_EQ(load_nested(YAML_DEPTH_MAX + 1, &msg), -EINVAL);
        CHECK(msg && strstr(msg, "nesting too deep"));
        free(msg);
}

/* A policy of exactly n YAML nodes: the top mapping, its keys and values,
 * and a flow sequence of scalars filling up the rest. */
static int load_nodes(size_t n, char **ret_message) {
        StrBuf b = {};
        int r;

        /* mapping + version + 1 + description + sequence = 5 nodes */
        CHECK(strbuf_append_str(&b, "version: 1\ndescription: [") >= 0);
        for (size_t i = 0; i + 5 < n; i++)
                CHECK(strbuf_append_str(&b, i ? ",x" : "x") >= 0);
        CHECK(strbuf_append_str(&b, "]\n") >= 0);
        r = load(b.data, b.len, ret_message);
        strbuf_done(&b);
        return r;
}

TEST(policy_nodes) {
        char *msg = NULL;

        CHECK_INT_EQ(load_nodes(YAML_NODES_MAX, &msg), -EINVAL);
        CHECK(msg && !strstr(msg, "too many nodes"));
        free(msg);
        CHECK_INT_EQ(load_nodes(YAML_NODES_MAX + 1, &msg), -EINVAL);
        CHECK(msg && strstr(msg, "too many nodes"));
        free(msg);
}

TESTS_MAIN(T(unit_file_max_in_stream), T(policy_size), T(policy_depth), T(policy_nodes))
