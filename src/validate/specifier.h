/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

/* %-specifiers in unit-file values (reference §4), as the system manager
 * expands them. Nothing here looks at the running machine: specifiers whose
 * value depends on the host, the boot or the OS (%H %m %b %v %a %o ...) are
 * left in the text unexpanded and reported, never guessed. */

typedef enum SpecifierContext {
        SPECIFIER_FULL,      /* most settings and Exec arguments (unit_full_printf) */
        SPECIFIER_PATH,      /* paths and the Exec executable (same table, PATH_MAX limit) */
        SPECIFIER_UNIT_NAME, /* dependencies, Service=, Slice=... (reduced table) */
        _SPECIFIER_CONTEXT_MAX,
} SpecifierContext;

/* The longest expansion of a SPECIFIER_FULL text, LONG_LINE_MAX
 * (-ENAMETOOLONG at or past it): a text without '%' shorter than this is
 * expanded to itself, with nothing to report. */
#define SPECIFIER_TEXT_MAX (1024u * 1024u)
/* The same for SPECIFIER_PATH: PATH_MAX, counting the NUL. */
#define SPECIFIER_PATH_TEXT_MAX 4096u

typedef struct SpecifierInfo {
        /* Instance-dependent specifiers (%i %I %n %N %f %d) met in a template,
         * or name-dependent ones with no unit name: left unexpanded, the
         * value has to be judged per instance. */
        bool deferred;
        /* Host/boot/OS/fragment-dependent specifiers left unexpanded. */
        bool machine;
        /* On -EBADSLT: the unknown specifier's character. On other errors:
         * the specifier whose expansion failed. '\0' when none. */
        char bad;
} SpecifierInfo;

/* Expands text for a unit named unit_name (plain, template, instance, or
 * NULL when unknown) as systemd `version` would.
 * Returns 0 and the new string, or:
 *   -EBADSLT  an unknown letter/digit after '%' (v236+; older versions kept
 *             such sequences verbatim)
 *   -EINVAL   a specifier that cannot be expanded (%I/%f of a badly escaped
 *             name)
 *   -ENAMETOOLONG  longer than the context allows
 *   -ENOMEM
 * info may be NULL. */
int specifier_expand(const char *text, SpecifierContext ctx, const char *unit_name, unsigned version,
                     char **ret, SpecifierInfo *info);

/* Same checks without keeping the result. */
int specifier_check(const char *text, SpecifierContext ctx, const char *unit_name, unsigned version,
                    SpecifierInfo *info);

/* Whether systemd `version` knows %c in this context at all. */
bool specifier_known(char c, SpecifierContext ctx, unsigned version);
