/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Each verb gets argv starting at its own name ("filter", "hwdb", ...) and
 * returns one of the exit codes of exit-codes.h. */
int verb_filter(int argc, char **argv);
int verb_policy(int argc, char **argv);
int verb_hwdb(int argc, char **argv);
int verb_units(int argc, char **argv);
int verb_unit_check(int argc, char **argv);
