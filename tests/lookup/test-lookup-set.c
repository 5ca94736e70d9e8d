/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A root's unit set: what the set works out once for its readers (the
 * form and type of each unit's name, the numbering of the files read)
 * agrees with working it out again from the strings, on a root with
 * aliases, masks, templates, linked unit files (some through further
 * links), symlinked drop-ins and drop-in and dependency directories. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lookup/lookup.h"
#include "test-tree.h"
#include "tests.h"
#include "validate/unit-name.h"

static char tmpl[] = "/tmp/ug-test-lookup-set-XXXXXX";
static const char *dir;

#define U "usr/lib/systemd/system/"
#define E "etc/systemd/system/"

static void setup(void) {
        dir = mkdtemp(tmpl);
        CHECK(dir != NULL);
        tree_dir(dir, "usr"), tree_dir(dir, "usr/lib"), tree_dir(dir, "usr/lib/systemd"), tree_dir(dir, U);
        tree_dir(dir, "etc"), tree_dir(dir, "etc/systemd"), tree_dir(dir, E);
        tree_dir(dir, "opt"), tree_dir(dir, "opt/wants");
        tree_file(dir, U "a.service", "[Service]\nExecStart=/bin/a\n");
        tree_file(dir, U "b@.service", "[Service]\nExecStart=/bin/b %i\n");
        tree_file(dir, U "c.service", "[Service]\nExecStart=/bin/c\n");
        tree_file(dir, U "d.service", "[Service]\nExecStart=/bin/d\n");
        tree_file(dir, U "e.service", "");                      /* empty: masked */
        tree_file(dir, U "multi-user.target", "[Unit]\n");
        tree_file(dir, U "sockets.target", "[Unit]\n");
        tree_file(dir, U "x-y.service", "[Service]\nExecStart=/bin/xy\n");
        tree_dir(dir, U "c.service.d"), tree_dir(dir, U "service.d"), tree_dir(dir, U "x-.service.d"), tree_dir(dir, U "multi-user.target.wants");
        tree_file(dir, U "c.service.d/10-c.conf", "[Service]\nNice=1\n");
        tree_file(dir, U "service.d/50-all.conf", "[Service]\nNice=2\n");
        tree_file(dir, U "x-.service.d/dash.conf", "[Service]\nNice=3\n");
        tree_link(dir, "../b@.service", U "multi-user.target.wants/b@1.service");
        tree_link(dir, "/opt/wants", U "sockets.target.wants");     /* a symlinked dependency directory */
        tree_link(dir, "/usr/lib/systemd/system/b@.service", "opt/wants/b@2.service");
        tree_link(dir, "a.service", U "alias.service");
        tree_link(dir, "/dev/null", U "m.service");
        tree_link(dir, "/dev/null", U "m2.service");
        tree_file(dir, "opt/l.service", "[Service]\nExecStart=/bin/l\n");
        tree_file(dir, "opt/empty.service", "");
        tree_link(dir, "/usr/lib/systemd/system/a.service", "opt/via-link.service");
        tree_link(dir, "/opt/l.service", E "l.service");            /* linked */
        tree_link(dir, "/opt/via-link.service", E "l2.service");    /* linked, through a further link to a.service */
        tree_link(dir, "/opt/empty.service", E "l3.service");       /* linked to an empty file: masked */
        tree_link(dir, "/opt/missing.service", E "l4.service");     /* linked to nothing */
        tree_link(dir, "/usr/lib/systemd/system/c.service.d", E "d.service.d");
        tree_dir(dir, E "a.service.d"), tree_dir(dir, E "b@.service.d");
        tree_link(dir, "/usr/lib/systemd/system/c.service.d/10-c.conf", E "a.service.d/20-link.conf");
        tree_file(dir, E "b@.service.d/t.conf", "[Service]\nNice=4\n");
}

static const LookupUnit *unit(const LookupSet *s, const char *id) {
        const LookupUnit *u = lookup_set_find(s, id);

        CHECK(u != NULL);
        if (!u)
                fprintf(stderr, "no unit %s\n", id);
        return u;
}

/* Every file of the set that has a source, in one list. */
static size_t all_files(const LookupSet *s, const LookupFile **files, size_t max) {
        size_t n = 0;

        for (size_t i = 0; i < s->n_units; i++) {
                const LookupUnit *u = s->units[i];

                if (u->fragment.source && n < max)
                        files[n++] = &u->fragment;
                for (size_t k = 0; k < u->n_dropins; k++)
                        if (u->dropins[k].source && n < max)
                                files[n++] = &u->dropins[k];
        }
        return n;
}

