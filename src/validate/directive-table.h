/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unit/unit-type.h"

/* What systemd knows about each directive: where it may appear, how its
 * value is parsed, and in which versions a bad value refuses the unit.
 * The data lives in directives.tsv; gen-directive-table.py turns it into
 * a sorted C array at build time. */

typedef enum DirectiveKind {
        DIRECTIVE_STRING,            /* free text; only its specifiers are checked */
        DIRECTIVE_BOOL,
        DIRECTIVE_USER,              /* User=, SocketUser= */
        DIRECTIVE_GROUP,             /* Group=, SocketGroup= */
        DIRECTIVE_GROUP_LIST,        /* SupplementaryGroups= */
        DIRECTIVE_EXEC,              /* Exec*= command lines */
        DIRECTIVE_PATH,              /* one absolute path, specifiers expanded */
        DIRECTIVE_PATH_LIST,         /* blank-separated absolute paths, prefixes per values */
        DIRECTIVE_WORKING_DIRECTORY,
        DIRECTIVE_UNIT_NAME,         /* Slice=, Unit=, [Socket] Service= */
        DIRECTIVE_UNIT_NAME_LIST,    /* dependencies, [Install] lists */
        DIRECTIVE_SECURITY_LABEL,    /* SELinuxContext=, AppArmorProfile=, SmackProcessLabel= */
        DIRECTIVE_ENUM,              /* one word out of Directive.values */
        DIRECTIVE_INTEGER,
        DIRECTIVE_TIMESPAN,
        DIRECTIVE_MODE,
        DIRECTIVE_LIMIT,
        DIRECTIVE_SIGNAL,
        DIRECTIVE_SIZE,
        DIRECTIVE_CONDITION,         /* Condition*=, Assert*=; values "path" for path-valued ones */
        DIRECTIVE_ENVIRONMENT,       /* Environment= */
        DIRECTIVE_STDIO_INPUT,       /* StandardInput= */
        DIRECTIVE_STDIO_OUTPUT,      /* StandardOutput=, StandardError= */
        /* Value kinds judged by the parsers of value-check.h; the values
         * column carries their arguments. */
        DIRECTIVE_WEIGHT,
        DIRECTIVE_TASKS,
        DIRECTIVE_QUOTA,
        DIRECTIVE_EXIT_STATUS,
        DIRECTIVE_LOG_LEVEL,
        DIRECTIVE_FACILITY,
        DIRECTIVE_IP_TOS,
        DIRECTIVE_CALENDAR,
        DIRECTIVE_MEMORY,
        DIRECTIVE_IO_LIMIT,
        DIRECTIVE_IO_WEIGHT,
        DIRECTIVE_IO_LATENCY,
        DIRECTIVE_PATH_SINGLE,
        DIRECTIVE_PID_FILE,
        DIRECTIVE_PATH_COLON_LIST,
        DIRECTIVE_TMPFS_LIST,
        DIRECTIVE_BIND_LIST,
        DIRECTIVE_DIRECTORY_LIST,
        DIRECTIVE_SYSCALL_FILTER,
        DIRECTIVE_ERRNO,
        DIRECTIVE_SYSCALL_ARCHS,
        DIRECTIVE_ADDRESS_FAMILIES,
        DIRECTIVE_CPU_SET,
        DIRECTIVE_DEVICE_ALLOW,
        DIRECTIVE_IP_PREFIXES,
        DIRECTIVE_CONTROLLERS,
        DIRECTIVE_NAMESPACES,
        DIRECTIVE_ENV_NAMES,
        DIRECTIVE_URLS,
        DIRECTIVE_PERSONALITY,
        DIRECTIVE_BUS_NAME,
        DIRECTIVE_BASE64,
        DIRECTIVE_IFNAME,
        DIRECTIVE_SOCKET_ADDRESS,
        DIRECTIVE_NETLINK,
        DIRECTIVE_FDNAME,
        DIRECTIVE_LOG_NAMESPACE,
        DIRECTIVE_ROOT_HASH,
        DIRECTIVE_COREDUMP_FILTER,
        DIRECTIVE_CREDENTIAL,
        DIRECTIVE_LOG_FIELDS,
        DIRECTIVE_SOCKET_BIND,
        DIRECTIVE_BPF_PROGRAM,
        DIRECTIVE_IMAGE_LIST,
        DIRECTIVE_PRESSURE_LIMIT,
        DIRECTIVE_OPEN_FILE,
        DIRECTIVE_NFT_SET,
        DIRECTIVE_CGROUP_NAME,
        DIRECTIVE_IP_PROTOCOL,
        _DIRECTIVE_KIND_MAX,
} DirectiveKind;

typedef enum DirectiveEmpty {
        DIRECTIVE_EMPTY_RESETS,      /* "Key=" clears the setting (or list) */
        DIRECTIVE_EMPTY_IGNORED,     /* "Key=" does nothing (dependencies) */
        DIRECTIVE_EMPTY_INVALID,     /* "Key=" is a bad value like any other */
} DirectiveEmpty;

