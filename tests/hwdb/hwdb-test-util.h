/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Helpers for the hwdb C tests: build databases from source text. */

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "basic/diag.h"
#include "hwdb/hwdb-bin.h"
#include "hwdb/hwdb-lookup.h"
#include "hwdb/hwdb-source.h"
#include "hwdb/hwdb-trie.h"
#include "hwdb/hwdb-write.h"

/* Parses the sources (priority = position + 1) and compiles them into a
 * malloc'ed hwdb.bin image. */
static inline int build_image(const char *const *sources, const size_t *sizes, size_t n,
                              DiagList *diags, void **ret, size_t *ret_size) {
        _cleanup_(hwdb_trie_freep) HwdbTrie *t = NULL;
        int r;

        r = hwdb_trie_new(&t);
        if (r < 0)
                return r;
        for (size_t i = 0; i < n; i++) {
                char name[32];

                snprintf(name, sizeof(name), "src%zu.hwdb", i + 1);
                r = hwdb_source_parse(t, sources[i], sizes ? sizes[i] : strlen(sources[i]), name,
                                      (uint16_t) (i + 1), diags);
                if (r < 0)
                        return r;
        }
        return hwdb_trie_write_memory(t, ret, ret_size);
}

static inline int build_db(const char *source, DiagList *diags, HwdbBin **ret) {
        const char *srcs[] = { source };
        DiagList scratch = {};
        void *image;
        size_t size;
        int r;

        r = build_image(srcs, NULL, 1, diags ?: &scratch, &image, &size);
        diag_list_done(&scratch);
        if (r < 0)
                return r;
        return hwdb_bin_new_from_memory(image, size, true, ret, NULL);
}

/* The answer as "K=V\n" lines, like the CLI prints it. */
static inline int answer(const HwdbBin *b, const char *key, char *out, size_t size) {
        _cleanup_(hwdb_lookup_done) HwdbLookup l = {};
        size_t len = 0;
        int r;

        out[0] = '\0';
        r = hwdb_lookup(&l, b, key);
        if (r < 0)
                return r;
        for (size_t i = 0; i < l.n_props; i++) {
                int n = snprintf(out + len, size - len, "%s=%s\n", l.props[i].key, l.props[i].value);
                if (n < 0 || (size_t) n >= size - len)
                        return -ENOBUFS;
                len += (size_t) n;
        }
        return (int) l.n_props;
}
