/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "basic/strbuf.h"
#include "filter/filter.h"

/* check's machine-readable reports, built from the records the filter kept
 * (Filter.collect): the same findings the text output renders. */

typedef struct CheckContext {
        const char *policy_name;       /* NULL with --no-policy */
        const char *policy_source;
        unsigned target_version;
        const char *root;              /* --root as given, or NULL */
        const char *base_dir;          /* the root, absolute, with a trailing slash */
        const char *work_dir;          /* the working directory, likewise */
        const char *scope;             /* "system" or "user" */
        const char *hardware_json;     /* the "hardware" member, or NULL when none was read */
        unsigned n_waived;             /* findings waived */
} CheckContext;

#define CHECK_JSON_VERSION 1

int check_report_json(const Filter *f, const CheckContext *c, StrBuf *out);
int check_report_sarif(const Filter *f, const CheckContext *c, StrBuf *out);
