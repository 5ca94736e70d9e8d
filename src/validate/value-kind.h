/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "validate/directive-table.h"
#include "value-check.h"

/* The parser for a kind of value, or NULL where the judge has its own
 * code (users, exec lines, unit names, ...) or nothing is checked. */
ValueCheckFn value_checker(DirectiveKind kind);
