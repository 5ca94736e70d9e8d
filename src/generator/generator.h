/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

#include "gen-log.h"

/* unitguard-generator(8): judges the units systemd is about to load with
 * the site policy and writes what it decided into systemd's early
 * generator directory, which outranks /etc: a mask for each rejected unit
 * (or a drop-in with a failing condition), sanitized copies of the files
 * of each unit the policy changed. */

typedef struct GeneratorOptions {
        const char *root;          /* NULL: the host */
        const char *early_dir;     /* every file goes here */
        const char *policy;        /* NULL: the site policy, else the built-in default */
        bool in_initrd;            /* $SYSTEMD_IN_INITRD=1 */
} GeneratorOptions;

typedef struct GeneratorStats {
        unsigned units;            /* judged */
        unsigned masked;           /* rejected, masked */
        unsigned conditioned;      /* rejected, given a failing condition */
        unsigned sanitized;        /* changed, sanitized copies written */
        unsigned not_overridable;  /* rejected or changed, but a file of it outranks the early directory */
        unsigned write_errors;     /* outputs that could not be written */
        unsigned input_errors;     /* files that could not be read */
        unsigned tree_errors;      /* alias loops and the like */
        bool skipped;              /* nothing done (initrd) */
        bool policy_fallback;      /* the site policy was broken: the built-in default applied */
} GeneratorStats;

/* Returns 0 (whatever the verdicts, and also when outputs could not be
 * written: see stats), or -ENOMEM. */
int generator_run(const GeneratorOptions *o, GenLog *log, GeneratorStats *ret);
