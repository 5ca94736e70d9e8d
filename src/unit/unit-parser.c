/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Builds the UnitFile model from raw bytes, following systemd's
 * config_parse()/parse_line() step by step (see unit-semantics.md §1). */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "basic/utf8.h"
#include "unit-file.h"
#include "unit-lexer.h"

#define UTF8_BOM "\xef\xbb\xbf"
/* Past this many diagnostics in one file, further ones are counted only. */
#define DIAGS_PER_FILE_MAX 100

typedef struct ParseState {
        UnitFile *f;
        int section;              /* current section, -1 before the first */
        bool bom_seen;
        unsigned suppressed;      /* diagnostics over the cap */
        const char *type_section; /* the unit type's own section, or NULL */
        size_t type_section_len;  /* its length (0 without one) */

        /* An open continuation: the joined text so far and where it began. */
        bool in_cont;
        bool cont_ascii;          /* every part joined so far is ASCII */
        StrBuf cont;
        size_t cont_start, cont_end;
        unsigned cont_line_first, cont_line_last;
} ParseState;

static bool is_blank(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static char *arena_strndup(UnitFile *f, const char *s, size_t n) {
        char *p;

        /* The arena is sized so that it cannot run out (see unit_file_parse);
         * the check guards against a broken invariant, not normal input. */
        if (n + 1 + UNIT_ARENA_SLACK > f->arena_size - f->arena_used)
                return NULL;
        p = f->arena + f->arena_used;
        memcpy(p, s, n);
        p[n] = '\0';
        f->arena_used += n + 1;
        return p;
}

/* Makes room for one more element of an array that starts in the
 * UnitFile's own allocation (inline) and moves to the heap when full. */
static int grow_array(void **array, size_t *allocated, size_t need, size_t elsize, const void *inline_storage) {
        void *q;

        if (need <= *allocated)
                return 0;
        if (*array != inline_storage)
                return greedy_realloc(array, allocated, need, elsize);
        q = malloc_multiply(2 * *allocated + 8, elsize);
        if (!q)
                return -ENOMEM;
        memcpy(q, *array, *allocated * elsize);
        *array = q;
        *allocated = 2 * *allocated + 8;
        return 0;
}

_printf_(7, 8)
static int add_diag(ParseState *ps, DiagSeverity sev, SystemdEffect eff, const char *rule,
                    unsigned line, const char *section, const char *fmt, ...) {
        va_list ap;
        int r;

        if (ps->f->diags.n >= DIAGS_PER_FILE_MAX && eff != EFFECT_FILE_FAILED) {
                ps->suppressed++;
                return 0;
        }
        va_start(ap, fmt);
        r = diag_addv(&ps->f->diags, sev, eff, rule, ps->f->path, line, section, NULL, fmt, ap);
        va_end(ap);
        return r;
}

static const char *current_section_name(const ParseState *ps) {
        return ps->section >= 0 ? ps->f->sections[ps->section].name : NULL;
}

/* A file-level failure: systemd stops reading the file here. Returns 1 to
 * tell the caller to stop. */
static int fail_file(ParseState *ps, const char *rule, unsigned line, const char *msg) {
        int r;

        ps->f->failed_line = line;
        /* A broken header is not part of the section before it. */
        r = add_diag(ps, DIAG_ERROR, EFFECT_FILE_FAILED, rule, line,
                     startswith(rule, "syntax.invalid-section") || startswith(rule, "syntax.bad-section")
                             ? NULL : current_section_name(ps),
                     "%s", msg);
        return r < 0 ? r : 1;
}

/* Section names must not contain control characters, quotes, backslashes
 * or DEL (systemd's string_is_safe()): 1 for the bytes that may be in one. */

/* s is in the arena, which at least UNIT_ARENA_SLACK bytes follow (see
 * find_equals()): with SSE2 sixteen bytes at a time, the last block cut
 * to the name. */
static bool section_name_is_safe(const char *s, size_t n) {
#if defined(__SSE2__) && !defined(UNIT_LEXER_SCALAR)
        const __m128i x1f = _mm_set1_epi8(0x1f), quote = _mm_set1_epi8('"'), apos = _mm_set1_epi8('\''),
                      backslash = _mm_set1_epi8('\\'), del = _mm_set1_epi8(0x7f);

        for (size_t i = 0; i < n; i += 16) {
                __m128i v = _mm_loadu_si128((const __m128i *) (const void *) (s + i));
                /* Below ' ' (unsigned): the minimum with 0x1f is the byte. */
                __m128i bad = _mm_or_si128(
                        _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(v, x1f), v),
                                     _mm_cmpeq_epi8(v, quote)),
                        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, apos), _mm_cmpeq_epi8(v, backslash)),
                                     _mm_cmpeq_epi8(v, del)));
                unsigned m = (unsigned) _mm_movemask_epi8(bad);

                if (n - i < 16)
                        m &= (1u << (n - i)) - 1;
                if (m != 0)
                        return false;
        }
        return true;
