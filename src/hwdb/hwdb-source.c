/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "hwdb-source.h"

/* How much of an offending line a message quotes. */
#define QUOTE_MAX 80

enum {
        EOL_NONE = 0,
        EOL_NUL = 1 << 0,
        EOL_LF = 1 << 1,
        EOL_CR = 1 << 2,
};

static int eol_kind(char c) {
        switch (c) {
        case '\n':
                return EOL_LF;
        case '\r':
                return EOL_CR;
        case '\0':
                return EOL_NUL;
        default:
                return EOL_NONE;
        }
}

/* Splits lines the way systemd's read_line() does: a line ends at LF, CR
 * or NUL, and a run of end markers counts as one break as long as no kind
 * repeats (so CRLF and LFCR are one break, LFLF two); after a NUL the next
 * byte always starts a new line. Returns 1 with the line, 0 at the end,
 * -ENOBUFS for a line of HWDB_LINE_MAX bytes or more. */
static int next_line(const char *buf, size_t size, size_t *pos, const char **ret, size_t *ret_len) {
        size_t p = *pos, start = p, n = 0;
        int seen = EOL_NONE;

        if (p >= size)
                return 0;

        for (;;) {
                int kind;

                if (n >= HWDB_LINE_MAX)
                        return -ENOBUFS;
                if (p >= size)
                        break;
                kind = eol_kind(buf[p]);
                if ((seen & EOL_NUL) || (kind == EOL_NONE && seen != EOL_NONE) ||
                    (kind != EOL_NONE && (seen & kind)))
                        break;
                p++;
                if (kind != EOL_NONE) {
                        seen |= kind;
                        continue;
                }
                n++;
        }

        *pos = p;
        *ret = buf + start;
        *ret_len = n;
        return 1;
}

static bool is_space(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}

static bool is_blank(char c) {
        return c == ' ' || c == '\t';
}

typedef struct Span {
        const char *p;
        size_t len;
} Span;

typedef struct Parser {
        HwdbTrie *trie;
        const char *filename;
        uint32_t filename_id;
        uint16_t priority;
        DiagList *diags;
        Span *matches;
        size_t n_matches, matches_allocated;
        int n_records;
} Parser;

static int quoted_len(size_t len) {
        return (int) MIN(len, (size_t) QUOTE_MAX);
}

static const char *ellipsis(size_t len) {
        return len > QUOTE_MAX ? "..." : "";
}

/* A macro so the format strings stay literals the compiler can check. */
#define warn_line(ps, line, rule, fmt, s, len)                                          \
        diag_add((ps)->diags, DIAG_WARNING, EFFECT_LINE_IGNORED, (rule), (ps)->filename, \
                 (line), NULL, NULL, fmt, quoted_len(len), (s), ellipsis(len))

static int check_match(Parser *ps, const char *s, size_t len, uint32_t line) {
        size_t g;

        for (g = 0; g < len; g++)
                if (s[g] == '*' || s[g] == '?' || s[g] == '[')
                        break;
        if (g < len && len - g > HWDB_GLOB_TAIL_MAX)
                return diag_add(ps->diags, DIAG_WARNING, EFFECT_NONE, "hwdb.glob-too-long",
                                ps->filename, line, NULL, NULL,
                                "Glob part of match '%.*s%s' is %zu bytes long; systemd-hwdb aborts "
                                "on keys that reach it (limit %d), unitguard matches it",
                                quoted_len(len), s, ellipsis(len), len - g, HWDB_GLOB_TAIL_MAX);
        return 0;
}

