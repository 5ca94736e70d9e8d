/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "basic/fileio.h"
#include "gen-log.h"

#define LOG_FACILITY_DAEMON (3 << 3)

void gen_log_open(GenLog *l, GenLogTarget target, bool by_systemd) {
        *l = (GenLog) { .fd = STDERR_FILENO };
        if (target == GEN_LOG_STDERR || (target == GEN_LOG_AUTO && !by_systemd))
                return;
        l->fd = open("/dev/kmsg", O_WRONLY | O_NOCTTY | O_CLOEXEC);
        if (l->fd >= 0) {
                l->kmsg = true;
                return;
        }
        /* No kernel log (a container, an unprivileged test run): stderr,
         * which systemd connects to its own log. */
        l->fd = STDERR_FILENO;
}

void gen_log_close(GenLog *l) {
        if (l->kmsg && l->fd >= 0)
                close(l->fd);
        l->fd = -1;
        l->kmsg = false;
}

_printf_(3, 0) static void log_line(GenLog *l, GenLogLevel level, const char *fmt, va_list ap) {
        char line[GEN_LOG_LINE_MAX + 64];
        int prefix, n;
        size_t len;

        if (l->fd < 0)
                return;
        if (l->kmsg)
                prefix = snprintf(line, sizeof(line), "<%d>unitguard-generator[%d]: ", LOG_FACILITY_DAEMON | (int) level,
                                  (int) getpid());
        else
                prefix = snprintf(line, sizeof(line), "unitguard-generator: ");
        if (prefix < 0)
                return;
        n = vsnprintf(line + prefix, GEN_LOG_LINE_MAX - (size_t) prefix, fmt, ap);
        if (n < 0)
                return;
        len = strnlen(line, GEN_LOG_LINE_MAX);
        /* One record per line: control characters (a newline in a file
         * name) would split it or confuse the reader. */
        for (size_t i = (size_t) prefix; i < len; i++)
                if ((unsigned char) line[i] < 0x20 || line[i] == 0x7f)
                        line[i] = '?';
        if ((size_t) n >= GEN_LOG_LINE_MAX - (size_t) prefix) {
                memcpy(line + len - 3, "...", 3);
        }
        line[len++] = '\n';
        /* A log that cannot be written must not stop the generator. */
        (void) loop_write(l->fd, line, len);
}

void gen_log_unit(GenLog *l, GenLogLevel level, const char *fmt, ...) {
        va_list ap;

        if (l->unit_lines >= GEN_LOG_UNIT_LINES) {
                l->suppressed++;
                return;
        }
        l->unit_lines++;
        va_start(ap, fmt);
        log_line(l, level, fmt, ap);
        va_end(ap);
}

void gen_log(GenLog *l, GenLogLevel level, const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        log_line(l, level, fmt, ap);
        va_end(ap);
}

void gen_log_finish(GenLog *l) {
        if (l->suppressed > 0)
                gen_log(l, GEN_LOG_NOTICE, "%u more masked or changed units not logged (at most %d lines per run)",
                        l->suppressed, GEN_LOG_UNIT_LINES);
}
