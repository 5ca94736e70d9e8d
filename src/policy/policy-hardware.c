/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Hardware conditions: evaluation, device ties of the unit, reports. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "basic/json-writer.h"
#include "policy-hardware.h"
#include "policy-internal.h"

static void strv_free_n(char **l, size_t n) {
        for (size_t i = 0; i < n; i++)
                free(l[i]);
        free(l);
}

HwMatch *hw_match_free(HwMatch *m) {
        if (!m)
                return NULL;
        strv_free_n(m->modalias, m->n_modalias);
        strv_free_n(m->subsystem, m->n_subsystem);
        strv_free_n(m->driver, m->n_driver);
        strv_free_n(m->node, m->n_node);
        free(m->property);
        strv_free_n(m->values, m->n_values);
        free(m->pattern);
        regex_free(m->re);
        free(m->text);
        free(m);
        return NULL;
}

void policy_hardware_done(PolicyHardware *h) {
        free(h->decisions);
        free(h->unit_decisions);
        h->decisions = h->unit_decisions = NULL;
        h->n_decisions = h->allocated_decisions = h->n_unit_decisions = h->allocated_unit_decisions = 0;
}

static void needs_of(const Condition *c, PolicyHardwareNeeds *n) {
        if (!c)
                return;
        if (c->kind == COND_HARDWARE) {
                n->devices = true;
                if (c->hw->property)
                        n->hwdb = true;
                if (c->hw->bound)
                        n->ties = true;
        } else if (c->kind == COND_DEVICE_TIED)
                n->ties = true;
        for (size_t i = 0; i < c->n_children; i++)
                needs_of(c->children[i], n);
}

void policy_hardware_needs(const Policy *p, PolicyHardwareNeeds *ret) {
        *ret = (PolicyHardwareNeeds) {};
        for (size_t i = 0; i < p->n_rewrites; i++)
                needs_of(p->rewrites[i].when, ret);
        for (size_t i = 0; i < p->n_assertions; i++) {
                needs_of(p->assertions[i].when, ret);
                needs_of(p->assertions[i].body, ret);
        }
}

int policy_hardware_load(const Policy *p, const HwOptions *o, const struct Root *root, bool report, HwContext *ctx,
                         DiagList *errors) {
        PolicyHardwareNeeds needs;
        int r = 0;

        policy_hardware_needs(p, &needs);
        if (!needs.devices && !needs.ties && !report)
                return 0;      /* nothing hardware-related is read */
        if (needs.devices || report)
                r = hw_context_load_devices(ctx, o, errors);
        if (r >= 0 && needs.hwdb)
                r = hw_context_load_hwdb(ctx, o, errors);
        if (r >= 0 && root && (needs.ties || report)) {
                r = hw_context_load_udev(ctx, root);
                if (r < 0 && r != -ENOMEM &&
                    diag_add(errors, DIAG_ERROR, EFFECT_NONE, "hardware.unreadable", o->root ? o->root : "/", 0,
                             NULL, NULL, "cannot read udev rules: %s", strerror(-r)) < 0)
                        r = -ENOMEM;
        }
        if (r == -ENOMEM)
                return r;
        return r < 0 ? -EIO : 1;
}

/* Adds the subsystems c's hardware conditions name to *l; false when one
 * names none, or a glob. */
static int collect_subsystems(const Condition *c, char ***l, size_t *n) {
        int r;

        if (!c)
                return 1;
        if (c->kind == COND_HARDWARE) {
                if (c->hw->n_subsystem == 0)
                        return 0;
                for (size_t i = 0; i < c->hw->n_subsystem; i++) {
                        const char *s = c->hw->subsystem[i];
                        char **nl;

                        if (strpbrk(s, "*?[\\"))
                                return 0;
                        nl = reallocarray_safe(*l, *n + 1, sizeof(char *));
                        if (!nl)
                                return -ENOMEM;
                        *l = nl;
                        (*l)[(*n)++] = (char *) s;
                }
        }
        for (size_t i = 0; i < c->n_children; i++) {
                r = collect_subsystems(c->children[i], l, n);
                if (r <= 0)
                        return r;
        }
        return 1;
}

