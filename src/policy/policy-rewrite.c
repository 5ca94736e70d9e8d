/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Rewrites: policy-requested changes to accepted units, each reported. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "hardware/hw-ties.h"
#include "policy-condition.h"
#include "policy-internal.h"

/* add: with {device-node} in the value: one entry per device node the unit
 * is bound to (none: nothing is added). */
static int add_per_device(const Policy *p, const Rewrite *rw, UnitFile *target, const HwTieList *ties,
                          int (*report)(const Policy *, const Rewrite *, UnitFile *, const UnitEntry *, const char *)) {
        const char *at = strstr(rw->value, POLICY_DEVICE_NODE_PLACEHOLDER);
        size_t pre = (size_t) (at - rw->value);
        int r;

        for (size_t i = 0; ties && i < ties->n; i++) {
                const HwTie *t = &ties->items[i];
                _cleanup_free_ char *value = NULL, *msg = NULL;
                bool dup = false;

                if (!t->bound || !t->node || !startswith(t->node, "/dev/"))
                        continue;
                for (size_t k = 0; k < i && !dup; k++)
                        dup = ties->items[k].bound && ties->items[k].node && streq(ties->items[k].node, t->node);
                if (dup)
                        continue;
                if (asprintf(&value, "%.*s%s%s", (int) pre, rw->value, t->node,
                             at + strlen(POLICY_DEVICE_NODE_PLACEHOLDER)) < 0)
                        return -ENOMEM;
                r = unit_file_add_entry(target, rw->section, rw->key, value);
                if (r < 0)
                        return r;
                if (asprintf(&msg, "added %s=%s (the unit is bound to %s)", rw->key, value, t->node) < 0)
                        return -ENOMEM;
                r = report(p, rw, target, NULL, msg);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* Entries still written out (not removed by an earlier decision). */
static bool entry_live(const UnitEntry *e) {
        return e->edit != EDIT_DROP && e->edit != EDIT_COMMENT;
}

static const char *entry_key(const UnitEntry *e) {
        return e->edit == EDIT_REPLACE && e->edit_key ? e->edit_key : e->key;
}

static bool entry_is(const UnitFile *f, const UnitEntry *e, const char *section, const char *key) {
        const char *s = unit_entry_section(f, e);

        return entry_live(e) && s && streq(s, section) && streq(entry_key(e), key);
}

/* 1 if the entry's value matches the rewrite's pattern (or there is none),
 * 0 if not, -ENOMEM, or -E2BIG when a limit stopped the match (*ret_limit
 * names it). */
static int value_matches(const Policy *p, const Rewrite *rw, const char *value, const char **ret_limit) {
        if (!rw->value_re)
                return 1;
        return regex_match(&p->matcher, rw->value_re, value, NULL, NULL, ret_limit);
}

/* A rewrite that cannot be decided for an entry must not be skipped as if
 * it did not apply: a security rewrite silently left out is a hole. The
 * unit is rejected instead, naming the rule and the limit. */
static int undecided(const Policy *p, const Rewrite *rw, UnitFile *f, const UnitEntry *e, const char *limit) {
        _cleanup_free_ char *rule = NULL;

        if (asprintf(&rule, "%s:rewrite.%s", p->name, rw->id) < 0)
                return -ENOMEM;
        return diag_add(&f->diags, DIAG_ERROR, EFFECT_NONE, rule, f->path, e->line_last, rw->section, rw->key,
                        "The rewrite's 'matching' regex hit its %s on this value, so the rewrite cannot be applied; unit rejected",
                        limit);
}

static int note(const Policy *p, const Rewrite *rw, UnitFile *f, const UnitEntry *e, const char *what) {
        _cleanup_free_ char *rule = NULL;

        if (asprintf(&rule, "%s:rewrite.%s", p->name, rw->id) < 0)
                return -ENOMEM;
        return diag_add(&f->diags, DIAG_NOTE, EFFECT_NONE, rule, f->path, e ? e->line_last : 0,
                        rw->section, rw->key, "%s", what);
}

/* 0 when applied (or nothing to do), 1 when undecided (reported), or a
 * negative errno. */
static int apply_one(const Policy *p, const Rewrite *rw, UnitGroup *g, UnitFile *target, const HwTieList *ties) {
        _cleanup_free_ char *msg = NULL;
        bool key_set = false;
        int r;

        if (rw->kind != REWRITE_ADD)
                for (size_t fi = 0; fi < g->n_files; fi++) {
                        UnitFile *f = g->files[fi].file;

                        if (!f)
                                continue;
                        for (size_t i = 0; i < f->n_entries; i++) {
                                UnitEntry *e = &f->entries[i];
                                const char *limit = NULL;

                                if (!entry_is(f, e, rw->section, rw->key))
                                        continue;
                                key_set = true;
                                r = value_matches(p, rw, e->value, &limit);
                                if (r == -E2BIG) {
                                        r = undecided(p, rw, f, e, limit);
                                        return r < 0 ? r : 1;
                                }
                                if (r < 0)
                                        return r;
                                if (r == 0)
                                        continue;
                                switch (rw->kind) {
                                case REWRITE_SET:
                                        r = unit_entry_set_edit(f, i, EDIT_REPLACE, rw->value);
                                        if (r >= 0)
                                                r = asprintf(&msg, "set to '%s'", rw->value) < 0 ? -ENOMEM : 0;
                                        break;
                                case REWRITE_REMOVE:
                                        r = unit_entry_set_edit(f, i, p->comment_removed ? EDIT_COMMENT : EDIT_DROP,
                                                                p->comment_removed ? rw->id : NULL);
                                        if (r >= 0)
                                                r = (msg = strdup("removed")) ? 0 : -ENOMEM;
                                        break;
                                case REWRITE_RENAME:
                                        r = unit_entry_rename(f, i, rw->to);
                                        if (r >= 0)
                                                r = asprintf(&msg, "renamed to %s=", rw->to) < 0 ? -ENOMEM : 0;
                                        break;
                                default:
                                        r = 0;
                                }
                                if (r >= 0 && msg)
                                        r = note(p, rw, f, e, msg);
                                msg = mfree_str(msg);
                                if (r < 0)
                                        return r;
                        }
                }

        if (rw->kind == REWRITE_ADD && strstr(rw->value, POLICY_DEVICE_NODE_PLACEHOLDER))
                return add_per_device(p, rw, target, ties, note);
        if (rw->kind == REWRITE_ADD || (rw->kind == REWRITE_SET && !key_set)) {
                r = unit_file_add_entry(target, rw->section, rw->key, rw->value);
                if (r < 0)
                        return r;
                if (asprintf(&msg, "added %s=%s", rw->key, rw->value) < 0)
                        return -ENOMEM;
                return note(p, rw, target, NULL, msg);
        }
        return 0;
}

/* A `when:` regex that hit its limit: the rewrite cannot be decided. */
static int diag_addf_rule(const Policy *p, const Rewrite *rw, UnitGroup *g, const char *limit) {
        _cleanup_free_ char *rule = NULL;

        if (asprintf(&rule, "%s:rewrite.%s", p->name, rw->id) < 0)
                return -ENOMEM;
        if (!limit)
                return diag_add(&g->diags, DIAG_ERROR, EFFECT_NONE, rule, unit_group_display_path(g), 0, NULL, NULL,
                                "The rewrite's when: has a hardware condition, but no devices were read to decide it; unit rejected");
        return diag_add(&g->diags, DIAG_ERROR, EFFECT_NONE, rule, unit_group_display_path(g), 0, NULL, NULL,
                        "A regex of the rewrite's when: hit its %s, so the rewrite cannot be decided; unit rejected",
                        limit);
}

int policy_apply_rewrites(const Policy *p, UnitGroup *g, bool user_scope, struct PolicyHardware *hw,
                          const struct HwTieList *ties) {
        CondContext ctx = { .matcher = &p->matcher, .g = g, .user_scope = user_scope, .hw = hw, .ties = ties };
        UnitFile *target = NULL;
        int r;

        /* Additions go to the unit file itself, or to the last drop-in. */
        for (size_t fi = 0; fi < g->n_files; fi++)
                if (g->files[fi].file && (!target || !g->has_fragment))
                        target = g->files[fi].file;
        if (!target)
                return 0;

        for (size_t i = 0; i < p->n_rewrites; i++) {
                const Rewrite *rw = &p->rewrites[i];

                r = condition_eval(rw->when, &ctx);
                if (r == -E2BIG || r == -ENODEV) {
                        r = diag_addf_rule(p, rw, g, r == -ENODEV ? NULL : ctx.limit);
                        return r < 0 ? r : 1;
                }
                if (r < 0)
                        return r;
                if (r == 0)
                        continue;
                r = apply_one(p, rw, g, target, ties);
                if (r != 0)
                        return r;
        }
        return 0;
}
