/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "macro.h"
#include "strbuf.h"

/* Diagnostics are structured records. Library code only collects them; the
 * CLI decides how to render them (compiler-style text, JSON, later SARIF). */

typedef enum DiagSeverity {
        DIAG_NOTE,
        DIAG_WARNING,
        DIAG_ERROR,
} DiagSeverity;

/* What systemd itself does about the problem: the prediction, independent
 * of what a policy decides. */
typedef enum SystemdEffect {
        EFFECT_NONE,          /* nothing: informational */
        EFFECT_LINE_IGNORED,  /* systemd logs a warning and ignores the line */
        EFFECT_UNIT_FATAL,    /* the unit is refused (load state bad-setting) */
        EFFECT_FILE_FAILED,   /* the whole file fails to load (load state error) */
} SystemdEffect;

/* Made by diag_add() only. Its texts but unit are one allocation, the
 * message's: the other fields point into it, and are never freed or
 * replaced on their own. */
typedef struct Diag {
        char *rule;           /* stable identifier, e.g. "syntax.missing-equals" */
        DiagSeverity severity;
        SystemdEffect effect;
        char *file;           /* path as the user knows it */
        unsigned line;        /* 1-based; 0 means the whole file */
        char *section;        /* NULL when not applicable */
        char *key;            /* NULL when not applicable */
        char *message;
        char *unit;           /* the unit the finding belongs to, when known */
} Diag;

typedef struct DiagList {
        Diag *items;
        size_t n;
        size_t allocated;
} DiagList;

int diag_add(DiagList *l, DiagSeverity severity, SystemdEffect effect, const char *rule,
             const char *file, unsigned line, const char *section, const char *key,
             const char *fmt, ...) _printf_(9, 10);
int diag_addv(DiagList *l, DiagSeverity severity, SystemdEffect effect, const char *rule,
              const char *file, unsigned line, const char *section, const char *key,
              const char *fmt, va_list ap) _printf_(9, 0);
void diag_list_done(DiagList *l);
/* Appends a copy of d, with unit (may be NULL) as its unit. */
int diag_list_copy(DiagList *l, const Diag *d, const char *unit);
size_t diag_list_count(const DiagList *l, DiagSeverity severity);

const char *diag_severity_to_string(DiagSeverity s);
const char *systemd_effect_to_string(SystemdEffect e);

/* "PATH:LINE: error: message [Section.Key]" plus a newline. Bytes that are
 * not printable are shown as \xNN so one record stays on one line. */
int diag_format_text(const Diag *d, StrBuf *out);
/* The same, with "UNIT: " before the message when unit is not NULL: for a
 * file several units share (a template, a type-wide drop-in). */
int diag_format_text_for(const Diag *d, const char *unit, StrBuf *out);

/* One JSON object (no newline) with all fields of the record. */
int diag_to_json(const Diag *d, StrBuf *out);
