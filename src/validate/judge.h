/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The systemd versions whose behaviour the tables and the judge model
 * (user names, fatal sets, parser rules, unit checks: 233 to 257, checked
 * against 252 and 257; what changed after 252 is in directives.tsv's since
 * column and the since/until of each unit check).
 * A prediction for any other version would be an extrapolation, which
 * unitguard refuses (unitguard(1), --target-version). */
#define SYSTEMD_VERSION_OLDEST_MODELLED 233
#define SYSTEMD_VERSION_NEWEST_MODELLED 257

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "unit/unit-type.h"
#include "validate/directive-table.h"

/* "What would systemd version V do with this one assignment in the main
 * unit file?" Drop-ins are the caller's business: systemd never treats an
 * error there as fatal (reference §2.2), so a FATAL verdict for a drop-in
 * line means "the rest of that drop-in is skipped". */

typedef enum Verdict {
        VERDICT_OK,      /* accepted silently */
        VERDICT_NOTICE,  /* accepted, with a notice or warning (relaxed user names, ...) */
        VERDICT_RESET,   /* empty value: the setting goes back to its default */
        VERDICT_IGNORED, /* warning; the line (or, with partial, part of it) is dropped */
        VERDICT_FATAL,   /* the unit is refused (bad-setting) */
} Verdict;

typedef struct JudgeContext {
        unsigned version;    /* systemd version, e.g. 252 */
        UnitType type;       /* _UNIT_TYPE_INVALID: taken from unit_name */
        const char *unit_name; /* a template, an instance, a plain name or NULL */
} JudgeContext;

typedef struct Judgement {
        /* (Pointers first, the small fields packed after them: 32 bytes,
         * copied for every line of every unit.) */
        const Directive *directive; /* NULL for unknown keys */
        char *message;      /* NULL when OK */
        Verdict verdict;
        bool invalid;       /* the value is invalid at all (whatever systemd does with it) */
        bool dash_escaped;  /* would be fatal, but a leading '-' downgraded it */
        bool deferred;      /* instance specifiers in a template (or no unit name):
                             * the value can only be judged per instance */
        /* Extensions: */
        bool partial;       /* IGNORED only for part of the value: the words
                             * named in message were dropped, the rest kept
                             * (SupplementaryGroups= before v234, dependency
                             * lists, Exec lines after a ';') */
        /* user/group results: */
        bool names_root;    /* value resolves to root (0 or "root"); also set
                             * for an empty User=, which resets to root */
        bool machine;       /* host-dependent specifiers (%H %m %b ...) were left
                             * unexpanded; the value was judged as written */
} Judgement;

/* Fills *ret (always, also for unknown keys) and returns 0, or -ENOMEM.
 * section and key are as written in the file; value is the stripped value.
 *
 * The judge has its own code for users, groups, exec lines, paths, unit
 * names, security labels, enums and standard I/O; every other kind is
 * judged by its parser in value-check.h (dispatched through value-kind.c,
 * arguments from the values column), after specifier expansion unless the
 * directive is "@verbatim". Free strings accept any value whose specifiers
 * resolve. An empty value follows the table's empty-value rule. */
int judge_assignment(const JudgeContext *ctx, const char *section, const char *key, const char *value,
                     Judgement *ret);
/* The same with the section interned as well (directive_section_from_name()
 * of section), for callers that judge many lines of one section. */
int judge_assignment_in(const JudgeContext *ctx, DirectiveSection section_id, const char *section, const char *key,
                        const char *value, Judgement *ret);
/* The same with key_len = strlen(key), which the parser has measured. */
int judge_assignment_in_n(const JudgeContext *ctx, DirectiveSection section_id, const char *section, const char *key,
                          size_t key_len, const char *value, Judgement *ret);
void judgement_done(Judgement *j);

/* The judge's own vsnprintf() for its messages' formats (text, "%s",
 * "%u", "%c", "%%"): the message into buf, its length; -1 for any other
 * format or a message of size bytes or more. Exposed for tests, which
 * hold it to vsnprintf(). */
int judge_format_simple(char *buf, size_t size, const char *fmt, va_list ap);

/* The judgements made for the entries of one unit file, passed on to
 * later passes over the file (unit-checks.h): one per entry, and the
 * entries such a pass has to look at at all. */
typedef struct JudgedFile {
        const Judgement *lines;  /* one per entry; NULL: none made */
        /* The indices of the entries worth a look, ascending (predict.h
         * says which they are); NULL: every entry. */
        const uint32_t *notable;
        size_t n_notable;
} JudgedFile;

const char *verdict_to_string(Verdict v); /* "ok", "notice", "reset", "ignored", "fatal" */
