/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Where a system keeps its site policy. Shared by `unitguard check` and
 * unitguard-generator(8). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "basic/macro.h"
#include "policy.h"

int policy_site_path(const char *root_dir, char **ret) {
        static const char *const paths[] = {
                "/etc/unitguard/policy.yaml",
                "/run/unitguard/policy.yaml",
                "/usr/lib/unitguard/policy.yaml",
        };

        for (size_t i = 0; i < ELEMENTSOF(paths); i++) {
                char *p = NULL;

                if (asprintf(&p, "%s%s", root_dir && !streq(root_dir, "/") ? root_dir : "", paths[i]) < 0)
                        return -ENOMEM;
                if (access(p, F_OK) == 0) {
                        *ret = p;
                        return 0;
                }
                free(p);
        }
        *ret = NULL;
        return 0;
}
