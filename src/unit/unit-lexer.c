/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include "unit-lexer.h"

/* Whether the text ends in a backslash that is not itself escaped. The
 * text joined so far always ends in the space that replaced the previous
 * backslash, so the parity of the new part alone decides. Read from the
 * start, a backslash escapes the byte after it; the byte before the final
 * run of backslashes is not one, so whatever escaped it, the run starts
 * unescaped, and its length's parity decides: only the run is read. */
bool line_ends_in_escape_slow(const char *s, size_t n) {
        size_t k = 0;

        while (k < n && s[n - 1 - k] == '\\')
                k++;
        return k % 2 == 1;
}
