/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

#include "basic/strbuf.h"
#include "unit-group.h"

/* The filter pipeline: inputs (streams, files, directories) are read one
 * unit at a time, judged, and written out in the framing they came in. */

typedef enum OutputFormat {
        OUTPUT_UNIT,           /* unit text, in the input's framing */
        OUTPUT_JSON,           /* one JSON object per file (JSON Lines) */
} OutputFormat;

/* Decides about one unit: sets g->verdict, adds edits and diagnostics.
 * Returns 0 or a negative errno. */
typedef int (*FilterJudge)(void *userdata, UnitGroup *g);

typedef struct Filter {
        OutputFormat format;
        const char *stdin_name;        /* --name: the unit read from stdin */
        FilterJudge judge;             /* NULL: only file-level failures reject */
        void *judge_userdata;

        int out_fd, err_fd;
        StrBuf out, err;               /* buffered output */
        bool out_closed;               /* the reader of stdout went away */
        bool write_failed;             /* a write to stdout or stderr failed */
        size_t out_complete;           /* bytes of `out` that end a whole unit */
        bool flush_per_unit;           /* stdout and stderr are one file: keep each
                                        * unit's diagnostics right before it */
        bool wrote_any;                /* something was written to stdout */

        unsigned n_units, n_rejected, n_changed, n_input_errors;
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
/* Flushes buffered output. */
int filter_flush(Filter *f);
/* After an internal error: drops the unit being written and any partial
 * diagnostic line, then flushes what is complete. */
void filter_abort(Filter *f);
