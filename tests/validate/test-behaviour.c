/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The version table: every behaviour named once, with a sane range, and
 * the man page lists each one; plus the edges of a few ranges. */
#include <stdbool.h>
#include <stdio.h>

#include "tests.h"
#include "validate/behaviour.h"

static const char *man_path;

TEST(records) {
        for (int b = 0; b < _SD_BEHAVIOUR_MAX; b++) {
                const SystemdBehaviourInfo *i = sd_behaviour_info(b);

                CHECK(i && i->name && i->what);
                if (!i || !i->name)
                        continue;
                CHECK(i->since >= 200 && i->since < 1000);
                CHECK(i->until == 0 || i->until >= i->since);
                for (int k = 0; k < b; k++)
                        CHECK(strcmp(sd_behaviour_info(k)->name, i->name) != 0);
        }
        CHECK(sd_behaviour_info(_SD_BEHAVIOUR_MAX) == NULL);
        CHECK(!sd_behaves(_SD_BEHAVIOUR_MAX, 252));
}

TEST(edges) {
        CHECK(!sd_behaves(SD_FATAL_SECURITY_DIRECTIVES, 233));
        CHECK(sd_behaves(SD_FATAL_SECURITY_DIRECTIVES, 234));
        CHECK(!sd_behaves(SD_EXEC_PREFIX_COLON, 241));
        CHECK(sd_behaves(SD_EXEC_PREFIX_COLON, 242));
        CHECK(sd_behaves(SD_EXEC_PREFIX_AMBIENT, 257));
        CHECK(!sd_behaves(SD_EXEC_PREFIX_AMBIENT, 258));
        CHECK(!sd_behaves(SD_USER_NAMES_DOTS, 242));
        CHECK(sd_behaves(SD_USER_NAMES_DOTS, 245));
        CHECK(!sd_behaves(SD_USER_NAMES_DOTS, 246));
        CHECK(sd_behaves(SD_USER_NAMES_RELAXED, 246));
        CHECK(!sd_behaves(SD_DROPINS_TYPE_WIDE, 245));
        CHECK(sd_behaves(SD_DROPINS_TYPE_WIDE, 257));
}

/* unitguard(1) names every behaviour, with its versions. */
TEST(documented) {
        char buf[1 << 17];
        size_t n;
        FILE *f = fopen(man_path, "re");

        CHECK(f);
        if (!f)
                return;
        n = fread(buf, 1, sizeof(buf) - 1, f);
        fclose(f);
        buf[n] = '\0';
        for (int b = 0; b < _SD_BEHAVIOUR_MAX; b++) {
                const SystemdBehaviourInfo *i = sd_behaviour_info(b);
                char line[256];

                if (i->until)
                        snprintf(line, sizeof(line), ".B %s\n%u\\(en%u", i->name, i->since, i->until);
                else
                        snprintf(line, sizeof(line), ".B %s\nsince %u", i->name, i->since);
                if (!strstr(buf, line)) {
                        fprintf(stderr, "man page lacks: %s\n", line);
                        CHECK(false);
                }
        }
}

int main(int argc, char **argv) {
        static const TestCase cases[] = { T(records), T(edges), T(documented) };

        if (argc < 2) {
                fprintf(stderr, "usage: test-behaviour MAN_PAGE\n");
                return 2;
        }
        man_path = argv[1];
        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
                cases[i].func();
        return tests_failed ? 1 : 0;
}
