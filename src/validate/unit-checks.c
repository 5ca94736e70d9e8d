/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "basic/macro.h"
#include "path-util.h"
#include "unit-checks.h"
#include "unit-name-path.h"
#include "unit-settings.h"

#define T(t) UNIT_TYPE_BIT(UNIT_##t)
#define EXEC_TYPES (T(SERVICE) | T(SOCKET) | T(MOUNT) | T(SWAP))

/* The checks, in the order systemd makes them (it stops at the first
 * refusal). Versions: "since" is the first release that refuses (or
 * warns), "until" the last one; 0 where the check is older than the
 * oldest version unitguard models, or still made. Sources: the *_verify()
 * functions of src/core/ and their history in NEWS; behaviour checked
 * against systemd 252 and 257 (tests/validate/unit-checks-oracle.py). */
static const UnitCheck checks[_UNIT_CHECK_MAX] = {
        [UNIT_CHECK_NAME_INSTANCE] = {
                UNIT_CHECK_NAME_INSTANCE, "name.instance",
                T(MOUNT) | T(AUTOMOUNT) | T(SWAP) | T(SLICE) | T(SCOPE) | T(DEVICE), 0, 0,
                UNIT_CHECK_NOT_LOADED, "error",
                "units of this type cannot be templates or instances" },
        [UNIT_CHECK_SCOPE_FILE] = {
                UNIT_CHECK_SCOPE_FILE, "scope.file", T(SCOPE), 0, 0, UNIT_CHECK_NOT_LOADED, "not-found",
                "scope units are created at runtime only, never from a unit file" },
        [UNIT_CHECK_SLICE_NAME] = {
                UNIT_CHECK_SLICE_NAME, "slice.name", T(SLICE), 0, 0, UNIT_CHECK_NOT_LOADED, "error",
                "not a valid slice name (its dash-separated parts must not be empty)" },
        [UNIT_CHECK_SERVICE_NO_COMMAND] = {
                UNIT_CHECK_SERVICE_NO_COMMAND, "service.no-command", T(SERVICE), 0, 0, UNIT_CHECK_REFUSED,
                "bad-setting", "Service has no ExecStart=, ExecStop= or SuccessAction=" },
        [UNIT_CHECK_SERVICE_NO_EXEC_START] = {
                UNIT_CHECK_SERVICE_NO_EXEC_START, "service.no-exec-start", T(SERVICE), 0, 0, UNIT_CHECK_REFUSED,
                "bad-setting", "Service has no ExecStart=, which only Type=oneshot allows" },
        [UNIT_CHECK_SERVICE_NOTHING_REMAINS] = {
                UNIT_CHECK_SERVICE_NOTHING_REMAINS, "service.nothing-remains", T(SERVICE), 0, 0,
                UNIT_CHECK_REFUSED, "bad-setting",
                "Service has no ExecStart= and no SuccessAction=, and RemainAfterExit= is not set" },
        [UNIT_CHECK_SERVICE_MULTIPLE_EXEC_START] = {
                UNIT_CHECK_SERVICE_MULTIPLE_EXEC_START, "service.multiple-exec-start", T(SERVICE), 0, 0,
                UNIT_CHECK_REFUSED, "bad-setting",
                "Service has more than one ExecStart= command, which only Type=oneshot allows" },
        /* v244 allowed Restart=on-failure (and the other failure cases)
         * for oneshot services; before, any Restart= but "no" was refused. */
        [UNIT_CHECK_SERVICE_ONESHOT_RESTART_ANY] = {
                UNIT_CHECK_SERVICE_ONESHOT_RESTART_ANY, "service.oneshot-restart", T(SERVICE), 0, 243,
                UNIT_CHECK_REFUSED, "bad-setting", "Type=oneshot services cannot have Restart= other than no" },
        [UNIT_CHECK_SERVICE_ONESHOT_RESTART] = {
                UNIT_CHECK_SERVICE_ONESHOT_RESTART, "service.oneshot-restart", T(SERVICE), 244, 0,
                UNIT_CHECK_REFUSED, "bad-setting",
                "Type=oneshot services cannot have Restart=always or Restart=on-success" },
        [UNIT_CHECK_SERVICE_ONESHOT_EXIT_CGROUP] = {
                UNIT_CHECK_SERVICE_ONESHOT_EXIT_CGROUP, "service.oneshot-exit-cgroup", T(SERVICE), 250, 0,
                UNIT_CHECK_REFUSED, "bad-setting", "Type=oneshot services cannot have ExitType=cgroup" },
        [UNIT_CHECK_SERVICE_DBUS_NO_BUS_NAME] = {
                UNIT_CHECK_SERVICE_DBUS_NO_BUS_NAME, "service.dbus-no-bus-name", T(SERVICE), 0, 0,
                UNIT_CHECK_REFUSED, "bad-setting", "Type=dbus service without BusName=" },
        /* Up to 256 services allowed KillMode=mixed with PAMName=, the
         * other types only control-group; 257 allows both for all (measured
         * on 252 and 257; the release in between that changed it is not
         * recorded, 257 is the first one known to behave so). */
        [UNIT_CHECK_SERVICE_PAM_KILL_MODE] = {
                UNIT_CHECK_SERVICE_PAM_KILL_MODE, "service.pam-kill-mode", T(SERVICE), 0, 256,
                UNIT_CHECK_REFUSED, "bad-setting",
                "PAMName= needs KillMode=control-group or KillMode=mixed" },
        [UNIT_CHECK_SERVICE_FORKING_PRIVATE_PIDS] = {
                UNIT_CHECK_SERVICE_FORKING_PRIVATE_PIDS, "service.forking-private-pids", T(SERVICE), 257, 0,
                UNIT_CHECK_REFUSED, "bad-setting", "Type=forking services cannot have PrivatePIDs=yes" },
        [UNIT_CHECK_SERVICE_USB_STRINGS] = {
                UNIT_CHECK_SERVICE_USB_STRINGS, "service.usb-function", T(SERVICE), 0, 0, UNIT_CHECK_WARNING,
                "loaded", "USBFunctionDescriptors= without USBFunctionStrings= is ignored" },
        [UNIT_CHECK_SERVICE_USB_DESCRIPTORS] = {
                UNIT_CHECK_SERVICE_USB_DESCRIPTORS, "service.usb-function", T(SERVICE), 0, 0, UNIT_CHECK_WARNING,
                "loaded", "USBFunctionStrings= without USBFunctionDescriptors= is ignored" },
        [UNIT_CHECK_SERVICE_ONESHOT_RUNTIME_MAX] = {
                UNIT_CHECK_SERVICE_ONESHOT_RUNTIME_MAX, "service.oneshot-runtime-max", T(SERVICE), 249, 0,
                UNIT_CHECK_WARNING, "loaded", "RuntimeMaxSec= has no effect on Type=oneshot services" },
        [UNIT_CHECK_EXEC_DYNAMIC_USER_HOME] = {
                UNIT_CHECK_EXEC_DYNAMIC_USER_HOME, "exec.dynamic-user-home", T(SERVICE), 257, 0,
                UNIT_CHECK_REFUSED, "bad-setting", "WorkingDirectory=~ cannot be used with DynamicUser=yes" },
        [UNIT_CHECK_PAM_KILL_MODE] = {
                UNIT_CHECK_PAM_KILL_MODE, "exec.pam-kill-mode", EXEC_TYPES, 257, 0, UNIT_CHECK_REFUSED,
                "bad-setting", "PAMName= needs KillMode=control-group or KillMode=mixed" },
        [UNIT_CHECK_SOCKET_NO_LISTEN] = {
                UNIT_CHECK_SOCKET_NO_LISTEN, "socket.no-listen", T(SOCKET), 0, 0, UNIT_CHECK_REFUSED,
                "bad-setting", "Socket has no Listen*= setting" },
        [UNIT_CHECK_SOCKET_ACCEPT_NON_ACCEPTING] = {
                UNIT_CHECK_SOCKET_ACCEPT_NON_ACCEPTING, "socket.accept-non-accepting", T(SOCKET), 0, 0,
                UNIT_CHECK_REFUSED, "bad-setting",
                "Accept=yes, but some sockets cannot accept connections (only ListenStream= and ListenSequentialPacket= can)" },
        [UNIT_CHECK_SOCKET_ACCEPT_MAX_CONNECTIONS] = {
                UNIT_CHECK_SOCKET_ACCEPT_MAX_CONNECTIONS, "socket.accept-max-connections", T(SOCKET), 0, 256,
                UNIT_CHECK_REFUSED, "bad-setting", "Accept=yes with MaxConnections=0" },
        /* 257 refuses MaxConnections=0 whatever Accept= says, before the
         * Accept= checks (measured on 252 and 257; the release in between
         * that changed it is not recorded, 257 is the first known). */
        [UNIT_CHECK_SOCKET_MAX_CONNECTIONS] = {
                UNIT_CHECK_SOCKET_MAX_CONNECTIONS, "socket.max-connections", T(SOCKET), 257, 0,
                UNIT_CHECK_REFUSED, "bad-setting", "MaxConnections=0" },
        [UNIT_CHECK_SOCKET_ACCEPT_SERVICE] = {
                UNIT_CHECK_SOCKET_ACCEPT_SERVICE, "socket.accept-service", T(SOCKET), 0, 0, UNIT_CHECK_REFUSED,
                "bad-setting", "Accept=yes sockets cannot name a Service=" },
        [UNIT_CHECK_PAM_KILL_MODE_STRICT] = {
                UNIT_CHECK_PAM_KILL_MODE_STRICT, "exec.pam-kill-mode", T(SOCKET) | T(MOUNT) | T(SWAP), 0, 256,
                UNIT_CHECK_REFUSED, "bad-setting", "PAMName= on this unit type needs KillMode=control-group" },
        [UNIT_CHECK_SOCKET_SYMLINKS] = {
                UNIT_CHECK_SOCKET_SYMLINKS, "socket.symlinks", T(SOCKET), 0, 0, UNIT_CHECK_REFUSED, "bad-setting",
                "Symlinks= needs exactly one socket with a file system node (a FIFO or a socket path)" },
        [UNIT_CHECK_SOCKET_PATH_DOTDOT] = {
                UNIT_CHECK_SOCKET_PATH_DOTDOT, "socket.path-dotdot", T(SOCKET), 0, 0, UNIT_CHECK_NOT_LOADED, "error",
                "a socket path with a '..' component: systemd cannot add its mount dependencies and fails to load the unit" },
        [UNIT_CHECK_TIMER_NO_TRIGGER] = {
                UNIT_CHECK_TIMER_NO_TRIGGER, "timer.no-trigger", T(TIMER), 0, 0, UNIT_CHECK_REFUSED,
                "bad-setting", "Timer has no trigger (On*Sec=, OnCalendar=, OnClockChange=, OnTimezoneChange=)" },
        [UNIT_CHECK_PATH_NO_PATH] = {
                UNIT_CHECK_PATH_NO_PATH, "path.no-path", T(PATH), 0, 0, UNIT_CHECK_REFUSED, "bad-setting",
                "Path unit has no path to watch (PathExists=, PathExistsGlob=, PathChanged=, PathModified=, DirectoryNotEmpty=)" },
        [UNIT_CHECK_MOUNT_API] = {
                UNIT_CHECK_MOUNT_API, "mount.api-file-system", T(MOUNT), 0, 0, UNIT_CHECK_REFUSED, "bad-setting",
                "systemd mounts this API file system itself and refuses a mount unit for it" },
        [UNIT_CHECK_MOUNT_WHERE_NAME] = {
                UNIT_CHECK_MOUNT_WHERE_NAME, "mount.where-name", T(MOUNT), 0, 0, UNIT_CHECK_REFUSED,
                "bad-setting", "Where= does not match the unit name" },
        [UNIT_CHECK_MOUNT_NO_WHAT] = {
                UNIT_CHECK_MOUNT_NO_WHAT, "mount.no-what", T(MOUNT), 0, 0, UNIT_CHECK_REFUSED, "bad-setting",
                "Mount unit has no What=" },
        [UNIT_CHECK_AUTOMOUNT_WHERE_NAME] = {
                UNIT_CHECK_AUTOMOUNT_WHERE_NAME, "automount.where-name", T(AUTOMOUNT), 0, 0, UNIT_CHECK_REFUSED,
                "bad-setting", "Where= does not match the unit name" },
        [UNIT_CHECK_AUTOMOUNT_ROOT] = {
                UNIT_CHECK_AUTOMOUNT_ROOT, "automount.root", T(AUTOMOUNT), 0, 0, UNIT_CHECK_NOT_LOADED, "error",
                "no automount for the root directory" },
        [UNIT_CHECK_SWAP_WHAT_NAME] = {
                UNIT_CHECK_SWAP_WHAT_NAME, "swap.what-name", T(SWAP), 0, 0, UNIT_CHECK_REFUSED, "bad-setting",
                "What= does not match the unit name" },
};