#else
        static const uint8_t section_name_char[256] = {
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                1, 1, 0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1,
                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0,
                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        };

        for (size_t i = 0; i < n; i++)
                if (!section_name_char[(unsigned char) s[i]])
                        return false;
        return true;
#endif
}

/* section_name_is_safe() for a name of at most sixteen bytes, inline: one
 * block (the arena's slack follows the name), cut to the name. */
static _always_inline_ bool short_section_name_is_safe(const char *s, size_t n) {
#if defined(__SSE2__) && !defined(UNIT_LEXER_SCALAR)
        __m128i v = _mm_loadu_si128((const __m128i *) (const void *) s);
        __m128i bad = _mm_or_si128(
                _mm_or_si128(_mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v),
                             _mm_cmpeq_epi8(v, _mm_set1_epi8('"'))),
                _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('\'')),
                                          _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
                             _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f))));

        return ((unsigned) _mm_movemask_epi8(bad) & ((1u << n) - 1)) == 0;
#else
        return section_name_is_safe(s, n);
#endif
}

/* Whether a section is valid for the unit type (unit_type_has_section_n()),
 * the common names compared inline: [Unit], [Install] and the type's own
 * (ps->type_section; its length is found when first needed). */
/* The 4 bytes at s as a number, for comparisons without a call. */
static _always_inline_ uint32_t load4(const char *s) {
        uint32_t x;

        memcpy(&x, s, 4);
        return x;
}

/* memcmp(a, b, n) == 0 for 4 <= n <= 8: the first and the last four
 * bytes, which overlap and cover all n. */
static _always_inline_ bool mem_equal_4_8(const char *a, const char *b, size_t n) {
        return ((load4(a) ^ load4(b)) | (load4(a + n - 4) ^ load4(b + n - 4))) == 0;
}

static _always_inline_ bool section_is_known(ParseState *ps, UnitType type, const char *name, size_t n) {
        if ((n == 4 && load4(name) == load4("Unit")) || (n == 7 && mem_equal_4_8(name, "Install", 7)))
                return true;
        if (ps->type_section) {
                if (n == ps->type_section_len &&
                    (n >= 4 && n <= 8 ? mem_equal_4_8(name, ps->type_section, n) : memcmp(name, ps->type_section, n) == 0))
                        return true;
        }
        return unit_type_has_section_n(type, name, n);
}

/* One of unitguard's own caps is reached: stop reading, reject the unit.
 * Returns 1, like a file failure. */
static int over_limit(ParseState *ps, const char *rule, unsigned line, const char *what, size_t max) {
        int r;

        ps->f->limit_line = line;
        r = add_diag(ps, DIAG_ERROR, EFFECT_NONE, rule, line, current_section_name(ps),
                     "More than %zu %s in one file (unitguard's limit); the unit is rejected", max, what);
        return r < 0 ? r : 1;
}

static __attribute__((noinline)) int parse_section_header_slow(ParseState *ps, char *l, size_t n, unsigned line,
                                                              size_t raw_end);

/* The header most files are made of, "[Unit]", "[Install]" or the type's
 * own section (its length known already), without a call: nothing to
 * refuse, room in the sections held. Everything else goes the full way
 * (parse_section_header_slow()), which does the same for these. */
static _always_inline_ int parse_section_header(ParseState *ps, char *l, size_t n, unsigned line, size_t raw_end) {
        UnitFile *f = ps->f;
        const char *name = l + 1;
        size_t k = n - 2;

        if (n >= 6 && n <= 11 && l[n - 1] == ']' && f->n_sections < MIN(f->allocated_sections, UNIT_SECTIONS_MAX) &&
            ((k == 4 && load4(name) == load4("Unit")) || (k == 7 && mem_equal_4_8(name, "Install", 7)) ||
             (k == ps->type_section_len && k <= 8 && mem_equal_4_8(name, ps->type_section, k)))) {
                l[n - 1] = '\0';
                f->sections[f->n_sections] = (UnitSection) {
                        .name = l + 1, .line = line, .raw_end = raw_end, .state = SECTION_KNOWN };
                ps->section = (int) f->n_sections++;
                return 0;
        }
        return parse_section_header_slow(ps, l, n, line, raw_end);
}

