/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "basic/diag.h"
#include "basic/strmap.h"
#include "lookup-paths.h"
#include "root.h"
#include "unit/unit-type.h"

/* A root's unit set as systemd's manager assembles it, offline: which unit
 * files exist under the search path (the highest directory wins), which
 * names are masks and aliases, and which drop-ins each unit gets from every
 * directory (its own names, its template, dash prefixes, the type-wide
 * directory), in the order systemd applies them. Modelled on systemd 252's
 * unit_file_build_name_map(), unit_file_find_fragment() and
 * unit_file_find_dropin_paths(), and checked against
 * `systemd-analyze --root=DIR verify` by tests/lookup/. */

/* Behaviour that changed between versions: validate/behaviour.h. */

typedef struct LookupFile {
        char *path;            /* as systemd shows it, inside the root */
        char *source;          /* resolved path to read; NULL when masked */
        int error;             /* negative errno when it cannot be resolved */
        bool regular;          /* source is a regular file, as its directory listed it */
        /* With a source: the same number for the same source string in the
         * whole set, below LookupSet.n_sources, so that a reader can tell
         * the files several units share without comparing paths. */
        size_t source_id;
} LookupFile;

typedef enum LookupUnitState {
        LOOKUP_UNIT_LOADED,        /* has a fragment (for an instance: its template's) */
        LOOKUP_UNIT_MASKED,        /* symlink to /dev/null or an empty file */
        LOOKUP_UNIT_DROPINS_ONLY,  /* no unit file under the root, only drop-ins */
        LOOKUP_UNIT_BAD,           /* the name does not lead to a unit (alias loop...) */
} LookupUnitState;

typedef struct LookupUnit {
        char *id;              /* the unit's name: the fragment's, instantiated */
        /* What unit_name_classify_type() says of id (negative: not a unit
         * name, as a type-wide drop-in directory's "service"), and the
         * type (_UNIT_TYPE_INVALID with a negative id_kind): worked out
         * once, for the set and its readers. */
        int id_kind;
        UnitType id_type;
        uint32_t id_hash;      /* strmap_hash(id), for the set's builder */
        LookupUnitState state;
        LookupFile fragment;   /* path NULL for none */
        char *masked_by;       /* the mask's path */
        char **aliases;        /* other names that lead to the unit, sorted */
        size_t n_aliases;
        LookupFile *dropins;   /* in load order; masked ones included */
        size_t n_dropins;
        /* LOOKUP_LAZY_EMPTY: the fragment is a regular file whose size was
         * not looked at; if it reads as empty, the unit is masked. */
        bool maybe_empty;
} LookupUnit;

typedef struct LookupSet {
        LookupPaths paths;
        LookupUnit **units;    /* sorted by id */
        size_t n_units;
        size_t n_sources;      /* LookupFile.source_id is below it */
        DiagList diags;        /* findings about the tree itself */
        /* The units' strings (ids, paths, aliases) live in a few large
         * blocks, freed with the set: a root's hundreds of units would
         * otherwise take two allocations and two frees per file named. */
        struct LookupChunk *strings;
} LookupSet;

int lookup_set_build(const Root *root, LookupScope scope, unsigned version, LookupSet *ret);

typedef enum LookupFlags {
        /* Leave out /run/systemd/generator{,.early,.late}: a generator
         * cannot see the output of the others (they run in parallel), and
         * must not read its own. */
        LOOKUP_SKIP_GENERATED = 1 << 0,
        /* For a reader that reads every fragment anyway: unit files listed
         * as regular files are not stat'ed (a stat per unit), and an empty
         * one, which masks its unit as a link to /dev/null does, is left
         * for the reader to find (LookupUnit.maybe_empty). */
        LOOKUP_LAZY_EMPTY = 1 << 1,
} LookupFlags;
int lookup_set_build_full(const Root *root, LookupScope scope, unsigned version, LookupFlags flags,
                          LookupSet *ret);
void lookup_set_done(LookupSet *s);
const LookupUnit *lookup_set_find(const LookupSet *s, const char *id);
const char *lookup_unit_state_to_string(LookupUnitState s);
