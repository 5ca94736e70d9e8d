/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The prediction's notable lines (predict.h) against every line: the
 * policy engine and the unit checks look at the notable ones only, and
 * must decide exactly as when they look at all of them. Each unit here
 * (tricky ones of this file, and with a corpus directory as argument, every
 * file of it, as a unit file and as a drop-in) is judged by each shipped
 * policy both ways, and the diagnostics, edits, verdicts and predictions
 * compared; the unit checks the same way against a run that judges every
 * line again. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "basic/macro.h"
#include "policy/policy-engine.h"
#include "policy/policy.h"
#include "tests.h"
#include "unit/unit-group.h"
#include "validate/predict.h"
#include "validate/unit-checks.h"
#include "validate/unit-settings.h"

typedef struct Sample {
        const char *name;
        const char *text;
        const char *dropin; /* NULL: none */
} Sample;

/* Lines of every kind the policy engine or a unit check reacts to, next to
 * plain ones; fatal lines with lines after them, in a unit file and in a
 * drop-in. */
static const Sample samples[] = {
        { "a.service",
          "[Unit]\nDescription=a\nAfter=network.target\nFoo=bar\nX-Foo=bar\n"
          "[Service]\nType=oneshot\nUser=nobody\nGroup=nogroup\nSupplementaryGroups=good b@d\n"
          "ExecStart=/bin/true ; /bin/false\nExecStart=-/bin/x\nRestart=always\nRemainAfterExit=yes\n"
          "Environment=A=1\nPrivateTmp=yes\nNice=99\nRuntimeMaxSec=5\n[Install]\nWantedBy=multi-user.target\n",
          NULL },
        { "b.service",
          "[Service]\nExecStart=/bin/b\nUser=0day\nPrivateTmp=yes\nWorkingDirectory=~\nDynamicUser=yes\n", NULL },
        { "c.service", "[Service]\nExecStart=/bin/c\nUser=\nGroup=\nPrivateTmp=yes\n",
          "[Service]\nPrivateDevices=yes\nUser=0day\nProtectHome=yes\nExecStart=\nExecStart=/bin/d\n" },
        { "d@.service",
          "[Unit]\nDescription=%i instance\nRequires=x@%i.service\n[Service]\nExecStart=/bin/d %i\n"
          "User=%i\nWorkingDirectory=/home/%i\nEnvironment=\"X=\\x25i\"\nPAMName=login\nKillMode=process\n",
          "[Service]\nUser=ok\nGroup=nobody\n" },
        { "d@x.service", "[Service]\nExecStart=/bin/d %i\nUser=%i\nBusName=org.x\nType=dbus\n", NULL },
        { "e.socket",
          "[Socket]\nListenStream=/run/e.sock\nListenDatagram=/run/../e\nAccept=yes\nMaxConnections=0\n"
          "Service=e.service\nSymlinks=/run/x\nExecStartPre=/bin/e\nSocketUser=0day\n",
          "[Socket]\nListenStream=\nListenFIFO=/run/f\n" },
        { "f.timer", "[Timer]\nOnCalendar=daily\nOnBootSec=\nPersistent=yes\n", "[Timer]\nOnClockChange=yes\n" },
        { "g.path", "[Path]\nPathExists=/x\nPathChanged=\nUnit=g.service\n", NULL },
        { "h-i.mount", "[Mount]\nWhat=/dev/sda1\nWhere=/h/j\nType=ext4\nOptions=ro\n", NULL },
        { "-.mount", "[Mount]\nWhere=/\nWhat=/dev/root\n", NULL },
        { "proc.mount", "[Mount]\nWhat=proc\nWhere=/proc\n", NULL },
        { "k.automount", "[Automount]\nWhere=/\n", NULL },
        { "dev-sdb.swap", "[Swap]\nWhat=/dev/sdc\nPriority=1\n", NULL },
        { "l.slice", "[Slice]\nCPUWeight=10\n", NULL },
        { "m--n.slice", "[Slice]\nCPUWeight=10\n", NULL },
        { "o.scope", "[Scope]\nCPUWeight=10\n", NULL },
        { "p@.mount", "[Mount]\nWhat=/x\n", NULL },
        { "q.service",
          "Early=1\n[Unit]\nDescription=q\n[Bogus]\nA=b\n[Service]\nExecStart=/bin/q\nUser=root\n"
          "CapabilityBoundingSet=CAP_BOGUS CAP_NET_ADMIN\nReadWritePaths=relative\nNice=abc\n"
          "IOSchedulingClass=bogus\nLimitNOFILE=x\nUMask=999\n[X-Extra]\nY=z\n",
          "[Service]\nExecStart=\nExecStart=/bin/q2\nNice=abc\nUser=nobody\n[Unit]\nDescription=d\n" },
        { "r.service", "[Service]\nExecStart=/bin/r\nUser=r\nPrivateNetwork=yes\n",
          "[Service]\nProtectSystem=strict\nUser=bad!name\nPrivateTmp=yes\nNice=abc\n" },
        { "s.service", "[Service]\nExecStop=/bin/s\nKillMode=mixed\nPAMName=x\nType=forking\nPrivatePIDs=yes\n",
          NULL },
        { "t.service",
          "[Service]\nExecStart=/bin/t\nUSBFunctionDescriptors=/x\nExitType=cgroup\nSuccessAction=none\n", NULL },
        { "u.service", "[Unit]\nSuccessAction=reboot\n[Service]\nType=oneshot\nExecStartPost=/bin/u\n", NULL },
};

