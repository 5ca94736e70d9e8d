/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "basic/alloc-util.h"
#include "basic/macro.h"
#include "lookup-paths.h"

/* systemd 252 as Debian 12 builds it (`systemd-analyze unit-paths`): /lib
 * comes before /usr/lib because the package is configured for a split
 * /usr. On a merged-/usr root both name the same directory; names found
 * through /lib win, as on a real Debian 12 system. The generator
 * directories (/run/systemd/generator*) are included: an image may carry
 * them, a package tree does not. */
static const char *const system_dirs[] = {
        "/etc/systemd/system.control",
        "/run/systemd/system.control",
        "/run/systemd/transient",
        "/run/systemd/generator.early",
        "/etc/systemd/system",
        "/etc/systemd/system.attached",
        "/run/systemd/system",
        "/run/systemd/system.attached",
        "/run/systemd/generator",
        "/usr/local/lib/systemd/system",
        "/lib/systemd/system",
        "/usr/lib/systemd/system",
        "/run/systemd/generator.late",
        NULL,
};

/* The user manager's path without the per-user directories (~/.config,
 * ~/.local/share, $XDG_RUNTIME_DIR), which no root describes. */
static const char *const user_dirs[] = {
        "/etc/xdg/systemd/user",
        "/etc/systemd/user",
        "/run/systemd/user",
        "/usr/local/share/systemd/user",
        "/usr/share/systemd/user",
        "/usr/local/lib/systemd/user",
        "/usr/lib/systemd/user",
        NULL,
};

const char *const *lookup_paths_candidates(LookupScope scope) {
        return scope == LOOKUP_USER ? user_dirs : system_dirs;
}

const char *lookup_scope_to_string(LookupScope s) {
        return s == LOOKUP_USER ? "user" : "system";
}

void lookup_paths_done(LookupPaths *lp) {
        for (size_t i = 0; i < lp->n_dirs; i++) {
                free(lp->dirs[i].path);
                free(lp->dirs[i].resolved);
        }
        free(lp->dirs);
        *lp = (LookupPaths) {};
}

int lookup_paths_init(const Root *root, LookupScope scope, LookupPaths *ret) {
        const char *const *c = lookup_paths_candidates(scope);
        LookupPaths lp = { .scope = scope };
        size_t n = 0;
        int r = 0;

        while (c[n])
                n++;
        lp.dirs = new0(SearchDir, n);
        if (!lp.dirs)
                return -ENOMEM;

        for (; *c; c++) {
                _cleanup_free_ char *resolved = NULL;
                struct stat st;

                r = root_chase_stat(root, *c, 0, &resolved, &st);
                if (r == -ENOMEM)
                        break;
                /* Missing or unusable directories are skipped, as systemd
                 * does. The resolution's lstat() of its result is the
                 * directory's own (the last component was followed); a
                 * result it did not look at is looked at here. */
                if (r < 0 || (st.st_mode == 0 && fstatat(root->fd, resolved[1] ? resolved + 1 : ".", &st, 0) < 0) ||
                    !S_ISDIR(st.st_mode)) {
                        r = 0;
                        continue;
                }
                lp.dirs[lp.n_dirs].path = strdup(*c);
                if (!lp.dirs[lp.n_dirs].path) {
                        r = -ENOMEM;
                        break;
                }
                lp.dirs[lp.n_dirs++].resolved = TAKE_PTR(resolved);
        }
        if (r < 0) {
                lookup_paths_done(&lp);
                return r;
        }
        *ret = lp;
        return 0;
}

bool lookup_paths_contains(const LookupPaths *lp, const char *path) {
        const char *const *c;

        /* systemd compares against the configured names, whether or not
         * each directory exists. */
        for (c = lookup_paths_candidates(lp->scope); *c; c++) {
                const char *rest = startswith(path, *c);

                if (rest && (*rest == '/' || *rest == '\0'))
                        return true;
        }
        return false;
}
