/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli-policy.h"

int cli_load_policy(const char *name_or_path, Policy **ret) {
        PolicyError err = {};
        StrBuf b = {};
        int r;

        r = policy_load(name_or_path, ret, &err);
        if (r >= 0)
                return r;
        if (err.message)
                r = policy_error_format(&err, &b) < 0 ? -ENOMEM : r;
        else
                (void) strbuf_printf(&b, "%s: error: cannot load policy: %s\n", name_or_path, strerror(-r));
        if (b.data)
                fputs(b.data, stderr);
        strbuf_done(&b);
        policy_error_done(&err);
        return r;
}

int cli_site_policy(const char *root_dir, char **ret) {
        return policy_site_path(root_dir, ret);
}