const UnitCheck *unit_check_get(UnitCheckId id) {
        if ((int) id < 0 || id >= _UNIT_CHECK_MAX)
                return NULL;
        return &checks[id];
}

bool unit_check_applies(const UnitCheck *c, unsigned version) {
        return c && (c->since == 0 || version >= c->since) && (c->until == 0 || version <= c->until);
}

typedef struct Run {
        UnitCheckResult *res;
        unsigned version;
        UnitType type;
        const char *fragment; /* path of the unit file */
        bool stopped;         /* a refusal was recorded: systemd checks no further */
} Run;

/* Whether the check is made at all: no refusal recorded yet, and it
 * applies to this unit type and version. Inline: most are asked of every
 * unit and fail on the type. */
static inline bool wanted(const Run *run, UnitCheckId id) {
        const UnitCheck *c = &checks[id];

        return !run->stopped && (c->types & UNIT_TYPE_BIT(run->type)) && unit_check_applies(c, run->version);
}

/* Records the finding of a wanted() check. Returns true when it refuses
 * the unit (no further checks). */
_printf_(4, 5) static bool record(Run *run, UnitCheckId id, SettingAt at, const char *fmt, ...) {
        const UnitCheck *c = &checks[id];
        UnitFinding *f;

        f = &run->res->findings[run->res->n++];
        *f = (UnitFinding) { .check = c, .path = at.path ? at.path : run->fragment, .line = at.path ? at.line : 0 };
        if (fmt) {
                va_list ap;

                va_start(ap, fmt);
                (void) vsnprintf(f->detail, sizeof(f->detail), fmt, ap);
                va_end(ap);
        }
        if (c->effect != UNIT_CHECK_WARNING) {
                run->res->load_state = c->load_state;
                run->stopped = true;
        }
        return run->stopped;
}

