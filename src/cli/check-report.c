/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "basic/json-writer.h"
#include "basic/strmap.h"
#include "check-report.h"
#include "filter/filter-fix.h"

static int json_str_or_null(StrBuf *b, const char *s) {
        return s ? json_append_cstring(b, s) : strbuf_append_str(b, "null");
}

static int finding_json(StrBuf *b, const Diag *d, const char *fix) {
        int r = strbuf_append_str(b, "{\"rule\":");

        if (r >= 0)
                r = json_str_or_null(b, d->rule);
        if (r >= 0)
                r = strbuf_printf(b, ",\"severity\":\"%s\",\"path\":", diag_severity_to_string(d->severity));
        if (r >= 0)
                r = json_str_or_null(b, d->file);
        if (r >= 0)
                r = d->line > 0 ? strbuf_printf(b, ",\"line\":%u", d->line) : strbuf_append_str(b, ",\"line\":null");
        if (r >= 0)
                r = strbuf_append_str(b, ",\"section\":");
        if (r >= 0)
                r = json_str_or_null(b, d->section);
        if (r >= 0)
                r = strbuf_append_str(b, ",\"key\":");
        if (r >= 0)
                r = json_str_or_null(b, d->key);
        if (r >= 0)
                r = strbuf_append_str(b, ",\"message\":");
        if (r >= 0)
                r = json_str_or_null(b, d->message);
        if (r >= 0)
                r = strbuf_printf(b, ",\"systemd\":\"%s\",\"unit\":", systemd_effect_to_string(d->effect));
        if (r >= 0)
                r = json_str_or_null(b, d->unit);
        if (r >= 0)
                r = strbuf_append_str(b, ",\"fix\":");
        if (r >= 0)
                r = json_str_or_null(b, fix);
        if (r >= 0)
                r = strbuf_append_char(b, '}');
        return r;
}

int check_report_json(const Filter *f, const CheckContext *c, StrBuf *b) {
        size_t cursor = 0;
        int r;

        r = strbuf_printf(b, "{\"version\":%d,\"tool\":{\"name\":\"unitguard\",\"version\":\"%s\"},\"policy\":",
                          CHECK_JSON_VERSION, PACKAGE_VERSION);
        if (r >= 0 && c->policy_name) {
                r = strbuf_append_str(b, "{\"name\":");
                if (r >= 0)
                        r = json_str_or_null(b, c->policy_name);
                if (r >= 0)
                        r = strbuf_append_str(b, ",\"source\":");
                if (r >= 0)
                        r = json_str_or_null(b, c->policy_source);
                if (r >= 0)
                        r = strbuf_printf(b, ",\"target_version\":%u}", c->target_version);
        } else if (r >= 0)
                r = strbuf_append_str(b, "null");
        if (r >= 0)
                r = strbuf_append_str(b, ",\"root\":");
        if (r >= 0)
                r = json_str_or_null(b, c->root);
        if (r >= 0 && c->hardware_json)
                r = strbuf_printf(b, ",\"hardware\":%s", c->hardware_json);
        if (r >= 0)
                r = strbuf_printf(b, ",\"scope\":\"%s\",\"units\":[", c->scope);
        if (r >= 0 && f->units_json.len > 0)
                r = strbuf_append(b, f->units_json.data, f->units_json.len);
        if (r >= 0)
                r = strbuf_append_str(b, "],\"findings\":[");
        for (size_t i = 0; r >= 0 && i < f->findings.n; i++) {
                if (i > 0)
                        r = strbuf_append_char(b, ',');
                if (r >= 0)
                        r = finding_json(b, &f->findings.items[i], filter_fix_applied(f->fix, i, &cursor));
        }
        if (r >= 0)
                r = strbuf_printf(b, "],\"summary\":{\"units\":%u,\"rejected\":%u,\"changed\":%u,\"fixed\":",
                                  f->n_units, f->n_rejected, f->n_changed);
        /* "fixed": files rewritten by --fix, null without it. */
        if (r >= 0)
                r = f->fix ? strbuf_printf(b, "%u", filter_fix_n_fixed(f->fix)) : strbuf_append_str(b, "null");
        if (r >= 0)
                r = strbuf_printf(b,
                                  ",\"masked\":%u,\"errors\":%u,\"warnings\":%u,\"notes\":%u,\"waived\":%u,"
                                  "\"input_errors\":%u}}\n",
                                  f->n_masked, f->n_diags[DIAG_ERROR], f->n_diags[DIAG_WARNING],
                                  f->n_diags[DIAG_NOTE], c->n_waived, f->n_input_errors);
        return r < 0 ? r : 0;
}

