/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Corrupt hwdb.bin files: truncations, wrong signature, offsets past the
 * end, cycles, shared subtrees and random damage. Every one must give a
 * clean error (or an answer) and no out-of-bounds read; the sanitizer build
 * runs this with each image in an exactly sized allocation. */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "hwdb-test-util.h"
#include "hwdb/hwdb-format.h"
#include "hwdb/hwdb-guard.h"
#include "tests.h"

static const char source[] =
        "usb:v1234*\n ID_VENDOR=Acme\n\n"
        "usb:v1234p5678*\n ID_MODEL=Rocket\n\n"
        "usb:v*p*d*dc03*\n CLASS=HID\n\n"
        "pci:v0000[89]*\n BRACKET=1\n\n"
        "pci:v00008086?\n Q=1\n\n"
        "exact\n E=1\n";

static const char *const keys[] = {
        "usb:v1234p5678d0001dc03", "usb:v1234p0000", "usb:vFFFFp0000d0000dc03",
        "pci:v00008086", "pci:v000080861", "exact", "nothing", "", "u", "*", "usb:v[",
};

static void *image;
static size_t image_size;

static void *dup_bytes(const void *p, size_t n) {
        void *c = malloc(n ? n : 1);

        if (c && n)
                memcpy(c, p, n);
        return c;
}

/* Opens a copy of buf and runs every key; lookups may fail only with
 * -EBADMSG or -ELOOP. Returns the open error, or the number of failed
 * lookups. */
static int exercise(const void *buf, size_t n) {
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
        _cleanup_(hwdb_lookup_done) HwdbLookup l = {};
        int r, failed = 0;

        r = hwdb_bin_new_from_memory(dup_bytes(buf, n), n, true, &b, NULL);
        if (r < 0) {
                CHECK_INT_EQ(r, -EBADMSG);
                return r;
        }
        for (size_t i = 0; i < ELEMENTSOF(keys); i++) {
                r = hwdb_lookup(&l, b, keys[i]);
                if (r < 0) {
                        CHECK(r == -EBADMSG || r == -ELOOP);
                        failed++;
                }
        }
        r = hwdb_bin_verify(b, NULL);
        CHECK(r > 0 || r == -EBADMSG);
        return failed;
}

static void patch64(void *buf, uint64_t off, uint64_t v) {
        hwdb_put64((uint8_t *) buf + off, v);
}

/* Node offsets of the valid image, root first. */
static size_t collect_nodes(const HwdbBin *b, uint64_t *out, size_t max) {
        size_t n = 0, i = 0;

        out[n++] = b->root_off;
        while (i < n) {
                HwdbNode node;

                CHECK(hwdb_bin_node(b, out[i], &node) == 0);
                for (unsigned c = 0; c < node.n_children && n < max; c++) {
                        uint8_t e;
                        hwdb_bin_child(b, &node, c, &e, &out[n]);
                        n++;
                }
                i++;
        }
        return n;
}

TEST(valid) {
        CHECK_INT_EQ(exercise(image, image_size), 0);
}

TEST(wrong_signature) {
        _cleanup_free_ uint8_t *c = dup_bytes(image, image_size);
        HwdbBin *b = NULL;
        const char *reason = NULL;

        c[0] = 'X';
        CHECK_INT_EQ(hwdb_bin_new_from_memory(c, image_size, false, &b, &reason), -EBADMSG);
        CHECK(reason && strstr(reason, "signature"));
}

TEST(truncated_everywhere) {
        /* Plain truncation: the size in the header no longer matches. */
        for (size_t n = 0; n < image_size; n++)
                CHECK_INT_EQ(exercise(image, n), -EBADMSG);

        /* Truncation with a header that claims the shorter size: the
         * inner bounds checks have to catch it. */
        int opened = 0, failed = 0;
        for (size_t n = HWDB_HEADER_SIZE; n < image_size; n++) {
                _cleanup_free_ uint8_t *c = dup_bytes(image, n);
                int r;

                patch64(c, HWDB_HDR_FILE_SIZE, n);
                r = exercise(c, n);
                if (r >= 0)
                        opened++;
                if (r > 0)
                        failed++;
        }
        CHECK(opened > 0);
        CHECK(failed > 0);
}

