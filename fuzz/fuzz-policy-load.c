/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The policy loader (YAML) on arbitrary bytes. Properties: a refused
 * policy gets one error record naming a line; an accepted one shows as
 * YAML that loads again into a policy that shows the same (show is a fixed
 * point after one round). */
#include <errno.h>

#include "fuzz.h"
#include "policy/policy.h"

/* Relative `extends:` paths resolve below a directory that does not exist. */
#define SOURCE "/nonexistent-fuzz/fuzz.yaml"

static void check_error(int r, const PolicyError *err) {
        StrBuf t = {};

        fuzz_assert(r == -EINVAL);
        fuzz_assert(err->message);
        fuzz_assert(policy_error_format(err, &t) >= 0);
        fuzz_assert(t.len > 0 && t.data[t.len - 1] == '\n');
        strbuf_done(&t);
}

static const char *body(const char *shown) {
        const char *nl = strchr(shown, '\n');

        return shown[0] == '#' && nl ? nl + 1 : shown;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        StrBuf shown = {}, again = {};
        Policy *p = NULL, *q = NULL;
        PolicyError err = {};
        char *text;
        int r;

        text = fuzz_copy(data, size, 0);
        r = policy_load_buffer(text, size, SOURCE, &p, &err);
        free(text);
        if (r < 0) {
                check_error(r, &err);
                policy_error_done(&err);
                return 0;
        }

        fuzz_assert(p->name);
        (void) policy_action_for(p, "User");
        (void) policy_action_for(p, "ExecStart");
        (void) policy_action_for(p, "NoSuchDirective");

        fuzz_assert(policy_show(p, &shown) >= 0);
        r = policy_load_buffer(shown.data, shown.len, SOURCE, &q, &err);
        if (r < 0) {
                StrBuf t = {};

                (void) policy_error_format(&err, &t);
                fprintf(stderr, "shown policy does not load: %s\n---\n%s---\n", t.data ?: "", shown.data);
                fuzz_assert(!"policy show output loads again");
        }
        fuzz_assert(policy_show(q, &again) >= 0);
        /* The header comment names what the first policy extended; the
         * shown one extends nothing. The rest must be identical. */
        if (!streq(body(again.data), body(shown.data))) {
                fprintf(stderr, "first:\n%s---\nsecond:\n%s---\n", shown.data, again.data);
                fuzz_assert(!"policy show is stable");
        }

        strbuf_done(&shown);
        strbuf_done(&again);
        policy_free(q);
        policy_free(p);
        return 0;
}
