/* SPDX-License-Identifier: LGPL-2.1-or-later */
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
#include "basic/macro.h"
#include "basic/strbuf.h"
#include "lookup-internal.h"
#include "validate/unit-name.h"

const char *lookup_unit_state_to_string(LookupUnitState s) {
        switch (s) {
        case LOOKUP_UNIT_LOADED:
                return "loaded";
        case LOOKUP_UNIT_MASKED:
                return "masked";
        case LOOKUP_UNIT_DROPINS_ONLY:
                return "dropins-only";
        case LOOKUP_UNIT_BAD:
                return "bad";
        }
        return "unknown";
}

typedef struct LookupChunk {
        struct LookupChunk *next;
        size_t used, size;
        char data[];
} LookupChunk;

/* Strings are copied into blocks of this size (a longer one gets a block
 * of its own). */
#define LOOKUP_CHUNK_SIZE 16384

/* n bytes aligned to align (a power of two) at the end of block c, or
 * NULL when they do not fit. */
static inline void *chunk_take(LookupChunk *c, size_t n, size_t align) {
        size_t pad = (size_t) -(uintptr_t) (c->data + c->used) & (align - 1);
        char *p;

        if (c->size - c->used < n || c->size - c->used - n < pad)
                return NULL;
        p = c->data + c->used + pad;
        c->used += pad + n;
        return p;
}

/* A new block for chunk_alloc(), then the room from it. */
static void * __attribute__((noinline)) chunk_alloc_new(LookupChunk **head, size_t n, size_t align) {
        size_t size = MAX(n + align, (size_t) LOOKUP_CHUNK_SIZE);
        LookupChunk *c;

        if (n > SIZE_MAX - sizeof(LookupChunk) - align - LOOKUP_CHUNK_SIZE)
                return NULL;
        c = malloc(sizeof(LookupChunk) + size);
        if (!c)
                return NULL;
        *c = (LookupChunk) { .next = *head, .size = size };
        *head = c;
        return chunk_take(c, n, align);
}

/* Room for n bytes aligned to align (a power of two) in the blocks of
 * the list at *head, or NULL. Inline: strings are copied by the
 * thousand, most of them into the block at hand. */
static inline void *chunk_alloc(LookupChunk **head, size_t n, size_t align) {
        void *p = *head ? chunk_take(*head, n, align) : NULL;

        return p ? p : chunk_alloc_new(head, n, align);
}

static void chunks_free(LookupChunk **head) {
        while (*head) {
                LookupChunk *next = (*head)->next;

                free(*head);
                *head = next;
        }
}

/* Room for n bytes in the set's blocks, or NULL. */
static char *lookup_set_alloc(LookupSet *s, size_t n) {
        return chunk_alloc(&s->strings, n, 1);
}

void *lookup_set_new0(LookupSet *s, size_t size, size_t align) {
        void *p = chunk_alloc(&s->strings, size, align);

        return p ? memset(p, 0, size) : NULL;
}

char *lookup_set_strndup(LookupSet *s, const char *str, size_t n) {
        char *p = n < SIZE_MAX ? lookup_set_alloc(s, n + 1) : NULL;

        if (!p)
                return NULL;
        memcpy(p, str, n);
        p[n] = '\0';
        return p;
}

char *lookup_set_strdup(LookupSet *s, const char *str) {
        return lookup_set_strndup(s, str, strlen(str));
}

char *lookup_set_join(LookupSet *s, const char *dir, const char *name) {
        size_t n = root_path_join_size(dir, name);
        char *p = n > 0 ? lookup_set_alloc(s, n) : NULL;

        return p ? root_path_join_to(p, dir, name) : NULL;
}

/* The unit itself and its strings are the set's (lookup_set_new0(),
 * lookup_set_strdup()). */
static LookupUnit *lookup_unit_free(LookupUnit *u) {
        if (!u)
                return NULL;
        free(u->aliases);
        free(u->dropins);
        return NULL;
}

void lookup_set_done(LookupSet *s) {
        for (size_t i = 0; i < s->n_units; i++)
                lookup_unit_free(s->units[i]);
        free(s->units);
        chunks_free(&s->strings);
        diag_list_done(&s->diags);
        lookup_paths_done(&s->paths);
        *s = (LookupSet) {};
}

