/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Shared between the stream and the path inputs of the filter. */

#include "filter.h"

int input_error(Filter *f, const char *path, int error, const char *what);
int finish_group(Filter *f, UnitGroup *g);
char *path_basename_dup(const char *path);
/* Parses one file into g; takes ownership of data and framing. */
int add_file(UnitGroup *g, char *data, size_t size, const char *path, bool dropin, char *framing);
