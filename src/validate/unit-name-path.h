/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The unit name systemd derives from a path (unit_name_from_path()):
 * mounts, automounts and swaps must be named after their Where=/What=. */

/* "/mnt/a-b/" with ".mount" gives "mnt-a\x2db.mount"; "/" gives "-.mount".
 * The path is simplified first (duplicate slashes, "." components and a
 * trailing slash go). Returns 0, -EINVAL when the path is not absolute,
 * keeps a ".." component or the name would be too long, or -ENOMEM. */
int unit_name_from_path(const char *path, const char *suffix, char **ret);
