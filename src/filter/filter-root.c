/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A root as filter input: the unit set systemd would load from it, each
 * unit judged with every file that contributes to it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "basic/dir-fds.h"
#include "basic/file-batch.h"
#include "filter-internal.h"
#include "lookup/lookup.h"

/* Files that belong to many units (service.d/, foo-.service.d/, a
 * template's unit file and drop-ins for its instances) are read once and
 * lent to each unit, which parses a copy. */
typedef struct SharedFile {
        unsigned uses;
        bool loaded;
        int error;
        char *data;
        size_t size;
} SharedFile;

/* Files of the units ahead, read in one batch (file-batch.h): the
 * regular files that belong to one unit only. */
#define PREFETCH_FILES 64
_Static_assert(PREFETCH_FILES <= FILE_BATCH_LEND_MAX, "a prefetch is lent");

typedef struct Prefetched {
        const LookupFile *lf;
        size_t unit;            /* index in the set */
} Prefetched;

typedef struct RootRun {
        const Root *root;
        DirFds dirs;           /* the search directories, to open their files by a short path */
        SharedFile *shared;    /* by LookupFile.source_id: how many units read it, and its bytes
                                * once read when more than one does */
        BatchFile files[PREFETCH_FILES];
        Prefetched of[PREFETCH_FILES];
        size_t n_pre, next_pre; /* read ahead, and the next not taken yet */
        size_t next_unit;       /* the first unit not looked at for prefetching yet */
} RootRun;

static void prefetch_drop(RootRun *rr) {
        for (; rr->next_pre < rr->n_pre; rr->next_pre++)
                batch_file_done(&rr->files[rr->next_pre]);
        rr->n_pre = rr->next_pre = 0;
}

static void root_run_done(RootRun *rr, const LookupSet *set) {
        prefetch_drop(rr);
        dir_fds_done(&rr->dirs);
        for (size_t i = 0; rr->shared && i < set->n_sources; i++)
                free(rr->shared[i].data);
        free(rr->shared);
        rr->shared = NULL;
}

/* The record of the file lf reads, or NULL when it reads none. */
static SharedFile *shared_of(const RootRun *rr, const LookupFile *lf) {
        return lf->source ? &rr->shared[lf->source_id] : NULL;
}

/* How many units read each file: the set numbers the files by source, so
 * no path is compared or hashed here. */
static int count_shared(RootRun *rr, const LookupSet *set) {
        rr->shared = new0(SharedFile, set->n_sources > 0 ? set->n_sources : 1);
        if (!rr->shared)
                return -ENOMEM;
        for (size_t i = 0; i < set->n_units; i++) {
                const LookupUnit *u = set->units[i];

                for (size_t k = 0; k < u->n_dropins; k++)
                        if (u->dropins[k].source)
                                rr->shared[u->dropins[k].source_id].uses++;
                if (u->state != LOOKUP_UNIT_MASKED && u->fragment.source)
                        rr->shared[u->fragment.source_id].uses++;
        }
        return 0;
}

static bool prefetchable(const RootRun *rr, const LookupFile *lf) {
        if (!lf->regular || lf->error || !lf->source)
                return false;
        return shared_of(rr, lf)->uses < 2;
}

/* Reads the files of the units from unit on, as many as a batch holds
 * (whole units only, unless one unit alone has more). */
static int prefetch(Filter *f, RootRun *rr, const LookupSet *set, size_t unit) {
        size_t n = 0;
        int r;

        prefetch_drop(rr);
        for (rr->next_unit = unit; rr->next_unit < set->n_units; rr->next_unit++) {
                const LookupUnit *u = set->units[rr->next_unit];
                size_t want = 0;

                if (u->state != LOOKUP_UNIT_LOADED && u->state != LOOKUP_UNIT_DROPINS_ONLY)
                        continue;
                want = (u->fragment.path && prefetchable(rr, &u->fragment));
                for (size_t i = 0; i < u->n_dropins; i++)
                        want += prefetchable(rr, &u->dropins[i]);
                if (n + want > PREFETCH_FILES && n > 0)
                        break;
                for (size_t i = 0; i <= u->n_dropins; i++) {
                        /* i == 0: the unit file, which is read first. */
                        const LookupFile *lf = i == 0 ? &u->fragment : &u->dropins[i - 1];

                        if (i == 0 && !u->fragment.path)
                                continue;
                        if (n == PREFETCH_FILES || !prefetchable(rr, lf))
                                continue;
                        rr->files[n] = (BatchFile) {};
                        if (lf->source[1])
                                rr->files[n].dfd = dir_fds_at(&rr->dirs, lf->source + 1, false, &rr->files[n].name);
                        else
                                rr->files[n] = (BatchFile) { .dfd = rr->root->fd, .name = "." };
                        rr->of[n++] = (Prefetched) { lf, rr->next_unit };
                }
        }
        if (n == 0)
                return 0;
        if (!f->batch) {
                r = file_batch_new(f->plain_reads, &f->batch);
                if (r < 0)
                        return r;
        }
        /* Lent: the files are taken before the next prefetch. */
        r = file_batch_read(f->batch, rr->files, n, UNIT_FILE_MAX, true);
        if (r < 0)
                return r;
        rr->n_pre = n;
        return 0;
}

