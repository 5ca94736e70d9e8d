/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The generator's run: the unit set as systemd assembles it (lookup/),
 * judged unit by unit through the same pipeline as `unitguard check
 * --root` (filter/), and each verdict turned into files in the early
 * generator directory. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "basic/alloc-util.h"
#include "basic/strbuf.h"
#include "filter/filter.h"
#include "gen-hardware.h"
#include "generator.h"
#include "gen-output.h"
#include "lookup/lookup.h"
#include "policy/policy-engine.h"
#include "validate/unit-name.h"

/* The name of the drop-in that keeps a rejected unit from starting. It
 * must sort after every other drop-in of the unit: an empty Condition*=
 * line in a later one would reset the list of conditions. */
#define CONDITION_DROPIN "zz-unitguard.conf"

typedef struct Generator {
        const GeneratorOptions *o;
        GenLog *log;
        const LookupSet *set;
        const Policy *policy;
        GeneratorStats *stats;
} Generator;

/* Search directories that outrank systemd's early generator directory
 * (systemd 252's lookup_paths_init(): the control and transient
 * directories). A file there cannot be masked or shadowed from it. */
static bool outranks_early(const char *path) {
        static const char *const dirs[] = {
                "/etc/systemd/system.control/",
                "/run/systemd/system.control/",
                "/run/systemd/transient/",
        };

        for (size_t i = 0; i < ELEMENTSOF(dirs); i++)
                if (path && startswith(path, dirs[i]))
                        return true;
        return false;
}

static const char *base_name(const char *path) {
        const char *s = strrchr(path, '/');

        return s ? s + 1 : path;
}

/* The first finding of at least min severity, or with rule_prefix (when
 * not NULL) the first whose rule starts with it: what to name as the
 * reason. */
static const Diag *first_finding(const UnitGroup *g, DiagSeverity min, const char *rule_prefix) {
        for (size_t i = 0; i <= g->n_files; i++) {
                const DiagList *l = i < g->n_files ? (g->files[i].file ? &g->files[i].file->diags : NULL) : &g->diags;

                for (size_t k = 0; l && k < l->n; k++)
                        if (rule_prefix ? startswith(l->items[k].rule, rule_prefix) != NULL
                                        : l->items[k].severity >= min)
                                return &l->items[k];
        }
        return NULL;
}

/* "PATH:LINE: message [Section.Key] (rule)", or fallback without a finding. */
static char *reason_text(const UnitGroup *g, bool rejected) {
        const Diag *d = first_finding(g, rejected ? DIAG_ERROR : DIAG_WARNING, NULL);
        _cleanup_(strbuf_done) StrBuf b = {};
        int r;

        if (g->unreadable)
                return strdup("a file of it could not be read");
        if (!d && !rejected)
                d = first_finding(g, DIAG_NOTE, "policy:rewrite.");
        if (!d)
                return strdup(rejected ? "rejected by the policy" : "changed by the policy");
        r = d->line > 0 ? strbuf_printf(&b, "%s:%u: %s", d->file, d->line, d->message)
                        : strbuf_printf(&b, "%s: %s", d->file, d->message);
        if (r >= 0 && (d->section || d->key))
                r = strbuf_printf(&b, " [%s%s%s]", d->section ? d->section : "", d->section && d->key ? "." : "",
                                  d->key ? d->key : "");
        if (r >= 0)
                r = strbuf_printf(&b, " (%s)", d->rule);
        if (r < 0)
                return NULL;
        return TAKE_PTR(b.data);
}