/* Records the finding when the check applies to this version and unit
 * type. Returns true when it refuses the unit (no further checks). */
#define add(run, id, ...) ({ wanted(run, id) && record(run, id, __VA_ARGS__); })

static const SettingAt nowhere = {};

/* slice_name_is_valid(): "-.slice", or dash-separated non-empty parts. */
static bool slice_name_ok(const char *name) {
        const char *dot = strrchr(name, '.');

        if (streq(name, "-.slice"))
                return true;
        if (!dot || name[0] == '-' || dot[-1] == '-')
                return false;
        for (const char *p = name; p < dot - 1; p++)
                if (p[0] == '-' && p[1] == '-')
                        return false;
        return true;
}

static bool names_check(Run *run, const char *name, int kind) {
        if (kind != UNIT_NAME_PLAIN && add(run, UNIT_CHECK_NAME_INSTANCE, nowhere, NULL))
                return true;
        if (add(run, UNIT_CHECK_SCOPE_FILE, nowhere, NULL))
                return true;
        if (run->type == UNIT_SLICE && !slice_name_ok(name))
                return add(run, UNIT_CHECK_SLICE_NAME, nowhere, NULL);
        return false;
}

static bool is_oneshot(const UnitSettings *s) {
        /* Without Type=, systemd picks dbus with a BusName=, simple with
         * an ExecStart= and oneshot otherwise. */
        if (s->type)
                return streq(s->type, "oneshot");
        return !s->bus_name && s->n_exec_start == 0;
}

