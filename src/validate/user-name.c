/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdint.h>
#include <string.h>

#include "basic/macro.h"
#include "behaviour.h"
#include "basic/utf8.h"
#include "user-name.h"

/* systemd's strict limit: the utmp user field holds 32 bytes with the NUL. */
#define STRICT_NAME_MAX 31
/* adduser, Debian useradd and the RHEL regex all stop at 32 bytes. */
#define SHADOW_NAME_MAX 32
/* Upstream shadow refuses names of LOGIN_NAME_MAX (256 on glibc) bytes or more. */
#define UPSTREAM_NAME_MAX 255

static const char *const mode_names[_USER_NAME_MODE_MAX] = {
        [USER_NAME_STRICT] = "strict",
        [USER_NAME_RELAXED] = "relaxed",
        [USER_NAME_POSIX] = "posix",
        [USER_NAME_DEBIAN] = "debian",
        [USER_NAME_DEBIAN_SYSTEM] = "debian-system",
        [USER_NAME_SHADOW] = "shadow",
        [USER_NAME_SHADOW_UPSTREAM] = "shadow-upstream",
        [USER_NAME_RHEL] = "rhel",
};

const char *user_name_mode_to_string(UserNameMode mode) {
        if (mode < 0 || mode >= _USER_NAME_MODE_MAX)
                return NULL;
        return mode_names[mode];
}

UserNameMode user_name_mode_from_string(const char *s) {
        if (!s)
                return _USER_NAME_MODE_INVALID;
        for (int m = 0; m < _USER_NAME_MODE_MAX; m++)
                if (streq(mode_names[m], s))
                        return (UserNameMode) m;
        return _USER_NAME_MODE_INVALID;
}

