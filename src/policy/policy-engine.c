/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The policy engine: per unit, the systemd model's prediction first
 * (validate/predict.h: what systemd would do, computed without the
 * policy), then what the policy decides on it. */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "policy-engine.h"
#include "policy-hardware.h"
#include "policy-internal.h"
#include "user-check.h"
#include "validate/behaviour.h"
#include "validate/exec-line.h"
#include "validate/judge.h"
#include "validate/predict.h"
#include "validate/parse-util.h"

typedef struct UnitRun {
        const PolicyEngine *e;
        const Policy *p;
        UnitGroup *g;
        bool rejected;
        Prediction pred;       /* systemd's view of the input */
        Identity out;          /* systemd's view of unitguard's output */
} UnitRun;

static void unit_run_done(UnitRun *u) {
        prediction_done(&u->pred);
}

/* The ties of a run with hardware (none without). */
static void ties_done(HwTieList *l) {
        if (l->items)
                hw_tie_list_done(l);
}

_printf_(7, 8)
static int report(UnitRun *u, DiagSeverity sev, SystemdEffect eff, const char *setting,
                  const UnitFile *f, const UnitEntry *e, const char *fmt, ...) {
        _cleanup_free_ char *long_rule = NULL;
        char buf[128];
        const char *rule;
        size_t n, m;
        va_list ap;
        int r;

        /* A template's every deferred value is a note: most of a tree's. */
        if (sev == DIAG_NOTE && u->e->skip_notes)
                return 0;
        /* "POLICY:SETTING", copied by the diagnostic: made on the stack
         * when it fits (it nearly always does). */
        n = strlen(u->p->name);
        m = strlen(setting);
        if (n + 1 + m < sizeof buf) {
                memcpy(buf, u->p->name, n);
                buf[n] = ':';
                memcpy(buf + n + 1, setting, m + 1);
                rule = buf;
        } else {
                rule = long_rule = strjoin(u->p->name, ":", setting);
                if (!rule)
                        return -ENOMEM;
        }
        va_start(ap, fmt);
        /* A continued entry is named by its last physical line, as systemd does. */
        r = diag_addv(f ? &((UnitFile *) f)->diags : &u->g->diags, sev, eff, rule,
                      f ? f->path : unit_group_display_path(u->g), e ? e->line_last : 0,
                      e ? unit_entry_section(f, e) : NULL, e ? e->key : NULL, fmt, ap);
        va_end(ap);
        return r;
}

static bool is_user_kind(const Directive *d) {
        return d->kind == DIRECTIVE_USER || d->kind == DIRECTIVE_GROUP || d->kind == DIRECTIVE_GROUP_LIST;
}

static SystemdEffect effect_of(Verdict v) {
        switch (v) {
        case VERDICT_FATAL:
                return EFFECT_UNIT_FATAL;
        case VERDICT_IGNORED:
                return EFFECT_LINE_IGNORED;
        default:
                return EFFECT_NONE;
        }
}

static int set_removed(UnitRun *u, UnitFile *f, size_t i, const char *reason) {
        return unit_entry_set_edit(f, i, u->p->comment_removed ? EDIT_COMMENT : EDIT_DROP,
                                   u->p->comment_removed ? reason : NULL);
}

static int reject(UnitRun *u, const char *setting, const UnitFile *f, const UnitEntry *e,
                  SystemdEffect eff, const char *why) {
        u->rejected = true;
        return report(u, DIAG_ERROR, eff, setting, f, e, "%s; unit rejected", why);
}

