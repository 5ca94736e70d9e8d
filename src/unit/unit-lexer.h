/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* Splits a buffer into physical lines exactly like systemd's read_line():
 * a line ends at LF, CR or NUL. A run of terminators counts as one as long
 * as no kind repeats ("\r\n" and "\n\r" are one terminator, "\n\n" two),
 * and a NUL always ends the run. */

enum {
        LINE_END_LF = 1 << 0,
        LINE_END_CR = 1 << 1,
        LINE_END_NUL = 1 << 2,
};

typedef struct PhysLine {
        size_t start;          /* offset of the first content byte */
        size_t len;            /* content bytes, terminator excluded */
        size_t term_len;       /* 0 at end of data without terminator */
        unsigned term_kinds;   /* LINE_END_* bits seen in the terminator */
        bool ascii;            /* no content byte >= 0x80 (then it is valid UTF-8) */
} PhysLine;

/* data[size] must be a NUL byte (a sentinel). Returns false when *pos is
 * at the end of the data. One pass over the bytes finds the end and tells
 * whether the line is ASCII, eight bytes at a time. */
bool physline_next(const char *data, size_t size, size_t *pos, PhysLine *ret);

/* Whether the text ends in a backslash that is not itself escaped (a
 * continuation). Reads only the final run of backslashes. */
bool line_ends_in_escape(const char *s, size_t n);