const LookupUnit *lookup_set_find(const LookupSet *s, const char *id) {
        size_t lo = 0, hi = s->n_units;

        while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                int c = strcmp(s->units[mid]->id, id);

                if (c == 0)
                        return s->units[mid];
                if (c < 0)
                        lo = mid + 1;
                else
                        hi = mid;
        }
        return NULL;
}

/* ---- builder state ---------------------------------------------------- */

/* The scan's entries live in the builder's blocks (a root names hundreds
 * of units: a malloc() and a free() each cost more than the rest of the
 * entry), freed with the builder; their strings are the set's. */
static Entry *entry_new(Builder *b) {
        Entry *e = chunk_alloc(&b->entry_blocks, sizeof(Entry), _Alignof(Entry));

        return e ? memset(e, 0, sizeof(Entry)) : NULL;
}

static void entry_free(Entry *e) {
        (void) e;       /* its block goes with the builder */
}

static void dropin_dir_free(DropinDir *d) {
        if (!d)
                return;
        free(d->key);
        free(d->path);
        free(d->files);
        free(d->names);
        free(d->resolved);
        free(d);
}

static void builder_done(Builder *b) {
        free(b->entries);
        chunks_free(&b->entry_blocks);
        strmap_done(&b->names);
        for (size_t i = 0; i < b->n_dropin_dirs; i++)
                dropin_dir_free(b->dropin_dirs[i]);
        free(b->dropin_dirs);
        strmap_done(&b->dropin_index);
        for (size_t i = 0; i < b->n_dash_stems; i++)
                free(b->dash_stems[i]);
        free(b->dash_stems);
        for (size_t i = 0; i < b->n_extra; i++)
                free(b->extra_names[i]);
        free(b->extra_names);
        strmap_done(&b->source_ids);
        free(b->devnull);
        strmap_done(&b->units);
        for (size_t i = 0; i < b->n_units; i++)
                lookup_unit_free(b->unit_list[i]);
        free(b->unit_list);
}

int builder_diag(Builder *b, DiagSeverity sev, const char *rule, const char *path, const char *fmt, ...) {
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = diag_addv(&b->set->diags, sev, EFFECT_NONE, rule, path, 0, NULL, NULL, fmt, ap);
        va_end(ap);
        return r;
}

int builder_source_id(Builder *b, const char *source, size_t *ret) {
        const char *slash = strrchr(source, '/');
        const Entry *e = slash ? strmap_get(&b->names, slash + 1) : NULL;
        void *v;
        int r;

        /* A FILE entry's source is its directory's and its name: only the
         * entry of that name can have it. */
        if (e && e->kind == ENTRY_FILE && streq(e->source, source)) {
                *ret = e->source_id;
                return 0;
        }
        v = strmap_get(&b->source_ids, source);
        if (v) {
                *ret = (size_t) (uintptr_t) v - 1;
                return 0;
        }
        r = strmap_put(&b->source_ids, source, (void *) (uintptr_t) (b->n_sources + 1));
        if (r < 0)
                return r;
        *ret = b->n_sources++;
        return 0;
}

/* ---- the name map (unit_file_build_name_map) --------------------------- */

static int add_entry(Builder *b, Entry *e) {
        int r;

        if (GREEDY_REALLOC(b->entries, b->allocated_entries, b->n_entries + 1) < 0) {
                entry_free(e);
                return -ENOMEM;
        }
        b->entries[b->n_entries++] = e;
        r = strmap_put_hashed(&b->names, e->name, e, e->name_hash);
        return r < 0 ? r : 0;
}

static bool unit_type_may_alias(UnitType t) {
        return t == UNIT_SERVICE || t == UNIT_SOCKET || t == UNIT_TARGET || t == UNIT_DEVICE ||
               t == UNIT_TIMER || t == UNIT_PATH;
}

static bool unit_type_may_template(UnitType t) {
        return t == UNIT_SERVICE || t == UNIT_SOCKET || t == UNIT_TARGET || t == UNIT_TIMER ||
               t == UNIT_PATH;
}

