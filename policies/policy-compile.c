/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Build step: loads each shipped policy through the YAML loader (extends:
 * resolved) and writes C that rebuilds the effective Policy, so that a run
 * with a shipped policy parses no YAML (see src/policy/policy-builtin.h).
 *
 *   policy-compile OUTPUT.c NAME...     write the compiled policies
 *   policy-compile --show NAME          the YAML-loaded policy as `policy show`
 *                                       writes it (for the equivalence test)
 *
 * The generated code allocates like the loader, so policy_free() releases
 * both alike; every allocation is checked. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy-condition.h"
#include "policy/policy-hardware.h"
#include "policy/policy.h"

typedef struct Emit {
        FILE *f;
        const char *prefix;    /* of the policy's functions */
        unsigned n_conds;
} Emit;

/* A C string literal: printable ASCII as is, everything else octal. */
static void literal(FILE *f, const char *s) {
        if (!s) {
                fputs("NULL", f);
                return;
        }
        fputc('"', f);
        for (; *s; s++) {
                unsigned char c = (unsigned char) *s;

                if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?')
                        fputc(c, f);
                else
                        fprintf(f, "\\%03o", c);
        }
        fputc('"', f);
}

static void str(Emit *e, const char *dst, const char *s) {
        if (!s)
                return;
        fprintf(e->f, "        S(%s, ", dst);
        literal(e->f, s);
        fputs(");\n", e->f);
}

/* One function per condition node, children first; returns its number. */
static unsigned condition(Emit *e, const Condition *c) {
        unsigned *kids = calloc(c->n_children ? c->n_children : 1, sizeof(unsigned)), id;

        if (!kids) {
                fputs("out of memory\n", stderr);
                exit(EXIT_FAILURE);
        }
        for (size_t i = 0; i < c->n_children; i++)
                kids[i] = condition(e, c->children[i]);
        id = e->n_conds++;
        fprintf(e->f, "static int %s_c%u(Condition **ret) {\n", e->prefix, id);
        fputs("        Condition *c = *ret = calloc(1, sizeof(Condition));\n\n"
              "        if (!c)\n                return -ENOMEM;\n", e->f);
        fprintf(e->f, "        c->kind = (ConditionKind) %d;\n", (int) c->kind);
        if (c->n_children) {
                fprintf(e->f, "        A(c->children, %zu, Condition *);\n        c->n_children = %zu;\n",
                        c->n_children, c->n_children);
                for (size_t i = 0; i < c->n_children; i++)
                        fprintf(e->f, "        if (%s_c%u(&c->children[%zu]) < 0)\n                return -ENOMEM;\n",
                                e->prefix, kids[i], i);
        }
        fprintf(e->f, "        c->unit_types = %uU;\n", c->unit_types);
        /* strv() names the count after the array: c->n_strings. */
        if (c->n_strings) {
                fprintf(e->f, "        A(c->strings, %zu, char *);\n        c->n_strings = %zu;\n", c->n_strings,
                        c->n_strings);
                for (size_t i = 0; i < c->n_strings; i++) {
                        char item[64];

                        snprintf(item, sizeof(item), "c->strings[%zu]", i);
                        str(e, item, c->strings[i]);
                }
        }
        fprintf(e->f, "        c->flag = %s;\n", c->flag ? "true" : "false");
        str(e, "c->section", c->section);
        str(e, "c->key", c->key);
        fprintf(e->f, "        c->match = (CondMatch) %d;\n        c->quant = (CondQuantifier) %d;\n", (int) c->match,
                (int) c->quant);
        str(e, "c->pattern", c->pattern);
        if (c->hw) {
                const HwMatch *m = c->hw;
                static const char *const lists[] = { "modalias", "subsystem", "driver", "node" };
                char *const *l[] = { m->modalias, m->subsystem, m->driver, m->node };
                const size_t n[] = { m->n_modalias, m->n_subsystem, m->n_driver, m->n_node };

                fputs("        {\n        HwMatch *m = c->hw = calloc(1, sizeof(HwMatch));\n\n"
                      "        if (!m)\n                return -ENOMEM;\n", e->f);
                for (size_t k = 0; k < 4; k++) {
                        if (!n[k])
                                continue;
                        fprintf(e->f, "        A(m->%s, %zu, char *);\n        m->n_%s = %zu;\n", lists[k], n[k],
                                lists[k], n[k]);
                        for (size_t i = 0; i < n[k]; i++) {
                                char item[64];

                                snprintf(item, sizeof(item), "m->%s[%zu]", lists[k], i);
                                str(e, item, l[k][i]);
                        }
                }
                str(e, "m->property", m->property);
                fprintf(e->f, "        m->value_match = (CondMatch) %d;\n", (int) m->value_match);
                if (m->n_values) {
                        fprintf(e->f, "        A(m->values, %zu, char *);\n        m->n_values = %zu;\n", m->n_values,
                                m->n_values);
                        for (size_t i = 0; i < m->n_values; i++) {
                                char item[64];

                                snprintf(item, sizeof(item), "m->values[%zu]", i);
                                str(e, item, m->values[i]);
                        }
                }
                str(e, "m->pattern", m->pattern);
                fprintf(e->f, "        m->bound = %s;\n", m->bound ? "true" : "false");
                str(e, "m->text", m->text);
                fputs("        }\n", e->f);
        }
        fputs("        return 0;\n}\n\n", e->f);
        free(kids);
        return id;
}