static void service_checks(Run *run, const UnitSettings *s) {
        bool oneshot = is_oneshot(s);
        const char *type = s->type ? s->type : s->bus_name ? "dbus" : oneshot ? "oneshot" : "simple";

        if (s->n_exec_start == 0 && !s->exec_stop && !s->success_action &&
            add(run, UNIT_CHECK_SERVICE_NO_COMMAND, nowhere, NULL))
                return;
        if (!oneshot && s->n_exec_start == 0 && add(run, UNIT_CHECK_SERVICE_NO_EXEC_START, s->type_at, NULL))
                return;
        if (!s->remain_after_exit && s->n_exec_start == 0 && !s->success_action &&
            add(run, UNIT_CHECK_SERVICE_NOTHING_REMAINS, nowhere, NULL))
                return;
        if (!oneshot && s->n_exec_start > 1 &&
            add(run, UNIT_CHECK_SERVICE_MULTIPLE_EXEC_START, s->exec_start_at, "Type=%s, %u commands", type,
                s->n_exec_start))
                return;
        if (oneshot && s->restart && !streq(s->restart, "no") &&
            add(run, UNIT_CHECK_SERVICE_ONESHOT_RESTART_ANY, s->restart_at, "Restart=%s", s->restart))
                return;
        if (oneshot && s->restart && (streq(s->restart, "always") || streq(s->restart, "on-success")) &&
            add(run, UNIT_CHECK_SERVICE_ONESHOT_RESTART, s->restart_at, "Restart=%s", s->restart))
                return;
        if (oneshot && s->exit_type && streq(s->exit_type, "cgroup") &&
            add(run, UNIT_CHECK_SERVICE_ONESHOT_EXIT_CGROUP, s->exit_type_at, NULL))
                return;
        if (streq(type, "dbus") && !s->bus_name && add(run, UNIT_CHECK_SERVICE_DBUS_NO_BUS_NAME, s->type_at, NULL))
                return;
        if (s->pam && s->kill_mode && !streq(s->kill_mode, "control-group") && !streq(s->kill_mode, "mixed") &&
            add(run, UNIT_CHECK_SERVICE_PAM_KILL_MODE, s->pam_at, "KillMode=%s", s->kill_mode))
                return;
        if (streq(type, "forking") && s->private_pids &&
            add(run, UNIT_CHECK_SERVICE_FORKING_PRIVATE_PIDS, s->private_pids_at, NULL))
                return;
        if (s->usb_descriptors && !s->usb_strings)
                add(run, UNIT_CHECK_SERVICE_USB_STRINGS, s->usb_at, NULL);
        if (!s->usb_descriptors && s->usb_strings)
                add(run, UNIT_CHECK_SERVICE_USB_DESCRIPTORS, s->usb_at, NULL);
        if (s->runtime_max && oneshot)
                add(run, UNIT_CHECK_SERVICE_ONESHOT_RUNTIME_MAX, s->runtime_max_at, NULL);
}

