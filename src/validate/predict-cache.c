/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The memo of judgements (predict-cache.h). */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__) && !defined(PREDICT_CACHE_SCALAR)
#include <emmintrin.h>
#endif

#include "basic/macro.h"
#include "basic/unaligned.h"
#include "predict-cache.h"
#include "predict.h"
#include "unit-settings.h"
#include "unit-name.h"

/* The table: sets of eight slots, one cache line per set, a slot being a
 * 32-bit tag (from the key's hash) and the offset of its record in the
 * arena. Its full size is allocated at once (calloc() of that much maps
 * zero pages the kernel provides when first touched) and used from the
 * start: a short run touches the first few pages only. The sets in use
 * double in place while they are half full, and also when a line's set
 * is full: the table grows rather than drop an answer while it can. The
 * entries of set i stay there or move to set i + n_sets, by the next bit
 * of their tag. At its largest, a full set drops its least recently used
 * answer; and the answers are at most CACHE_LIVE_MAX, half the slots, so
 * that few sets are ever full. */
#define CACHE_WAYS 8
#define CACHE_SETS_MIN 128
#define CACHE_SETS_MAX 2048
#define CACHE_LIVE_MAX 8192
/* Places in the history, a power of two: room for a few thousand lines
 * between two copies of a file (the bench stream's repeats its corpus
 * every 6,000 lines), 128 KiB, of which a run touches two cache lines at
 * a time, both walked in order. */
#define HIST_SIZE (UINT32_C(1) << 15)
#define HIST_MASK (HIST_SIZE - 1)
/* Probation (see probation_over()): three bits per file's bytes, 4 KiB of
 * them, cleared when a quarter are set (some 3,100 files): a new file
 * passes for one seen before at most one time in 64, so that distinct
 * files come nowhere near one in PROBATION_SHARE. */
#define PROBATION_BITS (UINT32_C(1) << 15)
#define PROBATION_REPEATS 8
#define PROBATION_SHARE 16

typedef struct CacheSet {
        uint32_t tag[CACHE_WAYS];    /* the hash's high half with bit 0 set; 0: the slot is empty */
        uint32_t record[CACHE_WAYS]; /* the record's arena offset */
} CacheSet;

/* The bytes of a Judgement from its verdict on: no pointer among them
 * (the directive and the message come first). */
#define JUDGEMENT_TAIL offsetof(Judgement, verdict)
static_assert(offsetof(Judgement, directive) < JUDGEMENT_TAIL && offsetof(Judgement, message) < JUDGEMENT_TAIL,
              "a judgement's pointers come before its verdict");

/* An entry's record in the arena: this header, the texts of the key
 * (section, key, value, unit name: the lengths are in meta, no NULs), then
 * the message with its NUL when there is one; padded to eight bytes. The
 * header is small (48 bytes), so that it and a line of common length
 * share a cache line more often: the memo is read all over for every
 * unit. */
typedef struct CacheRecord {
        uint64_t meta;       /* everything of the key but the texts (scope meta and line_meta()) */
        /* Where it last answered a line in the history (see PredictCache):
         * also how recently it was used, the age n_hist - seen telling
         * which answer is replaced (the least recently used). */
        uint32_t seen;
        const Directive *directive; /* the answer's */
        /* The rest of the answer as judged, the judgement's bytes from its
         * verdict on (its message is a text of the record). */
        unsigned char tail[sizeof(Judgement) - JUDGEMENT_TAIL];
        uint16_t flags;
} CacheRecord;

enum {
        /* The value has a '%' or a '\\': the answer depends on the unit
         * name too, and is under the key with the name (named_judge()). */
        FLAG_NAMED = 1 << 0,
        FLAG_MESSAGE = 1 << 1,
        /* Replaced: no longer in the table (its bytes stay until the arena
         * is compacted). */
        FLAG_DROPPED = 1 << 2,
        /* The answer is listed (listed()). */
        FLAG_LISTED = 1 << 3,
};

/* Whether the caller lists the line (predict_cache_judge_section()):
 * the notable lines of predict.h (the plain ones no unit check reads are
 * not), and those with a message (to free). Stored with each answer, so
 * that a line the memo answers is told in one test. */
static inline bool listed(const Judgement *j) {
        return j->message || !judgement_is_plain(j) || unit_settings_reads(j);
}

/* No record (a record's offset in the arena is below ARENA_MAX). */
#define NO_RECORD UINT32_MAX

/* The arena of records: appended to; a replaced record stays until the
 * arena is full and at least half of it is such, then the live records are
 * copied into a new one (every byte is copied about once more). */
#define ARENA_MIN (256u * 1024u) /* allocated at first use; touched as filled */
#define ARENA_MAX (UINT32_MAX / 2)

/* A line's key: its scope's, the lengths of its texts, the texts, and
 * (for a value whose answer depends on it) the unit name. The key and the
 * value are hashed and compared as one text, "key\0value": the parser
 * leaves them so (the '=' between overwritten), other callers' lines are
 * copied that way. The lengths in meta tell where the value starts. */
typedef struct LineKey {
        uint64_t hash, meta;
        const char *text, *unit;
        size_t text_len, unit_len;
        const char *key, *value; /* for the judge */
} LineKey;

