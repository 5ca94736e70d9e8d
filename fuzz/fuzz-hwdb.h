/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Helpers shared by the hwdb fuzz targets. */

#include <stdbool.h>

#include "fuzz.h"
#include "basic/strbuf.h"
#include "hwdb/hwdb-bin.h"
#include "hwdb/hwdb-lookup.h"

static inline int fuzz_compare_strings(const void *a, const void *b) {
        return strcmp(*(char *const *) a, *(char *const *) b);
}

/* Sorts the lines of text (each ending in '\n') in place, so answers can be
 * compared without regard to output order. */
static inline void fuzz_sort_lines(StrBuf *text) {
        size_t n = 0, k = 0;
        char **lines, *copy, *p;

        if (text->len == 0)
                return;
        for (size_t i = 0; i < text->len; i++)
                n += text->data[i] == '\n';
        lines = fuzz_xmalloc(n * sizeof(char *));
        copy = fuzz_xmalloc(text->len + 1);
        memcpy(copy, text->data, text->len + 1);
        for (p = copy; k < n; k++) {
                char *nl = strchr(p, '\n');

                lines[k] = p;
                *nl = '\0';
                p = nl + 1;
        }
        qsort(lines, n, sizeof(char *), fuzz_compare_strings);
        text->len = 0;
        for (k = 0; k < n; k++) {
                fuzz_assert(strbuf_append_str(text, lines[k]) >= 0);
                fuzz_assert(strbuf_append_char(text, '\n') >= 0);
        }
        free(lines);
        free(copy);
}

/* The answer for key as sorted "KEY=VALUE priority:line" lines. Returns
 * what hwdb_lookup() returned. */
static inline int fuzz_hwdb_answer(const HwdbBin *b, const char *key, bool no_prune, StrBuf *out) {
        HwdbLookup l = { .no_prune = no_prune };
        int r;

        strbuf_reset(out);
        r = hwdb_lookup(&l, b, key);
        if (r >= 0) {
                fuzz_assert((size_t) r == l.n_props);
                for (size_t i = 0; i < l.n_props; i++)
                        fuzz_assert(strbuf_printf(out, "%s=%s %u:%u\n", l.props[i].key,
                                                  l.props[i].value, l.props[i].priority,
                                                  l.props[i].line) >= 0);
                fuzz_sort_lines(out);
        }
        hwdb_lookup_done(&l);
        return r;
}

/* Pruning must never change an answer, nor whether there is one. */
static inline int fuzz_hwdb_lookup_both(const HwdbBin *b, const char *key, StrBuf *pruned) {
        StrBuf plain = {};
        int r1, r2;

        r1 = fuzz_hwdb_answer(b, key, false, pruned);
        r2 = fuzz_hwdb_answer(b, key, true, &plain);
        if (r1 >= 0 && r2 >= 0) {
                fuzz_assert(r1 == r2);
                fuzz_assert(pruned->len == plain.len);
                fuzz_assert(plain.len == 0 || memcmp(pruned->data, plain.data, plain.len) == 0);
        }
        strbuf_done(&plain);
        return r1;
}

/* Turns a match pattern into a key it probably matches: fill stands in
 * for '*', 'A' for '?', a bracket's first member for the bracket. */
static inline void fuzz_hwdb_instantiate(const char *pat, const char *fill, StrBuf *out) {
        strbuf_reset(out);
        /* An empty result is still a string. */
        fuzz_assert(strbuf_reserve(out, 0) >= 0);
        for (const char *p = pat; *p; p++) {
                if (*p == '*')
                        fuzz_assert(strbuf_append_str(out, fill) >= 0);
                else if (*p == '?')
                        fuzz_assert(strbuf_append_char(out, 'A') >= 0);
                else if (*p == '[') {
                        const char *end = strchr(p + 1, ']');

                        fuzz_assert(strbuf_append_char(out, end && end > p + 1 && p[1] != '!' &&
                                                                    p[1] != '^' ? p[1] : 'x') >= 0);
                        if (end)
                                p = end;
                } else
                        fuzz_assert(strbuf_append_char(out, *p) >= 0);
        }
}

/* Keys that the fixtures use, so that lookups reach real trie paths even on
 * mutated files. */
static const char *const fuzz_hwdb_keys[] = {
        "pci:v00008086d00001234sv00001AF4sd00001100bc02sc00i00",
        "usb:v046Dp0825d0010dc00dsc00dp00ic0Eisc01ip00in00",
        "input:b0003v046Dp4024e0111-e0,1,4,11,14,k71,72,73,ramlsfw",
        "dmi:bvnLENOVO:bvrN1EET:bd01/01/2020:svnLENOVO:pn20A7:pvrThinkPadX1Carbon:",
        "evdev:name:AT Translated Set 2 keyboard:phys:isa0060/serio0/input0:ev:120013:",
        "OUI:0050C2",
        "a",
        "*",
        "[",
};
