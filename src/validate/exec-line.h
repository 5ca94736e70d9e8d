/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "basic/strbuf.h"

/* Exec*= command lines as systemd's config_parse_exec() reads them
 * (reference §3): word splitting with quotes and C escapes, the prefix
 * characters of the first word, ';' between commands, and the validity
 * rules for the executable. */

typedef enum ExecFlags {
        EXEC_IGNORE_FAILURE = 1 << 0,   /* '-' */
        EXEC_SEPARATE_ARGV0 = 1 << 1,   /* '@' */
        EXEC_FULLY_PRIVILEGED = 1 << 2, /* '+' (v231) */
        EXEC_NO_SETUID = 1 << 3,        /* '!' (v235) */
        EXEC_AMBIENT_MAGIC = 1 << 4,    /* "!!" (v235-v257) */
        EXEC_NO_ENV_EXPAND = 1 << 5,    /* ':' (v242) */
        EXEC_VIA_SHELL = 1 << 6,        /* '|' (v258) */
} ExecFlags;

typedef struct ExecCommand {
        char *path;    /* executable, specifiers expanded ("/bin/sh" for '|') */
        char **argv;   /* NULL-terminated, specifiers expanded */
        size_t argc;
        ExecFlags flags;
} ExecCommand;

typedef enum ExecSeverity {
        EXEC_LINE_OK,
        /* systemd warns and ignores the line (or the rest of it, see
         * ExecLine.partial): an unbalanced quote in a command's first
         * word, or any error on a line with the '-' prefix. */
        EXEC_LINE_DROPPED,
        /* The error refuses the unit in versions where Exec lines are
         * fatal (v234+); older versions drop the line instead. */
        EXEC_LINE_FATAL,
} ExecSeverity;

typedef struct ExecLine {
        ExecCommand *commands;    /* the commands systemd keeps (NULL from exec_line_check()) */
        size_t n_commands;
        ExecSeverity severity;
        bool dash_escaped;        /* fatal, but downgraded by the '-' prefix */
        bool partial;             /* commands before the bad one were kept */
        bool deferred;            /* instance specifiers in a template: judge per instance */
        bool machine;             /* host-dependent specifiers left unexpanded */
        bool unknown_escapes;     /* "\q" and the like: kept verbatim with a warning */
        char *message;            /* why the line is dropped or fatal; NULL when OK */
} ExecLine;

/* Parses one Exec*= value (non-empty; an empty value is a reset, which the
 * caller handles) for systemd `version`, with the unit's name for
 * specifiers (a template, an instance, a plain name or NULL).
 * Returns 0 with *ret filled (look at ret->severity), or -ENOMEM. */
int exec_line_parse(const char *value, unsigned version, const char *unit_name, ExecLine *ret);
/* The same verdict without the commands: ret->commands stays NULL, only
 * n_commands counts them. For callers that judge a line and need no argv. */
int exec_line_check(const char *value, unsigned version, const char *unit_name, ExecLine *ret);
void exec_line_done(ExecLine *l);

/* One word as extract_first_word(EXTRACT_UNQUOTE|EXTRACT_CUNESCAPE) with
 * the relaxed retry gives it: quotes anywhere in the word, C escapes
 * inside and outside quotes, unknown escapes kept verbatim.
 * Returns 1 and the word, 0 at the end of input, -EINVAL for an unbalanced
 * quote (or a backslash ending a quoted word), -ENOMEM. *p is advanced
 * past the word and the blanks after it. */
int exec_extract_word(const char **p, char **ret, bool *ret_unknown_escape);
/* The same, appending the word to b (which the caller empties, and may
 * reuse from word to word): no allocation per word. On failure b may hold
 * part of the word. */
int exec_extract_word_buf(const char **p, StrBuf *b, bool *ret_unknown_escape);
/* The same, into out, which has room for end - *p + 1 bytes, end being
 * the text's terminating NUL (*p + strlen(*p)): a word never decodes to
 * more bytes than it is written with (an escape to fewer than its own, a
 * quote to none), so it always fits, and callers that take the words of
 * one text apart size the room once, for the whole text. The word is
 * NUL-terminated, its length in *ret_len (also on -EINVAL, for what was
 * decoded; 0 at the end). Never -ENOMEM. */
int exec_extract_word_to(const char **p, const char *end, char *out, size_t *ret_len, bool *ret_unknown_escape);

/* Room for any word of a text of text_len bytes (exec_extract_word_to()):
 * on the stack for the usual short value, no allocation per line. Not to
 * be copied (data may point into small). */
typedef struct WordRoom {
        char *data;
        char small[512];
} WordRoom;
/* 0, or -ENOMEM for a long text whose room cannot be allocated. */
int word_room_init(WordRoom *w, size_t text_len);
void word_room_done(WordRoom *w);