struct PredictCache {
        CacheSet *sets; /* CACHE_SETS_MAX of them, allocated on first store; till then no_sets */
        size_t n_sets;  /* in use, a power of two */
        size_t set_mask; /* n_sets - 1 */
        size_t n_live;
        char *arena;
        size_t arena_size, arena_used, arena_live;
        size_t hits, misses, hinted;
        void *block;
        size_t block_size;
        /* The history: the records that answered the last HIST_SIZE
         * lines, in order (hist[n_hist % HIST_SIZE] is the next one's
         * place). Files come again and again in the same order of lines
         * (the instances of a template, the same file in many streams), so
         * the lines after the previous line's record's place in the
         * history are likely the next lines: while one after another is
         * so, the cursor moves along, and a line whose record is another
         * one takes the cursor to its own record's last place. The record
         * at the cursor's next place is the first candidate for a line:
         * compared in full, as a record the set offers is, it spares the
         * hash and the set (see hinted()); and the history says which
         * records the next lines want before they are read, to fetch them
         * ahead. A common line followed by different lines in different
         * files keeps the cursor on the file it came with, where a record's
         * single successor could not. */
        uint32_t *hist;    /* allocated with the table; entries 0 (none) or a record's offset + 1 */
        bool active;       /* past probation: files' lines go through the memo */
        uint64_t *files_seen; /* on probation: PROBATION_BITS bits, three per file's bytes; else NULL */
        size_t files_set, n_files, n_repeats;
        uint32_t n_hist;   /* lines recorded (wraps: places are compared modulo 2^32) */
        uint32_t cursor;   /* the place of the previous line's record, when synced */
        bool synced;
        /* The line being looked up: kept here rather than passed to the
         * functions of the slow paths, which the lookup then reaches by a
         * jump, with no registers of its own to save. */
        LineKey line;
        char line_copy[PREDICT_CACHE_MAX_LINE + 1]; /* "key\0value" of a line not in that shape */
};

/* The table before the first answer is stored: one empty set, never
 * written to (slot_for() allocates the table). */
static const CacheSet no_sets;

static bool table_allocated(const PredictCache *c) {
        return c->sets != &no_sets;
}

/* The parts of the key that are not text, with the lengths of the texts,
 * packed in one word: a candidate is rejected in one compare. Longer texts
 * or versions out of range are not memoized. */
#define META_VERSION_MAX 1023u
#define META_SECTION_LEN_MAX 255u
#define META_KEY_LEN_MAX 255u
#define META_VALUE_LEN_MAX 4095u
#define META_UNIT_LEN_MAX 511u
#define META_NAMED (UINT64_C(1) << 20)    /* keyed on the unit name as well */
#define META_HAS_UNIT (UINT64_C(1) << 21) /* and the unit has a name (NULL and "" differ) */
#define META_SECTION_LEN_SHIFT 22
#define META_KEY_LEN_SHIFT 30
#define META_VALUE_LEN_SHIFT 38
#define META_UNIT_LEN_SHIFT 50

#define HASH_K0 UINT64_C(0x9e3779b97f4a7c15)
#define HASH_K1 UINT64_C(0xd6e8feb86659fd93)
#define HASH_K2 UINT64_C(0xa0761d6478bd642f)

/* The full 128-bit product of a and b folded to 64 bits: every bit of
 * either reaches most bits of the result, in one multiplication. */
static inline uint64_t fold(uint64_t a, uint64_t b) {
        unsigned __int128 p = (unsigned __int128) a * b;

        return (uint64_t) p ^ (uint64_t) (p >> 64);
}

/* The n bytes at s hashed into h, sixteen at a time: lines are hashed by
 * the ten thousand, and most keys and many values are one block. The last
 * block is the last sixteen bytes (overlapping the one before) when there
 * are that many, else built from smaller loads that read no byte past
 * s + n. The length goes in with the last block. */
#define _unlikely_(x) __builtin_expect(!!(x), 0)

static _always_inline_ uint64_t hash_text(uint64_t h, const char *s, size_t n) {
        uint64_t a, b;

        if (n > 16) {
                for (size_t i = 0; i + 16 < n; i += 16)
                        h = fold(unaligned_load64(s + i) ^ h, unaligned_load64(s + i + 8) ^ HASH_K1);
                a = unaligned_load64(s + n - 16);
                b = unaligned_load64(s + n - 8);
        } else if (n >= 8) {
                a = unaligned_load64(s);
                b = unaligned_load64(s + n - 8);
        } else if (n >= 4) {
                a = unaligned_load32(s);
                b = unaligned_load32(s + n - 4);
        } else if (n > 0) {
                a = (uint64_t) (unsigned char) s[0] << 16 | (uint64_t) (unsigned char) s[n >> 1] << 8 |
                    (unsigned char) s[n - 1];
                b = 0;
        } else
                a = b = 0;
        return fold(a ^ h, b ^ HASH_K1 ^ n);
}

#if defined(__SSE2__) && !defined(PREDICT_CACHE_SCALAR)
/* The sixteen bytes at a and at b are equal. */
static _always_inline_ bool block_equal(const char *a, const char *b) {
        __m128i x = _mm_loadu_si128((const __m128i *) (const void *) a);
        __m128i y = _mm_loadu_si128((const __m128i *) (const void *) b);

        return _mm_movemask_epi8(_mm_cmpeq_epi8(x, y)) == 0xffff;
}
#endif

/* The bits where the eight (four) bytes at a and at b differ. */
static inline uint64_t differ64(const char *a, const char *b) {
        return unaligned_load64(a) ^ unaligned_load64(b);
}

static inline uint64_t differ32(const char *a, const char *b) {
        return unaligned_load32(a) ^ unaligned_load32(b);
}

/* Equal bytes, sixteen at a time, inline: most texts compared are short.
 * The same loads as hash_text(), none past a + n or b + n. */