TEST(truncated_file) {
        char path[] = "/tmp/test-hwdb-bin-XXXXXX";
        int fd = mkstemp(path);
        const char *reason = NULL;
        HwdbBin *b = NULL;

        CHECK(fd >= 0);
        CHECK(write(fd, image, image_size / 2) == (ssize_t) (image_size / 2));
        close(fd);
        CHECK_INT_EQ(hwdb_bin_open(path, &b, &reason), -EBADMSG);
        CHECK(reason && strstr(reason, "size"));
        CHECK(truncate(path, 0) == 0);
        CHECK_INT_EQ(hwdb_bin_open(path, &b, &reason), -EBADMSG);
        unlink(path);
        CHECK_INT_EQ(hwdb_bin_open(path, &b, &reason), -ENOENT);
        CHECK_INT_EQ(hwdb_bin_open("/", &b, &reason), -EISDIR);
}

TEST(offsets_past_the_end) {
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
        uint64_t nodes[256];
        size_t n;
        const uint64_t bad[] = { image_size, image_size + 1, UINT64_MAX, UINT64_MAX - 7, image_size - 1 };

        CHECK(hwdb_bin_new_from_memory(dup_bytes(image, image_size), image_size, true, &b, NULL) == 0);
        n = collect_nodes(b, nodes, ELEMENTSOF(nodes));
        CHECK(n > 5);

        /* Header fields. */
        static const unsigned fields[] = { HWDB_HDR_ROOT_OFF, HWDB_HDR_NODE_SIZE, HWDB_HDR_CHILD_SIZE,
                                           HWDB_HDR_VALUE_SIZE, HWDB_HDR_HEADER_SIZE };
        for (size_t f = 0; f < ELEMENTSOF(fields); f++)
                for (size_t k = 0; k < ELEMENTSOF(bad); k++) {
                        _cleanup_free_ uint8_t *c = dup_bytes(image, image_size);
                        patch64(c, fields[f], bad[k]);
                        (void) exercise(c, image_size);
                        patch64(c, fields[f], 0);
                        (void) exercise(c, image_size);
                }

        /* Every node: prefix, counts, child offsets, value strings. */
        int caught = 0;
        for (size_t i = 0; i < n; i++) {
                HwdbNode node;

                CHECK(hwdb_bin_node(b, nodes[i], &node) == 0);
                for (size_t k = 0; k < ELEMENTSOF(bad); k++) {
                        _cleanup_free_ uint8_t *c1 = dup_bytes(image, image_size);
                        _cleanup_free_ uint8_t *c2 = dup_bytes(image, image_size);
                        _cleanup_free_ uint8_t *c3 = dup_bytes(image, image_size);

                        patch64(c1, nodes[i] + HWDB_NODE_PREFIX, bad[k]);
                        caught += exercise(c1, image_size) != 0;
                        patch64(c2, nodes[i] + HWDB_NODE_VALUES, bad[k]);
                        caught += exercise(c2, image_size) != 0;
                        c3[nodes[i] + HWDB_NODE_CHILDREN] = 0xff;
                        caught += exercise(c3, image_size) != 0;

                        for (unsigned c = 0; c < node.n_children; c++) {
                                _cleanup_free_ uint8_t *cc = dup_bytes(image, image_size);
                                patch64(cc, node.children_off + c * HWDB_CHILD_SIZE + HWDB_CHILD_OFF, bad[k]);
                                caught += exercise(cc, image_size) != 0;
                        }
                        for (uint64_t v = 0; v < node.n_values; v++) {
                                for (unsigned fld = 0; fld < 2; fld++) {
                                        _cleanup_free_ uint8_t *cv = dup_bytes(image, image_size);
                                        patch64(cv, node.values_off + v * HWDB_VALUE_SIZE + fld * 8, bad[k]);
                                        caught += exercise(cv, image_size) != 0;
                                }
                        }
                }
        }
        CHECK(caught > 100);
}

