/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>

/* Rule sets for user and group names (reference §6). Each mode answers
 * "is this a name that rule set accepts". Only USER_NAME_RELAXED treats
 * numeric strings specially (a valid UID is accepted, any other all-digit
 * string is refused), because that mode describes what User= in a unit
 * file takes since v246; every other mode looks at the characters only. */
typedef enum UserNameMode {
        USER_NAME_STRICT,          /* systemd's own rule, ^[A-Za-z_][A-Za-z0-9_-]{0,30}$ */
        USER_NAME_RELAXED,         /* systemd v246+ unit files (numeric IDs allowed) */
        USER_NAME_POSIX,           /* portable filename characters, no leading '-' */
        USER_NAME_DEBIAN,          /* adduser NAME_REGEX plus its hard checks */
        USER_NAME_DEBIAN_SYSTEM,   /* adduser SYS_NAME_REGEX plus its hard checks */
        USER_NAME_SHADOW,          /* Debian 12 useradd as measured */
        USER_NAME_SHADOW_UPSTREAM, /* upstream shadow chkname.c without --badname */
        USER_NAME_RHEL,            /* Fedora/RHEL regex, not '.'/'..', not all digits */
        _USER_NAME_MODE_MAX,
        _USER_NAME_MODE_INVALID = -EINVAL,
} UserNameMode;

bool user_name_is_valid(const char *name, UserNameMode mode);

const char *user_name_mode_to_string(UserNameMode mode);
/* Returns _USER_NAME_MODE_INVALID for an unknown (or NULL) string. */
UserNameMode user_name_mode_from_string(const char *s);

/* Numeric user/group IDs as systemd parses them (reference §6.3).
 * systemd_version >= 246: plain decimal, no sign, no leading zero except
 * "0", no blanks. Older versions: strtoul() with base 0 after skipping
 * blanks, so "+1", "007" (octal 7) and "0x10" (16) are IDs; '-' is refused.
 * In both eras 65535 and 4294967295 are refused.
 * Returns 0 and stores the ID, -EINVAL for a non-number, -ERANGE when it
 * does not fit 32 bits (or is negative), -ENXIO for the two refused IDs. */
int parse_uid(const char *s, unsigned systemd_version, uint32_t *ret);

/* What User=/Group=/SupplementaryGroups= entries do in a unit file of a
 * given systemd version, after specifier expansion (reference §6.4). */
typedef enum UserCheck {
        USER_CHECK_OK,       /* accepted silently */
        USER_CHECK_NOTICE,   /* accepted, with a notice or warning */
        USER_CHECK_INVALID,  /* refused: fatal in v234+, line dropped before */
} UserCheck;

/* Stores the numeric ID in *ret_uid when the value is numeric (UINT32_MAX
 * otherwise; ret_uid may be NULL). An empty name is INVALID here: the
 * caller handles the empty assignment (a reset) before calling this. */
UserCheck user_name_check_systemd(const char *name, unsigned systemd_version, uint32_t *ret_uid);