static const char *const policies[] = {
        "default", "debian", "hardened", "posix", "strict", "systemd-233", "systemd-234", "systemd-252", "systemd-257",
};

static UnitGroup *group(const char *name, const char *text, const char *dropin) {
        UnitGroup *g = NULL;
        UnitFile *f = NULL;
        char *data = strdup(text);

        CHECK(data);
        CHECK_INT_EQ(unit_group_new(name, &g), 0);
        CHECK_INT_EQ(unit_file_parse(data, strlen(text), name, name, false, &f), 0);
        CHECK_INT_EQ(unit_group_add(g, f, NULL), 0);
        g->has_fragment = true;
        if (dropin) {
                char path[512];

                data = strdup(dropin);
                CHECK(data);
                snprintf(path, sizeof path, "%s.d/x.conf", name);
                CHECK_INT_EQ(unit_file_parse(data, strlen(dropin), path, name, true, &f), 0);
                CHECK_INT_EQ(unit_group_add(g, f, NULL), 0);
        }
        return g;
}

static bool str_eq(const char *a, const char *b) {
        return (!a && !b) || (a && b && streq(a, b));
}

static void check_diags(const DiagList *a, const DiagList *b) {
        CHECK_INT_EQ(a->n, b->n);
        for (size_t i = 0; i < a->n && i < b->n; i++) {
                const Diag *x = &a->items[i], *y = &b->items[i];

                CHECK(str_eq(x->rule, y->rule));
                CHECK_INT_EQ(x->severity, y->severity);
                CHECK_INT_EQ(x->effect, y->effect);
                CHECK(str_eq(x->file, y->file));
                CHECK_INT_EQ(x->line, y->line);
                CHECK(str_eq(x->section, y->section));
                CHECK(str_eq(x->key, y->key));
                CHECK(str_eq(x->message, y->message));
                CHECK(str_eq(x->unit, y->unit));
        }
}

static void check_groups(const UnitGroup *a, const UnitGroup *b) {
        CHECK_INT_EQ(a->verdict, b->verdict);
        check_diags(&a->diags, &b->diags);
        CHECK_INT_EQ(a->systemd.known, b->systemd.known);
        CHECK(str_eq(a->systemd.load_state, b->systemd.load_state));
        CHECK(str_eq(a->systemd.user, b->systemd.user));
        CHECK_INT_EQ(a->systemd.runs_as_root, b->systemd.runs_as_root);
        CHECK_INT_EQ(a->n_files, b->n_files);
        for (size_t fi = 0; fi < a->n_files && fi < b->n_files; fi++) {
                const UnitFile *x = a->files[fi].file, *y = b->files[fi].file;

                check_diags(&x->diags, &y->diags);
                CHECK_INT_EQ(x->n_entries, y->n_entries);
                CHECK_INT_EQ(x->n_inserts, y->n_inserts);
                for (size_t i = 0; i < x->n_entries && i < y->n_entries; i++) {
                        CHECK_INT_EQ(x->entries[i].edit, y->entries[i].edit);
                        CHECK(str_eq(x->entries[i].edit_text, y->entries[i].edit_text));
                        CHECK(str_eq(x->entries[i].edit_key, y->entries[i].edit_key));
                }
        }
}