static void condition_ref(Emit *e, const char *dst, const Condition *c, unsigned id) {
        if (c)
                fprintf(e->f, "        if (%s_c%u(&%s) < 0)\n                return -ENOMEM;\n", e->prefix, id, dst);
}

static void emit_policy(Emit *e, const Policy *p) {
        unsigned *rw_when = calloc(p->n_rewrites + 1, sizeof(unsigned));
        unsigned *as_when = calloc(p->n_assertions + 1, sizeof(unsigned));
        unsigned *as_body = calloc(p->n_assertions + 1, sizeof(unsigned));
        char dst[128];

        if (!rw_when || !as_when || !as_body) {
                fputs("out of memory\n", stderr);
                exit(EXIT_FAILURE);
        }
        for (size_t i = 0; i < p->n_rewrites; i++)
                if (p->rewrites[i].when)
                        rw_when[i] = condition(e, p->rewrites[i].when);
        for (size_t i = 0; i < p->n_assertions; i++) {
                if (p->assertions[i].when)
                        as_when[i] = condition(e, p->assertions[i].when);
                if (p->assertions[i].body)
                        as_body[i] = condition(e, p->assertions[i].body);
        }

        fprintf(e->f, "static int %s(Policy *p) {\n", e->prefix);
        str(e, "p->name", p->name);
        str(e, "p->description", p->description);
        str(e, "p->source", p->source);
        str(e, "p->extends", p->extends);
        fprintf(e->f, "        p->target = %uU;\n        p->mode = (PolicyMode) %d;\n", p->target, (int) p->mode);
        fprintf(e->f, "        p->user_rule = %d;\n", p->user_rule);
        str(e, "p->user_regex", p->user_regex);
        fprintf(e->f, "        p->numeric_ids = %s;\n        p->empty_user_rejects = %s;\n",
                p->numeric_ids ? "true" : "false", p->empty_user_rejects ? "true" : "false");
        fprintf(e->f, "        p->dropins_strict = %s;\n        p->invalid_default = (PolicyAction) %d;\n",
                p->dropins_strict ? "true" : "false", (int) p->invalid_default);
        fprintf(e->f, "        p->unknown_action = (PolicyAction) %d;\n        p->comment_removed = %s;\n",
                (int) p->unknown_action, p->comment_removed ? "true" : "false");
        fprintf(e->f, "        p->generator_condition = %s;\n        p->generator_initrd = %s;\n",
                p->generator_condition ? "true" : "false", p->generator_initrd ? "true" : "false");

        if (p->n_directives)
                fprintf(e->f, "        A(p->directives, %zu, DirectiveAction);\n"
                              "        p->n_directives = p->allocated_directives = %zu;\n",
                        p->n_directives, p->n_directives);
        for (size_t i = 0; i < p->n_directives; i++) {
                snprintf(dst, sizeof(dst), "p->directives[%zu].name", i);
                str(e, dst, p->directives[i].name);
                fprintf(e->f, "        p->directives[%zu].action = (PolicyAction) %d;\n", i,
                        (int) p->directives[i].action);
        }

        if (p->n_rewrites)
                fprintf(e->f, "        A(p->rewrites, %zu, Rewrite);\n"
                              "        p->n_rewrites = p->allocated_rewrites = %zu;\n",
                        p->n_rewrites, p->n_rewrites);
        for (size_t i = 0; i < p->n_rewrites; i++) {
                const Rewrite *rw = &p->rewrites[i];
                const char *fields[] = { "id", "description", "when_text", "section", "key", "value", "to", "matching" };
                const char *values[] = { rw->id, rw->description, rw->when_text, rw->section,
                                         rw->key, rw->value, rw->to, rw->matching };

                for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
                        snprintf(dst, sizeof(dst), "p->rewrites[%zu].%s", i, fields[k]);
                        str(e, dst, values[k]);
                }
                fprintf(e->f, "        p->rewrites[%zu].kind = (RewriteKind) %d;\n", i, (int) rw->kind);
                snprintf(dst, sizeof(dst), "p->rewrites[%zu].when", i);
                condition_ref(e, dst, rw->when, rw_when[i]);
        }

        if (p->n_assertions)
                fprintf(e->f, "        A(p->assertions, %zu, Assertion);\n"
                              "        p->n_assertions = p->allocated_assertions = %zu;\n",
                        p->n_assertions, p->n_assertions);
        for (size_t i = 0; i < p->n_assertions; i++) {
                const Assertion *a = &p->assertions[i];
                const char *fields[] = { "id", "description", "when_text", "body_text" };
                const char *values[] = { a->id, a->description, a->when_text, a->body_text };

                for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
                        snprintf(dst, sizeof(dst), "p->assertions[%zu].%s", i, fields[k]);
                        str(e, dst, values[k]);
                }
                fprintf(e->f, "        p->assertions[%zu].forbid = %s;\n        p->assertions[%zu].severity = (AssertionSeverity) %d;\n",
                        i, a->forbid ? "true" : "false", i, (int) a->severity);
                snprintf(dst, sizeof(dst), "p->assertions[%zu].when", i);
                condition_ref(e, dst, a->when, as_when[i]);
                snprintf(dst, sizeof(dst), "p->assertions[%zu].body", i);
                condition_ref(e, dst, a->body, as_body[i]);
        }

        if (p->n_waivers)
                fprintf(e->f, "        A(p->waivers, %zu, PolicyWaiver);\n"
                              "        p->n_waivers = p->allocated_waivers = %zu;\n",
                        p->n_waivers, p->n_waivers);
        for (size_t i = 0; i < p->n_waivers; i++) {
                const PolicyWaiver *w = &p->waivers[i];
                const char *fields[] = { "rule", "unit", "reason", "file" };
                const char *values[] = { w->rule, w->unit, w->reason, w->file };

                for (size_t k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
                        snprintf(dst, sizeof(dst), "p->waivers[%zu].%s", i, fields[k]);
                        str(e, dst, values[k]);
                }
                fprintf(e->f, "        p->waivers[%zu].line = %uU;\n", i, w->line);
        }

        if (p->n_device_units) {
                fprintf(e->f, "        A(p->device_units, %zu, char *);\n        p->n_device_units = %zu;\n",
                        p->n_device_units, p->n_device_units);
                for (size_t i = 0; i < p->n_device_units; i++) {
                        snprintf(dst, sizeof(dst), "p->device_units[%zu]", i);
                        str(e, dst, p->device_units[i]);
                }
        }
        fputs("        return 0;\n}\n\n", e->f);
        free(rw_when);
        free(as_when);
        free(as_body);
}

