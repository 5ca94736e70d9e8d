/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

/* Path rules as systemd applies them to unit-file values. */

#define VALIDATE_PATH_MAX 4096   /* PATH_MAX: a valid path is shorter */
#define VALIDATE_NAME_MAX 255    /* NAME_MAX: longest path component */

static inline bool path_is_absolute(const char *p) {
        return p && p[0] == '/';
}

/* Non-empty, shorter than PATH_MAX, no component longer than NAME_MAX. */
bool path_is_valid(const char *p);
/* Valid, and no "." or ".." components and no "//". */
bool path_is_normalized(const char *p);
/* Whether p has a ".." component. */
bool path_has_dotdot(const char *p);
/* A single file name: not empty, not "." or "..", no '/', <= NAME_MAX. */
bool filename_is_valid(const char *p);

typedef enum PathCheck {
        PATH_CHECK_OK,
        PATH_CHECK_NOT_ABSOLUTE,
        PATH_CHECK_BAD_UTF8,
        PATH_CHECK_BAD_LENGTH,
        PATH_CHECK_NOT_NORMALIZED,
} PathCheck;

/* What systemd's path_simplify_and_warn() with "must be absolute" decides
 * about a directive's path (after specifier expansion): redundant slashes
 * and "." components are forgiven, ".." is not. */
PathCheck path_check_absolute(const char *p);
/* The same, always the long way (utf8, a simplified copy, its checks):
 * for tests, which pin path_check_absolute()'s one-pass shortcut to it. */
PathCheck path_check_absolute_full(const char *p);
const char *path_check_to_string(PathCheck c); /* "path is not absolute", ... */

/* Remove duplicate slashes, "." components and a trailing slash, in place
 * (".." is kept). */
void path_simplify(char *p);
