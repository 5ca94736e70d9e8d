/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "judge.h"
#include "unit-name.h"
#include "unit/unit-file.h"

/* What systemd checks about a unit as a whole once all its files are read:
 * the name against the type (instances, slice names, scopes), and each
 * type's own verification (a timer needs a trigger, a socket a Listen*=
 * line, a mount its Where= to match its name, a service an ExecStart=...).
 * Each check is a record with the versions it applies to, so that no
 * version comparison lives in the code that evaluates it. */

typedef enum UnitCheckEffect {
        UNIT_CHECK_WARNING,    /* systemd loads the unit and logs a warning */
        UNIT_CHECK_REFUSED,    /* systemd refuses the unit (load state bad-setting) */
        UNIT_CHECK_NOT_LOADED, /* systemd never loads the unit from this file */
} UnitCheckEffect;

typedef enum UnitCheckId {
        UNIT_CHECK_NAME_INSTANCE,
        UNIT_CHECK_SCOPE_FILE,
        UNIT_CHECK_SLICE_NAME,
        UNIT_CHECK_SERVICE_NO_COMMAND,
        UNIT_CHECK_SERVICE_NO_EXEC_START,
        UNIT_CHECK_SERVICE_NOTHING_REMAINS,
        UNIT_CHECK_SERVICE_MULTIPLE_EXEC_START,
        UNIT_CHECK_SERVICE_ONESHOT_RESTART_ANY,
        UNIT_CHECK_SERVICE_ONESHOT_RESTART,
        UNIT_CHECK_SERVICE_ONESHOT_EXIT_CGROUP,
        UNIT_CHECK_SERVICE_DBUS_NO_BUS_NAME,
        UNIT_CHECK_SERVICE_PAM_KILL_MODE,
        UNIT_CHECK_SERVICE_FORKING_PRIVATE_PIDS,
        UNIT_CHECK_SERVICE_USB_STRINGS,
        UNIT_CHECK_SERVICE_USB_DESCRIPTORS,
        UNIT_CHECK_SERVICE_ONESHOT_RUNTIME_MAX,
        UNIT_CHECK_EXEC_DYNAMIC_USER_HOME,
        UNIT_CHECK_PAM_KILL_MODE,
        UNIT_CHECK_SOCKET_NO_LISTEN,
        UNIT_CHECK_SOCKET_ACCEPT_NON_ACCEPTING,
        UNIT_CHECK_SOCKET_ACCEPT_MAX_CONNECTIONS,
        UNIT_CHECK_SOCKET_MAX_CONNECTIONS,
        UNIT_CHECK_SOCKET_ACCEPT_SERVICE,
        UNIT_CHECK_PAM_KILL_MODE_STRICT,
        UNIT_CHECK_SOCKET_SYMLINKS,
        UNIT_CHECK_SOCKET_PATH_DOTDOT,
        UNIT_CHECK_TIMER_NO_TRIGGER,
        UNIT_CHECK_PATH_NO_PATH,
        UNIT_CHECK_MOUNT_API,
        UNIT_CHECK_MOUNT_WHERE_NAME,
        UNIT_CHECK_MOUNT_NO_WHAT,
        UNIT_CHECK_AUTOMOUNT_WHERE_NAME,
        UNIT_CHECK_AUTOMOUNT_ROOT,
        UNIT_CHECK_SWAP_WHAT_NAME,
        _UNIT_CHECK_MAX,
} UnitCheckId;

typedef struct UnitCheck {
        UnitCheckId id;
        const char *name;        /* stable identifier, e.g. "timer.no-trigger" */
        unsigned types;          /* UNIT_TYPE_BIT() mask */
        unsigned since, until;   /* first and last version with the check; 0 = unbounded */
        UnitCheckEffect effect;
        const char *load_state;  /* "bad-setting", "error", "not-found"; "loaded" for warnings */
        const char *message;     /* what is wrong, in unitguard's words */
} UnitCheck;

const UnitCheck *unit_check_get(UnitCheckId id);
bool unit_check_applies(const UnitCheck *c, unsigned version);

typedef struct UnitFinding {
        const UnitCheck *check;
        const char *path;        /* the file to point at (borrowed from the UnitFile) */
        unsigned line;           /* the deciding line, 0 for the file as a whole */
        char detail[UNIT_NAME_MAX + 64]; /* e.g. the name systemd expects; "" when none */
} UnitFinding;

typedef struct UnitCheckResult {
        UnitFinding findings[_UNIT_CHECK_MAX];
        size_t n;
        /* "loaded", or the load state of the first refusal: systemd stops
         * at the first one, so at most one finding is not a warning. */
        const char *load_state;
        bool refused_by_line;    /* a fatal line in the unit file: no unit-level checks ran */
} UnitCheckResult;

/* Runs the checks of systemd `version` on the unit named unit_name, made of
 * files[0] (the unit file itself) and its drop-ins in load order. Values
 * are taken as systemd keeps them: lines systemd ignores do not count, an
 * empty value resets, a fatal line in a drop-in ends that drop-in.
 * judged (may be NULL, as may the lines of each of its members) holds the
 * judgement of every entry of files[i] made for this unit already (and
 * which entries are notable: unit-settings.h); lines without one are
 * judged here. Returns 0 or -ENOMEM. */
int unit_checks_run(const char *unit_name, const UnitFile *const *files, const JudgedFile *judged,
                    size_t n_files, unsigned version, UnitCheckResult *ret);
/* The same for a name its caller classified already: kind and type as
 * unit_name_classify_type() returned and set them (type: only when kind
 * is not negative). */
int unit_checks_run_classified(const char *unit_name, int kind, UnitType type, const UnitFile *const *files,
                               const JudgedFile *judged, size_t n_files, unsigned version,
                               UnitCheckResult *ret);
