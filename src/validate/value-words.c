/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <string.h>

#include "basic/macro.h"
#include "exec-line.h"
#include "value-check.h"

int value_each_word(const char *v, const char *seps, ValueWordsFlags flags, ValueWordCheck check,
                    const char *args, unsigned version) {
        _cleanup_(word_room_done) WordRoom w; /* one room for every word of v */
        bool any_good = false, any_bad = false;
        const char *p = v, *end = v + strlen(v);
        int r;

        r = word_room_init(&w, (size_t) (end - v));
        if (r < 0)
                return r;
        for (;;) {
                bool unknown_escape = false;
                size_t n;

                if (flags & VALUE_WORDS_UNQUOTE) {
                        r = exec_extract_word_to(&p, end, w.data, &n, &unknown_escape);
                        if (r < 0)
                                return any_good ? VALUE_BAD_PART : VALUE_BAD;
                        if (r == 0)
                                break;
                } else {
                        p += strspn(p, seps);
                        if (!*p)
                                break;
                        n = strcspn(p, seps);
                        memcpy(w.data, p, n);
                        w.data[n] = '\0';
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
