/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The UnitFile model: lifetime, edits and lookups. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "unit-file.h"

/* Everything f holds but its own allocation. */
static void unit_file_release(UnitFile *f) {
        for (size_t i = 0; f->edited && i < f->n_entries; i++)
                free(f->entries[i].edit_text), free(f->entries[i].edit_key);
        for (size_t i = 0; i < f->n_inserts; i++)
                free(f->inserts[i].text), free(f->inserts[i].section), free(f->inserts[i].key);
        if (f->entries != f->inline_entries)
                free(f->entries);
        if (f->sections != f->inline_sections)
                free(f->sections);
        free(f->inserts);
        if (!f->data_inline)
                free(f->data);
        diag_list_done(&f->diags);
}

UnitFile *unit_file_free(UnitFile *f) {
        if (!f)
                return NULL;
        unit_file_release(f);
        free(f);
        return NULL;
}

void unit_file_recycle(UnitFile *f, UnitFile **spare) {
        if (!f)
                return;
        unit_file_release(f);
        if (*spare && (*spare)->allocation >= f->allocation) {
                free(f);
                return;
        }
        free(*spare);
        *spare = f;
}

const char *unit_entry_section(const UnitFile *f, const UnitEntry *e) {
        return e->section >= 0 ? f->sections[e->section].name : NULL;
}

bool unit_file_modified(const UnitFile *f) {
        if (f->n_inserts > 0)
                return true;
        for (size_t i = 0; f->edited && i < f->n_entries; i++)
                if (f->entries[i].edit != EDIT_KEEP)
                        return true;
        return false;
}

int unit_entry_set_edit(UnitFile *f, size_t entry, EntryEdit edit, const char *text) {
        UnitEntry *e;
        char *copy = NULL;

        if (entry >= f->n_entries)
                return -EINVAL;
        if (text) {
                copy = strdup(text);
                if (!copy)
                        return -ENOMEM;
        }
        e = &f->entries[entry];
        free(e->edit_text);
        f->edited = true;
        e->edit = edit;
        e->edit_text = copy;
        return 0;
}

int unit_entry_rename(UnitFile *f, size_t entry, const char *new_key) {
        UnitEntry *e;
        char *k, *v;

        if (entry >= f->n_entries)
                return -EINVAL;
        e = &f->entries[entry];
        k = strdup(new_key);
        v = strdup(e->edit == EDIT_REPLACE && e->edit_text ? e->edit_text : e->value);
        if (!k || !v) {
                free(k);
                free(v);
                return -ENOMEM;
        }
        free(e->edit_key);
        free(e->edit_text);
        f->edited = true;
        e->edit = EDIT_REPLACE;
        e->edit_key = k;
        e->edit_text = v;
        return 0;
}

static bool ends_line(const UnitFile *f, size_t at) {
        char c;

        if (at == 0)
                return true;
        c = f->data[at - 1];
        return c == '\n' || c == '\r' || c == '\0';
}

static bool has_insert_at(const UnitFile *f, size_t at) {
        for (size_t i = 0; i < f->n_inserts; i++)
                if (f->inserts[i].at == at)
                        return true;
        return false;
}

/* Where new entries of a section go: after the last entry of its last
 * occurrence, or right after that occurrence's header. */
static int insertion_point(const UnitFile *f, const char *section, size_t *ret) {
        int last = -1;

        for (size_t i = 0; i < f->n_sections; i++)
                if (streq(f->sections[i].name, section))
                        last = (int) i;
        if (last < 0)
                return -ENOENT;

        *ret = f->sections[last].raw_end;
        for (size_t i = 0; i < f->n_entries; i++)
                if (f->entries[i].section == last)
                        *ret = f->entries[i].raw_end;
        return 0;
}

int unit_file_add_entry(UnitFile *f, const char *section, const char *key, const char *value) {
        _cleanup_(strbuf_done) StrBuf text = {};
        size_t at;
        bool new_section;
        int r;

        new_section = insertion_point(f, section, &at) < 0;
        if (new_section)
                at = f->size;

        /* Start on a fresh line, unless an earlier insertion here did. */
        if (!ends_line(f, at) && !has_insert_at(f, at))
                r = strbuf_append_char(&text, '\n');
        else
                r = 0;
        if (r >= 0 && new_section)
                r = strbuf_printf(&text, "%s[%s]\n", f->size > 0 ? "\n" : "", section);
        if (r >= 0)
                r = strbuf_printf(&text, "%s=%s\n", key, value);
        if (r < 0)
                return r;

        r = GREEDY_REALLOC(f->inserts, f->allocated_inserts, f->n_inserts + 1);
        if (r < 0)
                return r;
        f->inserts[f->n_inserts] = (UnitInsert) {
                .at = at,
                .order = f->n_inserts,
                .text = strbuf_steal(&text),
                .section = strdup(section),
                .key = strdup(key),
        };
        if (!f->inserts[f->n_inserts].text || !f->inserts[f->n_inserts].section ||
            !f->inserts[f->n_inserts].key) {
                free(f->inserts[f->n_inserts].text);
                free(f->inserts[f->n_inserts].section);
                free(f->inserts[f->n_inserts].key);
                return -ENOMEM;
        }
        f->n_inserts++;
        return 0;
}