static int parse_section_header_slow(ParseState *ps, char *l, size_t n, unsigned line, size_t raw_end) {
        UnitFile *f = ps->f;
        UnitSection *s;
        char *name;
        int r;

        if (l[n - 1] != ']' || n < 2)
                return fail_file(ps, "syntax.invalid-section-header", line,
                                 "Invalid section header; the whole file is refused");
        if (!(n - 2 <= 16 ? short_section_name_is_safe(l + 1, n - 2) : section_name_is_safe(l + 1, n - 2)))
                return fail_file(ps, "syntax.bad-section-name", line,
                                 "Bad characters in section header; the whole file is refused");

        if (f->n_sections >= UNIT_SECTIONS_MAX)
                return over_limit(ps, "limit.sections", line, "section headers", UNIT_SECTIONS_MAX);
        if (f->n_sections >= f->allocated_sections) {
                r = grow_array((void **) &f->sections, &f->allocated_sections, f->n_sections + 1, sizeof(UnitSection),
                               f->inline_sections);
                if (r < 0)
                        return r;
        }
        /* In place: the closing bracket becomes the name's end. */
        name = l + 1;
        l[n - 1] = '\0';

        s = &f->sections[f->n_sections];
        *s = (UnitSection) { .name = name, .line = line, .raw_end = raw_end };
        if (section_is_known(ps, f->type, name, n - 2))
                s->state = SECTION_KNOWN;
        else if (startswith(name, "X-"))
                s->state = SECTION_EXTENSION;
        else {
                s->state = SECTION_UNKNOWN;
                r = add_diag(ps, DIAG_WARNING, EFFECT_LINE_IGNORED, "syntax.unknown-section", line,
                             name, "Unknown section '%s'; systemd ignores it and its entries", name);
                if (r < 0)
                        return r;
        }
        ps->section = (int) f->n_sections++;
        return 0;
}

/* memchr(l, '=', n) for text in the arena, which at least
 * UNIT_ARENA_SLACK bytes follow: sixteen bytes at a time, inline (a key is
 * mostly shorter than that: one block), the last block cut to the text. */
static _always_inline_ char *find_equals(char *l, size_t n) {
#if defined(__SSE2__) && !defined(UNIT_LEXER_SCALAR)
        const __m128i eq = _mm_set1_epi8('=');

        for (size_t i = 0; i < n; i += 16) {
                unsigned m = (unsigned) _mm_movemask_epi8(
                        _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *) (const void *) (l + i)), eq));

                if (n - i < 16)
                        m &= (1u << (n - i)) - 1;
                if (m != 0)
                        return l + i + __builtin_ctz(m);
        }
        return NULL;
#else
        return memchr(l, '=', n);
#endif
}

/* find_equals() for a line of parse_run(): its copy in the arena still
 * ends in its LF, and has no LF before it, so the search stops at the
 * first '=' or LF, sixteen bytes at a time, without a cut of its own (the
 * bytes after the last line are initialised: see parse_in()). */
#if defined(__SSE2__) && !defined(UNIT_LEXER_SCALAR)
typedef __m128i LineBytes;   /* '=' and LF in every byte, for the search */
#else
typedef char LineBytes;
#endif

/* The constants find_equals_in_line() compares with, made once per run of
 * lines: opaque to the compiler, so that it keeps them rather than
 * building them anew for every line. */
static _always_inline_ void line_bytes_init(LineBytes *eq, LineBytes *lf) {
#if defined(__SSE2__) && !defined(UNIT_LEXER_SCALAR)
        *eq = _mm_set1_epi8('=');
        *lf = _mm_set1_epi8('\n');
        __asm__("" : "+x"(*eq), "+x"(*lf));
#else
        *eq = '=';
        *lf = '\n';
#endif
}

static _always_inline_ char *find_equals_in_line(char *l, LineBytes eq, LineBytes lf) {
#if defined(__SSE2__) && !defined(UNIT_LEXER_SCALAR)
        for (;; l += 16) {
                __m128i v = _mm_loadu_si128((const __m128i *) (const void *) l);
                unsigned me = (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(v, eq)),
                         ml = (unsigned) _mm_movemask_epi8(_mm_cmpeq_epi8(v, lf));

                /* The bits before the first LF (all without one). */
                me &= (ml & -ml) - 1;
                if (me != 0)
                        return l + __builtin_ctz(me);
                if (ml != 0)
                        return NULL;
        }
#else
        for (;; l++) {
                if (*l == eq)
                        return l;
                if (*l == lf)
                        return NULL;
        }
#endif
}

/* One logical line: continuations joined, comments gone. l is a copy the
 * parser may write to (the arena's copy of the file, or of a joined
 * continuation); what it stores points into it, each string ended in place
 * by a NUL over the byte after it (a blank, '=', ']' or the terminator: the
 * copy is never read as the file). raw_start/raw_end delimit its bytes in the file. Returns 1 if
 * the file failed. */
