/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <string.h>

#include "basic/strbuf.h"
#include "exec-line.h"
#include "value-check.h"

int value_each_word(const char *v, const char *seps, ValueWordsFlags flags, ValueWordCheck check,
                    const char *args, unsigned version) {
        _cleanup_(strbuf_done) StrBuf w = {};
        bool any_good = false, any_bad = false;
        const char *p = v;
        int r;

        for (;;) {
                bool unknown_escape = false;

                /* One buffer for every word: no allocation per word. */
                strbuf_reset(&w);
                if (flags & VALUE_WORDS_UNQUOTE) {
                        r = exec_extract_word_buf(&p, &w, &unknown_escape);
                        if (r == -ENOMEM)
                                return r;
                        if (r < 0)
                                return any_good ? VALUE_BAD_PART : VALUE_BAD;
                        if (r == 0)
                                break;
                } else {
                        size_t n;

                        p += strspn(p, seps);
                        if (!*p)
                                break;
                        n = strcspn(p, seps);
                        if (strbuf_append(&w, p, n) < 0)
                                return -ENOMEM;
                        p += n;
                }
                if ((!unknown_escape || (flags & VALUE_WORDS_ESCAPES_OK)) && check(w.data, args, version))
                        any_good = true;
                else if (flags & VALUE_WORDS_WHOLE_LINE)
                        return VALUE_BAD;
                else
                        any_bad = true;
        }
        if (!any_bad)
                return VALUE_OK;
        return any_good ? VALUE_BAD_PART : VALUE_BAD;
}