int policy_hardware_load_lean(const Policy *p, const HwOptions *o, const struct Root *root, HwContext *ctx,
                              DiagList *errors) {
        _cleanup_free_ char **subsystems = NULL;
        PolicyHardwareNeeds needs;
        HwOptions lean = *o;
        size_t n = 0;
        int r = 1;

        policy_hardware_needs(p, &needs);
        for (size_t i = 0; r > 0 && i < p->n_rewrites; i++)
                r = collect_subsystems(p->rewrites[i].when, &subsystems, &n);
        for (size_t i = 0; r > 0 && i < p->n_assertions; i++) {
                r = collect_subsystems(p->assertions[i].when, &subsystems, &n);
                if (r > 0)
                        r = collect_subsystems(p->assertions[i].body, &subsystems, &n);
        }
        if (r < 0)
                return r;
        if (r > 0 && n > 0 && needs.devices && !needs.ties && !o->profile) {
                lean.subsystems = subsystems;
                lean.n_subsystems = n;
        }
        return policy_hardware_load(p, &lean, root, false, ctx, errors);
}

static bool any_glob(char *const *globs, size_t n, const char *s) {
        for (size_t i = 0; s && i < n; i++)
                if (fnmatch(globs[i], s, 0) == 0)
                        return true;
        return false;
}

static int value_matches(const HwMatch *m, CondContext *ctx, const char *v) {
        switch (m->value_match) {
        case MATCH_VALUE:
                for (size_t i = 0; i < m->n_values; i++)
                        if (streq(m->values[i], v))
                                return 1;
                return 0;
        case MATCH_GLOB:
                return any_glob(m->values, m->n_values, v);
        case MATCH_REGEX:
                return regex_match(ctx->matcher, m->re, v, NULL, NULL, &ctx->limit);
        default:
                return 1;
        }
}

/* 1 when the device has every property the match asks for. */
static int device_matches(const HwMatch *m, CondContext *ctx, const HwDevice *d) {
        if (m->n_modalias > 0 && !any_glob(m->modalias, m->n_modalias, d->modalias))
                return 0;
        if (m->n_subsystem > 0 && !any_glob(m->subsystem, m->n_subsystem, d->subsystem))
                return 0;
        if (m->n_driver > 0 && !any_glob(m->driver, m->n_driver, d->driver))
                return 0;
        if (m->n_node > 0) {
                bool hit = any_glob(m->node, m->n_node, d->devname);

                for (size_t i = 0; !hit && i < d->n_devlinks; i++)
                        hit = any_glob(m->node, m->n_node, d->devlinks[i]);
                if (!hit)
                        return 0;
        }
        if (m->property) {
                size_t i = 0;
                const char *v;

                while ((v = hw_device_property(d, m->property, &i))) {
                        int r = value_matches(m, ctx, v);

                        if (r != 0)
                                return r;
                }
                return 0;
        }
        return 1;
}

static int record(HwDecision **l, size_t *n, size_t *allocated, const HwDecision *d) {
        int r = GREEDY_REALLOC(*l, *allocated, *n + 1);

        if (r < 0)
                return r;
        (*l)[(*n)++] = *d;
        return 0;
}

/* The unit's bound devices: all present (and matching), at least one. */
static int eval_bound(const Condition *c, CondContext *ctx) {
        PolicyHardware *h = ctx->hw;
        HwDecision dc = { .cond = c };
        int result = 1, r;

        for (size_t i = 0; i < h->n_unit_decisions; i++)
                if (h->unit_decisions[i].cond == c)
                        return h->unit_decisions[i].result;
        for (size_t i = 0; ctx->ties && i < ctx->ties->n && result; i++) {
                const HwTie *t = &ctx->ties->items[i];
                const HwDevice *d;

                if (!t->bound || (!t->node && !t->subsystem))
                        continue;      /* per instance, or not a device of its own */
                dc.n_bound++;
                d = hw_tie_device(h->ctx, t);
                if (!d) {
                        dc.missing = t->node ? t->node : t->via;
                        result = 0;
                        break;
                }
                r = device_matches(c->hw, ctx, d);
                if (r < 0)
                        return r;
                if (r == 0)
                        result = 0;
                if (!dc.device || r == 0)
                        dc.device = d;
        }
        if (dc.n_bound == 0)
                result = 0;
        dc.result = result;
        r = record(&h->unit_decisions, &h->n_unit_decisions, &h->allocated_unit_decisions, &dc);
        return r < 0 ? r : result;
}

