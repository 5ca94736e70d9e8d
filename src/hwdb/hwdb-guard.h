/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* A guard against SIGBUS while reading a mapped hwdb.bin.
 *
 * hwdb.bin is mapped (hwdb_bin_open()). If the file is truncated in place
 * while it is mapped, the next read of a page past its new end raises
 * SIGBUS, which would kill the process. Under hwdb_guard_run() such a
 * signal ends the guarded function instead, and the call returns -ESTALE:
 * "the database changed while in use". Replacing the file by rename, as
 * systemd-hwdb and unitguard do, never does this; the old inode stays.
 *
 * Rules for the guarded function: it may be abandoned at any read of the
 * mapping, so it must not hold anything then that needs releasing (no
 * allocation kept only in a local variable, no lock) and must not call into
 * code that takes locks while it reads the mapping. hwdb_lookup() and
 * printing its answer into a caller's buffer qualify.
 *
 * Cost: installing the handler is one sigaction() per guard; each guarded
 * call saves registers (sigsetjmp without the signal mask), no system call. */

#include <signal.h>
#include <stdbool.h>

typedef struct HwdbGuard {
        struct sigaction old;
        bool installed;
} HwdbGuard;

/* Installs the SIGBUS handler; a SIGBUS outside guarded calls still ends
 * the process as before. */
int hwdb_guard_install(HwdbGuard *g);
/* Puts the previous handler back. Safe on a guard never installed. */
void hwdb_guard_uninstall(HwdbGuard *g);

/* Runs f(userdata) and returns what it returns, or -ESTALE when a SIGBUS
 * ended it. Needs an installed guard; not nested, one thread at a time. */
int hwdb_guard_run(int (*f)(void *userdata), void *userdata);