/* Whether "src -> dst" is an alias systemd accepts; the reason if not. */
static const char *alias_problem(const char *src, const char *dst) {
        _cleanup_free_ char *si = NULL, *di = NULL;
        int st = unit_name_to_instance(src, &si), dt;
        UnitType type = unit_name_to_type(src);

        if (st < 0)
                return "the link's name is not a valid unit name";
        if (!unit_type_may_alias(type))
                return "units of this type cannot have aliases";
        if (st != UNIT_NAME_PLAIN && !unit_type_may_template(type))
                return "units of this type cannot be templates";
        dt = unit_name_to_instance(dst, &di);
        if (dt < 0)
                return "the target is not a valid unit name";
        if (!(dt == st || (st == UNIT_NAME_INSTANCE && dt == UNIT_NAME_TEMPLATE)))
                return "the target's name type (plain, template, instance) does not match the link's";
        if (dt == UNIT_NAME_INSTANCE && !streq(si, di))
                return "the target's instance differs";
        if (unit_name_to_type(dst) != type)
                return "the target has another unit type";
        return NULL;
}

/* A link's target (absolute, inside the root) simplified as systemd does
 * (the last component not followed, missing ones kept as written), and
 * the lstat() of the result where it was looked at. */
static int simplify_target(Builder *b, const char *abs, char **ret, struct stat *ret_st) {
        bool devnull = streq(abs, "/dev/null");
        int r;

        /* Masks link to /dev/null by the dozen: the same path in the same
         * root simplifies the same way each time. */
        if (devnull && b->devnull_known) {
                *ret_st = b->devnull_st;
                if (b->devnull_r < 0)
                        return b->devnull_r;
                *ret = strdup(b->devnull);
                return *ret ? 0 : -ENOMEM;
        }
        r = root_chase_stat(b->root, abs, CHASE_NOFOLLOW_LAST | CHASE_NONEXISTENT, ret, ret_st);
        if (!devnull || r == -ENOMEM)
                return r;
        if (r >= 0 && !(b->devnull = strdup(*ret)))
                return -ENOMEM;
        b->devnull_known = true;
        b->devnull_r = r;
        b->devnull_st = *ret_st;
        return r;
}

static int scan_symlink(Builder *b, size_t dir, int dfd, const char *name, int name_kind, UnitType name_type,
                        uint32_t name_hash, const char *path) {
        const SearchDir *sd = &b->set->paths.dirs[dir];
        _cleanup_free_ char *abs = NULL, *simplified = NULL;
        char target[PATH_MAX];
        const char *dst, *problem;
        struct stat tst = {};
        Entry *e;
        ssize_t k;
        int r;

        k = readlinkat(dfd, name, target, sizeof(target) - 1);
        if (k < 0)
                return builder_diag(b, DIAG_ERROR, "lookup.unreadable", path, "Cannot read symlink: %s",
                                    strerror(errno));
        target[k] = '\0';
        if (!strchr(target, '/') && !streq(target, ".") && !streq(target, "..")) {
                /* A name in the same directory (the usual alias): the
                 * directory is resolved already, the name is not followed. */
                simplified = root_path_join(sd->resolved, target);
                if (!simplified)
                        return -ENOMEM;
                r = 0;
        } else {
                abs = target[0] == '/' ? strdup(target) : root_path_join(sd->path, target);
                if (!abs)
                        return -ENOMEM;
                r = simplify_target(b, abs, &simplified, &tst);
        }
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return builder_diag(b, DIAG_ERROR, "lookup.bad-symlink", path,
                                    "Symlink to '%s' cannot be resolved inside the root: %s; systemd ignores it",
                                    target, strerror(-r));

        e = entry_new(b);
        if (!e)
                return -ENOMEM;
        e->dir = dir;
        e->name_kind = name_kind;
        e->name_type = name_type;
        e->name_hash = name_hash;
        e->name = lookup_set_strdup(b->set, name);
        e->path = lookup_set_strdup(b->set, path);
        if (!e->name || !e->path) {
                entry_free(e);
                return -ENOMEM;
        }

        if (lookup_paths_contains(&b->set->paths, simplified)) {
                dst = strrchr(simplified, '/') + 1;
                if (streq(dst, name)) {
                        /* The same name elsewhere in the search path: systemd
                         * ignores the link, so a later directory provides
                         * the name (or none does). */
                        entry_free(e);
                        return builder_diag(b, DIAG_NOTE, "lookup.self-alias", path,
                                            "Symlink to '%s', the same name in the search path; systemd ignores the link",
                                            target);
                }
                problem = alias_problem(name, dst);
                if (problem) {
                        r = builder_diag(b, DIAG_WARNING, "lookup.alias-invalid", path,
                                         "Symlink to '%s' is not a valid alias: %s; systemd ignores it", target,
                                         problem);
                        entry_free(e);
                        return r;
                }
                e->kind = ENTRY_ALIAS;
                e->target = lookup_set_strdup(b->set, dst);
                if (!e->target) {
                        entry_free(e);
                        return -ENOMEM;
                }
                return add_entry(b, e);
        }

        if (streq(simplified, "/dev/null")) {
                e->kind = ENTRY_MASK;
        } else {
                /* A linked unit file: loaded under the link's own path. */
                e->kind = ENTRY_LINKED;
                e->target = lookup_set_strdup(b->set, simplified);
                if (!e->target) {
                        entry_free(e);
                        return -ENOMEM;
                }
                e->target_mode = tst.st_mode;
                e->target_size = tst.st_size;
        }
        return add_entry(b, e);
}