static _always_inline_ bool text_equal(const char *a, const char *b, size_t n) {
        if (n > 16) {
#if defined(__SSE2__) && !defined(PREDICT_CACHE_SCALAR)
                /* One load per text and block: every line memoized is
                 * compared in full, most are longer than sixteen bytes. */
                for (size_t i = 0; i + 16 < n; i += 16)
                        if (!block_equal(a + i, b + i))
                                return false;
                return block_equal(a + n - 16, b + n - 16);
#else
                for (size_t i = 0; i + 16 < n; i += 16)
                        if ((differ64(a + i, b + i) | differ64(a + i + 8, b + i + 8)) != 0)
                                return false;
                return (differ64(a + n - 16, b + n - 16) | differ64(a + n - 8, b + n - 8)) == 0;
#endif
        }
        if (n >= 8)
                return (differ64(a, b) | differ64(a + n - 8, b + n - 8)) == 0;
        if (n >= 4)
                return (differ32(a, b) | differ32(a + n - 4, b + n - 4)) == 0;
        return n == 0 || (a[0] == b[0] && a[n >> 1] == b[n >> 1] && a[n - 1] == b[n - 1]);
}

/* The slots of set whose tag is tag, as a bit mask. */
static inline unsigned set_match(const CacheSet *set, uint32_t tag) {
#if defined(__SSE2__) && !defined(PREDICT_CACHE_SCALAR)
        __m128i t = _mm_set1_epi32((int) tag);
        __m128i lo = _mm_cmpeq_epi32(_mm_load_si128((const __m128i *) (const void *) set->tag), t);
        __m128i hi = _mm_cmpeq_epi32(_mm_load_si128((const __m128i *) (const void *) (set->tag + 4)), t);

        /* Each 32-bit lane is all ones or zero: packed to one byte each. */
        return (unsigned) _mm_movemask_epi8(_mm_packs_epi16(_mm_packs_epi32(lo, hi), _mm_setzero_si128()));
#else
        unsigned m = 0;

        for (unsigned w = 0; w < CACHE_WAYS; w++)
                m |= (unsigned) (set->tag[w] == tag) << w;
        return m;
#endif
}

/* The tag, whose bits above bit 0 also pick the set. Multiplied once more
 * first: taken straight from hash_text()'s bits, one set of the bench
 * stream's got ten answers out of 3,200 and dropped some all the time. */
static inline uint32_t tag_of(uint64_t hash) {
        return (uint32_t) ((hash * HASH_K0) >> 32) | 1;
}

static inline CacheSet *set_of(const PredictCache *c, uint32_t tag) {
        return &c->sets[(tag >> 1) & c->set_mask];
}

static inline CacheRecord *record_at(const PredictCache *c, uint32_t offset) {
        return (CacheRecord *) (void *) (c->arena + offset);
}

static size_t key_text_size(uint64_t meta) {
        /* The lengths are in meta; a NUL is between key and value. */
        return 1 + (meta >> META_SECTION_LEN_SHIFT & META_SECTION_LEN_MAX) +
               (meta >> META_KEY_LEN_SHIFT & META_KEY_LEN_MAX) +
               (meta >> META_VALUE_LEN_SHIFT & META_VALUE_LEN_MAX) +
               (meta >> META_UNIT_LEN_SHIFT & META_UNIT_LEN_MAX);
}

static size_t record_size(size_t text_size, size_t message_size) {
        return (sizeof(CacheRecord) + text_size + message_size + 7) & ~(size_t) 7;
}

static const char *record_message(const CacheRecord *rec) {
        return rec->flags & FLAG_MESSAGE ? (const char *) (rec + 1) + key_text_size(rec->meta) : NULL;
}

static size_t stored_record_size(const CacheRecord *rec) {
        const char *m = record_message(rec);

        return record_size(key_text_size(rec->meta), m ? strlen(m) + 1 : 0);
}

/* The record of k, or NULL. */
static _always_inline_ CacheRecord *find(const PredictCache *c, const PredictScope *s, const LineKey *k) {
        uint32_t tag = tag_of(k->hash);
        const CacheSet *set = set_of(c, tag);

        for (unsigned m = set_match(set, tag); m != 0; m &= m - 1) {
                CacheRecord *rec = record_at(c, set->record[__builtin_ctz(m)]);
                const char *t = (const char *) (rec + 1);

                /* Most lines are in a known section (no text) of a unit
                 * whose name does not count. */
                if (rec->meta != k->meta || (s->section_len > 0 && !text_equal(t, s->section, s->section_len)))
                        continue;
                t += s->section_len;
                if (!text_equal(t, k->text, k->text_len) ||
                    (k->unit_len > 0 && !text_equal(t + k->text_len, k->unit, k->unit_len)))
                        continue;
                return rec;
        }
        return NULL;
}

/* How many lines ago rec last answered one (modulo 2^32: a record unused
 * for four billion lines may look young again, which only changes which
 * answer is replaced). */