/* The prefetched file lf of the set's unit-th unit (for its data to be
 * taken), or NULL. Files of earlier units not taken (a unit that turned
 * out masked) are dropped. */
static BatchFile *prefetched(RootRun *rr, size_t unit, const LookupFile *lf) {
        while (rr->next_pre < rr->n_pre && rr->of[rr->next_pre].unit < unit)
                batch_file_done(&rr->files[rr->next_pre++]);
        if (rr->next_pre < rr->n_pre && rr->of[rr->next_pre].lf == lf)
                return &rr->files[rr->next_pre++];
        return NULL;
}

/* Reads a file of a unit: a shared drop-in from the cache, whose bytes
 * are lent (*ret_borrowed), not copied. */
static int read_source(RootRun *rr, const LookupFile *lf, char **ret, size_t *ret_size, bool *ret_borrowed) {
        int (*reader)(const Root *, const char *, size_t, char **, size_t *) =
                lf->regular ? root_read_regular_file : root_read_file;
        SharedFile *sf = shared_of(rr, lf);

        *ret_borrowed = false;
        if (!sf || sf->uses < 2)
                return reader(rr->root, lf->source, UNIT_FILE_MAX, ret, ret_size);
        if (!sf->loaded) {
                sf->error = reader(rr->root, lf->source, UNIT_FILE_MAX, &sf->data, &sf->size);
                if (sf->error == -ENOMEM)
                        return sf->error;
                sf->loaded = true;
        }
        if (sf->error < 0)
                return sf->error;
        *ret = sf->data;
        *ret_size = sf->size;
        *ret_borrowed = true;
        return 0;
}

/* "\n# PATH\n", the framing systemctl cat gives a file (asprintf costs a
 * tenth of a unit's judging here). */
static char *cat_header_framing(const char *path, size_t n) {
        char *s = malloc(n + 5);

        if (!s)
                return NULL;
        memcpy(s, "\n# ", 3);
        memcpy(s + 3, path, n);
        s[n + 3] = '\n';
        s[n + 4] = '\0';
        return s;
}

/* Reads one file of the unit into *ret_data (NULL when it could not be
 * read: that is reported, and keeps the whole unit from being written).
 * *ret_borrowed: the bytes are lent (by the batch, or the cache of shared
 * files), not the caller's to free. */
static int read_lookup_file(Filter *f, RootRun *rr, UnitGroup *g, size_t unit, const LookupFile *lf,
                            char **ret_data, size_t *ret_size, bool *ret_borrowed) {
        BatchFile *pre;
        int r;

        *ret_data = NULL;
        *ret_borrowed = false;
        if (lf->error) {
                g->verdict = GROUP_REJECTED;
                g->unreadable = true;
                return input_error(f, lf->path, lf->error, "cannot resolve inside the root");
        }
        pre = prefetched(rr, unit, lf);
        if (pre) {
                /* -EINVAL: a symlink or FIFO put in the listed file's place. */
                r = pre->error == -EINVAL ? -EBADFD : pre->error;
                *ret_data = TAKE_PTR(pre->data);
                *ret_size = pre->size;
                *ret_borrowed = pre->borrowed;
        } else
                r = read_source(rr, lf, ret_data, ret_size, ret_borrowed);
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                g->verdict = GROUP_REJECTED;
                g->unreadable = true;
                return input_error(f, lf->path, r, r == -EFBIG ? "file too large" : "cannot read");
        }
        return 0;
}

/* Adds one file of the unit, read already (takes data, unless borrowed). */
static int add_member(Filter *f, RootRun *rr, UnitGroup *g, const LookupFile *lf, bool dropin, char *data,
                      size_t size, bool borrowed) {
        _cleanup_free_ char *framing = NULL;
        size_t path_len = strlen(lf->path);
        const SharedFile *sf;
        size_t n_before;
        GroupFile *gf;
        int r;

        /* Only unit text is framed (write_units()). */
        if (f->format == OUTPUT_UNIT && !(framing = cat_header_framing(lf->path, path_len))) {
                if (!borrowed)
                        free(data);
                return -ENOMEM;
        }
        n_before = g->n_files;
        r = add_file_read(f, g, data, size, borrowed, lf->path, path_len, dropin, TAKE_PTR(framing));
        if (r < 0 || !f->fix || g->n_files == n_before)
                return r;
        /* check --fix rewrites the resolved file: inside the root, never a
         * symlink. A drop-in several units share is rewritten only when
         * they all agree (filter-fix.h). */
        gf = &g->files[g->n_files - 1];
        sf = shared_of(rr, lf);
        gf->shared = sf && sf->uses > 1;
        gf->fix_path = strdup(lf->source);
        return gf->fix_path ? 0 : -ENOMEM;
}

static int read_member(Filter *f, RootRun *rr, UnitGroup *g, size_t unit, const LookupFile *lf, bool dropin) {
        char *data;
        size_t size;
        bool borrowed;
        int r;

        r = read_lookup_file(f, rr, g, unit, lf, &data, &size, &borrowed);
        if (r < 0 || !data)
                return r;
        return add_member(f, rr, g, lf, dropin, data, size, borrowed);
}

