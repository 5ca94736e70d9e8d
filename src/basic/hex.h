/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The value of one hexadecimal digit, or -1. */
static inline int unhexchar(char c) {
        if (c >= '0' && c <= '9')
                return c - '0';
        if (c >= 'a' && c <= 'f')
                return c - 'a' + 10;
        if (c >= 'A' && c <= 'F')
                return c - 'A' + 10;
        return -1;
}
