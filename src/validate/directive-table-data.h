/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The generated table (directive-table-data.c), sorted by name. */

#include <stddef.h>
#include <stdint.h>

#include "validate/directive-table.h"

extern const Directive directive_table[];
extern const size_t directive_table_size;

/* Open-addressing hash of names: the first row with a name, or -1. */
extern const int16_t directive_name_index[];
extern const size_t directive_name_index_size;  /* a power of two */

/* FNV-1a over the name's bytes, as the generator computes it. */
static inline uint32_t directive_name_hash(const char *s) {
        uint32_t h = 2166136261u;

        for (; *s; s++)
                h = (h ^ (unsigned char) *s) * 16777619u;
        return h;
}
