/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The effective policy, written back as YAML that `policy check` accepts. */
#include <string.h>

#include "policy-internal.h"
#include "unit/unit-type.h"

/* Characters YAML reads as line breaks (U+2028, U+2029) or refuses raw
 * (U+FEFF, U+FFFE, U+FFFF): written as escapes, so the value reads back. */
static bool is_yaml_unprintable(unsigned cp) {
        return cp == 0x2028 || cp == 0x2029 || cp == 0xfeff || cp == 0xfffe || cp == 0xffff;
}

/* The code point of a well-formed three-byte UTF-8 sequence. */
static unsigned cp3(const char *s) {
        return ((unsigned) (s[0] & 0x0f) << 12) | ((unsigned) (s[1] & 0x3f) << 6) | (unsigned) (s[2] & 0x3f);
}

/* Double-quoted YAML scalar. */
int policy_yaml_quote(StrBuf *out, const char *s) {
        int r = strbuf_append_char(out, '"');

        for (; r >= 0 && *s; s++) {
                unsigned char c = (unsigned char) *s;

                if (c == '"' || c == '\\')
                        r = strbuf_printf(out, "\\%c", c);
                else if (c < 0x20 || c == 0x7f)
                        r = strbuf_printf(out, "\\x%02x", c);
                else if (c == 0xc2 && (unsigned char) s[1] >= 0x80 && (unsigned char) s[1] <= 0x9f) {
                        /* C1 controls: YAML refuses them raw, and reads
                         * U+0085 as a line break that folds to a space. */
                        r = strbuf_printf(out, "\\x%02x", (unsigned char) s[1]);
                        s++;
                } else if ((c & 0xf0) == 0xe0 && (s[1] & 0xc0) == 0x80 && (s[2] & 0xc0) == 0x80 &&
                           is_yaml_unprintable(cp3(s))) {
                        r = strbuf_printf(out, "\\u%04X", cp3(s));
                        s += 2;
                } else
                        r = strbuf_append_char(out, (char) c);
        }
        return r < 0 ? r : strbuf_append_char(out, '"');
}

static const char *user_rule_name(const Policy *p) {
        if (p->user_rule == USER_RULE_SYSTEMD)
                return "systemd";
        if (p->user_rule == USER_RULE_REGEX)
                return "regex";
        return user_name_mode_to_string((UserNameMode) p->user_rule);
}

static int show_rewrite(StrBuf *out, const Rewrite *rw) {
        static const char *const verbs[] = { "set", "add", "remove", "rename" };
        int r;

        r = strbuf_append_str(out, "  - id: ");
        if (r >= 0)
                r = policy_yaml_quote(out, rw->id);
        if (r >= 0 && rw->description) {
                r = strbuf_append_str(out, "\n    description: ");
                if (r >= 0)
                        r = policy_yaml_quote(out, rw->description);
        }
        if (r >= 0)
                r = strbuf_append_char(out, '\n');
        if (r >= 0 && rw->when)
                r = strbuf_printf(out, "    when: %s\n", rw->when_text);
        if (r >= 0)
                r = strbuf_printf(out, "    %s: {section: ", verbs[rw->kind]);
        if (r >= 0)
                r = policy_yaml_quote(out, rw->section);
        if (r >= 0)
                r = strbuf_append_str(out, ", key: ");
        if (r >= 0)
                r = policy_yaml_quote(out, rw->key);
        if (r >= 0 && rw->value) {
                r = strbuf_append_str(out, ", value: ");
                if (r >= 0)
                        r = policy_yaml_quote(out, rw->value);
        }
        if (r >= 0 && rw->matching) {
                r = strbuf_append_str(out, ", matching: ");
                if (r >= 0)
                        r = policy_yaml_quote(out, rw->matching);
        }
        if (r >= 0 && rw->to) {
                r = strbuf_append_str(out, ", to: ");
                if (r >= 0)
                        r = policy_yaml_quote(out, rw->to);
        }
        return r < 0 ? r : strbuf_append_str(out, "}\n");
}

static int show_assertion(StrBuf *out, const Assertion *a) {
        static const char *const severities[] = { "note", "warning", "error" };
        int r;

        r = strbuf_append_str(out, "  - id: ");
        if (r >= 0)
                r = policy_yaml_quote(out, a->id);
        if (r >= 0 && a->description) {
                r = strbuf_append_str(out, "\n    description: ");
                if (r >= 0)
                        r = policy_yaml_quote(out, a->description);
        }
        if (r >= 0)
                r = strbuf_printf(out, "\n    severity: %s\n", severities[a->severity]);
        if (r >= 0 && a->when)
                r = strbuf_printf(out, "    when: %s\n", a->when_text);
        return r < 0 ? r : strbuf_append_str(out, a->body_text);
}

