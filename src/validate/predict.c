/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* systemd's answer for one unit, line by line and as a whole. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "basic/macro.h"
#include "parse-util.h"
#include "predict.h"
#include "unit-settings.h"

/* Whether the entry's key is the literal key (the parser measured it). */
static bool key_is(const UnitEntry *e, const char *key, size_t n) {
        return e->key_len == n && memcmp(e->key, key, n) == 0;
}

bool identity_track(Identity *id, const UnitFile *f, const UnitEntry *e, Verdict v) {
        bool user;

        if (!identity_tracks(e, v))
                return true;
        user = key_is(e, "User", 4);

        /* Named, even if systemd then refuses or ignores the value; an
         * explicit root is a choice, not an accident. */
        if (user && e->value[0] && !streq(e->value, "root") && !streq(e->value, "0"))
                id->user_named = true;
        if (v == VERDICT_FATAL) {
                if (!f->is_dropin)
                        id->refused = true;
                else
                        id->cut_file = f->path;
                return false;
        }
        if (user) {
                if (v == VERDICT_OK || v == VERDICT_NOTICE) {
                        id->user = e->value;
                        id->user_file = f;
                        id->user_entry = e;
                } else if (v == VERDICT_RESET)
                        id->user = NULL;
        } else if (key_is(e, "DynamicUser", 11) && (v == VERDICT_OK || v == VERDICT_NOTICE))
                id->dynamic_user = parse_boolean(e->value) > 0;
        return true;
}

bool identity_runs_as_root(const Identity *id) {
        return !id->refused && !id->dynamic_user && (!id->user || streq(id->user, "root") || streq(id->user, "0"));
}

static bool in_known_section(const UnitFile *f, const UnitEntry *e) {
        return e->section >= 0 && f->sections[e->section].state == SECTION_KNOWN;
}

static bool is_exec_type(UnitType t) {
        return t >= 0 && (UNIT_TYPES_EXEC & UNIT_TYPE_BIT(t));
}

/* Whether a loaded unit of an exec type starts a process of its own:
 * services, mounts and swaps always do (the command, mount(8), swapon(8));
 * a socket only with an Exec*= line systemd keeps (a plain socket only
 * listens; the service it activates runs under its own identity). */
static bool starts_processes(const UnitGroup *g, const Prediction *p) {
        const UnitFile *main_file = g->has_fragment && g->n_files > 0 ? g->files[0].file : NULL;
        UnitType type = main_file ? main_file->type : _UNIT_TYPE_INVALID;

        if (!is_exec_type(type))
                return false;
        if (type != UNIT_SOCKET)
                return true;
        for (size_t fi = 0; fi < g->n_files; fi++) {
                const UnitFile *f = g->files[fi].file;

                for (size_t i = 0; f && i < f->n_entries; i++) {
                        const UnitEntry *e = &f->entries[i];
                        const Judgement *j = prediction_line(p, fi, i);

                        if (in_known_section(f, e) && streq(f->sections[e->section].name, "Socket") &&
                            startswith(e->key, "Exec") && e->value[0] && j &&
                            (j->verdict == VERDICT_OK || j->verdict == VERDICT_NOTICE))
                                return true;
                }
        }
        return false;
}

/* Every line of one file, and where systemd stops reading it. */
static int predict_file(const UnitGroup *g, const UnitFile *f, PredictCache *cache, Prediction *p,
                        FilePrediction *fp, Judgement *lines, uint32_t *notable) {
        JudgeContext ctx = { .version = p->version, .type = f->type, .unit_name = g->name };
        bool reading = true;
        size_t n_notable = 0;
        int r;

        fp->lines = lines; /* f->n_entries of them, each written below */
        fp->n_lines = f->n_entries;
        fp->read_until = f->n_entries;
        fp->notable = notable;
        r = predict_cache_judge_file(cache, &ctx, f, lines, notable);
        if (r < 0) {
                /* The messages made so far are prediction_done()'s to free. */
                for (size_t k = 0; k < f->n_entries; k++)
                        if (lines[k].message)
                                p->with_message[p->n_messages++] = &lines[k];
                return r;
        }
        /* The lines the memo listed: the notable ones, and those with a
         * message. The lines identity_track() follows are all notable: a
         * fatal one, User= (a user name is never plain) and DynamicUser= (a
         * unit check reads it). */
        for (n_notable = 0; n_notable < (size_t) r; n_notable++) {
                size_t k = notable[n_notable];
                const UnitEntry *e = &f->entries[k];
                Judgement *j = &lines[k];

                if (j->message)
                        p->with_message[p->n_messages++] = j;
                if (reading && identity_tracks(e, j->verdict) && !identity_track(&p->identity, f, e, j->verdict)) {
                        reading = false;
                        fp->read_until = k;
                }
        }
        fp->n_notable = n_notable;
        return 0;
}

