/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Writes a UnitFile back: the original bytes, with the requested edits. */
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "unit-file.h"

static int compare_inserts(const void *a, const void *b) {
        const UnitInsert *x = *(const UnitInsert *const *) a, *y = *(const UnitInsert *const *) b;

        if (x->at != y->at)
                return x->at < y->at ? -1 : 1;
        return x->order < y->order ? -1 : x->order > y->order;
}

typedef struct Writer {
        const UnitFile *f;
        StrBuf *out;
        size_t pos;                 /* next raw byte to copy */
        const UnitInsert **inserts; /* sorted */
        size_t n_inserts, next_insert;
} Writer;

/* Copies raw bytes up to target, placing inserts on the way. */
static int copy_until(Writer *w, size_t target) {
        int r;

        while (w->next_insert < w->n_inserts && w->inserts[w->next_insert]->at <= target) {
                const UnitInsert *ins = w->inserts[w->next_insert++];

                if (ins->at > w->pos) {
                        r = strbuf_append(w->out, w->f->data + w->pos, ins->at - w->pos);
                        if (r < 0)
                                return r;
                        w->pos = ins->at;
                }
                r = strbuf_append_str(w->out, ins->text);
                if (r < 0)
                        return r;
        }
        if (target > w->pos) {
                r = strbuf_append(w->out, w->f->data + w->pos, target - w->pos);
                if (r < 0)
                        return r;
                w->pos = target;
        }
        return 0;
}

/* Text for a comment: one line, whatever the reason says. */
static int append_one_line(StrBuf *out, const char *s) {
        int r = 0;

        for (; *s && r >= 0; s++)
                r = strbuf_append_char(out, *s == '\n' || *s == '\r' ? ' ' : *s);
        return r;
}

static int write_edit(Writer *w, const UnitEntry *e) {
        bool terminated = e->raw_end > e->raw_start && (w->f->data[e->raw_end - 1] == '\n' ||
                                                        w->f->data[e->raw_end - 1] == '\r' ||
                                                        w->f->data[e->raw_end - 1] == '\0');
        int r = 0;

        switch (e->edit) {
        case EDIT_KEEP:
                return strbuf_append(w->out, w->f->data + e->raw_start, e->raw_end - e->raw_start);
        case EDIT_DROP:
                return 0;
        case EDIT_REPLACE:
                r = strbuf_printf(w->out, "%s=%s", e->edit_key ? e->edit_key : e->key,
                                  e->edit_text ? e->edit_text : "");
                break;
        case EDIT_COMMENT:
                r = strbuf_append_str(w->out, "# unitguard: ");
                if (r >= 0)
                        r = append_one_line(w->out, e->edit_text ? e->edit_text : "dropped");
                if (r >= 0)
                        r = strbuf_printf(w->out, "\n# %s=", e->key);
                if (r >= 0)
                        r = append_one_line(w->out, e->value);
                break;
        }
        if (r >= 0 && terminated)
                r = strbuf_append_char(w->out, '\n');
        return r;
}

int unit_file_write(const UnitFile *f, StrBuf *out) {
        _cleanup_free_ const UnitInsert **sorted = NULL;
        Writer w = { .f = f, .out = out };
        int r;

        if (!unit_file_modified(f))
                return strbuf_append(out, f->data, f->size);

        if (f->n_inserts > 0) {
                /* Sort pointers, not the model: writing must not change it. */
                sorted = malloc_multiply(f->n_inserts, sizeof(UnitInsert *));
                if (!sorted)
                        return -ENOMEM;
                for (size_t i = 0; i < f->n_inserts; i++)
                        sorted[i] = &f->inserts[i];
                qsort(sorted, f->n_inserts, sizeof(UnitInsert *), compare_inserts);
        }
        w.inserts = sorted;
        w.n_inserts = f->n_inserts;

        for (size_t i = 0; i < f->n_entries; i++) {
                const UnitEntry *e = &f->entries[i];

                if (e->edit == EDIT_KEEP)
                        continue;
                r = copy_until(&w, e->raw_start);
                if (r < 0)
                        return r;
                r = write_edit(&w, e);
                if (r < 0)
                        return r;
                w.pos = e->raw_end;
        }
        return copy_until(&w, f->size);
}
