/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The memo of judgements (predict-cache.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "basic/macro.h"
#include "predict-cache.h"
#include "unit-name.h"

/* The table: sets of four slots of 16 bytes, one cache line per set. Its
 * full size is allocated at once (calloc() of that much maps zero pages
 * the kernel provides when first touched) and used from the start: a run
 * over a few hundred distinct units touches the first few pages only. The
 * sets in use double in place while they are half full: the entries of
 * set i stay there or move to set i + n_sets, by the next bit of their
 * hash. */
#define CACHE_WAYS 4
#define CACHE_SETS_MIN 256
#define CACHE_SETS_MAX 2048 /* 8192 answers at most */

typedef struct CacheEntry {
        uint32_t hash;   /* the low bits of the key's hash; the lowest pick the set */
        uint32_t record; /* arena offset of the entry's record + 1; 0: the slot is empty */
        uint64_t meta;   /* everything of the key but the text (make_key()) */
} CacheEntry;

/* An entry's record in the arena: this header, the texts of the key
 * (section, key, value, unit name: the lengths are in meta, no NULs), then
 * the message with its NUL when there is one; padded to four bytes. */
typedef struct CacheRecord {
        uint32_t tick;      /* last use (least recently used slot of a set replaced) */
        uint16_t directive; /* directive_get() index + 1, 0 for none */
        uint8_t verdict;
        uint8_t flags;
} CacheRecord;

enum {
        FLAG_INVALID = 1 << 0,
        FLAG_DASH_ESCAPED = 1 << 1,
        FLAG_DEFERRED = 1 << 2,
        FLAG_NAMES_ROOT = 1 << 3,
        FLAG_PARTIAL = 1 << 4,
        FLAG_MACHINE = 1 << 5,
        FLAG_MESSAGE = 1 << 6,
};

/* The arena of records: appended to; a replaced record stays until the
 * arena is full and at least half of it is such, then the live records are
 * copied into a new one (every byte is copied about once more). */
#define ARENA_MIN (256u * 1024u) /* allocated at first use; touched as filled */
#define ARENA_MAX (UINT32_MAX / 2)

struct PredictCache {
        CacheEntry *entries; /* CACHE_SETS_MAX * CACHE_WAYS, allocated on first use */
        size_t n_sets;       /* in use */
        size_t n_live;
        uint32_t tick;
        char *arena;
        size_t arena_size, arena_used, arena_live;
        const Directive *directives; /* directive_get(0): records hold indexes */
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
                     const char *key, size_t key_len, const char *value, size_t value_len, CacheKey *k) {
        uint64_t h;
        bool special;

        k->section = section_id >= 0 ? "" : section;
        k->section_len = section_id >= 0 ? 0 : strlen(section);
        k->key = key;
        k->key_len = key_len;
        k->value = value;
        k->value_len = value_len;
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

static CacheRecord *record_of(const PredictCache *c, const CacheEntry *e) {
        return (CacheRecord *) (c->arena + e->record - 1);
}

static size_t key_text_size(uint64_t meta) {
        /* The lengths are in meta (make_key()). */
        return (meta >> 22 & META_SECTION_LEN_MAX) + (meta >> 30 & META_KEY_LEN_MAX) +
               (meta >> 38 & META_VALUE_LEN_MAX) + (meta >> 50 & META_UNIT_LEN_MAX);
}

static size_t record_size(size_t text_size, size_t message_size) {
        return (sizeof(CacheRecord) + text_size + message_size + 3) & ~(size_t) 3;
}

static const char *record_message(const CacheRecord *rec, uint64_t meta) {
        return rec->flags & FLAG_MESSAGE ? (const char *) (rec + 1) + key_text_size(meta) : NULL;
}

static size_t entry_record_size(const PredictCache *c, const CacheEntry *e) {
        const CacheRecord *rec = record_of(c, e);
        const char *m = record_message(rec, e->meta);

        return record_size(key_text_size(e->meta), m ? strlen(m) + 1 : 0);
}

static bool entry_matches(const PredictCache *c, const CacheEntry *e, const CacheKey *k) {
        const char *t;

        if (e->hash != (uint32_t) k->hash || e->meta != k->meta)
                return false;
        /* Most lines are in a known section (no text) of a unit whose
         * name does not count. */
        t = (const char *) (record_of(c, e) + 1);
        if (k->section_len > 0 && !bytes_equal(t, k->section, k->section_len))
                return false;
        t += k->section_len;
        if (!bytes_equal(t, k->key, k->key_len))
                return false;
        t += k->key_len;
        if (!bytes_equal(t, k->value, k->value_len))
                return false;
        t += k->value_len;
        return k->unit_len == 0 || bytes_equal(t, k->unit, k->unit_len);
}

/* Room for n more bytes at the end of the arena (see ARENA_MIN). */
static int arena_reserve(PredictCache *c, size_t n) {
        size_t size = MAX((size_t) ARENA_MIN, c->arena_size);
        char *a, *t;

        if (c->arena_used + n <= c->arena_size)
                return 0;
        while (size < 2 * (c->arena_live + n))
                size *= 2;
        if (size > ARENA_MAX)
                return -ENOMEM;
        if (c->arena && c->arena_used - c->arena_live < c->arena_size / 2) {
                /* Little to win back: a larger one, the offsets kept. */
                a = realloc(c->arena, size);
                if (!a)
                        return -ENOMEM;
                c->arena = a;
                c->arena_size = size;
                return 0;
        }
        t = a = malloc(size);
        if (!a)
                return -ENOMEM;
        for (size_t i = 0; c->entries && i < c->n_sets * CACHE_WAYS; i++) {
                CacheEntry *e = &c->entries[i];
                size_t l;

                if (!e->record)
                        continue;
                l = entry_record_size(c, e);
                memcpy(t, record_of(c, e), l);
                e->record = (uint32_t) (t - a) + 1;
                t += l;
        }
        free(c->arena);
        c->arena = a;
        c->arena_size = size;
        c->arena_used = (size_t) (t - a);
        return 0;
}

static char *append(char *at, const char *s, size_t n) {
        if (n > 0) /* s may be NULL then */
                memcpy(at, s, n);
        return at + n;
}

static void entry_drop(PredictCache *c, CacheEntry *e) {
        if (!e->record)
                return;
        c->arena_live -= entry_record_size(c, e);
        c->n_live--;
        *e = (CacheEntry) {};
}

/* Stores j for k in e (emptied first). On OOM the slot stays empty: the
 * memo only forgets. */
static void entry_store(PredictCache *c, CacheEntry *e, const CacheKey *k, const Judgement *j) {
        size_t message_size = j->message ? strlen(j->message) + 1 : 0;
        size_t size = record_size(k->section_len + k->key_len + k->value_len + k->unit_len, message_size);
        CacheRecord *rec;
        char *t;

        entry_drop(c, e);
        if (arena_reserve(c, size) < 0)
                return;
        rec = (CacheRecord *) (c->arena + c->arena_used);
        *rec = (CacheRecord) {
                .tick = c->tick,
                .directive = j->directive ? (uint16_t) (j->directive - c->directives + 1) : 0,
                .verdict = (uint8_t) j->verdict,
                .flags = (j->invalid ? FLAG_INVALID : 0) | (j->dash_escaped ? FLAG_DASH_ESCAPED : 0) |
                         (j->deferred ? FLAG_DEFERRED : 0) | (j->names_root ? FLAG_NAMES_ROOT : 0) |
                         (j->partial ? FLAG_PARTIAL : 0) | (j->machine ? FLAG_MACHINE : 0) |
                         (j->message ? FLAG_MESSAGE : 0),
        };
        t = (char *) (rec + 1);
        t = append(t, k->section, k->section_len);
        t = append(t, k->key, k->key_len);
        t = append(t, k->value, k->value_len);
        t = append(t, k->unit, k->unit_len);
        append(t, j->message, message_size);
        *e = (CacheEntry) {
                .hash = (uint32_t) k->hash,
                .record = (uint32_t) c->arena_used + 1,
                .meta = k->meta,
        };
        c->arena_used += size;
        c->arena_live += size;
        c->n_live++;
}

static CacheEntry *set_of(const PredictCache *c, uint32_t hash) {
        return &c->entries[(hash & (c->n_sets - 1)) * CACHE_WAYS];
}

/* The slot of a set to fill: an empty one, else the least recently used. */
static CacheEntry *least_recent(const PredictCache *c, CacheEntry *set) {
        CacheEntry *victim = NULL;

        for (size_t w = 0; w < CACHE_WAYS; w++) {
                if (!set[w].record)
                        return &set[w];
                if (!victim || record_of(c, &set[w])->tick < record_of(c, victim)->tick)
                        victim = &set[w];
        }
        return victim;
}

/* Twice the sets in use: the entries of set i whose next hash bit is set
 * move to set i + n_sets, which is empty. */
static void table_grow(PredictCache *c) {
        size_t n = c->n_sets;

        for (size_t i = 0; i < n; i++) {
                CacheEntry *from = &c->entries[i * CACHE_WAYS], *to = &c->entries[(i + n) * CACHE_WAYS];

                for (size_t w = 0; w < CACHE_WAYS; w++)
                        if (from[w].record && (from[w].hash & n)) {
                                *to++ = from[w];
                                from[w] = (CacheEntry) {};
                        }
        }
        c->n_sets = 2 * n;
}

PredictCache *predict_cache_new(void) {
        PredictCache *c = calloc(1, sizeof(PredictCache));

        if (c)
                c->directives = directive_get(0);
        return c;
}

PredictCache *predict_cache_free(PredictCache *c) {
        if (!c)
                return NULL;
        free(c->entries);
        free(c->arena);
        free(c->block);
        free(c);
        return NULL;
}

/* A copy of a stored judgement, with a message of its own. */
static int answer(const PredictCache *c, const CacheRecord *rec, uint64_t meta, Judgement *ret) {
        const char *m = record_message(rec, meta);

        *ret = (Judgement) {
                .verdict = (Verdict) rec->verdict,
                .directive = rec->directive ? c->directives + rec->directive - 1 : NULL,
                .invalid = rec->flags & FLAG_INVALID,
                .dash_escaped = rec->flags & FLAG_DASH_ESCAPED,
                .deferred = rec->flags & FLAG_DEFERRED,
                .names_root = rec->flags & FLAG_NAMES_ROOT,
                .partial = rec->flags & FLAG_PARTIAL,
                .machine = rec->flags & FLAG_MACHINE,
        };
        if (m && !(ret->message = strdup(m))) {
                *ret = (Judgement) {};
                return -ENOMEM;
        }
        return 0;
}

/* The next tick; when the counter wraps, every entry's age starts over
 * (the order of use is forgotten once, nothing else). */
static void tick(PredictCache *c) {
        if (++c->tick != 0)
                return;
        for (size_t i = 0; i < c->n_sets * CACHE_WAYS; i++)
                if (c->entries[i].record)
                        record_of(c, &c->entries[i])->tick = 0;
        c->tick = 1;
}

int predict_cache_judge(PredictCache *c, const JudgeContext *ctx, DirectiveSection section_id, const char *section,
                        const char *key, size_t key_len, const char *value, size_t value_len, Judgement *ret) {
        UnitType type = ctx->type;
        CacheEntry *set, *victim;
        CacheKey k;
        int r;

        if (!value) {
                value = "";
                value_len = 0;
        }
        if (!c)
                return judge_assignment_in(ctx, section_id, section, key, value, ret);
        if (!c->entries) {
                c->entries = calloc(CACHE_SETS_MAX * CACHE_WAYS, sizeof(CacheEntry));
                if (!c->entries)
                        return -ENOMEM;
                c->n_sets = CACHE_SETS_MIN;
        }
        /* The type the judge itself would use. */
        if (type < 0 || type >= _UNIT_TYPE_MAX)
                type = ctx->unit_name ? unit_name_to_type(ctx->unit_name) : _UNIT_TYPE_INVALID;

        if (!make_key(ctx, type, section_id, section, key, key_len, value, value_len, &k))
                return judge_assignment_in(ctx, section_id, section, key, value, ret);

        tick(c);
        set = set_of(c, (uint32_t) k.hash);
        for (size_t w = 0; w < CACHE_WAYS; w++) {
                CacheEntry *e = &set[w];

                if (e->record && entry_matches(c, e, &k)) {
                        CacheRecord *rec = record_of(c, e);

                        rec->tick = c->tick;
                        c->hits++;
                        return answer(c, rec, e->meta, ret);
                }
        }

        c->misses++;
        r = judge_assignment_in(ctx, section_id, section, key, value, ret);
        if (r < 0)
                return r;
        /* Half full: twice the sets, up to the table's size. */
        if (c->n_live >= c->n_sets * CACHE_WAYS / 2 && c->n_sets < CACHE_SETS_MAX) {
                table_grow(c);
                set = set_of(c, (uint32_t) k.hash);
        }
        victim = least_recent(c, set);
        entry_store(c, victim, &k, ret);
        return 0;
}

void predict_cache_stats(const PredictCache *c, size_t *ret_hits, size_t *ret_misses) {
        *ret_hits = c ? c->hits : 0;
        *ret_misses = c ? c->misses : 0;
}

size_t predict_cache_capacity(const PredictCache *c) {
        return c && c->entries ? c->n_sets * CACHE_WAYS : 0;
}

size_t predict_cache_size(const PredictCache *c) {
        return c ? c->n_live : 0;
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
