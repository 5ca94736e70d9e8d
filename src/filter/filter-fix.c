/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* check --fix: rewriting the changed files of accepted units (see
 * filter-fix.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/alloc-util.h"
#include "basic/atomic-file.h"
#include "basic/fileio.h"
#include "basic/strmap.h"
#include "filter-fix.h"

typedef enum FixState {
        FIX_PENDING,
        FIX_APPLIED,
        FIX_NOT_APPLIED,
} FixState;

typedef struct FixEntry {
        char *key;             /* GroupFile.fix_path, or the shown path */
        char *shown;           /* the path in findings */
        char *unit;            /* the first unit that changed it */
        const char *refusal;   /* static: why it cannot be rewritten at all */
        bool has_path;         /* key is a path that can be written */
        char *original;        /* the bytes it was read with */
        size_t original_size;
        char *content;         /* its sanitized form */
        size_t size;
        bool has_content;
        bool wants_original;   /* an accepted unit it belongs to does not change it */
        bool conflict;         /* two units want different sanitized forms */
        char *rejected_by;     /* a rejected unit it belongs to */
        FixState state;
} FixEntry;

typedef struct FixNote {
        size_t finding;        /* index into Filter.findings */
        char *action;
        const FixEntry *entry;
} FixNote;

struct FilterFix {
        char *root_dir;
        FixEntry **entries;
        size_t n_entries, allocated_entries;
        StrMap index;          /* key -> FixEntry */
        FixNote *notes;
        size_t n_notes, allocated_notes;
        unsigned n_fixed, n_failed;
};

int filter_fix_new(const char *root_dir, FilterFix **ret) {
        FilterFix *x = new0(FilterFix, 1);

        if (!x)
                return -ENOMEM;
        /* The host's root: paths are used as they are. */
        if (root_dir && strspn(root_dir, "/") < strlen(root_dir)) {
                size_t n = strlen(root_dir);

                /* "dest/" and "dest" are the same root: no "dest//usr". */
                while (n > 1 && root_dir[n - 1] == '/')
                        n--;
                x->root_dir = strndup(root_dir, n);
                if (!x->root_dir) {
                        free(x);
                        return -ENOMEM;
                }
        }
        *ret = x;
        return 0;
}

static void entry_free(FixEntry *e) {
        free(e->key);
        free(e->shown);
        free(e->unit);
        free(e->original);
        free(e->content);
        free(e->rejected_by);
        free(e);
}

FilterFix *filter_fix_free(FilterFix *x) {
        if (!x)
                return NULL;
        for (size_t i = 0; i < x->n_entries; i++)
                entry_free(x->entries[i]);
        free(x->entries);
        strmap_done(&x->index);
        for (size_t i = 0; i < x->n_notes; i++)
                free(x->notes[i].action);
        free(x->notes);
        free(x->root_dir);
        free(x);
        return NULL;
}

unsigned filter_fix_n_fixed(const FilterFix *x) {
        return x ? x->n_fixed : 0;
}

unsigned filter_fix_n_failed(const FilterFix *x) {
        return x ? x->n_failed : 0;
}

static const char *group_file_key(const GroupFile *gf) {
        return gf->fix_path ? gf->fix_path : gf->file->path;
}

static int entry_get(FilterFix *x, const UnitGroup *g, const GroupFile *gf, FixEntry **ret) {
        const char *key = group_file_key(gf);
        FixEntry *e = strmap_get(&x->index, key);
        int r;

        if (e) {
                *ret = e;
                return 0;
        }
        r = GREEDY_REALLOC(x->entries, x->allocated_entries, x->n_entries + 1);
        if (r < 0)
                return r;
        e = new0(FixEntry, 1);
        if (!e)
                return -ENOMEM;
        e->key = strdup(key);
        e->shown = strdup(gf->file->path);
        e->unit = g->name ? strdup(g->name) : NULL;
        if (!e->key || !e->shown || (g->name && !e->unit)) {
                entry_free(e);
                return -ENOMEM;
        }
        e->has_path = gf->fix_path != NULL;
        e->refusal = gf->fix_refusal;
        r = strmap_put(&x->index, e->key, e);
        if (r < 0) {
                entry_free(e);
                return r;
        }
        x->entries[x->n_entries++] = e;
        *ret = e;
        return 0;
}

int fix_record_group(Filter *f, const UnitGroup *g) {
        FilterFix *x = f->fix;
        bool rejected = g->verdict == GROUP_REJECTED;
        int r;

        if (!x)
                return 0;
        for (size_t i = 0; i < g->n_files; i++) {
                const GroupFile *gf = &g->files[i];
                _cleanup_(strbuf_done) StrBuf out = {};
                bool modified;
                FixEntry *e;

                if (!gf->file)
                        continue;
                modified = unit_file_modified(gf->file);
                /* A file of one unit only matters when it changes, and
                 * never when its unit is rejected. */
                if (!gf->shared && (!modified || rejected))
                        continue;
                r = entry_get(x, g, gf, &e);
                if (r < 0)
                        return r;
                if (rejected) {
                        if (!e->rejected_by && !(e->rejected_by = strdup(g->name ? g->name : "another unit")))
                                return -ENOMEM;
                        continue;
                }
                if (!modified) {
                        e->wants_original = true;
                        continue;
                }
                r = unit_file_write(gf->file, &out);
                if (r < 0)
                        return r;
                if (e->has_content) {
                        if (e->size != out.len || memcmp(e->content, out.data ? out.data : "", out.len) != 0)
                                e->conflict = true;
                        continue;
                }
                e->original = malloc(gf->file->size + 1);
                if (!e->original)
                        return -ENOMEM;
                memcpy(e->original, gf->file->data, gf->file->size);
                e->original_size = gf->file->size;
                e->size = out.len;
                e->content = out.data ? strbuf_steal(&out) : strdup("");
                if (!e->content)
                        return -ENOMEM;
                e->has_content = true;
        }
        return 0;
}

/* What the sanitized form of uf does about the finding d, or NULL. */
static int describe_fix(const UnitFile *uf, const Diag *d, char **ret) {
        *ret = NULL;
        if (d->line > 0) {
                for (size_t i = 0; i < uf->n_entries; i++) {
                        const UnitEntry *e = &uf->entries[i];

                        if (e->line_last != d->line || e->edit == EDIT_KEEP || (d->key && !streq(d->key, e->key)))
                                continue;
                        switch (e->edit) {
                        case EDIT_DROP:
                                *ret = strdup("removed");
                                break;
                        case EDIT_COMMENT:
                                *ret = strdup("commented out");
                                break;
                        case EDIT_REPLACE:
                                if (asprintf(ret, "replaced by %s=%s", e->edit_key ? e->edit_key : e->key,
                                             e->edit_text ? e->edit_text : e->value) < 0)
                                        *ret = NULL;
                                break;
                        case EDIT_KEEP:
                                break;
                        }
                        return *ret ? 0 : -ENOMEM;
                }
                return 0;
        }
        if (!d->key)
                return 0;
        for (size_t i = 0; i < uf->n_inserts; i++) {
                const UnitInsert *in = &uf->inserts[i];
                const char *line;

                if (!in->key || !streq(in->key, d->key) || (d->section && in->section && !streq(in->section, d->section)))
                        continue;
                /* The inserted text may open a section first: name the
                 * assignment itself. */
                line = in->text;
                for (const char *s = in->text; s && *s; s = strchr(s, '\n') ? strchr(s, '\n') + 1 : NULL)
                        if (startswith(s, in->key) && s[strlen(in->key)] == '=') {
                                line = s;
                                break;
                        }
                if (asprintf(ret, "added %.*s", (int) strcspn(line, "\n"), line) < 0)
                        return -ENOMEM;
                return 0;
        }
        return 0;
}

int fix_note_finding(Filter *f, const UnitGroup *g, const Diag *d, size_t index) {
        FilterFix *x = f->fix;
        _cleanup_free_ char *action = NULL;
        int r;

        if (!x || !d->file)
                return 0;
        for (size_t i = 0; i < g->n_files; i++) {
                const GroupFile *gf = &g->files[i];
                const FixEntry *e;

                if (!gf->file || !streq(gf->file->path, d->file))
                        continue;
                e = strmap_get(&x->index, group_file_key(gf));
                if (!e || !e->has_content)
                        return 0;
                r = describe_fix(gf->file, d, &action);
                if (r < 0 || !action)
                        return r;
                r = GREEDY_REALLOC(x->notes, x->allocated_notes, x->n_notes + 1);
                if (r < 0)
                        return r;
                x->notes[x->n_notes++] = (FixNote) { .finding = index, .action = TAKE_PTR(action), .entry = e };
                return 0;
        }
        return 0;
}

const char *filter_fix_applied(const FilterFix *x, size_t index, size_t *cursor) {
        if (!x)
                return NULL;
        while (*cursor < x->n_notes && x->notes[*cursor].finding < index)
                (*cursor)++;
        if (*cursor < x->n_notes && x->notes[*cursor].finding == index &&
            x->notes[*cursor].entry->state == FIX_APPLIED)
                return x->notes[*cursor].action;
        return NULL;
}

/* ---- writing ----------------------------------------------------------- */

static int write_content(void *userdata, int fd) {
        const FixEntry *e = userdata;

        return loop_write(fd, e->content, e->size);
}

/* A file or directory without any write permission bit is read-only, for
 * root too: unitguard does not override what the tree's owner said. */
static int writable(const char *path, bool dir, char **ret_why) {
        struct stat st;

        if (stat(path, &st) < 0)
                return asprintf(ret_why, "cannot examine %s%s: %s", dir ? "directory " : "", path,
                                strerror(errno)) < 0 ? -ENOMEM : 0;
        if ((st.st_mode & 0222) == 0)
                return asprintf(ret_why, "%s%s is read-only (mode %04o)", dir ? "directory " : "",
                                dir ? path : "the file", (unsigned) (st.st_mode & 07777)) < 0 ? -ENOMEM : 0;
        if (faccessat(AT_FDCWD, path, dir ? W_OK | X_OK : W_OK, AT_EACCESS) < 0)
                return asprintf(ret_why, "cannot write %s%s: %s", dir ? "to directory " : "",
                                dir ? path : "the file", strerror(errno)) < 0 ? -ENOMEM : 0;
        return 1;
}

/* Rewrites e; on failure *ret_why says why and the file is as it was.
 * Returns 1 when written, 0 when not, -ENOMEM. */
static int write_entry(const FilterFix *x, const FixEntry *e, char **ret_why) {
        _cleanup_free_ char *path = NULL, *dir = NULL, *now = NULL;
        const char *slash;
        AtomicFileId id;
        sigset_t hold, saved;
        struct stat st;
        size_t now_size;
        int fd, r;

        if (x->root_dir ? asprintf(&path, "%s%s", x->root_dir, e->key) < 0 : !(path = strdup(e->key))) {
                path = NULL;
                return -ENOMEM;
        }
        slash = strrchr(path, '/');
        dir = !slash ? strdup(".") : slash == path ? strdup("/") : strndup(path, (size_t) (slash - path));
        if (!dir)
                return -ENOMEM;

        /* Still the file that was judged? */
        fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0) {
                if (errno == ELOOP)
                        return asprintf(ret_why, "is a symbolic link now; not replaced") < 0 ? -ENOMEM : 0;
                if (errno == ENOENT)
                        return asprintf(ret_why, "was removed since it was read") < 0 ? -ENOMEM : 0;
                return asprintf(ret_why, "cannot open: %s", strerror(errno)) < 0 ? -ENOMEM : 0;
        }
        if (fstat(fd, &st) < 0)
                r = -errno;
        else if (!S_ISREG(st.st_mode))
                r = -EBADFD;
        else
                r = read_full_fd_sized(fd, st.st_size, UNIT_FILE_MAX, &now, &now_size);
        close(fd);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return asprintf(ret_why, "cannot read it again: %s", read_error_to_string(r)) < 0 ? -ENOMEM : 0;
        if (now_size != e->original_size || memcmp(now, e->original, now_size) != 0)
                return asprintf(ret_why, "changed since it was read") < 0 ? -ENOMEM : 0;

        r = writable(path, false, ret_why);
        if (r > 0)
                r = writable(dir, true, ret_why);
        if (r <= 0)
                return r;

        /* SIGTERM, SIGINT and SIGHUP wait until the file is replaced (or
         * the temporary file removed): none is left behind. */
        atomic_file_id_from_stat(&st, &id);
        sigemptyset(&hold);
        sigaddset(&hold, SIGTERM);
        sigaddset(&hold, SIGINT);
        sigaddset(&hold, SIGHUP);
        (void) sigprocmask(SIG_BLOCK, &hold, &saved);
        r = atomic_file_replace_full(path, &id, ATOMIC_KEEP_ATTRS, 0, write_content, (void *) e);
        (void) sigprocmask(SIG_SETMASK, &saved, NULL);
        if (r == -ENOMEM)
                return r;
        if (r == -ESTALE)
                return asprintf(ret_why, "changed since it was read") < 0 ? -ENOMEM : 0;
        if (r == -ELOOP)
                return asprintf(ret_why, "is a symbolic link now; not replaced") < 0 ? -ENOMEM : 0;
        if (r < 0)
                return asprintf(ret_why, "cannot write: %s", strerror(-r)) < 0 ? -ENOMEM : 0;
        return 1;
}

