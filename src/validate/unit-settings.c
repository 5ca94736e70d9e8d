/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/macro.h"
#include "exec-line.h"
#include "judge.h"
#include "parse-util.h"
#include "path-util.h"
#include "unit-settings.h"

/* The keys some check reads, per section name ("Unit" or the type's own),
 * in strcmp() order for bsearch(). */
static const char *const watched_keys[] = {
        "Accept", "BusName", "DirectoryNotEmpty", "DynamicUser", "ExecStart", "ExecStop", "ExitType",
        "KillMode", "ListenDatagram", "ListenFIFO", "ListenMessageQueue", "ListenNetlink",
        "ListenSequentialPacket", "ListenSpecial", "ListenStream", "ListenUSBFunction", "MaxConnections",
        "OnActiveSec", "OnBootSec", "OnCalendar", "OnClockChange", "OnStartupSec", "OnTimezoneChange",
        "OnUnitActiveSec", "OnUnitInactiveSec", "PAMName", "PathChanged", "PathExists", "PathExistsGlob",
        "PathModified", "PrivatePIDs", "RemainAfterExit", "Restart", "RuntimeMaxSec", "Service",
        "SuccessAction", "Symlinks", "Type", "USBFunctionDescriptors", "USBFunctionStrings", "What", "Where",
        "WorkingDirectory",
};

static int key_compare(const void *key, const void *elem) {
        return strcmp(key, *(const char *const *) elem);
}

static bool watched(const char *key) {
        return bsearch(key, watched_keys, ELEMENTSOF(watched_keys), sizeof(watched_keys[0]), key_compare);
}

/* The commands systemd keeps from one Exec line: ';' separates them.
 * Returns the count, or -ENOMEM. */
static int count_commands(const char *value, unsigned version, const char *unit_name, bool always_parse) {
        ExecLine l = {};
        int r;

        if (!always_parse && !strchr(value, ';'))
                return 1;
        r = exec_line_parse(value, version, unit_name, &l);
        if (r >= 0)
                r = (int) l.n_commands;
        exec_line_done(&l);
        return r;
}

/* MaxConnections= as config_parse_unsigned() reads it: only a clean
 * number counts; anything else leaves the default (64). */
static bool is_zero(const char *v) {
        bool digits = false;

        for (; *v; v++) {
                if (*v != '0')
                        return false;
                digits = true;
        }
        return digits;
}

static void add_listen(UnitSettings *s, const char *key, const char *value, SettingAt at) {
        bool path = value[0] == '/';
        bool stream = streq(key, "ListenStream") || streq(key, "ListenSequentialPacket");

        /* A socket path is not checked when read, but systemd cannot make
         * mount dependencies for one with "..", and the unit fails to load
         * (FIFO and special paths with ".." are ignored when read). */
        if (path && (stream || streq(key, "ListenDatagram")) && !s->listen_dotdot && path_has_dotdot(value)) {
                s->listen_dotdot = true;
                s->listen_dotdot_at = at;
        }
        s->n_listen++;
        if (stream) {
                s->n_listen_fs_nodes += path;
                return;
        }
        s->n_listen_non_accepting++;
        if (streq(key, "ListenDatagram"))
                s->n_listen_fs_nodes += path;
        else if (streq(key, "ListenFIFO"))
                s->n_listen_fs_nodes++;
}