/* Sockets, mounts and swaps up to 256: PAM only with control-group. */
static bool pam_strict(Run *run, const UnitSettings *s) {
        return s->pam && s->kill_mode && !streq(s->kill_mode, "control-group") &&
               add(run, UNIT_CHECK_PAM_KILL_MODE_STRICT, s->pam_at, "KillMode=%s", s->kill_mode);
}

static void socket_checks(Run *run, const UnitSettings *s) {
        /* Mount dependencies come before the socket's own checks. */
        if (s->listen_dotdot && add(run, UNIT_CHECK_SOCKET_PATH_DOTDOT, s->listen_dotdot_at, NULL))
                return;
        if (s->n_listen == 0 && add(run, UNIT_CHECK_SOCKET_NO_LISTEN, s->listen_reset_at, NULL))
                return;
        if (s->max_connections_zero && add(run, UNIT_CHECK_SOCKET_MAX_CONNECTIONS, s->max_connections_at, NULL))
                return;
        if (s->accept && s->n_listen_non_accepting > 0 &&
            add(run, UNIT_CHECK_SOCKET_ACCEPT_NON_ACCEPTING, s->accept_at, NULL))
                return;
        if (s->accept && s->max_connections_zero &&
            add(run, UNIT_CHECK_SOCKET_ACCEPT_MAX_CONNECTIONS, s->accept_at, NULL))
                return;
        if (s->accept && s->service && add(run, UNIT_CHECK_SOCKET_ACCEPT_SERVICE, s->service_at, NULL))
                return;
        if (pam_strict(run, s))
                return;
        if (s->symlinks && s->n_listen_fs_nodes != 1)
                add(run, UNIT_CHECK_SOCKET_SYMLINKS, s->symlinks_at, "%u file system nodes", s->n_listen_fs_nodes);
}

