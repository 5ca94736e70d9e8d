/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

#include "unit/unit-group.h"

/* The judge of a run without a policy (--no-policy): it decides nothing and
 * changes nothing, but records what systemd would do with each unit (the
 * systemd model's prediction, validate/predict.h): a note on every line
 * systemd ignores, refuses or accepts with a notice, the findings of its
 * unit-level checks, and the unit's predicted load state and identity. */
typedef struct FilterPredictor {
        struct PredictCache *cache; /* a memo of systemd's answers, or NULL */
        unsigned version;
        bool user_scope;
} FilterPredictor;

/* The judgement of a run without a policy: a file systemd refuses rejects
 * the unit (for drop-ins too: unitguard never lets a half-read drop-in
 * pass). */
void filter_reject_failed_files(UnitGroup *g);

/* FilterJudge-compatible: userdata is a FilterPredictor. Rejects what
 * filter_reject_failed_files() rejects, nothing else. */
int filter_predict_judge(void *userdata, UnitGroup *g);