int policy_show(const Policy *p, StrBuf *out) {
        int r;

        r = strbuf_printf(out, "# effective policy from %s%s%s\nversion: 1\nname: ", p->source,
                          p->extends ? ", extends " : "", p->extends ? p->extends : "");
        if (r >= 0)
                r = policy_yaml_quote(out, p->name);
        if (r >= 0 && p->description) {
                r = strbuf_append_str(out, "\ndescription: ");
                if (r >= 0)
                        r = policy_yaml_quote(out, p->description);
        }
        if (r >= 0)
                r = strbuf_printf(out,
                                  "\ntarget: %u\nmode: %s\nuser-names:\n  rule: %s\n",
                                  p->target, p->mode == MODE_MIRROR ? "mirror" : "enforce", user_rule_name(p));
        if (r >= 0 && p->user_regex) {
                r = strbuf_append_str(out, "  regex: ");
                if (r >= 0)
                        r = policy_yaml_quote(out, p->user_regex);
                if (r >= 0)
                        r = strbuf_append_char(out, '\n');
        }
        if (r >= 0)
                r = strbuf_printf(out, "  numeric-ids: %s\n  empty-user: %s\ndrop-ins: %s\n"
                                  "invalid:\n  default: %s\n",
                                  p->numeric_ids ? "true" : "false", p->empty_user_rejects ? "reject" : "allow",
                                  p->dropins_strict ? "strict" : "systemd",
                                  policy_action_to_string(p->invalid_default));
        if (r >= 0 && p->n_directives > 0) {
                r = strbuf_append_str(out, "  directives:\n");
                for (size_t i = 0; r >= 0 && i < p->n_directives; i++)
                        r = strbuf_printf(out, "    %s: %s\n", p->directives[i].name,
                                          policy_action_to_string(p->directives[i].action));
        }
        if (r >= 0)
                r = strbuf_printf(out, "unknown-directives: %s\nremoved-lines: %s\n",
                                  policy_action_to_string(p->unknown_action),
                                  p->comment_removed ? "comment" : "delete");
        /* Only when it differs from the defaults, so older output stays. */
        if (r >= 0 && (p->generator_condition || p->generator_initrd))
                r = strbuf_printf(out, "generator:\n  rejected: %s\n  initrd: %s\n",
                                  p->generator_condition ? "condition" : "mask",
                                  p->generator_initrd ? "true" : "false");
        if (r >= 0 && p->n_rewrites > 0) {
                r = strbuf_append_str(out, "rewrites:\n");
                for (size_t i = 0; r >= 0 && i < p->n_rewrites; i++)
                        r = show_rewrite(out, &p->rewrites[i]);
        }
        for (int forbid = 0; forbid <= 1; forbid++) {
                bool first = true;

                for (size_t i = 0; r >= 0 && i < p->n_assertions; i++)
                        if (p->assertions[i].forbid == (bool) forbid) {
                                if (first)
                                        r = strbuf_append_str(out, forbid ? "forbid:\n" : "require:\n");
                                first = false;
                                if (r >= 0)
                                        r = show_assertion(out, &p->assertions[i]);
                        }
        }
        if (r >= 0 && p->n_device_units > 0) {
                r = strbuf_append_str(out, "device-units:\n");
                for (size_t i = 0; r >= 0 && i < p->n_device_units; i++) {
                        r = strbuf_append_str(out, "  - ");
                        if (r >= 0)
                                r = policy_yaml_quote(out, p->device_units[i]);
                        if (r >= 0)
                                r = strbuf_append_char(out, '\n');
                }
        }
        if (r >= 0 && p->n_waivers > 0) {
                r = strbuf_append_str(out, "waivers:\n");
                for (size_t i = 0; r >= 0 && i < p->n_waivers; i++) {
                        r = strbuf_append_str(out, "  - rule: ");
                        if (r >= 0)
                                r = policy_yaml_quote(out, p->waivers[i].rule);
                        if (r >= 0)
                                r = strbuf_append_str(out, "\n    unit: ");
                        if (r >= 0)
                                r = policy_yaml_quote(out, p->waivers[i].unit);
                        if (r >= 0)
                                r = strbuf_append_str(out, "\n    reason: ");
                        if (r >= 0)
                                r = policy_yaml_quote(out, p->waivers[i].reason);
                        if (r >= 0)
                                r = strbuf_append_char(out, '\n');
                }
        }
        return r;
}