static inline uint32_t age(const PredictCache *c, const CacheRecord *rec) {
        return c->n_hist - rec->seen;
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
        for (size_t i = 0; i < c->n_sets; i++)
                for (unsigned w = 0; w < CACHE_WAYS; w++) {
                        size_t l;

                        if (!c->sets[i].tag[w])
                                continue;
                        l = stored_record_size(record_at(c, c->sets[i].record[w]));
                        memcpy(t, record_at(c, c->sets[i].record[w]), l);
                        c->sets[i].record[w] = (uint32_t) (t - a);
                        t += l;
                }
        /* The offsets change: the history is forgotten (the records'
         * places then lead to no record or to any record, a hint only).
         * The first arena comes this way too, with nothing to forget. */
        if (c->arena)
                memset(c->hist, 0, HIST_SIZE * sizeof(uint32_t));
        c->synced = false;
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

static void slot_drop(PredictCache *c, CacheSet *set, unsigned w) {
        /* A hint may still lead to it: never taken. */
        record_at(c, set->record[w])->flags |= FLAG_DROPPED;
        c->arena_live -= stored_record_size(record_at(c, set->record[w]));
        c->n_live--;
        set->tag[w] = 0;
        set->record[w] = 0;
}

/* The slots of set whose tag has bit (a power of two) set, as a bit mask
 * (an empty slot's tag is 0: never among them). */
static inline unsigned set_with_bit(const CacheSet *set, uint32_t bit) {
#if defined(__SSE2__) && !defined(PREDICT_CACHE_SCALAR)
        __m128i b = _mm_set1_epi32((int) bit), z = _mm_setzero_si128();
        __m128i lo = _mm_cmpeq_epi32(_mm_and_si128(_mm_load_si128((const __m128i *) (const void *) set->tag), b), z);
        __m128i hi = _mm_cmpeq_epi32(
                _mm_and_si128(_mm_load_si128((const __m128i *) (const void *) (set->tag + 4)), b), z);

        /* The lanes without the bit, packed to a byte each, inverted. */
        return ~(unsigned) _mm_movemask_epi8(_mm_packs_epi16(_mm_packs_epi32(lo, hi), _mm_setzero_si128())) & 0xffu;
#else
        unsigned m = 0;

        for (unsigned w = 0; w < CACHE_WAYS; w++)
                m |= (unsigned) ((set->tag[w] & bit) != 0) << w;
        return m;
#endif
}

/* Twice the sets in use: the entries of set i whose next tag bit is set
 * move to set i + n_sets, which is empty. The slots that move are found
 * at once (most sets of a growing table hold few answers). */
static void table_grow(PredictCache *c) {
        size_t n = c->n_sets;

        for (size_t i = 0; i < n; i++) {
                CacheSet *from = &c->sets[i], *to = &c->sets[i + n];
                unsigned k = 0;

                /* Tag bit 0 is always set: bit n of tag >> 1 is bit n << 1. */
                for (unsigned m = set_with_bit(from, (uint32_t) n << 1); m != 0; m &= m - 1) {
                        unsigned w = (unsigned) __builtin_ctz(m);

                        to->tag[k] = from->tag[w];
                        to->record[k++] = from->record[w];
                        from->tag[w] = 0;
                        from->record[w] = 0;
                }
        }
        c->n_sets = 2 * n;
        c->set_mask = c->n_sets - 1;
}

static bool set_full(const CacheSet *set) {
        return set_match(set, 0) == 0;
}

/* The least recently used slot among those in use of set. */
static unsigned least_recent(const PredictCache *c, const CacheSet *set) {
        unsigned victim = CACHE_WAYS;

        for (unsigned w = 0; w < CACHE_WAYS; w++)
                if (set->tag[w] && (victim == CACHE_WAYS || age(c, record_at(c, set->record[w])) >
                                                                    age(c, record_at(c, set->record[victim]))))
                        victim = w;
        return victim;
}

/* At CACHE_LIVE_MAX answers, room for one more: the least recently used of
 * the first CACHE_WAYS answers or more found from the line's set on (the
 * sets are about half full then: two or three sets). Among that many, the
 * oldest is hardly ever a recent one, which LRU within one set could not
 * promise: that set may hold one answer only, the one just asked for. */
static void make_room(PredictCache *c, size_t first) {
        CacheSet *victim_set = NULL;
        unsigned victim = 0, seen = 0;

        for (size_t i = 0; i < c->n_sets && seen < CACHE_WAYS; i++) {
                CacheSet *set = &c->sets[(first + i) & (c->n_sets - 1)];
                unsigned w = least_recent(c, set);

                if (w == CACHE_WAYS)
                        continue;
                seen += CACHE_WAYS - (unsigned) __builtin_popcount(set_match(set, 0));
                if (!victim_set ||
                    age(c, record_at(c, set->record[w])) > age(c, record_at(c, victim_set->record[victim]))) {
                        victim_set = set;
                        victim = w;
                }
        }
        if (victim_set)
                slot_drop(c, victim_set, victim);
}

/* The slot for a new answer of tag: the table grows rather than drop one
 * while it can. */
static int slot_for(PredictCache *c, uint32_t tag, CacheSet **ret_set, unsigned *ret_way) {
        CacheSet *set;
        unsigned m;

        if (!table_allocated(c)) {
                CacheSet *sets = calloc(CACHE_SETS_MAX, sizeof(CacheSet));
                /* Zero pages too, touched as the history grows. */
                uint32_t *hist = calloc(HIST_SIZE, sizeof(uint32_t));

                if (!sets || !hist) {
                        free(sets);
                        free(hist);
                        return -ENOMEM;
                }
                c->hist = hist;
                c->sets = sets;
                c->n_sets = CACHE_SETS_MIN;
                c->set_mask = CACHE_SETS_MIN - 1;
        }
        set = set_of(c, tag);
        while (c->n_sets < CACHE_SETS_MAX && (c->n_live >= c->n_sets * CACHE_WAYS / 2 || set_full(set))) {
                table_grow(c);
                set = set_of(c, tag);
        }
        if (set_full(set))
                slot_drop(c, set, least_recent(c, set));
        else if (c->n_live >= CACHE_LIVE_MAX)
                make_room(c, (size_t) (set - c->sets));
        m = set_match(set, 0);
        *ret_set = set;
        *ret_way = (unsigned) __builtin_ctz(m);
        return 0;
}

/* Stores j (flags FLAG_NAMED: nothing of it) for k in scope s, and returns
 * the record's offset. flags has FLAG_LISTED when listed(j), which the
 * caller has from judge_listed(). On OOM the answer is not kept
 * (NO_RECORD): the memo only forgets. */
static uint32_t store(PredictCache *c, const PredictScope *s, const LineKey *k, const Judgement *j, uint32_t flags) {
        size_t message_size = j && j->message ? strlen(j->message) + 1 : 0;
        size_t size = record_size(s->section_len + k->text_len + k->unit_len, message_size);
        uint32_t tag = tag_of(k->hash);
        CacheRecord *rec;
        CacheSet *set;
        unsigned w;
        char *t;

        if (slot_for(c, tag, &set, &w) < 0 || arena_reserve(c, size) < 0)
                return NO_RECORD;
        rec = record_at(c, (uint32_t) c->arena_used);
        *rec = (CacheRecord) {
                .meta = k->meta,
                .flags = flags | (message_size > 0 ? FLAG_MESSAGE : 0),
                /* A place too old to be in the history: none yet (the
                 * line's follow() gives it one next, and its age). A
                 * marker of FLAG_NAMED is never in the history: it is as
                 * old as the line that stored it. */
                .seen = flags & FLAG_NAMED ? c->n_hist : c->n_hist - HIST_SIZE,
        };
        if (j) {
                rec->directive = j->directive;
                memcpy(rec->tail, (const char *) j + JUDGEMENT_TAIL, sizeof rec->tail);
        }
        t = (char *) (rec + 1);
        t = append(t, s->section, s->section_len);
        t = append(t, k->text, k->text_len);
        t = append(t, k->unit, k->unit_len);
        append(t, message_size > 0 ? j->message : NULL, message_size);
        set->tag[w] = tag;
        set->record[w] = (uint32_t) c->arena_used;
        c->arena_used += size;
        c->arena_live += size;
        c->n_live++;
        return set->record[w];
}

PredictCache *predict_cache_new(void) {
        PredictCache *c = calloc(1, sizeof(PredictCache));

        if (c) {
                /* Not written to: slot_for() replaces it first. */
                c->sets = (CacheSet *) &no_sets;
                c->n_sets = 1;
        }
        return c;
}

PredictCache *predict_cache_free(PredictCache *c) {
        if (!c)
                return NULL;
        if (table_allocated(c))
                free(c->sets);
        free(c->hist);
        free(c->files_seen);
        free(c->arena);
        free(c->block);
        free(c);
        return NULL;
}

static int __attribute__((noinline)) answer_message(const CacheRecord *rec, Judgement *ret) {
        ret->message = strdup(record_message(rec));
        if (!ret->message) {
                *ret = (Judgement) {};
                return -ENOMEM;
        }
        return 0;
}

/* A copy of a stored judgement, with a message of its own: 1 when it is
 * listed(), 0 when not, or -ENOMEM. */
static inline int answer(const CacheRecord *rec, Judgement *ret) {
        ret->directive = rec->directive;
        ret->message = NULL;
        memcpy((char *) ret + JUDGEMENT_TAIL, rec->tail, sizeof rec->tail);
        if (rec->flags & FLAG_MESSAGE && answer_message(rec, ret) < 0)
                return -ENOMEM;
        return !!(rec->flags & FLAG_LISTED);
}

/* judge_assignment_in(), with what answer() returns. */
static int judge_listed(const PredictScope *s, const char *key, size_t key_len, const char *value, Judgement *ret) {
        int r = judge_assignment_in_n(s->ctx, s->section_id, s->section, key, key_len, value, ret);

        return r < 0 ? r : listed(ret);
}

static int judge(const PredictScope *s, const LineKey *k, Judgement *ret) {
        return judge_listed(s, k->key, (size_t) (k->meta >> META_KEY_LEN_SHIFT & META_KEY_LEN_MAX), k->value, ret);
}

/* Whether w holds a '%' or a '\\' byte (a zero byte of w ^ that byte
 * repeated, which the borrow test finds exactly: it may mistake a byte
 * after a zero one for zero, never a word without one). */
static inline bool word_has_named(uint64_t w) {
        const uint64_t ones = UINT64_C(0x0101010101010101), highs = UINT64_C(0x8080808080808080);
        uint64_t a = w ^ (ones * '%'), b = w ^ (ones * '\\');

        return (((a - ones) & ~a) | ((b - ones) & ~b)) & highs;
}

/* Whether the value's answer depends on the unit name: it has a specifier,
 * or an escape that unquoting may turn into one (as "\x25i" in an Exec line
 * or a dependency list). */
static bool value_is_named(const LineKey *k) {
        size_t n = (size_t) (k->meta >> META_VALUE_LEN_SHIFT & META_VALUE_LEN_MAX);
        const char *v = k->value;

        /* Both bytes in one pass, with the loads of hash_text(): none past
         * the value, the last block overlapping the one before. Two
         * memchr() calls cost more on values of common length. */
        if (n >= 16) {
#if defined(__SSE2__) && !defined(PREDICT_CACHE_SCALAR)
                for (size_t i = 0;; i += 16) {
                        const char *b = i + 16 <= n ? v + i : v + n - 16;
                        __m128i x = _mm_loadu_si128((const __m128i *) (const void *) b);

                        if (_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('%')),
                                                           _mm_cmpeq_epi8(x, _mm_set1_epi8('\\')))))
                                return true;
                        if (i + 16 >= n)
                                return false;
                }
