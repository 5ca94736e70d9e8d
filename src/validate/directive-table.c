/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "basic/macro.h"
#include "directive-table-data.h"
#include "directive-table.h"

int directive_name_find(const char *name) {
        return directive_name_find_n(name, strlen(name));
}

int directive_name_find_n(const char *name, size_t n) {
        size_t bucket, slot;
        const DirectiveName *dn;
        uint64_t head, tail, h;
        int16_t id;

        directive_name_words(name, n, &head, &tail);
        h = directive_name_hash(head, tail, n);
        bucket = h >> (64 - DIRECTIVE_NAME_BUCKET_BITS);
        slot = ((h >> 20) ^ directive_name_displacement[bucket]) & ((1u << DIRECTIVE_NAME_SLOT_BITS) - 1);
        id = directive_name_slots[slot];

        /* The slot is the only place the name can be: one compare decides,
         * of the words already at hand and, past 16 bytes, the middle. */
        if (id < 0)
                return -1;
        dn = &directive_names[id];
        if (dn->len != n || dn->head != head || dn->tail != tail ||
            (n > 16 && memcmp(directive_string_pool + dn->name_offset + 8, name + 8, n - 16) != 0))
                return -1;
        return id;
}

DirectiveSection directive_section_from_name(const char *section) {
        UnitType t;

        switch (section[0]) {
        case 'U':
                return streq(section, "Unit") ? DIRECTIVE_SECTION_UNIT : _DIRECTIVE_SECTION_INVALID;
        case 'I':
                return streq(section, "Install") ? DIRECTIVE_SECTION_INSTALL : _DIRECTIVE_SECTION_INVALID;
        case 'A': t = UNIT_AUTOMOUNT; break;
        case 'M': t = UNIT_MOUNT; break;
        case 'P': t = UNIT_PATH; break;
        case 'T': t = UNIT_TIMER; break;
        case 'S':
                /* Service, Socket, Swap, Slice, Scope: told apart by the second letter. */
                switch (section[1]) {
                case 'e': t = UNIT_SERVICE; break;
                case 'o': t = UNIT_SOCKET; break;
                case 'w': t = UNIT_SWAP; break;
                case 'l': t = UNIT_SLICE; break;
                case 'c': t = UNIT_SCOPE; break;
                default: return _DIRECTIVE_SECTION_INVALID;
                }
                break;
        default:
                return _DIRECTIVE_SECTION_INVALID;
        }
        return streq(section, unit_type_section(t)) ? (DirectiveSection) (DIRECTIVE_SECTION_TYPE + t)
                                                    : _DIRECTIVE_SECTION_INVALID;
}

const Directive *directive_lookup_in(UnitType type, DirectiveSection section, const char *key) {
        return key ? directive_lookup_in_n(type, section, key, strlen(key)) : NULL;
}

const Directive *directive_lookup_in_n(UnitType type, DirectiveSection section, const char *key, size_t key_len) {
        const DirectiveName *n;
        int id;
        bool common = section == DIRECTIVE_SECTION_UNIT || section == DIRECTIVE_SECTION_INSTALL;
        bool typed = type >= 0 && type < _UNIT_TYPE_MAX;

        if (!key || section < 0 || section >= _DIRECTIVE_SECTION_MAX)
                return NULL;
        if (!common) {
                UnitType st = (UnitType) (section - DIRECTIVE_SECTION_TYPE);

                /* A type section only counts in a unit of that type. */
                if (typed && st != type)
                        return NULL;
                type = st;
                typed = true;
        }

        id = directive_name_find_n(key, key_len);
        if (id < 0)
                return NULL;
        n = &directive_names[id];
        for (size_t i = n->first; i < (size_t) n->first + n->count; i++) {
                const Directive *d = &directive_table[i];

                if (common) {
                        if (d->section_id != section)
                                continue;
                        if (typed && !(d->types & UNIT_TYPE_BIT(type)))
                                continue;
                        return d;
                }
                if (d->section_id == DIRECTIVE_SECTION_TYPE && (d->types & UNIT_TYPE_BIT(type)))
                        return d;
        }
        return NULL;
}

const Directive *directive_lookup(UnitType type, const char *section, const char *key) {
        if (!section || !key)
                return NULL;
        return directive_lookup_in(type, directive_section_from_name(section), key);
}

bool directive_name_known(const char *name) {
        return name && directive_name_find(name) >= 0;
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
        if (d->section_id == DIRECTIVE_SECTION_UNIT)
                return "Unit";
        if (d->section_id == DIRECTIVE_SECTION_INSTALL)
                return "Install";
        if (type >= 0 && type < _UNIT_TYPE_MAX && (d->types & UNIT_TYPE_BIT(type)))
                return unit_type_section(type);
        /* No type given: the first type the directive belongs to. */
        for (int t = 0; t < _UNIT_TYPE_MAX; t++)
                if (d->types & UNIT_TYPE_BIT(t))
                        return unit_type_section((UnitType) t);
        return NULL;
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
