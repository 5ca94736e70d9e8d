/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "basic/diag.h"
#include "basic/strbuf.h"
#include "unit/unit-type.h"

/* Reads the `systemctl cat` format incrementally: files introduced by a
 * line "# /path/to/file", a blank line before every header but the first.
 * Only one file is held in memory at a time. Input that does not start
 * with a header is one bare file.
 *
 * The size cap applies to each file's content, the same way whatever the
 * descriptor delivers per read(): content of max_file bytes is read, one
 * byte more fails with -EFBIG. A header line is at most CAT_HEADER_MAX
 * bytes; a longer line is content. */

#define CAT_HEADER_MAX ((size_t) 16384)
/* A file's framing (CatFile.framing) is an allocation of at least this
 * many bytes. */
#define CAT_FRAMING_ROOM ((size_t) 256)

/* What a header's path names: its name's offset in it, whether it ends in
 * ".conf", the unit type of its suffix (not for ".conf"). */
typedef struct CatPathFacts {
        size_t name;
        bool conf;
        UnitType type;
} CatPathFacts;

typedef struct CatReader {
        int fd;
        const char *source;    /* name for diagnostics, e.g. "<stdin>" */
        size_t max_file;       /* larger files fail with -EFBIG */

        StrBuf buf;            /* unread input */
        size_t pos;
        size_t mark;           /* start of the current file's content */
        bool eof;
        bool avx2;             /* the CPU has AVX2: LF bytes found 32 at a time
                                * (tests clear it to check the SSE2 path) */
        unsigned line;         /* stream line of the last line read */

        bool started, bare, done;
        StrBuf header_path;    /* the path of a header with escapes, without them */
        CatPathFacts header_facts; /* of the header last classified */
        char *next_framing;    /* header already read for the next file */
        char *spare_framing;   /* a framing given back, for the next header */
        char *next_path;       /* its path, in next_framing's allocation */
        size_t next_path_len;
        CatPathFacts next_facts;
        unsigned next_line;
        bool next_is_note;

        /* After a failure inside a file: its header's path (NULL for bare
         * input or a note) and the header's line. */
        char *failed_path;
        unsigned failed_line;
} CatReader;

typedef struct CatFile {
        char *path;            /* from the header; NULL for bare input: borrowed
                                * from the allocation of framing (valid while
                                * framing is, wherever that goes) */
        size_t path_len;       /* strlen(path) */
        char *name;            /* in path: after its last '/' */
        bool conf;             /* path ends in ".conf": a drop-in (see
                                * cat_dropin_unit_name()), or a unit file whose
                                * directory name is too short for one */
        UnitType type;         /* path's suffix as a unit type (not .conf) */
        char *framing;         /* bytes before the content: blank line + header */
        char *data;            /* content, with a NUL at data[size]: in the reader's
                                * buffer (borrowed: valid until the next call of
                                * cat_reader_next()), or malloc'd */
        size_t size;
        bool borrowed;
        unsigned header_line;  /* line of the header in the stream */
        bool is_note;          /* "# Unit X is masked." and the like: framing only */
        DiagList diags;        /* warnings about the framing (cat.merged-header) */
} CatFile;

void cat_reader_init(CatReader *r, int fd, const char *source, size_t max_file);
void cat_reader_done(CatReader *r);
/* 1 with a file, 0 at the end, negative errno on read errors (-EFBIG for
 * a file over the cap); after an error, failed_path names the file. */
int cat_reader_next(CatReader *r, CatFile *ret);
void cat_file_done(CatFile *f);
/* Takes a framing back, one of r's CatFile.framing (taken by the caller,
 * no longer used), and keeps it for a later header: a stream has one
 * header per file, and this spares most of them an allocation. */
void cat_reader_recycle_framing(CatReader *r, char *framing);

/* Whether path looks like what systemctl cat prints in a header: absolute,
 * printable, and a unit file or a drop-in (NAME.d/X.conf). */
bool cat_header_path_is_plausible(const char *path, size_t n);
/* For "DIR/NAME.d/X.conf": NAME (malloc'd) in *ret; 0 if not a drop-in. */
int cat_dropin_unit_name(const char *path, char **ret);