#else
                for (size_t i = 0; i + 8 < n; i += 8)
                        if (word_has_named(unaligned_load64(v + i)))
                                return true;
                return word_has_named(unaligned_load64(v + n - 8));
#endif
        }
        if (n >= 8)
                return word_has_named(unaligned_load64(v)) || word_has_named(unaligned_load64(v + n - 8));
        if (n >= 4) /* the first and the last four bytes, as one word */
                return word_has_named(unaligned_load32(v) | unaligned_load32(v + n - 4) << 32);
        for (size_t i = 0; i < n; i++)
                if (v[i] == '%' || v[i] == '\\')
                        return true;
        return false;
}

/* The key of k with the unit name: NULL if it is too long to be memoized. */
static bool named_key(const PredictScope *s, const LineKey *k, LineKey *ret) {
        const char *unit = s->ctx->unit_name;
        size_t n = unit ? strlen(unit) : 0;

        if (n > META_UNIT_LEN_MAX)
                return false;
        *ret = *k;
        ret->unit = unit;
        ret->unit_len = n;
        ret->meta |= META_NAMED | (unit ? META_HAS_UNIT : 0) | (uint64_t) n << META_UNIT_LEN_SHIFT;
        ret->hash = hash_text(k->hash ^ HASH_K2, unit, n);
        return true;
}