/* Predict, don't improve: in mirror mode systemd's verdict is the decision. */
static int decide_mirror(UnitRun *u, UnitFile *f, size_t i, const Judgement *j) {
        const UnitEntry *e = &f->entries[i];
        unsigned v = u->e->version;
        int r;

        /* systemd up to 233 skipped bad names of a list one by one. */
        if (j->verdict == VERDICT_IGNORED && streq(e->key, "SupplementaryGroups") &&
            !sd_behaves(SD_FATAL_SECURITY_DIRECTIVES, v)) {
                _cleanup_free_ char *kept = NULL;

                r = systemd_valid_group_names(v, e->value, &kept);
                if (r < 0)
                        return r;
                r = report(u, DIAG_WARNING, EFFECT_LINE_IGNORED, "mirror", f, e,
                           "%s; systemd %u skips the invalid names and keeps '%s'",
                           j->message ? j->message : "invalid names", v, kept);
                if (r < 0)
                        return r;
                return kept[0] ? unit_entry_set_edit(f, i, EDIT_REPLACE, kept)
                               : set_removed(u, f, i, "no valid group names");
        }

        switch (j->verdict) {
        case VERDICT_FATAL:
                if (!f->is_dropin)
                        return reject(u, "mirror", f, e, EFFECT_UNIT_FATAL,
                                      j->message ? j->message : "systemd refuses this value");
                /* systemd logs the error and skips the rest of the drop-in. */
                r = report(u, DIAG_WARNING, EFFECT_UNIT_FATAL, "mirror", f, e,
                           "%s; systemd %u skips the rest of this drop-in and starts the unit anyway",
                           j->message ? j->message : "invalid value", v);
                return r < 0 ? r : set_removed(u, f, i, "systemd skips the rest of this drop-in");
        case VERDICT_IGNORED:
                if (!j->directive && startswith(e->key, "X-"))
                        return 0;
                /* systemd drops the bad items of a list and keeps the rest:
                 * so does the line, which systemd reads the same way again. */
                if (j->partial)
                        return report(u, DIAG_WARNING, EFFECT_LINE_IGNORED, "mirror", f, e,
                                      "%s; systemd %u ignores the invalid items and keeps the rest",
                                      j->message ? j->message : "invalid items", v);
                r = report(u, DIAG_WARNING, EFFECT_LINE_IGNORED, "mirror", f, e, "%s; systemd %u ignores the line",
                           j->message ? j->message : "invalid value", v);
                return r < 0 ? r : set_removed(u, f, i, j->message ? j->message : "ignored by systemd");
        case VERDICT_NOTICE:
                return report(u, DIAG_NOTE, EFFECT_NONE, "mirror", f, e, "%s",
                              j->message ? j->message : "accepted with a notice");
        default:
                return 0;
        }
}

/* What the policy holds against one entry, if anything. */
typedef struct Violation {
        PolicyAction action;
        char *setting;         /* the deciding rule, e.g. "invalid.User" */
        char *why;
} Violation;

static void violation_done(Violation *v) {
        free(v->setting);
        free(v->why);
}

/* Fills *v and returns 1 when the policy objects to the entry, 0 when not. */
static int find_violation(UnitRun *u, const UnitFile *f, const UnitEntry *e, const JudgeContext *ctx,
                          const Judgement *j, Violation *v) {
        const Policy *p = u->p;
        _cleanup_free_ char *bad = NULL, *rule = NULL;
        int r;

        if (!j->directive) {
                const char *section = unit_entry_section(f, e);
                const Directive *later = directive_lookup(ctx->type, section, e->key);

                if (startswith(e->key, "X-"))
                        return 0;
                v->action = p->unknown_action;
                v->setting = strdup("unknown-directives");
                /* Known to a later systemd: say so, it is not a typo. */
                if (later && !directive_exists_in(later, ctx->version))
                        r = asprintf(&v->why, "%s= in [%s] is too new for systemd %u (it appeared in %u), which ignores it as unknown",
                                     e->key, section ? section : "", ctx->version, later->since);
                else
                        r = asprintf(&v->why, "Unknown directive '%s' in [%s]", e->key, section ? section : "");
                if (r < 0)
                        v->why = NULL;
                return 1;
        }

        if (e->value[0] == '\0' && (streq(e->key, "User") || streq(e->key, "Group"))) {
                if (!p->empty_user_rejects)
                        return 0;
                v->action = ACTION_FATAL;
                v->setting = strdup("user-names.empty-user");
                if (asprintf(&v->why, "Empty %s= resets it: the service would run %s", e->key,
                             streq(e->key, "User") ? "as root" : "with the root group") < 0)
                        v->why = NULL;
                return 1;
        }

        if (is_user_kind(j->directive) && e->value[0] && !j->dash_escaped) {
                /* The policy's own name rule decides, not systemd's. */
                r = policy_check_user_value(p, u->e->version, ctx, e->key, e->value, &bad, &rule);
                if (r < 0)
                        return r;
                if (r > 0) {
                        if (j->verdict == VERDICT_NOTICE)
                                return report(u, DIAG_NOTE, EFFECT_NONE, "user-names", f, e, "%s",
                                              j->message ? j->message : "systemd accepts this name with a notice");
                        return 0;
                }
                v->action = policy_action_for(p, e->key);
                if (asprintf(&v->setting, "invalid.%s", e->key) < 0)
                        v->setting = NULL;
                if (asprintf(&v->why, "%s '%s' breaks the policy's user-name rule (%s)", e->key, bad, rule) < 0)
                        v->why = NULL;
                return 1;
        }

        if (!j->invalid && j->verdict != VERDICT_FATAL && j->verdict != VERDICT_IGNORED)
                return 0;
        /* A leading '-' where systemd honours it means "ignore on error". */
        if (j->dash_escaped) {
                v->action = ACTION_DROP;
                v->setting = strdup("dash-prefix");
        } else {
                v->action = policy_action_for(p, e->key);
                if (asprintf(&v->setting, "invalid.%s", e->key) < 0)
                        v->setting = NULL;
        }
        v->why = strdup(j->message ? j->message : "Invalid value");
        return 1;
}

