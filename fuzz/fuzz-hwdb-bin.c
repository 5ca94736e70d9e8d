/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The hwdb.bin reader on arbitrary bytes (the seeds are valid compiled
 * fixtures, so mutations are mostly small corruptions of real files).
 * Properties: opening from memory and from a file agree (the file is read
 * whole, byte for byte); no access strays outside the file; a file that passes verification answers every
 * lookup, the same with and without pruning. */
#include <errno.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz-hwdb.h"
#include "hwdb/hwdb-batch.h"

#define KEYS_MAX 48
#define DEPTH_MAX 256
#define VISITS_MAX 4096

typedef struct Walk {
        StrBuf pattern, key;
        char *keys[KEYS_MAX];
        size_t n_keys;
        unsigned counter;
        unsigned visits;        /* corrupt files may share subtrees: bound the walk */
} Walk;

/* Collects keys made from the match strings stored in the trie. */
static void walk(const HwdbBin *b, uint64_t off, Walk *w, unsigned depth) {
        size_t len = w->pattern.len;
        HwdbNode n;

        if (depth > DEPTH_MAX || w->n_keys >= KEYS_MAX || ++w->visits > VISITS_MAX || hwdb_bin_node(b, off, &n) < 0)
                return;
        fuzz_assert(strbuf_append_str(&w->pattern, n.prefix) >= 0);
        if (n.n_values > 0 && w->counter++ % 3 == 0) {
                fuzz_hwdb_instantiate(w->pattern.data, w->counter % 2 ? "" : "0A1b", &w->key);
                w->keys[w->n_keys] = strdup(w->key.data);
                fuzz_assert(w->keys[w->n_keys]);
                w->n_keys++;
        }
        for (unsigned i = 0; i < n.n_children && w->n_keys < KEYS_MAX; i++) {
                uint64_t child;
                uint8_t c;

                hwdb_bin_child(b, &n, i, &c, &child);
                fuzz_assert(strbuf_append_char(&w->pattern, (char) c) >= 0);
                walk(b, child, w, depth + 1);
                w->pattern.len = len + strlen(n.prefix);
        }
        w->pattern.len = len;
        w->pattern.data[len] = '\0';
}

/* The same bytes through hwdb_bin_open(), which reads a file. */
static int open_file(const uint8_t *data, size_t size) {
        const char *reason = NULL;
        HwdbBin *b = NULL;
        char path[64];
        int fd, r;

        fd = memfd_create("fuzz-hwdb-bin", MFD_CLOEXEC);
        fuzz_assert(fd >= 0);
        fuzz_assert(size == 0 || write(fd, data, size) == (ssize_t) size);
        snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
        r = hwdb_bin_open(path, &b, &reason);
        fuzz_assert(r >= 0 || reason);
        if (r >= 0)
                fuzz_assert(b->size == size && memcmp(b->data, data, size) == 0);
        hwdb_bin_free(b);
        close(fd);
        return r;
}

/* All keys as one batch (sorted, each walk reusing the path of the key
 * before): an answer for every key exactly as a lookup on its own gives,
 * or a failure when a key on its own fails. */
static void check_batch(const HwdbBin *b, const Walk *w) {
        const size_t n_fixed = sizeof(fuzz_hwdb_keys) / sizeof(fuzz_hwdb_keys[0]);
        HwdbBatch t = {};
        HwdbLookup l = {};
        bool any_failed = false;
        int r;

        for (size_t i = 0; i < n_fixed + w->n_keys; i++) {
                const char *key = i < w->n_keys ? w->keys[i] : fuzz_hwdb_keys[i - w->n_keys];

                fuzz_assert(hwdb_batch_add(&t, key, strlen(key)) >= 0);
        }
        r = hwdb_batch_lookup(&t, &l, b);
        fuzz_assert(r >= 0 || r == -EBADMSG || r == -ELOOP || r == -ENOBUFS);

        for (size_t i = 0; i < t.n_keys; i++) {
                const char *key = i < w->n_keys ? w->keys[i] : fuzz_hwdb_keys[i - w->n_keys];
                HwdbLookup one = {};
                const HwdbBatchProp *props;
                int n = hwdb_lookup(&one, b, key);

                any_failed = any_failed || n < 0;
                if (r >= 0) {
                        fuzz_assert(n >= 0);
                        fuzz_assert(hwdb_batch_answer(&t, i, &props) == (size_t) n);
                        for (int k = 0; k < n; k++)
                                fuzz_assert(streq(props[k].key, one.props[k].key) &&
                                            streq(props[k].value, one.props[k].value));
                }
                hwdb_lookup_done(&one);
        }
        fuzz_assert(r >= 0 || r == -ENOBUFS || any_failed);
        hwdb_lookup_done(&l);
        hwdb_batch_done(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const char *reason = NULL;
        StrBuf answer = {};
        HwdbBin *b = NULL;
        Walk w = {};
        int r, verified;

        r = hwdb_bin_new_from_memory(fuzz_copy(data, size, 0), size, true, &b, &reason);
        fuzz_assert(r >= 0 || r == -EBADMSG);
        fuzz_assert(r >= 0 || reason);
        fuzz_assert((open_file(data, size) >= 0) == (r >= 0));
        if (r < 0)
                return 0;

        verified = hwdb_bin_verify(b, &reason);
        fuzz_assert(verified >= 0 || verified == -EBADMSG);

        fuzz_assert(strbuf_reserve(&w.pattern, 64) >= 0);
        walk(b, b->root_off, &w, 0);

        for (size_t i = 0; i < sizeof(fuzz_hwdb_keys) / sizeof(fuzz_hwdb_keys[0]) + w.n_keys; i++) {
                const char *key = i < w.n_keys ? w.keys[i] : fuzz_hwdb_keys[i - w.n_keys];

                if (verified >= 0)
                        fuzz_assert(fuzz_hwdb_lookup_both(b, key, &answer) >= 0);
                else {
                        r = fuzz_hwdb_answer(b, key, false, &answer);
                        fuzz_assert(r >= 0 || r == -EBADMSG || r == -ELOOP);
                        r = fuzz_hwdb_answer(b, key, true, &answer);
                        fuzz_assert(r >= 0 || r == -EBADMSG || r == -ELOOP);
                }
        }

        check_batch(b, &w);

        for (size_t i = 0; i < w.n_keys; i++)
                free(w.keys[i]);
        strbuf_done(&w.pattern);
        strbuf_done(&w.key);
        strbuf_done(&answer);
        hwdb_bin_free(b);
        return 0;
}
