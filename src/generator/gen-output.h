/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

/* Writing into one of the generator's output directories. name is a unit
 * name, or "UNIT.d/FILE.conf"; the caller has checked that it names no
 * other directory (no "/" beyond the one after UNIT.d, no "." or ".."). Each
 * file appears complete or not at all. */

/* A regular file (mode 0644), written with atomic_file_replace(); UNIT.d is
 * created first when needed. */
int gen_output_file(const char *dir, const char *name, const void *data, size_t size);
/* A symlink to /dev/null: a mask. Created in one step (symlink(2)), or,
 * when the name is taken, made under a temporary name and renamed over it. */
int gen_output_mask(const char *dir, const char *name);