/* how: why a mask rather than what the verdict asked for, or "". */
static int mask_unit(Generator *gen, const LookupUnit *u, const char *how, const char *why) {
        int r;

        if (outranks_early(u->fragment.path)) {
                gen->stats->not_overridable++;
                gen_log_unit(gen->log, GEN_LOG_ERR, "%s: cannot be masked: %s outranks the generator's directory; %s",
                             u->id, u->fragment.path, why);
                return 0;
        }
        /* Every name that leads to the unit, so that no alias loads it. */
        r = gen_output_mask(gen->o->early_dir, u->id);
        for (size_t i = 0; r >= 0 && i < u->n_aliases; i++)
                r = gen_output_mask(gen->o->early_dir, u->aliases[i]);
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                gen->stats->write_errors++;
                gen_log_unit(gen->log, GEN_LOG_ERR, "%s: the mask could not be written to %s: %s; %s", u->id,
                             gen->o->early_dir, strerror(-r), why);
                return 0;
        }
        gen->stats->masked++;
        gen_log_unit(gen->log, GEN_LOG_WARNING, "%s: masked%s: %s", u->id, how, why);
        return 0;
}

/* A name for the condition drop-in that sorts after every drop-in of the
 * unit: CONDITION_DROPIN, or the last one's stem and "~unitguard.conf"
 * ('~' sorts after every other character a file name usually has). */
static char *condition_dropin_name(const LookupUnit *u) {
        const char *last = NULL;
        char *s;

        for (size_t i = 0; i < u->n_dropins; i++) {
                const char *b = base_name(u->dropins[i].path);

                if (!last || strcmp(b, last) > 0)
                        last = b;
        }
        if (!last || strcmp(last, CONDITION_DROPIN) < 0)
                return strdup(CONDITION_DROPIN);
        if (asprintf(&s, "%.*s~unitguard.conf", (int) (strlen(last) - strlen(".conf")), last) < 0)
                return NULL;
        return s;
}

/* A rejected unit that systemd would load gets a condition that never
 * holds: it stays visible ("condition failed") but never starts. A drop-in
 * cannot make a unit that systemd refuses load, so for those (and
 * wherever writing fails) a mask is the answer. */
static int condition_unit(Generator *gen, const LookupUnit *u, const char *why) {
        static const char text[] =
                "# Written by unitguard-generator(8): the site policy rejected this unit.\n"
                "# The condition below never holds, so systemd never starts it.\n"
                "[Unit]\n"
                "ConditionPathExists=!/\n";
        _cleanup_free_ char *name = NULL, *file = NULL;
        int r;

        name = condition_dropin_name(u);
        if (!name)
                return -ENOMEM;
        if (strlen(name) > 255)        /* NAME_MAX */
                return mask_unit(gen, u, " (no room for the condition drop-in's name)", why);
        if (asprintf(&file, "%s.d/%s", u->id, name) < 0)
                return -ENOMEM;
        r = gen_output_file(gen->o->early_dir, file, text, sizeof(text) - 1);
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return mask_unit(gen, u, " (the condition drop-in could not be written)", why);
        gen->stats->conditioned++;
        gen_log_unit(gen->log, GEN_LOG_WARNING, "%s: rejected, condition set (%s): %s", u->id, name, why);
        return 0;
}

static bool user_is_root(const char *v) {
        return !v[0] || streq(v, "root") || streq(v, "0");
}

/* Kept User= lines of a file: 1 when one would make the unit root (empty,
 * root, 0), 2 when one names another user, 3 both, 0 none. */
static int user_lines(const UnitFile *f) {
        int found = 0;

        for (size_t i = 0; i < f->n_entries; i++) {
                const UnitEntry *e = &f->entries[i];
                const char *section = unit_entry_section(f, e);
                const char *v = e->edit == EDIT_REPLACE && !e->edit_key ? e->edit_text : e->value;

                if (e->edit == EDIT_DROP || e->edit == EDIT_COMMENT || !section || !streq(section, "Service"))
                        continue;
                if (!streq(e->edit == EDIT_REPLACE && e->edit_key ? e->edit_key : e->key, "User"))
                        continue;
                found |= user_is_root(v ? v : "") ? 1 : 2;
        }
        return found;
}

/* Whether a copy the generator would write could reset User= to root: a
 * changed drop-in with such a line, in a unit that names another user. */