static _always_inline_ int parse_logical(ParseState *ps, char *l, size_t n, bool ascii, unsigned line_first,
                         unsigned line_last, size_t raw_start, size_t raw_end) {
        UnitFile *f = ps->f;
        char *eq, *k, *v;
        size_t kn, vn;
        UnitEntry *e;
        int r;

        while (n > 0 && is_blank(*l))
                l++, n--;
        while (n > 0 && is_blank(l[n - 1]))
                n--;
        if (n == 0)
                return 0;

        /* The lexer saw whether the bytes are ASCII; only others need
         * a closer look. */
        if (!ascii && !utf8_is_valid_systemd(l, n))
                return fail_file(ps, "syntax.invalid-utf8", line_first,
                                 "Line is not valid UTF-8; systemd refuses the whole file");

        if (l[0] == '[')
                return parse_section_header(ps, l, n, line_first, raw_end);

        eq = find_equals(l, n);
        if (ps->section < 0) {
                /* systemd says only this; the entry is kept in the model
                 * (without a section) so that nothing is lost from view. */
                r = add_diag(ps, DIAG_WARNING, EFFECT_LINE_IGNORED, "syntax.outside-section",
                             line_first, NULL, "Assignment outside of any section; systemd ignores it");
                if (r < 0 || !eq || eq == l)
                        return r;
        } else if (!eq)
                return add_diag(ps, DIAG_WARNING, EFFECT_LINE_IGNORED, "syntax.missing-equals",
                                line_first, current_section_name(ps),
                                "Missing '='; systemd ignores the line");
        else if (eq == l)
                return add_diag(ps, DIAG_WARNING, EFFECT_LINE_IGNORED, "syntax.missing-key",
                                line_first, current_section_name(ps),
                                "Missing key name before '='; systemd ignores the line");

        k = l;
        kn = (size_t) (eq - l);
        while (kn > 0 && is_blank(k[kn - 1]))
                kn--;
        v = eq + 1;
        vn = (size_t) (l + n - v);
        while (vn > 0 && is_blank(*v))
                v++, vn--;

        if (f->n_entries >= UNIT_ENTRIES_MAX)
                return over_limit(ps, "limit.entries", line_first, "assignments", UNIT_ENTRIES_MAX);
        if (f->n_entries >= f->allocated_entries) {
                r = grow_array((void **) &f->entries, &f->allocated_entries, f->n_entries + 1, sizeof(UnitEntry),
                               f->inline_entries);
                if (r < 0)
                        return r;
        }
        k[kn] = '\0';
        v[vn] = '\0';
        e = &f->entries[f->n_entries++];
        *e = (UnitEntry) {
                .section = ps->section,
                .key = k,
                .key_len = (unsigned) kn,
                .value = v,
                .value_len = (unsigned) vn,
                .raw_start = raw_start,
                .raw_end = raw_end,
                .line_first = line_first,
                .line_last = line_last,
        };
        return 0;
}

static int flush_continuation(ParseState *ps) {
        char *copy = arena_strndup(ps->f, ps->cont.data, ps->cont.len);
        int r;

        if (!copy)
                return -ENOMEM;
        r = parse_logical(ps, copy, ps->cont.len, ps->cont_ascii, ps->cont_line_first,
                          ps->cont_line_last, ps->cont_start, ps->cont_end);
        ps->in_cont = false;
        strbuf_reset(&ps->cont);
        return r;
}

/* From the end: most lines end in a non-blank. */
static bool has_content(const char *s, size_t n) {
        while (n > 0)
                if (!is_blank(s[--n]))
                        return true;
        return false;
}

static int warn_terminator(ParseState *ps, const PhysLine *pl, unsigned line) {
        if (pl->term_kinds & LINE_END_NUL)
                return add_diag(ps, DIAG_WARNING, EFFECT_NONE, "syntax.nul-byte", line,
                                current_section_name(ps),
                                "NUL byte ends the line here; systemd reads what follows as a new line");
        if (pl->term_kinds == LINE_END_CR)
                return add_diag(ps, DIAG_WARNING, EFFECT_NONE, "syntax.lone-cr", line,
                                current_section_name(ps),
                                "Carriage return without line feed ends the line here; systemd reads what follows as a new line");
        return 0;
}

static int parse_physical(ParseState *ps, const PhysLine *pl, unsigned line) {
        UnitFile *f = ps->f;
        const char *raw = f->data + pl->start, *l = raw;
        size_t n = pl->len, i = 0, line_end = pl->start + pl->len + pl->term_len;
        int r;

        if (pl->len >= UNIT_LINE_MAX)
                return fail_file(ps, "syntax.line-too-long", line,
                                 "Line is 1 MiB or longer; systemd refuses the whole file");

        r = warn_terminator(ps, pl, line);
        if (r < 0)
                return r;

        /* Comments are recognised on the raw line, before the BOM is
         * removed and before continuation handling. */
        while (i < n && is_blank(raw[i]))
                i++;
        if (i < n && (raw[i] == '#' || raw[i] == ';'))
                return 0;

        if (n >= 3 && raw[0] == UTF8_BOM[0] && !ps->bom_seen && memcmp(raw, UTF8_BOM, 3) == 0) {
                ps->bom_seen = true;
                f->has_bom = true;
                l += 3;
                n -= 3;
                if (line > 1) {
                        r = add_diag(ps, DIAG_NOTE, EFFECT_NONE, "syntax.late-bom", line,
                                     current_section_name(ps),
                                     "Byte order mark not on the first line; systemd strips it here");
                        if (r < 0)
                                return r;
                }
        }

        if (ps->in_cont) {
                if (n > UNIT_LINE_MAX - ps->cont.len)
                        return fail_file(ps, "syntax.continuation-too-long", line,
                                         "Continued line is longer than 1 MiB; systemd refuses the whole file");
                r = strbuf_append(&ps->cont, l, n);
                if (r < 0)
                        return r;
                ps->cont_ascii = ps->cont_ascii && pl->ascii;
                if (has_content(l, n)) {
                        ps->cont_end = line_end;
                        ps->cont_line_last = line;
                }
                if (line_ends_in_escape(l, n)) {
                        ps->cont.data[ps->cont.len - 1] = ' ';
                        return 0;
                }
                return flush_continuation(ps);
        }

        if (line_ends_in_escape(l, n)) {
                r = strbuf_append(&ps->cont, l, n);
                if (r < 0)
                        return r;
                ps->cont.data[ps->cont.len - 1] = ' ';
                ps->in_cont = true;
                ps->cont_ascii = pl->ascii;
                ps->cont_start = pl->start;
                ps->cont_end = line_end;
                ps->cont_line_first = ps->cont_line_last = line;
                return 0;
        }

        /* The blanks before the text are passed over already (with a BOM
         * they come after it, and parse_logical() strips them). */
        if (l == raw) {
                l += i;
                n -= i;
        }
        /* The arena begins with a copy of the file: the line's text there. */
        return parse_logical(ps, f->arena + (l - f->data), n, pl->ascii, line,
                             line, pl->start, line_end);
}

