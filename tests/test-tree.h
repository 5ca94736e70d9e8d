/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Building a scratch directory tree in a test: files, directories and
 * symbolic links named relative to its top. Each step CHECKs that it
 * worked. */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests.h"

/* top/rel, created (or emptied) with the text in it. */
static inline void tree_file(const char *top, const char *rel, const char *text) {
        char p[512];
        FILE *f;

        CHECK((size_t) snprintf(p, sizeof(p), "%s/%s", top, rel) < sizeof(p));
        f = fopen(p, "we");
        CHECK(f != NULL);
        if (f) {
                fputs(text, f);
                CHECK(fclose(f) == 0);
        }
}

static inline void tree_dir(const char *top, const char *rel) {
        char p[512];

        CHECK((size_t) snprintf(p, sizeof(p), "%s/%s", top, rel) < sizeof(p));
        CHECK(mkdir(p, 0755) == 0);
}

/* top/rel, a symbolic link to target (taken as it is). */
static inline void tree_link(const char *top, const char *target, const char *rel) {
        char p[512];

        CHECK((size_t) snprintf(p, sizeof(p), "%s/%s", top, rel) < sizeof(p));
        CHECK(symlink(target, p) == 0);
}

/* Removes top and all below it. */
static inline void tree_remove(const char *top) {
        char cmd[600];

        CHECK((size_t) snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top) < sizeof(cmd));
        CHECK(system(cmd) == 0);
}
