/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stddef.h>

#include "hwdb-guard.h"

/* Where a SIGBUS jumps to. A signal handler is handed nothing of ours, so
 * this is the one piece of state in the library that lives outside the
 * objects callers pass around: thread-local, set only while a guarded call
 * runs, NULL otherwise. */
static _Thread_local sigjmp_buf *guard_jump;

static void on_sigbus(int sig, siginfo_t *si, void *ucontext) {
        sigjmp_buf *jump = guard_jump;

        if (!jump) {
                /* Not a guarded read: die of it as if nobody had caught it. */
                signal(SIGBUS, SIG_DFL);
                raise(SIGBUS);
                return;
        }
        guard_jump = NULL;
        siglongjmp(*jump, 1);
}

int hwdb_guard_install(HwdbGuard *g) {
        struct sigaction sa = {
                .sa_sigaction = on_sigbus,
                /* SA_NODEFER: SIGBUS is not blocked while the handler runs,
                 * so jumping out of it leaves the signal mask as it was. */
                .sa_flags = SA_SIGINFO | SA_NODEFER,
        };

        sigemptyset(&sa.sa_mask);
        if (sigaction(SIGBUS, &sa, &g->old) < 0)
                return -errno;
        g->installed = true;
        return 0;
}

void hwdb_guard_uninstall(HwdbGuard *g) {
        if (!g->installed)
                return;
        (void) sigaction(SIGBUS, &g->old, NULL);
        g->installed = false;
}

int hwdb_guard_run(int (*f)(void *userdata), void *userdata) {
        sigjmp_buf jump;
        int r;

        if (sigsetjmp(jump, 0) != 0)
                return -ESTALE;         /* guard_jump was cleared by the handler */
        guard_jump = &jump;
        r = f(userdata);
        guard_jump = NULL;
        return r;
}
