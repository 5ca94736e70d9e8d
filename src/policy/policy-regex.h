/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

/* The regular expressions of a policy (user-names.regex, a rewrite's
 * matching): PCRE2, compiled once when the policy is loaded, and matched
 * with bounded effort, so that no pattern can backtrack for long on a
 * hostile value. A match the limits cut short is never taken for an
 * answer: the caller gets -E2BIG and the name of the limit. */

#define REGEX_MATCH_LIMIT 100000      /* steps of one match */
#define REGEX_DEPTH_LIMIT 1000        /* nested backtracking points (interpreter) */
#define REGEX_JIT_STACK_KIB 32        /* with -Dpcre2-jit=enabled: the JIT's bound in place of the depth limit */

/* What every match of a policy shares: the limits and the match data. */
typedef struct RegexMatcher {
        void *context;         /* pcre2_match_context * */
        void *data;            /* pcre2_match_data *, one ovector pair */
} RegexMatcher;

/* Compiles pattern (for PCRE2's interpreter; also JIT-compiled in a build
 * with -Dpcre2-jit=enabled, see meson.build for why that is not the
 * default).
 * On a bad pattern returns -EINVAL and "at offset N: what" in *ret_error
 * (malloc'd; NULL when out of memory). */
int regex_compile(const char *pattern, void **ret, char **ret_error);
void regex_free(void *re);

int regex_matcher_init(RegexMatcher *m);
void regex_matcher_done(RegexMatcher *m);

/* 1 when re matches somewhere in subject (*ret_start, *ret_end: the first
 * match, either may be NULL), 0 when not, -ENOMEM, or -E2BIG when a limit
 * stopped the match before it was decided; *ret_limit then names it, e.g.
 * "match limit (100000 steps)". */
int regex_match(const RegexMatcher *m, const void *re, const char *subject, size_t *ret_start, size_t *ret_end,
                const char **ret_limit);