/* A section of a unit file, interned: [Unit], [Install], or a unit
 * type's own section ([Service] is DIRECTIVE_SECTION_TYPE + UNIT_SERVICE).
 * A Directive's section_id is one of the first three. */
typedef enum DirectiveSection {
        DIRECTIVE_SECTION_UNIT,
        DIRECTIVE_SECTION_INSTALL,
        DIRECTIVE_SECTION_TYPE,
        _DIRECTIVE_SECTION_MAX = DIRECTIVE_SECTION_TYPE + _UNIT_TYPE_MAX,
        _DIRECTIVE_SECTION_INVALID = -1,
} DirectiveSection;

/* The names and value lists of the table, one after the other: a
 * Directive holds 16-bit offsets into it rather than pointers (a pointer
 * table costs a dynamic relocation per pointer at every start of a
 * position-independent executable). Read it through the accessors below. */
extern const char directive_string_pool[];

typedef struct Directive {
        uint16_t name_offset;        /* directive_name() */
        /* directive_values(): 0 when there are none */
        uint16_t values_offset;
        unsigned short name_id;      /* rows with the same name share it; the
                                      * generated directive-names.h names them */
        DirectiveSection section_id; /* UNIT, INSTALL or TYPE (the unit type's
                                      * own section: see directive_section()) */
        unsigned types;              /* UNIT_TYPE_BIT() mask */
        DirectiveKind kind;
        bool list;                   /* several lines accumulate */
        DirectiveEmpty empty;
        bool dash_escape;            /* a leading '-' makes errors non-fatal */
        bool deprecated;             /* accepted, with a deprecation warning on every use */
        unsigned since;              /* first version, 0 = not recorded */
        unsigned fatal_since;        /* 0 = never fatal */
        unsigned fatal_until;        /* last fatal version, 0 = still fatal */
} Directive;

static inline const char *directive_name(const Directive *d) {
        return directive_string_pool + d->name_offset;
}

/* The values column, as a NUL-separated list ended by an empty string
 * (iterate with NULSTR_FOREACH), or NULL when the row has none.
 * DIRECTIVE_ENUM: the allowed words ("@bool" = any boolean). Unit-name
 * kinds: ".service" when the named unit must have that type. The value
 * kinds of value-check.h: their arguments. */
static inline const char *directive_values(const Directive *d) {
        return d->values_offset ? directive_string_pool + d->values_offset : NULL;
}

/* The directive as systemd would look it up for a unit of this type, or
 * NULL when systemd does not know it there (unknown key, or a section that
 * does not belong to the type). With type _UNIT_TYPE_INVALID the type is
 * taken from a type section's name; [Unit]/[Install] then match any type. */
const Directive *directive_lookup(UnitType type, const char *section, const char *key);
/* The same with the section interned (directive_section_from_name()), for
 * callers that look up many keys of one section. */
const Directive *directive_lookup_in(UnitType type, DirectiveSection section, const char *key);
/* The same with key_len = strlen(key), which a parser has measured. */
const Directive *directive_lookup_in_n(UnitType type, DirectiveSection section, const char *key, size_t key_len);

/* The section's id, or _DIRECTIVE_SECTION_INVALID for a section no unit
 * type knows ("X-..." ones included). */
DirectiveSection directive_section_from_name(const char *section);
/* unit_type_has_section() for an interned section: [Unit], [Install] and
 * the type's own; with an invalid type any type's section. */
static inline bool directive_section_in_type(DirectiveSection section, UnitType type) {
        if (section == DIRECTIVE_SECTION_UNIT || section == DIRECTIVE_SECTION_INSTALL)
                return true;
        if (section < DIRECTIVE_SECTION_TYPE || section >= _DIRECTIVE_SECTION_MAX)
                return false;
        return type < 0 || type >= _UNIT_TYPE_MAX || section == (DirectiveSection) (DIRECTIVE_SECTION_TYPE + type);
}

/* The id of a directive name (a DirectiveNameId of the generated
 * directive-names.h), or -1 when no section of any unit type has a
 * directive of that name. */
int directive_name_find(const char *name);
/* The same with n = strlen(name). */
int directive_name_find_n(const char *name, size_t n);

/* Whether any section of any unit type has a directive of that name. */
bool directive_name_known(const char *name);

/* Iterate over the whole table: for (size_t i = 0; (d = directive_get(i)); i++) */
const Directive *directive_get(size_t i);
size_t directive_count(void);

/* The section name as it appears in a unit of the given type ("Service"
 * for a type-section directive in a service). */
const char *directive_section(const Directive *d, UnitType type);

/* Whether an invalid value refuses the unit in this systemd version. */
static inline bool directive_is_fatal(const Directive *d, unsigned version) {
        if (!d || d->fatal_since == 0 || version < d->fatal_since)
                return false;
        return d->fatal_until == 0 || version <= d->fatal_until;
}
/* Whether the directive exists in that version (as far as recorded). */
static inline bool directive_exists_in(const Directive *d, unsigned version) {
        return d && (d->since == 0 || version >= d->since);
}

const char *directive_kind_to_string(DirectiveKind k);