/* What parse_line_fast() returns for a line it leaves to the general path. */
#define LINE_NOT_SIMPLE 2

/* The lines most files are made of, handled without the general path's
 * steps: an LF-ended line outside a continuation that is blank, a comment,
 * or "Key=value" in a section, ASCII, with no blank at either end of the
 * line or around the key's end, and no backslash at its end; and a section
 * header "[...]" outside a continuation, ASCII. Whatever else
 * (a header, a BOM, a continuation, CR or NUL, a line that gets a
 * diagnostic) goes to parse_physical(), which does what this does in those
 * cases too: these are only its outcomes taken the short way. */
static _always_inline_ int parse_line_fast(ParseState *ps, const PhysLine *pl, unsigned line) {
        UnitFile *f = ps->f;
        const char *raw = f->data + pl->start;
        size_t n = pl->len;
        char *l, *eq, *v;
        size_t kn;
        unsigned char c, last;

        if (pl->term_kinds != LINE_END_LF)
                return LINE_NOT_SIMPLE;
        if (n == 0)
                return ps->in_cont ? LINE_NOT_SIMPLE : 0;
        c = (unsigned char) raw[0];
        /* A comment goes before anything else, continuation or not. */
        if (c == '#' || c == ';')
                return n < UNIT_LINE_MAX ? 0 : LINE_NOT_SIMPLE;
        last = (unsigned char) raw[n - 1];
        /* "[Name]": a section header, nothing to strip or join. */
        if (c == '[' && last == ']' && !ps->in_cont && pl->ascii && n < UNIT_LINE_MAX)
                return parse_section_header(ps, f->arena + pl->start, n, line, pl->start + n + 1);
        if (ps->in_cont || !pl->ascii || ps->section < 0 || n >= UNIT_LINE_MAX || c <= ' ' || c == '[' ||
            c == '=' || last <= ' ' || last == '\\' || f->n_entries >= f->allocated_entries ||
            f->n_entries >= UNIT_ENTRIES_MAX)
                return LINE_NOT_SIMPLE;

        l = f->arena + pl->start;
        eq = find_equals(l, n);
        if (!eq || is_blank(eq[-1]))
                return LINE_NOT_SIMPLE;
        kn = (size_t) (eq - l);
        v = eq + 1;
        /* After '=' the value's leading blanks; its end is not blank. */
        while (v < l + n && is_blank(*v))
                v++;
        l[kn] = '\0';
        l[n] = '\0';
        f->entries[f->n_entries++] = (UnitEntry) {
                .section = ps->section,
                .key = l,
                .key_len = (unsigned) kn,
                .value = v,
                .value_len = (unsigned) (l + n - v),
                .raw_start = pl->start,
                .raw_end = pl->start + n + 1,
                .line_first = line,
                .line_last = line,
        };
        return 0;
}

/* What the first byte of a line that parse_run() looks at says about it
 * (such a line has no byte below 0x0e but its LF, and none above 0x7f):
 * a key may start with it; the line is passed over (a comment; an LF
 * first is an empty line); a section header; or the line goes the general
 * way (a blank first, '=', a control byte). */
enum {
        FIRST_KEY,
        FIRST_SKIP,
        FIRST_HEADER,
        FIRST_OTHER,
};

static const uint8_t first_byte_class[256] = {
        3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 1, 3, 3, 3, 3, 3,
        3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
        3, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 3, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
        3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
        3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
        3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
        3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
        3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
        3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
        3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3,
};

/* Whether a key line may end with the byte: not a blank or a control
 * byte (there is nothing to strip) and not a backslash (no continuation). */