static int add_property(Parser *ps, const char *s, size_t len, uint32_t line) {
        const char *eq, *key, *value;
        size_t key_len, value_len;
        uint32_t key_id, value_id;
        int r;

        eq = memchr(s, '=', len);
        if (!eq)
                return warn_line(ps, line, "hwdb.missing-equals",
                                 "Key-value pair expected but got '%.*s%s', ignoring", s, len);

        key = s;
        key_len = (size_t) (eq - s);
        value = eq + 1;
        value_len = len - key_len - 1;

        /* Runs of leading blanks shrink to their last blank, which stays
         * part of the stored key. */
        while (key_len >= 2 && is_blank(key[0]) && is_blank(key[1])) {
                key++;
                key_len--;
        }
        if (key_len <= 1)
                return warn_line(ps, line, "hwdb.empty-key", "Empty key in '%.*s%s', ignoring", s,
                                 len);
        if (key[0] != ' ') {
                r = diag_add(ps->diags, DIAG_NOTE, EFFECT_NONE, "hwdb.hidden-key", ps->filename,
                             line, NULL, NULL,
                             "Key '%.*s' starts with a tab after indentation; systemd stores it "
                             "but never returns it",
                             quoted_len(key_len - 1), key + 1);
                if (r < 0)
                        return r;
        }

        r = hwdb_trie_intern(ps->trie, key, key_len, &key_id);
        if (r < 0)
                return r;
        r = hwdb_trie_intern(ps->trie, value, value_len, &value_id);
        if (r < 0)
                return r;

        for (size_t i = 0; i < ps->n_matches; i++) {
                r = hwdb_trie_insert(ps->trie, ps->matches[i].p, ps->matches[i].len, key_id, value_id,
                                     ps->filename_id, ps->priority, line);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int add_match(Parser *ps, const char *s, size_t len, uint32_t line) {
        int r;

        r = GREEDY_REALLOC(ps->matches, ps->matches_allocated, ps->n_matches + 1);
        if (r < 0)
                return r;
        ps->matches[ps->n_matches++] = (Span) { s, len };
        return check_match(ps, s, len, line);
}

int hwdb_source_parse(HwdbTrie *t, const char *buf, size_t size, const char *filename,
                      uint16_t priority, DiagList *diags) {
        enum { NONE, MATCH, DATA } state = NONE;
        Parser ps = {
                .trie = t,
                .filename = filename,
                .priority = priority,
                .diags = diags,
        };
        uint32_t line_number = 0;
        size_t pos = 0;
        int r;

        r = hwdb_trie_intern(t, filename, strlen(filename), &ps.filename_id);
        if (r < 0)
                return r;

        for (;;) {
                const char *line, *hash;
                size_t len;

                r = next_line(buf, size, &pos, &line, &len);
                if (r == -ENOBUFS) {
                        /* systemd gives up on the file here, silently; what
                         * was read so far stays in the database. */
                        r = diag_add(diags, DIAG_ERROR, EFFECT_LINE_IGNORED, "hwdb.line-too-long",
                                     filename, line_number + 1, NULL, NULL,
                                     "Line is %zu bytes or longer; systemd-hwdb stops reading the "
                                     "file here and ignores the rest of it",
                                     HWDB_LINE_MAX);
                        state = NONE;
                        break;
                }
                if (r <= 0)
                        break;
                line_number++;

                /* A comment line changes nothing, not even the state. */
                if (len > 0 && line[0] == '#')
                        continue;

                /* Any other '#' cuts the line, then trailing white space goes. */
                hash = memchr(line, '#', len);
                if (hash)
                        len = (size_t) (hash - line);
                while (len > 0 && is_space(line[len - 1]))
                        len--;

                switch (state) {
                case NONE:
                        if (len == 0)
                                break;
                        if (line[0] == ' ') {
                                r = warn_line(&ps, line_number, "hwdb.indented-property",
                                              "Match expected but got indented property '%.*s%s', "
                                              "ignoring line",
                                              line, len);
                                if (r < 0)
                                        goto finish;
                                break;
                        }
                        state = MATCH;
                        ps.n_matches = 0;
                        r = add_match(&ps, line, len, line_number);
                        if (r < 0)
                                goto finish;
                        break;

                case MATCH:
                        if (len == 0) {
                                r = diag_add(diags, DIAG_WARNING, EFFECT_LINE_IGNORED,
                                             "hwdb.record-without-properties", filename,
                                             line_number, NULL, NULL,
                                             "Property expected, ignoring record with no properties");
                                if (r < 0)
                                        goto finish;
                                state = NONE;
                                break;
                        }
                        if (line[0] != ' ') {
                                r = add_match(&ps, line, len, line_number);
                                if (r < 0)
                                        goto finish;
                                break;
                        }
                        state = DATA;
                        ps.n_records++;
                        r = add_property(&ps, line, len, line_number);
                        if (r < 0)
                                goto finish;
                        break;

                case DATA:
                        if (len == 0) {
                                state = NONE;
                                break;
                        }
                        if (line[0] != ' ') {
                                r = warn_line(&ps, line_number, "hwdb.match-after-property",
                                              "Property or empty line expected, got '%.*s%s', "
                                              "ignoring record",
                                              line, len);
                                if (r < 0)
                                        goto finish;
                                state = NONE;
                                break;
                        }
                        r = add_property(&ps, line, len, line_number);
                        if (r < 0)
                                goto finish;
                        break;
                }
        }

        r = 0;
        if (state == MATCH)
                r = diag_add(diags, DIAG_WARNING, EFFECT_LINE_IGNORED,
                             "hwdb.record-without-properties", filename, line_number, NULL, NULL,
                             "Property expected, ignoring record with no properties");

finish:
        free(ps.matches);
        return r < 0 ? r : ps.n_records;
}
