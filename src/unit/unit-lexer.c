/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <string.h>

#include "unit-lexer.h"

static unsigned eol_kind(char c) {
        switch (c) {
        case '\n':
                return LINE_END_LF;
        case '\r':
                return LINE_END_CR;
        case '\0':
                return LINE_END_NUL;
        default:
                return 0;
        }
}

bool physline_next(const char *data, size_t size, size_t *pos, PhysLine *ret) {
        size_t i = *pos, end;
        unsigned seen = 0;

        if (i >= size)
                return false;

        /* strcspn() also stops at NUL, which is a terminator too, and at the
         * sentinel NUL at data[size]. */
        end = i + strcspn(data + i, "\n\r");
        if (end > size)
                end = size;

        i = end;
        while (i < size) {
                unsigned k = eol_kind(data[i]);

                if (k == 0 || (seen & LINE_END_NUL) || (seen & k))
                        break;
                seen |= k;
                i++;
        }

        *ret = (PhysLine) {
                .start = *pos,
                .len = end - *pos,
                .term_len = i - end,
                .term_kinds = seen,
        };
        *pos = i;
        return true;
}
