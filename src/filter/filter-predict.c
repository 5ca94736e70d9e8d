/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* --no-policy: systemd's view, recorded without decisions. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "basic/macro.h"
#include "filter-predict.h"
#include "validate/predict.h"

static int note_line(const FilterPredictor *fp, UnitFile *f, const UnitEntry *e, const Judgement *j) {
        const char *rule, *what;
        SystemdEffect eff;

        switch (j->verdict) {
        case VERDICT_FATAL:
                rule = "systemd:fatal";
                eff = EFFECT_UNIT_FATAL;
                what = f->is_dropin ? "stops reading this drop-in" : "refuses the unit";
                break;
        case VERDICT_IGNORED:
                if (!j->directive && startswith(e->key, "X-"))
                        return 0;
                rule = "systemd:ignored";
                eff = EFFECT_LINE_IGNORED;
                what = j->partial ? "ignores part of the line" : "ignores the line";
                break;
        case VERDICT_NOTICE:
                rule = "systemd:notice";
                eff = EFFECT_NONE;
                what = "accepts the line with a notice";
                break;
        default:
                return 0;
        }
        return diag_add(&f->diags, DIAG_NOTE, eff, rule, f->path, e->line_last, unit_entry_section(f, e), e->key,
                        "%s; systemd %u %s", j->message ? j->message : "invalid value", fp->version, what);
}

static int note_check(const FilterPredictor *fp, UnitGroup *g, const UnitFinding *uf) {
        const UnitCheck *c = uf->check;
        SystemdEffect eff = c->effect == UNIT_CHECK_WARNING ? EFFECT_NONE
                            : c->effect == UNIT_CHECK_REFUSED ? EFFECT_UNIT_FATAL
                                                              : EFFECT_FILE_FAILED;
        _cleanup_free_ char *rule = strjoin("systemd:", c->name);

        if (!rule)
                return -ENOMEM;
        return diag_add(&g->diags, DIAG_NOTE, eff, rule, uf->path, uf->line, NULL, NULL, "%s%s%s%s; systemd %u %s",
                        c->message, uf->detail[0] ? " (" : "", uf->detail, uf->detail[0] ? ")" : "", fp->version,
                        c->effect == UNIT_CHECK_WARNING ? "loads the unit with a warning"
                        : c->effect == UNIT_CHECK_REFUSED ? "refuses the unit"
                                                          : "does not load this unit");
}

int filter_predict_judge(void *userdata, UnitGroup *g) {
        const FilterPredictor *fp = userdata;
        _cleanup_(prediction_done) Prediction p;
        UnitPrediction *pr = &g->systemd;
        int r;

        /* Zeroed for the cleanup whatever happens first, with plain stores
         * (an initializer of this size is a rep stos, paid per unit). */
        zero_small(&p, sizeof p);
        filter_reject_failed_files(g);
        r = systemd_predict(g, fp->version, fp->user_scope, fp->cache, &p);
        if (r < 0)
                return r;
        for (size_t fi = 0; fi < g->n_files; fi++) {
                UnitFile *f = g->files[fi].file;

                for (size_t i = 0; f && i < f->n_entries; i++) {
                        const Judgement *j = prediction_line(&p, fi, i);

                        if (j && (r = note_line(fp, f, &f->entries[i], j)) < 0)
                                return r;
                }
        }
        for (size_t i = 0; p.checks_ran && i < p.checks->n; i++)
                if ((r = note_check(fp, g, &p.checks->findings[i])) < 0)
                        return r;

        free(pr->user);
        *pr = (UnitPrediction) {
                .known = true,
                .version = p.version,
                .load_state = p.load_state,
                .dynamic_user = p.identity.dynamic_user,
                .starts_processes = p.starts_processes,
                .runs_as_root = p.runs_as_root,
        };
        if (p.identity.user && !(pr->user = strdup(p.identity.user)))
                return -ENOMEM;
        return 0;
}
