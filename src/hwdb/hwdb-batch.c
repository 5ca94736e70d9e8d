/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "basic/macro.h"
#include "hwdb-batch.h"

/* A key (its text is text[index]), and 8 of its bytes for the sort: from
 * some offset on, big endian, zero after the key's end, so integer order
 * is strcmp order. The sort moves these 16-byte entries in contiguous
 * arrays and compares integers, instead of chasing key pointers: strcmp
 * through qsort over keys scattered in the input buffer was a fifth of a
 * batch's time. */
struct HwdbBatchKey {
        uint64_t chunk;
        uint32_t len;
        uint32_t index;         /* in the order added */
};

/* Entries [start, start + n) share their first off bytes; they lie in
 * tmp rather than keys when in_tmp. */
struct HwdbBatchRun {
        size_t start, n, off;
        bool in_tmp;
};

void hwdb_batch_done(HwdbBatch *t) {
        free(t->keys);
        free(t->tmp);
        free(t->text);
        free(t->runs);
        free(t->answers);
        free(t->props);
        *t = (HwdbBatch) {};
}

void hwdb_batch_clear(HwdbBatch *t) {
        t->n_keys = 0;
        t->n_props = 0;
}

/* chunk_at() for the last bytes of a key, out of line: its array would
 * give every caller a stack protector. */
static __attribute__((noinline)) uint64_t chunk_tail(const char *key, size_t len, size_t off) {
        uint8_t b[8] = {};
        uint64_t v;

        if (off < len)
                memcpy(b, key + off, len - off);
        memcpy(&v, b, sizeof(v));
        return be64toh(v);
}

static inline uint64_t chunk_at(const char *key, size_t len, size_t off) {
        uint64_t v;

        if (off < len && len - off >= sizeof(v)) {
                memcpy(&v, key + off, sizeof(v));       /* one load */
                return be64toh(v);
        }
        return chunk_tail(key, len, off);
}

static int resize(void **array, size_t n, size_t size) {
        void *p = reallocarray_safe(*array, n, size);

        if (!p)
                return -ENOMEM;
        *array = p;
        return 0;
}

/* The same for an array whose contents need not be kept: no copy. The
 * old array stays when there is no memory for the new one. */
static int renew(void **array, size_t n, size_t size) {
        void *p = reallocarray_safe(NULL, n, size);

        if (!p)
                return -ENOMEM;
        free(*array);
        *array = p;
        return 0;
}

/* A batch starts with room for this many keys: growing by doubling from
 * a few copies the arrays again and again (in the first batch of a run,
 * in fresh memory, page by page). */
#define BATCH_KEYS_MIN 1024u

static __attribute__((noinline)) int reserve(HwdbBatch *t, size_t need) {
        size_t allocated = t->keys_allocated;
        int r;

        if (t->keys && need <= allocated)
                return 0;
        r = GREEDY_REALLOC(t->keys, allocated, MAX(need, (size_t) BATCH_KEYS_MIN));
        if (r < 0)
                return r;
        /* The other arrays follow the key array's size; between lookups
         * only text holds anything. */
        if (resize((void **) &t->text, allocated, sizeof(const char *)) < 0 ||
            renew((void **) &t->tmp, allocated, sizeof(HwdbBatchKey)) < 0 ||
            renew((void **) &t->runs, allocated, sizeof(HwdbBatchRun)) < 0 ||
            renew((void **) &t->answers, allocated, sizeof(HwdbBatchAnswer)) < 0)
                return -ENOMEM;
        t->keys_allocated = allocated;
        return 0;
}

int hwdb_batch_add(HwdbBatch *t, const char *key, size_t len) {
        int r;

        if (t->n_keys >= UINT32_MAX || len > UINT32_MAX)
                return -E2BIG;
        if (!t->keys || t->n_keys >= t->keys_allocated) {
                r = reserve(t, t->n_keys + 1);
                if (r < 0)
                        return r;
        }
        /* The first 8 bytes now, while the key is in the cache. */
        t->keys[t->n_keys] = (HwdbBatchKey) {
                .chunk = chunk_at(key, len, 0),
                .len = (uint32_t) len,
                .index = (uint32_t) t->n_keys,
        };
        t->text[t->n_keys] = key;
        t->n_keys++;
        return 0;
}

static void insertion_sort(HwdbBatchKey *e, size_t n) {
        for (size_t i = 1; i < n; i++) {
                HwdbBatchKey x = e[i];
                size_t j = i;

                for (; j > 0 && e[j - 1].chunk > x.chunk; j--)
                        e[j] = e[j - 1];
                e[j] = x;
        }
}

/* Runs this short are sorted by whole chunks, longer ones by one byte. */
#define SORT_SHORT 32

/* Most significant byte first (a run's entries share their first off
 * bytes): a long run is distributed by its byte at off in one counting
 * pass, into runs that are sorted the same way on the next byte; a short
 * one is insertion-sorted on its chunk (the bytes before off are equal, so
 * comparing whole chunks compares the rest of them), and runs of equal
 * chunks go on at the next chunk. A run's chunk is loaded when it starts
 * a new 8 bytes. Each pass works on one run, which soon fits the cache; no
 * quadratic case, whatever comes in. */
