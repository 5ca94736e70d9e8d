/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Policy files: the hardware: condition and device-units:. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "policy-hardware.h"
#include "policy-internal.h"
#include "policy-load-internal.h"

int load_hardware_condition(LoadContext *c, const YNode *v, Condition **ret) {
        static const char *const keys[] = { "modalias", "subsystem", "driver", "node", "property",
                                            "value", "glob", "regex", "bound-device", NULL };
        _cleanup_(condition_freep) Condition *cond = NULL;
        _cleanup_(strbuf_done) StrBuf text = {};
        const YNode *f, *test = NULL;
        HwMatch *m;
        int r;

        r = load_expect_kind(c, v, YNODE_MAPPING, "hardware");
        if (r >= 0)
                r = load_check_keys(c, v, "hardware", keys);
        if (r < 0)
                return r;
        if (v->n_items == 0)
                return load_fail(c, v, "hardware: needs at least one of modalias, subsystem, driver, node, property, bound-device");
        cond = new0(Condition, 1);
        if (!cond)
                return -ENOMEM;
        cond->kind = COND_HARDWARE;
        m = cond->hw = new0(HwMatch, 1);
        if (!m)
                return -ENOMEM;
        if ((f = ynode_get(v, "modalias")))
                r = load_get_string_list(c, f, "modalias", &m->modalias, &m->n_modalias);
        if (r >= 0 && (f = ynode_get(v, "subsystem")))
                r = load_get_string_list(c, f, "subsystem", &m->subsystem, &m->n_subsystem);
        if (r >= 0 && (f = ynode_get(v, "driver")))
                r = load_get_string_list(c, f, "driver", &m->driver, &m->n_driver);
        if (r >= 0 && (f = ynode_get(v, "node")))
                r = load_get_string_list(c, f, "node", &m->node, &m->n_node);
        if (r >= 0 && (f = ynode_get(v, "bound-device")))
                r = load_get_bool(c, f, "bound-device", &m->bound);
        if (r < 0)
                return r;
        m->value_match = MATCH_SET;
        for (int i = 0; i < 3; i++) {
                static const char *const tests[] = { "value", "glob", "regex" };

                if (!(f = ynode_get(v, tests[i])))
                        continue;
                if (test)
                        return load_fail(c, f, "a hardware property test has at most one of value, glob, regex");
                test = f;
                if (!ynode_get(v, "property"))
                        return load_fail(c, f, "'%s' needs a 'property: NAME' beside it", tests[i]);
                m->value_match = i == 0 ? MATCH_VALUE : i == 1 ? MATCH_GLOB : MATCH_REGEX;
                if (i < 2)
                        r = load_get_string_list(c, f, tests[i], &m->values, &m->n_values);
                else {
                        r = load_expect_kind(c, f, YNODE_SCALAR, "regex");
                        if (r >= 0)
                                r = load_compile_regex(c, f, f->scalar, &m->re);
                        if (r >= 0 && !(m->pattern = strdup(f->scalar)))
                                r = -ENOMEM;
                }
                if (r < 0)
                        return r;
        }
        if ((f = ynode_get(v, "property"))) {
                r = load_get_string(c, f, "property", &m->property);
                if (r < 0)
                        return r;
                if (!m->property[0] || strchr(m->property, '='))
                        return load_fail(c, f, "property: takes a property name (ID_VENDOR_FROM_DATABASE), without '='");
        }
        if (!m->bound && !m->n_modalias && !m->n_subsystem && !m->n_driver && !m->n_node && !m->property)
                return load_fail(c, v, "hardware: needs at least one of modalias, subsystem, driver, node, property, or bound-device: true");
        r = load_render_flow(&text, v);
        if (r < 0)
                return r;
        m->text = strbuf_steal(&text);
        if (!m->text)
                return -ENOMEM;
        *ret = TAKE_PTR(cond);
        return 0;
}

int load_apply_device_units(LoadContext *c, Policy *p, const YNode *v) {
        char **l = NULL;
        size_t n = 0;
        int r;

        /* The list of a child policy adds to the inherited one. */
        r = load_get_string_list(c, v, "device-units", &l, &n);
        if (r < 0) {
                /* What was read before the failure is the caller's to free. */
                for (size_t i = 0; i < n; i++)
                        free(l[i]);
                free(l);
                return r;
        }
        /* A child policy's list adds to the one it extends. */
        for (size_t i = 0; i < n; i++) {
                char **nl = reallocarray_safe(p->device_units, p->n_device_units + 1, sizeof(char *));

                if (!nl) {
                        for (size_t k = i; k < n; k++)
                                free(l[k]);
                        free(l);
                        return -ENOMEM;
                }
                p->device_units = nl;
                p->device_units[p->n_device_units++] = l[i];
        }
        free(l);
        return 0;
}