/* Findings about fixes are shown without -v: the user asked for them. */
static int report(Filter *f, DiagSeverity sev, const char *rule, const FixEntry *e, const char *msg) {
        bool saved = f->show_notes;
        int r;

        f->show_notes = true;
        r = filter_report(f, sev, rule, e->shown, e->unit, "%s", msg);
        f->show_notes = saved;
        return r;
}

/* The message about e, or NULL (-ENOMEM). Returns 1 when written. */
static int fix_one(const FilterFix *x, FixEntry *e, const char **ret_rule, DiagSeverity *ret_sev, char **ret_msg) {
        _cleanup_free_ char *why = NULL;
        int r;

        *ret_sev = DIAG_ERROR;
        *ret_rule = "fix.failed";
        if (e->rejected_by) {
                *ret_sev = DIAG_WARNING;
                *ret_rule = "fix.skipped";
                return asprintf(ret_msg, "not rewritten: the file also belongs to %s, which is rejected",
                                e->rejected_by) < 0 ? -ENOMEM : 0;
        }
        if (e->conflict || e->wants_original) {
                *ret_rule = "fix.conflict";
                return (*ret_msg = strdup("not rewritten: the units it belongs to need different contents")) ? 0 : -ENOMEM;
        }
        if (!e->has_path)
                return asprintf(ret_msg, "%s; not rewritten",
                                e->refusal ? e->refusal : "not a file that can be rewritten") < 0 ? -ENOMEM : 0;
        r = write_entry(x, e, &why);
        if (r < 0)
                return r;
        if (r == 0)
                return asprintf(ret_msg, "%s; not rewritten, left as it was", why) < 0 ? -ENOMEM : 0;
        *ret_sev = DIAG_NOTE;
        *ret_rule = "fix.applied";
        /* Under --root a symlinked file is rewritten at its target. */
        if (x->root_dir && !streq(e->key, e->shown))
                r = asprintf(ret_msg, "rewritten to the policy's sanitized form (at the link's target %s)", e->key);
        else
                r = (*ret_msg = strdup("rewritten to the policy's sanitized form")) ? 0 : -1;
        return r < 0 ? -ENOMEM : 1;
}

int filter_fix_apply(Filter *f) {
        FilterFix *x = f->fix;
        int r = 0;

        if (!x)
                return 0;
        for (size_t i = 0; r >= 0 && i < x->n_entries; i++) {
                FixEntry *e = x->entries[i];
                _cleanup_free_ char *msg = NULL;
                const char *rule;
                DiagSeverity sev;

                if (!e->has_content)
                        continue;
                r = fix_one(x, e, &rule, &sev, &msg);
                if (r < 0)
                        break;
                e->state = r > 0 ? FIX_APPLIED : FIX_NOT_APPLIED;
                if (r > 0)
                        x->n_fixed++;
                else if (sev == DIAG_ERROR)
                        x->n_failed++;
                r = report(f, sev, rule, e, msg);
        }
        if (r < 0)
                return r;
        return filter_flush(f);
}