static const uint8_t key_line_end_byte[256] = {
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

/* The run of lines of the common kinds from the scanner's position on,
 * taken straight from the block marks: a line whose first mark is its
 * terminator, a lone LF (so it has no byte that is a control byte or
 * non-ASCII, no tab, no CR: its only blank is the space), outside a
 * continuation, that is empty, a comment, a section header "[...]", or
 * "Key=value" in a section with no space at either end of the line or
 * before '=' (what parse_line_fast() takes, on those lines). Any other
 * line goes the general way, which gives the same outcome for these: a
 * line may go that way for no other reason than that this loop does not
 * look further (a line of more than UNIT_LINE_MAX - 64 bytes). The state
 * the loop changes is held in locals, and written back before anything
 * else may read it. Stops before the first other line (the scanner left
 * at its start, for line_scanner_next()) or at the end; returns what
 * parsing a section header returned when that is not 0. */
static _always_inline_ int parse_run(ParseState *ps, LineScanner *s, unsigned *line_io) {
        UnitFile *f = ps->f;
        const char *data = s->data;
        char *arena = f->arena;
        size_t size = s->size, pos = s->pos, base = s->base, line = *line_io;
        uint64_t m;
        UnitEntry *e = f->entries + f->n_entries,
                  *e_cap = f->entries + MIN(f->allocated_entries, UNIT_ENTRIES_MAX),
                  *e_end = ps->section >= 0 ? e_cap : e;   /* no room before a section */
        int section = ps->section, r = 0;
        LineBytes eqv, lfv;

        if (ps->in_cont || pos >= size)
                return 0;
        line_bytes_init(&eqv, &lfv);
        while (pos - base >= 64)
                line_scanner_load(s, base += 64);
        m = s->marks & (~UINT64_C(0) << (pos - base));

        /* The end of the data needs no check of its own: the NUL at
         * data[size] is marked, and is no line end for this loop. */
        for (;;) {
                size_t start = pos, end, n, kn;
                unsigned char c, next;
                char *l, *eq, *v;

                /* A block without marks is never the last one: that has
                 * data[size] marked. Most lines end in the block they
                 * start in: the compiler is told so, and lays the loop
                 * out for it (about 0.7M Ir less on stream.txt). */
                while (__builtin_expect(m == 0, 0)) {
                        base += 64;
                        if (base - start >= UNIT_LINE_MAX - 64)
                                goto out;
                        m = line_scanner_block(s, base);
                }
                end = base + (unsigned) __builtin_ctzll(m);
                if (data[end] != '\n')
                        break;
                /* "\n\r" and "\n\0" are one terminator, but the NUL at
                 * data[size] is no part of the data. */
                next = (unsigned char) data[end + 1];
                if (next <= '\r' && (next == '\r' || (next == '\0' && end + 1 < size)))
                        break;
                n = end - start;
                c = (unsigned char) data[start];
                if (first_byte_class[c] == FIRST_KEY) {
                        if (!key_line_end_byte[(unsigned char) data[end - 1]] || e >= e_end)
                                break;
                        l = arena + start;
                        eq = find_equals_in_line(l, eqv, lfv);
                        if (!eq || eq[-1] == ' ')
                                break;
                        kn = (size_t) (eq - l);
                        /* After '=' the value's leading spaces; its end is
                         * not one, and the LF after it ends the search at
                         * the latest. */
                        v = eq + 1;
                        while (*v == ' ')
                                v++;
                        l[kn] = '\0';
                        l[n] = '\0';
                        *e++ = (UnitEntry) {
                                .section = section,
                                .key = l,
                                .key_len = (unsigned) kn,
                                .value = v,
                                .value_len = (unsigned) (l + n - v),
                                .raw_start = start,
                                .raw_end = end + 1,
                                .line_first = (unsigned) line + 1,
                                .line_last = (unsigned) line + 1,
                        };
                } else if (first_byte_class[c] == FIRST_HEADER) {
                        if (data[end - 1] != ']')
                                break;
                        f->n_entries = (size_t) (e - f->entries);
                        r = parse_section_header(ps, arena + start, n, (unsigned) line + 1, end + 1);
                        if (r != 0) {
                                /* The header's line is read. */
                                pos = end + 1;
                                line++;
                                goto out;
                        }
                        section = ps->section;
                        e_end = e_cap;
                } else if (first_byte_class[c] != FIRST_SKIP)
                        break;
                line++;
                pos = end + 1;
                m &= m - 1;
        }
out:
        /* The scanner resumes at pos (a line that goes the general way, or
         * the end), with the marks of the block it is in; the marks held
         * are of an earlier one. */
        if (pos < size && (pos & ~(size_t) 63) != s->base)
                line_scanner_load(s, pos & ~(size_t) 63);
        s->pos = pos;
        f->n_entries = (size_t) (e - f->entries);
        *line_io = (unsigned) line;
        return r;
}

static _always_inline_ int parse_all_with(ParseState *ps, bool avx2, bool padded) {
        UnitFile *f = ps->f;
        LineScanner sc;
        unsigned line = 0;
        PhysLine pl;
        int r = 0;

        line_scanner_init(&sc, f->data, f->size, avx2, padded);
        for (;;) {
#ifndef UNIT_PARSER_GENERAL_ONLY
                r = parse_run(ps, &sc, &line);
                if (r != 0)
                        break;
#endif
                if (!line_scanner_next(&sc, &pl))
                        break;
                line++;
#ifdef UNIT_PARSER_GENERAL_ONLY
                r = LINE_NOT_SIMPLE;
#else
                r = parse_line_fast(ps, &pl, line);
#endif
                if (r == LINE_NOT_SIMPLE)
                        r = parse_physical(ps, &pl, line);
                if (r != 0)
                        break;
        }
        f->n_lines = line;
        if (r == 0 && ps->in_cont) {
                r = add_diag(ps, DIAG_NOTE, EFFECT_NONE, "syntax.continuation-at-eof",
                             ps->cont_line_last, current_section_name(ps),
                             "Continuation still open at end of file; systemd parses it as the last line");
                if (r == 0)
                        r = flush_continuation(ps);
        }
        /* After a failure, count the remaining lines for the record. */
        if (r > 0)
                while (line_scanner_next(&sc, &pl))
                        f->n_lines++;
        if (r < 0)
                return r;
        if (ps->suppressed > 0)
                return diag_add(&f->diags, DIAG_NOTE, EFFECT_NONE, "diag.suppressed", f->path, 0,
                                NULL, NULL, "%u further diagnostics for this file were suppressed",
                                ps->suppressed);
        return 0;
}

/* The copy compiled for AVX2, which reads the file's blocks 32 bytes at a
 * time; chosen per file, when the CPU has it. */
#ifdef UNIT_LEXER_AVX2
static __attribute__((target("avx2"))) int parse_all_avx2(ParseState *ps, bool padded) {
        return parse_all_with(ps, true, padded);
}
#endif

/* padded: the file's bytes are followed by 63 more that may be read. */
static int parse_all(ParseState *ps, bool padded) {
#ifdef UNIT_LEXER_AVX2
        if (line_scanner_has_avx2())
                return parse_all_avx2(ps, padded);
#endif
        return parse_all_with(ps, false, padded);
}

/* Entries and sections a UnitFile has room for in its own allocation: a
 * typical file's (an assignment line is rarely shorter than 24 bytes;
 * most units have at most four sections). */
#define INLINE_SECTIONS 4
/* Readable bytes after a copied file's NUL: a block of 64 from its last
 * byte on stays in the allocation. */
#define LEXER_PAD 63
static size_t inline_entries_for(size_t size) {
        return MIN(size / 24 + 8, (size_t) 1024);
}

/* The room a UnitFile takes for a file of size bytes: the model, its first
 * entries and sections (head), and its arena: a copy of the file (size bytes
 * and the NUL after them), in which the stored strings of physical lines
 * are ended in place; the path and the unit name; and a copy of each joined
 * continuation, no longer than the lines it joins (at least one terminator
 * among them pays for its NUL): twice the size and a byte bound them.
 * copy: the file's own bytes go in it too, and LEXER_PAD bytes after them
 * (the lexer reads the last block in place). 0 on overflow. */
static _always_inline_ size_t unit_file_room(size_t size, size_t path_len, size_t name_len, bool copy, size_t *ret_head,
                             size_t *ret_arena) {
        size_t head = sizeof(UnitFile) + inline_entries_for(size) * sizeof(UnitEntry) +
                      INLINE_SECTIONS * sizeof(UnitSection);

        if (size > (SIZE_MAX - 256 - head) / 3 || path_len + name_len > SIZE_MAX - 256 - head - 3 * size - 3)
                return 0;
        *ret_head = head;
        *ret_arena = 2 * size + 64 + path_len + name_len + 2;
        return head + *ret_arena + (copy ? size + 1 + LEXER_PAD : 0);
}

/* Lays the model out in mem (room bytes from unit_file_room()) and
 * parses. data is the file: owned (the caller's malloc), or already in
 * mem (copy). On failure mem is freed, and data with it. */
static int parse_in(void *mem, size_t allocation, size_t head, size_t arena_size, char *data, size_t size,
                    bool copy, const char *path, size_t path_len, const char *unit_name, size_t name_len,
                    UnitType type, bool is_dropin, UnitFile **ret) {
        _cleanup_(unit_file_freep) UnitFile *f = mem;
        ParseState ps;
        size_t n_entries = inline_entries_for(size);
        int r;

        /* Cleared with plain stores (see zero_small()), once per file. */
        zero_small(&ps, sizeof(ps));
        ps.section = -1;
        zero_small(f, sizeof(*f));
        f->data = data;
        f->size = size;
        f->data_inline = copy;
        f->allocation = allocation;
        f->is_dropin = is_dropin;
        f->type = unit_name ? type : _UNIT_TYPE_INVALID;
        f->inline_entries = (UnitEntry *) (void *) (f + 1);
        f->allocated_entries = n_entries;
        f->arena = (char *) f + head;
        f->arena_size = arena_size;
        f->inline_sections = (UnitSection *) (void *) (f->inline_entries + n_entries);
        f->allocated_sections = INLINE_SECTIONS;
        f->entries = f->inline_entries;
        f->sections = f->inline_sections;
        /* A copied file is in the arena already (copy_twice()). */
        if (!copy)
                memcpy(f->arena, data, size + 1);
        f->arena_used = size + 1;
        f->path = arena_strndup(f, path, path_len);
        f->unit_name = unit_name ? arena_strndup(f, unit_name, name_len) : NULL;
        /* The searches that read the arena sixteen bytes at a time read
         * up to that far past the file's copy: initialised bytes. */
        memset(f->arena + f->arena_used, 0, UNIT_ARENA_SLACK);

        ps.f = f;
        ps.type_section = unit_type_section(f->type);
        if (ps.type_section)
                ps.type_section_len = strlen(ps.type_section);
        r = parse_all(&ps, copy);
        /* Only a continuation made it hold anything. */
        if (ps.cont.data)
                strbuf_done(&ps.cont);
        if (r < 0)
                return r;

        *ret = TAKE_PTR(f);
        return 0;
}

int unit_file_parse(char *data, size_t size, const char *path, const char *unit_name,
                    bool is_dropin, UnitFile **ret) {
        size_t path_len = strlen(path), name_len = unit_name ? strlen(unit_name) : 0, head, arena_size, room;
        void *mem;

        room = unit_file_room(size, path_len, name_len, false, &head, &arena_size);
        mem = room > 0 ? malloc(room) : NULL;
        if (!mem) {
                free(data);
                return -ENOMEM;
        }
        return parse_in(mem, room, head, arena_size, data, size, false, path, path_len, unit_name, name_len,
                        unit_name ? unit_type_from_name(unit_name) : _UNIT_TYPE_INVALID, is_dropin, ret);
}

/* memcpy() to two places, the source read once (a stream's file goes to
 * the UnitFile as its bytes and as the arena's copy): with AVX2 32 bytes
 * at a time, the last block overlapping the one before. */
#ifdef UNIT_LEXER_AVX2
static __attribute__((target("avx2"))) void copy_twice_avx2(char *a, char *b, const char *src, size_t n) {
        size_t i = 0;

        for (; n - i >= 32; i += 32) {
                __m256i v = _mm256_loadu_si256((const __m256i *) (const void *) (src + i));

                _mm256_storeu_si256((__m256i *) (void *) (a + i), v);
                _mm256_storeu_si256((__m256i *) (void *) (b + i), v);
        }
        if (i < n) {
                __m256i v;

                if (n < 32) {
                        memcpy(a, src, n);
                        memcpy(b, src, n);
                        return;
                }
                v = _mm256_loadu_si256((const __m256i *) (const void *) (src + n - 32));
                _mm256_storeu_si256((__m256i *) (void *) (a + n - 32), v);
                _mm256_storeu_si256((__m256i *) (void *) (b + n - 32), v);
        }
}
#endif

static void copy_twice(char *a, char *b, const char *src, size_t n) {
#ifdef UNIT_LEXER_AVX2
        if (line_scanner_has_avx2()) {
                copy_twice_avx2(a, b, src, n);
                return;
        }
#endif
        memcpy(a, src, n);
        memcpy(b, src, n);
}

/* A recycled allocation is used when it is large enough; a new one is a
 * little larger than needed, so that most files after it fit too. */
#define RECYCLE_MIN ((size_t) 16384)

int unit_file_parse_copy_n(const char *data, size_t size, const char *path, size_t path_len,
                           const char *unit_name, size_t name_len, UnitType type, bool is_dropin,
                           UnitFile **spare, UnitFile **ret) {
        size_t head, arena_size, room;
        void *mem = NULL;
        char *copy;

        room = unit_file_room(size, path_len, name_len, true, &head, &arena_size);
        if (room == 0)
                return -ENOMEM;
        if (spare && *spare && (*spare)->allocation >= room) {
                room = (*spare)->allocation;
                mem = TAKE_PTR(*spare);
        } else {
                if (spare)
                        room = MAX(room + room / 4, RECYCLE_MIN);
                mem = malloc(room);
                if (!mem)
                        return -ENOMEM;
        }
        /* The file's bytes after the arena, and at its start. */
        copy = (char *) mem + head + arena_size;
        copy_twice(copy, (char *) mem + head, data, size);
        copy[size] = '\0';
        /* What the lexer reads past the end is not looked at, but is
         * initialised all the same. */
        memset(copy + size + 1, 0, LEXER_PAD);
        ((char *) mem + head)[size] = '\0';
        return parse_in(mem, room, head, arena_size, copy, size, true, path, path_len, unit_name, name_len, type,
                        is_dropin, ret);
}

int unit_file_parse_copy(const char *data, size_t size, const char *path, const char *unit_name,
                         bool is_dropin, UnitFile **spare, UnitFile **ret) {
        return unit_file_parse_copy_n(data, size, path, strlen(path), unit_name, unit_name ? strlen(unit_name) : 0,
                                      unit_name ? unit_type_from_name(unit_name) : _UNIT_TYPE_INVALID, is_dropin,
                                      spare, ret);
}
