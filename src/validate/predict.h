/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The systemd model's answer for one unit, computed before and without any
 * policy: what systemd at a given version does with each line of each of
 * the unit's files, the identity the unit would run as, systemd's checks of
 * the unit as a whole, and the load state. A policy then decides on this
 * answer (src/policy/policy-engine.c); it never asks systemd's questions
 * again. */

#include <stdbool.h>
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "judge.h"
#include "predict-cache.h"
#include "unit-checks.h"
#include "unit/unit-group.h"

/* The version predicted when neither a policy nor --target-version names
 * one: Debian 12's. */
#define SYSTEMD_VERSION_DEFAULT_TARGET 252

/* The identity systemd's loading gives the unit's processes. */
typedef struct Identity {
        bool user_named;       /* some file names a User= other than root */
        const char *user;      /* effective User= value, NULL = unset (root) */
        const UnitFile *user_file;     /* where the effective User= is set */
        const UnitEntry *user_entry;
        bool dynamic_user;
        bool refused;          /* systemd refuses the unit */
        const char *cut_file;  /* a drop-in systemd stopped reading (last one) */
} Identity;

/* Follows systemd through one assignment with verdict v. Returns false when
 * systemd stops reading the file there (a fatal error). */
bool identity_track(Identity *id, const UnitFile *f, const UnitEntry *e, Verdict v);
/* Whether identity_track() has anything to do with the line: most keys
 * matter to none of its checks; only User= and DynamicUser= do, unless
 * the line ends the file. Inline, for callers that walk every line. */
static inline bool identity_tracks(const UnitEntry *e, Verdict v) {
        return v == VERDICT_FATAL || e->key[0] == 'U' || e->key[0] == 'D';
}
/* No process of the unit switches user: it runs as root. */
bool identity_runs_as_root(const Identity *id);

/* A line systemd takes as written, with nothing to say about it: a known
 * directive, accepted or reset, valid, judged here (not deferred to the
 * instances), not downgraded by a '-', nothing of it dropped; and not a
 * user or group name, which a policy judges by a rule of its own. A
 * policy has nothing to do with such a line. Asked of every line: the four
 * flags, which judge.h keeps side by side, are read in one load. */
static inline bool judgement_is_plain(const Judgement *j) {
        uint32_t flags;

        static_assert(offsetof(Judgement, dash_escaped) == offsetof(Judgement, invalid) + 1 &&
                              offsetof(Judgement, deferred) == offsetof(Judgement, invalid) + 2 &&
                              offsetof(Judgement, partial) == offsetof(Judgement, invalid) + 3 && sizeof(bool) == 1,
                      "invalid, dash_escaped, deferred and partial are four bytes in a row");
        static_assert(VERDICT_OK == 0 && VERDICT_RESET == 2, "OK and RESET differ in one bit");
        static_assert(DIRECTIVE_GROUP == DIRECTIVE_USER + 1 && DIRECTIVE_GROUP_LIST == DIRECTIVE_USER + 2,
                      "the user and group kinds are a range");
        memcpy(&flags, &j->invalid, sizeof flags);
        return flags == 0 && ((unsigned) j->verdict & ~(unsigned) VERDICT_RESET) == 0 && j->directive &&
               (unsigned) (j->directive->kind - DIRECTIVE_USER) > DIRECTIVE_GROUP_LIST - DIRECTIVE_USER;
}

/* directive_section_from_name() of a section the parser found known
 * (SECTION_KNOWN: its name is exactly "Unit", "Install" or a section of the
 * file's type, or of any type when the file has none), told by its first
 * letter when the file has a type: no type's section begins with 'U' or
 * 'I'. Asked for every section of every file. */
static inline DirectiveSection known_section_id(const UnitFile *f, size_t section) {
        const char *name = f->sections[section].name;

        if (f->type < 0 || f->type >= _UNIT_TYPE_MAX)
                return directive_section_from_name(name);
        return name[0] == 'U' ? DIRECTIVE_SECTION_UNIT
               : name[0] == 'I' ? DIRECTIVE_SECTION_INSTALL
                                : (DirectiveSection) (DIRECTIVE_SECTION_TYPE + f->type);
}

typedef struct FilePrediction {
        /* One judgement per entry of the file (parallel to f->entries);
         * entries outside a known section get VERDICT_OK with no directive
         * and are not judged. */
        Judgement *lines;
        size_t n_lines;
        /* Index of the entry after which systemd reads no further (a fatal
         * line), or n_lines when it reads the whole file. */
        size_t read_until;
        /* The entries a later pass has to look at, ascending: every
         * judged line but the plain ones (judgement_is_plain()) that no
         * unit check reads (unit_settings_reads()) and that have no
         * message. The fatal line at read_until is one. */
        uint32_t *notable;
        size_t n_notable;
} FilePrediction;

typedef struct Prediction {
        unsigned version;
        bool user_scope;
        FilePrediction *files;         /* parallel to g->files; empty for a NULL file */
        size_t n_files;
        Identity identity;
        bool checks_ran;               /* the unit-level checks ran (not refused by a line first) */
        UnitCheckResult *checks;       /* when checks_ran */
        const char *load_state;        /* "loaded", "bad-setting", "error", ... (static) */
        bool starts_processes;         /* the unit itself starts a process */
        bool runs_as_root;             /* ... and it would run as root */
        bool block_borrowed;           /* files (and all arrays) live in a PredictCache's block */
        Judgement **with_message;      /* the lines with a message (to free) */
        size_t n_messages;
} Prediction;

/* Predicts what systemd `version` does with unit g (user_scope: under a
 * user manager). Returns 0 or -ENOMEM; *ret is always initialized.
 * cache (may be NULL) answers repeated lines and lends the prediction its
 * memory: then *ret is valid until the next prediction made with it. */
int systemd_predict(const UnitGroup *g, unsigned version, bool user_scope, PredictCache *cache, Prediction *ret);
void prediction_done(Prediction *p);

/* The judgement of entry i of g->files[fi], or NULL when none was made. */
static inline const Judgement *prediction_line(const Prediction *p, size_t fi, size_t i) {
        if (fi >= p->n_files || i >= p->files[fi].n_lines)
                return NULL;
        return &p->files[fi].lines[i];
}
