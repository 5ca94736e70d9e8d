/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "basic/macro.h"
#include "exec-line.h"
#include "judge.h"
#include "parse-util.h"
#include "path-util.h"
#include "unit-settings.h"
#include "validate/directive-names.h"

/* The commands systemd keeps from one Exec line: ';' separates them.
 * Returns the count, or -ENOMEM. */
static int count_commands(const char *value, unsigned version, const char *unit_name, bool always_parse) {
        ExecLine l = {};
        int r;

        if (!always_parse && !strchr(value, ';'))
                return 1;
        r = exec_line_check(value, version, unit_name, &l);
        if (r >= 0)
                r = (int) l.n_commands;
        exec_line_done(&l);
        return r;
}

/* Whether an unsigned number systemd accepted ("0", "+0", "0x0", "00")
 * is zero: every digit after the sign and base prefix is '0'. */
static bool is_zero(const char *v) {
        if (*v == '+')
                v++;
        if (v[0] == '0' && v[1] && strchr("xXoObB", v[1]))
                v += 2;
        for (; *v; v++)
                if (*v != '0')
                        return false;
        return true;
}

static void add_listen(UnitSettings *s, int name_id, const char *value, SettingAt at) {
        bool path = value[0] == '/';
        bool stream = name_id == DIRECTIVE_NAME_LISTENSTREAM || name_id == DIRECTIVE_NAME_LISTENSEQUENTIALPACKET;

        /* A socket path is not checked when read, but systemd cannot make
         * mount dependencies for one with "..", and the unit fails to load
         * (FIFO and special paths with ".." are ignored when read). */
        if (path && (stream || name_id == DIRECTIVE_NAME_LISTENDATAGRAM) && !s->listen_dotdot &&
            path_has_dotdot(value)) {
                s->listen_dotdot = true;
                s->listen_dotdot_at = at;
        }
        s->n_listen++;
        if (stream) {
                s->n_listen_fs_nodes += path;
                return;
        }
        s->n_listen_non_accepting++;
        if (name_id == DIRECTIVE_NAME_LISTENDATAGRAM)
                s->n_listen_fs_nodes += path;
        else if (name_id == DIRECTIVE_NAME_LISTENFIFO)
                s->n_listen_fs_nodes++;
}

/* One line of directive name_id with verdict j->verdict. Returns 1 when
 * some check reads the directive, 0 when none does, or -ENOMEM. Inline:
 * most lines are read by no check and leave through the default. */