/* ---- SARIF 2.1.0 ------------------------------------------------------- */

/* What a family of rules is about, for the rule's help text. */
static const char *rule_help(const char *rule) {
        static const struct {
                const char *prefix, *help;
        } table[] = {
                { "input.", "unitguard could not read or classify an input file; nothing of the unit it belongs to is written." },
                { "lookup.", "The unit directories contain something systemd ignores or cannot load (invalid alias, alias loop, a file that is not a unit); see unitguard(1), section 'A root as systemd sees it'." },
                { "unit.rejected", "The unit was rejected by the policy and is not written; the findings before it say why." },
                { "unit.incomplete", "A file of the unit could not be read; the unit is never passed on without all its files." },
                { "unit.masked", "The unit is masked; systemd does not load it." },
                { "unit.", "A finding about the unit as a whole." },
                { "cat.", "The 'systemctl cat' framing of a stream is ambiguous or damaged." },
                { "syntax.", "systemd's parser reports this line; see unitguard(1) for the parsing rules." },
                { "limit.", "One of unitguard's own limits was exceeded; the unit is rejected." },
                { "fix.applied", "check --fix rewrote the file to the policy's sanitized form, atomically, keeping its mode, owner and extended attributes." },
                { "fix.", "check --fix did not rewrite the file (it changed since it was read, is read-only, its unit or another unit sharing it is rejected, or the write failed); the file is left as it was." },
        };
        const char *colon = strchr(rule, ':');

        if (colon)
                return "A decision of the policy named before the colon; unitguard.policy(5) documents its rules, and 'unitguard policy show' prints the policy.";
        for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++)
                if (strncmp(rule, table[i].prefix, strlen(table[i].prefix)) == 0)
                        return table[i].help;
        return "See unitguard(1).";
}

static bool uri_unreserved(unsigned char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
               c == '.' || c == '_' || c == '~' || c == '/' || c == '@' || c == ':';
}

/* A path as a URI reference: percent-encoded, relative paths kept relative. */
static int append_uri_path(StrBuf *b, const char *p) {
        int r = 0;

        for (; *p && r >= 0; p++)
                r = uri_unreserved((unsigned char) *p) ? strbuf_append_char(b, *p)
                                                       : strbuf_printf(b, "%%%02X", (unsigned char) *p);
        return r;
}

static int uri_json(StrBuf *b, const char *prefix, const char *path) {
        _cleanup_(strbuf_done) StrBuf u = {};
        int r = strbuf_append_str(&u, prefix);

        if (r >= 0)
                r = append_uri_path(&u, path);
        if (r >= 0)
                r = strbuf_reserve(&u, 0);
        if (r >= 0)
                u.data[u.len] = '\0';
        return r < 0 ? r : json_append_cstring(b, u.data);
}

static int location_json(StrBuf *b, const CheckContext *c, const Diag *d) {
        const char *path = d->file ? d->file : "";
        int r;

        r = strbuf_append_str(b, "\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{\"uri\":");
        /* Inside a root every path is absolute as seen from the root. */
        if (r >= 0 && c->root && path[0] == '/') {
                r = uri_json(b, "", path + 1);
                if (r >= 0)
                        r = strbuf_append_str(b, ",\"uriBaseId\":\"ROOT\"");
        } else if (r >= 0 && path[0] == '/')
                r = uri_json(b, "file://", path);
        else if (r >= 0) {
                r = uri_json(b, "", startswith(path, "./") ? path + 2 : path);
                if (r >= 0)
                        r = strbuf_append_str(b, ",\"uriBaseId\":\"SRCROOT\"");
        }
        if (r >= 0)
                r = strbuf_append_char(b, '}');
        if (r >= 0 && d->line > 0)
                r = strbuf_printf(b, ",\"region\":{\"startLine\":%u}", d->line);
        if (r >= 0)
                r = strbuf_append_str(b, "}}]");
        return r;
}

