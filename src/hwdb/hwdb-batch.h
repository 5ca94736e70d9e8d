/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "hwdb-bin.h"
#include "hwdb-lookup.h"

/* Many keys looked up at once, answered in the order they were added.
 *
 * The keys are looked up in sorted order with hwdb_lookup_next(): sorted
 * neighbours share most of their trie path, which then is walked once, and
 * the nodes a key reads were mostly just read by the key before, so they
 * are in the cache. On bench/hwdb-bench.py's 50,000 keys from the real
 * patterns this halves the instructions per key and the cache misses.
 *
 * A key that comes more than once is looked up once: its copies share
 * the answer.
 *
 * The answers are kept until the batch is cleared. Their total is capped
 * (HWDB_BATCH_MAX_PROPS): a batch whose answers would exceed it fails with
 * -ENOBUFS, and the caller looks its keys up one by one instead. */

/* One property of an answer; both strings point into the database. */
typedef struct HwdbBatchProp {
        const char *key;
        const char *value;
} HwdbBatchProp;

#define HWDB_BATCH_MAX_PROPS (UINT32_C(1) << 18)

typedef struct HwdbBatchKey HwdbBatchKey;
typedef struct HwdbBatchRun HwdbBatchRun;

/* Where a key's answer is: props[first, first + count). The two side by
 * side, as the lookups write them in sorted order, at the key's place in
 * the order added: one cache line written per key, not two. */
typedef struct HwdbBatchAnswer {
        uint32_t first;
        uint32_t count;
} HwdbBatchAnswer;

/* Zero-initialize; release with hwdb_batch_done(). */
typedef struct HwdbBatch {
        HwdbBatchKey *keys;     /* in the order added, then sorted */
        HwdbBatchKey *tmp;      /* scratch for the sort */
        const char **text;      /* per key, in the order added: the key */
        HwdbBatchRun *runs;     /* the sort's stack */
        HwdbBatchAnswer *answers; /* per key, in the order added */
        size_t n_keys, keys_allocated;
        HwdbBatchProp *props;   /* every answer, in lookup order */
        size_t n_props, props_allocated;
} HwdbBatch;

void hwdb_batch_done(HwdbBatch *t);
/* Forgets the keys and answers, keeps the memory. */
void hwdb_batch_clear(HwdbBatch *t);

/* Adds a key: len bytes, none of them NUL, followed by a NUL; the string
 * must stay valid until the batch is cleared. At most UINT32_MAX keys. */
int hwdb_batch_add(HwdbBatch *t, const char *key, size_t len);

/* Looks every key up (see above). Errors as hwdb_lookup(), or -ENOBUFS;
 * then no answer is valid. */
int hwdb_batch_lookup(HwdbBatch *t, HwdbLookup *l, const HwdbBin *b);

/* The answer of the i-th key added, after hwdb_batch_lookup(). Inline:
 * printing asks for every answer twice (once to prefetch it). */
static inline size_t hwdb_batch_answer(const HwdbBatch *t, size_t i, const HwdbBatchProp **ret) {
        *ret = t->props + t->answers[i].first;
        return t->answers[i].count;
}

/* The i-th key in the order hwdb_batch_lookup() looked them up: strcmp
 * order (for tests). */
const char *hwdb_batch_lookup_order(const HwdbBatch *t, size_t i);
