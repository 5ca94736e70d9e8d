/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* From the name map to units: aliases followed, instances given their
 * template, drop-ins collected from every directory in systemd's order. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "basic/alloc-util.h"
#include "validate/behaviour.h"
#include "basic/macro.h"
#include "lookup-internal.h"
#include "validate/unit-name.h"

/* systemd follows at most this many aliases (unit_ids_map_get()). */
#define ALIAS_FOLLOW_MAX 32

/* A name's form not worked out yet: unit_name_classify_type() never
 * answers 0. Names the scan classified carry their form along; the few
 * others are classified where they are looked at. */
#define NAME_KIND_UNKNOWN 0

/* Follows aliases from name. Returns the final entry, NULL with -ENOENT
 * (*missing set to the name not found) or -ELOOP. */
static int resolve_name_hashed(const Builder *b, const char *name, const uint32_t *hash, Entry **ret,
                               const char **missing) {
        const char *cur = name;

        for (unsigned hops = 0; hops <= ALIAS_FOLLOW_MAX; hops++) {
                /* name's hash, when the caller knows it; the targets'
                 * are worked out. */
                Entry *e = hops == 0 && hash ? strmap_get_hashed(&b->names, cur, *hash) : strmap_get(&b->names, cur);

                if (!e) {
                        *missing = cur;
                        return -ENOENT;
                }
                if (e->kind != ENTRY_ALIAS) {
                        *ret = e;
                        return 0;
                }
                cur = e->target;
        }
        return -ELOOP;
}

static int resolve_name(const Builder *b, const char *name, Entry **ret, const char **missing) {
        return resolve_name_hashed(b, name, NULL, ret, missing);
}

/* foo@.service + "bar" -> foo@bar.service */
static char *instantiate(const char *template, const char *instance) {
        const char *at = strchr(template, '@');
        char *s;

        if (!at || asprintf(&s, "%.*s@%s%s", (int) (at - template), template, instance, at + 1) < 0)
                return NULL;
        return s;
}

static int unit_add_alias(Builder *b, LookupUnit *u, const char *name) {
        char **aliases;
        char *s;

        if (streq(name, u->id))
                return 0;
        for (size_t i = 0; i < u->n_aliases; i++)
                if (streq(u->aliases[i], name))
                        return 0;
        s = lookup_set_strdup(b->set, name);
        if (!s)
                return -ENOMEM;
        aliases = reallocarray_safe(u->aliases, u->n_aliases + 1, sizeof(char *));
        if (!aliases)
                return -ENOMEM;
        u->aliases = aliases;
        u->aliases[u->n_aliases++] = s;
        return 0;
}

/* The unit called id, made when there is none yet; kind and type: what
 * unit_name_classify_type() says of id, or NAME_KIND_UNKNOWN. id_is_sets:
 * id is a string of the set's already (an entry's name), kept as it is. */
static int get_unit_hashed(Builder *b, const char *id, bool id_is_sets, int kind, UnitType type,
                           const uint32_t *id_hash, LookupUnit **ret) {
        uint32_t hash = id_hash ? *id_hash : strmap_hash(id);
        LookupUnit *u = strmap_get_hashed(&b->units, id, hash);
        int r;

        if (u) {
                *ret = u;
                return 0;
        }
        /* In the set's blocks, freed with it (lookup_unit_free()). */
        u = lookup_set_new0(b->set, sizeof(LookupUnit), _Alignof(LookupUnit));
        if (!u || !(u->id = id_is_sets ? (char *) id : lookup_set_strdup(b->set, id)) ||
            GREEDY_REALLOC(b->unit_list, b->allocated_units, b->n_units + 1) < 0)
                return -ENOMEM;
        if (kind == NAME_KIND_UNKNOWN)
                kind = unit_name_classify_type(id, &type);
        u->id_kind = kind;
        u->id_type = kind >= 0 ? type : _UNIT_TYPE_INVALID;
        u->id_hash = hash;
        b->unit_list[b->n_units++] = u;
        r = strmap_put_hashed(&b->units, u->id, u, hash);
        if (r < 0)
                return r;
        *ret = u;
        return 1;
}

