/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

/* NULL-terminated name lists; see value-tables.c for where they come from. */
extern const char *const value_syscall_names[];   /* sorted */
extern const size_t value_syscall_names_size;
extern const char *const value_syscall_groups[];  /* "@aio", ... */
extern const char *const value_exit_status_names[];
