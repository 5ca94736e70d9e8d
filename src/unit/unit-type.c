/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdint.h>
#include <string.h>

#include "basic/macro.h"
#include "unit-type.h"

/* Each type's name and its length, from one literal. */
typedef struct TypeName {
        const char *name;
        unsigned char len;
} TypeName;
#define TYPE_NAME(s) { s, sizeof(s) - 1 }

static const TypeName type_names[_UNIT_TYPE_MAX] = {
        [UNIT_SERVICE] = TYPE_NAME("service"), [UNIT_SOCKET] = TYPE_NAME("socket"),
        [UNIT_TARGET] = TYPE_NAME("target"),   [UNIT_DEVICE] = TYPE_NAME("device"),
        [UNIT_MOUNT] = TYPE_NAME("mount"),     [UNIT_AUTOMOUNT] = TYPE_NAME("automount"),
        [UNIT_SWAP] = TYPE_NAME("swap"),       [UNIT_TIMER] = TYPE_NAME("timer"),
        [UNIT_PATH] = TYPE_NAME("path"),       [UNIT_SLICE] = TYPE_NAME("slice"),
        [UNIT_SCOPE] = TYPE_NAME("scope"),
};

static const char *const type_sections[_UNIT_TYPE_MAX] = {
        [UNIT_SERVICE] = "Service", [UNIT_SOCKET] = "Socket", [UNIT_MOUNT] = "Mount",
        [UNIT_AUTOMOUNT] = "Automount", [UNIT_SWAP] = "Swap", [UNIT_TIMER] = "Timer",
        [UNIT_PATH] = "Path",       [UNIT_SLICE] = "Slice",   [UNIT_SCOPE] = "Scope",
};

const char *unit_type_to_string(UnitType t) {
        if (t < 0 || t >= _UNIT_TYPE_MAX)
                return NULL;
        return type_names[t].name;
}

/* memcmp(a, b, n) == 0 for 4 <= n <= 16 without a call: the first and
 * the last four (or eight) bytes, which overlap and cover all n. */
static bool mem_equal_short(const char *a, const char *b, size_t n) {
        if (n >= 8) {
                uint64_t x0, y0, x1, y1;

                memcpy(&x0, a, 8), memcpy(&y0, b, 8);
                memcpy(&x1, a + n - 8, 8), memcpy(&y1, b + n - 8, 8);
                return ((x0 ^ y0) | (x1 ^ y1)) == 0;
        } else {
                uint32_t x0, y0, x1, y1;

                memcpy(&x0, a, 4), memcpy(&y0, b, 4);
                memcpy(&x1, a + n - 4, 4), memcpy(&y1, b + n - 4, 4);
                return ((x0 ^ y0) | (x1 ^ y1)) == 0;
        }
}

/* The type a name of n bytes starting with bytes a and b can only be:
 * every type has a slot of its own (a hash without collisions among the
 * eleven: test-cat-stream's unit_types_from_mem tries them all),
 * found without a branch per letter. */
static int type_slot(unsigned char a, unsigned char b, size_t n) {
        return (int) (((unsigned) a * 4 + b + (unsigned) n * 5) & 15);
}

static const signed char type_by_slot[16] = {
        -1,              UNIT_SLICE,  UNIT_TIMER,     UNIT_DEVICE, UNIT_SERVICE,    UNIT_PATH,
        UNIT_AUTOMOUNT,  UNIT_SWAP,   UNIT_SCOPE,     UNIT_SOCKET, -1,              -1,
        UNIT_MOUNT,      -1,          -1,             UNIT_TARGET,
};

UnitType unit_type_from_mem(const char *s, size_t n) {
        UnitType t;

        /* Every type name has four to nine letters: s[1] is in range. */
        if (n < 4 || n > 9)
                return _UNIT_TYPE_INVALID;
        t = type_by_slot[type_slot((unsigned char) s[0], (unsigned char) s[1], n)];
        if (t < 0 || type_names[t].len != n)
                return _UNIT_TYPE_INVALID;
        return mem_equal_short(type_names[t].name, s, n) ? t : _UNIT_TYPE_INVALID;
}

/* A type name has at most nine bytes: strnlen() stops looking past ten. */
UnitType unit_type_from_string(const char *s) {
        return unit_type_from_mem(s, strnlen(s, 10));
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
        return unit_type_has_section_n(t, section, strlen(section));
}

static bool mem_is(const char *s, size_t n, const char *name) {
        return name && strlen(name) == n && memcmp(s, name, n) == 0;
}

bool unit_type_has_section_n(UnitType t, const char *section, size_t n) {
        /* By length first: most sections are one of these. */
        if ((n == 4 && memcmp(section, "Unit", 4) == 0) || (n == 7 && memcmp(section, "Install", 7) == 0))
                return true;
        if (t < 0 || t >= _UNIT_TYPE_MAX) {
                for (int i = 0; i < _UNIT_TYPE_MAX; i++)
                        if (mem_is(section, n, type_sections[i]))
                                return true;
                return false;
        }
        return mem_is(section, n, type_sections[t]);
}