int condition_eval_hardware(const Condition *c, CondContext *ctx) {
        PolicyHardware *h = ctx->hw;
        HwDecision dc = { .cond = c };
        int r;

        if (c->kind == COND_DEVICE_TIED) {
                if (!ctx->ties)
                        return -ENODEV;
                if (c->n_strings > 0) {        /* device-tied: bound */
                        for (size_t i = 0; i < ctx->ties->n; i++)
                                if (ctx->ties->items[i].bound &&
                                    (ctx->ties->items[i].node || ctx->ties->items[i].subsystem))
                                        return 1;
                        return 0;
                }
                return (ctx->ties->n > 0) == c->flag;
        }
        if (!h || !h->ctx || !h->ctx->have_devices)
                return -ENODEV;
        if (c->hw->bound)
                return eval_bound(c, ctx);
        for (size_t i = 0; i < h->n_decisions; i++)
                if (h->decisions[i].cond == c)
                        return h->decisions[i].result;
        for (size_t i = 0; i < h->ctx->devices.n && !dc.result; i++) {
                r = device_matches(c->hw, ctx, &h->ctx->devices.devices[i]);
                if (r < 0)
                        return r;      /* a regex limit: not decided, not remembered */
                if (r > 0) {
                        dc.result = 1;
                        dc.device = &h->ctx->devices.devices[i];
                }
        }
        r = record(&h->decisions, &h->n_decisions, &h->allocated_decisions, &dc);
        return r < 0 ? r : dc.result;
}

int policy_hardware_unit_begin(PolicyHardware *h, const Policy *p, const UnitGroup *g, HwTieList *ties) {
        h->n_unit_decisions = 0;
        return hw_unit_ties(g, h->ctx && h->ctx->have_udev ? &h->ctx->udev : NULL, p->device_units, p->n_device_units,
                            h->version ? h->version : p->target, h->user_scope, ties);
}

static const char *tie_target(const HwTie *t, char *buf, size_t size) {
        if (t->node)
                return t->node;
        if (t->subsystem) {
                snprintf(buf, size, "%s device %s", t->subsystem, t->sysname);
                return buf;
        }
        if (t->udev)
                return t->udev->match[0] ? t->udev->match : "any device";
        return NULL;
}

static int device_json(StrBuf *b, const HwDevice *d) {
        int r = strbuf_append_str(b, "{\"syspath\":");

        if (r >= 0)
                r = json_append_cstring(b, d->syspath);
        if (r >= 0)
                r = strbuf_append_str(b, ",\"modalias\":");
        if (r >= 0)
                r = d->modalias ? json_append_cstring(b, d->modalias) : strbuf_append_str(b, "null");
        if (r >= 0)
                r = strbuf_append_str(b, ",\"node\":");
        if (r >= 0)
                r = d->devname ? json_append_cstring(b, d->devname) : strbuf_append_str(b, "null");
        if (r >= 0)
                r = strbuf_append_char(b, '}');
        return r;
}