static int get_unit(Builder *b, const char *id, bool id_is_sets, int kind, UnitType type, LookupUnit **ret) {
        return get_unit_hashed(b, id, id_is_sets, kind, type, NULL, ret);
}

/* Whether a file reads as empty, which masks a unit (null_or_empty).
 * mode, size: its lstat() when known already (mode 0: not known). */
static bool resolved_is_empty(const Builder *b, const char *resolved, mode_t mode, off_t size) {
        struct stat st;

        if (streq(resolved, "/dev/null"))
                return true;
        if (mode == 0) {
                if (fstatat(b->root->fd, resolved[1] ? resolved + 1 : ".", &st, AT_SYMLINK_NOFOLLOW) < 0)
                        return false;
                mode = st.st_mode;
                size = st.st_size;
        }
        return S_ISCHR(mode) || (S_ISREG(mode) && size == 0);
}

/* Sets the unit's fragment from the final entry of its name. */
static int set_fragment(Builder *b, LookupUnit *u, const Entry *e) {
        _cleanup_free_ char *source = NULL;
        const char *shown;
        mode_t mode = 0;
        off_t size = 0;
        int r = 0;

        switch (e->kind) {
        case ENTRY_MASK:
                u->state = LOOKUP_UNIT_MASKED;
                u->masked_by = e->path;         /* the set's already */
                return 0;
        case ENTRY_LINKED:
                shown = e->path;
                if (e->target_mode != 0 && !S_ISLNK(e->target_mode)) {
                        /* The scan resolved every component of the target,
                         * the last one no symlink: resolving it again would
                         * give the same path. */
                        source = strdup(e->target);
                        if (!source)
                                return -ENOMEM;
                        mode = e->target_mode;
                        size = e->target_size;
                } else
                        r = root_chase(b->root, e->target, 0, &source);
                break;
        default:
                u->state = LOOKUP_UNIT_LOADED;
                if (e->empty) {
                        u->state = LOOKUP_UNIT_MASKED;
                        u->masked_by = e->path;
                        return 0;
                }
                u->maybe_empty = e->size_unknown;
                u->fragment.regular = true;
                u->fragment.path = e->path;
                u->fragment.source = e->source;
                u->fragment.source_id = e->source_id;
                return 0;
        }
        if (r == -ENOMEM)
                return r;
        u->state = LOOKUP_UNIT_LOADED;
        u->fragment.path = (char *) shown;     /* the entry's: the set's */
        if (r < 0) {
                u->fragment.error = r;
                return 0;
        }
        if (resolved_is_empty(b, source, mode, size)) {
                u->state = LOOKUP_UNIT_MASKED;
                u->masked_by = TAKE_PTR(u->fragment.path);
                return 0;
        }
        u->fragment.source = lookup_set_strdup(b->set, source);
        if (!u->fragment.source)
                return -ENOMEM;
        return builder_source_id(b, u->fragment.source, &u->fragment.source_id);
}

/* Adds the unit a name leads to (creating it), with the name as an alias.
 * kind, type: unit_name_classify_type() of name, or NAME_KIND_UNKNOWN.
 * hash: strmap_hash(name) when known, or NULL. */
