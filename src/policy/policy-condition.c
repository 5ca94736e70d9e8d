/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Conditions on a unit: evaluation against its effective values. */
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "policy-condition.h"
#include "policy-hardware.h"
#include "validate/directive-table.h"
#include "validate/parse-util.h"

Condition *condition_free(Condition *c) {
        if (!c)
                return NULL;
        for (size_t i = 0; i < c->n_children; i++)
                condition_free(c->children[i]);
        free(c->children);
        for (size_t i = 0; i < c->n_strings; i++)
                free(c->strings[i]);
        free(c->strings);
        free(c->section);
        free(c->key);
        free(c->pattern);
        regex_free(c->re);
        hw_match_free(c->hw);
        free(c);
        return NULL;
}

static bool entry_live(const UnitEntry *e) {
        return e->edit != EDIT_DROP && e->edit != EDIT_COMMENT;
}

static int push(CondValue **v, size_t *n, size_t *allocated, bool list, CondValue x) {
        int r;

        if (!x.value[0]) {
                *n = 0;        /* "Key=" resets */
                return 0;
        }
        if (!list)
                *n = 0;
        r = GREEDY_REALLOC(*v, *allocated, *n + 1);
        if (r < 0)
                return r;
        (*v)[(*n)++] = x;
        return 0;
}

int condition_key_values(const UnitGroup *g, const char *section, const char *key, CondValue **ret,
                         size_t *ret_n) {
        _cleanup_free_ CondValue *v = NULL;
        size_t n = 0, allocated = 0;
        bool list = false;
        int r;

        if (g->n_files > 0 && g->files[0].file) {
                const Directive *d = directive_lookup(g->files[0].file->type, section, key);

                list = d && d->list;
        }
        r = GREEDY_REALLOC(v, allocated, 1);
        if (r < 0)
                return r;
        for (size_t fi = 0; fi < g->n_files; fi++) {
                const UnitFile *f = g->files[fi].file;

                if (!f)
                        continue;
                for (size_t i = 0; i < f->n_entries; i++) {
                        const UnitEntry *e = &f->entries[i];
                        const char *s = unit_entry_section(f, e);
                        const char *k = e->edit == EDIT_REPLACE && e->edit_key ? e->edit_key : e->key;

                        if (!s || !entry_live(e) || f->sections[e->section].state != SECTION_KNOWN ||
                            !streq(s, section) || !streq(k, key))
                                continue;
                        r = push(&v, &n, &allocated, list,
                                 (CondValue) { e->edit == EDIT_REPLACE && e->edit_text ? e->edit_text : e->value,
                                               f, e });
                        if (r < 0)
                                return r;
                }
                /* Additions are values of the file's text: they stay valid
                 * as long as the group does. */
                for (size_t i = 0; i < f->n_inserts; i++) {
                        const UnitInsert *in = &f->inserts[i];
                        const char *eq;

                        if (!streq(in->section, section) || !streq(in->key, key))
                                continue;
                        eq = strchr(in->text, '=');
                        if (!eq)
                                continue;
                        r = push(&v, &n, &allocated, list, (CondValue) { eq + 1, NULL, NULL });
                        if (r < 0)
                                return r;
                }
        }
        *ret = TAKE_PTR(v);
        *ret_n = n;
        return 0;
}

/* Compares a value with the inserted line's terminator left out. */
static size_t value_len(const CondValue *v) {
        const char *nl = v->f ? NULL : strchr(v->value, '\n');

        return nl ? (size_t) (nl - v->value) : strlen(v->value);
}

/* A command line of an Exec*= key is matched without the prefix characters
 * that change how systemd runs it ("-", "@", ":", "+", "!", "!!"), so that
 * a glob on /opt holds for "-/opt/app" too. */
static const char *command_without_prefix(const char *key, const char *value) {
        if (!startswith(key, "Exec"))
                return value;
        while (*value && strchr("-@:+!", *value))
                value++;
        return value;
}

static int value_matches(const Condition *c, CondContext *ctx, const CondValue *cv) {
        _cleanup_free_ char *copy = NULL;
        const char *value = cv->value;

        if (!cv->f) {
                copy = strndup(cv->value, value_len(cv));
                if (!copy)
                        return -ENOMEM;
                value = copy;
        }
        value = command_without_prefix(c->key, value);
        switch (c->match) {
        case MATCH_VALUE:
                for (size_t i = 0; i < c->n_strings; i++)
                        if (streq(c->strings[i], value))
                                return 1;
                return 0;
        case MATCH_GLOB:
                for (size_t i = 0; i < c->n_strings; i++)
                        if (fnmatch(c->strings[i], value, 0) == 0)
                                return 1;
                return 0;
        case MATCH_REGEX:
                return regex_match(ctx->matcher, c->re, value, NULL, NULL, &ctx->limit);
        case MATCH_BOOL: {
                int b = parse_boolean(value);

                return b >= 0 && (b > 0) == c->flag;
        }
        case MATCH_SET:
        default:
                return 1;
        }
}

static int eval_key(const Condition *c, CondContext *ctx) {
        _cleanup_free_ CondValue *v = NULL;
        size_t n = 0, hits = 0;
        int r;

        r = condition_key_values(ctx->g, c->section, c->key, &v, &n);
        if (r < 0)
                return r;
        if (c->match == MATCH_SET)
                return n > 0;
        for (size_t i = 0; i < n; i++) {
                r = value_matches(c, ctx, &v[i]);
                if (r < 0)
                        return r;
                hits += r > 0;
        }
        switch (c->quant) {
        case QUANT_ALL:
                return n > 0 && hits == n;
        case QUANT_NONE:
                return hits == 0;
        case QUANT_ANY:
        default:
                return hits > 0;
        }
}

static bool any_glob(char *const *globs, size_t n, const char *s) {
        for (size_t i = 0; s && i < n; i++)
                if (fnmatch(globs[i], s, 0) == 0)
                        return true;
        return false;
}

int condition_eval(const Condition *c, CondContext *ctx) {
        const UnitGroup *g = ctx->g;
        const UnitFile *main_file = g->n_files > 0 ? g->files[0].file : NULL;
        int r;

        if (!c)
                return 1;
        switch (c->kind) {
        case COND_ALL:
        case COND_ANY:
                for (size_t i = 0; i < c->n_children; i++) {
                        r = condition_eval(c->children[i], ctx);
                        if (r < 0)
                                return r;
                        if ((r > 0) == (c->kind == COND_ANY))
                                return r > 0;
                }
                return c->kind == COND_ALL;
        case COND_NOT:
                r = condition_eval(c->children[0], ctx);
                return r < 0 ? r : !r;
        case COND_UNIT_TYPE: {
                UnitType t = main_file ? main_file->type : _UNIT_TYPE_INVALID;

                return t >= 0 && (c->unit_types & UNIT_TYPE_BIT(t));
        }
        case COND_UNIT_NAME:
                return any_glob(c->strings, c->n_strings, g->name);
        case COND_PATH:
                for (size_t fi = 0; fi < g->n_files; fi++)
                        if (g->files[fi].file && any_glob(c->strings, c->n_strings, g->files[fi].file->path))
                                return 1;
                return 0;
        case COND_SCOPE:
                return ctx->user_scope == c->flag;
        case COND_RUNS_AS_ROOT:
                return g->systemd.runs_as_root == c->flag;
        case COND_KEY:
                return eval_key(c, ctx);
        case COND_HARDWARE:
        case COND_DEVICE_TIED:
                return condition_eval_hardware(c, ctx);
        }
        return 0;
}
