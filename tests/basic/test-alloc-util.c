/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* strjoin(): concatenation of any number of strings, empty ones included. */
#include "basic/alloc-util.h"
#include "tests.h"

TEST(strjoin) {
        char *s;

        s = strjoin("foo");
        CHECK_STR_EQ(s, "foo");
        free(s);

        s = strjoin("app-", "", "", ".", "service");
        CHECK_STR_EQ(s, "app-.service");
        free(s);

        s = strjoin("getty", "@", "tty1", ".", "service");
        CHECK_STR_EQ(s, "getty@tty1.service");
        free(s);

        s = strjoin("", "");
        CHECK_STR_EQ(s, "");
        free(s);
}

TESTS_MAIN(T(strjoin))