/* mount_point_is_api() and mount_point_ignore(): what systemd mounts
 * itself, or leaves to others. */
static bool api_mount_point(const char *p) {
        static const char *const api[] = {
                "/proc", "/sys", "/dev", "/dev/shm", "/dev/pts", "/run", "/sys/kernel/security",
                "/sys/fs/smackfs", "/sys/fs/cgroup", "/sys/fs/pstore", "/sys/firmware/efi/efivars",
                "/sys/fs/bpf", "/sys/fs/selinux", "/dev/console", "/proc/kmsg", "/proc/sys",
                "/proc/sys/kernel/random/boot_id",
        };

        for (size_t i = 0; i < ELEMENTSOF(api); i++)
                if (streq(p, api[i]))
                        return true;
        return startswith(p, "/sys/fs/cgroup/") || streq(p, "/run/host") || startswith(p, "/run/host/");
}

/* Whether the unit's name is the one systemd derives from path.
 * Returns 1 (matches), 0 (does not; *expected says what would), <0. */
static int name_matches_path(const char *name, const char *path, char **expected) {
        const char *dot = strrchr(name, '.');
        int r;

        r = unit_name_from_path(path, dot, expected);
        if (r == -EINVAL)
                return 0;
        if (r < 0)
                return r;
        return streq(*expected, name);
}

static int mount_checks(Run *run, const char *name, const UnitSettings *s) {
        _cleanup_free_ char *where = NULL, *expected = NULL, *prefix = NULL;
        int r;

        /* Without Where=, systemd takes the path from the name. A value
         * with specifiers is not judged here. */
        if (!s->where || strchr(s->where, '%')) {
                r = unit_name_without_suffix(name, &prefix);
                if (r >= 0)
                        r = unit_name_path_unescape(prefix, &where);
        } else {
                where = strdup(s->where);
                r = where ? 0 : -ENOMEM;
        }
        if (r == -ENOMEM)
                return r;
        if (r < 0)
                return 0; /* the name itself does not unescape: left to the name checks */
        path_simplify(where);

        if (run->type == UNIT_MOUNT && api_mount_point(where) &&
            add(run, UNIT_CHECK_MOUNT_API, s->where_at, "%s", where))
                return 0;
        if (s->where && !strchr(s->where, '%')) {
                r = name_matches_path(name, where, &expected);
                if (r < 0)
                        return r;
                if (r == 0 && add(run, run->type == UNIT_MOUNT ? UNIT_CHECK_MOUNT_WHERE_NAME
                                                                : UNIT_CHECK_AUTOMOUNT_WHERE_NAME,
                                  s->where_at, "Where=%s would be %s", where, expected ? expected : "invalid"))
                        return 0;
        }
        if (run->type == UNIT_MOUNT && !s->what && !streq(name, "-.mount") &&
            add(run, UNIT_CHECK_MOUNT_NO_WHAT, nowhere, NULL))
                return 0;
        if (run->type == UNIT_MOUNT)
                (void) pam_strict(run, s);
        if (run->type == UNIT_AUTOMOUNT && streq(where, "/"))
                add(run, UNIT_CHECK_AUTOMOUNT_ROOT, s->where_at, NULL);
        return 0;
}