static int report_masked(Filter *f, const char *by, const char *id) {
        f->n_masked++;
        return filter_report(f, DIAG_NOTE, "unit.masked", by, id, "%s is masked; systemd does not load it, not judged",
                             id);
}

/* The unit's files into g, and its judging. */
static int root_unit_files(Filter *f, RootRun *rr, const LookupUnit *u, size_t unit, UnitGroup *g) {
        int r;

        g->has_fragment = u->fragment.path != NULL;
        if (g->has_fragment) {
                char *data;
                size_t size;
                bool borrowed;

                r = read_lookup_file(f, rr, g, unit, &u->fragment, &data, &size, &borrowed);
                if (r < 0)
                        return r;
                /* An empty unit file masks the unit (LOOKUP_LAZY_EMPTY left
                 * that to be seen here). */
                if (data && size == 0 && u->maybe_empty) {
                        if (!borrowed)
                                free(data);
                        return report_masked(f, u->fragment.path, u->id);
                }
                if (data) {
                        r = add_member(f, rr, g, &u->fragment, false, data, size, borrowed);
                        if (r < 0)
                                return r;
                }
        }
        for (size_t i = 0; i < u->n_dropins; i++) {
                /* A masked drop-in reads as empty: nothing to judge. */
                if (!u->dropins[i].source && !u->dropins[i].error)
                        continue;
                r = read_member(f, rr, g, unit, &u->dropins[i], true);
                if (r < 0)
                        return r;
        }
        if (g->n_files == 0 && !g->unreadable)
                return 0;
        if (!g->has_fragment && f->show_notes) {
                r = diag_add(&g->diags, DIAG_NOTE, EFFECT_NONE, "unit.dropins-only", unit_group_display_path(g), 0,
                             NULL, NULL, "%s has no unit file under the root; its drop-ins are judged on their own",
                             u->id);
                if (r < 0)
                        return r;
        }
        return finish_group(f, g);
}

static int root_unit(Filter *f, RootRun *rr, const LookupSet *set, size_t unit) {
        const LookupUnit *u = set->units[unit];
        UnitGroup *g;
        int r;

        switch (u->state) {
        case LOOKUP_UNIT_MASKED:
                return report_masked(f, u->masked_by, u->id);
        case LOOKUP_UNIT_BAD:
                return 0;       /* reported with the tree's findings */
        case LOOKUP_UNIT_LOADED:
        case LOOKUP_UNIT_DROPINS_ONLY:
                break;
        }

        if (unit >= rr->next_unit) {
                r = prefetch(f, rr, set, unit);
                if (r < 0)
                        return r;
        }
        /* The group's name is the set's, which outlives it, and the set
         * has classified it already. */
        r = filter_group_new(f, u->id, &g);
        if (r < 0)
                return r;
        g->name_len = strlen(u->id);
        g->name_classified = true;
        g->name_kind = u->id_kind;
        if (u->id_kind >= 0)
                g->name_type = u->id_type;
        r = root_unit_files(f, rr, u, unit, g);
        filter_group_recycle(f, g);
        return r;
}

int filter_root(Filter *f, const Root *root, const LookupSet *set, const char *shown_root) {
        RootRun rr = { .root = root, .dirs = DIR_FDS_INIT(root->fd, 0) };
        unsigned units = 0;
        int r = 0;

        /* Unit files are opened below their search directory: a path
         * walk of one component instead of four or five. */
        for (size_t i = 0; r >= 0 && i < set->paths.n_dirs; i++) {
                const char *d = set->paths.dirs[i].resolved;

                r = dir_fds_add(&rr.dirs, d + strspn(d, "/"));
        }
        if (r >= 0)
                r = count_shared(&rr, set);
        for (size_t i = 0; r >= 0 && i < set->diags.n; i++) {
                const Diag *d = &set->diags.items[i];

                if (d->severity == DIAG_ERROR) {
                        if (streq(d->rule, "lookup.unreadable"))
                                f->n_input_errors++;
                        else
                                f->n_tree_errors++;
                }
                r = filter_emit(f, d, NULL);
        }
        for (size_t i = 0; r >= 0 && i < set->n_units; i++) {
                if (set->units[i]->state != LOOKUP_UNIT_BAD)
                        units++;
                r = root_unit(f, &rr, set, i);
        }
        if (r >= 0 && units == 0) {
                f->n_input_errors++;
                r = filter_report(f, DIAG_ERROR, "input.no-units", shown_root, NULL,
                                  "no unit files found under the %s search path%s",
                                  lookup_scope_to_string(set->paths.scope),
                                  f->other_scope_units > 0 ? (set->paths.scope == LOOKUP_SYSTEM
                                                                      ? " (the user manager's has some: use --user)"
                                                                      : " (the system manager's has some: use --system)")
                                                           : "");
        }
        root_run_done(&rr, set);
        if (r < 0)
                return r;
        return filter_flush(f);
}
