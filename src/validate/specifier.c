/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <string.h>

#include "basic/macro.h"
#include "behaviour.h"
#include "basic/strbuf.h"
#include "specifier.h"
#include "unit-name.h"

#define FULL_MAX SPECIFIER_TEXT_MAX
#define PATH_LIMIT SPECIFIER_PATH_TEXT_MAX

typedef enum SpecClass {
        SPEC_NAME,     /* computed from the unit name */
        SPEC_INSTANCE, /* computed from the unit name, and differs per instance */
        SPEC_FIXED,    /* a constant for the system manager */
        SPEC_MACHINE,  /* depends on host, boot, OS or fragment: never guessed */
} SpecClass;

typedef struct Spec {
        char c;
        SpecClass class;
        unsigned since;      /* 0 = older than anything we model */
        bool unit_name_ctx;  /* also known in SPECIFIER_UNIT_NAME */
        const char *value;   /* SPEC_FIXED only */
} Spec;

static const Spec specs[] = {
        { 'n', SPEC_INSTANCE, 0, true, NULL },
        { 'N', SPEC_INSTANCE, 0, true, NULL },
        { 'p', SPEC_NAME, 0, true, NULL },
        { 'P', SPEC_NAME, 0, false, NULL },
        { 'i', SPEC_INSTANCE, 0, true, NULL },
        { 'I', SPEC_INSTANCE, 0, false, NULL },
        { 'j', SPEC_NAME, 239, true, NULL },
        { 'J', SPEC_NAME, 239, false, NULL },
        { 'f', SPEC_INSTANCE, 0, false, NULL },
        { 'd', SPEC_INSTANCE, 251, false, NULL }, /* /run/credentials/<unit> */
        { 'u', SPEC_FIXED, 0, true, "root" },
        { 'U', SPEC_FIXED, 0, true, "0" },
        { 'g', SPEC_FIXED, 240, true, "root" },
        { 'G', SPEC_FIXED, 240, true, "0" },
        { 'h', SPEC_FIXED, 0, false, "/root" },
        { 't', SPEC_FIXED, 0, false, "/run" },
        { 'S', SPEC_FIXED, 236, false, "/var/lib" },
        { 'C', SPEC_FIXED, 236, false, "/var/cache" },
        { 'L', SPEC_FIXED, 236, false, "/var/log" },
        { 'E', SPEC_FIXED, 239, false, "/etc" },
        { 'T', SPEC_FIXED, 239, false, "/tmp" },
        { 'V', SPEC_FIXED, 239, false, "/var/tmp" },
        { 'D', SPEC_FIXED, 256, false, "/usr/share" },
        { 's', SPEC_MACHINE, 0, false, NULL }, /* $SHELL or the build's default */
        { 'y', SPEC_MACHINE, 251, false, NULL },
        { 'Y', SPEC_MACHINE, 251, false, NULL },
        { 'H', SPEC_MACHINE, 0, true, NULL },
        { 'l', SPEC_MACHINE, 246, true, NULL },
        { 'q', SPEC_MACHINE, 251, true, NULL },
        { 'm', SPEC_MACHINE, 0, true, NULL },
        { 'b', SPEC_MACHINE, 0, true, NULL },
        { 'v', SPEC_MACHINE, 0, true, NULL },
        { 'a', SPEC_MACHINE, 246, true, NULL },
        { 'o', SPEC_MACHINE, 246, true, NULL },
        { 'w', SPEC_MACHINE, 246, true, NULL },
        { 'W', SPEC_MACHINE, 246, true, NULL },
        { 'B', SPEC_MACHINE, 246, true, NULL },
        { 'M', SPEC_MACHINE, 249, true, NULL },
        { 'A', SPEC_MACHINE, 249, true, NULL },
        /* cgroup paths: deprecated but still in the table */
        { 'c', SPEC_MACHINE, 0, false, NULL },
        { 'r', SPEC_MACHINE, 0, false, NULL },
        { 'R', SPEC_MACHINE, 0, false, NULL },
};

static const Spec *find_spec(char c, SpecifierContext ctx, unsigned version) {
        for (size_t i = 0; i < ELEMENTSOF(specs); i++) {
                const Spec *s = &specs[i];

                if (s->c != c)
                        continue;
                if (s->since > version)
                        return NULL;
                if (ctx == SPECIFIER_UNIT_NAME && !s->unit_name_ctx)
                        return NULL;
                return s;
        }
        return NULL;
}

bool specifier_known(char c, SpecifierContext ctx, unsigned version) {
        return find_spec(c, ctx, version);
}