static int swap_checks(Run *run, const char *name, const UnitSettings *s) {
        _cleanup_free_ char *expected = NULL;
        int r;

        /* Without What= the name is the device; a value with specifiers is
         * not judged here. */
        r = !s->what || strchr(s->what, '%') ? 1 : name_matches_path(name, s->what, &expected);
        if (r < 0)
                return r;
        if (r == 0 && add(run, UNIT_CHECK_SWAP_WHAT_NAME, s->what_at, "What=%s would be %s", s->what,
                          expected ? expected : "invalid"))
                return 0;
        (void) pam_strict(run, s);
        return 0;
}

static void exec_checks(Run *run, const UnitSettings *s) {
        if (s->dynamic_user && s->working_directory_home &&
            add(run, UNIT_CHECK_EXEC_DYNAMIC_USER_HOME, s->working_directory_at, NULL))
                return;
        if (s->pam && s->kill_mode && !streq(s->kill_mode, "control-group") && !streq(s->kill_mode, "mixed"))
                add(run, UNIT_CHECK_PAM_KILL_MODE, s->pam_at, "KillMode=%s", s->kill_mode);
}

int unit_checks_run(const char *unit_name, const UnitFile *const *files, const JudgedFile *judged,
                    size_t n_files, unsigned version, UnitCheckResult *ret) {
        UnitType type = _UNIT_TYPE_INVALID;
        /* The form and the type of the name, in one pass. */
        int kind = unit_name_classify_type(unit_name, &type);

        return unit_checks_run_classified(unit_name, kind, type, files, judged, n_files, version, ret);
}

int unit_checks_run_classified(const char *unit_name, int kind, UnitType type, const UnitFile *const *files,
                               const JudgedFile *judged, size_t n_files, unsigned version,
                               UnitCheckResult *ret) {
        UnitSettings s;
        Run run = {
                .res = ret,
                .version = version,
                .type = kind < 0 ? _UNIT_TYPE_INVALID : type,
                .fragment = n_files > 0 && files[0] ? files[0]->path : NULL,
        };
        int r = 0;

        /* Only the header: the findings array is large and filled in order. */
        ret->n = 0;
        ret->load_state = "loaded";
        ret->refused_by_line = false;
        if (run.type < 0 || !run.fragment)
                return 0; /* not a unit name systemd accepts at all: the filter says so */
        if (files[0]->failed_line > 0 || files[0]->limit_line > 0)
                return 0; /* the file does not load: systemd checks nothing further */

        if (names_check(&run, unit_name, kind))
                return 0;

        r = unit_settings_collect(unit_name, run.type, files, judged, n_files, version, &s);
        if (r < 0)
                return r;
        if (s.refused) {
                ret->refused_by_line = true;
                ret->load_state = "bad-setting";
                return 0;
        }

        switch (run.type) {
        case UNIT_SERVICE:
                service_checks(&run, &s);
                break;
        case UNIT_SOCKET:
                socket_checks(&run, &s);
                break;
        case UNIT_TIMER:
                if (s.n_triggers == 0 && !s.clock_trigger)
                        add(&run, UNIT_CHECK_TIMER_NO_TRIGGER, s.trigger_reset_at, NULL);
                break;
        case UNIT_PATH:
                if (s.n_paths == 0)
                        add(&run, UNIT_CHECK_PATH_NO_PATH, s.path_reset_at, NULL);
                break;
        case UNIT_MOUNT:
        case UNIT_AUTOMOUNT:
                r = mount_checks(&run, unit_name, &s);
                break;
        case UNIT_SWAP:
                r = swap_checks(&run, unit_name, &s);
                break;
        default:
                break;
        }
        if (r >= 0 && (UNIT_TYPE_BIT(run.type) & EXEC_TYPES))
                exec_checks(&run, &s);
        return r < 0 ? r : 0;
}
