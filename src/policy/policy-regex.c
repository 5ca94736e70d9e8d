/* SPDX-License-Identifier: LGPL-2.1-or-later */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <errno.h>
#include <pcre2.h>
#include <stdio.h>
#include <string.h>

#include "policy-regex.h"

#define STRINGIFY_(x) #x
#define STRINGIFY(x) STRINGIFY_(x)

int regex_compile(const char *pattern, void **ret, char **ret_error) {
        pcre2_code *re;
        PCRE2_SIZE offset;
        int errcode;

        re = pcre2_compile((PCRE2_SPTR) pattern, PCRE2_ZERO_TERMINATED, 0, &errcode, &offset, NULL);
        if (!re) {
                PCRE2_UCHAR msg[256];

                if (errcode == PCRE2_ERROR_HEAP_FAILED)
                        return -ENOMEM;
                pcre2_get_error_message(errcode, msg, sizeof(msg));
                if (asprintf(ret_error, "at offset %zu: %s", (size_t) offset, (const char *) msg) < 0)
                        *ret_error = NULL;
                return -EINVAL;
        }
#if HAVE_PCRE2_JIT
        /* If this fails (no executable memory), the interpreter matches. */
        (void) pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
#endif
        *ret = re;
        return 0;
}

void regex_free(void *re) {
        pcre2_code_free(re);
}

int regex_matcher_init(RegexMatcher *m) {
        if (!m->context) {
                m->context = pcre2_match_context_create(NULL);
                if (!m->context)
                        return -ENOMEM;
                /* A JIT build honours the match limit too (counted its own
                 * way); instead of the depth limit it has its stack, 32 KiB
                 * by default, which nothing here enlarges. */
                pcre2_set_match_limit(m->context, REGEX_MATCH_LIMIT);
                pcre2_set_depth_limit(m->context, REGEX_DEPTH_LIMIT);
        }
        if (!m->data) {
                m->data = pcre2_match_data_create(1, NULL);
                if (!m->data)
                        return -ENOMEM;
        }
        return 0;
}

void regex_matcher_done(RegexMatcher *m) {
        pcre2_match_context_free(m->context);
        pcre2_match_data_free(m->data);
        *m = (RegexMatcher) {};
}

static const char *limit_name(int rc) {
        switch (rc) {
        case PCRE2_ERROR_MATCHLIMIT:
                return "match limit (" STRINGIFY(REGEX_MATCH_LIMIT) " steps)";
        case PCRE2_ERROR_DEPTHLIMIT:
                return "depth limit (" STRINGIFY(REGEX_DEPTH_LIMIT) " levels of backtracking)";
        case PCRE2_ERROR_HEAPLIMIT:
                return "heap limit";
        case PCRE2_ERROR_JIT_STACKLIMIT:
                return "JIT stack limit (" STRINGIFY(REGEX_JIT_STACK_KIB) " KiB)";
        default:
                return NULL;
        }
}

int regex_match(const RegexMatcher *m, const void *re, const char *subject, size_t *ret_start, size_t *ret_end,
                const char **ret_limit) {
        const char *limit;
        PCRE2_SIZE *ov;
        int rc;

        rc = pcre2_match(re, (PCRE2_SPTR) subject, strlen(subject), 0, 0, m->data, m->context);
        if (rc == PCRE2_ERROR_NOMATCH)
                return 0;
        if (rc == PCRE2_ERROR_NOMEMORY)
                return -ENOMEM;
        limit = limit_name(rc);
        if (limit) {
                if (ret_limit)
                        *ret_limit = limit;
                return -E2BIG;
        }
        if (rc < 0) {
                /* Nothing else can fail on a valid pattern and a
                 * NUL-terminated subject (policies and units are UTF-8
                 * checked, but patterns do not ask for UTF mode): still,
                 * undecided is not "no match". */
                if (ret_limit)
                        *ret_limit = "matching error";
                return -E2BIG;
        }
        /* rc == 0: the ovector had room for the whole match only, as asked. */
        ov = pcre2_get_ovector_pointer(m->data);
        if (ret_start)
                *ret_start = ov[0];
        if (ret_end)
                *ret_end = ov[1];
        return 1;
}
