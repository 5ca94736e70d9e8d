/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

#include "strbuf.h"

/* Appends s[0..n) as a JSON string literal, quotes included. The result is
 * always valid JSON: control characters are escaped, and every byte that is
 * not part of a valid UTF-8 sequence becomes U+FFFD. Returns 1 if such a
 * replacement happened, 0 if the text was carried over exactly, or -ENOMEM. */
int json_append_string(StrBuf *out, const char *s, size_t n);
int json_append_cstring(StrBuf *out, const char *s);
