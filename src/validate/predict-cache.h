/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* A memo of judge_assignment_in() answers, for one run over many units.
 *
 * A judgement is a pure function of the systemd version, the unit type,
 * the section and key as written, the value, and, through specifier
 * expansion only, the unit's name. A `systemctl cat` stream repeats the
 * same lines over and over (After=network.target, Type=oneshot ...), so
 * the memo answers most lines without judging them again.
 *
 * The key is exactly what the judgement depends on: version, type,
 * section, key and value, plus the unit name whenever the value has a '%'
 * (a specifier) or a '\\' (an escape that unquoting turns into one, as
 * "\x25i" in an Exec line or a dependency list). Values without either
 * never look at the name, so templates, instances and plain units share
 * their answers there. Whether a value has either is found when it is
 * first judged, and remembered under its key without the name: a lookup
 * hashes the line once, and only such values are looked up again with
 * the name. Every answer is given after comparing the whole key.
 *
 * A history of the records that answered the last lines, in order, names
 * the likely record of the next line before it is read: a file seen
 * before comes with its lines in the same order, so most lines are
 * answered without the hash and the table (still compared in full).
 *
 * The memo is on probation at first: predict_cache_judge_file() judges
 * files directly until the input has shown that it repeats whole files
 * (distinct units gain less from the memo than its memory costs; see
 * probation_over() in predict-cache.c). From then on every line goes
 * through it, and is stored at its first miss.
 *
 * Bounded: 8-way sets, the table starts with room for 1024 answers and
 * doubles while it is half full or when a line's set is full, up to 16384
 * slots, so that a short run pays for a few pages only and no answer is
 * dropped before then; it holds at most 8192
 * answers, the least recently used ones replaced. The texts of the keys
 * and the messages are kept in one arena, no allocation per answer. Lines
 * longer than PREDICT_CACHE_MAX_LINE are judged every time. */

#include <stdbool.h>
#include <stdint.h>

#include "judge.h"
#include "unit/unit-file.h"

#define PREDICT_CACHE_MAX_LINE 2048

typedef struct PredictCache PredictCache;

/* NULL on OOM. */
PredictCache *predict_cache_new(void);
PredictCache *predict_cache_free(PredictCache *c);
static inline void predict_cache_freep(PredictCache **c) {
        *c = predict_cache_free(*c);
}

/* What the lines of one section of one unit file share in the memo's key:
 * the version, the unit's name and type, the section. predict.c builds it
 * once per section, so that a line's lookup only hashes its own key and
 * value. The fields are the memo's; callers only pass it on. */
typedef struct PredictScope {
        const JudgeContext *ctx;
        DirectiveSection section_id;
        const char *section;
        size_t section_len; /* 0 for a section with an id (the id names it) */
        uint64_t meta;      /* the packed key's common part */
        uint64_t seed;      /* its hash */
        size_t line_end;    /* key_len + value_len must be below it; 0: nothing memoized */
} PredictScope;

/* The scope of the lines of section (section_id its
 * directive_section_from_name()) of the unit ctx describes; ctx is
 * borrowed for as long as the scope is used. ctx->type must be the unit's
 * type (or _UNIT_TYPE_INVALID with no unit name). */
void predict_cache_scope(PredictScope *s, const JudgeContext *ctx, DirectiveSection section_id, const char *section);

/* judge_assignment_in() through the memo (c may be NULL: no memo) for one
 * line of scope s. key_len and value_len are strlen(key) and strlen(value)
 * (a NULL value is an empty one), which the parser has measured. *ret is
 * the same as judge_assignment_in()'s, with a message of its own. */
int predict_cache_judge(PredictCache *c, const PredictScope *s, const char *key, size_t key_len, const char *value,
                        size_t value_len, Judgement *ret);

/* predict_cache_judge() for each entry of f in a known section, in the
 * scope predict_cache_scope() makes of ctx and the entry's section, into
 * ret[i] (the other entries get a zeroed judgement: VERDICT_OK, no
 * directive); and the indices of the entries a later pass has to look at,
 * the notable ones of predict.h and those with a message, into ret_listed
 * (room for f->n_entries), in order. Returns how many are listed, or
 * -ENOMEM (then the judgements of ret are to be freed as they are: those
 * after the failing line are zeroed). Every ret[i] is written either way:
 * the caller need not clear them. f->n_entries is below INT_MAX. */
int predict_cache_judge_file(PredictCache *c, const JudgeContext *ctx, const UnitFile *f, Judgement *ret,
                             uint32_t *ret_listed);

/* Counters, for tests: answers from the memo and answers judged. */
void predict_cache_stats(const PredictCache *c, size_t *ret_hits, size_t *ret_misses);
/* Ends the probation at once: for tests of the table and the history,
 * and for a caller that knows its input repeats whole. Lines judged one by
 * one (predict_cache_judge()) are not on probation. */
void predict_cache_activate(PredictCache *c);
/* Whether the memo answers files' lines: past its probation. */
bool predict_cache_active(const PredictCache *c);
/* For tests: how many of the answers from the memo the history's first
 * candidate gave (spared the hash and the set). */
size_t predict_cache_hinted(const PredictCache *c);
/* How many answers the memo has room for now (it grows on demand), and
 * how many it holds. */
size_t predict_cache_capacity(const PredictCache *c);
size_t predict_cache_size(const PredictCache *c);

/* A block of memory kept from unit to unit (systemd_predict()'s per-unit
 * arrays): at least size bytes, NULL on OOM. Valid until the next call or
 * predict_cache_free(). */
void *predict_cache_block(PredictCache *c, size_t size);
