/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "hwdb-db.h"
#include "hwdb-dirs.h"
#include "hwdb-write.h"

int hwdb_load_sources(const char *root, const char *const *dirs, DiagList *diags, HwdbTrie **ret,
                      size_t *ret_n_files, size_t *ret_n_unreadable) {
        _cleanup_(hwdb_source_list_done) HwdbSourceList list = {};
        _cleanup_(hwdb_trie_freep) HwdbTrie *t = NULL;
        int r, failed;

        r = hwdb_source_list(root, dirs ?: hwdb_default_source_dirs, &list);
        if (r < 0)
                return r;
        r = hwdb_trie_new(&t);
        if (r < 0)
                return r;
        failed = hwdb_source_list_load(&list, t, diags);
        if (failed < 0)
                return failed;

        if (ret_n_files)
                *ret_n_files = list.n;
        if (ret_n_unreadable)
                *ret_n_unreadable = (size_t) failed;
        *ret = TAKE_PTR(t);
        return 0;
}

int hwdb_open_sources(const char *root, const char *const *dirs, DiagList *diags, HwdbBin **ret,
                      size_t *ret_n_files, size_t *ret_n_unreadable) {
        _cleanup_(hwdb_trie_freep) HwdbTrie *t = NULL;
        void *image;
        size_t size;
        int r;

        r = hwdb_load_sources(root, dirs, diags, &t, ret_n_files, ret_n_unreadable);
        if (r < 0)
                return r;
        r = hwdb_trie_write_memory(t, &image, &size);
        if (r < 0)
                return r;
        t = hwdb_trie_free(t);
        return hwdb_bin_new_from_memory(image, size, true, ret, NULL);
}

int hwdb_open_default_bin(const char *root, HwdbBin **ret, char **ret_path,
                          const char **ret_reason) {
        for (const char *const *p = hwdb_default_bin_paths; *p; p++) {
                _cleanup_free_ char *path = NULL;
                int r;

                path = hwdb_path_join(root, *p);
                if (!path)
                        return -ENOMEM;
                if (access(path, F_OK) < 0)
                        continue;

                /* The first file that exists is the database, as for
                 * udev; a broken one is an error, not a reason to go on. */
                r = hwdb_bin_open(path, ret, ret_reason);
                if (ret_path)
                        *ret_path = TAKE_PTR(path);
                return r;
        }
        return -ENOENT;
}
