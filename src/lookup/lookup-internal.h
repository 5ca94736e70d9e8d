/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Shared between the scan of the search path (lookup.c) and the assembly of
 * units from it (lookup-units.c). */

#include <sys/stat.h>

#include "lookup.h"

typedef enum EntryKind {
        ENTRY_FILE,            /* a regular file */
        ENTRY_ALIAS,           /* symlink to another unit name in the search path */
        ENTRY_LINKED,          /* symlink to a file outside the search path */
        ENTRY_MASK,            /* symlink to /dev/null */
} EntryKind;

/* One name in the search path, the first directory that has it. Its
 * strings are the set's (lookup_set_strdup()): a unit shares them. */
typedef struct Entry {
        char *name;
        /* unit_name_classify_type() of name, a valid unit name: its form
         * and type. */
        int name_kind;
        UnitType name_type;
        uint32_t name_hash;    /* strmap_hash(name): the scan's lookup of it, reused to add it */
        EntryKind kind;
        char *path;            /* the entry itself: "/etc/systemd/system/foo.service" */
        char *target;          /* ALIAS: unit name; LINKED: the simplified target path */
        /* LINKED: what lstat() said of target while it was simplified (0:
         * not looked at). Not a symlink: target is resolved already. */
        mode_t target_mode;
        off_t target_size;
        char *source;          /* FILE: resolved path (the directory's, plus the name) */
        size_t source_id;      /* FILE: source's LookupFile.source_id */
        bool empty;            /* FILE: size 0, which masks the unit */
        bool size_unknown;     /* FILE: not stat'ed (LOOKUP_LAZY_EMPTY) */
        size_t dir;
} Entry;

/* A NAME.d directory in one search directory. */
typedef struct DropinDir {
        char *key;             /* NAME, for NAME.d */
        /* unit_name_classify_type() of key (negative for a type,
         * "service"), and the type of a valid key. */
        int key_kind;
        UnitType key_type;
        struct DropinDir *next; /* the same NAME in a later search directory */
        size_t dir;
        char *path;            /* resolved inside the root; NULL with error */
        int error;
        bool used, listed;
        char **files;          /* *.conf entries, sorted (listed lazily), pointing into names */
        char *names;           /* the listing's names, NUL-separated */
        LookupFile *resolved;  /* for each file: path, source (NULL: masked), error; the
                                * strings are the set's, shared by the units */
        size_t n_files;
} DropinDir;

typedef struct Builder {
        const Root *root;
        unsigned version;
        LookupFlags flags;
        LookupSet *set;

        Entry **entries;
        size_t n_entries, allocated_entries;
        struct LookupChunk *entry_blocks; /* where the entries are (entry_new()) */
        StrMap names;          /* name -> Entry */

        DropinDir **dropin_dirs;
        size_t n_dropin_dirs, allocated_dropin_dirs;
        StrMap dropin_index;   /* NAME -> its DropinDir in the first directory that has one */
        DropinDir *type_dirs[_UNIT_TYPE_MAX];   /* dropin_index's "service" and so on */
        bool type_dirs_known;
        /* The stems ("user-") of the dash prefixes' NAME.d ("user-.slice.d",
         * "foo-@.service.d"; not "-.slice.d"): a unit whose name starts
         * with none of them has no dash-prefix drop-ins. */
        char **dash_stems;
        size_t n_dash_stems, allocated_dash_stems;

        char **extra_names;    /* instances named by dependency links */
        size_t n_extra, allocated_extra;

        /* Source strings of files that are not a FILE entry's (linked unit
         * files, drop-ins) -> their source_id + 1. A FILE entry's source is
         * told by its name: the entries hold each name once. */
        StrMap source_ids;
        size_t n_sources;

        /* What "/dev/null", the usual mask's target, simplifies to inside
         * the root: worked out for the first mask only. */
        bool devnull_known;
        int devnull_r;
        char *devnull;
        struct stat devnull_st;

        StrMap units;          /* id -> LookupUnit */
        LookupUnit **unit_list;
        size_t n_units, allocated_units;
} Builder;

int builder_diag(Builder *b, DiagSeverity sev, const char *rule, const char *path, const char *fmt, ...)
        _printf_(5, 6);
int build_units(Builder *b);
/* A copy of str in the set's blocks (never freed alone), or NULL. */
char *lookup_set_strdup(LookupSet *s, const char *str);
/* The same for the n bytes at str (no NUL among them), NUL-terminated. */
char *lookup_set_strndup(LookupSet *s, const char *str, size_t n);
/* size zeroed bytes aligned to align (a power of two) in the set's
 * blocks, freed with the set only; or NULL. */
void *lookup_set_new0(LookupSet *s, size_t size, size_t align);
/* root_path_join(dir, name) in the set's blocks. */
char *lookup_set_join(LookupSet *s, const char *dir, const char *name);
/* The source_id of a file that reads source (a resolved path): a FILE
 * entry's own, or one given to source before, or a new one (source is
 * kept as the key: it must live as long as the builder). */
int builder_source_id(Builder *b, const char *source, size_t *ret);
