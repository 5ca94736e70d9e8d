/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Policy waivers across a run: the engine remembers which waivers some
 * unit used, and reports the others after the run. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/macro.h"
#include "unit/unit-group.h"
#include "policy/policy-engine.h"
#include "policy/policy.h"
#include "tests.h"

static const char policy_text[] =
        "version: 1\n"
        "name: site\n"
        "forbid:\n"
        "  - id: root-service\n"
        "    when: {unit-type: service}\n"
        "    runs-as-root: true\n"
        "waivers:\n"
        "  - rule: forbid.root-service\n"
        "    unit: \"legacy-*.service\"\n"
        "    reason: vendor daemon\n"
        "  - rule: root-service\n"
        "    unit: \"gone.service\"\n"
        "    reason: the unit was removed\n";

static UnitGroup *group(const char *name, const char *text) {
        UnitGroup *g = NULL;
        UnitFile *f = NULL;
        char *data = strdup(text);

        CHECK(data);
        CHECK_INT_EQ(unit_group_new(name, &g), 0);
        CHECK_INT_EQ(unit_file_parse(data, strlen(text), name, name, false, &f), 0);
        CHECK_INT_EQ(unit_group_add(g, f, NULL), 0);
        g->has_fragment = true;
        return g;
}

TEST(unused_waiver_reported_after_the_run) {
        PolicyError err = {};
        Policy *p = NULL;
        DiagList out = {};

        CHECK_INT_EQ(policy_load_buffer(policy_text, strlen(policy_text), "site.yaml", &p, &err), 0);
        if (!p)
                return;
        PolicyEngine e = { .policy = p, .version = 252 };

        /* Before any unit: both waivers unused. */
        CHECK_INT_EQ(policy_engine_unused_waivers(&e, &out), 0);
        CHECK_INT_EQ(out.n, 2);
        diag_list_done(&out);

        UnitGroup *g = group("legacy-x.service", "[Service]\nExecStart=/usr/bin/x\n");
        CHECK_INT_EQ(policy_engine_judge(&e, g), 0);
        CHECK_INT_EQ(g->verdict, GROUP_ACCEPTED);
        CHECK_INT_EQ(diag_list_count(&g->diags, DIAG_NOTE), 1);
        CHECK_INT_EQ(diag_list_count(&g->diags, DIAG_ERROR), 0);
        unit_group_free(g);

        /* A unit the waivers do not name is rejected and uses none. */
        g = group("other.service", "[Service]\nExecStart=/usr/bin/y\n");
        CHECK_INT_EQ(policy_engine_judge(&e, g), 0);
        CHECK_INT_EQ(g->verdict, GROUP_REJECTED);
        unit_group_free(g);

        CHECK_INT_EQ(policy_engine_unused_waivers(&e, &out), 0);
        CHECK_INT_EQ(out.n, 1);
        if (out.n == 1) {
                CHECK_INT_EQ(out.items[0].severity, DIAG_WARNING);
                CHECK_STR_EQ(out.items[0].rule, "site:waiver");
                CHECK_STR_EQ(out.items[0].file, "site.yaml");
                CHECK_INT_EQ(out.items[0].line, 11);
        }
        diag_list_done(&out);

        /* A second engine on the same policy starts afresh. */
        PolicyEngine e2 = { .policy = p, .version = 252 };
        CHECK_INT_EQ(policy_engine_unused_waivers(&e2, &out), 0);
        CHECK_INT_EQ(out.n, 2);
        diag_list_done(&out);
        policy_free(p);
        policy_error_done(&err);
}

TESTS_MAIN(T(unused_waiver_reported_after_the_run))