static int run_unit_checks(const UnitGroup *g, Prediction *p, const UnitFile **files, JudgedFile *judged,
                           const char **ret_load_state) {
        size_t n = 0;
        int r;

        *ret_load_state = "loaded";
        if (!g->name || !g->has_fragment || g->n_files == 0 || !g->files[0].file)
                return 0;
        for (size_t i = 0; i < g->n_files; i++)
                if (g->files[i].file) {
                        judged[n] = (JudgedFile) {
                                .lines = p->files[i].lines,
                                .notable = p->files[i].notable,
                                .n_notable = p->files[i].n_notable,
                        };
                        files[n++] = g->files[i].file;
                }
        p->checks_ran = true;
        r = g->name_classified ? unit_checks_run_classified(g->name, g->name_kind, g->name_type, files, judged, n,
                                                            p->version, p->checks)
                               : unit_checks_run(g->name, files, judged, n, p->version, p->checks);
        if (r < 0)
                return r;
        *ret_load_state = p->checks->load_state;
        return 0;
}

/* Everything a prediction holds comes in one allocation: the per-file
 * records, every line's judgement, the arrays for the unit checks and
 * their result (large, filled in order: left uninitialized), the lines
 * with a message, and the notable lines' indices. */
typedef struct PredictionLayout {
        size_t files, lines, check_files, check_judged, checks, with_message, notable, size;
} PredictionLayout;

static int prediction_layout(const UnitGroup *g, PredictionLayout *ret) {
        size_t n_files = g->n_files ? g->n_files : 1, n_lines = 0;

        for (size_t fi = 0; fi < g->n_files; fi++)
                if (g->files[fi].file)
                        n_lines += g->files[fi].file->n_entries;
        if (n_files > SIZE_MAX / 64 / sizeof(JudgedFile) || n_lines > UINT32_MAX / 2)
                return -ENOMEM;
        /* All members but the last are pointer-aligned, so are all the
         * sizes before it. */
        ret->files = 0;
        ret->lines = ret->files + n_files * sizeof(FilePrediction);
        ret->check_files = ret->lines + n_lines * sizeof(Judgement);
        ret->check_judged = ret->check_files + n_files * sizeof(const UnitFile *);
        ret->checks = ret->check_judged + n_files * sizeof(JudgedFile);
        ret->with_message = ret->checks + sizeof(UnitCheckResult);
        ret->notable = ret->with_message + n_lines * sizeof(Judgement *);
        ret->size = ret->notable + n_lines * sizeof(uint32_t);
        return 0;
}

int systemd_predict(const UnitGroup *g, unsigned version, bool user_scope, PredictCache *cache, Prediction *ret) {
        const UnitFile *main_file = g->has_fragment && g->n_files > 0 ? g->files[0].file : NULL;
        const char *checks_state = "loaded";
        PredictionLayout lay;
        Judgement *lines;
        uint32_t *notable;
        char *block;
        int r;

        /* Every field zeroed first (a field added later too), with plain
         * stores: a compound literal of this size is a rep stos, whose
         * start-up is paid once per unit of a stream. */
        zero_small(ret, sizeof *ret);
        ret->version = version;
        ret->user_scope = user_scope;
        r = prediction_layout(g, &lay);
        if (r < 0)
                return r;
        block = cache ? predict_cache_block(cache, lay.size) : malloc(lay.size);
        if (!block)
                return -ENOMEM;
        ret->block_borrowed = cache;
        /* Only the per-file records are zeroed (a NULL file's stays so):
         * predict_file() writes every line's judgement, the rest is filled
         * in order. Clearing the lines as well cost as much again. */
        memset(block, 0, lay.lines);
        ret->files = (FilePrediction *) block;
        ret->checks = (UnitCheckResult *) (block + lay.checks);
        ret->n_files = g->n_files;
        lines = (Judgement *) (block + lay.lines);
        notable = (uint32_t *) (block + lay.notable);
        ret->with_message = (Judgement **) (block + lay.with_message);
        for (size_t fi = 0; fi < g->n_files; fi++) {
                const UnitFile *f = g->files[fi].file;

                if (!f)
                        continue;
                r = predict_file(g, f, cache, ret, &ret->files[fi], lines, notable);
                if (r < 0)
                        return r;
                lines += f->n_entries;
                notable += f->n_entries;
        }

        /* systemd's checks of the unit as a whole, once no line refused it. */
        if (!ret->identity.refused) {
                r = run_unit_checks(g, ret, (const UnitFile **) (block + lay.check_files),
                                    (JudgedFile *) (block + lay.check_judged), &checks_state);
                if (r < 0)
                        return r;
        }
        ret->load_state = main_file && main_file->failed_line > 0 ? "error"
                          : ret->identity.refused                ? "bad-setting"
                                                                 : checks_state;
        ret->starts_processes = starts_processes(g, ret);
        /* A unit that does not load runs nothing; a user manager runs its
         * units as its own user and cannot switch to another one. */
        ret->runs_as_root = ret->starts_processes && !user_scope && streq(ret->load_state, "loaded") &&
                            identity_runs_as_root(&ret->identity);
        return 0;
}

void prediction_done(Prediction *p) {
        /* Only the messages are allocated apart (for lines that have one). */
        for (size_t i = 0; i < p->n_messages; i++)
                free(p->with_message[i]->message);
        if (!p->block_borrowed)
                free(p->files);
        zero_small(p, sizeof *p);
}