static void check_findings(const UnitCheckResult *a, const UnitCheckResult *b) {
        CHECK_INT_EQ(a->n, b->n);
        CHECK(str_eq(a->load_state, b->load_state));
        CHECK_INT_EQ(a->refused_by_line, b->refused_by_line);
        for (size_t i = 0; i < a->n && i < b->n; i++) {
                CHECK(a->findings[i].check == b->findings[i].check);
                CHECK(str_eq(a->findings[i].path, b->findings[i].path));
                CHECK_INT_EQ(a->findings[i].line, b->findings[i].line);
                CHECK_STR_EQ(a->findings[i].detail, b->findings[i].detail);
        }
}

static unsigned n_units, n_notable, n_lines, n_checked;

/* The unit checks of a prediction (notable lines only) against the same
 * checks with every judged line, and with every line judged again. */
static void check_unit_checks(const char *name, const char *text, const char *dropin, unsigned version) {
        UnitGroup *g = group(name, text, dropin);
        Prediction p = {};
        const UnitFile *files[2];
        JudgedFile all[2] = {};
        UnitCheckResult *every, *again;

        CHECK_INT_EQ(systemd_predict(g, version, false, NULL, &p), 0);
        /* The id of each known section, told by its first letter, is the
         * one its name gives. */
        for (size_t fi = 0; fi < g->n_files; fi++)
                for (size_t si = 0; si < g->files[fi].file->n_sections; si++)
                        if (g->files[fi].file->sections[si].state == SECTION_KNOWN)
                                CHECK_INT_EQ(known_section_id(g->files[fi].file, si),
                                             directive_section_from_name(g->files[fi].file->sections[si].name));
        /* The identity, followed through the notable lines, is the one
         * of every line. */
        Identity id = {};
        for (size_t fi = 0; fi < g->n_files; fi++) {
                const UnitFile *f = g->files[fi].file;
                size_t until = f->n_entries;

                for (size_t i = 0; i < f->n_entries; i++) {
                        const UnitEntry *e = &f->entries[i];

                        if (e->section >= 0 && f->sections[e->section].state == SECTION_KNOWN &&
                            !identity_track(&id, f, e, p.files[fi].lines[i].verdict)) {
                                until = i;
                                break;
                        }
                }
                CHECK_INT_EQ(p.files[fi].read_until, until);
        }
        CHECK_INT_EQ(id.user_named, p.identity.user_named);
        CHECK(id.user == p.identity.user);
        CHECK(id.user_entry == p.identity.user_entry);
        CHECK_INT_EQ(id.dynamic_user, p.identity.dynamic_user);
        CHECK_INT_EQ(id.refused, p.identity.refused);
        CHECK(str_eq(id.cut_file, p.identity.cut_file));
        every = calloc(1, sizeof *every);
        again = calloc(1, sizeof *again);
        CHECK(every && again);
        for (size_t fi = 0; fi < g->n_files; fi++) {
                files[fi] = g->files[fi].file;
                all[fi].lines = p.files[fi].lines;
                n_notable += p.files[fi].n_notable;
                n_lines += p.files[fi].n_lines;
                /* Notable: every judged line the policy or a check
                 * looks at, and those with a message; nothing else. */
                for (size_t i = 0, k = 0; i < p.files[fi].n_lines; i++) {
                        const UnitEntry *e = &files[fi]->entries[i];
                        const Judgement *j = &p.files[fi].lines[i];
                        bool known = e->section >= 0 && files[fi]->sections[e->section].state == SECTION_KNOWN;
                        bool listed = k < p.files[fi].n_notable && p.files[fi].notable[k] == i;

                        CHECK(listed ==
                              (known && (!judgement_is_plain(j) || unit_settings_reads(j) || j->message)));
                        k += listed;
                }
        }
        if (p.checks_ran && every && again) {
                n_checked++;
                CHECK_INT_EQ(unit_checks_run(name, files, all, g->n_files, version, every), 0);
                CHECK_INT_EQ(unit_checks_run(name, files, NULL, g->n_files, version, again), 0);
                check_findings(p.checks, every);
                check_findings(p.checks, again);
        }
        free(every);
        free(again);
        prediction_done(&p);
        unit_group_free(g);
}

