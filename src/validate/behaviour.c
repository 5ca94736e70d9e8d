/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* systemd's behaviour changes, version by version. */
#include "basic/macro.h"
#include "behaviour.h"

static const SystemdBehaviourInfo behaviours[_SD_BEHAVIOUR_MAX] = {
        [SD_EXEC_PREFIX_PLUS] = { "exec.prefix.plus", 231, 0, "'+' runs the command with full privileges" },
        [SD_EXEC_PREFIX_BANG] = { "exec.prefix.bang", 235, 0, "'!' runs the command without the user switch" },
        [SD_EXEC_PREFIX_AMBIENT] = { "exec.prefix.ambient", 235, 257,
                                     "'!!' falls back to ambient capabilities (258 reads it as no prefix)" },
        [SD_EXEC_PREFIX_COLON] = { "exec.prefix.colon", 242, 0, "':' turns off environment variable expansion" },
        [SD_EXEC_PREFIX_PIPE] = { "exec.prefix.pipe", 258, 0, "'|' runs the command through the user's shell" },
        [SD_EXEC_PATH_SEARCHED] = { "exec.path.searched", 239, 0,
                                    "a bare executable name is searched in $PATH (before: absolute paths only)" },
        [SD_EXEC_PATH_DOT_DIRECTORY] = { "exec.path.dot-directory", 256, 0,
                                         "an executable path ending in /. or /.. is refused as a directory" },
        [SD_SPECIFIER_UNKNOWN_FATAL] = { "specifier.unknown-fatal", 236, 0,
                                         "an unknown %-specifier letter makes the value invalid" },
        [SD_FATAL_SECURITY_DIRECTIVES] = { "fatal.security-directives", 234, 0,
                                           "invalid Exec*=, User=, Group= and the other security settings refuse the unit (CVE-2017-1000082)" },
        [SD_USER_NAMES_DOTS] = { "user-names.dots", 243, 245, "dots in user names pass with a warning" },
        [SD_USER_NAMES_RELAXED] = { "user-names.relaxed", 246, 0,
                                    "names outside the strict rules pass with a notice when relaxed-valid" },
        [SD_UID_STRICT_PARSE] = { "uid.strict-parse", 246, 0, "numeric IDs are plain decimal numbers only" },
        [SD_DROPINS_DASH_PREFIX] = { "dropins.dash-prefix", 239, 0,
                                     "foo-.service.d/ applies to every foo-*.service" },
        [SD_DROPINS_TYPE_WIDE] = { "dropins.type-wide", 246, 0, "service.d/ applies to every service" },
        [SD_STDIO_FD] = { "stdio.fd", 235, 0, "StandardInput/Output/Error=fd:NAME" },
        [SD_STDIO_FILE] = { "stdio.file", 236, 0, "StandardInput/Output/Error=file:PATH" },
        [SD_STDIO_APPEND] = { "stdio.append", 240, 0, "StandardOutput/Error=append:PATH" },
        [SD_STDIO_TRUNCATE] = { "stdio.truncate", 248, 0, "StandardOutput/Error=truncate:PATH" },
        [SD_IFNAME_ALTERNATIVE] = { "ifname.alternative", 256, 0,
                                    "RestrictNetworkInterfaces= takes alternative interface names (up to 127 bytes)" },
        [SD_SOCKET_BIND_PORT_ZERO] = { "socket-bind.port-zero", 256, 0, "SocketBindAllow=/Deny= take port 0" },
        [SD_EXEC_DIRECTORY_FLAGS] = { "exec-directory.flags", 257, 0,
                                      "StateDirectory= & co take NAME:LINK:ro, empty parts kept apart (before: runs of ':' are one)" },
};

const SystemdBehaviourInfo *sd_behaviour_info(SystemdBehaviour b) {
        return b >= 0 && b < _SD_BEHAVIOUR_MAX ? &behaviours[b] : NULL;
}

bool sd_behaves(SystemdBehaviour b, unsigned version) {
        const SystemdBehaviourInfo *i = sd_behaviour_info(b);

        return i && version >= i->since && (i->until == 0 || version <= i->until);
}