static int ties_json(const PolicyHardware *h, const HwTieList *ties, StrBuf *b) {
        char buf[512];
        int r = strbuf_append_str(b, ",\"device_ties\":[");

        for (size_t i = 0; r >= 0 && i < ties->n; i++) {
                const HwTie *t = &ties->items[i];
                const char *target = tie_target(t, buf, sizeof(buf));
                const HwDevice *d = hw_tie_device(h->ctx, t);

                r = strbuf_printf(b, "%s{\"kind\":\"%s\",\"via\":", i > 0 ? "," : "", hw_tie_kind_to_string(t->kind));
                if (r >= 0)
                        r = json_append_cstring(b, t->via);
                if (r >= 0)
                        r = strbuf_append_str(b, ",\"device\":");
                if (r >= 0)
                        r = target ? json_append_cstring(b, target) : strbuf_append_str(b, "null");
                if (r >= 0)
                        r = strbuf_printf(b, ",\"bound\":%s,\"file\":", t->bound ? "true" : "false");
                if (r >= 0)
                        r = t->file ? json_append_cstring(b, t->file) : strbuf_append_str(b, "null");
                if (r >= 0)
                        r = t->line > 0 ? strbuf_printf(b, ",\"line\":%u", t->line) : strbuf_append_str(b, ",\"line\":null");
                if (r >= 0)
                        r = strbuf_append_str(b, ",\"present\":");
                if (r >= 0 && !h->ctx->have_devices)
                        r = strbuf_append_str(b, "null");
                else if (r >= 0 && (target || t->kind == HW_TIE_UDEV) && d)
                        r = device_json(b, d);
                else if (r >= 0)
                        r = strbuf_append_str(b, target || t->kind == HW_TIE_UDEV ? "false" : "null");
                if (r >= 0)
                        r = strbuf_append_char(b, '}');
        }
        return r < 0 ? r : strbuf_append_char(b, ']');
}

/* The presence of a tie's device in words, for its note. */
static const char *presence(const PolicyHardware *h, const HwTie *t, const char *target, const HwDevice **ret) {
        *ret = NULL;
        if (!h->ctx->have_devices || (!target && t->kind != HW_TIE_UDEV))
                return "";
        if (t->kind == HW_TIE_UDEV && !t->udev->simple)
                return "; presence not decided (the rule's match keys are not simple)";
        *ret = hw_tie_device(h->ctx, t);
        return *ret ? "; present: " : "; absent";
}

int policy_hardware_unit_end(PolicyHardware *h, const Policy *p, UnitGroup *g, const HwTieList *ties) {
        _cleanup_(strbuf_done) StrBuf json = {};
        _cleanup_free_ char *rule = NULL;
        char buf[512];
        int r;

        if (ties->n > 0)
                h->n_tied_units++;
        if (asprintf(&rule, "%s:hardware", p->name) < 0)
                return -ENOMEM;
        /* bound-device conditions are decided per unit: say how, once per
         * wording, for units bound to some device. */
        for (size_t i = 0; i < h->n_unit_decisions; i++) {
                const HwDecision *dc = &h->unit_decisions[i];
                bool seen = false;

                for (size_t k = 0; k < i && !seen; k++)
                        seen = streq(h->unit_decisions[k].cond->hw->text, dc->cond->hw->text);
                if (seen || dc->n_bound == 0)
                        continue;
                r = diag_add(&g->diags, DIAG_NOTE, EFFECT_NONE, rule, unit_group_display_path(g), 0, NULL, NULL,
                             "hardware condition %s: %s%s%s", dc->cond->hw->text,
                             dc->result ? "holds, device " : "does not hold",
                             dc->missing ? ": absent: " : dc->device && !dc->result ? ", device " : "",
                             dc->missing ? dc->missing : dc->device ? hw_device_label(dc->device) : "");
                if (r < 0)
                        return r;
        }
        if (!h->report)
                return 0;
        for (size_t i = 0; i < ties->n; i++) {
                const HwTie *t = &ties->items[i];
                const char *target = tie_target(t, buf, sizeof(buf));
                const HwDevice *d;
                const char *pres = presence(h, t, target, &d);

                r = diag_add(&g->diags, DIAG_NOTE, EFFECT_NONE, "hardware.device-tie",
                             t->file && t->kind != HW_TIE_UDEV ? t->file : unit_group_display_path(g),
                             t->kind != HW_TIE_UDEV ? t->line : 0, NULL, NULL, "device-tied (%s): %s%s%s%s%s",
                             hw_tie_kind_to_string(t->kind), t->via, target ? " -> " : "", target ? target : "", pres,
                             d ? hw_device_label(d) : "");
                if (r < 0)
                        return r;
        }
        r = ties_json(h, ties, &json);
        if (r < 0)
                return r;
        free(g->extra_json);
        g->extra_json = strbuf_steal(&json);
        return g->extra_json ? 0 : -ENOMEM;
}

