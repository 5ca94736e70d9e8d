/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "basic/macro.h"
#include "unit-type.h"

static const char *const type_names[_UNIT_TYPE_MAX] = {
        [UNIT_SERVICE] = "service", [UNIT_SOCKET] = "socket",       [UNIT_TARGET] = "target",
        [UNIT_DEVICE] = "device",   [UNIT_MOUNT] = "mount",         [UNIT_AUTOMOUNT] = "automount",
        [UNIT_SWAP] = "swap",       [UNIT_TIMER] = "timer",         [UNIT_PATH] = "path",
        [UNIT_SLICE] = "slice",     [UNIT_SCOPE] = "scope",
};

static const char *const type_sections[_UNIT_TYPE_MAX] = {
        [UNIT_SERVICE] = "Service", [UNIT_SOCKET] = "Socket", [UNIT_MOUNT] = "Mount",
        [UNIT_AUTOMOUNT] = "Automount", [UNIT_SWAP] = "Swap", [UNIT_TIMER] = "Timer",
        [UNIT_PATH] = "Path",       [UNIT_SLICE] = "Slice",   [UNIT_SCOPE] = "Scope",
};

const char *unit_type_to_string(UnitType t) {
        if (t < 0 || t >= _UNIT_TYPE_MAX)
                return NULL;
        return type_names[t];
}

/* The first two letters tell the only type the name can be; one compare
 * confirms it. */
UnitType unit_type_from_string(const char *s) {
        UnitType t;

        switch (s[0]) {
        case 'a':
                t = UNIT_AUTOMOUNT;
                break;
        case 'd':
                t = UNIT_DEVICE;
                break;
        case 'm':
                t = UNIT_MOUNT;
                break;
        case 'p':
                t = UNIT_PATH;
                break;
        case 's':
                switch (s[1]) {
                case 'e':
                        t = UNIT_SERVICE;
                        break;
                case 'o':
                        t = UNIT_SOCKET;
                        break;
                case 'w':
                        t = UNIT_SWAP;
                        break;
                case 'l':
                        t = UNIT_SLICE;
                        break;
                case 'c':
                        t = UNIT_SCOPE;
                        break;
                default:
                        return _UNIT_TYPE_INVALID;
                }
                break;
        case 't':
                if (s[1] == 'a')
                        t = UNIT_TARGET;
                else if (s[1] == 'i')
                        t = UNIT_TIMER;
                else
                        return _UNIT_TYPE_INVALID;
                break;
        default:
                return _UNIT_TYPE_INVALID;
        }
        return streq(type_names[t], s) ? t : _UNIT_TYPE_INVALID;
}

UnitType unit_type_from_name(const char *name) {
        const char *dot = strrchr(name, '.');

        /* A bare type name ("service") is what type-wide drop-in
         * directories ("service.d/") are named after. */
        return unit_type_from_string(dot ? dot + 1 : name);
}

const char *unit_type_section(UnitType t) {
        if (t < 0 || t >= _UNIT_TYPE_MAX)
                return NULL;
        return type_sections[t];
}

bool unit_type_has_section(UnitType t, const char *section) {
        if (streq(section, "Unit") || streq(section, "Install"))
                return true;
        if (t < 0 || t >= _UNIT_TYPE_MAX) {
                for (int i = 0; i < _UNIT_TYPE_MAX; i++)
                        if (type_sections[i] && streq(type_sections[i], section))
                                return true;
                return false;
        }
        return type_sections[t] && streq(type_sections[t], section);
}
