/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/macro.h"
#include "behaviour.h"
#include "path-util.h"
#include "value-check.h"

/* An absolute path that path_simplify() can normalize: "." components,
 * doubled and trailing slashes are forgiven; ".." is not. */
static bool path_ok(const char *p) {
        return path_check_absolute(p) == PATH_CHECK_OK;
}

/* A relative path for *Directory=: no ".." components, not "." alone,
 * not absolute; "private" is systemd's own. */
static bool relative_path_ok(const char *p) {
        char buf[VALIDATE_PATH_MAX + 2];

        if (!*p || p[0] == '/' || strlen(p) >= VALIDATE_PATH_MAX)
                return false;
        buf[0] = '/';
        strcpy(buf + 1, p);
        path_simplify(buf);
        if (streq(buf, "/") || !path_ok(buf))
                return false;
        return !(startswith(buf, "/private") && (buf[8] == 0 || buf[8] == '/'));
}

/* Strips the prefixes named by the "prefix=" argument ("-+": '-' then '+', in that order). */
static const char *strip_prefixes(const char *w, const char *allowed) {
        for (; allowed && *allowed; allowed++)
                if (*w == *allowed)
                        w++;
        return w;
}

static bool path_word_ok(const char *w, const char *args, unsigned version) {
        return path_ok(strip_prefixes(w, value_args_get(args, "prefix=")));
}

/* ReadWritePaths= & co, RequiresMountsFor=: blank-separated absolute
 * paths; args "prefix=-+" for the prefixes allowed. */
int value_check_path_list(const char *v, const char *args, unsigned version) {
        return value_each_word(v, NULL, VALUE_WORDS_UNQUOTE | VALUE_WORDS_ESCAPES_OK, path_word_ok, args, version);
}

/* One absolute path, taken as written (EnvironmentFile=, TTYPath=,
 * PathExists=, ListenFIFO=, ...); args "prefix=-" as above. */
int value_check_path_single(const char *v, const char *args, unsigned version) {
        return path_word_ok(v, args, version) ? VALUE_OK : VALUE_BAD;
}

/* PIDFile=: a relative path is taken below /run/; then as path_ok(). */
int value_check_pid_file(const char *v, const char *args, unsigned version) {
        char buf[VALIDATE_PATH_MAX + 8];

        (void) args;
        if (v[0] == '/')
                return path_ok(v) ? VALUE_OK : VALUE_BAD;
        if (strlen(v) >= VALIDATE_PATH_MAX)
                return VALUE_BAD;
        strcpy(buf, "/run/");
        strcat(buf, v);
        return path_ok(buf) ? VALUE_OK : VALUE_BAD;
}

/* ExecSearchPath=: ':'-separated absolute paths. */
int value_check_path_colon_list(const char *v, const char *args, unsigned version) {
        _cleanup_free_ char *c = strdup(v);
        char *save = NULL;

        (void) args;
        if (!c)
                return -ENOMEM; /* the caller's value may be long: no fixed buffer */
        for (char *p = strtok_r(c, ":", &save); p; p = strtok_r(NULL, ":", &save))
                if (!path_ok(p))
                        return VALUE_BAD;
        return VALUE_OK;
}

static bool tmpfs_word_ok(const char *w, const char *args, unsigned version) {
        char c[2 * VALIDATE_PATH_MAX + 2];
        char *colon;

        (void) args;
        if (strlen(w) >= sizeof c)
                return false; /* longer than any valid path pair */
        strcpy(c, w);
        colon = strchr(c, ':');
        if (colon)
                *colon = 0;
        return path_ok(c);
}

/* TemporaryFileSystem=: words "PATH[:OPTIONS]". */
int value_check_tmpfs_list(const char *v, const char *args, unsigned version) {
        return value_each_word(v, NULL, VALUE_WORDS_UNQUOTE | VALUE_WORDS_ESCAPES_OK, tmpfs_word_ok, args, version);
}

static bool bind_word_ok(const char *w, const char *args, unsigned version) {
        char c[2 * VALIDATE_PATH_MAX + 2];
        char *src, *dst, *opt;

        (void) args;
        if (strlen(w) >= sizeof c)
                return false; /* longer than any valid path pair */
        strcpy(c, w);
        src = c;
        if (*src == '-')
                src++;
        dst = strchr(src, ':');
        if (dst) {
                *dst++ = 0;
                opt = strchr(dst, ':');
                if (opt) {
                        *opt++ = 0;
                        if (!streq(opt, "rbind") && !streq(opt, "norbind"))
                                return false;
                }
                if (!path_ok(dst))
                        return false;
        }
        return path_ok(src);
}

/* BindPaths=, BindReadOnlyPaths=: words "[-]SRC[:DST[:rbind|norbind]]". */
int value_check_bind_list(const char *v, const char *args, unsigned version) {
        return value_each_word(v, NULL, VALUE_WORDS_UNQUOTE | VALUE_WORDS_ESCAPES_OK, bind_word_ok, args, version);
}

/* The next ':'-separated part of *p (NULL past the end), cut in place; before
 * 257 runs of ':' count as one separator and leading ones are skipped. */
static char *next_part(char **p, bool coalesce) {
        char *part, *colon;

        if (!*p)
                return NULL;
        if (coalesce)
                *p += strspn(*p, ":");
        part = *p;
        colon = strchr(part, ':');
        if (colon) {
                *colon = 0;
                *p = colon + 1;
        } else
                *p = NULL;
        return part;
}