/* Which rule a condition belongs to: "require.ID", "rewrite.ID", ... */
static bool contains(const Condition *tree, const Condition *c) {
        if (!tree)
                return false;
        if (tree == c)
                return true;
        for (size_t i = 0; i < tree->n_children; i++)
                if (contains(tree->children[i], c))
                        return true;
        return false;
}

static int owner(const Policy *p, const Condition *c, char **ret) {
        for (size_t i = 0; i < p->n_rewrites; i++)
                if (contains(p->rewrites[i].when, c))
                        return asprintf(ret, "rewrite.%s", p->rewrites[i].id) < 0 ? -ENOMEM : 0;
        for (size_t i = 0; i < p->n_assertions; i++)
                if (contains(p->assertions[i].when, c) || contains(p->assertions[i].body, c))
                        return asprintf(ret, "%s.%s", p->assertions[i].forbid ? "forbid" : "require",
                                        p->assertions[i].id) < 0
                                       ? -ENOMEM
                                       : 0;
        *ret = strdup("?");
        return *ret ? 0 : -ENOMEM;
}

int policy_hardware_report(const PolicyHardware *h, const Policy *p, DiagList *out) {
        _cleanup_free_ char *rule = NULL;
        int r;

        if (!h->ctx || !h->ctx->have_devices)
                return 0;
        if (asprintf(&rule, "%s:hardware", p->name) < 0)
                return -ENOMEM;
        r = diag_add(out, DIAG_NOTE, EFFECT_NONE, rule, p->source, 0, NULL, NULL,
                     "hardware: %zu devices from %s%s%s", h->ctx->devices.n, h->ctx->devices.source,
                     h->ctx->hwdb_source ? ", hwdb properties from " : "",
                     h->ctx->hwdb_source ? h->ctx->hwdb_source : "");
        for (size_t i = 0; r >= 0 && i < h->n_decisions; i++) {
                const HwDecision *dc = &h->decisions[i];
                _cleanup_free_ char *who = NULL;

                r = owner(p, dc->cond, &who);
                if (r >= 0)
                        r = diag_add(out, DIAG_NOTE, EFFECT_NONE, rule, p->source, 0, NULL, NULL,
                                     "hardware condition %s of %s: %s%s", dc->cond->hw->text, who,
                                     dc->result ? "holds, device " : "does not hold: no device matches",
                                     dc->device ? hw_device_label(dc->device) : "");
        }
        return r;
}

int policy_hardware_json(const PolicyHardware *h, const Policy *p, StrBuf *b) {
        int r;

        if (!h->ctx || !h->ctx->have_devices)
                return strbuf_append_str(b, "null");
        r = strbuf_append_str(b, "{\"devices_from\":");
        if (r >= 0)
                r = json_append_cstring(b, h->ctx->devices.source);
        if (r >= 0)
                r = strbuf_printf(b, ",\"devices\":%zu,\"hwdb\":", h->ctx->devices.n);
        if (r >= 0)
                r = h->ctx->hwdb_source ? json_append_cstring(b, h->ctx->hwdb_source) : strbuf_append_str(b, "null");
        if (r >= 0)
                r = strbuf_printf(b, ",\"tied_units\":%zu,\"conditions\":[", h->n_tied_units);
        for (size_t i = 0; r >= 0 && i < h->n_decisions; i++) {
                const HwDecision *dc = &h->decisions[i];
                _cleanup_free_ char *who = NULL;

                r = owner(p, dc->cond, &who);
                if (r >= 0)
                        r = strbuf_append_str(b, i > 0 ? ",{\"rule\":" : "{\"rule\":");
                if (r >= 0)
                        r = json_append_cstring(b, who);
                if (r >= 0)
                        r = strbuf_append_str(b, ",\"condition\":");
                if (r >= 0)
                        r = json_append_cstring(b, dc->cond->hw->text);
                if (r >= 0)
                        r = strbuf_printf(b, ",\"holds\":%s,\"device\":", dc->result ? "true" : "false");
                if (r >= 0)
                        r = dc->device ? device_json(b, dc->device) : strbuf_append_str(b, "null");
                if (r >= 0)
                        r = strbuf_append_char(b, '}');
        }
        return r < 0 ? r : strbuf_append_str(b, "]}");
}
