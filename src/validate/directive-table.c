/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "basic/macro.h"
#include "directive-table-data.h"
#include "directive-table.h"

/* Index of the first entry with this name, or directive_table_size. */
/* The first row with that name, or directive_table_size if none. */
static size_t first_with_name(const char *name) {
        size_t mask = directive_name_index_size - 1;

        for (size_t h = directive_name_hash(name) & mask;; h = (h + 1) & mask) {
                int16_t i = directive_name_index[h];

                if (i < 0)
                        return directive_table_size;
                if (streq(directive_table[i].name, name))
                        return (size_t) i;
        }
}

static UnitType type_of_section(const char *section) {
        for (int t = 0; t < _UNIT_TYPE_MAX; t++) {
                const char *s = unit_type_section((UnitType) t);
                if (s && s[0] == section[0] && streq(s, section))
                        return (UnitType) t;
        }
        return _UNIT_TYPE_INVALID;
}

const Directive *directive_lookup(UnitType type, const char *section, const char *key) {
        bool common;

        if (!section || !key)
                return NULL;

        common = streq(section, "Unit") || streq(section, "Install");
        if (!common) {
                UnitType st = type_of_section(section);

                /* A type section only counts in a unit of that type. */
                if (st < 0 || (type >= 0 && type < _UNIT_TYPE_MAX && st != type))
                        return NULL;
                type = st;
        }

        for (size_t i = first_with_name(key); i < directive_table_size; i++) {
                const Directive *d = &directive_table[i];

                if (!streq(d->name, key))
                        break;
                if (common) {
                        if (!d->section || !streq(d->section, section))
                                continue;
                        if (type >= 0 && type < _UNIT_TYPE_MAX && !(d->types & UNIT_TYPE_BIT(type)))
                                continue;
                        return d;
                }
                if (!d->section && (d->types & UNIT_TYPE_BIT(type)))
                        return d;
        }
        return NULL;
}

bool directive_name_known(const char *name) {
        size_t i;

        if (!name)
                return false;
        i = first_with_name(name);
        return i < directive_table_size && streq(directive_table[i].name, name);
}

const Directive *directive_get(size_t i) {
        return i < directive_table_size ? &directive_table[i] : NULL;
}

size_t directive_count(void) {
        return directive_table_size;
}

const char *directive_section(const Directive *d, UnitType type) {
        if (!d)
                return NULL;
        if (d->section)
                return d->section;
        if (type >= 0 && type < _UNIT_TYPE_MAX && (d->types & UNIT_TYPE_BIT(type)))
                return unit_type_section(type);
        /* No type given: the first type the directive belongs to. */
        for (int t = 0; t < _UNIT_TYPE_MAX; t++)
                if (d->types & UNIT_TYPE_BIT(t))
                        return unit_type_section((UnitType) t);
        return NULL;
}

bool directive_is_fatal(const Directive *d, unsigned version) {
        if (!d || d->fatal_since == 0 || version < d->fatal_since)
                return false;
        return d->fatal_until == 0 || version <= d->fatal_until;
}

bool directive_exists_in(const Directive *d, unsigned version) {
        return d && (d->since == 0 || version >= d->since);
}

