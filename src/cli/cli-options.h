/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* Option handling shared by the verbs. */

/* Parses a systemd version for --target-version; prints the error. */
int cli_parse_version(const char *verb, const char *arg, unsigned *ret);
/* Reports an unknown option or a missing argument; returns EXIT_USAGE. */
int cli_bad_option(const char *verb, int argc, char **argv, int opt);
/* Refuses (with a message) a version outside what the tables model. */
int cli_check_version(const char *verb, unsigned v, const char *what);