TEST(unterminated_string_at_end) {
        /* The pool's last byte is a NUL; without it the last string runs
         * off the end of the file. */
        _cleanup_free_ uint8_t *c = dup_bytes(image, image_size);
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;

        CHECK(c[image_size - 1] == 0);
        c[image_size - 1] = 'x';
        CHECK(hwdb_bin_new_from_memory(dup_bytes(c, image_size), image_size, true, &b, NULL) == 0);
        CHECK_INT_EQ(hwdb_bin_verify(b, NULL), -EBADMSG);
        (void) exercise(c, image_size);
}

/* Node offsets of the valid image, root first, each with the literal key
 * text that leads to it (the prefixes and edge bytes above it, its own
 * prefix included). */
typedef struct NodePath {
        uint64_t off;
        char text[128];
} NodePath;

static size_t collect_paths(const HwdbBin *b, NodePath *out, size_t max) {
        size_t n = 0, i = 0;
        HwdbNode node;

        CHECK(hwdb_bin_node(b, b->root_off, &node) == 0);
        out[n].off = b->root_off;
        snprintf(out[n++].text, sizeof(out[0].text), "%s", node.prefix);
        for (; i < n; i++) {
                CHECK(hwdb_bin_node(b, out[i].off, &node) == 0);
                for (unsigned c = 0; c < node.n_children && n < max; c++) {
                        char text[2 * sizeof(out[0].text)];
                        HwdbNode child;
                        uint8_t e;
                        int k;

                        hwdb_bin_child(b, &node, c, &e, &out[n].off);
                        CHECK(hwdb_bin_node(b, out[n].off, &child) == 0);
                        k = snprintf(text, sizeof(text), "%s%c%s", out[i].text, e, child.prefix);
                        if (k < 0 || (size_t) k >= sizeof(out[0].text))
                                continue;       /* longer than this test needs */
                        memcpy(out[n].text, text, (size_t) k + 1);
                        n++;
                }
        }
        return n;
}

static bool is_literal(const char *s) {
        return !strpbrk(s, "*?[");
}

TEST(cycles) {
        _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
        NodePath nodes[256];
        size_t n;
        int loops = 0, literal = 0;

        CHECK(hwdb_bin_new_from_memory(dup_bytes(image, image_size), image_size, true, &b, NULL) == 0);
        n = collect_paths(b, nodes, ELEMENTSOF(nodes));

        /* Point every child entry, in turn, back at the root and at its own
         * parent: verification refuses the file, the literal walk and the
         * glob scan both stop, and a key whose walk takes the bad edge
         * fails (it must not come back with an answer from the wrong
         * subtree, or none). */
        for (size_t i = 0; i < n; i++) {
                HwdbNode node;

                CHECK(hwdb_bin_node(b, nodes[i].off, &node) == 0);
                for (unsigned c = 0; c < node.n_children; c++) {
                        const uint64_t targets[] = { b->root_off, nodes[i].off };
                        uint64_t child;
                        uint8_t e;

                        hwdb_bin_child(b, &node, c, &e, &child);
                        for (size_t t = 0; t < 2; t++) {
                                _cleanup_free_ uint8_t *cc = dup_bytes(image, image_size);
                                _cleanup_(hwdb_bin_freep) HwdbBin *cb = NULL;
                                _cleanup_(hwdb_lookup_done) HwdbLookup l = {};
                                const char *reason = NULL;
                                char key[160];

                                patch64(cc, node.children_off + c * HWDB_CHILD_SIZE + HWDB_CHILD_OFF, targets[t]);
                                CHECK(hwdb_bin_new_from_memory(dup_bytes(cc, image_size), image_size, true, &cb,
                                                               NULL) == 0);
                                CHECK_INT_EQ(hwdb_bin_verify(cb, &reason), -EBADMSG);
                                CHECK(reason && strstr(reason, "cycle"));
                                loops += exercise(cc, image_size) > 0;

                                snprintf(key, sizeof(key), "%s%cx", nodes[i].text, e);
                                if (is_literal(key)) {
                                        literal++;
                                        CHECK_INT_EQ(hwdb_lookup(&l, cb, key), -ELOOP);
                                }
                        }
                }
        }
        CHECK(loops > 0);
        CHECK(literal > 10);
}