const char *directive_kind_to_string(DirectiveKind k) {
        static const char *const names[_DIRECTIVE_KIND_MAX] = {
                [DIRECTIVE_STRING] = "string",
                [DIRECTIVE_BOOL] = "bool",
                [DIRECTIVE_USER] = "user",
                [DIRECTIVE_GROUP] = "group",
                [DIRECTIVE_GROUP_LIST] = "group-list",
                [DIRECTIVE_EXEC] = "exec",
                [DIRECTIVE_PATH] = "path",
                [DIRECTIVE_PATH_LIST] = "path-list",
                [DIRECTIVE_WORKING_DIRECTORY] = "working-directory",
                [DIRECTIVE_UNIT_NAME] = "unit-name",
                [DIRECTIVE_UNIT_NAME_LIST] = "unit-name-list",
                [DIRECTIVE_SECURITY_LABEL] = "security-label",
                [DIRECTIVE_ENUM] = "enum",
                [DIRECTIVE_INTEGER] = "integer",
                [DIRECTIVE_TIMESPAN] = "timespan",
                [DIRECTIVE_MODE] = "mode",
                [DIRECTIVE_LIMIT] = "limit",
                [DIRECTIVE_SIGNAL] = "signal",
                [DIRECTIVE_SIZE] = "size",
                [DIRECTIVE_CONDITION] = "condition",
                [DIRECTIVE_ENVIRONMENT] = "environment",
                [DIRECTIVE_STDIO_INPUT] = "stdio-input",
                [DIRECTIVE_STDIO_OUTPUT] = "stdio-output",
                [DIRECTIVE_WEIGHT] = "weight",
                [DIRECTIVE_TASKS] = "tasks",
                [DIRECTIVE_QUOTA] = "quota",
                [DIRECTIVE_EXIT_STATUS] = "exit-status",
                [DIRECTIVE_LOG_LEVEL] = "log-level",
                [DIRECTIVE_FACILITY] = "facility",
                [DIRECTIVE_IP_TOS] = "ip-tos",
                [DIRECTIVE_CALENDAR] = "calendar",
                [DIRECTIVE_MEMORY] = "memory",
                [DIRECTIVE_IO_LIMIT] = "io-limit",
                [DIRECTIVE_IO_WEIGHT] = "io-weight",
                [DIRECTIVE_IO_LATENCY] = "io-latency",
                [DIRECTIVE_PATH_SINGLE] = "path-single",
                [DIRECTIVE_PID_FILE] = "pid-file",
                [DIRECTIVE_PATH_COLON_LIST] = "path-colon-list",
                [DIRECTIVE_TMPFS_LIST] = "tmpfs-list",
                [DIRECTIVE_BIND_LIST] = "bind-list",
                [DIRECTIVE_DIRECTORY_LIST] = "directory-list",
                [DIRECTIVE_SYSCALL_FILTER] = "syscall-filter",
                [DIRECTIVE_ERRNO] = "errno",
                [DIRECTIVE_SYSCALL_ARCHS] = "syscall-archs",
                [DIRECTIVE_ADDRESS_FAMILIES] = "address-families",
                [DIRECTIVE_CPU_SET] = "cpu-set",
                [DIRECTIVE_DEVICE_ALLOW] = "device-allow",
                [DIRECTIVE_IP_PREFIXES] = "ip-prefixes",
                [DIRECTIVE_CONTROLLERS] = "controllers",
                [DIRECTIVE_NAMESPACES] = "namespaces",
                [DIRECTIVE_ENV_NAMES] = "env-names",
                [DIRECTIVE_URLS] = "urls",
                [DIRECTIVE_PERSONALITY] = "personality",
                [DIRECTIVE_BUS_NAME] = "bus-name",
                [DIRECTIVE_BASE64] = "base64",
                [DIRECTIVE_IFNAME] = "ifname",
                [DIRECTIVE_SOCKET_ADDRESS] = "socket-address",
                [DIRECTIVE_NETLINK] = "netlink",
                [DIRECTIVE_FDNAME] = "fdname",
                [DIRECTIVE_LOG_NAMESPACE] = "log-namespace",
                [DIRECTIVE_ROOT_HASH] = "root-hash",
                [DIRECTIVE_COREDUMP_FILTER] = "coredump-filter",
                [DIRECTIVE_CREDENTIAL] = "credential",
                [DIRECTIVE_LOG_FIELDS] = "log-fields",
                [DIRECTIVE_SOCKET_BIND] = "socket-bind",
                [DIRECTIVE_BPF_PROGRAM] = "bpf-program",
                [DIRECTIVE_IMAGE_LIST] = "image-list",
                [DIRECTIVE_PRESSURE_LIMIT] = "pressure-limit",
                [DIRECTIVE_OPEN_FILE] = "open-file",
                [DIRECTIVE_NFT_SET] = "nft-set",
                [DIRECTIVE_CGROUP_NAME] = "cgroup-name",
                [DIRECTIVE_IP_PROTOCOL] = "ip-protocol",
        };

        if ((int) k < 0 || k >= _DIRECTIVE_KIND_MAX)
                return NULL;
        return names[k];
}