static int decide_enforce(UnitRun *u, UnitFile *f, size_t i, const JudgeContext *ctx, const Judgement *j,
                          bool *stop) {
        const UnitEntry *e = &f->entries[i];
        _cleanup_(violation_done) Violation v = {};
        SystemdEffect eff = effect_of(j->verdict);
        int r;

        r = find_violation(u, f, e, ctx, j, &v);
        if (r <= 0)
                return r;
        if (!v.setting || !v.why)
                return -ENOMEM;

        switch (v.action) {
        case ACTION_FATAL:
                if (f->is_dropin && !u->p->dropins_strict) {
                        r = report(u, DIAG_WARNING, EFFECT_UNIT_FATAL, v.setting, f, e,
                                   "%s; the rest of this drop-in is skipped, as systemd does", v.why);
                        *stop = true;
                        return r < 0 ? r : set_removed(u, f, i, v.why);
                }
                return reject(u, v.setting, f, e, eff, v.why);
        case ACTION_DROP:
                /* Removing a list whose bad items systemd skips would drop
                 * its good items too (a SystemCallFilter= would be lost). */
                if (j->partial && !j->dash_escaped)
                        return report(u, DIAG_WARNING, eff, v.setting, f, e,
                                      "%s; systemd ignores the invalid items, line kept", v.why);
                r = report(u, DIAG_WARNING, eff, v.setting, f, e, "%s; line removed", v.why);
                return r < 0 ? r : set_removed(u, f, i, v.why);
        case ACTION_WARN:
        default:
                return report(u, DIAG_WARNING, eff, v.setting, f, e, "%s", v.why);
        }
}

/* Decides on one entry, given systemd's view of it. *stop is set when
 * reading of the file ends here (as systemd does for a drop-in, in mirror
 * mode or with "drop-ins: systemd"). */
static int judge_entry(UnitRun *u, UnitFile *f, size_t fi, size_t i, const JudgeContext *ctx, bool *stop) {
        UnitEntry *e = &f->entries[i];
        const Judgement *j = prediction_line(&u->pred, fi, i);
        int r;

        if (!j)
                return 0;
        if (i == u->pred.files[fi].read_until && u->p->mode == MODE_MIRROR)
                *stop = true;

        if (j->deferred)
                return report(u, DIAG_NOTE, EFFECT_NONE, "deferred", f, e,
                              "The value depends on the instance name; it is checked for each instance, not in the template");

        /* systemd warns about the shared "nobody" identity at load time. */
        if (e->value[0] == 'n' &&
            ((streq(e->key, "User") && streq(e->value, "nobody")) ||
             (streq(e->key, "Group") && (streq(e->value, "nogroup") || streq(e->value, "nobody"))))) {
                r = report(u, DIAG_WARNING, EFFECT_NONE, "nobody", f, e,
                           "Special %s '%s' configured; systemd warns that this is not safe (files it owns are shared)",
                           streq(e->key, "User") ? "user" : "group", e->value);
                if (r < 0)
                        return r;
        }

        if (u->p->mode == MODE_MIRROR)
                return decide_mirror(u, f, i, j);
        return decide_enforce(u, f, i, ctx, j, stop);
}