/* Under the guard: the lookup state belongs to the caller (a jump out of
 * the guarded function must not leave anything behind). */
typedef struct Guarded {
        HwdbLookup *l;
        const HwdbBin *b;
        const char *key;
        char *out;
} Guarded;

static int guarded_answer(void *userdata) {
        const Guarded *g = userdata;
        size_t len = 0;
        int r;

        g->out[0] = '\0';
        r = hwdb_lookup(g->l, g->b, g->key);
        if (r < 0)
                return r;
        for (size_t i = 0; i < g->l->n_props; i++)
                len += (size_t) snprintf(g->out + len, 256 - MIN(len, 256), "%s=%s\n", g->l->props[i].key,
                                         g->l->props[i].value);
        return (int) g->l->n_props;
}

TEST(file_truncated_while_open) {
        /* A mapped file truncated in place: the next lookup under the guard
         * fails with -ESTALE instead of killing the process with SIGBUS. A
         * file read into memory is not affected at all. */
        char path[] = "/tmp/test-hwdb-bin-XXXXXX";
        _cleanup_(hwdb_bin_freep) HwdbBin *mapped = NULL, *copy = NULL;
        _cleanup_(hwdb_guard_uninstall) HwdbGuard guard = {};
        _cleanup_(hwdb_lookup_done) HwdbLookup l = {};
        char before[256], after[256];
        Guarded g = { &l, NULL, "usb:v1234p5678d0001dc03", after };
        int fd = mkstemp(path);

        CHECK(fd >= 0);
        CHECK(write(fd, image, image_size) == (ssize_t) image_size);
        close(fd);
        CHECK(hwdb_bin_open(path, &mapped, NULL) == 0);
        CHECK(hwdb_bin_read(path, &copy, NULL) == 0);
        CHECK(hwdb_guard_install(&guard) == 0);
        g.b = mapped;

        CHECK(answer(copy, g.key, before, sizeof(before)) == 3);
        CHECK_INT_EQ(hwdb_guard_run(guarded_answer, &g), 3);
        CHECK_STR_EQ(before, after);

        CHECK(truncate(path, 0) == 0);
        CHECK_INT_EQ(hwdb_guard_run(guarded_answer, &g), -ESTALE);
        CHECK_INT_EQ(hwdb_guard_run(guarded_answer, &g), -ESTALE);     /* again: the guard re-arms */
        CHECK(answer(copy, g.key, after, sizeof(after)) == 3);
        CHECK_STR_EQ(before, after);

        /* Grown back with other bytes: answers from whatever is there,
         * bounds-checked, never a fault. */
        fd = open(path, O_WRONLY | O_CLOEXEC);
        CHECK(fd >= 0);
        for (size_t i = 0; i < image_size; i++)
                CHECK(write(fd, "\xff", 1) == 1);
        close(fd);
        {
                int r = hwdb_guard_run(guarded_answer, &g);

                CHECK(r >= 0 || r == -EBADMSG || r == -ELOOP);
        }
        unlink(path);
}

/* Every key answers the same from b as from the image in memory. */
static void check_same_answers(const HwdbBin *b, const HwdbBin *ref) {
        for (size_t i = 0; i < ELEMENTSOF(keys); i++) {
                char want[256], got[256];

                CHECK_INT_EQ(answer(b, keys[i], got, sizeof(got)), answer(ref, keys[i], want, sizeof(want)));
                CHECK_STR_EQ(got, want);
        }
}

