/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

#include "basic/macro.h"

/* The generator's log: one line per masked or changed unit, one summary
 * line. Under systemd it goes to the kernel log (/dev/kmsg), where early
 * boot messages end up in the journal; otherwise to standard error. The
 * per-unit lines are bounded: past GEN_LOG_UNIT_LINES only a count is
 * kept, and gen_log_finish() says how many were left out. */

#define GEN_LOG_UNIT_LINES 50
/* One line, as written: longer messages are cut (kmsg takes ~1 KiB). */
#define GEN_LOG_LINE_MAX 960

typedef enum GenLogTarget {
        GEN_LOG_AUTO,          /* kmsg when run by systemd and /dev/kmsg opens, else stderr */
        GEN_LOG_KMSG,
        GEN_LOG_STDERR,
} GenLogTarget;

typedef enum GenLogLevel {
        GEN_LOG_ERR = 3,       /* syslog levels */
        GEN_LOG_WARNING = 4,
        GEN_LOG_NOTICE = 5,
        GEN_LOG_INFO = 6,
} GenLogLevel;

typedef struct GenLog {
        int fd;                /* kmsg or stderr; never closed when it is stderr */
        bool kmsg;
        unsigned unit_lines;   /* per-unit lines written */
        unsigned suppressed;   /* per-unit lines left out */
} GenLog;

/* by_systemd: $SYSTEMD_SCOPE is set (systemd runs generators with it). */
void gen_log_open(GenLog *l, GenLogTarget target, bool by_systemd);
void gen_log_close(GenLog *l);
/* A line about one unit: counts against the bound. */
void gen_log_unit(GenLog *l, GenLogLevel level, const char *fmt, ...) _printf_(3, 4);
/* A line that is always written (errors, the summary). */
void gen_log(GenLog *l, GenLogLevel level, const char *fmt, ...) _printf_(3, 4);
/* Writes the "N more" line, if lines were left out. */
void gen_log_finish(GenLog *l);