/* A dash prefix's name ends its prefix in '-' with something before it:
 * "user-.slice", "foo-@.service", "foo-@bar.service". */
static int note_dash_stem(Builder *b, const char *key) {
        const char *end = strchr(key, '@') ? strchr(key, '@') : strrchr(key, '.'); /* a prefix may hold dots */
        char *stem;

        if (!end || end - key < 2 || end[-1] != '-')
                return 0;
        for (size_t i = 0; i < b->n_dash_stems; i++)
                if (strlen(b->dash_stems[i]) == (size_t) (end - key) && strncmp(b->dash_stems[i], key, end - key) == 0)
                        return 0;
        stem = strndup(key, end - key);
        if (!stem || GREEDY_REALLOC(b->dash_stems, b->allocated_dash_stems, b->n_dash_stems + 1) < 0) {
                free(stem);
                return -ENOMEM;
        }
        b->dash_stems[b->n_dash_stems++] = stem;
        return 0;
}

static int note_dropin_dir(Builder *b, size_t dir, const char *name, const char *path, bool is_real_dir) {
        _cleanup_free_ char *key = strndup(name, strlen(name) - 2);
        DropinDir *d, *first;
        UnitType key_type = _UNIT_TYPE_INVALID;
        int r, key_kind;

        if (!key)
                return -ENOMEM;
        key_kind = unit_name_classify_type(key, &key_type);
        if (key_kind < 0 && unit_type_from_string(key) < 0)
                return builder_diag(b, DIAG_WARNING, "lookup.not-a-unit", path,
                                    "Directory name is not NAME.d for a unit name or a unit type; systemd never reads it");
        d = new0(DropinDir, 1);
        if (!d)
                return -ENOMEM;
        d->dir = dir;
        d->key_kind = key_kind;
        d->key_type = key_type;
        d->key = TAKE_PTR(key);
        /* A real directory in a resolved search directory needs no
         * resolution; a symlinked one is resolved inside the root. */
        if (is_real_dir) {
                d->path = root_path_join(b->set->paths.dirs[dir].resolved, name);
                r = d->path ? 0 : -ENOMEM;
        } else
                r = root_chase(b->root, path, 0, &d->path);
        if (r == -ENOMEM) {
                dropin_dir_free(d);
                return r;
        }
        if (r < 0)
                d->error = r;
        if (GREEDY_REALLOC(b->dropin_dirs, b->allocated_dropin_dirs, b->n_dropin_dirs + 1) < 0) {
                dropin_dir_free(d);
                return -ENOMEM;
        }
        b->dropin_dirs[b->n_dropin_dirs++] = d;
        /* Directories are scanned in search-path order: append. */
        first = strmap_get(&b->dropin_index, d->key);
        if (first) {
                while (first->next)
                        first = first->next;
                first->next = d;
                return 0;
        }
        r = strmap_put(&b->dropin_index, d->key, d);
        if (r < 0)
                return r;
        return note_dash_stem(b, d->key);
}

static int add_extra_name(Builder *b, const char *name) {
        char *s = strdup(name);

        if (!s || GREEDY_REALLOC(b->extra_names, b->allocated_extra, b->n_extra + 1) < 0) {
                free(s);
                return -ENOMEM;
        }
        b->extra_names[b->n_extra++] = s;
        return 0;
}