static void write_image(const char *path, size_t n) {
        int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);

        CHECK(fd >= 0);
        CHECK(write(fd, image, n) == (ssize_t) n);
        close(fd);
}

TEST(private_copy) {
        /* hwdb_bin_make_private(): a mapped file becomes a copy of it that
         * answers the same and no longer depends on the file; anything else
         * stays as it was. Without huge_only the copy is made whatever the
         * system's huge pages, so that path runs everywhere. */
        char path[] = "/tmp/test-hwdb-bin-XXXXXX";
        _cleanup_(hwdb_bin_freep) HwdbBin *mem = NULL;
        int fd = mkstemp(path);

        CHECK(fd >= 0);
        close(fd);
        write_image(path, image_size);

        CHECK(hwdb_bin_new_from_memory(dup_bytes(image, image_size), image_size, true, &mem, NULL) == 0);
        CHECK_INT_EQ(hwdb_bin_make_private(mem, false), 0);
        CHECK_INT_EQ(hwdb_bin_make_private(mem, true), 0);

        for (int huge_only = 0; huge_only <= 1; huge_only++) {
                _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
                int r;

                CHECK(hwdb_bin_open(path, &b, NULL) == 0);
                CHECK(b->file_mapped);
                check_same_answers(b, mem);
                r = hwdb_bin_make_private(b, huge_only);
                CHECK(r == 1 || (huge_only && r == 0));
                CHECK(b->file_mapped == (r == 0));
                if (r == 1) {
                        /* The file's bytes, then a zero, as the mapping. */
                        CHECK(memcmp(b->data, image, image_size) == 0);
                        CHECK_INT_EQ(b->data[image_size], 0);
                        CHECK_INT_EQ(b->nul_terminated, mem->nul_terminated);
                        /* Unrelated to the file now: not even a guard is
                         * needed after truncating it. */
                        CHECK(truncate(path, 0) == 0);
                        CHECK_INT_EQ(hwdb_bin_make_private(b, false), 0);
                        write_image(path, image_size);
                }
                check_same_answers(b, mem);
        }

        /* Changed since it was opened: shorter, or another header. It stays
         * mapped (and the lookups see what they see, as before). */
        for (int change = 0; change < 2; change++) {
                _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;

                CHECK(hwdb_bin_open(path, &b, NULL) == 0);
                if (change == 0)
                        CHECK(truncate(path, (off_t) image_size - 1) == 0);
                else {
                        fd = open(path, O_WRONLY | O_CLOEXEC);
                        CHECK(fd >= 0);
                        CHECK(pwrite(fd, "X", 1, 0) == 1);
                        close(fd);
                }
                CHECK_INT_EQ(hwdb_bin_make_private(b, false), 0);
                CHECK(b->file_mapped);
                write_image(path, image_size);
                check_same_answers(b, mem);
        }
        unlink(path);
}

/* A hand-made file: a chain of nodes in which every node has a '*' and a
 * '?' child that both lead to the next node. A naive walk visits 2^depth
 * paths; a self loop on '*' never ends at all. */