static int apply(UnitSettings *s, const char *unit_name, unsigned version, const char *key, const char *value,
                 const Judgement *j, SettingAt at) {
        bool set = j->verdict == VERDICT_OK || j->verdict == VERDICT_NOTICE;
        bool reset = j->verdict == VERDICT_RESET;
        int n;

        if (!set && !reset) {
                /* Commands before a bad one on the same line are kept. */
                if (j->partial && streq(key, "ExecStart")) {
                        n = count_commands(value, version, unit_name, true);
                        if (n < 0)
                                return n;
                        s->n_exec_start += (unsigned) n;
                }
                return 0;
        }

        if (startswith(key, "Listen")) {
                if (reset) {
                        s->n_listen = s->n_listen_non_accepting = s->n_listen_fs_nodes = 0;
                        s->listen_dotdot = false;
                        s->listen_reset_at = at;
                } else
                        add_listen(s, key, value, at);
        } else if (startswith(key, "On") && !streq(key, "OnClockChange") && !streq(key, "OnTimezoneChange")) {
                /* An empty value of any trigger drops all triggers. */
                if (reset) {
                        s->n_triggers = 0;
                        s->trigger_reset_at = at;
                } else
                        s->n_triggers++;
        } else if (streq(key, "OnClockChange") || streq(key, "OnTimezoneChange")) {
                if (set && parse_boolean(value) > 0)
                        s->clock_trigger = true;
        } else if (startswith(key, "Path") || streq(key, "DirectoryNotEmpty")) {
                if (reset) {
                        s->n_paths = 0;
                        s->path_reset_at = at;
                } else
                        s->n_paths++;
        } else if (streq(key, "ExecStart")) {
                n = reset ? 0 : count_commands(value, version, unit_name, false);
                if (n < 0)
                        return n;
                s->n_exec_start = reset ? 0 : s->n_exec_start + (unsigned) n;
                s->exec_start_at = at;
        } else if (streq(key, "ExecStop"))
                s->exec_stop = set;
        else if (streq(key, "SuccessAction"))
                s->success_action = set && !streq(value, "none");
        else if (streq(key, "Type")) {
                s->type = set ? value : NULL;
                s->type_at = at;
        } else if (streq(key, "RemainAfterExit"))
                s->remain_after_exit = set && parse_boolean(value) > 0;
        else if (streq(key, "Restart")) {
                s->restart = set ? value : NULL;
                s->restart_at = at;
        } else if (streq(key, "ExitType")) {
                s->exit_type = set ? value : NULL;
                s->exit_type_at = at;
        } else if (streq(key, "BusName"))
                s->bus_name = set;
        else if (streq(key, "PrivatePIDs")) {
                s->private_pids = set && parse_boolean(value) > 0;
                s->private_pids_at = at;
        } else if (streq(key, "RuntimeMaxSec")) {
                s->runtime_max = set && !streq(value, "infinity");
                s->runtime_max_at = at;
        } else if (streq(key, "USBFunctionDescriptors")) {
                s->usb_descriptors = set;
                s->usb_at = at;
        } else if (streq(key, "USBFunctionStrings")) {
                s->usb_strings = set;
                s->usb_at = at;
        } else if (streq(key, "PAMName")) {
                s->pam = set;
                s->pam_at = at;
        } else if (streq(key, "KillMode"))
                s->kill_mode = set ? value : NULL;
        else if (streq(key, "DynamicUser"))
                s->dynamic_user = set && parse_boolean(value) > 0;
        else if (streq(key, "WorkingDirectory")) {
                s->working_directory_home = set && (streq(value, "~") || streq(value, "-~"));
                s->working_directory_at = at;
        } else if (streq(key, "Accept")) {
                s->accept = set && parse_boolean(value) > 0;
                s->accept_at = at;
        } else if (streq(key, "MaxConnections")) {
                if (set && value[strspn(value, "0123456789")] == '\0') {
                        s->max_connections_zero = is_zero(value);
                        s->max_connections_at = at;
                }
        } else if (streq(key, "Service")) {
                s->service = set;
                s->service_at = at;
        } else if (streq(key, "Symlinks")) {
                s->symlinks = set;
                s->symlinks_at = at;
        } else if (streq(key, "What")) {
                s->what = set ? value : NULL;
                s->what_at = at;
        } else if (streq(key, "Where")) {
                s->where = set ? value : NULL;
                s->where_at = at;
        }
        return 0;
}

int unit_settings_collect(const char *unit_name, UnitType type, const UnitFile *const *files,
                          const Judgement *const *judged, size_t n_files, unsigned version, UnitSettings *ret) {
        UnitSettings s = {};
        JudgeContext ctx = { .version = version, .type = type, .unit_name = unit_name };
        int r;

        for (size_t fi = 0; fi < n_files; fi++) {
                const UnitFile *f = files[fi];

                if (!f)
                        continue;
                for (size_t i = 0; i < f->n_entries; i++) {
                        const UnitEntry *e = &f->entries[i];
                        const char *section;
                        const Directive *d;
                        bool is_watched;
                        _cleanup_(judgement_done) Judgement j = {};

                        if (e->section < 0 || f->sections[e->section].state != SECTION_KNOWN)
                                continue;
                        section = unit_entry_section(f, e);
                        /* Most lines matter only when they could end the file. */
                        is_watched = watched(e->key);
                        if (!is_watched) {
                                d = directive_lookup(type, section, e->key);
                                if (!d || !directive_is_fatal(d, version))
                                        continue;
                        }
                        if (judged && judged[fi]) {
                                /* Judged already, for this unit: the verdict is all we need. */
                                j.verdict = judged[fi][i].verdict;
                                j.partial = judged[fi][i].partial;
                        } else {
                                r = judge_assignment(&ctx, section, e->key, e->value, &j);
                                if (r < 0)
                                        return r;
                        }
                        if (j.verdict == VERDICT_FATAL) {
                                if (f->is_dropin)
                                        break; /* the rest of the drop-in is skipped */
                                s.refused = true;
                                s.refused_at = (SettingAt) { f->path, e->line_last };
                                *ret = s;
                                return 0;
                        }
                        if (is_watched) {
                                r = apply(&s, unit_name, version, e->key, e->value, &j,
                                          (SettingAt) { f->path, e->line_last });
                                if (r < 0)
                                        return r;
                        }
                }
        }
        *ret = s;
        return 0;
}