static bool is_ascii_alpha(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_digit(char c) {
        return c >= '0' && c <= '9';
}

static bool is_lower_alnum(char c) {
        return (c >= 'a' && c <= 'z') || is_digit(c);
}

static bool is_cc(unsigned char c) {
        return c < ' ' || c == 0x7f;
}

static bool all_digits(const char *s) {
        for (; *s; s++)
                if (!is_digit(*s))
                        return false;
        return true;
}

static bool dot_or_dot_dot(const char *s) {
        return streq(s, ".") || streq(s, "..");
}

/* First character [A-Za-z_], then [A-Za-z0-9_-]; dots optionally allowed
 * after the first character (systemd v243-v245 accepted them). */
static bool strict_chars(const char *name, bool allow_dots) {
        if (!is_ascii_alpha(name[0]) && name[0] != '_')
                return false;
        for (const char *p = name + 1; *p; p++)
                if (!is_ascii_alpha(*p) && !is_digit(*p) && *p != '_' && *p != '-' &&
                    !(allow_dots && *p == '.'))
                        return false;
        return strlen(name) <= STRICT_NAME_MAX;
}

static bool relaxed_name(const char *name) {
        size_t n = strlen(name);

        /* Only the characters that break passwd files, paths or numeric
         * parsing are refused; everything else is taken literally. */
        if (n == 0 || !utf8_is_valid(name, n))
                return false;
        for (const char *p = name; *p; p++)
                if (is_cc((unsigned char) *p) || *p == ':' || *p == '/')
                        return false;
        if (all_digits(name))
                return false;
        if (name[0] == '-' && all_digits(name + 1))
                return false;
        if (dot_or_dot_dot(name))
                return false;
        if (name[0] == ' ' || name[n - 1] == ' ')
                return false;
        return true;
}

static bool posix_name(const char *name) {
        if (!name[0] || name[0] == '-')
                return false;
        for (const char *p = name; *p; p++)
                if (!is_ascii_alpha(*p) && !is_digit(*p) && !strchr("._-", *p))
                        return false;
        return true;
}

static bool perl_space(char c) {
        return strchr(" \t\n\r\f\v", c) && c;
}

/* adduser's checks that no option can switch off. */
static bool adduser_hard_checks(const char *name) {
        if (!name[0] || all_digits(name) || strlen(name) > SHADOW_NAME_MAX)
                return false;
        if (strchr("-+~", name[0]))
                return false;
        for (const char *p = name; *p; p++)
                if (*p == ':' || *p == ',' || *p == '/' || perl_space(*p))
                        return false;
        return true;
}

/* ^[a-z][-a-z0-9_]*\$?$ or, for system users, ^[a-z_][-a-z0-9_]*\$?$ */
static bool adduser_regex(const char *name, bool system) {
        size_t n = strlen(name);

        if (n > 0 && name[n - 1] == '$')
                n--;
        if (n == 0)
                return false;
        if (!(name[0] >= 'a' && name[0] <= 'z') && !(system && name[0] == '_'))
                return false;
        for (size_t i = 1; i < n; i++)
                if (!is_lower_alnum(name[i]) && name[i] != '-' && name[i] != '_')
                        return false;
        return true;
}

static bool debian_useradd(const char *name) {
        if (!name[0] || strlen(name) > SHADOW_NAME_MAX)
                return false;
        if (strchr("-+~", name[0]))
                return false;
        for (const char *p = name; *p; p++)
                if (*p == ':' || *p == ',' || *p == ' ' || is_cc((unsigned char) *p))
                        return false;
        return true;
}

static bool shadow_upstream(const char *name) {
        size_t n = strlen(name);

        if (n == 0 || n > UPSTREAM_NAME_MAX || dot_or_dot_dot(name) || all_digits(name))
                return false;
        if (name[0] == '-')
                return false;
        for (const char *p = name; *p; p++)
                if (strchr(",: /", *p) || is_cc((unsigned char) *p))
                        return false;

        /* The character rule that --badname would skip; a final '$' is
         * allowed for Samba machine accounts. */
        if (name[n - 1] == '$')
                n--;
        if (n == 0)
                return false;
        for (size_t i = 0; i < n; i++) {
                char c = name[i];
                if (!is_ascii_alpha(c) && !is_digit(c) && c != '_' && c != '.' && !(i > 0 && c == '-'))
                        return false;
        }
        return true;
}

/* ^[a-zA-Z0-9_.][a-zA-Z0-9_.-]{0,30}[a-zA-Z0-9_.$-]?$ */
static bool rhel_name(const char *name) {
        size_t n = strlen(name);

        if (n == 0 || n > SHADOW_NAME_MAX || dot_or_dot_dot(name) || all_digits(name))
                return false;
        for (size_t i = 0; i < n; i++) {
                char c = name[i];
                bool base = is_ascii_alpha(c) || is_digit(c) || c == '_' || c == '.';

                if (base)
                        continue;
                if (i == 0)
                        return false;
                if (c == '-')
                        continue;
                /* '$' only as the optional last character. */
                if (c == '$' && i == n - 1)
                        continue;
                return false;
        }
        /* With no trailing optional character the middle part may only be
         * 30 long, so a 32-byte name needs its last character to fit the
         * optional class, which every allowed character except '$' does. */
        return true;
}

bool user_name_is_valid(const char *name, UserNameMode mode) {
        if (!name)
                return false;

        switch (mode) {
        case USER_NAME_STRICT:
                return strict_chars(name, false);
        case USER_NAME_RELAXED:
                return user_name_check_systemd(name, 246, NULL) != USER_CHECK_INVALID;
        case USER_NAME_POSIX:
                return posix_name(name);
        case USER_NAME_DEBIAN:
                return adduser_hard_checks(name) && adduser_regex(name, false);
        case USER_NAME_DEBIAN_SYSTEM:
                return adduser_hard_checks(name) && adduser_regex(name, true);
        case USER_NAME_SHADOW:
                return debian_useradd(name);
        case USER_NAME_SHADOW_UPSTREAM:
                return shadow_upstream(name);
        case USER_NAME_RHEL:
                return rhel_name(name);
        default:
                return false;
        }
}

UserCheck user_name_check_systemd(const char *name, unsigned systemd_version, uint32_t *ret_uid) {
        uint32_t uid;

        if (ret_uid)
                *ret_uid = UINT32_MAX;
        if (!name || !name[0])
                return USER_CHECK_INVALID;

        if (parse_uid(name, systemd_version, &uid) >= 0) {
                if (ret_uid)
                        *ret_uid = uid;
                return USER_CHECK_OK;
        }

        if (strict_chars(name, false))
                return USER_CHECK_OK;

        if (sd_behaves(SD_USER_NAMES_RELAXED, systemd_version))
                return relaxed_name(name) ? USER_CHECK_NOTICE : USER_CHECK_INVALID;

        /* v243-v245 let dots through (not as first character) with a warning. */
        if (sd_behaves(SD_USER_NAMES_DOTS, systemd_version) && strict_chars(name, true))
                return USER_CHECK_NOTICE;

        return USER_CHECK_INVALID;
}