/* NAME.wants/, .requires/, .upholds/: dependencies, not units. Instances
 * named there are units of their own (getty@tty1.service). in_dir: the
 * resolved search directory that lists NAME as a real directory (no
 * resolution needed), or NULL for a symlink. */
static int scan_dependency_dir(Builder *b, const char *path, const char *in_dir, const char *name) {
        _cleanup_free_ char *resolved = NULL;
        _cleanup_(dir_list_done) DirList l = DIR_LIST_INIT;
        int r = 0;

        if (in_dir)
                resolved = root_path_join(in_dir, name);
        else
                r = root_chase(b->root, path, 0, &resolved);
        if (r >= 0 && !resolved)
                r = -ENOMEM;
        if (r >= 0)
                r = root_list_dir(b->root, resolved, &l);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return builder_diag(b, DIAG_ERROR, "lookup.unreadable", path, "Cannot read directory: %s",
                                    strerror(-r));
        for (size_t i = 0; r >= 0 && i < l.n; i++)
                if (l.entries[i].name[0] != '.' &&
                    unit_name_classify_type_n(l.entries[i].name, l.entries[i].len, NULL) == UNIT_NAME_INSTANCE)
                        r = add_extra_name(b, l.entries[i].name);
        return r;
}

static int scan_search_dir(Builder *b, size_t dir) {
        const SearchDir *sd = &b->set->paths.dirs[dir];
        _cleanup_(dir_list_done) DirList l = DIR_LIST_INIT;
        _cleanup_(strbuf_done) StrBuf pathbuf = {};
        size_t prefix_len;
        bool same_dir;
        int dfd, r;

        r = root_list_dir(b->root, sd->resolved, &l);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return builder_diag(b, DIAG_ERROR, "lookup.unreadable", sd->path, "Cannot read directory: %s",
                                    strerror(-r));
        /* The listing's own descriptor: the entries are looked at below it. */
        dfd = dir_list_fd(&l);

        /* "DIR/", to which each entry's name is put (root_path_join()). */
        prefix_len = strlen(sd->path);
        while (prefix_len > 0 && sd->path[prefix_len - 1] == '/')
                prefix_len--;
        if (strbuf_append(&pathbuf, sd->path, prefix_len) < 0 || strbuf_append_char(&pathbuf, '/') < 0)
                return -ENOMEM;
        prefix_len++;
        /* The resolved directory is most often the directory itself. */
        same_dir = streq(sd->path, sd->resolved);
        /* Most entries of a search directory are units: the name map is
         * sized for them at once rather than grown (rehashed) on the way. */
        if (strmap_reserve(&b->names, b->names.n_items + l.n) < 0)
                return -ENOMEM;

        for (size_t i = 0; i < l.n; i++) {
                const DirEntry *de = &l.entries[i];
                const char *name = de->name, *path;
                UnitType type = _UNIT_TYPE_INVALID;
                int kind;
                bool is_unit;
                struct stat st;

                if (r < 0 || name[0] == '.')
                        continue;
                pathbuf.len = prefix_len;
                if (strbuf_append(&pathbuf, name, de->len) < 0) {
                        r = -ENOMEM;
                        continue;
                }
                path = pathbuf.data;
                kind = unit_name_classify_type_n(name, de->len, &type);
                is_unit = kind >= 0;
                /* The directory's own record of the type saves a stat per
                 * entry; a unit file is stat'ed anyway (an empty one is a
                 * mask). */
                st.st_size = -1;
                if (de->type == DT_DIR)
                        st.st_mode = S_IFDIR;
                else if (de->type == DT_LNK)
                        st.st_mode = S_IFLNK;
                else if (de->type == DT_REG && is_unit && (b->flags & LOOKUP_LAZY_EMPTY))
                        st.st_mode = S_IFREG;   /* its size is the reader's to see */
                else if (fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                        r = builder_diag(b, DIAG_ERROR, "lookup.unreadable", path, "Cannot stat: %s",
                                         strerror(errno));
                        continue;
                }
                if (is_unit) {
                        uint32_t hash = strmap_hash(name);
                        Entry *e;

                        if ((e = strmap_get_hashed(&b->names, name, hash))) {
                                /* On a merged-/usr root /lib and /usr/lib are one directory. */
                                if (streq(b->set->paths.dirs[e->dir].resolved, sd->resolved))
                                        continue;
                                r = builder_diag(b, DIAG_NOTE, "lookup.overridden", path,
                                                 "Overridden by %s, which comes first in the search path", e->path);
                                continue;
                        }
                        if (S_ISLNK(st.st_mode)) {
                                r = scan_symlink(b, dir, dfd, name, kind, type, hash, path);
                                continue;
                        }
                        if (!S_ISREG(st.st_mode)) {
                                r = builder_diag(b, DIAG_WARNING, "lookup.not-a-file", path,
                                                 "Has a unit name but is not a file or symlink; systemd ignores it");
                                continue;
                        }
                        e = entry_new(b);
                        /* Both lengths are known: the listing's, the buffer's. */
                        if (!e || !(e->name = lookup_set_strndup(b->set, name, de->len)) ||
                            !(e->path = lookup_set_strndup(b->set, path, pathbuf.len))) {
                                entry_free(e);
                                r = -ENOMEM;
                                continue;
                        }
                        e->kind = ENTRY_FILE;
                        e->source_id = b->n_sources++;
                        e->name_kind = kind;
                        e->name_type = type;
                        e->name_hash = hash;
                        e->dir = dir;
                        e->empty = st.st_size == 0;
                        e->size_unknown = st.st_size < 0;
                        /* The directory is resolved and the entry is a file:
                         * no need to resolve the path again. */
                        e->source = same_dir ? e->path : lookup_set_join(b->set, sd->resolved, name);
                        if (!e->source) {
                                entry_free(e);
                                r = -ENOMEM;
                                continue;
                        }
                        r = add_entry(b, e);
                        continue;
                }

                if (S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode)) {
                        bool is_dir = S_ISDIR(st.st_mode);

                        /* A symlinked directory is followed inside the root only. */
                        if (!is_dir) {
                                r = root_is_dir(b->root, path);
                                if (r < 0)
                                        continue;
                                is_dir = r > 0;
                        }

                        if (is_dir && endswith(name, ".d")) {
                                r = note_dropin_dir(b, dir, name, path, S_ISDIR(st.st_mode));
                                continue;
                        }
                        if (is_dir && (endswith(name, ".wants") || endswith(name, ".requires") ||
                                       endswith(name, ".upholds"))) {
                                r = scan_dependency_dir(b, path, S_ISDIR(st.st_mode) ? sd->resolved : NULL, name);
                                continue;
                        }
                }
                r = builder_diag(b, DIAG_NOTE, "lookup.not-a-unit", path,
                                 "Not a unit file, drop-in or dependency directory; systemd never reads it");
        }
        return r;
}

