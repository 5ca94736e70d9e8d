/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The memo of judgements (predict-cache.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "basic/macro.h"
#include "predict-cache.h"
#include "unit-name.h"

#define CACHE_WAYS 4
#define CACHE_SETS 2048 /* a power of two: 8192 answers at most */

typedef struct CacheEntry {
        uint64_t hash;
        uint64_t meta;     /* everything of the key but the text (make_key()) */
        uint64_t tick;     /* last use; 0: the slot is empty */
        char *text;        /* section, key, value and (when keyed) unit name, each NUL-terminated */
        Judgement j;       /* the message is the entry's */
} CacheEntry;

struct PredictCache {
        CacheEntry *entries; /* CACHE_SETS * CACHE_WAYS, allocated on first use */
        uint64_t tick;
        size_t hits, misses;
        void *block;
        size_t block_size;
};

/* What the memo is keyed on, measured once. */
typedef struct CacheKey {
        uint64_t hash, meta;
        const char *section, *key, *value, *unit;
        size_t section_len, key_len, value_len, unit_len;
} CacheKey;

/* The parts of the key that are not text, with the lengths of the texts,
 * packed in one word: a candidate is rejected in two compares. Longer
 * texts or versions out of range are not memoized. */
#define META_VERSION_MAX 1023u
#define META_SECTION_LEN_MAX 255u
#define META_KEY_LEN_MAX 255u
#define META_VALUE_LEN_MAX 4095u
#define META_UNIT_LEN_MAX 511u

#define HASH_MUL UINT64_C(0x9e3779b97f4a7c15)
#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

/* Whether any byte of w is zero (exact, with the borrow masked off). */
static inline uint64_t has_zero(uint64_t w) {
        return (w - ONES) & ~w & HIGHS;
}

static inline uint64_t load8(const char *p) {
        uint64_t w;

        memcpy(&w, p, 8);
        return w;
}

/* The last n % 8 bytes of the n at p, in one word, without reading past
 * them: the last eight bytes (overlapping the words before) when there
 * are that many, else all of them from a few smaller loads (zero bytes
 * elsewhere). Every byte is in the word, so is any '%'. */
static inline uint64_t load_tail(const char *p, size_t n) {
        uint32_t a, b;

        if (n >= 8)
                return load8(p + n - 8);
        if (n >= 4) {
                memcpy(&a, p, 4);
                memcpy(&b, p + n - 4, 4);
                return (uint64_t) a << 32 | b;
        }
        if (n == 0)
                return 0;
        return (uint64_t) (unsigned char) p[0] << 16 | (uint64_t) (unsigned char) p[n >> 1] << 8 |
               (unsigned char) p[n - 1];
}

/* n bytes of s, eight at a time: lines are hashed by the ten thousand.
 * With special set, also whether a '%' or a '\\' is among them. */
static inline uint64_t hash_bytes(uint64_t h, const char *s, size_t n, bool *special) {
        uint64_t w, any = 0;
        size_t i;

        for (i = 0; i + 8 <= n; i += 8) {
                w = load8(s + i);
                if (special)
                        any |= has_zero(w ^ ('%' * ONES)) | has_zero(w ^ ('\\' * ONES));
                h = (h ^ w) * HASH_MUL;
                h ^= h >> 31;
        }
        w = i < n ? load_tail(s, n) : 0;
        if (special) {
                any |= has_zero(w ^ ('%' * ONES)) | has_zero(w ^ ('\\' * ONES));
                *special = any != 0;
        }
        h = (h ^ w ^ (uint64_t) n << 56) * HASH_MUL;
        return h ^ (h >> 31);
}

/* Equal bytes, eight at a time, inline: most strings compared are short. */
static inline bool bytes_equal(const char *a, const char *b, size_t n) {
        size_t i;

        for (i = 0; i + 8 <= n; i += 8)
                if (load8(a + i) != load8(b + i))
                        return false;
        return i == n || load_tail(a, n) == load_tail(b, n);
}

/* A section systemd knows is keyed by its id (which names it exactly),
 * any other one by its text. Returns false when the line is not to be
 * memoized (too long). */
static bool make_key(const JudgeContext *ctx, UnitType type, DirectiveSection section_id, const char *section,
                     const char *key, const char *value, CacheKey *k) {
        uint64_t h;
        bool special;

        k->section = section_id >= 0 ? "" : section;
        k->section_len = section_id >= 0 ? 0 : strlen(section);
        k->key = key;
        k->key_len = strlen(key);
        k->value = value;
        k->value_len = strlen(value);
        if (ctx->version > META_VERSION_MAX || k->section_len > META_SECTION_LEN_MAX ||
            k->key_len > META_KEY_LEN_MAX || k->value_len > META_VALUE_LEN_MAX ||
            k->section_len + k->key_len + k->value_len > PREDICT_CACHE_MAX_LINE)
                return false;

        h = hash_bytes(HASH_MUL, key, k->key_len, NULL);
        if (k->section_len > 0)
                h = hash_bytes(h, section, k->section_len, NULL);
        /* A specifier, or an escape that may become one: the unit name counts. */
        h = hash_bytes(h, value, k->value_len, &special);
        k->unit = special ? ctx->unit_name : NULL;
        k->unit_len = k->unit ? strlen(k->unit) : 0;
        if (k->unit_len > META_UNIT_LEN_MAX)
                return false;
        if (k->unit)
                h = hash_bytes(h, k->unit, k->unit_len, NULL);

        k->meta = (uint64_t) ctx->version | (uint64_t) (type + 1) << 10 | (uint64_t) (section_id + 1) << 15 |
                  (uint64_t) special << 20 | (uint64_t) (k->unit != NULL) << 21 | (uint64_t) k->section_len << 22 |
                  (uint64_t) k->key_len << 30 | (uint64_t) k->value_len << 38 | (uint64_t) k->unit_len << 50;
        /* Fold the high bits into the low ones, which pick the set. */
        h ^= k->meta * HASH_MUL;
        h ^= h >> 29;
        h *= UINT64_C(0xbf58476d1ce4e5b9);
        h ^= h >> 32;
        k->hash = h;
        return true;
}

static bool entry_matches(const CacheEntry *e, const CacheKey *k) {
        const char *t = e->text;

        if (e->hash != k->hash || e->meta != k->meta)
                return false;
        if (k->section_len > 0) {
                if (!bytes_equal(t, k->section, k->section_len))
                        return false;
                t += k->section_len;
        }
        t++;
        if (!bytes_equal(t, k->key, k->key_len))
                return false;
        t += k->key_len + 1;
        if (!bytes_equal(t, k->value, k->value_len))
                return false;
        t += k->value_len + 1;
        return !k->unit || bytes_equal(t, k->unit, k->unit_len);
}

static void entry_done(CacheEntry *e) {
        free(e->text);
        free(e->j.message);
        *e = (CacheEntry) {};
}

/* Stores a copy of j for k in e (emptied first). On OOM the slot stays
 * empty: the memo only forgets. */
static void entry_store(CacheEntry *e, const CacheKey *k, const Judgement *j, uint64_t tick) {
        size_t n = k->section_len + k->key_len + k->value_len + k->unit_len + 4;
        char *text, *t;
        char *message = NULL;

        entry_done(e);
        if (j->message && !(message = strdup(j->message)))
                return;
        t = text = malloc(n);
        if (!text) {
                free(message);
                return;
        }
        memcpy(t, k->section, k->section_len + 1);
        t += k->section_len + 1;
        memcpy(t, k->key, k->key_len + 1);
        t += k->key_len + 1;
        memcpy(t, k->value, k->value_len + 1);
        t += k->value_len + 1;
        if (k->unit)
                memcpy(t, k->unit, k->unit_len + 1);
        else
                *t = '\0';

        *e = (CacheEntry) {
                .hash = k->hash,
                .meta = k->meta,
                .tick = tick,
                .text = text,
                .j = *j,
        };
        e->j.message = message;
}

PredictCache *predict_cache_new(void) {
        return calloc(1, sizeof(PredictCache));
}

PredictCache *predict_cache_free(PredictCache *c) {
        if (!c)
                return NULL;
        for (size_t i = 0; c->entries && i < CACHE_SETS * CACHE_WAYS; i++)
                if (c->entries[i].tick)
                        entry_done(&c->entries[i]);
        free(c->entries);
        free(c->block);
        free(c);
        return NULL;
}

/* A copy of a stored judgement, with a message of its own. */
static int answer(const CacheEntry *e, Judgement *ret) {
        *ret = e->j;
        if (e->j.message && !(ret->message = strdup(e->j.message))) {
                *ret = (Judgement) {};
                return -ENOMEM;
        }
        return 0;
}

int predict_cache_judge(PredictCache *c, const JudgeContext *ctx, DirectiveSection section_id, const char *section,
                        const char *key, const char *value, Judgement *ret) {
        UnitType type = ctx->type;
        CacheEntry *set, *victim;
        CacheKey k;
        int r;

        if (!value)
                value = "";
        if (!c)
                return judge_assignment_in(ctx, section_id, section, key, value, ret);
        if (!c->entries) {
                c->entries = calloc(CACHE_SETS * CACHE_WAYS, sizeof(CacheEntry));
                if (!c->entries)
                        return -ENOMEM;
        }
        /* The type the judge itself would use. */
        if (type < 0 || type >= _UNIT_TYPE_MAX)
                type = ctx->unit_name ? unit_name_to_type(ctx->unit_name) : _UNIT_TYPE_INVALID;

        if (!make_key(ctx, type, section_id, section, key, value, &k))
                return judge_assignment_in(ctx, section_id, section, key, value, ret);

        c->tick++;
        set = &c->entries[(k.hash & (CACHE_SETS - 1)) * CACHE_WAYS];
        victim = set;
        for (size_t w = 0; w < CACHE_WAYS; w++) {
                CacheEntry *e = &set[w];

                if (e->tick && entry_matches(e, &k)) {
                        e->tick = c->tick;
                        c->hits++;
                        return answer(e, ret);
                }
                if (e->tick < victim->tick)
                        victim = e;
        }

        c->misses++;
        r = judge_assignment_in(ctx, section_id, section, key, value, ret);
        if (r < 0)
                return r;
        entry_store(victim, &k, ret, c->tick);
        return 0;
}

void predict_cache_stats(const PredictCache *c, size_t *ret_hits, size_t *ret_misses) {
        *ret_hits = c ? c->hits : 0;
        *ret_misses = c ? c->misses : 0;
}

void *predict_cache_block(PredictCache *c, size_t size) {
        if (size > c->block_size) {
                void *b = malloc(size);

                if (!b)
                        return NULL;
                free(c->block);
                c->block = b;
                c->block_size = size;
        }
        return c->block;
}