/* systemd's view of unitguard's output: only entries that are written. */
static int track_output(UnitRun *u) {
        for (size_t fi = 0; fi < u->g->n_files; fi++) {
                const UnitFile *f = u->g->files[fi].file;

                if (!f || f->failed_line)
                        continue;
                for (size_t i = 0; i < f->n_entries; i++) {
                        const UnitEntry *e = &f->entries[i];
                        const char *section = unit_entry_section(f, e);
                        JudgeContext ctx = { .version = u->e->version, .type = f->type, .unit_name = u->g->name };
                        _cleanup_(judgement_done) Judgement j = {};
                        int r;

                        if (!section || e->edit == EDIT_DROP || e->edit == EDIT_COMMENT ||
                            f->sections[e->section].state != SECTION_KNOWN)
                                continue;
                        if (!streq(e->key, "User") && !streq(e->key, "DynamicUser"))
                                continue;
                        r = judge_assignment(&ctx, section, e->key,
                                             e->edit == EDIT_REPLACE ? e->edit_text : e->value, &j);
                        if (r < 0)
                                return r;
                        if (!identity_track(&u->out, f, e, j.verdict))
                                break;
                }
        }
        return 0;
}

static bool group_modified(const UnitGroup *g) {
        for (size_t fi = 0; fi < g->n_files; fi++)
                if (g->files[fi].file && unit_file_modified(g->files[fi].file))
                        return true;
        return false;
}

static int report_identity(UnitRun *u) {
        const Identity *s = &u->pred.identity;
        int r;

        /* A user manager cannot change user: User= naming anyone but the
         * manager's own user makes the start fail (status 217/USER). */
        if (u->e->user_scope) {
                if (s->user_named && s->user && *s->user)
                        return report(u, DIAG_WARNING, EFFECT_NONE, "user-manager", s->user_file, s->user_entry,
                                      "User=%s in a user unit: the user manager runs units as its own user; for any other user the start fails",
                                      s->user);
                return 0;
        }

        /* The finding that matters most: User= is named, yet systemd would
         * start the service as root. */
        if (s->user_named && identity_runs_as_root(s)) {
                r = report(u, u->p->mode == MODE_MIRROR ? DIAG_WARNING : DIAG_NOTE, EFFECT_NONE,
                           "runs-as-root", NULL, NULL,
                           "The unit names User=, but systemd %u would run it as root%s%s%s",
                           u->e->version, s->cut_file ? " (it skips the rest of " : "",
                           s->cut_file ? s->cut_file : "", s->cut_file ? ")" : "");
                if (r < 0)
                        return r;
        }
        if (u->p->mode == MODE_MIRROR || u->rejected)
                return 0;

        /* The promise, checked on the output itself: systemd's view of what
         * is written, which is the input's unless something was changed. */
        if (group_modified(u->g)) {
                r = track_output(u);
                if (r < 0)
                        return r;
        } else
                u->out = *s;
        if (s->user_named && identity_runs_as_root(&u->out)) {
                u->rejected = true;
                return report(u, DIAG_ERROR, EFFECT_NONE, "promise", NULL, NULL,
                              "The unit names User=, but as written out it would run as root; unit rejected");
        }
        return 0;
}

static int judge_file(UnitRun *u, size_t fi) {
        UnitFile *f = u->g->files[fi].file;
        const FilePrediction *fp = &u->pred.files[fi];
        const JudgeContext ctx = { .version = u->e->version, .type = f->type, .unit_name = u->g->name };
        int r;

        /* Over one of unitguard's own caps: never passed on half-read. */
        if (f->limit_line > 0)
                u->rejected = true;

        if (f->failed_line > 0) {
                if (!f->is_dropin || u->p->dropins_strict) {
                        u->rejected = true;
                        if (f->is_dropin)
                                return report(u, DIAG_ERROR, EFFECT_FILE_FAILED, "drop-ins", f, NULL,
                                              "systemd stops reading this drop-in at line %u and loads the unit anyway; unit rejected",
                                              f->failed_line);
                        return 0;
                }
                r = report(u, DIAG_WARNING, EFFECT_FILE_FAILED, "drop-ins", f, NULL,
                           "systemd stops reading this drop-in at line %u", f->failed_line);
                if (r < 0)
                        return r;
        }

        /* The plain lines the prediction leaves out of its notable ones
         * are none of the policy's business (judgement_is_plain()): only
         * the notable ones are looked at, unless a test asks for all. */
        for (size_t n = 0; n < (u->e->every_entry ? f->n_entries : fp->n_notable); n++) {
                size_t i = u->e->every_entry ? n : fp->notable[n];
                bool stop = false;

                /* (The notable ones are all in a known section; those
                 * listed for the unit checks may be plain.) */
                if (u->e->every_entry ? f->entries[i].section < 0 ||
                                                f->sections[f->entries[i].section].state != SECTION_KNOWN
                                      : judgement_is_plain(&fp->lines[i]))
                        continue;
                r = judge_entry(u, f, fi, i, &ctx, &stop);
                if (r < 0)
                        return r;
                if (stop) {
                        /* Whatever follows is not read: remove it too. */
                        for (size_t k = i + 1; k < f->n_entries; k++) {
                                r = set_removed(u, f, k, "after an error that ends this drop-in");
                                if (r < 0)
                                        return r;
                        }
                        break;
                }
                if (!f->is_dropin && i >= fp->read_until && u->p->mode == MODE_MIRROR)
                        break;
        }
        return 0;
}

