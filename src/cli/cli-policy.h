/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "policy/policy.h"

/* Loads a policy for a command; on failure prints the error (FILE:LINE:COL)
 * to stderr and returns a negative errno. */
int cli_load_policy(const char *name_or_path, Policy **ret);
/* The site policy: the first of /etc, /run, /usr/lib /unitguard/policy.yaml
 * below root_dir (or the host), or NULL (the built-in default applies). */
int cli_site_policy(const char *root_dir, char **ret);
