/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "policy.h"
#include "validate/judge.h"

/* Checks a User=/Group=/SupplementaryGroups=/SocketUser=/SocketGroup=
 * value against the policy's user-name rule. Returns 1 if every name is
 * acceptable, 0 if not (then *ret_bad is the first offending name and
 * *ret_setting names the rule applied, "user-names.strict"), or a negative
 * errno. Nothing is allocated for an acceptable value. */
int policy_check_user_value(const Policy *p, unsigned version, const JudgeContext *ctx,
                            const char *key, const char *value, char **ret_bad, char **ret_setting);

/* The names of a SupplementaryGroups= value that systemd at version
 * accepts, space-separated (systemd up to 233 skipped the bad ones). */
int systemd_valid_group_names(unsigned version, const char *value, char **ret);
