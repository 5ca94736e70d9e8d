/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "alloc-util.h"

int greedy_realloc_slow(void **array, size_t *allocated, size_t need, size_t elsize) {
        size_t n;
        void *q;

        if (*array && need <= *allocated)
                return 0;

        n = *allocated ? *allocated : 8;
        while (n < need) {
                if (n > SIZE_MAX / 2)
                        return -ENOMEM;
                n *= 2;
        }

        q = reallocarray_safe(*array, n, elsize);
        if (!q)
                return -ENOMEM;

        *array = q;
        *allocated = n;
        return 0;
}

char *strjoin_internal(const char *first, ...) {
        size_t len = 0;
        va_list ap;
        char *s, *p;

        va_start(ap, first);
        for (const char *x = first; x; x = va_arg(ap, const char *)) {
                size_t n = strlen(x);

                if (n > SIZE_MAX - 1 - len) {
                        va_end(ap);
                        return NULL;
                }
                len += n;
        }
        va_end(ap);

        s = p = malloc(len + 1);
        if (!s)
                return NULL;
        va_start(ap, first);
        for (const char *x = first; x; x = va_arg(ap, const char *)) {
                size_t n = strlen(x);

                memcpy(p, x, n);
                p += n;
        }
        va_end(ap);
        *p = '\0';
        return s;
}
