/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The generated table (directive-table-data.c), sorted by name. */

#include <stddef.h>

#include "validate/directive-table.h"

extern const Directive directive_table[];
extern const size_t directive_table_size;
