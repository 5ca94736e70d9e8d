/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The policy engine: a random policy applied to a random unit. The input
 * is POLICY NUL UNIT [NUL DROPIN]...; without a NUL byte it is a unit
 * judged by a shipped policy (picked by the input size). Properties: the
 * engine never fails on input it accepted; an accepted unit is written
 * back unmodified; every file written with the requested edits parses
 * again; the JSON views stay well-formed. */
#include <errno.h>

#include "unit/unit-group.h"
#include "fuzz.h"
#include "policy/policy-engine.h"
#include "policy/policy.h"

#define FILES_MAX 4

static const char *const unit_names[] = {
        "fuzz.service", "fuzz@x.service", "fuzz.socket", "fuzz.mount", "fuzz.timer", "fuzz.path",
};

/* Shipped policies are loaded once per process. */
static Policy *builtin(size_t i) {
        static Policy *cache[16];
        const BuiltinPolicy *list;
        PolicyError err = {};
        size_t n;

        list = builtin_policies(&n);
        i %= n < 16 ? n : 16;
        if (!cache[i])
                fuzz_assert(policy_load(list[i].name, &cache[i], &err) >= 0);
        return cache[i];
}

static void check_file(const UnitFile *f, const char *unit, bool dropin) {
        StrBuf out = {}, json = {};
        UnitFile *g = NULL;
        size_t len;

        fuzz_assert(unit_file_to_json(f, NULL, &json) >= 0);
        fuzz_assert(fuzz_json_ok(json.data, json.len));
        for (size_t i = 0; i < f->diags.n; i++) {
                strbuf_reset(&json);
                fuzz_assert(diag_to_json(&f->diags.items[i], &json) >= 0);
                fuzz_assert(fuzz_json_ok(json.data, json.len));
        }
        strbuf_done(&json);

        fuzz_assert(unit_file_write(f, &out) >= 0);
        if (!unit_file_modified(f)) {
                fuzz_assert(out.len == f->size);
                fuzz_assert(out.len == 0 || memcmp(out.data, f->data, out.len) == 0);
        }
        len = out.len;
        fuzz_assert(unit_file_parse(strbuf_steal(&out), len, "fuzz-output", unit, dropin, &g) >= 0);
        unit_file_free(g);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const char *unit = unit_names[size % (sizeof(unit_names) / sizeof(unit_names[0]))];
        const uint8_t *sep = memchr(data, '\0', size), *p, *end = data + size;
        Policy *own = NULL;
        const Policy *policy;
        PolicyError err = {};
        UnitGroup *g = NULL;
        PolicyEngine engine;
        size_t n_files = 0;
        int r;

        if (sep) {
                char *text = fuzz_copy(data, (size_t) (sep - data), 0);

                r = policy_load_buffer(text, (size_t) (sep - data), "/nonexistent-fuzz/fuzz.yaml",
                                       &own, &err);
                free(text);
                policy_error_done(&err);
                if (r < 0)
                        return 0;
                policy = own;
                p = sep + 1;
        } else {
                policy = builtin(size / 7);
                p = data;
        }

        fuzz_assert(unit_group_new(unit, &g) >= 0);
        /* The fragment, then drop-ins, each ending at a NUL byte. */
        while (n_files < FILES_MAX && (p < end || n_files == 0)) {
                const uint8_t *nul = memchr(p, '\0', (size_t) (end - p));
                size_t len = nul && n_files + 1 < FILES_MAX ? (size_t) (nul - p) : (size_t) (end - p);
                char path[64];
                UnitFile *f = NULL;

                snprintf(path, sizeof(path), n_files == 0 ? "/etc/systemd/system/%s"
                                                          : "/etc/systemd/system/%s.d/%zu.conf",
                         unit, n_files);
                fuzz_assert(unit_file_parse(fuzz_copy(p, len, 1), len, path, unit, n_files > 0,
                                            &f) >= 0);
                fuzz_assert(unit_group_add(g, f, strdup("")) >= 0);
                n_files++;
                p += len + 1;
        }
        g->has_fragment = true;

        engine = (PolicyEngine) { .policy = policy, .version = policy->target };
        r = policy_engine_judge(&engine, g);
        fuzz_assert(r >= 0);
        fuzz_assert(g->verdict == GROUP_ACCEPTED || g->verdict == GROUP_CHANGED ||
                    g->verdict == GROUP_REJECTED);

        for (size_t i = 0; i < g->n_files; i++) {
                fuzz_assert(g->verdict != GROUP_ACCEPTED || !unit_file_modified(g->files[i].file));
                check_file(g->files[i].file, unit, i > 0);
        }
        for (size_t i = 0; i < g->diags.n; i++) {
                StrBuf t = {};

                fuzz_assert(diag_format_text(&g->diags.items[i], &t) >= 0);
                strbuf_done(&t);
        }

        unit_group_free(g);
        policy_free(own);
        return 0;
}
