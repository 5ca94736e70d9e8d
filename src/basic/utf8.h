/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decodes one UTF-8 sequence at s (n bytes available). Returns its length
 * (1..4) and stores the code point, or returns 0 for an invalid, overlong,
 * surrogate or truncated sequence. */
size_t utf8_decode(const char *s, size_t n, uint32_t *ret_cp);

/* Standard UTF-8 validity (RFC 3629). */
bool utf8_is_valid(const char *s, size_t n);

/* systemd's stricter notion, used on unit-file lines: additionally refuses
 * Unicode noncharacters (U+FDD0..U+FDEF and every U+xxFFFE/U+xxFFFF). */
bool utf8_is_valid_systemd(const char *s, size_t n);