static _always_inline_ int apply(UnitSettings *s, const char *unit_name, unsigned version, int name_id,
                                 const char *value, const Judgement *j, SettingAt at) {
        bool set = j->verdict == VERDICT_OK || j->verdict == VERDICT_NOTICE;
        bool reset = j->verdict == VERDICT_RESET;
        int n;

        if (!set && !reset) {
                /* Commands before a bad one on the same line are kept. */
                if (j->partial && name_id == DIRECTIVE_NAME_EXECSTART) {
                        n = count_commands(value, version, unit_name, true);
                        if (n < 0)
                                return n;
                        s->n_exec_start += (unsigned) n;
                }
                return 0;
        }

        /* The directives some check reads (in [Unit] or the type's own section). */
        switch (name_id) {
        case DIRECTIVE_NAME_LISTENDATAGRAM:
        case DIRECTIVE_NAME_LISTENFIFO:
        case DIRECTIVE_NAME_LISTENMESSAGEQUEUE:
        case DIRECTIVE_NAME_LISTENNETLINK:
        case DIRECTIVE_NAME_LISTENSEQUENTIALPACKET:
        case DIRECTIVE_NAME_LISTENSPECIAL:
        case DIRECTIVE_NAME_LISTENSTREAM:
        case DIRECTIVE_NAME_LISTENUSBFUNCTION:
                if (reset) {
                        s->n_listen = s->n_listen_non_accepting = s->n_listen_fs_nodes = 0;
                        s->listen_dotdot = false;
                        s->listen_reset_at = at;
                } else
                        add_listen(s, name_id, value, at);
                break;
        case DIRECTIVE_NAME_ONACTIVESEC:
        case DIRECTIVE_NAME_ONBOOTSEC:
        case DIRECTIVE_NAME_ONCALENDAR:
        case DIRECTIVE_NAME_ONSTARTUPSEC:
        case DIRECTIVE_NAME_ONUNITACTIVESEC:
        case DIRECTIVE_NAME_ONUNITINACTIVESEC:
                /* An empty value of any trigger drops all triggers. */
                if (reset) {
                        s->n_triggers = 0;
                        s->trigger_reset_at = at;
                } else
                        s->n_triggers++;
                break;
        case DIRECTIVE_NAME_ONCLOCKCHANGE:
        case DIRECTIVE_NAME_ONTIMEZONECHANGE:
                if (set && parse_boolean(value) > 0)
                        s->clock_trigger = true;
                break;
        case DIRECTIVE_NAME_PATHCHANGED:
        case DIRECTIVE_NAME_PATHEXISTS:
        case DIRECTIVE_NAME_PATHEXISTSGLOB:
        case DIRECTIVE_NAME_PATHMODIFIED:
        case DIRECTIVE_NAME_DIRECTORYNOTEMPTY:
                if (reset) {
                        s->n_paths = 0;
                        s->path_reset_at = at;
                } else
                        s->n_paths++;
                break;
        case DIRECTIVE_NAME_EXECSTART:
                n = reset ? 0 : count_commands(value, version, unit_name, false);
                if (n < 0)
                        return n;
                s->n_exec_start = reset ? 0 : s->n_exec_start + (unsigned) n;
                s->exec_start_at = at;
                break;
        case DIRECTIVE_NAME_EXECSTOP:
                s->exec_stop = set;
                break;
        case DIRECTIVE_NAME_SUCCESSACTION:
                s->success_action = set && !streq(value, "none");
                break;
        case DIRECTIVE_NAME_TYPE:
                s->type = set ? value : NULL;
                s->type_at = at;
                break;
        case DIRECTIVE_NAME_REMAINAFTEREXIT:
                s->remain_after_exit = set && parse_boolean(value) > 0;
                break;
        case DIRECTIVE_NAME_RESTART:
                s->restart = set ? value : NULL;
                s->restart_at = at;
                break;
        case DIRECTIVE_NAME_EXITTYPE:
                s->exit_type = set ? value : NULL;
                s->exit_type_at = at;
                break;
        case DIRECTIVE_NAME_BUSNAME:
                s->bus_name = set;
                break;
        case DIRECTIVE_NAME_PRIVATEPIDS:
                s->private_pids = set && parse_boolean(value) > 0;
                s->private_pids_at = at;
                break;
        case DIRECTIVE_NAME_RUNTIMEMAXSEC:
                s->runtime_max = set && !streq(value, "infinity");
                s->runtime_max_at = at;
                break;
        case DIRECTIVE_NAME_USBFUNCTIONDESCRIPTORS:
                s->usb_descriptors = set;
                s->usb_at = at;
                break;
        case DIRECTIVE_NAME_USBFUNCTIONSTRINGS:
                s->usb_strings = set;
                s->usb_at = at;
                break;
        case DIRECTIVE_NAME_PAMNAME:
                s->pam = set;
                s->pam_at = at;
                break;
        case DIRECTIVE_NAME_KILLMODE:
                s->kill_mode = set ? value : NULL;
                break;
        case DIRECTIVE_NAME_DYNAMICUSER:
                s->dynamic_user = set && parse_boolean(value) > 0;
                break;
        case DIRECTIVE_NAME_WORKINGDIRECTORY:
                s->working_directory_home = set && (streq(value, "~") || streq(value, "-~"));
                s->working_directory_at = at;
                break;
        case DIRECTIVE_NAME_ACCEPT:
                s->accept = set && parse_boolean(value) > 0;
                s->accept_at = at;
                break;
        case DIRECTIVE_NAME_MAXCONNECTIONS:
                /* A line systemd ignored leaves the value before it. */
                if (set) {
                        s->max_connections_zero = is_zero(value);
                        s->max_connections_at = at;
                }
                break;
        case DIRECTIVE_NAME_SERVICE:
                s->service = set;
                s->service_at = at;
                break;
        case DIRECTIVE_NAME_SYMLINKS:
                s->symlinks = set;
                s->symlinks_at = at;
                break;
        case DIRECTIVE_NAME_WHAT:
                s->what = set ? value : NULL;
                s->what_at = at;
                break;
        case DIRECTIVE_NAME_WHERE:
                s->where = set ? value : NULL;
                s->where_at = at;
                break;
        default:
                return 0;
        }
        return 1;
}

