/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

#include "judge.h"
#include "unit/unit-file.h"
#include "validate/directive-names.h"

/* The settings the unit-level checks look at, as systemd holds them after
 * reading the unit file and its drop-ins. Strings point into the files'
 * entries; a SettingAt says where a value was last set (or reset). */

typedef struct SettingAt {
        const char *path;
        unsigned line;
} SettingAt;

typedef struct UnitSettings {
        bool refused;                   /* a fatal line in the unit file itself */
        SettingAt refused_at;

        /* [Unit] */
        bool success_action;            /* SuccessAction= other than none */

        /* [Service] */
        const char *type;               /* NULL: unset */
        SettingAt type_at;
        unsigned n_exec_start;          /* commands, ';'-separated ones included */
        SettingAt exec_start_at;
        bool exec_stop;
        bool remain_after_exit;
        const char *restart;
        SettingAt restart_at;
        const char *exit_type;
        SettingAt exit_type_at;
        bool bus_name;
        bool private_pids;
        SettingAt private_pids_at;
        bool runtime_max;
        SettingAt runtime_max_at;
        bool usb_descriptors, usb_strings;
        SettingAt usb_at;

        /* execution context (service, socket, mount, swap) */
        bool pam;
        const char *kill_mode;
        SettingAt pam_at;
        bool dynamic_user;
        bool working_directory_home;
        SettingAt working_directory_at;

        /* [Socket] */
        unsigned n_listen;
        unsigned n_listen_non_accepting; /* datagram, FIFO, special, netlink, mqueue, USB */
        unsigned n_listen_fs_nodes;      /* FIFOs and socket paths: Symlinks= targets */
        SettingAt listen_reset_at;
        bool listen_dotdot;              /* a socket path with a ".." component */
        SettingAt listen_dotdot_at;
        bool accept;
        SettingAt accept_at;
        bool max_connections_zero;
        SettingAt max_connections_at;
        bool service;
        SettingAt service_at;
        bool symlinks;
        SettingAt symlinks_at;

        /* [Timer] */
        unsigned n_triggers;
        bool clock_trigger;             /* OnClockChange=/OnTimezoneChange=yes */
        SettingAt trigger_reset_at;

        /* [Path] */
        unsigned n_paths;
        SettingAt path_reset_at;

        /* [Mount] [Automount] [Swap] */
        const char *what;
        SettingAt what_at;
        const char *where;
        SettingAt where_at;
} UnitSettings;

/* Fills *s from files[0] (the unit file) and its drop-ins, in place (the
 * struct is large; copying it cost more than the walk over a small unit):
 * on failure its contents are meaningless. judged (may be NULL) holds the
 * judgements made for files[i] already; of those, only the notable entries
 * are looked at, which must include every one unit_settings_reads().
 * Returns 0 or -ENOMEM. */
int unit_settings_collect(const char *unit_name, UnitType type, const UnitFile *const *files,
                          const JudgedFile *judged, size_t n_files, unsigned version, UnitSettings *s);

/* The directives some check reads, by name id (directive-names.h). */
extern const bool unit_settings_watched[_DIRECTIVE_NAME_MAX];
/* The same, as the collection itself decides it (for the tests: the table
 * must agree with it). */
bool unit_settings_watches(int name_id);

/* Whether unit_settings_collect() does anything with a line judged so: a
 * fatal one ends the file, and the directives some check reads. Every
 * other line leaves the settings as they are. Inline: asked of every line
 * of every unit. */
static inline bool unit_settings_reads(const Judgement *j) {
        return j->verdict == VERDICT_FATAL || (j->directive && unit_settings_watched[j->directive->name_id]);
}
