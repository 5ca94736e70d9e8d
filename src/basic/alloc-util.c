/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>

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