/* Whether some check reads the directive: whether a reset of it (which
 * parses nothing) would change what is tracked. */
bool unit_settings_watches(int name_id) {
        UnitSettings scratch = {};
        Judgement reset = { .verdict = VERDICT_RESET };

        return apply(&scratch, NULL, 0, name_id, "", &reset, (SettingAt) {}) > 0;
}

/* The cases of apply()'s switch, as a table: predict.c asks it of every
 * line (test-policy-notable holds it to unit_settings_watches()). */
const bool unit_settings_watched[_DIRECTIVE_NAME_MAX] = {
        [DIRECTIVE_NAME_LISTENDATAGRAM] = true,
        [DIRECTIVE_NAME_LISTENFIFO] = true,
        [DIRECTIVE_NAME_LISTENMESSAGEQUEUE] = true,
        [DIRECTIVE_NAME_LISTENNETLINK] = true,
        [DIRECTIVE_NAME_LISTENSEQUENTIALPACKET] = true,
        [DIRECTIVE_NAME_LISTENSPECIAL] = true,
        [DIRECTIVE_NAME_LISTENSTREAM] = true,
        [DIRECTIVE_NAME_LISTENUSBFUNCTION] = true,
        [DIRECTIVE_NAME_ONACTIVESEC] = true,
        [DIRECTIVE_NAME_ONBOOTSEC] = true,
        [DIRECTIVE_NAME_ONCALENDAR] = true,
        [DIRECTIVE_NAME_ONSTARTUPSEC] = true,
        [DIRECTIVE_NAME_ONUNITACTIVESEC] = true,
        [DIRECTIVE_NAME_ONUNITINACTIVESEC] = true,
        [DIRECTIVE_NAME_ONCLOCKCHANGE] = true,
        [DIRECTIVE_NAME_ONTIMEZONECHANGE] = true,
        [DIRECTIVE_NAME_PATHCHANGED] = true,
        [DIRECTIVE_NAME_PATHEXISTS] = true,
        [DIRECTIVE_NAME_PATHEXISTSGLOB] = true,
        [DIRECTIVE_NAME_PATHMODIFIED] = true,
        [DIRECTIVE_NAME_DIRECTORYNOTEMPTY] = true,
        [DIRECTIVE_NAME_EXECSTART] = true,
        [DIRECTIVE_NAME_EXECSTOP] = true,
        [DIRECTIVE_NAME_SUCCESSACTION] = true,
        [DIRECTIVE_NAME_TYPE] = true,
        [DIRECTIVE_NAME_REMAINAFTEREXIT] = true,
        [DIRECTIVE_NAME_RESTART] = true,
        [DIRECTIVE_NAME_EXITTYPE] = true,
        [DIRECTIVE_NAME_BUSNAME] = true,
        [DIRECTIVE_NAME_PRIVATEPIDS] = true,
        [DIRECTIVE_NAME_RUNTIMEMAXSEC] = true,
        [DIRECTIVE_NAME_USBFUNCTIONDESCRIPTORS] = true,
        [DIRECTIVE_NAME_USBFUNCTIONSTRINGS] = true,
        [DIRECTIVE_NAME_PAMNAME] = true,
        [DIRECTIVE_NAME_KILLMODE] = true,
        [DIRECTIVE_NAME_DYNAMICUSER] = true,
        [DIRECTIVE_NAME_WORKINGDIRECTORY] = true,
        [DIRECTIVE_NAME_ACCEPT] = true,
        [DIRECTIVE_NAME_MAXCONNECTIONS] = true,
        [DIRECTIVE_NAME_SERVICE] = true,
        [DIRECTIVE_NAME_SYMLINKS] = true,
        [DIRECTIVE_NAME_WHAT] = true,
        [DIRECTIVE_NAME_WHERE] = true,
};

/* One line of a file judged for this unit already (j, with the directive
 * looked up for it): 1 when the file ends there (a fatal line; *s says so
 * for the unit file itself), 0 when the next line follows, or -ENOMEM. */
