/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* require: and forbid: rules on one unit, with waivers from the policy
 * and from comments in the unit's files. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "policy-condition.h"
#include "policy-engine.h"
#include "policy-internal.h"

/* "# unitguard: allow RULE -- reason" (or ';'), parsed in place of a
 * physical line [s, end). */
typedef struct InlineWaiver {
        const char *rule, *reason;     /* pointers into the line */
        size_t rule_len, reason_len;   /* reason_len 0: no reason given */
} InlineWaiver;

static const char *skip_blanks(const char *s, const char *end) {
        while (s < end && (*s == ' ' || *s == '\t'))
                s++;
        return s;
}

/* 1 when the line is a waiver comment, 0 when not. */
static int parse_inline(const char *s, const char *end, InlineWaiver *w) {
        const char *dash;

        s = skip_blanks(s, end);
        if (s >= end || (*s != '#' && *s != ';'))
                return 0;
        s = skip_blanks(s + 1, end);
        if ((size_t) (end - s) < 10 || strncmp(s, "unitguard:", 10) != 0)
                return 0;
        s = skip_blanks(s + 10, end);
        if ((size_t) (end - s) < 6 || strncmp(s, "allow", 5) != 0 || (s[5] != ' ' && s[5] != '\t'))
                return 0;
        s = skip_blanks(s + 5, end);
        *w = (InlineWaiver) { .rule = s };
        while (s < end && *s != ' ' && *s != '\t' && *s != '\r')
                s++;
        w->rule_len = (size_t) (s - w->rule);
        s = skip_blanks(s, end);
        dash = s;
        if ((size_t) (end - dash) >= 2 && dash[0] == '-' && dash[1] == '-') {
                const char *r = skip_blanks(dash + 2, end), *e = end;

                while (e > r && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
                        e--;
                w->reason = r;
                w->reason_len = (size_t) (e - r);
        }
        return w->rule_len > 0;
}

/* Whether a waiver's rule names the finding (kind "forbid"/"require"). */
static bool rule_names(const char *w, size_t n, const char *policy, const Assertion *a) {
        const char *kind = a->forbid ? "forbid" : "require";
        size_t pl = strlen(policy), kl = strlen(kind);

        if (n == strlen(a->id) && strncmp(w, a->id, n) == 0)
                return true;
        if (n > pl + 1 && strncmp(w, policy, pl) == 0 && w[pl] == ':') {
                w += pl + 1;
                n -= pl + 1;
        }
        return n == kl + 1 + strlen(a->id) && strncmp(w, kind, kl) == 0 && w[kl] == '.' &&
               strncmp(w + kl + 1, a->id, n - kl - 1) == 0;
}

/* A waiver comment of f that names the rule: before the first section
 * header (top == true), or on physical line `line`. */
static bool find_inline(const UnitFile *f, unsigned line, bool top, const char *policy, const Assertion *a,
                        InlineWaiver *ret) {
        const char *s = f->data, *end = f->data + f->size;

        for (unsigned n = 1; s < end; n++) {
                const char *nl = memchr(s, '\n', (size_t) (end - s)), *le = nl ? nl : end;
                InlineWaiver w;

                if (top && *skip_blanks(s, le) == '[')
                        return false;
                if ((top || n == line) && parse_inline(s, le, &w) && w.reason_len > 0 &&
                    rule_names(w.rule, w.rule_len, policy, a)) {
                        *ret = w;
                        return true;
                }
                if (!top && n >= line)
                        return false;
                s = nl ? nl + 1 : end;
        }
        return false;
}

/* Waiver comments without a reason do not apply: say so, once per comment. */
static int warn_reasonless(const Policy *p, UnitFile *f) {
        _cleanup_free_ char *rule = NULL;
        const char *s = f->data, *end = f->data + f->size;
        int r;

        for (unsigned n = 1; s < end; n++) {
                const char *nl = memchr(s, '\n', (size_t) (end - s)), *le = nl ? nl : end;
                InlineWaiver w;

                if (parse_inline(s, le, &w) && w.reason_len == 0) {
                        if (!rule && asprintf(&rule, "%s:waiver", p->name) < 0)
                                return -ENOMEM;
                        r = diag_add(&f->diags, DIAG_WARNING, EFFECT_NONE, rule, f->path, n, NULL, NULL,
                                     "The waiver of %.*s gives no reason ('-- REASON'), so it does not apply",
                                     (int) w.rule_len, w.rule);
                        if (r < 0)
                                return r;
                }
                s = nl ? nl + 1 : end;
        }
        return 0;
}

/* Where a broken rule points: the entry that decided it, if one did. */
static int witness(const Condition *c, CondContext *ctx, bool want, const UnitFile **ret_f,
                   const UnitEntry **ret_e) {
        _cleanup_free_ CondValue *v = NULL;
        size_t n = 0;
        int r;

        if (c->kind == COND_KEY) {
                r = condition_key_values(ctx->g, c->section, c->key, &v, &n);
                if (r < 0)
                        return r;
                if (n > 0 && v[n - 1].f) {
                        *ret_f = v[n - 1].f;
                        *ret_e = v[n - 1].e;
                        return 1;
                }
                return 0;
        }
        if (!want || (c->kind != COND_ANY && c->kind != COND_ALL))
                return 0;
        for (size_t i = 0; i < c->n_children; i++) {
                r = condition_eval(c->children[i], ctx);
                if (r == -E2BIG || r == -ENODEV)
                        continue;      /* not evaluated for the verdict: no witness */
                if (r > 0)
                        r = witness(c->children[i], ctx, want, ret_f, ret_e);
                if (r != 0)
                        return r;
        }
        return 0;
}

static int check_one(PolicyEngine *e, UnitGroup *g, const Assertion *a, CondContext *ctx, bool *rejected) {
        const Policy *p = e->policy;
        _cleanup_free_ char *rule = NULL, *msg = NULL;
        const UnitFile *wf = NULL;
        const UnitEntry *we = NULL;
        const char *reason = NULL;
        InlineWaiver iw;
        int reason_len = 0, r;
        DiagSeverity sev = (DiagSeverity) a->severity;

        r = condition_eval(a->when, ctx);
        if (r == 0)
                return 0;      /* the rule does not apply to the unit */
        if (r > 0)
                r = condition_eval(a->body, ctx);
        if (asprintf(&rule, "%s:%s.%s", p->name, a->forbid ? "forbid" : "require", a->id) < 0)
                return -ENOMEM;
        if (r == -E2BIG) {
                *rejected = true;
                return diag_add(&g->diags, DIAG_ERROR, EFFECT_NONE, rule, unit_group_display_path(g), 0, NULL, NULL,
                                "A regex of the rule hit its %s, so the rule cannot be decided; unit rejected",
                                ctx->limit ? ctx->limit : "limit");
        }
        if (r == -ENODEV) {
                *rejected = true;
                return diag_add(&g->diags, DIAG_ERROR, EFFECT_NONE, rule, unit_group_display_path(g), 0, NULL, NULL,
                                "The rule has a hardware condition, but no devices were read to decide it; unit rejected");
        }
        if (r < 0)
                return r;
        if ((r > 0) != a->forbid)
                return 0;      /* kept */

        r = witness(a->body, ctx, a->forbid, &wf, &we);
        if (r < 0)
                return r;

        /* Waivers: the policy's first, then comments in the files. */
        for (size_t i = 0; i < p->n_waivers && !reason; i++) {
                const PolicyWaiver *w = &p->waivers[i];

                if (rule_names(w->rule, strlen(w->rule), p->name, a) && g->name &&
                    fnmatch(w->unit, g->name, 0) == 0) {
                        e->waivers_used[i / 64] |= UINT64_C(1) << (i % 64);
                        reason = w->reason;
                        reason_len = (int) strlen(reason);
                }
        }
        if (!reason && we && find_inline(wf, we->line_first - 1, false, p->name, a, &iw))
                reason = iw.reason, reason_len = (int) iw.reason_len;
        for (size_t fi = 0; !reason && fi < g->n_files; fi++) {
                const UnitFile *f = g->files[fi].file;

                if (f && (!wf || f == wf) && find_inline(f, 0, true, p->name, a, &iw))
                        reason = iw.reason, reason_len = (int) iw.reason_len;
        }

        if (reason) {
                e->n_waived++;
                sev = DIAG_NOTE;
                r = asprintf(&msg, "waived: %.*s", reason_len, reason);
        } else if (a->description)
                r = asprintf(&msg, "%s%s", a->description, sev == DIAG_ERROR ? "; unit rejected" : "");
        else
                r = asprintf(&msg, "The unit breaks %s rule '%s'%s", a->forbid ? "forbid" : "require", a->id,
                             sev == DIAG_ERROR ? "; unit rejected" : "");
        if (r < 0)
                return -ENOMEM;
        if (sev == DIAG_ERROR)
                *rejected = true;
        if (we)
                return diag_add(&((UnitFile *) wf)->diags, sev, EFFECT_NONE, rule, wf->path, we->line_last,
                                unit_entry_section(wf, we), we->key, "%s", msg);
        return diag_add(&g->diags, sev, EFFECT_NONE, rule, unit_group_display_path(g), 0,
                        a->body->kind == COND_KEY ? a->body->section : NULL,
                        a->body->kind == COND_KEY ? a->body->key : NULL, "%s", msg);
}

int policy_engine_assertions(PolicyEngine *e, UnitGroup *g, const struct HwTieList *ties, bool *rejected) {
        const Policy *p = e->policy;
        CondContext ctx = { .matcher = &p->matcher, .g = g, .user_scope = e->user_scope, .hw = e->hw, .ties = ties };
        int r;

        if (p->n_assertions == 0)
                return 0;
        for (size_t fi = 0; fi < g->n_files; fi++)
                if (g->files[fi].file) {
                        r = warn_reasonless(p, g->files[fi].file);
                        if (r < 0)
                                return r;
                }
        for (size_t i = 0; i < p->n_assertions; i++) {
                r = check_one(e, g, &p->assertions[i], &ctx, rejected);
                if (r < 0)
                        return r;
        }
        return 0;
}

int policy_engine_unused_waivers(const PolicyEngine *e, DiagList *out) {
        const Policy *p = e->policy;
        _cleanup_free_ char *rule = NULL;
        int r;

        for (size_t i = 0; i < p->n_waivers; i++) {
                const PolicyWaiver *w = &p->waivers[i];

                if (e->waivers_used[i / 64] & (UINT64_C(1) << (i % 64)))
                        continue;
                if (!rule && asprintf(&rule, "%s:waiver", p->name) < 0)
                        return -ENOMEM;
                r = diag_add(out, DIAG_WARNING, EFFECT_NONE, rule, w->file, w->line, NULL, NULL,
                             "The waiver of %s for units '%s' was not used: no finding matched it", w->rule, w->unit);
                if (r < 0)
                        return r;
        }
        return 0;
}