/* How many lines ahead of the line judged its record is fetched: the
 * line before would be too late, a line's judging takes less time than
 * a record takes to come from memory. */
#define PREFETCH_AHEAD 4

/* The record at a place of the history sent for (a hint to the
 * processor, for any place): two cache lines, as a record is 8-aligned,
 * its header alone crosses a line boundary five times in eight, and with
 * the text of a common line it is about 90 bytes. */
static _always_inline_ void prefetch_place(const PredictCache *c, uint32_t place) {
        uint32_t r = c->hist[place & HIST_MASK];

        if (r) {
                __builtin_prefetch(record_at(c, r - 1));
                __builtin_prefetch((const char *) record_at(c, r - 1) + 64);
        }
}

/* The line was answered by rec, at offset r: the history records it. */
static _always_inline_ void hist_add(PredictCache *c, CacheRecord *rec, uint32_t r) {
        c->hist[c->n_hist & HIST_MASK] = r + 1;
        rec->seen = c->n_hist++;
}

/* The line was answered by the record at offset r (NO_RECORD: by none),
 * not the hinted one: the cursor goes to that record's last place, if the
 * history still holds it. */
static inline void follow(PredictCache *c, uint32_t r) {
        CacheRecord *rec;

        if (r == NO_RECORD) {
                c->synced = false;
                return;
        }
        rec = record_at(c, r);
        c->cursor = rec->seen;
        c->synced = c->n_hist - rec->seen < HIST_SIZE;
        hist_add(c, rec, r);
        /* The record the next line will likely want (those after it are
         * sent for if the next lines follow: judge_line()). */
        if (c->synced)
                prefetch_place(c, c->cursor + 1);
}

static uint32_t offset_of(const PredictCache *c, const CacheRecord *rec) {
        return (uint32_t) ((const char *) rec - c->arena);
}

/* A line whose answer depends on the unit name: looked up again with the
 * name, judged and stored under it if not there. */
static int __attribute__((noinline)) named_judge(PredictCache *c, const PredictScope *s, Judgement *ret) {
        const LineKey *k = &c->line;
        CacheRecord *rec;
        LineKey n;
        int r;

        if (!named_key(s, k, &n)) {
                c->misses++;
                c->synced = false;
                return judge(s, k, ret);
        }
        rec = find(c, s, &n);
        if (rec) {
                follow(c, offset_of(c, rec));
                c->hits++;
                return answer(rec, ret);
        }
        c->misses++;
        r = judge(s, k, ret);
        if (r < 0) {
                c->synced = false;
                return r;
        }
        follow(c, store(c, s, &n, ret, r > 0 ? FLAG_LISTED : 0));
        return r;
}

/* A line not in the memo: judged and stored; one whose answer depends on
 * the unit name is stored twice, as such under the line's own key and
 * with its answer under the key with the name. */
static int __attribute__((noinline)) miss(PredictCache *c, const PredictScope *s, Judgement *ret) {
        const LineKey *k = &c->line;
        LineKey n;
        int r;

        c->misses++;
        r = judge(s, k, ret);
        if (r < 0) {
                c->synced = false;
                return r;
        }
        if (!value_is_named(k)) {
                follow(c, store(c, s, k, ret, r > 0 ? FLAG_LISTED : 0));
                return r;
        }
        store(c, s, k, NULL, FLAG_NAMED);
        follow(c, named_key(s, k, &n) ? store(c, s, &n, ret, r > 0 ? FLAG_LISTED : 0) : NO_RECORD);
        return r;
}