static _always_inline_ int collect_judged(UnitSettings *s, const char *unit_name, unsigned version,
                                          const UnitFile *f, const UnitEntry *e, const Judgement *j) {
        if (j->verdict == VERDICT_FATAL) {
                if (!f->is_dropin) {
                        s->refused = true;
                        s->refused_at = (SettingAt) { f->path, e->line_last };
                }
                return 1; /* the rest of a drop-in is skipped */
        }
        /* A fatal verdict needs a directive fatal in this version; any
         * other one matters only for a directive some check reads (an
         * unknown key is ignored). */
        return apply(s, unit_name, version, j->directive ? j->directive->name_id : -1, e->value, j,
                     (SettingAt) { f->path, e->line_last }) < 0
                       ? -ENOMEM
                       : 0;
}

/* The lines of one file judged for this unit already: its notable ones
 * (the others are read by no check and end nothing), or all of its lines
 * in a known section. */
static int collect_file_judged(UnitSettings *s, const char *unit_name, unsigned version, const UnitFile *f,
                               const JudgedFile *jf) {
        int r;

        if (jf->notable) {
                for (size_t k = 0; k < jf->n_notable; k++) {
                        size_t i = jf->notable[k];

                        r = collect_judged(s, unit_name, version, f, &f->entries[i], &jf->lines[i]);
                        if (r != 0)
                                return r;
                }
                return 0;
        }
        for (size_t i = 0; i < f->n_entries; i++) {
                const UnitEntry *e = &f->entries[i];

                if (e->section < 0 || f->sections[e->section].state != SECTION_KNOWN)
                        continue;
                r = collect_judged(s, unit_name, version, f, e, &jf->lines[i]);
                if (r != 0)
                        return r;
        }
        return 0;
}

int unit_settings_collect(const char *unit_name, UnitType type, const UnitFile *const *files,
                          const JudgedFile *judged, size_t n_files, unsigned version, UnitSettings *s) {
        JudgeContext ctx = { .version = version, .type = type, .unit_name = unit_name };
        int r;

        /* Once per unit: zero_small() spares the start-up of the rep stos
         * the compiler makes of a memset() of this size. */
        zero_small(s, sizeof *s);
        for (size_t fi = 0; fi < n_files; fi++) {
                const UnitFile *f = files[fi];
                int section = -1;
                DirectiveSection section_id = _DIRECTIVE_SECTION_INVALID;

                if (!f)
                        continue;
                /* Judged for this unit already, with the same type: the
                 * judgement's directive is the one looked up here. */
                if (judged && judged[fi].lines && f->type == type) {
                        r = collect_file_judged(s, unit_name, version, f, &judged[fi]);
                        if (r < 0)
                                return r;
                        if (s->refused)
                                return 0;
                        continue;
                }
                for (size_t i = 0; i < f->n_entries; i++) {
                        const UnitEntry *e = &f->entries[i];
                        int name_id;
                        Judgement j = {}; /* the verdict and partial are all that is needed */

                        if (e->section < 0 || f->sections[e->section].state != SECTION_KNOWN)
                                continue;
                        if (e->section != section) {
                                section = e->section;
                                section_id = directive_section_from_name(f->sections[section].name);
                        }
                        /* Most lines matter only when they could end the file. */
                        name_id = directive_name_find(e->key);
                        if (name_id < 0 || !unit_settings_watched[name_id]) {
                                const Directive *d = directive_lookup_in(type, section_id, e->key);

                                if (!d || !directive_is_fatal(d, version))
                                        continue;
                        }
                        if (judged && judged[fi].lines) {
                                j.verdict = judged[fi].lines[i].verdict;
                                j.partial = judged[fi].lines[i].partial;
                        } else {
                                _cleanup_(judgement_done) Judgement full = {};

                                r = judge_assignment_in(&ctx, section_id, f->sections[section].name,
                                                        e->key, e->value, &full);
                                if (r < 0)
                                        return r;
                                j.verdict = full.verdict;
                                j.partial = full.partial;
                        }
                        if (j.verdict == VERDICT_FATAL) {
                                if (f->is_dropin)
                                        break; /* the rest of the drop-in is skipped */
                                s->refused = true;
                                s->refused_at = (SettingAt) { f->path, e->line_last };
                                return 0;
                        }
                        r = apply(s, unit_name, version, name_id, e->value, &j,
                                  (SettingAt) { f->path, e->line_last });
                        if (r < 0)
                                return r;
                }
        }
        return 0;
}
