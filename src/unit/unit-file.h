/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "basic/diag.h"
#include "basic/strbuf.h"
#include "unit-type.h"

/* The parsed model of one unit file or drop-in, as systemd's parser sees it,
 * tied to the exact bytes it came from so that a file can be written back
 * byte for byte, with only the edits a policy asked for. */

/* systemd's LONG_LINE_MAX: a physical line of this many bytes or more, or a
 * joined continuation longer than this, fails the whole file. */
#define UNIT_LINE_MAX ((size_t) 1048576)
/* unitguard's own caps, to bound memory and time per unit (systemd has
 * none of these; a unit over one is rejected with a "limit.*" error). */
#define UNIT_FILE_MAX ((size_t) 64 * 1024 * 1024)
#define UNIT_SECTIONS_MAX ((size_t) 65536)      /* section headers per file */
#define UNIT_ENTRIES_MAX ((size_t) 1048576)     /* assignments per file */
#define UNIT_DROPINS_MAX ((size_t) 4096)        /* drop-ins per unit */
#define UNIT_ARENA_SLACK 16

typedef enum SectionState {
        SECTION_KNOWN,         /* valid for the unit type */
        SECTION_EXTENSION,     /* X-...: systemd ignores it silently */
        SECTION_UNKNOWN,       /* systemd warns once and ignores its entries */
} SectionState;

typedef struct UnitSection {
        char *name;            /* without the brackets */
        unsigned line;
        size_t raw_end;        /* end of the header's line(s), terminator included */
        SectionState state;
} UnitSection;

typedef enum EntryEdit {
        EDIT_KEEP,
        EDIT_DROP,             /* remove the entry's lines */
        EDIT_COMMENT,          /* comment the entry out, with a reason */
        EDIT_REPLACE,          /* write KEY=replacement instead */
} EntryEdit;

typedef struct UnitEntry {
        int section;           /* index into sections, -1 before any section */
        unsigned key_len;      /* strlen(key): a line is shorter than UNIT_LINE_MAX */
        char *key;             /* stripped */
        char *value;           /* logical value: continuations joined, stripped */
        size_t raw_start;      /* byte range of the entry's physical lines in */
        size_t raw_end;        /*   the file, line terminators included */
        unsigned line_first;
        unsigned line_last;    /* the line systemd reports (the last one read) */
        EntryEdit edit;
        unsigned value_len;    /* strlen(value) */
        char *edit_text;       /* replacement value or comment reason (owned) */
        char *edit_key;        /* EDIT_REPLACE: a new key (rename), or NULL */
} UnitEntry;

/* Text a rewrite adds; written just before byte offset `at`. */
typedef struct UnitInsert {
        size_t at;
        size_t order;          /* keeps insertions at one offset in call order */
        char *text;            /* owned, complete lines */
        char *section, *key;   /* what the inserted entry sets */
} UnitInsert;

typedef struct UnitFile {
        char *path;            /* as shown in diagnostics */
        char *unit_name;       /* the unit this file configures */
        UnitType type;
        bool is_dropin;

        char *data;            /* the raw bytes, NUL-terminated: owned, or in
                                * the UnitFile's own allocation (data_inline) */
        size_t size;
        bool data_inline;
        size_t allocation;     /* bytes in the UnitFile's own allocation */

        UnitSection *sections;
        size_t n_sections, allocated_sections;
        UnitEntry *entries;    /* in file order: their section never decreases */
        size_t n_entries, allocated_entries;
        UnitInsert *inserts;
        size_t n_inserts, allocated_inserts;

        unsigned n_lines;      /* physical lines */
        unsigned failed_line;  /* file-level failure: systemd stops here; 0 = none */
        unsigned limit_line;   /* over one of unitguard's caps: parsing stopped here */
        bool has_bom;

        char *arena;           /* storage for the path, names, keys and values:
                                * allocated with the UnitFile itself; at least
                                * UNIT_ARENA_SLACK bytes of it follow the last
                                * string stored (JSON reads ahead) */
        size_t arena_used, arena_size;
        /* The first entries and sections live in the UnitFile's own
         * allocation too; entries/sections point here until they grow. */
        UnitEntry *inline_entries;
        UnitSection *inline_sections;
        bool edited;           /* an entry got an edit (its texts need freeing) */

        DiagList diags;
} UnitFile;

/* Parses data (size bytes, taking ownership of it: it must have been
 * allocated with malloc and carry one extra NUL byte at data[size]).
 * unit_name may be NULL (then the type is unknown and all sections that
 * any unit type knows are accepted). Problems in the file become
 * diagnostics; only allocation failure is an error (-ENOMEM). */
int unit_file_parse(char *data, size_t size, const char *path, const char *unit_name,
                    bool is_dropin, UnitFile **ret);
/* The same from bytes the caller keeps: they are copied into the
 * UnitFile's own allocation. A stream parses one file after another:
 * *spare, if not NULL, is an earlier UnitFile's allocation
 * (unit_file_recycle()), used again when it is large enough. */
int unit_file_parse_copy(const char *data, size_t size, const char *path, const char *unit_name,
                         bool is_dropin, UnitFile **spare, UnitFile **ret);
/* The same for a caller that has at hand the lengths of path and
 * unit_name, and unit_name's type (unit_type_from_name(); ignored, like
 * name_len, when unit_name is NULL). */
int unit_file_parse_copy_n(const char *data, size_t size, const char *path, size_t path_len,
                           const char *unit_name, size_t name_len, UnitType type, bool is_dropin,
                           UnitFile **spare, UnitFile **ret);
UnitFile *unit_file_free(UnitFile *f);
/* Frees what f holds and keeps its allocation in *spare for the next
 * unit_file_parse_copy() (the larger of the two, when *spare has one).
 * A spare holds nothing else: free() it, not unit_file_free(). */
void unit_file_recycle(UnitFile *f, UnitFile **spare);
static inline void unit_file_freep(UnitFile **f) {
        unit_file_free(*f);
}

/* Section name of an entry, or NULL before any section. */
const char *unit_entry_section(const UnitFile *f, const UnitEntry *e);
bool unit_file_modified(const UnitFile *f);

/* Edits requested by a policy. */
int unit_entry_set_edit(UnitFile *f, size_t entry, EntryEdit edit, const char *text);
/* EDIT_REPLACE with a new key and value (a rename keeps the value). */
int unit_entry_rename(UnitFile *f, size_t entry, const char *new_key);
/* Adds "KEY=VALUE" to section (creating the section at the end if needed). */
int unit_file_add_entry(UnitFile *f, const char *section, const char *key, const char *value);

/* Writes the file (with its edits) to out. Unmodified files are copied
 * byte for byte. */
int unit_file_write(const UnitFile *f, StrBuf *out);

/* Appends one JSON object (no newline) describing the parsed model.
 * extra_fields, if not NULL, is JSON text (",\"k\":v...") added before the
 * closing brace. */
int unit_file_to_json(const UnitFile *f, const char *extra_fields, StrBuf *out);
/* The same object without its closing brace, for a caller that appends
 * its own members (",\"k\":v...") and then '}' to out directly. */
int unit_file_to_json_open(const UnitFile *f, StrBuf *out);