static _always_inline_ void scope_init(PredictScope *s, const JudgeContext *ctx, DirectiveSection section_id,
                                       const char *section) {
        UnitType type = ctx->type;

        /* The type the judge itself would use. */
        if (type < 0 || type >= _UNIT_TYPE_MAX)
                type = ctx->unit_name ? unit_name_to_type(ctx->unit_name) : _UNIT_TYPE_INVALID;
        *s = (PredictScope) {
                .ctx = ctx,
                .section_id = section_id,
                .section = section,
                /* A section systemd knows is keyed by its id (which names
                 * it exactly), any other one by its text. */
                .section_len = section_id >= 0 ? 0 : strlen(section),
                .meta = (uint64_t) ctx->version | (uint64_t) (type + 1) << 10 | (uint64_t) (section_id + 1) << 15,
        };
        if (ctx->version > META_VERSION_MAX || s->section_len > META_SECTION_LEN_MAX)
                return; /* line_end 0: no line is memoized */
        /* The key and the value of a memoized line are shorter than this
         * together (which also keeps the value within its bits of meta). */
        s->line_end = PREDICT_CACHE_MAX_LINE + 1 - s->section_len;
        s->meta |= (uint64_t) s->section_len << META_SECTION_LEN_SHIFT;
        s->seed = hash_text(fold(s->meta ^ HASH_K0, HASH_K2), section, s->section_len);
}

void predict_cache_scope(PredictScope *s, const JudgeContext *ctx, DirectiveSection section_id, const char *section) {
        scope_init(s, ctx, section_id, section);
}

/* Whether rec, a record keyed on a unit name, holds the key named_key()
 * makes of a line's (meta, text and text_len of its LineKey, passed apart
 * so that the key stays in registers): then it is the answer named_judge()
 * would find (the line's value has a '%' or a '\\', as the same value had
 * when rec was stored). */
static bool __attribute__((noinline)) hinted_named(const PredictScope *s, const CacheRecord *rec, uint64_t meta,
                                                   const char *text, size_t text_len) {
        const char *unit = s->ctx->unit_name, *t = (const char *) (rec + 1);
        size_t n = unit ? strlen(unit) : 0;

        return n <= META_UNIT_LEN_MAX &&
               rec->meta == (meta | META_NAMED | (unit ? META_HAS_UNIT : 0) | (uint64_t) n << META_UNIT_LEN_SHIFT) &&
               (s->section_len == 0 || text_equal(t, s->section, s->section_len)) &&
               text_equal(t + s->section_len, text, text_len) && text_equal(t + s->section_len + text_len, unit, n);
}

/* The record at the cursor's next place, when it holds k, or k with the
 * unit name for a value whose answer depends on it: compared as find()
 * compares, it is the record find() would give (named_judge()'s second
 * find() for such a value), which the set is then spared. The cursor then
 * moves on, and the history records the line. */
static _always_inline_ CacheRecord *hinted(PredictCache *c, const PredictScope *s, const LineKey *k) {
        CacheRecord *rec;
        const char *t;
        uint32_t next;

        if (!c->synced)
                return NULL;
        next = c->hist[(c->cursor + 1) & HIST_MASK] - 1;
        if (next == NO_RECORD)
                return NULL;
        rec = record_at(c, next);
        t = (const char *) (rec + 1);
        if (rec->flags & (FLAG_NAMED | FLAG_DROPPED))
                return NULL;
        if (_unlikely_(rec->meta != k->meta)) {
                if (!(rec->meta & META_NAMED) || !hinted_named(s, rec, k->meta, k->text, k->text_len))
                        return NULL;
        } else if ((s->section_len > 0 && !text_equal(t, s->section, s->section_len)) ||
                   !text_equal(t + s->section_len, k->text, k->text_len))
                return NULL;
        c->cursor++;
        c->hinted++;
        hist_add(c, rec, next);
        return rec;
}

/* One line through the memo: inline in the loop over a section's lines,
 * where what the scope and the memo hold is loaded once. Returns what
 * answer() does. c is not NULL. */
static _always_inline_ int judge_line(PredictCache *c, const PredictScope *s, const char *key, size_t key_len,
                                      const char *value, size_t value_len, Judgement *ret) {
        const char *text;
        size_t text_len;
        CacheRecord *rec;
        LineKey k;

        if (!value) {
                value = "";
                value_len = 0;
        }
        /* line_end bounds both lengths (and is 0 for a scope out of range). */
        if (key_len > META_KEY_LEN_MAX || key_len + value_len >= s->line_end) {
                c->synced = false;
                return judge_listed(s, key, key_len, value, ret);
        }

        text_len = key_len + 1 + value_len;
        if (_unlikely_(value != key + key_len + 1 || key[key_len] != '\0')) {
                /* Not as the parser leaves a line: copied into that shape. */
                memcpy(c->line_copy, key, key_len);
                c->line_copy[key_len] = '\0';
                memcpy(c->line_copy + key_len + 1, value, value_len);
                text = c->line_copy;
        } else
                text = key;
        /* The key stays in registers on the way to a hit; only the slow
         * paths find it in c->line. */
        k = (LineKey) {
                .meta = s->meta | (uint64_t) key_len << META_KEY_LEN_SHIFT |
                        (uint64_t) value_len << META_VALUE_LEN_SHIFT,
                .text = text,
                .text_len = text_len,
                .key = key,
                .value = value,
        };
        rec = hinted(c, s, &k);
        if (!rec) {
                k.hash = hash_text(s->seed, text, text_len);
                rec = find(c, s, &k);
                if (_unlikely_(!rec || rec->flags & FLAG_NAMED)) {
                        c->line = k;
                        return rec ? named_judge(c, s, ret) : miss(c, s, ret);
                }
                follow(c, offset_of(c, rec));
        }
        /* A later line's record, most likely: on its way to the cache
         * while this line and the ones before it are judged. (The records
         * of the lines between were sent for by the lines before, or when
         * the cursor moved here.) */
        if (c->synced)
                prefetch_place(c, c->cursor + PREFETCH_AHEAD);
        c->hits++;
        return answer(rec, ret);
}

