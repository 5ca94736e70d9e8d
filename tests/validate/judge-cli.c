/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Reads "version<TAB>unit<TAB>section<TAB>key<TAB>value" lines and prints
 * "verdict<TAB>flags<TAB>message" for each, for oracle comparisons. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/macro.h"
#include "validate/judge.h"

int main(void) {
        char line[8192];

        while (fgets(line, sizeof(line), stdin)) {
                char *f[5] = {}, *p = line;
                _cleanup_(judgement_done) Judgement j = {};
                JudgeContext ctx = { .type = _UNIT_TYPE_INVALID };

                line[strcspn(line, "\n")] = '\0';
                for (int i = 0; i < 5; i++) {
                        f[i] = p;
                        p = i < 4 ? strchr(p, '\t') : NULL;
                        if (i < 4) {
                                if (!p)
                                        return 2;
                                *p++ = '\0';
                        }
                }
                ctx.version = (unsigned) strtoul(f[0], NULL, 10);
                ctx.unit_name = f[1];
                if (judge_assignment(&ctx, f[2], f[3], f[4], &j) < 0)
                        return 1;
                printf("%s\t%s%s%s%s\t%s\n", verdict_to_string(j.verdict), j.invalid ? "i" : "",
                       j.dash_escaped ? "d" : "", j.deferred ? "D" : "", j.names_root ? "r" : "",
                       j.message ? j.message : "");
                fflush(stdout);
        }
        return 0;
}
