/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

/* Behaviours of systemd that changed between versions, each a named record
 * with the first version that has it and the last one (0: still there).
 * Code asks sd_behaves(B, version); no other place compares versions. The
 * facts come from systemd's NEWS and sources; where a version was measured
 * (252, 257) the record says so. */

typedef enum SystemdBehaviour {
        SD_EXEC_PREFIX_PLUS,           /* '+' in Exec*=: full privileges */
        SD_EXEC_PREFIX_BANG,           /* '!': no setuid; '!!' too */
        SD_EXEC_PREFIX_AMBIENT,        /* '!!': ambient-capability fallback */
        SD_EXEC_PREFIX_COLON,          /* ':': no environment variable expansion */
        SD_EXEC_PREFIX_PIPE,           /* '|': run through the user's shell */
        SD_EXEC_PATH_SEARCHED,         /* a bare executable name is looked up in $PATH */
        SD_EXEC_PATH_DOT_DIRECTORY,    /* a path ending in "/." or "/.." names a directory */
        SD_SPECIFIER_UNKNOWN_FATAL,    /* %x with an unknown letter is an error */
        SD_FATAL_SECURITY_DIRECTIVES,  /* invalid User=, Exec*=, ... refuse the unit */
        SD_USER_NAMES_DOTS,            /* dots in user names, with a warning */
        SD_USER_NAMES_RELAXED,         /* the relaxed name rules, with a notice */
        SD_UID_STRICT_PARSE,           /* UIDs as plain decimal only (no "+1", "0x1") */
        SD_DROPINS_DASH_PREFIX,        /* foo-.service.d applies to foo-bar.service */
        SD_DROPINS_TYPE_WIDE,          /* service.d applies to every service */
        SD_STDIO_FD,                   /* StandardInput/Output=fd:NAME */
        SD_STDIO_FILE,                 /* file:PATH */
        SD_STDIO_APPEND,               /* append:PATH */
        SD_STDIO_TRUNCATE,             /* truncate:PATH */
        SD_IFNAME_ALTERNATIVE,         /* RestrictNetworkInterfaces= takes alternative names */
        SD_SOCKET_BIND_PORT_ZERO,      /* SocketBindAllow=/Deny= take port 0 */
        SD_EXEC_DIRECTORY_FLAGS,       /* StateDirectory=NAME:LINK:ro & co */
        _SD_BEHAVIOUR_MAX,
} SystemdBehaviour;

typedef struct SystemdBehaviourInfo {
        const char *name;              /* stable identifier, e.g. "exec.prefix.colon" */
        unsigned since, until;         /* first and last version; until 0: unbounded */
        const char *what;
} SystemdBehaviourInfo;

const SystemdBehaviourInfo *sd_behaviour_info(SystemdBehaviour b);
bool sd_behaves(SystemdBehaviour b, unsigned version);