static bool is_alnum(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* The name-derived specifiers for a plain or instance name. */
static int name_value(char c, const char *name, char **ret) {
        _cleanup_free_ char *prefix = NULL, *instance = NULL;
        char *v = NULL;
        int r;

        r = unit_name_to_prefix(name, &prefix);
        if (r < 0)
                return r;
        r = unit_name_to_instance(name, &instance);
        if (r < 0)
                return r;

        switch (c) {
        case 'n':
                v = strdup(name);
                break;
        case 'N':
                return unit_name_without_suffix(name, ret);
        case 'p':
                v = strdup(prefix);
                break;
        case 'P':
                return unit_name_unescape(prefix, ret);
        case 'i':
                v = strdup(instance ? instance : "");
                break;
        case 'I':
                return unit_name_unescape(instance ? instance : "", ret);
        case 'j':
        case 'J': {
                const char *dash = strrchr(prefix, '-');
                const char *part = dash ? dash + 1 : prefix;

                if (c == 'J')
                        return unit_name_unescape(part, ret);
                v = strdup(part);
                break;
        }
        case 'f':
                return unit_name_path_unescape(instance ? instance : prefix, ret);
        case 'd': {
                size_t l = strlen("/run/credentials/") + strlen(name) + 1;

                v = malloc(l);
                if (v) {
                        strcpy(v, "/run/credentials/");
                        strcat(v, name);
                }
                break;
        }
        default:
                return -EINVAL;
        }
        if (!v)
                return -ENOMEM;
        *ret = v;
        return 0;
}

int specifier_expand(const char *text, SpecifierContext ctx, const char *unit_name, unsigned version,
                     char **ret, SpecifierInfo *info) {
        _cleanup_(strbuf_done) StrBuf b = {};
        SpecifierInfo dummy;
        int kind = -EINVAL;
        int r;

        if (!info)
                info = &dummy;
        *info = (SpecifierInfo) {};

        /* Most values have no specifier at all. */
        if (!strchr(text, '%')) {
                if (strlen(text) >= (ctx == SPECIFIER_PATH ? PATH_LIMIT : FULL_MAX))
                        return -ENAMETOOLONG;
                if (!ret)
                        return 0;
                *ret = strdup(text);
                return *ret ? 0 : -ENOMEM;
        }

        if (unit_name)
                kind = unit_name_classify(unit_name);

        r = strbuf_reserve(&b, strlen(text));
        if (r < 0)
                return r;

        for (const char *p = text; *p; p++) {
                const Spec *s;
                size_t plain;
                char c;

                /* Copy the text up to the next '%' at once. */
                plain = strcspn(p, "%");
                if (plain > 0) {
                        r = strbuf_append(&b, p, plain);
                        if (r < 0)
                                return r;
                        p += plain - 1;
                        continue;
                }

                c = p[1];
                if (c == '\0') {
                        /* A lone '%' at the end stays. */
                        r = strbuf_append_char(&b, '%');
                        if (r < 0)
                                return r;
                        break;
                }
                p++;

                if (c == '%') {
                        r = strbuf_append_char(&b, '%');
                        if (r < 0)
                                return r;
                        continue;
                }

                s = find_spec(c, ctx, version);
                if (!s) {
                        if (is_alnum(c) && sd_behaves(SD_SPECIFIER_UNKNOWN_FATAL, version)) {
                                info->bad = c;
                                return -EBADSLT;
                        }
                        /* Not a specifier character (or too old a systemd to
                         * mind): both characters stay. */
                        r = strbuf_append(&b, p - 1, 2);
                        if (r < 0)
                                return r;
                        continue;
                }

                if (s->class == SPEC_FIXED) {
                        r = strbuf_append_str(&b, s->value);
                        if (r < 0)
                                return r;
                        continue;
                }

                if (s->class == SPEC_MACHINE ||
                    (s->class == SPEC_INSTANCE && kind == UNIT_NAME_TEMPLATE) || kind < 0) {
                        if (s->class == SPEC_MACHINE)
                                info->machine = true;
                        else
                                info->deferred = true;
                        r = strbuf_append(&b, p - 1, 2);
                        if (r < 0)
                                return r;
                        continue;
                }

                {
                        _cleanup_free_ char *v = NULL;

                        r = name_value(c, unit_name, &v);
                        if (r == -ENOMEM)
                                return r;
                        if (r < 0) {
                                info->bad = c;
                                return -EINVAL;
                        }
                        r = strbuf_append_str(&b, v);
                        if (r < 0)
                                return r;
                }
        }

        if (b.len >= (ctx == SPECIFIER_PATH ? PATH_LIMIT : FULL_MAX))
                return -ENAMETOOLONG;

        if (ret) {
                *ret = strbuf_steal(&b);
                if (!*ret)
                        return -ENOMEM;
        }
        return 0;
}

int specifier_check(const char *text, SpecifierContext ctx, const char *unit_name, unsigned version,
                    SpecifierInfo *info) {
        return specifier_expand(text, ctx, unit_name, version, NULL, info);
}