static void sort_keys(HwdbBatch *t) {
        size_t n_runs = 0;

        if (t->n_keys < 2)
                return;
        /* Every run on the stack has at least two entries, and the runs are
         * disjoint: at most n_keys / 2 at a time. A run distributed from
         * keys lands in tmp and the other way round; only the entries
         * that need no more sorting are copied back from tmp to keys. */
        t->runs[n_runs++] = (HwdbBatchRun) { 0, t->n_keys, 0, false };
        while (n_runs > 0) {
                HwdbBatchRun run = t->runs[--n_runs];
                HwdbBatchKey *e = (run.in_tmp ? t->tmp : t->keys) + run.start;
                HwdbBatchKey *home = t->keys + run.start;

                if (run.off > 0 && run.off % 8 == 0)
                        for (size_t i = 0; i < run.n; i++)
                                e[i].chunk = chunk_at(t->text[e[i].index], e[i].len, run.off);

                if (run.n <= SORT_SHORT) {
                        size_t next = run.off - run.off % 8 + 8;

                        insertion_sort(e, run.n);
                        if (run.in_tmp)
                                memcpy(home, e, run.n * sizeof(HwdbBatchKey));
                        /* Equal chunks: the same 8 bytes; if the keys go on
                         * after them (then all do: a key's end is a zero
                         * byte there), the next 8 decide. */
                        for (size_t i = 0, j; i < run.n; i = j) {
                                for (j = i + 1; j < run.n && home[j].chunk == home[i].chunk; j++)
                                        ;
                                if (j - i >= 2 && home[i].len > next)
                                        t->runs[n_runs++] = (HwdbBatchRun) { run.start + i, j - i, next, false };
                        }
                        continue;
                }

                /* Bytes all entries share are skipped, not distributed. */
                uint64_t differ = 0;
                for (size_t i = 1; i < run.n; i++)
                        differ |= e[i].chunk ^ e[0].chunk;
                if (differ == 0) {
                        size_t next = run.off - run.off % 8 + 8;

                        if (e[0].len > next)
                                t->runs[n_runs++] = (HwdbBatchRun) { run.start, run.n, next, run.in_tmp };
                        else if (run.in_tmp)
                                memcpy(home, e, run.n * sizeof(HwdbBatchKey));
                        continue;
                }
                /* The bytes before off are equal, so the first differing
                 * byte is at off or after it. */
                run.off += (size_t) __builtin_clzll(differ) / 8 - run.off % 8;

                unsigned shift = 56 - 8 * (unsigned) (run.off % 8), lo = 255, hi = 0;
                size_t count[256] = {}, end[256], pos = 0;
                HwdbBatchKey *dst = (run.in_tmp ? t->keys : t->tmp) + run.start;

                /* Keys are text: their bytes at one place span far less
                 * than 256 values, and only that span is gone through. */
                for (size_t i = 0; i < run.n; i++) {
                        unsigned c = (unsigned) (e[i].chunk >> shift) & 0xff;

                        count[c]++;
                        lo = MIN(lo, c);
                        hi = MAX(hi, c);
                }
                for (size_t c = lo; c <= hi; c++) {
                        end[c] = pos;
                        pos += count[c];
                }
                for (size_t i = 0; i < run.n; i++)
                        dst[end[(e[i].chunk >> shift) & 0xff]++] = e[i];
                for (size_t c = lo; c <= hi; c++) {
                        size_t k = count[c], from = end[c] - k;

                        /* Byte 0 is the end of the keys: those are equal. */
                        if (c > 0 && k >= 2)
                                t->runs[n_runs++] = (HwdbBatchRun) { run.start + from, k, run.off + 1, !run.in_tmp };
                        else if (k > 0 && !run.in_tmp)
                                memcpy(home + from, dst + from, k * sizeof(HwdbBatchKey));
                }
        }
}

/* How many keys ahead of the lookups a key is fetched into the cache: the
 * keys of a sorted batch lie all over the input. Where a key lies is
 * itself a load from all over the text array (indexed by the order
 * added): that, and the key's answer slot, are fetched as many keys
 * further ahead. Without it the prefetch of the key waited for the text
 * array: half the samples of this loop (perf, 1,000,000 pattern keys). */
#define PREFETCH_AHEAD 4

int hwdb_batch_lookup(HwdbBatch *t, HwdbLookup *l, const HwdbBin *b) {
        int r;

        t->n_props = 0;
        sort_keys(t);

        for (size_t i = 0; i < t->n_keys; i++) {
                const HwdbBatchKey *k = &t->keys[i];
                const char *key = t->text[k->index];
                int n;

                if (i + 2 * PREFETCH_AHEAD < t->n_keys) {
                        uint32_t ahead = t->keys[i + 2 * PREFETCH_AHEAD].index;

                        __builtin_prefetch(&t->text[ahead]);
                        __builtin_prefetch(&t->answers[ahead], 1);
                }
                if (i + PREFETCH_AHEAD < t->n_keys)
                        __builtin_prefetch(t->text[t->keys[i + PREFETCH_AHEAD].index]);
                /* A key asked again (sorted, so it follows itself) shares
                 * the answer already kept. */
                if (i > 0 && k->len == k[-1].len && memcmp(key, t->text[k[-1].index], k->len) == 0) {
                        t->answers[k->index] = t->answers[k[-1].index];
                        continue;
                }
                n = hwdb_lookup_next_len(l, b, key, k->len);
                if (n < 0)
                        return n;
                if ((size_t) n > HWDB_BATCH_MAX_PROPS - t->n_props)
                        return -ENOBUFS;
                r = GREEDY_REALLOC(t->props, t->props_allocated, t->n_props + (size_t) n);
                if (r < 0)
                        return r;
                t->answers[k->index] = (HwdbBatchAnswer) { (uint32_t) t->n_props, (uint32_t) n };
                for (int p = 0; p < n; p++)
                        t->props[t->n_props++] = (HwdbBatchProp) { l->props[p].key, l->props[p].value };
        }
        return 0;
}

const char *hwdb_batch_lookup_order(const HwdbBatch *t, size_t i) {
        return t->text[t->keys[i].index];
}
