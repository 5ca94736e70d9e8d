/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "basic/alloc-util.h"
#include "basic/macro.h"
#include "gen-hardware.h"

/* Lines about reading the hardware, per kind, before only a count. */
#define GEN_HARDWARE_LOG_MAX 10

static void log_diags(GenLog *log, const DiagList *l, GenLogLevel level) {
        for (size_t i = 0; i < l->n; i++) {
                _cleanup_(strbuf_done) StrBuf b = {};

                if (i == GEN_HARDWARE_LOG_MAX) {
                        gen_log(log, level, "%zu more like these", l->n - i);
                        break;
                }

                if (diag_format_text(&l->items[i], &b) < 0 || !b.data)
                        continue;
                if (b.len > 0 && b.data[b.len - 1] == '\n')
                        b.data[--b.len] = '\0';
                gen_log(log, level, "%s", b.data);
        }
}

int gen_hardware_prepare(GenHardware *hw, const Policy *policy, const char *root_dir, const Root *root,
                         PolicyEngine *engine, GenLog *log) {
        _cleanup_(diag_list_done) DiagList errors = {};
        _cleanup_free_ char *sysfs = NULL;
        const char *top = root_dir && !streq(root_dir, "/") ? root_dir : "";
        HwOptions o = { .root = root_dir };
        int r;

        *hw = (GenHardware) {};
        if (asprintf(&sysfs, "%s/sys", top) < 0)
                return -ENOMEM;
        o.sysfs_dir = sysfs;
        r = policy_hardware_load_lean(policy, &o, root, &hw->ctx, &errors);
        if (r == -ENOMEM)
                return r;
        /* Warnings of a partly unreadable tree, then what stopped it. */
        log_diags(log, &hw->ctx.diags, GEN_LOG_WARNING);
        log_diags(log, &errors, GEN_LOG_ERR);
        if (r <= 0)
                return 0;
        hw->hw.ctx = &hw->ctx;
        hw->hw.root = root;
        hw->hw.version = engine->version;
        engine->hw = &hw->hw;
        return 1;
}

void gen_hardware_done(GenHardware *hw) {
        policy_hardware_done(&hw->hw);
        hw_context_done(&hw->ctx);
        *hw = (GenHardware) {};
}
