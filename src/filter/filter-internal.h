/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Shared between the stream and the path inputs of the filter. */

#include "filter.h"

int input_error(Filter *f, const char *path, int error, const char *what);
int finish_group(Filter *f, UnitGroup *g);
char *path_basename_dup(const char *path);
/* Parses one file into g; takes ownership of data and framing. */
int add_file(UnitGroup *g, char *data, size_t size, const char *path, bool dropin, char *framing);
/* The same for a file just read, whose bytes are the caller's (borrowed:
 * lent by the reader, kept by it) or its own malloc()ed ones (taken). A
 * small file is parsed in the model allocation the filter kept from an
 * earlier unit. path_len: strlen(path). Takes framing. */
int add_file_read(Filter *f, UnitGroup *g, char *data, size_t size, bool borrowed, const char *path,
                  size_t path_len, bool dropin, char *framing);
/* A new group for the unit name (or NULL), in the allocation of an earlier
 * unit's when there is one. name is borrowed, not copied: it must outlive
 * the group. */
int filter_group_new(Filter *f, const char *name, UnitGroup **ret);
/* Frees g and what it holds, keeping its allocations for the next unit. */
void filter_group_recycle(Filter *f, UnitGroup *g);
