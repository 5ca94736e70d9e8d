/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The .hwdb source parser on arbitrary bytes. Properties: it never fails
 * except for the documented limits; every diagnostic renders as one line
 * and as valid JSON; what it loads compiles, in both value layouts, into a
 * hwdb.bin that passes the full verification, and lookups in it agree with
 * and without pruning. */
#include <errno.h>

#include "fuzz-hwdb.h"
#include "hwdb/hwdb-source.h"
#include "hwdb/hwdb-trie.h"
#include "hwdb/hwdb-write.h"

static void check_diags(const DiagList *diags) {
        StrBuf t = {};

        for (size_t i = 0; i < diags->n; i++) {
                strbuf_reset(&t);
                fuzz_assert(diag_format_text(&diags->items[i], &t) >= 0);
                fuzz_assert(t.len > 0 && memchr(t.data, '\n', t.len) == t.data + t.len - 1);
                strbuf_reset(&t);
                fuzz_assert(diag_to_json(&diags->items[i], &t) >= 0);
                fuzz_assert(fuzz_json_ok(t.data, t.len));
        }
        strbuf_done(&t);
}

static void compile_and_check(HwdbTrie *t, unsigned value_size) {
        const char *reason = NULL;
        StrBuf answer = {};
        HwdbBin *b = NULL;
        void *image;
        size_t size;

        fuzz_assert(hwdb_trie_write_memory_full(t, value_size, &image, &size) >= 0);
        fuzz_assert(hwdb_bin_new_from_memory(image, size, true, &b, &reason) >= 0);
        fuzz_assert(hwdb_bin_verify(b, &reason) >= 0);
        for (size_t i = 0; i < sizeof(fuzz_hwdb_keys) / sizeof(fuzz_hwdb_keys[0]); i++)
                fuzz_assert(fuzz_hwdb_lookup_both(b, fuzz_hwdb_keys[i], &answer) >= 0);
        strbuf_done(&answer);
        hwdb_bin_free(b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        DiagList diags = {};
        HwdbTrie *t = NULL;
        char *buf;
        int r;

        /* Not NUL-terminated: the parser must stay inside size bytes. */
        buf = fuzz_copy(data, size, 0);
        fuzz_assert(hwdb_trie_new(&t) >= 0);
        r = hwdb_source_parse(t, buf, size, "fuzz.hwdb", 1, &diags);
        fuzz_assert(r >= 0 || r == -E2BIG);
        check_diags(&diags);

        if (r >= 0) {
                DiagList scratch = {};

                compile_and_check(t, 32);

                /* Laying out consumes the trie: load again for the old
                 * layout. */
                t = hwdb_trie_free(t);
                fuzz_assert(hwdb_trie_new(&t) >= 0);
                fuzz_assert(hwdb_source_parse(t, buf, size, "fuzz.hwdb", 1, &scratch) == r);
                fuzz_assert(scratch.n == diags.n);
                diag_list_done(&scratch);
                compile_and_check(t, 16);
        }

        diag_list_done(&diags);
        hwdb_trie_free(t);
        free(buf);
        return 0;
}
