/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Shared by the files that turn a policy's YAML tree into a Policy. */

#include "basic/strbuf.h"
#include "policy-condition.h"
#include "policy.h"
#include "yaml-tree.h"

#define EXTENDS_DEPTH_MAX 8

typedef struct LoadContext {
        char *chain[EXTENDS_DEPTH_MAX + 1];         /* canonical sources being loaded, for cycles */
        size_t depth;
        PolicyError *err;
        const char *source;                        /* the file being applied */
} LoadContext;

/* Each fills c->err with "at"'s position and returns -EINVAL on a policy
 * error, or returns -ENOMEM. */
int load_fail(LoadContext *c, const YNode *at, const char *fmt, ...) _printf_(3, 4);
int load_expect_kind(LoadContext *c, const YNode *n, YNodeKind kind, const char *what);
int load_get_bool(LoadContext *c, const YNode *n, const char *what, bool *ret);
int load_get_string(LoadContext *c, const YNode *n, const char *what, char **ret);
int load_get_choice(LoadContext *c, const YNode *n, const char *what, const char *const *choices, int *ret);
int load_check_keys(LoadContext *c, const YNode *map, const char *what, const char *const *allowed);
int load_compile_regex(LoadContext *c, const YNode *n, const char *pattern, void **ret);
/* A scalar counts as a list of one. */
int load_get_string_list(LoadContext *c, const YNode *n, const char *what, char ***ret, size_t *ret_n);
int load_check_section_key(LoadContext *c, const YNode *at, const char *sk);

/* Builds a condition from the keys of mapping map, except those in skip
 * (NULL-terminated, may be NULL). *ret is NULL when no key is left.
 * *ret_text, if given, is the keys as YAML (for `policy show`): one
 * "INDENT key: value" line each, or, with indent NULL, a flow mapping. */
int load_condition(LoadContext *c, const YNode *map, const char *what, const char *const *skip,
                   const char *indent, Condition **ret, char **ret_text);

/* A node as flow YAML, every scalar quoted. */
int load_render_flow(StrBuf *out, const YNode *n);
/* hardware: MAPPING (policy-load-hardware.c). */
int load_hardware_condition(LoadContext *c, const YNode *v, Condition **ret);
/* device-units: [GLOB...] at the top of a policy. */
int load_apply_device_units(LoadContext *c, Policy *p, const YNode *v);

int load_apply_require(LoadContext *c, Policy *p, const YNode *v);
int load_apply_forbid(LoadContext *c, Policy *p, const YNode *v);
int load_apply_waivers(LoadContext *c, Policy *p, const YNode *v);