static int add_name(Builder *b, const char *name, int kind, UnitType type, const uint32_t *hash,
                    bool from_dependency) {
        _cleanup_free_ char *template = NULL, *id_buf = NULL, *instance = NULL;
        const char *missing = NULL, *id;
        Entry *e = NULL;
        LookupUnit *u;
        int r;

        if (kind == NAME_KIND_UNKNOWN)
                kind = unit_name_classify_type(name, &type);
        if (kind < 0)
                return 0;
        if (kind == UNIT_NAME_INSTANCE) {
                r = unit_name_to_instance(name, &instance);
                if (r < 0)
                        return r == -ENOMEM ? r : 0;
        }
        r = resolve_name_hashed(b, name, hash, &e, &missing);
        if (r == -ENOENT && kind == UNIT_NAME_INSTANCE && streq(missing, name)) {
                r = unit_name_template(name, &template);
                if (r < 0)
                        return r;
                r = resolve_name(b, template, &e, &missing);
        }
        if (r == -ELOOP || (r == -ENOENT && !from_dependency)) {
                Entry *first = strmap_get(&b->names, name);
                int err = r;

                r = get_unit(b, name, false, kind, type, &u);
                if (r <= 0)
                        return r;
                u->state = LOOKUP_UNIT_BAD;
                if (!first)
                        return 0;
                if (err == -ELOOP)
                        return builder_diag(b, DIAG_ERROR, "lookup.alias-loop", first->path,
                                            "Alias chain does not end after %d links; systemd cannot load %s",
                                            ALIAS_FOLLOW_MAX, name);
                return builder_diag(b, DIAG_WARNING, "lookup.alias-dangling", first->path,
                                    "Alias of '%s', which does not exist in the search path; %s is not found",
                                    missing, name);
        }
        if (r == -ENOENT)
                return 0;       /* an instance of a template the root does not ship */

        /* The unit's name is the fragment's, instantiated for an instance. */
        id = e->name;
        kind = e->name_kind;
        type = e->name_type;
        if (instance && e->name_kind == UNIT_NAME_TEMPLATE) {
                id = id_buf = instantiate(e->name, instance);
                if (!id_buf)
                        return -ENOMEM;
                kind = NAME_KIND_UNKNOWN;
        }
        /* The fragment's entry knows the hash of its name. */
        r = get_unit_hashed(b, id, !id_buf, kind, type, id_buf ? NULL : &e->name_hash, &u);
        if (r < 0)
                return r;
        if (r > 0) {
                r = set_fragment(b, u, e);
                if (r < 0)
                        return r;
        }
        return unit_add_alias(b, u, name);
}

/* A template name in the search path and the fragment it resolves to. */
typedef struct TemplateName {
        const char *name;
        const Entry *fragment;
} TemplateName;

/* Every template name that resolves, once: instances look only at these. */
static int list_template_names(Builder *b, TemplateName **ret, size_t *ret_n) {
        TemplateName *list = NULL;
        size_t n = 0, allocated = 0;

        for (size_t i = 0; i < b->n_entries; i++) {
                const char *missing;
                Entry *frag;

                if (b->entries[i]->name_kind != UNIT_NAME_TEMPLATE ||
                    resolve_name(b, b->entries[i]->name, &frag, &missing) < 0)
                        continue;
                if (GREEDY_REALLOC(list, allocated, n + 1) < 0) {
                        free(list);
                        return -ENOMEM;
                }
                list[n++] = (TemplateName) { b->entries[i]->name, frag };
        }
        *ret = list;
        *ret_n = n;
        return 0;
}

/* Template aliases (u@.service -> t@.service) give every instance of t an
 * alias u@INSTANCE. */
