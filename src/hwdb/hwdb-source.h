/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "basic/diag.h"
#include "hwdb-trie.h"

/* systemd reads source lines with a 1 MiB limit; a longer line ends the
 * file (what came before it stays). */
#define HWDB_LINE_MAX ((size_t) 1024 * 1024)

/* The longest glob tail (from a match string's first '*', '?' or '[' on) that
 * systemd-hwdb 252 can test; it aborts on keys that reach a longer one.
 * unitguard matches those correctly and warns about them. */
#define HWDB_GLOB_TAIL_MAX 2046

/* Parses one .hwdb source held in buf (size bytes, need not be
 * NUL-terminated) and adds its records to t with the given file priority.
 * Everything systemd would warn about, and the places where systemd-hwdb
 * would misbehave, becomes a record in diags (rules "hwdb.*"); none of them
 * stops the parse. Returns the number of records added, or -ENOMEM/-E2BIG. */
int hwdb_source_parse(HwdbTrie *t, const char *buf, size_t size, const char *filename,
                      uint16_t priority, DiagList *diags);
