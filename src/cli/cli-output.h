/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* For text a command prints on standard output with stdio (help,
 * version): flushes it, and returns EXIT_CLEAN, or EXIT_INPUT after one
 * message on standard error when it could not be written. A reader that
 * went away (a closed pipe) is not an error, as for every command. */
int cli_finish_stdout(const char *prog);
