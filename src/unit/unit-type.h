/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

/* Unit types, from the name's suffix. */
typedef enum UnitType {
        UNIT_SERVICE,
        UNIT_SOCKET,
        UNIT_TARGET,
        UNIT_DEVICE,
        UNIT_MOUNT,
        UNIT_AUTOMOUNT,
        UNIT_SWAP,
        UNIT_TIMER,
        UNIT_PATH,
        UNIT_SLICE,
        UNIT_SCOPE,
        _UNIT_TYPE_MAX,
        _UNIT_TYPE_INVALID = -1,
} UnitType;

#define UNIT_TYPE_BIT(t) (1u << (t))
#define UNIT_TYPES_ALL ((1u << _UNIT_TYPE_MAX) - 1)
/* The types that carry an execution context (User=, Exec*, sandboxing). */
#define UNIT_TYPES_EXEC                                                          \
        (UNIT_TYPE_BIT(UNIT_SERVICE) | UNIT_TYPE_BIT(UNIT_SOCKET) |              \
         UNIT_TYPE_BIT(UNIT_MOUNT) | UNIT_TYPE_BIT(UNIT_SWAP))

const char *unit_type_to_string(UnitType t);     /* "service" */
UnitType unit_type_from_string(const char *s);    /* "service" -> UNIT_SERVICE */
/* The same for the n bytes at s (no NUL needed). */
UnitType unit_type_from_mem(const char *s, size_t n);
/* From a unit name or file name: the text after the last dot. */
UnitType unit_type_from_name(const char *name);
/* The type's own section ("Service"), or NULL for target and device. */
const char *unit_type_section(UnitType t);
/* Whether systemd knows section name for a unit of this type: [Unit],
 * [Install] and the type's own section. With an invalid type any of the
 * known sections is accepted. */
bool unit_type_has_section(UnitType t, const char *section);
/* The same for the n bytes at section (no NUL needed). */
bool unit_type_has_section_n(UnitType t, const char *section, size_t n);
