/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "unit-group.h"

static void group_init(UnitGroup *g) {
        zero_small(g, sizeof(*g));
        g->files = g->inline_files;
        g->allocated_files = ELEMENTSOF(g->inline_files);
}

int unit_group_new_reusing(UnitGroup **spare_group, UnitGroup **ret) {
        UnitGroup *g = *spare_group ? TAKE_PTR(*spare_group) : malloc(sizeof(UnitGroup));

        if (!g)
                return -ENOMEM;
        group_init(g);
        *ret = g;
        return 0;
}

int unit_group_new(const char *name, UnitGroup **ret) {
        UnitGroup *g = new0(UnitGroup, 1);

        if (!g)
                return -ENOMEM;
        group_init(g);
        if (name) {
                g->name = strdup(name);
                if (!g->name) {
                        free(g);
                        return -ENOMEM;
                }
        }
        *ret = g;
        return 0;
}

UnitGroup *unit_group_free_recycling(UnitGroup *g, UnitFile **spare, UnitGroup **spare_group) {
        if (!g)
                return NULL;
        /* What a unit of a tree or a root usually lacks is not freed:
         * a call each for nothing, per unit. */
        for (size_t i = 0; i < g->n_files; i++) {
                if (spare)
                        unit_file_recycle(g->files[i].file, spare);
                else
                        unit_file_free(g->files[i].file);
                if (g->files[i].framing)
                        free(g->files[i].framing);
                if (g->files[i].fix_path)
                        free(g->files[i].fix_path);
        }
        if (g->files != g->inline_files)
                free(g->files);
        if (!g->name_borrowed)
                free(g->name);
        if (g->extra_json)
                free(g->extra_json);
        if (g->systemd.user)
                free(g->systemd.user);
        if (g->diags.items)
                diag_list_done(&g->diags);
        if (spare_group && !*spare_group)
                *spare_group = g;
        else
                free(g);
        return NULL;
}

UnitGroup *unit_group_free(UnitGroup *g) {
        return unit_group_free_recycling(g, NULL, NULL);
}

/* Room for one more file: the inline room first, then the heap. */
static int grow_files(UnitGroup *g) {
        GroupFile *q;

        if (g->n_files < g->allocated_files)
                return 0;
        if (g->files != g->inline_files)
                return GREEDY_REALLOC(g->files, g->allocated_files, g->n_files + 1);
        q = malloc_multiply(2 * g->allocated_files, sizeof(GroupFile));
        if (!q)
                return -ENOMEM;
        memcpy(q, g->files, g->n_files * sizeof(GroupFile));
        g->files = q;
        g->allocated_files *= 2;
        return 0;
}

int unit_group_add(UnitGroup *g, UnitFile *file, char *framing) {
        int r;

        r = grow_files(g);
        if (r < 0) {
                unit_file_free(file);
                free(framing);
                return r;
        }
        g->files[g->n_files++] = (GroupFile) { .file = file, .framing = framing };
        return 0;
}

const char *unit_group_display_path(const UnitGroup *g) {
        for (size_t i = 0; i < g->n_files; i++)
                if (g->files[i].file)
                        return g->files[i].file->path;
        return g->name ? g->name : "?";
}

const char *group_verdict_to_string(GroupVerdict v) {
        switch (v) {
        case GROUP_ACCEPTED:
                return "accepted";
        case GROUP_CHANGED:
                return "changed";
        case GROUP_REJECTED:
                return "rejected";
        }
        return "unknown";
}

bool dropin_dir_applies_to(const char *dir_unit, const char *unit) {
        const char *dot_d = strrchr(dir_unit, '.'), *dot_u = strrchr(unit, '.');
        const char *at;
        size_t stem;

        if (streq(dir_unit, unit))
                return true;
        if (!dot_u)
                return false;
        /* Type-wide: "service" applies to every *.service. */
        if (!dot_d)
                return streq(dir_unit, dot_u + 1);
        if (!streq(dot_d, dot_u))
                return false;

        /* Template: "foo@.service" for "foo@bar.service". */
        at = strchr(unit, '@');
        if (at && dot_d > dir_unit && dot_d[-1] == '@' &&
            (size_t) (dot_d - dir_unit) == (size_t) (at - unit) + 1 &&
            strncmp(dir_unit, unit, (size_t) (at - unit) + 1) == 0)
                return true;

        /* Dash prefix: "foo-.service" for "foo-bar-baz.service". */
        stem = (size_t) (dot_d - dir_unit);
        return stem > 0 && dir_unit[stem - 1] == '-' && (size_t) (dot_u - unit) > stem &&
               strncmp(dir_unit, unit, stem) == 0;
}