static size_t craft_dag(uint8_t *buf, size_t depth, bool self_loop) {
        const size_t node_bytes = HWDB_NODE_SIZE + 2 * HWDB_CHILD_SIZE + HWDB_VALUE_SIZE;
        size_t nodes_start = HWDB_HEADER_SIZE, strings = nodes_start + depth * node_bytes;
        size_t size = strings + 16;

        memset(buf, 0, size);
        memcpy(buf, HWDB_SIGNATURE, 8);
        patch64(buf, HWDB_HDR_FILE_SIZE, size);
        patch64(buf, HWDB_HDR_HEADER_SIZE, HWDB_HEADER_SIZE);
        patch64(buf, HWDB_HDR_NODE_SIZE, HWDB_NODE_SIZE);
        patch64(buf, HWDB_HDR_CHILD_SIZE, HWDB_CHILD_SIZE);
        patch64(buf, HWDB_HDR_VALUE_SIZE, HWDB_VALUE_SIZE);
        patch64(buf, HWDB_HDR_ROOT_OFF, nodes_start);
        memcpy(buf + strings, "\0 K\0v\0f\0", 8);

        for (size_t i = 0; i < depth; i++) {
                uint8_t *p = buf + nodes_start + i * node_bytes;
                uint64_t next = self_loop ? nodes_start + i * node_bytes
                                          : nodes_start + (i + 1 < depth ? i + 1 : i) * node_bytes;

                hwdb_put64(p + HWDB_NODE_PREFIX, strings);
                p[HWDB_NODE_CHILDREN] = i + 1 < depth || self_loop ? 2 : 0;
                hwdb_put64(p + HWDB_NODE_VALUES, 1);
                p[HWDB_NODE_SIZE] = '*';
                hwdb_put64(p + HWDB_NODE_SIZE + HWDB_CHILD_OFF, next);
                p[HWDB_NODE_SIZE + HWDB_CHILD_SIZE] = '?';
                hwdb_put64(p + HWDB_NODE_SIZE + HWDB_CHILD_SIZE + HWDB_CHILD_OFF, next);
                uint8_t *v = p + HWDB_NODE_SIZE + 2 * HWDB_CHILD_SIZE;
                hwdb_put64(v + HWDB_VALUE_KEY, strings + 1);
                hwdb_put64(v + HWDB_VALUE_VALUE, strings + 4);
                hwdb_put64(v + HWDB_VALUE_FILENAME, strings + 6);
        }
        return size;
}

TEST(shared_subtrees_and_self_loops) {
        static uint8_t buf[64 * 1024];

        for (int self = 0; self < 2; self++) {
                size_t size = craft_dag(buf, 60, self);
                _cleanup_(hwdb_bin_freep) HwdbBin *b = NULL;
                _cleanup_(hwdb_lookup_done) HwdbLookup l = {};
                int r;

                CHECK(hwdb_bin_new_from_memory(buf, size, false, &b, NULL) == 0);
                CHECK_INT_EQ(hwdb_bin_verify(b, NULL), -EBADMSG);
                for (int prune = 0; prune < 2; prune++) {
                        l.no_prune = prune;
                        r = hwdb_lookup(&l, b, "a-key-that-every-star-matches");
                        CHECK(r == -ELOOP || r >= 0);
                }
        }
}

TEST(random_damage) {
        unsigned seed = 99;
        int errors = 0;

        for (int iter = 0; iter < 3000; iter++) {
                _cleanup_free_ uint8_t *c = dup_bytes(image, image_size);
                int flips = 1 + iter % 8;

                for (int f = 0; f < flips; f++) {
                        seed = seed * 1103515245u + 12345u;
                        size_t at = HWDB_HEADER_SIZE + (seed >> 4) % (image_size - HWDB_HEADER_SIZE);
                        seed = seed * 1103515245u + 12345u;
                        c[at] = (uint8_t) (seed >> 16);
                }
                errors += exercise(c, image_size) != 0;
        }
        CHECK(errors > 0);
}

int tests_main(int argc, char **argv);

static void setup(void) {
        DiagList d = {};
        const char *srcs[] = { source };

        if (build_image(srcs, NULL, 1, &d, &image, &image_size) < 0)
                abort();
        diag_list_done(&d);
}

#define main tests_main
TESTS_MAIN(T(valid), T(wrong_signature), T(truncated_everywhere), T(truncated_file), T(offsets_past_the_end),
           T(unterminated_string_at_end), T(cycles), T(file_truncated_while_open), T(private_copy), T(shared_subtrees_and_self_loops), T(random_damage))
#undef main

int main(int argc, char **argv) {
        int r;

        setup();
        r = tests_main(argc, argv);
        free(image);
        return r;
}
