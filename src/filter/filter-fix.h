/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* check --fix: the files of the run that the policy changed are rewritten
 * in place to their sanitized form, the same bytes `filter` would write.
 *
 * The judging is check's own: while the units are judged, every changed
 * file of an accepted unit is recorded with the bytes it was read with and
 * its sanitized form (fix_record_group()); nothing is written before the
 * last unit has been judged, because under --root one drop-in can belong
 * to several units (service.d/, foo-.service.d/, a template's drop-ins),
 * and it is rewritten only when every unit it belongs to is accepted and
 * asks for the same content. Then filter_fix_apply() writes the files one
 * by one, atomically (basic/atomic-file.h), keeping mode, owner and
 * extended attributes, and reports each as a finding: "fix.applied" (a
 * note, shown without -v) or "fix.failed"/"fix.conflict" (errors; exit
 * status 3) or "fix.skipped" (a warning: the file also belongs to a
 * rejected unit).
 *
 * Files of a rejected unit are never rewritten. A file that changed since
 * it was read, a read-only file (no write permission bit, even for root)
 * or directory, a symbolic link in the file's place, and any write error
 * (ENOSPC...) leave the file as it was. */

#include <stdbool.h>
#include <stddef.h>

#include "filter.h"

typedef struct FilterFix FilterFix;

/* root_dir: with --root, the root directory as given (GroupFile.fix_path
 * is then a path inside it); NULL for paths as given. */
int filter_fix_new(const char *root_dir, FilterFix **ret);
FilterFix *filter_fix_free(FilterFix *x);

/* Called for each judged unit, before its findings are emitted. */
int fix_record_group(Filter *f, const UnitGroup *g);
/* Called after a finding of g was collected (check --format json|sarif):
 * remembers what the sanitized form does about it, so the report can say
 * which fix was applied. */
int fix_note_finding(Filter *f, const UnitGroup *g, const Diag *d, size_t index);
/* Writes the recorded files and emits one finding per file. Returns 0 or
 * -ENOMEM (write failures are findings, counted in n_failed). */
int filter_fix_apply(Filter *f);

unsigned filter_fix_n_fixed(const FilterFix *x);
unsigned filter_fix_n_failed(const FilterFix *x);
/* The fix applied for collected finding number index ("removed",
 * "replaced by User=app", "added NoNewPrivileges=yes"...), or NULL when
 * none was written to disk. cursor: 0 before the first call; the calls
 * must come in increasing index order. */
const char *filter_fix_applied(const FilterFix *x, size_t index, size_t *cursor);