static bool copy_resets_user(const UnitGroup *g) {
        bool names_user = false, resets = false;

        for (size_t i = 0; i < g->n_files; i++) {
                const UnitFile *f = g->files[i].file;
                int u;

                if (!f)
                        continue;
                u = user_lines(f);
                if (u & 2)
                        names_user = true;
                if ((u & 1) && f->is_dropin && unit_file_modified(f))
                        resets = true;
        }
        return names_user && resets;
}

/* Writes one changed file under its own name: the unit file as the unit,
 * a drop-in into UNIT.d/, where it shadows the original of that name. */
static int write_copy(Generator *gen, const LookupUnit *u, const UnitFile *f) {
        _cleanup_(strbuf_done) StrBuf b = {};
        _cleanup_free_ char *name = NULL;
        const char *base = base_name(f->path);
        int r;

        r = unit_file_write(f, &b);
        if (r < 0)
                return r;
        if (!f->is_dropin)
                name = strdup(u->id);
        else if (base[0] == '.' || asprintf(&name, "%s.d/%s", u->id, base) < 0)
                return base[0] == '.' ? -EINVAL : -ENOMEM;
        if (!name)
                return -ENOMEM;
        return gen_output_file(gen->o->early_dir, name, b.data ? b.data : "", b.len);
}

static int sanitize_unit(Generator *gen, const LookupUnit *u, const UnitGroup *g) {
        _cleanup_free_ char *why = NULL;
        const UnitFile *fragment = NULL;
        int r = 0;

        why = reason_text(g, false);
        if (!why)
                return -ENOMEM;
        for (size_t i = 0; i < g->n_files; i++) {
                const UnitFile *f = g->files[i].file;

                /* The unit file itself cannot be there: the generator runs
                 * before anything creates transient units. */
                if (f && unit_file_modified(f) && outranks_early(f->path))
                        return mask_unit(gen, u, " (a changed drop-in outranks the generator's directory)", why);
        }
        if (copy_resets_user(g))
                return mask_unit(gen, u, " (a sanitized copy of a drop-in would reset User= to root)", why);

        /* Drop-ins first, the unit file last: should a write fail, the unit
         * is masked, and the mask replaces a copy already written. */
        for (size_t i = 0; r >= 0 && i < g->n_files; i++) {
                const UnitFile *f = g->files[i].file;

                if (!f || !unit_file_modified(f))
                        continue;
                if (!f->is_dropin) {
                        fragment = f;
                        continue;
                }
                r = write_copy(gen, u, f);
        }
        if (r >= 0 && fragment)
                r = write_copy(gen, u, fragment);
        if (r == -ENOMEM)
                return r;
        if (r < 0) {
                gen->stats->write_errors++;
                gen_log_unit(gen->log, GEN_LOG_ERR, "%s: the sanitized copy could not be written to %s: %s",
                             u->id, gen->o->early_dir, strerror(-r));
                return mask_unit(gen, u, " (instead of the sanitized copy)", why);
        }
        gen->stats->sanitized++;
        gen_log_unit(gen->log, GEN_LOG_NOTICE, "%s: sanitized: %s", u->id, why);
        return 0;
}

static int on_unit(void *userdata, const UnitGroup *g) {
        Generator *gen = userdata;
        _cleanup_free_ char *why = NULL;
        const LookupUnit *u;

        gen->stats->units++;
        if (g->verdict == GROUP_ACCEPTED || !g->name)
                return 0;
        u = lookup_set_find(gen->set, g->name);
        /* Type-wide drop-in directories ("service.d") are no unit. */
        if (!u || !unit_name_is_valid(u->id, UNIT_NAME_ANY))
                return 0;
        if (g->verdict == GROUP_CHANGED)
                return sanitize_unit(gen, u, g);

        why = reason_text(g, true);
        if (!why)
                return -ENOMEM;
        if (gen->policy->generator_condition && g->systemd.known && streq(g->systemd.load_state, "loaded") &&
            u->fragment.path && !g->unreadable && !outranks_early(u->fragment.path))
                return condition_unit(gen, u, why);
        return mask_unit(gen, u, "", why);
}