static void check_unit(const Policy *const *loaded, const char *name, const char *text, const char *dropin) {
        n_units++;
        for (size_t pi = 0; pi < ELEMENTSOF(policies); pi++) {
                unsigned versions[] = { loaded[pi]->target, 233, 257 };

                /* Other versions for the default policy only: it is the
                 * enforcing one that most lines go through. */
                for (size_t vi = 0; vi < (pi == 0 ? ELEMENTSOF(versions) : 1); vi++) {
                        PolicyEngine fast = { .policy = loaded[pi], .version = versions[vi] };
                        PolicyEngine slow = { .policy = loaded[pi], .version = versions[vi], .every_entry = true };
                        UnitGroup *a = group(name, text, dropin), *b = group(name, text, dropin);
                        int before = tests_failed;

                        CHECK_INT_EQ(policy_engine_judge(&fast, a), 0);
                        CHECK_INT_EQ(policy_engine_judge(&slow, b), 0);
                        check_groups(a, b);
                        if (tests_failed != before)
                                fprintf(stderr, "%s (policy %s, systemd %u)\n", name, policies[pi], versions[vi]);
                        unit_group_free(a);
                        unit_group_free(b);
                }
        }
        check_unit_checks(name, text, dropin, 252);
        check_unit_checks(name, text, dropin, 233);
        check_unit_checks(name, text, dropin, 257);
}

static const char *unit_suffix(const char *name) {
        static const char *const suffixes[] = { ".service", ".socket", ".timer", ".path",  ".mount",
                                                ".automount", ".swap", ".slice", ".target", ".scope" };
        const char *dot = strrchr(name, '.');

        for (size_t i = 0; dot && i < ELEMENTSOF(suffixes); i++)
                if (streq(dot, suffixes[i]))
                        return dot;
        return NULL;
}

static char *read_all(const char *path) {
        FILE *f = fopen(path, "re");
        char *buf = NULL;
        size_t n = 0;
        long size;

        if (!f)
                return NULL;
        if (fseek(f, 0, SEEK_END) == 0 && (size = ftell(f)) >= 0 && size < 1 << 20 && fseek(f, 0, SEEK_SET) == 0 &&
            (buf = malloc((size_t) size + 1))) {
                n = fread(buf, 1, (size_t) size, f);
                buf[n] = '\0';
                if (strlen(buf) != n) { /* NULs: not for this test */
                        free(buf);
                        buf = NULL;
                }
        }
        fclose(f);
        return buf;
}

/* Every unit file under dir: as a unit file, and as a drop-in of a unit
 * of the same name. */
static void walk(const Policy *const *loaded, const char *dir) {
        DIR *d = opendir(dir);
        struct dirent *de;

        if (!d)
                return;
        while ((de = readdir(d))) {
                char path[4096];
                struct stat st;
                char *text;

                if (de->d_name[0] == '.')
                        continue;
                snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
                if (lstat(path, &st) < 0)
                        continue;
                if (S_ISDIR(st.st_mode)) {
                        walk(loaded, path);
                        continue;
                }
                if (!S_ISREG(st.st_mode) || !unit_suffix(de->d_name) || !(text = read_all(path)))
                        continue;
                check_unit(loaded, de->d_name, text, NULL);
                check_unit(loaded, de->d_name, "[Unit]\nDescription=x\n", text);
                free(text);
        }
        closedir(d);
}

int main(int argc, char **argv) {
        Policy *loaded[ELEMENTSOF(policies)] = {};

        /* The table predict.c reads is the collection's own choice. */
        for (int id = 0; id < _DIRECTIVE_NAME_MAX; id++)
                CHECK_INT_EQ(unit_settings_watched[id], unit_settings_watches(id));

        for (size_t i = 0; i < ELEMENTSOF(policies); i++) {
                PolicyError err = {};

                CHECK_INT_EQ(policy_load(policies[i], &loaded[i], &err), 0);
                policy_error_done(&err);
                if (!loaded[i])
                        return 1;
        }
        for (size_t i = 0; i < ELEMENTSOF(samples); i++)
                check_unit((const Policy *const *) loaded, samples[i].name, samples[i].text, samples[i].dropin);
        /* The samples must reach both kinds of line. */
        CHECK(n_notable > 0 && n_notable < n_lines);
        CHECK(n_checked > 0);
        printf("%s samples: %u units, %u of %u lines notable\n", tests_failed ? "FAIL" : "ok", n_units, n_notable,
               n_lines);
        if (argc > 1) {
                struct stat st;

                if (stat(argv[1], &st) < 0) {
                        printf("skip corpus: %s: %s\n", argv[1], strerror(errno));
                } else {
                        n_units = n_notable = n_lines = 0;
                        walk((const Policy *const *) loaded, argv[1]);
                        CHECK(n_units > 0);
                        printf("%s corpus: %u units, %u of %u lines notable\n", tests_failed ? "FAIL" : "ok",
                               n_units, n_notable, n_lines);
                }
        }
        for (size_t i = 0; i < ELEMENTSOF(policies); i++)
                policy_free(loaded[i]);
        return tests_failed ? 1 : 0;
}
