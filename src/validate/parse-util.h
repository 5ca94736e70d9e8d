/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* systemd's booleans, case-insensitive: 1 yes y true t on / 0 no n false f
 * off. Returns 1 or 0, or -EINVAL for anything else (including ""). */
int parse_boolean(const char *v);