static void drop_generated_dirs(LookupPaths *lp) {
        size_t k = 0;

        for (size_t i = 0; i < lp->n_dirs; i++) {
                const char *rest = startswith(lp->dirs[i].path, "/run/systemd/generator");

                if (rest && (!*rest || *rest == '.')) {
                        free(lp->dirs[i].path);
                        free(lp->dirs[i].resolved);
                        continue;
                }
                lp->dirs[k++] = lp->dirs[i];
        }
        lp->n_dirs = k;
}

int lookup_set_build(const Root *root, LookupScope scope, unsigned version, LookupSet *ret) {
        return lookup_set_build_full(root, scope, version, 0, ret);
}

int lookup_set_build_full(const Root *root, LookupScope scope, unsigned version, LookupFlags flags,
                          LookupSet *ret) {
        LookupSet set = {};
        Builder b = { .root = root, .version = version, .flags = flags, .set = &set };
        int r;

        r = lookup_paths_init(root, scope, &set.paths);
        if (r < 0)
                return r;
        if (flags & LOOKUP_SKIP_GENERATED)
                drop_generated_dirs(&set.paths);
        for (size_t i = 0; r >= 0 && i < set.paths.n_dirs; i++)
                r = scan_search_dir(&b, i);
        if (r >= 0)
                r = build_units(&b);
        if (r >= 0) {
                set.units = TAKE_PTR(b.unit_list);
                set.n_units = b.n_units;
                set.n_sources = b.n_sources;
                b.n_units = 0;
        }
        builder_done(&b);
        if (r < 0) {
                lookup_set_done(&set);
                return r;
        }
        *ret = set;
        return 0;
}