int check_report_sarif(const Filter *f, const CheckContext *c, StrBuf *b) {
        _cleanup_free_ size_t *rule_index = NULL;
        StrMap rules = {};
        const char **order = NULL;
        size_t n_rules = 0, cursor = 0;
        int r = 0;

        /* Rules in the order they first occur. */
        rule_index = new0(size_t, f->findings.n);
        order = new0(const char *, f->findings.n);
        if (!rule_index || !order)
                r = -ENOMEM;
        for (size_t i = 0; r >= 0 && i < f->findings.n; i++) {
                const char *id = f->findings.items[i].rule ? f->findings.items[i].rule : "unknown";
                void *v = strmap_get(&rules, id);

                if (!v) {
                        order[n_rules] = id;
                        r = strmap_put(&rules, id, (void *) (uintptr_t) (n_rules + 1));
                        v = (void *) (uintptr_t) (++n_rules);
                }
                rule_index[i] = (size_t) (uintptr_t) v - 1;
        }

        if (r >= 0)
                r = strbuf_printf(b,
                                  "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
                                  "\"runs\":[{\"tool\":{\"driver\":{\"name\":\"unitguard\",\"version\":\"%s\","
                                  "\"informationUri\":\"https://github.com/unitguard/unitguard\",\"rules\":[",
                                  PACKAGE_VERSION);
        for (size_t k = 0; r >= 0 && k < n_rules; k++) {
                const Diag *first = NULL;

                for (size_t i = 0; !first && i < f->findings.n; i++)
                        if (rule_index[i] == k)
                                first = &f->findings.items[i];
                r = strbuf_append_str(b, k > 0 ? ",{\"id\":" : "{\"id\":");
                if (r >= 0)
                        r = json_append_cstring(b, order[k]);
                if (r >= 0)
                        r = strbuf_append_str(b, ",\"shortDescription\":{\"text\":");
                if (r >= 0)
                        r = json_append_cstring(b, first && first->message ? first->message : order[k]);
                if (r >= 0)
                        r = strbuf_append_str(b, "},\"help\":{\"text\":");
                if (r >= 0)
                        r = json_append_cstring(b, rule_help(order[k]));
                if (r >= 0)
                        r = strbuf_append_str(b, "}}");
        }
        if (r >= 0)
                r = strbuf_append_str(b, "]}},\"originalUriBaseIds\":{");
        if (r >= 0 && c->root) {
                r = strbuf_append_str(b, "\"ROOT\":{\"uri\":");
                if (r >= 0)
                        r = uri_json(b, "file://", c->base_dir);
                if (r >= 0)
                        r = strbuf_append_str(b, "},");
        }
        /* Paths given relative to the working directory (and the root's own
         * name) resolve against SRCROOT. */
        if (r >= 0)
                r = strbuf_append_str(b, "\"SRCROOT\":{\"uri\":");
        if (r >= 0)
                r = uri_json(b, "file://", c->work_dir);
        if (r >= 0)
                r = strbuf_append_str(b, "}");
        if (r >= 0)
                r = strbuf_append_str(b, "},\"results\":[");
        for (size_t i = 0; r >= 0 && i < f->findings.n; i++) {
                const Diag *d = &f->findings.items[i];
                const char *fix = filter_fix_applied(f->fix, i, &cursor);

                r = strbuf_append_str(b, i > 0 ? ",{\"ruleId\":" : "{\"ruleId\":");
                if (r >= 0)
                        r = json_append_cstring(b, order[rule_index[i]]);
                if (r >= 0)
                        r = strbuf_printf(b, ",\"ruleIndex\":%zu,\"level\":\"%s\",\"message\":{\"text\":", rule_index[i],
                                          diag_severity_to_string(d->severity));
                if (r >= 0)
                        r = json_append_cstring(b, d->message ? d->message : "");
                if (r >= 0)
                        r = strbuf_append_str(b, "},");
                if (r >= 0)
                        r = location_json(b, c, d);
                if (r >= 0 && (d->unit || d->section || d->key || fix)) {
                        r = strbuf_append_str(b, ",\"properties\":{\"unit\":");
                        if (r >= 0)
                                r = json_str_or_null(b, d->unit);
                        if (r >= 0)
                                r = strbuf_append_str(b, ",\"section\":");
                        if (r >= 0)
                                r = json_str_or_null(b, d->section);
                        if (r >= 0)
                                r = strbuf_append_str(b, ",\"key\":");
                        if (r >= 0)
                                r = json_str_or_null(b, d->key);
                        if (r >= 0)
                                r = strbuf_printf(b, ",\"systemd\":\"%s\"", systemd_effect_to_string(d->effect));
                        if (r >= 0 && fix) {
                                r = strbuf_append_str(b, ",\"fixApplied\":");
                                if (r >= 0)
                                        r = json_append_cstring(b, fix);
                        }
                        if (r >= 0)
                                r = strbuf_append_char(b, '}');
                }
                if (r >= 0)
                        r = strbuf_append_char(b, '}');
        }
        if (r >= 0)
                r = strbuf_append_str(b, "]}]}\n");
        strmap_done(&rules);
        free(order);
        return r < 0 ? r : 0;
}