TEST(set) {
        const LookupFile *files[256];
        const LookupUnit *u, *a, *c;
        LookupSet s;
        Root root;
        size_t n;

        CHECK_INT_EQ(root_open(dir, &root), 0);
        CHECK_INT_EQ(lookup_set_build_full(&root, LOOKUP_SYSTEM, 252, LOOKUP_LAZY_EMPTY, &s), 0);

        /* Sorted by id (the scan's runs merged), each id once. */
        for (size_t i = 1; i < s.n_units; i++)
                CHECK(strcmp(s.units[i - 1]->id, s.units[i]->id) < 0);
        CHECK(s.n_units > 15);

        /* The name's form and type, as classifying it again says. */
        for (size_t i = 0; i < s.n_units; i++) {
                UnitType type = _UNIT_TYPE_INVALID;
                int kind = unit_name_classify_type(s.units[i]->id, &type);

                CHECK_INT_EQ(s.units[i]->id_kind, kind);
                CHECK_INT_EQ(s.units[i]->id_type, kind >= 0 ? type : _UNIT_TYPE_INVALID);
        }

        /* The same number exactly for the same source. */
        n = all_files(&s, files, ELEMENTSOF(files));
        CHECK(n > 20 && n < ELEMENTSOF(files));
        for (size_t i = 0; i < n; i++) {
                CHECK(files[i]->source_id < s.n_sources);
                for (size_t j = 0; j < n; j++)
                        CHECK((files[i]->source_id == files[j]->source_id) ==
                              streq(files[i]->source, files[j]->source));
        }

        /* Linked unit files: resolved where they are, once. */
        a = unit(&s, "a.service");
        c = unit(&s, "c.service");
        if ((u = unit(&s, "l.service"))) {
                CHECK_INT_EQ(u->state, LOOKUP_UNIT_LOADED);
                CHECK_STR_EQ(u->fragment.path, "/etc/systemd/system/l.service");
                CHECK_STR_EQ(u->fragment.source, "/opt/l.service");
        }
        if ((u = unit(&s, "l2.service")) && a) {
                CHECK_INT_EQ(u->state, LOOKUP_UNIT_LOADED);
                CHECK_STR_EQ(u->fragment.source, "/usr/lib/systemd/system/a.service");
                CHECK_INT_EQ(u->fragment.source_id, a->fragment.source_id);
        }
        if ((u = unit(&s, "l3.service")))
                CHECK_INT_EQ(u->state, LOOKUP_UNIT_MASKED);
        if ((u = unit(&s, "l4.service"))) {
                CHECK_INT_EQ(u->state, LOOKUP_UNIT_LOADED);
                CHECK_INT_EQ(u->fragment.error, -ENOENT);
                CHECK(u->fragment.source == NULL);
        }
        if ((u = unit(&s, "m.service")))
                CHECK_INT_EQ(u->state, LOOKUP_UNIT_MASKED);
        if ((u = unit(&s, "m2.service")))
                CHECK_INT_EQ(u->state, LOOKUP_UNIT_MASKED);
        /* An empty unit file is the reader's to find (LOOKUP_LAZY_EMPTY). */
        if ((u = unit(&s, "e.service"))) {
                CHECK_INT_EQ(u->state, LOOKUP_UNIT_LOADED);
                CHECK(u->maybe_empty);
        }

        /* Instances from a real and from a symlinked dependency directory
         * read their template's file. */
        if ((u = unit(&s, "b@1.service")))
                CHECK_STR_EQ(u->fragment.source, "/usr/lib/systemd/system/b@.service");
        if ((u = unit(&s, "b@2.service")))
                CHECK_STR_EQ(u->fragment.source, "/usr/lib/systemd/system/b@.service");

        /* d.service.d is c.service.d, and a.service.d/20-link.conf is its
         * file: one source, one number. */
        if ((u = unit(&s, "d.service")) && c && a && u->n_dropins == 2 && c->n_dropins == 2 && a->n_dropins == 2) {
                /* Shown where the resolved directory is. */
                CHECK_STR_EQ(u->dropins[0].path, "/usr/lib/systemd/system/c.service.d/10-c.conf");
                CHECK_STR_EQ(u->dropins[0].source, c->dropins[0].source);
                CHECK_INT_EQ(u->dropins[0].source_id, c->dropins[0].source_id);
                CHECK_STR_EQ(a->dropins[0].source, c->dropins[0].source);
                CHECK_INT_EQ(a->dropins[0].source_id, c->dropins[0].source_id);
        } else
                CHECK(false);

        lookup_set_done(&s);
        root_done(&root);
}

TEST(setup_fixture) {
        setup();
}

TEST(cleanup_fixture) {
        tree_remove(dir);
}

TESTS_MAIN(T(setup_fixture), T(set), T(cleanup_fixture))
