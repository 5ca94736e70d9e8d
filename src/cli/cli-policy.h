/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "policy/policy.h"

/* Loads a policy for a command; on failure prints the error (FILE:LINE:COL)
 * to stderr and returns a negative errno. */
int cli_load_policy(const char *name_or_path, Policy **ret);
