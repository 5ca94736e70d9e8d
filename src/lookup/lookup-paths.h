/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

#include "root.h"

/* The unit search path of one service manager, in precedence order, as
 * systemd's lookup_paths_init() builds it for a root (no environment
 * overrides, no per-user home or runtime directories). */

typedef enum LookupScope {
        LOOKUP_SYSTEM,
        LOOKUP_USER,           /* the user manager's directories below the root */
} LookupScope;

typedef struct SearchDir {
        char *path;            /* as systemd names it: "/lib/systemd/system" */
        char *resolved;        /* symlinks resolved inside the root */
} SearchDir;

typedef struct LookupPaths {
        LookupScope scope;
        SearchDir *dirs;       /* only those that exist, highest precedence first */
        size_t n_dirs;
} LookupPaths;

/* Candidate directories for a scope, NULL-terminated, highest first. */
const char *const *lookup_paths_candidates(LookupScope scope);
int lookup_paths_init(const Root *root, LookupScope scope, LookupPaths *ret);
void lookup_paths_done(LookupPaths *lp);
/* Whether path (resolved as systemd simplifies alias targets) lies below
 * one of the search directories, by name. */
bool lookup_paths_contains(const LookupPaths *lp, const char *path);
const char *lookup_scope_to_string(LookupScope s);