/* "NAME[:LINK]"; since 257 "NAME[:[LINK][:FLAGS]]" with FLAGS "ro" and
 * empty parts kept apart. Anything after the last part is ignored. */
static bool directory_word_ok(const char *w, const char *args, unsigned version) {
        bool flags = sd_behaves(SD_EXEC_DIRECTORY_FLAGS, version);
        char c[2 * VALIDATE_PATH_MAX + 2];
        char *p = c, *name, *link, *flag;

        if (strlen(w) >= sizeof c)
                return false; /* longer than any valid path pair */
        strcpy(c, w);
        name = next_part(&p, !flags);
        link = next_part(&p, !flags);
        flag = flags ? next_part(&p, false) : NULL;
        if (!name || !relative_path_ok(name))
                return false;
        if (link && *link && (!value_args_has(args, "symlink") || !relative_path_ok(link)))
                return false;
        return !flag || !*flag || streq(flag, "ro");
}

/* StateDirectory= & co: words, relative and normalized; args "symlink":
 * "NAME:LINK" is allowed. */
int value_check_directory_list(const char *v, const char *args, unsigned version) {
        return value_each_word(v, NULL, VALUE_WORDS_UNQUOTE | VALUE_WORDS_ESCAPES_OK, directory_word_ok, args, version);
}

/* Condition*=/Assert*= with a path: "[|][!]PATH"; args "path" marks the
 * path-valued ones, the others are only judged when checked. */
int value_check_condition(const char *v, const char *args, unsigned version) {
        const char *p = v;

        if (!value_args_has(args, "path"))
                return VALUE_OK;
        if (*p == '|')
                p++;
        if (*p == '!')
                p++;
        return path_ok(p) ? VALUE_OK : VALUE_BAD;
}

static bool image_word_ok(const char *w, const char *args, unsigned version) {
        char c[2 * VALIDATE_PATH_MAX + 2];
        char *src, *dst, *opt;

        if (strlen(w) >= sizeof c)
                return false; /* longer than any valid path pair */
        strcpy(c, w);
        src = c + (c[0] == '-');
        dst = strchr(src, ':');
        if (dst)
                *dst++ = 0;
        if (!path_ok(src))
                return false;
        if (!value_args_has(args, "mount"))
                return true; /* the rest are mount options */
        if (!dst || !*dst)
                return false;
        opt = strchr(dst, ':');
        if (opt)
                *opt = 0;
        return path_ok(dst);
}

/* Copies [p, p+n) without the blanks around it into buf (size 32);
 * false when it does not fit. */
static bool trimmed(const char *p, size_t n, char buf[static 32]) {
        while (n > 0 && strchr(" \t", *p)) {
                p++;
                n--;
        }
        while (n > 0 && strchr(" \t", p[n - 1]))
                n--;
        if (n >= 32)
                return false;
        memcpy(buf, p, n);
        buf[n] = 0;
        return true;
}

/* RootImagePolicy= & co: "*", "-", "~", or ':'-separated "PARTITION=FLAGS"
 * (an empty PARTITION is the default), each partition at most once; FLAGS
 * empty, "-", or '+'-separated policy words. */
static bool image_policy_ok(const char *v) {
        static const char *const partitions[] = { "root", "usr", "home", "srv", "esp", "xbootldr", "swap",
                                                  "root-verity", "root-verity-sig", "usr-verity",
                                                  "usr-verity-sig", "tmp", "var", NULL };
        static const char *const words[] = { "verity", "signed", "encrypted", "unprotected", "unused", "absent",
                                             "open", "ignore", "read-only-on", "read-only-off", "growfs-on",
                                             "growfs-off", NULL };
        unsigned seen = 0; /* bit i: partitions[i]; the last bit: the default */

        if (value_in_list((const char *const[]) { "", "*", "-", "~", NULL }, v))
                return true;
        for (const char *p = v;;) {
                size_t n = strcspn(p, ":"), eq = strcspn(p, "=");
                char name[32], flags[32];
                unsigned bit = 1u << ELEMENTSOF(partitions);

                if (eq >= n || !trimmed(p, eq, name) || !trimmed(p + eq + 1, n - eq - 1, flags))
                        return false;
                for (size_t i = 0; partitions[i]; i++)
                        if (streq(name, partitions[i]))
                                bit = 1u << i;
                if ((name[0] && bit == 1u << ELEMENTSOF(partitions)) || (seen & bit))
                        return false;
                seen |= bit;
                if (flags[0] && !streq(flags, "-"))
                        for (const char *f = flags;;) {
                                size_t m = strcspn(f, "+");
                                char w[32];

                                if (!trimmed(f, m, w) || !value_in_list(words, w))
                                        return false;
                                if (!f[m])
                                        break;
                                f += m + 1;
                        }
                if (!p[n])
                        return true;
                p += n + 1;
        }
}

/* ExtensionImages= ("[-]PATH[:OPTIONS]"), MountImages= ("mount":
 * "[-]SOURCE:DEST[:OPTIONS]"), word by word; RootImagePolicy= & co
 * ("policy"): one image policy. */
int value_check_image_list(const char *v, const char *args, unsigned version) {
        if (value_args_has(args, "policy"))
                return image_policy_ok(v) ? VALUE_OK : VALUE_BAD;
        return value_each_word(v, NULL, VALUE_WORDS_UNQUOTE | VALUE_WORDS_ESCAPES_OK, image_word_ok, args, version);
}
