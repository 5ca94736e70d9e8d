/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/strbuf.h"
#include "validate/behaviour.h"
#include "user-check.h"
#include "validate/specifier.h"
#include "validate/user-name.h"

static bool all_digits(const char *s) {
        if (!*s)
                return false;
        for (; *s; s++)
                if (*s < '0' || *s > '9')
                        return false;
        return true;
}

/* systemd's own rule at a version: strict before v246, relaxed since. */
static UserNameMode systemd_mode(unsigned version) {
        return sd_behaves(SD_USER_NAMES_RELAXED, version) ? USER_NAME_RELAXED : USER_NAME_STRICT;
}

/* 1 if the whole name matches, 0 if not, -ENOMEM, or -E2BIG when a limit
 * stopped the regex (*ret_limit names it; the name is then not accepted). */
static int regex_matches(const Policy *p, const char *name, const char **ret_limit) {
        size_t start, end;
        int r;

        r = regex_match(&p->matcher, p->user_re, name, &start, &end, ret_limit);
        if (r <= 0)
                return r;
        return start == 0 && end == strlen(name);
}

/* One name (or numeric ID) under the policy: 1 acceptable, 0 not, -ENOMEM,
 * or -E2BIG when the policy's regex hit a limit (named in *ret_limit). */
static int name_ok(const Policy *p, unsigned version, const char *name, const char **ret_limit) {
        uint32_t uid;

        /* Numbers are IDs, judged by how systemd parses them, never names. */
        if (all_digits(name) || (!sd_behaves(SD_UID_STRICT_PARSE, version) && (name[0] == '+' || startswith(name, "0x"))))
                return p->numeric_ids && parse_uid(name, version, &uid) >= 0;

        switch (p->user_rule) {
        case USER_RULE_SYSTEMD:
                return user_name_is_valid(name, systemd_mode(version));
        case USER_RULE_REGEX:
                return regex_matches(p, name, ret_limit);
        default:
                return user_name_is_valid(name, (UserNameMode) p->user_rule);
        }
}

static const char *rule_name(const Policy *p) {
        switch (p->user_rule) {
        case USER_RULE_SYSTEMD:
                return "systemd";
        case USER_RULE_REGEX:
                return "regex";
        default:
                return user_name_mode_to_string((UserNameMode) p->user_rule);
        }
}

static bool is_blank(char c) {
        return c == ' ' || c == '\t';
}

int policy_check_user_value(const Policy *p, unsigned version, const JudgeContext *ctx,
                            const char *key, const char *value, char **ret_bad, char **ret_setting) {
        bool list = streq(key, "SupplementaryGroups");
        _cleanup_free_ char *expanded = NULL;
        const char *s = value;
        int r;

        /* Names are judged as systemd sees them: specifiers expanded for
         * this unit (the caller has already set aside template values). */
        if (strchr(value, '%')) {
                r = specifier_expand(value, SPECIFIER_FULL, ctx->unit_name, version, &expanded, NULL);
                if (r == -ENOMEM)
                        return r;
                if (r >= 0)
                        s = expanded;
        }

        while (*s) {
                _cleanup_free_ char *copy = NULL;
                const char *limit = NULL, *name = s;
                size_t n;
                int ok;

                if (list) {
                        while (is_blank(*s))
                                s++;
                        if (!*s)
                                break;
                        n = 0;
                        while (s[n] && !is_blank(s[n]))
                                n++;
                } else
                        n = strlen(s);

                /* The last (or only) name is judged in place; one followed
                 * by more is copied. */
                if (s[n]) {
                        copy = strndup(s, n);
                        if (!copy)
                                return -ENOMEM;
                        name = copy;
                } else
                        name = s;
                ok = name_ok(p, version, name, &limit);
                if (ok == -ENOMEM)
                        return ok;
                if (ok <= 0) {
                        /* Strings only for a name the policy refuses. */
                        r = ok == -E2BIG ? asprintf(ret_setting, "user-names.regex: %s exceeded", limit)
                                         : asprintf(ret_setting, "user-names.%s", rule_name(p));
                        if (r < 0) {
                                *ret_setting = NULL;
                                return -ENOMEM;
                        }
                        *ret_bad = copy ? TAKE_PTR(copy) : strdup(name);
                        if (!*ret_bad) {
                                free(*ret_setting);
                                *ret_setting = NULL;
                                return -ENOMEM;
                        }
                        return 0;
                }
                s += n;
        }
        return 1;
}

int systemd_valid_group_names(unsigned version, const char *value, char **ret) {
        StrBuf out = {};
        const char *s = value;
        uint32_t uid;
        int r = 0;

        while (*s && r >= 0) {
                size_t n = 0;
                char *name;
                bool ok;

                while (is_blank(*s))
                        s++;
                if (!*s)
                        break;
                while (s[n] && !is_blank(s[n]))
                        n++;
                name = strndup(s, n);
                if (!name) {
                        r = -ENOMEM;
                        break;
                }
                ok = parse_uid(name, version, &uid) >= 0 || user_name_is_valid(name, systemd_mode(version));
                if (ok)
                        r = strbuf_printf(&out, "%s%s", out.len ? " " : "", name);
                free(name);
                s += n;
        }
        if (r < 0) {
                strbuf_done(&out);
                return r;
        }
        *ret = strbuf_steal(&out);
        return *ret ? 0 : -ENOMEM;
}
