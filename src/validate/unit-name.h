/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "unit/unit-type.h"

/* Unit names as systemd validates them (reference §1.9, checked against
 * systemd's src/basic/unit-name.c): prefix characters [A-Za-z0-9:_.\-],
 * the first '@' separates the instance (which may contain further '@'),
 * the suffix after the last '.' must be a unit type, at most 255 bytes. */

#define UNIT_NAME_MAX 256 /* including the NUL */

typedef enum UnitNameFlags {
        UNIT_NAME_PLAIN = 1 << 0,    /* foo.service */
        UNIT_NAME_TEMPLATE = 1 << 1, /* foo@.service */
        UNIT_NAME_INSTANCE = 1 << 2, /* foo@bar.service */
        UNIT_NAME_ANY = UNIT_NAME_PLAIN | UNIT_NAME_TEMPLATE | UNIT_NAME_INSTANCE,
} UnitNameFlags;

bool unit_name_is_valid(const char *name, UnitNameFlags flags);
/* Which of the three forms the name has, or -EINVAL when it is not valid. */
int unit_name_classify(const char *name);
/* The same, and the type from the suffix in the same pass (*ret_type is
 * set only for a valid name): for callers that need both. */
int unit_name_classify_type(const char *name, UnitType *ret_type);
/* The same for a name of n bytes (strlen(name): it holds no NUL). */
int unit_name_classify_type_n(const char *name, size_t n, UnitType *ret_type);

static inline bool unit_name_is_template(const char *name) {
        return unit_name_is_valid(name, UNIT_NAME_TEMPLATE);
}
static inline bool unit_name_is_instance(const char *name) {
        return unit_name_is_valid(name, UNIT_NAME_INSTANCE);
}

/* The part before the first '@' (or before the suffix). */
int unit_name_to_prefix(const char *name, char **ret);
/* Stores the instance ("" for a template, NULL for a plain name) and
 * returns the name's form (a UnitNameFlags value) or -EINVAL/-ENOMEM. */
int unit_name_to_instance(const char *name, char **ret);
/* The name without the type suffix (what %N gives). */
int unit_name_without_suffix(const char *name, char **ret);
/* foo@bar.service -> foo@.service */
int unit_name_template(const char *name, char **ret);
/* _UNIT_TYPE_INVALID when the name is not valid. */
UnitType unit_name_to_type(const char *name);

/* Undo unit-name escaping: '-' -> '/', "\xNN" -> byte. Any other backslash
 * sequence is -EINVAL. A "\x00" ends the string early, as in systemd. */
int unit_name_unescape(const char *s, char **ret);
/* The path an escaped name stands for: "-" -> "/", otherwise "/" + the
 * unescaped text, which must not start or end in '/' and must be
 * normalized (what %f uses). */
int unit_name_path_unescape(const char *s, char **ret);