/* The site policy, or the built-in default when there is none or it is
 * broken (logged: a broken policy must not stop the boot). */
static int load_policy(const GeneratorOptions *o, GenLog *log, GeneratorStats *stats, Policy **ret) {
        _cleanup_free_ char *site = NULL;
        const char *name = o->policy;
        PolicyError err = {};
        int r;

        if (!name) {
                r = policy_site_path(o->root, &site);
                if (r < 0)
                        return r;
                name = site;
        }
        if (name) {
                r = policy_load(name, ret, &err);
                if (r >= 0)
                        return 0;
                if (r == -ENOMEM) {
                        policy_error_done(&err);
                        return r;
                }
                if (err.message) {
                        _cleanup_(strbuf_done) StrBuf b = {};

                        if (policy_error_format(&err, &b) >= 0 && b.len > 0 && b.data[b.len - 1] == '\n')
                                b.data[--b.len] = '\0';
                        gen_log(log, GEN_LOG_ERR, "%s; the built-in default policy applies", b.data ? b.data : name);
                } else
                        gen_log(log, GEN_LOG_ERR, "%s: error: cannot load policy: %s; the built-in default policy applies",
                                name, strerror(-r));
                policy_error_done(&err);
                stats->policy_fallback = true;
        }
        r = policy_load(DEFAULT_POLICY_NAME, ret, &err);
        if (r < 0 && err.message)
                gen_log(log, GEN_LOG_ERR, "built-in policy: %s", err.message);
        policy_error_done(&err);
        return r;
}

static int judge_root(Generator *gen, const Root *root, const LookupSet *set) {
        _cleanup_(filter_done) Filter f = {};
        PolicyEngine engine = { .policy = gen->policy, .version = gen->policy->target };
        _cleanup_(gen_hardware_done) GenHardware hw = {};
        int r;

        r = gen_hardware_prepare(&hw, gen->policy, gen->o->root, root, &engine, gen->log);
        if (r < 0)
                return r;

        filter_init(&f, STDERR_FILENO, STDERR_FILENO);
        f.format = OUTPUT_NONE;
        f.show_notes = false;
        f.quiet = true;
        f.judge = policy_engine_judge;
        f.judge_userdata = &engine;
        f.on_unit = on_unit;
        f.on_unit_userdata = gen;
        r = filter_root(&f, root, set, gen->o->root ? gen->o->root : "/");
        gen->stats->input_errors = f.n_input_errors;
        gen->stats->tree_errors = f.n_tree_errors;
        return r;
}

int generator_run(const GeneratorOptions *o, GenLog *log, GeneratorStats *ret) {
        _cleanup_(policy_freep) Policy *policy = NULL;
        Root root = { .fd = -EBADF };
        LookupSet set = {};
        Generator gen = { .o = o, .log = log, .stats = ret };
        int r;

        *ret = (GeneratorStats) {};
        r = load_policy(o, log, ret, &policy);
        if (r < 0)
                return r;
        if (o->in_initrd && !policy->generator_initrd) {
                ret->skipped = true;
                return 0;
        }
        gen.policy = policy;

        r = root_open(o->root, &root);
        if (r < 0) {
                ret->input_errors++;
                gen_log(log, GEN_LOG_ERR, "%s: error: cannot open root directory: %s", o->root ? o->root : "/",
                        strerror(-r));
                return r == -ENOMEM ? r : 0;
        }
        /* The unit set as the systemd of this system assembles it; the
         * policy's target only decides what its verdicts predict. */
        r = lookup_set_build_full(&root, LOOKUP_SYSTEM, GENERATOR_SYSTEMD_VERSION, LOOKUP_SKIP_GENERATED | LOOKUP_LAZY_EMPTY, &set);
        if (r >= 0) {
                gen.set = &set;
                r = judge_root(&gen, &root, &set);
        }
        lookup_set_done(&set);
        root_done(&root);
        return r == -ENOMEM ? r : 0;
}