static int add_template_aliases(Builder *b, LookupUnit *u, const TemplateName *templates, size_t n_templates) {
        _cleanup_free_ char *instance = NULL, *template = NULL;
        const char *missing;
        Entry *frag;
        int r;

        if (u->id_kind != UNIT_NAME_INSTANCE)
                return 0;
        r = unit_name_to_instance(u->id, &instance);
        if (r < 0)
                return r;
        r = unit_name_template(u->id, &template);
        if (r < 0)
                return r;
        if (resolve_name(b, template, &frag, &missing) < 0)
                return 0;
        for (size_t i = 0; i < n_templates; i++) {
                _cleanup_free_ char *alias = NULL;

                if (templates[i].fragment != frag)
                        continue;
                alias = instantiate(templates[i].name, instance);
                if (!alias)
                        return -ENOMEM;
                r = unit_add_alias(b, u, alias);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* ---- drop-ins (unit_file_find_dropin_paths) ---------------------------- */

typedef struct DropinDirList {
        DropinDir **items;
        size_t n, allocated;
} DropinDirList;

/* Adds the drop-in directory of search directory dir from a name's chain
 * (sorted by search directory); *cursor, the chain's head at first, moves
 * along it as dir grows, so that the chain is looked up once per name. */
static int dirlist_add(DropinDirList *l, DropinDir **cursor, size_t dir) {
        DropinDir *d = *cursor;

        while (d && d->dir < dir)
                d = d->next;
        *cursor = d;
        if (!d || d->dir != dir)
                return 0;
        d->used = true;
        if (!d->path)
                return 0;
        /* The same directory reached twice (a symlinked /lib) counts once. */
        for (size_t i = 0; i < l->n; i++)
                if (streq(l->items[i]->path, d->path))
                        return 0;
        if (GREEDY_REALLOC(l->items, l->allocated, l->n + 1) < 0)
                return -ENOMEM;
        l->items[l->n++] = d;
        return 0;
}

typedef struct NameList {
        char **items;
        size_t n, allocated;
} NameList;

static void name_list_done(NameList *l) {
        for (size_t i = 0; i < l->n; i++)
                free(l->items[i]);
        free(l->items);
}

/* Whether some dash prefix's drop-in directory could apply to name: each
 * dash prefix of a name starts the name. */
static bool has_dash_stem(const Builder *b, const char *name) {
        for (size_t i = 0; i < b->n_dash_stems; i++)
                if (startswith(name, b->dash_stems[i]))
                        return true;
        return false;
}

/* The names whose NAME.d apply, in the order systemd looks in one search
 * directory: the name's own, its template's, then those of its dash
 * prefixes, most specific first (the same for every directory). Only names
 * that have a drop-in directory somewhere are kept. */
static int expand_name(Builder *b, NameList *l, const char *name, int kind, UnitType type, const uint32_t *hash,
                       unsigned depth) {
        /* The name is valid (shorter than UNIT_NAME_MAX) once classified:
         * its parts are cut from it here, on the stack, with one
         * classification instead of one per helper. */
        char prefix[UNIT_NAME_MAX], built[2 * UNIT_NAME_MAX + 16];
        const char *at, *dot, *type_name;
        size_t n_prefix, n_instance = 0, k;
        bool chopped = false;
        int r;

        if (depth > 64)
                return 0;
        /* The hash of a unit's id is the unit's (a name hashes the same
         * in every map). */
        if (hash ? strmap_get_hashed(&b->dropin_index, name, *hash) : strmap_get(&b->dropin_index, name)) {
                char *s = strdup(name);

                if (!s || GREEDY_REALLOC(l->items, l->allocated, l->n + 1) < 0) {
                        free(s);
                        return -ENOMEM;
                }
                l->items[l->n++] = s;
        }
        if (kind == NAME_KIND_UNKNOWN)
                kind = unit_name_classify_type(name, &type);
        if (kind < 0)
                return 0;
        if (kind == UNIT_NAME_INSTANCE) {
                _cleanup_free_ char *template = NULL;

                r = unit_name_template(name, &template);
                if (r < 0)
                        return r;
                r = expand_name(b, l, template, NAME_KIND_UNKNOWN, _UNIT_TYPE_INVALID, NULL, depth + 1);
                if (r < 0)
                        return r;
        }
        if (!has_dash_stem(b, name) || !sd_behaves(SD_DROPINS_DASH_PREFIX, b->version))
                return 0;

        dot = strrchr(name, '.');
        at = kind == UNIT_NAME_PLAIN ? NULL : strchr(name, '@');
        n_prefix = (size_t) ((at ? at : dot) - name);
        if (kind == UNIT_NAME_INSTANCE)
                n_instance = (size_t) (dot - at - 1);
        memcpy(prefix, name, n_prefix);
        prefix[n_prefix] = '\0';
        for (;;) {
                char *dash = strrchr(prefix, '-');
                size_t n;

                if (!dash)
                        return 0;
                n = (size_t) (dash - prefix);
                if (n == 0)
                        return 0;
                if (prefix[n + 1] != '\0' || chopped) {
                        prefix[n + 1] = '\0';
                        n_prefix = n + 1;
                        break;
                }
                prefix[n] = '\0';       /* a trailing dash is chopped once */
                chopped = true;
        }
        type_name = unit_type_to_string(type);   /* the suffix's, dot + 1 */
        if (!type_name)
                return 0;
        /* prefix[@instance].type: each part is shorter than the name. */
        memcpy(built, prefix, n_prefix);
        k = n_prefix;
        if (kind == UNIT_NAME_INSTANCE) {
                built[k++] = '@';
                memcpy(built + k, at + 1, n_instance);
                k += n_instance;
        }
        built[k++] = '.';
        strcpy(built + k, type_name);
        kind = unit_name_classify_type(built, &type);
        if (kind < 0)
                return 0;
        return expand_name(b, l, built, kind, type, NULL, depth + 1);
}

typedef struct Found {
        const char *name;
        const LookupFile *file;        /* NULL: the directory `bad` cannot be read */
        const DropinDir *bad;
        size_t order;                  /* position in the search: lower wins */
} Found;

/* By file name, then by search order: the first of each name wins. */
static int found_compare(const void *a, const void *b) {
        const Found *x = a, *y = b;
        int c = strcmp(x->name, y->name);

        if (c != 0)
                return c;
        return x->order < y->order ? -1 : x->order > y->order;
}

static int dropin_file(Builder *b, const DropinDir *d, const DirEntry *de, LookupFile *f) {
        _cleanup_free_ char *source = NULL;
        char target[PATH_MAX];
        struct stat st;
        ssize_t k;
        int r;

        f->path = lookup_set_join(b->set, d->path, de->name);
        if (!f->path)
                return -ENOMEM;
        /* The listing's file type spares a stat where it is known. */
        if (de->type == DT_REG)
                st.st_mode = S_IFREG;
        else if (de->type == DT_LNK)
                st.st_mode = S_IFLNK;
        else if (fstatat(b->root->fd, f->path + 1, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                f->error = -errno;
                return 0;
        }
        /* The directory is resolved: a regular file is read where it is. */
        if (S_ISREG(st.st_mode)) {
                f->regular = true;
                f->source = f->path;
                return builder_source_id(b, f->source, &f->source_id);
        }
        if (S_ISLNK(st.st_mode)) {
                k = readlinkat(b->root->fd, f->path + 1, target, sizeof(target) - 1);
                if (k >= 0) {
                        target[k] = '\0';
                        if (streq(target, "/dev/null"))
                                return 0;       /* masked: no source */
                }
        }
        r = root_chase(b->root, f->path, 0, &source);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                f->error = r;
        else if (!streq(source, "/dev/null")) {
                f->source = lookup_set_strdup(b->set, source);
                if (!f->source)
                        return -ENOMEM;
                return builder_source_id(b, f->source, &f->source_id);
        }
        return 0;
}

static int list_dropin_dir(Builder *b, DropinDir *d) {
        _cleanup_(dir_list_done) DirList l = DIR_LIST_INIT;
        size_t k = 0;
        int r;

        if (d->listed)
                return 0;
        d->listed = true;
        r = root_list_dir(b->root, d->path, &l);
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                d->error = r;
                return 0;
        }
        for (size_t i = 0; i < l.n; i++)
                if (l.entries[i].name[0] != '.' && endswith(l.entries[i].name, ".conf"))
                        l.entries[k++] = l.entries[i];
        /* Each file is resolved once, however many units it applies to. */
        d->files = new0(char *, k);
        d->resolved = new0(LookupFile, k);
        if (!d->files || !d->resolved)
                return -ENOMEM;
        /* The names stay where the listing put them. */
        d->names = dir_list_steal_names(&l);
        d->n_files = k;
        for (size_t i = 0; i < k; i++)
                d->files[i] = l.entries[i].name;
        r = 0;
        for (size_t i = 0; r >= 0 && i < k; i++)
                r = dropin_file(b, d, &l.entries[i], &d->resolved[i]);
        return r < 0 ? r : 0;
}

static int collect_dropins(Builder *b, LookupUnit *u) {
        _cleanup_free_ Found *found = NULL;
        DropinDirList l = {};
        size_t n_found = 0, allocated = 0, kept = 0;
        UnitType type = u->id_type;
        int r = 0;

        /* Every name of the unit, in every directory; the type-wide
         * directories last, as the most generic. */
        for (size_t k = 0; r >= 0 && k <= u->n_aliases; k++) {
                _cleanup_free_ DropinDir **cursors = NULL;
                NameList names = {};

                r = k == 0 ? expand_name(b, &names, u->id, u->id_kind, u->id_type, &u->id_hash, 0)
                           : expand_name(b, &names, u->aliases[k - 1], NAME_KIND_UNKNOWN, _UNIT_TYPE_INVALID,
                                         NULL, 0);
                if (r >= 0 && names.n > 0) {
                        cursors = malloc_multiply(names.n, sizeof(DropinDir *));
                        if (!cursors)
                                r = -ENOMEM;
                }
                for (size_t j = 0; r >= 0 && j < names.n; j++)
                        cursors[j] = strmap_get(&b->dropin_index, names.items[j]);
                for (size_t i = 0; r >= 0 && names.n > 0 && i < b->set->paths.n_dirs; i++)
                        for (size_t j = 0; r >= 0 && j < names.n; j++)
                                r = dirlist_add(&l, &cursors[j], i);
                name_list_done(&names);
        }
        if (r >= 0 && type >= 0 && sd_behaves(SD_DROPINS_TYPE_WIDE, b->version)) {
                DropinDir *cursor;

                /* The type-wide directories looked up once for all units
                 * (the index is complete once the scan is done). */
                if (!b->type_dirs_known) {
                        for (UnitType t = 0; t < _UNIT_TYPE_MAX; t++)
                                b->type_dirs[t] = strmap_get(&b->dropin_index, unit_type_to_string(t));
                        b->type_dirs_known = true;
                }
                cursor = b->type_dirs[type];

                for (size_t i = 0; r >= 0 && i < b->set->paths.n_dirs; i++)
                        r = dirlist_add(&l, &cursor, i);
        }

        /* One file per name: the first directory wins; then by name. */
        for (size_t i = 0; r >= 0 && i < l.n; i++) {
                DropinDir *d = l.items[i];

                r = list_dropin_dir(b, d);
                if (r >= 0 && d->error && !d->n_files) {
                        /* An unreadable drop-in directory: the unit cannot be
                         * read whole, which the filter reports (listed
                         * first, under the empty name). */
                        if (GREEDY_REALLOC(found, allocated, n_found + 1) < 0)
                                r = -ENOMEM;
                        else
                                found[n_found++] = (Found) { "", NULL, d, i };
                }
                for (size_t j = 0; r >= 0 && j < d->n_files; j++) {
                        if (GREEDY_REALLOC(found, allocated, n_found + 1) < 0)
                                r = -ENOMEM;
                        else
                                found[n_found++] = (Found) { d->files[j], &d->resolved[j], NULL, i };
                }
        }
        free(l.items);
        if (r < 0)
                return r;
        /* Sorted by name and search order, the first of each name stays. */
        if (n_found > 1)
                qsort(found, n_found, sizeof(Found), found_compare);
        for (size_t i = 0; i < n_found; i++) {
                if (found[i].file && kept > 0 && found[kept - 1].file &&
                    streq(found[i].name, found[kept - 1].name))
                        continue;
                found[kept++] = found[i];
        }
        n_found = kept;
        if (n_found > 0) {
                u->dropins = new0(LookupFile, n_found);
                if (!u->dropins)
                        return -ENOMEM;
        }
        for (size_t i = 0; i < n_found; i++) {
                const LookupFile *src = found[i].file;
                LookupFile *dst = &u->dropins[u->n_dropins++];

                if (!src) {
                        dst->error = found[i].bad->error;
                        dst->path = lookup_set_strdup(b->set, found[i].bad->path);
                        if (!dst->path)
                                return -ENOMEM;
                        continue;
                }
                dst->error = src->error;
                dst->regular = src->regular;
                dst->source_id = src->source_id;
                /* The directory's strings are the set's already. */
                dst->path = src->path;
                dst->source = src->source;
        }
        return 0;
}

static int str_compare_ptr(const void *a, const void *b) {
        return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Sorts the units by id. They come in runs already sorted (each search
 * directory's names in its listing's order, then the names found
 * elsewhere): the runs are merged, a pass per halving of their number,
 * with strcmp() called directly (qsort()'s merge sort compared every
 * level of a sorted list through its comparator). Stable. */
static int sort_units(LookupUnit **u, size_t n) {
        _cleanup_free_ LookupUnit **tmp = NULL;
        _cleanup_free_ size_t *runs = NULL;
        LookupUnit **from = u, **to;
        size_t n_runs = 0;

        if (n < 2)
                return 0;
        /* Where each run starts; runs[n_runs] = n. */
        runs = malloc_multiply(n + 1, sizeof(size_t));
        tmp = malloc_multiply(n, sizeof(LookupUnit *));
        if (!runs || !tmp)
                return -ENOMEM;
        runs[n_runs++] = 0;
        for (size_t i = 1; i < n; i++)
                if (strcmp(u[i - 1]->id, u[i]->id) > 0)
                        runs[n_runs++] = i;
        runs[n_runs] = n;
        to = tmp;
        while (n_runs > 1) {
                size_t k = 0;

                for (size_t r = 0; r < n_runs; r += 2) {
                        size_t lo = runs[r], mid = runs[MIN(r + 1, n_runs)], hi = runs[MIN(r + 2, n_runs)];
                        size_t i = lo, j = mid, o = lo;

                        while (i < mid && j < hi)
                                to[o++] = strcmp(from[j]->id, from[i]->id) < 0 ? from[j++] : from[i++];
                        while (i < mid)
                                to[o++] = from[i++];
                        while (j < hi)
                                to[o++] = from[j++];
                        runs[k++] = lo;
                }
                runs[k] = n;
                n_runs = k;
                LookupUnit **swap = from;
                from = to;
                to = swap;
        }
        if (from != u)
                memcpy(u, from, n * sizeof(LookupUnit *));
        return 0;
}

int build_units(Builder *b) {
        _cleanup_free_ TemplateName *templates = NULL;
        size_t n_templates = 0;
        size_t n_own = 0;
        int r;

        /* Each name that is not an alias makes a unit of its own, most
         * units are such: the map is sized for them at once rather than
         * grown (rehashed) on the way, and no larger (its slots are
         * zeroed), a further unit growing it as usual. */
        for (size_t i = 0; i < b->n_entries; i++)
                n_own += b->entries[i]->kind != ENTRY_ALIAS;
        r = strmap_reserve(&b->units, n_own);
        for (size_t i = 0; r >= 0 && i < b->n_entries; i++)
                r = add_name(b, b->entries[i]->name, b->entries[i]->name_kind, b->entries[i]->name_type,
                             &b->entries[i]->name_hash, false);
        for (size_t i = 0; r >= 0 && i < b->n_extra; i++)
                r = add_name(b, b->extra_names[i], NAME_KIND_UNKNOWN, _UNIT_TYPE_INVALID, NULL, true);
        /* Instances that only have a drop-in directory of their own. */
        for (size_t i = 0; r >= 0 && i < b->n_dropin_dirs; i++) {
                const char *key = b->dropin_dirs[i]->key;

                if (b->dropin_dirs[i]->key_kind == UNIT_NAME_INSTANCE && !strmap_get(&b->units, key))
                        r = add_name(b, key, NAME_KIND_UNKNOWN, _UNIT_TYPE_INVALID, NULL, true);
        }

        if (r >= 0)
                r = list_template_names(b, &templates, &n_templates);
        for (size_t i = 0; r >= 0 && i < b->n_units; i++) {
                LookupUnit *u = b->unit_list[i];

                r = add_template_aliases(b, u, templates, n_templates);
                if (r >= 0 && u->n_aliases > 1)
                        qsort(u->aliases, u->n_aliases, sizeof(char *), str_compare_ptr);
                /* A masked unit's drop-ins are listed (and not read), so
                 * that they do not count as belonging to no unit. */
                if (r >= 0 && (u->state == LOOKUP_UNIT_LOADED || u->state == LOOKUP_UNIT_MASKED))
                        r = collect_dropins(b, u);
        }

        /* Drop-in directories no unit used: the unit is not in this root
         * (a package that ships overrides for another one's unit). They
         * are still judged, as a unit with drop-ins only. */
        for (size_t i = 0; r >= 0 && i < b->n_dropin_dirs; i++) {
                DropinDir *d = b->dropin_dirs[i];
                const char *key = d->key;
                LookupUnit *u;

                if (d->used)
                        continue;
                r = get_unit(b, key, false, d->key_kind, d->key_type, &u);
                if (r <= 0)
                        continue;
                u->state = LOOKUP_UNIT_DROPINS_ONLY;
                r = collect_dropins(b, u);
        }

        if (r >= 0)
                r = sort_units(b->unit_list, b->n_units);
        return r;
}
