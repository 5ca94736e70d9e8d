/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "basic/diag.h"
#include "unit/unit-file.h"

/* One unit as systemd would load it: the fragment (if any) and its
 * drop-ins in load order. Also carries how each file was framed in the
 * input, so the output can keep the same framing. */

typedef struct GroupFile {
        UnitFile *file;        /* NULL for a framing-only note line */
        char *framing;         /* bytes written before the file ("" or NULL for none;
                                * NULL too where the output is not unit text) */
        /* check --fix: where the file lives on this machine (symlinks
         * resolved where the input allows it), or NULL with fix_refusal
         * saying why it cannot be rewritten (NULL for a stream). */
        char *fix_path;
        const char *fix_refusal;   /* static text */
        bool shared;           /* --root: the same file belongs to other units too */
} GroupFile;

typedef enum GroupVerdict {
        GROUP_ACCEPTED,
        GROUP_CHANGED,         /* accepted with edits */
        GROUP_REJECTED,
} GroupVerdict;

/* What systemd at a given version would do with the unit (filled in by a
 * policy engine; known = false without one). */
typedef struct UnitPrediction {
        bool known;
        unsigned version;
        const char *load_state;   /* "loaded", "bad-setting" or "error" (static) */
        char *user;               /* effective User=, NULL when unset */
        bool dynamic_user;
        bool starts_processes;    /* the unit itself starts a process (not a plain socket) */
        bool runs_as_root;        /* a process of the unit would run as root */
} UnitPrediction;

typedef struct UnitGroup {
        char *name;            /* unit name; NULL when unknown */
        bool name_borrowed;    /* name is not owned: it lives in files[0].framing's allocation,
                                * or with the caller that made the group */
        bool has_fragment;     /* files[0] is the unit file itself */
        GroupFile *files;      /* inline_files until a third file comes */
        size_t n_files, allocated_files;
        DiagList diags;        /* findings about the unit as a whole */
        GroupVerdict verdict;
        UnitPrediction systemd;
        size_t dropins_over;   /* drop-ins beyond UNIT_DROPINS_MAX, not kept */
        /* The form of name (unit_name_classify_type()), worked out once by
         * the filter for everyone who judges the unit: name_kind is
         * negative for a name systemd does not accept, name_type is set
         * only when it is not. Not looked at yet: name_classified false. */
        bool name_classified;
        int name_kind;
        UnitType name_type;
        /* strlen(name), when whoever made the group knew it already; 0:
         * not known (measured where needed). */
        size_t name_len;
        bool unreadable;       /* a file of the unit could not be read: never written */
        char *extra_json;      /* members the judge adds to check's unit record
                                * (",\"device_ties\":[...]"), or NULL */
        GroupFile inline_files[2];   /* a unit file and a drop-in, without an allocation */
} UnitGroup;

int unit_group_new(const char *name, UnitGroup **ret);
UnitGroup *unit_group_free(UnitGroup *g);
/* The same, keeping a file's allocation in *spare (unit_file_recycle()),
 * and the group's own in *spare_group when that is empty (NULL pointers:
 * nothing kept). A kept group holds nothing: free() it. */
UnitGroup *unit_group_free_recycling(UnitGroup *g, UnitFile **spare, UnitGroup **spare_group);
/* unit_group_new(NULL, ret) in *spare_group's allocation, if it has one. */
int unit_group_new_reusing(UnitGroup **spare_group, UnitGroup **ret);
static inline void unit_group_freep(UnitGroup **g) {
        unit_group_free(*g);
}
/* Takes ownership of file and framing (both may be NULL/""), also on failure. */
int unit_group_add(UnitGroup *g, UnitFile *file, char *framing);

const char *group_verdict_to_string(GroupVerdict v);
/* Where findings about the unit as a whole point: its first file. */
const char *unit_group_display_path(const UnitGroup *g);

/* Whether the drop-in directory NAME.d applies to unit: the unit itself,
 * its template, a dash prefix ("foo-.service" for "foo-bar.service") or
 * the type-wide directory ("service"). */
bool dropin_dir_applies_to(const char *dir_unit, const char *unit);