/* The first answer, as a record on the unit: what systemd would do. */
static int record_prediction(UnitRun *u) {
        const Prediction *p = &u->pred;
        UnitPrediction *pr = &u->g->systemd;

        free(pr->user);
        *pr = (UnitPrediction) {
                .known = true,
                .version = p->version,
                .load_state = p->load_state,
                .dynamic_user = p->identity.dynamic_user,
                .starts_processes = p->starts_processes,
                .runs_as_root = p->runs_as_root,
        };
        if (p->identity.user) {
                pr->user = strdup(p->identity.user);
                if (!pr->user)
                        return -ENOMEM;
        }
        return 0;
}

int policy_engine_judge(void *userdata, UnitGroup *g) {
        PolicyEngine *e = userdata;
        _cleanup_(unit_run_done) UnitRun u;
        _cleanup_(ties_done) HwTieList ties = {};
        bool changed = false;
        int r;

        /* All of it zeroed, a field added later too; with plain stores, not
         * the rep stos an initializer of this size compiles to, whose
         * start-up is felt once per unit of a stream. */
        zero_small(&u, sizeof u);
        u.e = e;
        u.p = e->policy;
        u.g = g;
        /* What systemd does, before and without the policy. */
        r = systemd_predict(g, e->version, e->user_scope, e->cache, &u.pred);
        if (r < 0)
                return r;

        if (e->hw) {
                r = policy_hardware_unit_begin(e->hw, e->policy, g, &ties);
                if (r < 0)
                        return r;
        }
        for (size_t fi = 0; fi < g->n_files; fi++) {
                if (!g->files[fi].file)
                        continue;
                r = judge_file(&u, fi);
                if (r < 0)
                        return r;
        }

        if (u.pred.starts_processes) {
                r = report_identity(&u);
                if (r < 0)
                        return r;
        }
        /* systemd's checks of the unit as a whole (name, type): the
         * findings, when there are any. */
        if (u.pred.checks_ran && u.pred.checks->n > 0) {
                r = policy_unit_checks(e, g, u.pred.checks, &u.rejected);
                if (r < 0)
                        return r;
        }
        r = record_prediction(&u);
        if (r < 0)
                return r;
        /* (Policies without rewrites or require:/forbid: rules, as the
         * default one, skip the calls: each has nothing to do then.) */
        if (!u.rejected && u.p->n_rewrites > 0) {
                r = policy_apply_rewrites(u.p, g, e->user_scope, e->hw, e->hw ? &ties : NULL);
                if (r < 0)
                        return r;
                if (r > 0)
                        u.rejected = true;
        }
        /* The policy's require: and forbid: rules, on the unit as written. */
        if (u.p->n_assertions > 0) {
                r = policy_engine_assertions(e, g, e->hw ? &ties : NULL, &u.rejected);
                if (r < 0)
                        return r;
        }
        if (e->hw) {
                r = policy_hardware_unit_end(e->hw, e->policy, g, &ties);
                if (r < 0)
                        return r;
        }

        changed = group_modified(g);
        g->verdict = u.rejected ? GROUP_REJECTED : changed ? GROUP_CHANGED : GROUP_ACCEPTED;
        return 0;
}
