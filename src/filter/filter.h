/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

#include "basic/strbuf.h"
#include "unit/unit-group.h"

/* The filter pipeline: inputs (streams, files, directories) are read one
 * unit at a time, judged, and written out in the framing they came in. */

typedef enum OutputFormat {
        OUTPUT_UNIT,           /* unit text, in the input's framing */
        OUTPUT_JSON,           /* one JSON object per file (JSON Lines) */
        OUTPUT_NONE,           /* judge only (check): findings, no units */
} OutputFormat;

/* Decides about one unit: sets g->verdict, adds edits and diagnostics.
 * Returns 0 or a negative errno. */
typedef int (*FilterJudge)(void *userdata, UnitGroup *g);
/* Sees each unit once it is judged and its findings are counted (the
 * generator acts on the verdicts). Returns 0 or a negative errno. */
typedef int (*FilterUnitHook)(void *userdata, const UnitGroup *g);

typedef struct Filter {
        OutputFormat format;
        const char *stdin_name;        /* --name: the unit read from stdin */
        FilterJudge judge;             /* NULL: only file-level failures reject */
        void *judge_userdata;
        FilterUnitHook on_unit;        /* NULL: none */
        void *on_unit_userdata;
        bool quiet;                    /* count findings, render none */

        int out_fd, err_fd;
        StrBuf out, err;               /* buffered output */
        bool out_closed;               /* the reader of stdout went away */
        bool write_failed;             /* a write to stdout or stderr failed */
        size_t out_complete;           /* bytes of `out` that end a whole unit (or diagnostic) */
        bool merged;                   /* stdout and stderr are one file: diagnostics go into
                                        * `out`, in order with the units (filter_emit()) */
        bool flush_per_unit;           /* written as each unit is judged: to a terminal, or
                                        * where the two outputs could not be told apart */
        bool wrote_any;                /* something was written to stdout */

        bool show_notes;               /* notes are rendered (filter: yes; check: -v) */
        bool verbose;                  /* -v: per-file notes (files that are not units) */
        bool collect;                  /* keep findings and unit records (check --format json|sarif) */
        DiagList findings;             /* with collect: every finding, in order */
        StrBuf units_json;             /* with collect: one JSON object per unit, comma-separated */

        struct FilterFix *fix;         /* check --fix (filter-fix.h), or NULL */

        char *cwd;                     /* the working directory, once asked for (framing) */
        struct FileBatch *batch;       /* reads the unit files of a tree, made when first needed */
        /* A tree or a root is judged unit after unit: the allocations of
         * one unit's group and file model are kept for the next. */
        UnitGroup *spare_group;
        UnitFile *spare_file;
        bool plain_reads;              /* read files one by one, never through io_uring */

        unsigned n_units, n_rejected, n_changed, n_input_errors;
        unsigned n_masked;             /* --root: masked units, not judged */
        unsigned n_not_units;          /* files in a tree that are not units or drop-ins */
        unsigned other_scope_units;    /* --root: units of the other manager (for a hint) */
        unsigned n_tree_errors;        /* --root: alias loops and the like */
        unsigned n_diags[3];           /* rendered findings by DiagSeverity */
} Filter;

void filter_init(Filter *f, int out_fd, int err_fd);
void filter_done(Filter *f);

/* Input handlers. They return 0 when the input was handled (whatever the
 * verdicts), or a negative errno for internal errors (ENOMEM) and failed
 * writes other than a closed pipe. Unreadable inputs are counted in
 * n_input_errors and reported as diagnostics. */
int filter_stream(Filter *f, int fd, const char *source);
/* framed: write "# PATH" headers (several inputs) or not (a single file). */
int filter_path(Filter *f, const char *path, bool framed);
/* The command line's inputs in order ("-": standard input). A drop-in
 * given next to its unit file (DIR/NAME and DIR/NAME.d/X.conf) is judged
 * with that unit, at the unit's place, not as a unit of its own. */
int filter_paths(Filter *f, char *const *paths, size_t n, bool framed);
/* The unit set of a root (lookup/lookup.h), unit by unit. shown_root names
 * the root in messages. */
struct Root;
struct LookupSet;
int filter_root(Filter *f, const struct Root *root, const struct LookupSet *set, const char *shown_root);
/* Every finding goes through here: notes are dropped unless shown, the
 * rest is counted and rendered as text or kept (collect). unit: the unit it
 * belongs to, or NULL. */
int filter_emit(Filter *f, const Diag *d, const char *unit);
/* Makes a finding about a whole file (no line) and emits it. */
int filter_report(Filter *f, DiagSeverity severity, const char *rule, const char *path, const char *unit,
                  const char *fmt, ...) _printf_(6, 7);
/* Flushes buffered output. */
int filter_flush(Filter *f);
/* After an internal error: drops the unit being written and any partial
 * diagnostic line, then flushes what is complete. */
void filter_abort(Filter *f);