static int load(const char *name, Policy **ret) {
        PolicyError err = {};
        int r;

        r = policy_load(name, ret, &err);
        if (r < 0) {
                StrBuf b = {};

                if (r == -EINVAL && policy_error_format(&err, &b) >= 0 && b.data)
                        fputs(b.data, stderr);
                else
                        fprintf(stderr, "policy-compile: %s: %s\n", name, strerror(-r));
                strbuf_done(&b);
                policy_error_done(&err);
                return r;
        }
        return 0;
}

static int show(const char *name) {
        Policy *p = NULL;
        StrBuf b = {};
        int r;

        if (load(name, &p) < 0)
                return EXIT_FAILURE;
        r = policy_show(p, &b);
        if (r >= 0 && b.data)
                fputs(b.data, stdout);
        strbuf_done(&b);
        policy_free(p);
        return r < 0 || fflush(stdout) != 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

int main(int argc, char **argv) {
        FILE *f;
        int r;

        if (argc == 3 && strcmp(argv[1], "--show") == 0)
                return show(argv[2]);
        if (argc < 3) {
                fputs("usage: policy-compile OUTPUT.c NAME... | --show NAME\n", stderr);
                return EXIT_FAILURE;
        }

        f = fopen(argv[1], "we");
        if (!f) {
                fprintf(stderr, "policy-compile: %s: %s\n", argv[1], strerror(errno));
                return EXIT_FAILURE;
        }
        fputs("/* Generated by policies/policy-compile from the shipped policies. Do not edit. */\n"
              "#include <errno.h>\n#include <stdbool.h>\n#include <stdlib.h>\n#include <string.h>\n\n"
              "#include \"policy/policy-builtin.h\"\n#include \"policy/policy-condition.h\"\n"
              "#include \"policy/policy-hardware.h\"\n\n"
              "#define S(dst, lit) do { if (!((dst) = strdup(lit))) return -ENOMEM; } while (0)\n"
              "#define A(dst, n, type) do { if (!((dst) = calloc((n), sizeof(type)))) return -ENOMEM; } while (0)\n\n",
              f);
        for (int i = 2; i < argc; i++) {
                Policy *p = NULL;
                char prefix[128];
                Emit e = { .f = f, .prefix = prefix };

                r = load(argv[i], &p);
                if (r < 0) {
                        fclose(f);
                        return EXIT_FAILURE;
                }
                snprintf(prefix, sizeof(prefix), "build_%d", i - 2);
                fprintf(f, "/* %s */\n", argv[i]);
                emit_policy(&e, p);
                policy_free(p);
        }
        fputs("static const BuiltinCompiled compiled[] = {\n", f);
        for (int i = 2; i < argc; i++) {
                fputs("        { ", f);
                literal(f, argv[i]);
                fprintf(f, ", build_%d },\n", i - 2);
        }
        fputs("};\n\nconst BuiltinCompiled *builtin_compiled_find(const char *name) {\n"
              "        for (size_t i = 0; i < sizeof(compiled) / sizeof(compiled[0]); i++)\n"
              "                if (strcmp(compiled[i].name, name) == 0)\n"
              "                        return &compiled[i];\n"
              "        return NULL;\n}\n",
              f);
        if (fclose(f) != 0) {
                fprintf(stderr, "policy-compile: %s: %s\n", argv[1], strerror(errno));
                return EXIT_FAILURE;
        }
        return EXIT_SUCCESS;
}