int predict_cache_judge(PredictCache *c, const PredictScope *s, const char *key, size_t key_len, const char *value,
                        size_t value_len, Judgement *ret) {
        int r = c ? judge_line(c, s, key, key_len, value, value_len, ret) : judge_listed(s, key, key_len, value ?: "", ret);

        return r < 0 ? r : 0;
}

/* Line i of a file failed (left as the failing judge leaves it): the
 * lines after it are zeroed, so that the caller, which does not clear
 * them before, finds no message to free there. */
static int __attribute__((noinline)) file_failed(Judgement *ret, size_t i, size_t n, int r) {
        memset(ret + i + 1, 0, (n - i - 1) * sizeof(Judgement));
        return r;
}

static bool probation_bit(PredictCache *c, uint32_t bit) {
        uint64_t mask = UINT64_C(1) << (bit & 63), *w = &c->files_seen[bit >> 6];
        bool was = *w & mask;

        if (!was) {
                *w |= mask;
                c->files_set++;
        }
        return was;
}

/* Whether f's lines are to go through the memo: once the input has shown
 * that it repeats whole files, and from then on.
 *
 * Why: the memo pays for its answers in fresh memory (records, the table,
 * the history), and on the virtual machines measured a page's first touch
 * costs some 11 us, about what judging a unit costs. Over distinct units
 * (a packager's tree, a root at boot, one system's `systemctl cat`), four
 * lines in ten are common enough to hit (Type=oneshot, WantedBy=...), but
 * the ~23 pages the records take cost more than those hits save: 472
 * distinct files ran 0.6 ms faster without the memo than with it. An input
 * of copies (the same files in many trees, streams of copies) is another
 * matter: there the memo answers nine lines in ten.
 *
 * So until PROBATION_REPEATS files, and at least one in PROBATION_SHARE,
 * had bytes seen before (three bits of a hash of the file, in a set
 * cleared when a quarter full), lines are judged directly; then the memo
 * starts, and stores each line at its first miss, since the input
 * repeats. */
static bool probation_over(PredictCache *c, const UnitFile *f) {
        uint64_t h;
        bool seen;

        if (c->active)
                return true;
        if (f->n_entries == 0 || !f->data)
                return false;
        if (!c->files_seen) {
                c->files_seen = calloc(PROBATION_BITS / 64, sizeof(uint64_t));
                if (!c->files_seen)
                        return false;
        }
        h = hash_text(HASH_K2, f->data, f->size);
        seen = probation_bit(c, (uint32_t) h & (PROBATION_BITS - 1));
        seen &= probation_bit(c, (uint32_t) (h >> 20) & (PROBATION_BITS - 1));
        seen &= probation_bit(c, (uint32_t) (h >> 40) & (PROBATION_BITS - 1));
        c->n_files++;
        c->n_repeats += seen;
        if (c->n_repeats >= PROBATION_REPEATS && c->n_repeats * PROBATION_SHARE >= c->n_files) {
                c->active = true;
                free(c->files_seen);
                c->files_seen = NULL;
                return true;
        }
        if (c->files_set >= PROBATION_BITS / 4) {
                memset(c->files_seen, 0, PROBATION_BITS / 8);
                c->files_set = c->n_files = c->n_repeats = 0;
        }
        return false;
}

int predict_cache_judge_file(PredictCache *c, const JudgeContext *ctx, const UnitFile *f, Judgement *ret,
                             uint32_t *ret_listed) {
        PredictScope s;
        int n_listed = 0, section = -2; /* no entry's */
        bool known = false;

        if (c && !probation_over(c, f))
                c = NULL;

        /* One call per file: the entries of a section are together, its
         * scope is made when the first of them comes (a run of entries
         * found apart first cost a second pass, and a call per section). */
        for (size_t i = 0; i < f->n_entries; i++) {
                const UnitEntry *e = &f->entries[i];
                int r;

                if (_unlikely_(e->section != section)) {
                        section = e->section;
                        known = section >= 0 && f->sections[section].state == SECTION_KNOWN;
                        if (known)
                                scope_init(&s, ctx, known_section_id(f, (size_t) section),
                                           f->sections[section].name);
                }
                if (!known) {
                        /* Not judged: VERDICT_OK, no directive. */
                        ret[i] = (Judgement) {};
                        continue;
                }
                r = c ? judge_line(c, &s, e->key, e->key_len, e->value, e->value_len, &ret[i])
                      : judge_listed(&s, e->key, e->key_len, e->value ?: "", &ret[i]);
                if (r < 0)
                        return file_failed(ret, i, f->n_entries, r);
                if (r > 0)
                        ret_listed[n_listed++] = (uint32_t) i;
        }
        return n_listed;
}

void predict_cache_stats(const PredictCache *c, size_t *ret_hits, size_t *ret_misses) {
        *ret_hits = c ? c->hits : 0;
        *ret_misses = c ? c->misses : 0;
}

void predict_cache_activate(PredictCache *c) {
        c->active = true;
        free(c->files_seen);
        c->files_seen = NULL;
}

bool predict_cache_active(const PredictCache *c) {
        return c && c->active;
}

size_t predict_cache_hinted(const PredictCache *c) {
        return c ? c->hinted : 0;
}

size_t predict_cache_capacity(const PredictCache *c) {
        return c && table_allocated(c) ? c->n_sets * CACHE_WAYS : 0;
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
