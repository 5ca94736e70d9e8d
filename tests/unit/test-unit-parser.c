/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The parser against systemd's rules, one rule per test (unit-semantics.md §1). */
#include <stdlib.h>
#include <string.h>

#include "basic/json-writer.h"
#include "tests.h"
#include "unit/unit-file.h"

static UnitFile *parse_n(const char *text, size_t n, const char *name) {
        char *data = malloc(n + 1);
        UnitFile *f = NULL;

        memcpy(data, text, n);
        data[n] = '\0';
        if (unit_file_parse(data, n, "test", name, false, &f) < 0)
                abort();
        return f;
}

static UnitFile *parse(const char *text) {
        return parse_n(text, strlen(text), "t.service");
}

/* "Key=Value|Key=Value" of all entries, for compact checks. */
static char *entries(const UnitFile *f) {
        StrBuf b = {};

        for (size_t i = 0; i < f->n_entries; i++)
                strbuf_printf(&b, "%s%s=%s", i ? "|" : "", f->entries[i].key, f->entries[i].value);
        return strbuf_steal(&b);
}

/* "rule@line rule@line" of all diagnostics. */
static char *diags(const UnitFile *f) {
        StrBuf b = {};

        for (size_t i = 0; i < f->diags.n; i++)
                strbuf_printf(&b, "%s%s@%u", i ? " " : "", f->diags.items[i].rule, f->diags.items[i].line);
        return strbuf_steal(&b);
}

#define EXPECT(text, want_entries, want_diags)                                  \
        do {                                                                    \
                UnitFile *_f = parse(text);                                     \
                char *_e = entries(_f), *_d = diags(_f);                        \
                CHECK_STR_EQ(_e, want_entries);                                 \
                CHECK_STR_EQ(_d, want_diags);                                   \
                free(_e);                                                       \
                free(_d);                                                       \
                unit_file_free(_f);                                             \
        } while (0)

TEST(line_terminators) {
        /* A lone CR ends a line: two assignments, and a warning. */
        EXPECT("[Service]\nUser=bin\rGroup=a:b\n", "User=bin|Group=a:b", "syntax.lone-cr@2");
        /* CRLF and LFCR are one terminator each; LF LF is two. */
        EXPECT("[Service]\r\nUser=bin\r\nGroup=x\r\n", "User=bin|Group=x", "");
        EXPECT("[Service]\n\rUser=bin\n\rGroup=x", "User=bin|Group=x", "");
        EXPECT("[Service]\r\rUser=bin", "User=bin", "syntax.lone-cr@1 syntax.lone-cr@2");
        {
                UnitFile *f = parse("[Service]\n\n\nUser=bin\n");
                CHECK_INT_EQ(f->entries[0].line_first, 4);
                CHECK_INT_EQ(f->n_lines, 4);
                unit_file_free(f);
        }
}

TEST(nul_bytes) {
        static const char text[] = "[Service]\nUser=bin\0Group=a:b\n";
        UnitFile *f = parse_n(text, sizeof(text) - 1, "t.service");
        char *e = entries(f), *d = diags(f);

        CHECK_STR_EQ(e, "User=bin|Group=a:b");
        CHECK_STR_EQ(d, "syntax.nul-byte@2");
        CHECK_INT_EQ(f->entries[1].line_first, 3);
        free(e);
        free(d);
        unit_file_free(f);

        /* LF then NUL is one terminator; NUL then LF is two. */
        static const char t2[] = "[Service]\n\0User=bin\0\nGroup=x";
        f = parse_n(t2, sizeof(t2) - 1, "t.service");
        CHECK_INT_EQ(f->n_entries, 2);
        CHECK_INT_EQ(f->entries[0].line_first, 2);
        CHECK_INT_EQ(f->entries[1].line_first, 4);
        unit_file_free(f);
}

TEST(comments) {
        /* Only whole-line comments; '#' after text is data. */
        EXPECT("[Service]\n# User=root\n  ; x\nUser=bin # x\n", "User=bin # x", "");
        EXPECT("[Service]\nExecStart=/bin/true # x\n", "ExecStart=/bin/true # x", "");
        /* A comment ending in a backslash does not continue. */
        EXPECT("[Service]\n# comment \\\nExecStart=/bin/true\n", "ExecStart=/bin/true", "");
}

TEST(continuations) {
        /* The backslash becomes a space; the next line is appended verbatim. */
        EXPECT("[Service]\nEnvironment=A=1 \\\n  B=2\n", "Environment=A=1    B=2", "");
        /* A blank line ends it. */
        EXPECT("[Service]\nEnvironment=A=1 \\\n\nExecStart=/bin/true\n",
               "Environment=A=1|ExecStart=/bin/true", "");
        /* Comment lines inside are skipped and the continuation goes on. */
        EXPECT("[Service]\nEnvironment=A=1 \\\n# c\nExecStart=/bin/true\n",
               "Environment=A=1  ExecStart=/bin/true", "");
        /* An escaped backslash does not continue; nor one followed by a blank. */
        EXPECT("[Service]\nEnvironment=A=1 \\\\\nExecStart=/bin/true\n",
               "Environment=A=1 \\\\|ExecStart=/bin/true", "");
        EXPECT("[Service]\nExecStart=/bin/echo a \\ \nUser=bin\n", "ExecStart=/bin/echo a \\|User=bin", "");
        /* Parity is counted over the joined text. */
        EXPECT("[Service]\nA=x\\\n\\\nB\n", "A=x  B", "");
        /* Open at the end of the file: parsed as the last line. */
        EXPECT("[Service]\nA=1 \\", "A=1", "syntax.continuation-at-eof@2");
        {
                UnitFile *f = parse("[Service]\nEnvironment=A=1 \\\n# c\nB=2\n\nC=3\n");
                CHECK_INT_EQ(f->entries[0].line_first, 2);
                CHECK_INT_EQ(f->entries[0].line_last, 4);
                CHECK_INT_EQ(f->entries[0].raw_start, 10);
                CHECK_INT_EQ(f->entries[0].raw_end, strlen("[Service]\nEnvironment=A=1 \\\n# c\nB=2\n"));
                unit_file_free(f);
        }
}

TEST(bom) {
        UnitFile *f = parse("\xef\xbb\xbf[Unit]\nA=1\n");
        CHECK(f->has_bom);
        CHECK_INT_EQ(f->n_sections, 1);
        CHECK_INT_EQ(f->n_entries, 1);
        unit_file_free(f);
        /* The comment test comes before the BOM is removed. */
        EXPECT("\xef\xbb\xbf# comment\n[Unit]\nA=1\n", "A=1", "syntax.outside-section@1");
        /* Only one BOM is stripped; a second one is data (and a bad key). */
        EXPECT("\xef\xbb\xbf[Unit]\n\xef\xbb\xbf" "A=1\n", "\xef\xbb\xbf" "A=1", "");
}

TEST(assignments) {
        EXPECT("[Service]\nUser = bin \n", "User=bin", "");
        EXPECT("[Service]\nUser=\n", "User=", "");
        EXPECT("[Service]\nUser=a\nUser=b\nUser=\n", "User=a|User=b|User=", "");
        EXPECT("[Service]\nA=b=c\n", "A=b=c", "");
        EXPECT("[Service]\nX-Foo=1\nexecstart=/bin/true\n", "X-Foo=1|execstart=/bin/true", "");
        EXPECT("[Service]\nnovalue\n=x\n", "", "syntax.missing-equals@2 syntax.missing-key@3");
        EXPECT("A=1\nfoo\n[Unit]\n", "A=1", "syntax.outside-section@1 syntax.outside-section@2");
}

TEST(entries_outside_sections) {
        UnitFile *f = parse("A=1\nfoo\n[Unit]\nB=2\n");
        char *d = diags(f);

        CHECK_STR_EQ(d, "syntax.outside-section@1 syntax.outside-section@2");
        /* The entry is kept in the model (for the JSON view) without a section. */
        CHECK_INT_EQ(f->n_entries, 2);
        CHECK_INT_EQ(f->entries[0].section, -1);
        CHECK_INT_EQ(f->entries[1].section, 0);
        free(d);
        unit_file_free(f);
}

TEST(sections) {
        EXPECT("[Unit]\nA=1\n[X-Vendor]\nB=2\n", "A=1|B=2", "");
        EXPECT("[service]\nA=1\n[Socket]\nB=2\n[]\n", "A=1|B=2",
               "syntax.unknown-section@1 syntax.unknown-section@3 syntax.unknown-section@5");
        /* Sections of the type are known, others are not: a socket has [Socket]. */
        {
                UnitFile *f = parse_n("[Socket]\n", 9, "t.socket");
                CHECK_INT_EQ(f->sections[0].state, SECTION_KNOWN);
                unit_file_free(f);
        }
        /* A repeated section just continues. */
        EXPECT("[Unit]\nA=1\n[Unit]\nB=2\n", "A=1|B=2", "");
}

/* Which bytes a section name may hold (systemd's string_is_safe(): no
 * control characters, DEL, quotes or backslashes), and which names a type
 * knows, by the whole name: not a prefix of it, nor one letter more. */
TEST(section_names) {
        static const struct {
                const char *unit, *section;
                SectionState state;
        } names[] = {
                { "t.service", "Unit", SECTION_KNOWN },       { "t.service", "Install", SECTION_KNOWN },
                { "t.service", "Service", SECTION_KNOWN },    { "t.service", "Servic", SECTION_UNKNOWN },
                { "t.service", "Services", SECTION_UNKNOWN }, { "t.service", "Uni", SECTION_UNKNOWN },
                { "t.service", "Installs", SECTION_UNKNOWN }, { "t.service", "Socket", SECTION_UNKNOWN },
                { "t.socket", "Socket", SECTION_KNOWN },      { "t.target", "Install", SECTION_KNOWN },
                { "t.target", "Target", SECTION_UNKNOWN },    { "t.automount", "Automount", SECTION_KNOWN },
                { "t.service", "X-Service", SECTION_EXTENSION },
                /* Compared by their first and last four bytes: a byte off
                 * anywhere, names of four to nine bytes. */
                { "t.service", "Instal", SECTION_UNKNOWN },   { "t.service", "Inxtall", SECTION_UNKNOWN },
                { "t.service", "Servixe", SECTION_UNKNOWN },  { "t.service", "Unix", SECTION_UNKNOWN },
                { "t.swap", "Swap", SECTION_KNOWN },          { "t.swap", "Swa", SECTION_UNKNOWN },
                { "t.path", "Path", SECTION_KNOWN },          { "t.path", "Paths", SECTION_UNKNOWN },
                { "t.timer", "Timer", SECTION_KNOWN },        { "t.timer", "Timex", SECTION_UNKNOWN },
                { "t.automount", "Automounx", SECTION_UNKNOWN }, { "t.automount", "Automount ", SECTION_UNKNOWN },
        };

        for (unsigned c = 1; c < 0x80; c++) {
                char text[16];
                bool safe = c >= 0x20 && c != 0x7f && c != '"' && c != '\'' && c != '\\';
                UnitFile *f;

                if (c == '\n' || c == '\r')
                        continue;
                snprintf(text, sizeof(text), "[A%cB]\n", (char) c);
                f = parse_n(text, strlen(text), "t.service");
                CHECK_INT_EQ(f->failed_line, safe ? 0 : 1);
                CHECK_INT_EQ(f->n_sections, safe ? 1 : 0);
                unit_file_free(f);
        }
        for (size_t i = 0; i < ELEMENTSOF(names); i++) {
                char text[64];
                UnitFile *f;

                snprintf(text, sizeof(text), "[%s]\n", names[i].section);
                f = parse_n(text, strlen(text), names[i].unit);
                CHECK_INT_EQ(f->n_sections, 1);
                CHECK_INT_EQ(f->sections[0].state, names[i].state);
                unit_file_free(f);
        }
}

static void expect_failure(const char *text, size_t n, const char *rule, unsigned line) {
        UnitFile *f = parse_n(text, n, "t.service");

        CHECK_INT_EQ(f->failed_line, line);
        CHECK(f->diags.n >= 1);
        if (f->diags.n >= 1) {
                const Diag *d = &f->diags.items[f->diags.n - 1];
                CHECK_STR_EQ(d->rule, rule);
                CHECK_INT_EQ(d->effect, EFFECT_FILE_FAILED);
                CHECK_INT_EQ(d->severity, DIAG_ERROR);
        }
        unit_file_free(f);
}

TEST(file_failures) {
        const char *t;

        t = "[Service]\nUser=bin\n[Service] # c\nUser=root\n";
        expect_failure(t, strlen(t), "syntax.invalid-section-header", 3);
        {
                /* systemd stops reading: nothing after the failure counts. */
                UnitFile *f = parse(t);
                CHECK_INT_EQ(f->n_entries, 1);
                CHECK_INT_EQ(f->n_lines, 4);
                unit_file_free(f);
        }
        t = "[Serv\"ice]\n";
        expect_failure(t, strlen(t), "syntax.bad-section-name", 1);
        t = "[Unit\n";
        expect_failure(t, strlen(t), "syntax.invalid-section-header", 1);
        t = "[";
        expect_failure(t, strlen(t), "syntax.invalid-section-header", 1);
        t = "[Unit]\nDescription=\xff\n";
        expect_failure(t, strlen(t), "syntax.invalid-utf8", 2);
        /* Noncharacters count as invalid for systemd; U+FDF0 does not. */
        t = "[Unit]\nDescription=\xef\xbf\xbe\n";
        expect_failure(t, strlen(t), "syntax.invalid-utf8", 2);
        t = "[Unit]\nDescription=\xef\xb7\x90\n";
        expect_failure(t, strlen(t), "syntax.invalid-utf8", 2);
        EXPECT("[Unit]\nDescription=\xef\xb7\xb0 \xe2\x80\x8b\n", "Description=\xef\xb7\xb0 \xe2\x80\x8b", "");
        /* Overlong encodings and surrogates are invalid. */
        t = "[Unit]\nDescription=\xc0\xaf\n";
        expect_failure(t, strlen(t), "syntax.invalid-utf8", 2);
        t = "[Unit]\nDescription=\xed\xa0\x80\n";
        expect_failure(t, strlen(t), "syntax.invalid-utf8", 2);
}

TEST(line_length_limits) {
        size_t n = UNIT_LINE_MAX + 16;
        char *buf = malloc(n);
        UnitFile *f;

        /* 1048575 bytes load, 1048576 fail the file. */
        memcpy(buf, "[Unit]\nDescription=", 19);
        memset(buf + 19, 'a', n - 19);
        f = parse_n(buf, 7 + UNIT_LINE_MAX - 1, "t.service");
        CHECK_INT_EQ(f->failed_line, 0);
        CHECK_INT_EQ(f->n_entries, 1);
        unit_file_free(f);
        expect_failure(buf, 7 + UNIT_LINE_MAX, "syntax.line-too-long", 2);

        /* A joined line may be 1048576 bytes, not more. */
        memcpy(buf, "[Unit]\nA=\\\n", 11);
        memset(buf + 11, 'b', n - 11);
        f = parse_n(buf, 11 + UNIT_LINE_MAX - 3, "t.service");
        CHECK_INT_EQ(f->failed_line, 0);
        unit_file_free(f);
        /* "A=" + space (2 + 1 bytes) joined with 1048574 bytes is 1048577. */
        expect_failure(buf, 11 + UNIT_LINE_MAX - 2, "syntax.continuation-too-long", 3);
        free(buf);
}

/* unitguard's own caps, at the boundary: the last allowed and one more. */
static UnitFile *repeated(const char *head, const char *line, size_t count) {
        StrBuf b = {};
        UnitFile *f;

        strbuf_append_str(&b, head);
        for (size_t i = 0; i < count; i++)
                strbuf_append_str(&b, line);
        f = parse_n(b.data, b.len, "t.service");
        strbuf_done(&b);
        return f;
}

TEST(unitguard_limits) {
        UnitFile *f;

        f = repeated("", "[X-S]\n", UNIT_SECTIONS_MAX);
        CHECK_INT_EQ(f->limit_line, 0);
        CHECK_INT_EQ(f->n_sections, UNIT_SECTIONS_MAX);
        unit_file_free(f);
        f = repeated("", "[X-S]\n", UNIT_SECTIONS_MAX + 1);
        CHECK_INT_EQ(f->limit_line, UNIT_SECTIONS_MAX + 1);
        CHECK_STR_EQ(f->diags.items[f->diags.n - 1].rule, "limit.sections");
        unit_file_free(f);

        f = repeated("[Service]\n", "A=1\n", UNIT_ENTRIES_MAX);
        CHECK_INT_EQ(f->limit_line, 0);
        CHECK_INT_EQ(f->n_entries, UNIT_ENTRIES_MAX);
        unit_file_free(f);
        f = repeated("[Service]\n", "A=1\n", UNIT_ENTRIES_MAX + 1);
        CHECK_INT_EQ(f->limit_line, UNIT_ENTRIES_MAX + 2);
        CHECK_STR_EQ(f->diags.items[f->diags.n - 1].rule, "limit.entries");
        CHECK_INT_EQ(f->failed_line, 0);
        unit_file_free(f);
}

TEST(no_final_newline) {
        EXPECT("[Unit]\nA=1", "A=1", "");
        EXPECT("", "", "");
        EXPECT("\n\n", "", "");
}

static char *write_out(const UnitFile *f) {
        StrBuf b = {};

        CHECK(unit_file_write(f, &b) >= 0);
        return strbuf_steal(&b);
}

TEST(writer_round_trip_and_edits) {
        const char *text = "# head\n[Service]\r\nUser=bin  \nExecStart=/bin/a \\\n  b\n\n[Install]\nWantedBy=x";
        UnitFile *f = parse(text);
        char *out;

        out = write_out(f);
        CHECK_STR_EQ(out, text);
        free(out);

        CHECK(unit_entry_set_edit(f, 0, EDIT_DROP, NULL) >= 0);
        CHECK(unit_entry_set_edit(f, 1, EDIT_REPLACE, "/bin/c") >= 0);
        CHECK(unit_file_add_entry(f, "Service", "NoNewPrivileges", "yes") >= 0);
        CHECK(unit_file_add_entry(f, "Install", "Alias", "y") >= 0);
        CHECK(unit_file_add_entry(f, "Unit", "Description", "d") >= 0);
        out = write_out(f);
        CHECK_STR_EQ(out, "# head\n[Service]\r\nExecStart=/bin/c\nNoNewPrivileges=yes\n\n[Install]\nWantedBy=x\n"
                          "Alias=y\n\n[Unit]\nDescription=d\n");
        free(out);
        unit_file_free(f);

        f = parse("[Service]\nUser=0day\n");
        CHECK(unit_entry_set_edit(f, 0, EDIT_COMMENT, "invalid\nuser") >= 0);
        out = write_out(f);
        CHECK_STR_EQ(out, "[Service]\n# unitguard: invalid user\n# User=0day\n");
        free(out);
        unit_file_free(f);
}

TEST(json_view) {
        UnitFile *f = parse("[Service]\nUser=\xff\n");
        StrBuf b = {};

        CHECK(unit_file_to_json(f, NULL, &b) >= 0);
        /* Invalid UTF-8 never reaches the JSON text. */
        CHECK(strstr(b.data, "\xff") == NULL);
        CHECK(strstr(b.data, "\"failed_line\":2") != NULL);
        strbuf_done(&b);
        unit_file_free(f);
}

/* An entry's "raw" member is the JSON literal of its line, whether the
 * line is exactly KEY=VALUE (then it is made from the key's and the
 * value's literals) or not: quotes, backslashes, control characters and
 * UTF-8 on either side of the '=' (invalid UTF-8 fails the file). */
TEST(json_raw_literal) {
        static const char *const lines[] = {
                "K=v", "K=", "A\"b=c\\d", "T=a\tb\x01\x7f", "U=caf\xc3\xa9", "\xc3\xa9=\xe2\x82\xac",
                "K=\"q\"", "K = v", " K=v", "K=v ", "K=v\\",
        };

        for (size_t i = 0; i < ELEMENTSOF(lines); i++) {
                StrBuf text = {}, want = {}, got = {};
                UnitFile *f;

                CHECK(strbuf_printf(&text, "[X-Test]\n%s\n", lines[i]) >= 0);
                f = parse_n(text.data, text.len, "t.service");
                CHECK_INT_EQ(f->n_entries, 1);
                CHECK(strbuf_append_str(&want, ",\"raw\":") >= 0);
                CHECK(json_append_cstring(&want, lines[i]) >= 0);
                CHECK(strbuf_append_str(&want, ",\"lines\":") >= 0);
                CHECK(unit_file_to_json(f, NULL, &got) >= 0);
                CHECK(strstr(got.data, want.data) != NULL);
                unit_file_free(f);
                strbuf_done(&text);
                strbuf_done(&want);
                strbuf_done(&got);
        }
}

/* An entry's whole record, against one made of the literals of its key,
 * value and line: keys and values of lengths around the sixteen bytes the
 * plain-text check reads at a time, a byte that needs escaping (or not) at
 * the start, middle or end of one of them; the line ended by LF (the short
 * way), by CR LF or by the end of the file (the general one). */
TEST(json_entry_records) {
        static const size_t lens[] = { 1, 2, 14, 15, 16, 17, 31, 33 };
        static const char probes[] = { 'x', '"', '\\', '\x01', '\x7f', '~' };
        static const char *const ends[] = { "\n", "\r\n", "" };

        for (size_t a = 0; a < ELEMENTSOF(lens) && !tests_failed; a++)
                for (size_t b = 0; b < ELEMENTSOF(lens); b++)
                        for (size_t p = 0; p < ELEMENTSOF(probes); p++)
                                for (size_t at = 0; at < 6; at++)
                                        for (size_t t = 0; t < ELEMENTSOF(ends); t++) {
                                                char key[40], value[40];
                                                StrBuf text = {}, want = {}, got = {};
                                                size_t vl;
                                                UnitFile *f;

                                                memset(key, 'K', lens[a]);
                                                memset(value, 'v', lens[b]);
                                                /* In the key or in the value, at its start,
                                                 * middle or end. */
                                                if (at < 3)
                                                        key[at == 0 ? 0 : at == 1 ? lens[a] / 2 : lens[a] - 1] = probes[p];
                                                else
                                                        value[at == 3 ? 0 : at == 4 ? lens[b] / 2 : lens[b] - 1] = probes[p];
                                                /* A backslash at the end would continue the line. */
                                                vl = lens[b];
                                                if (value[vl - 1] == '\\')
                                                        value[vl++] = 'v';
                                                key[lens[a]] = value[vl] = '\0';
                                                CHECK(strbuf_printf(&text, "[Service]\n%s=%s%s", key, value, ends[t]) >= 0);
                                                f = parse_n(text.data, text.len, "t.service");
                                                CHECK_INT_EQ(f->n_entries, 1);
                                                CHECK(strbuf_append_str(&want, "{\"key\":") >= 0);
                                                CHECK(json_append_cstring(&want, key) >= 0);
                                                CHECK(strbuf_append_str(&want, ",\"value\":") >= 0);
                                                CHECK(json_append_cstring(&want, value) >= 0);
                                                /* The line without its terminator. */
                                                CHECK(strbuf_append_str(&want, ",\"raw\":") >= 0);
                                                CHECK(json_append_string(&want, text.data + 10, lens[a] + 1 + vl) >= 0);
                                                CHECK(strbuf_append_str(&want, ",\"lines\":[2,2],\"edit\":\"keep\"}") >= 0);
                                                CHECK(unit_file_to_json(f, NULL, &got) >= 0);
                                                CHECK(strstr(got.data, want.data) != NULL);
                                                unit_file_free(f);
                                                strbuf_done(&text);
                                                strbuf_done(&want);
                                                strbuf_done(&got);
                                        }
}

/* A stream parses from bytes it keeps and recycles one file's allocation
 * for the next: a smaller file goes into it, a larger one gets its own,
 * and each reads as if parsed alone. */
TEST(parse_copy_recycles) {
        static const char small[] = "[Unit]\nDescription=small\n",
                          large_head[] = "[Service]\nExecStart=/bin/true\n";
        UnitFile *spare = NULL, *f, *g;
        StrBuf large = {};
        void *first;
        char *e;

        CHECK_INT_EQ(unit_file_parse_copy(small, strlen(small), "a.service", "a.service", false, &spare, &f), 0);
        CHECK(spare == NULL);
        e = entries(f);
        CHECK_STR_EQ(e, "Description=small");
        free(e);
        first = f;
        unit_file_recycle(f, &spare);
        CHECK(spare == first);

        CHECK_INT_EQ(unit_file_parse_copy(small, strlen(small) - 6, "b.service", "b.service", false, &spare, &g), 0);
        CHECK((void *) g == first);
        CHECK(spare == NULL);
        CHECK(g->data_inline);
        CHECK_INT_EQ(g->size, strlen(small) - 6);
        CHECK(memcmp(g->data, small, g->size) == 0 && g->data[g->size] == '\0');
        CHECK_STR_EQ(g->path, "b.service");
        unit_file_recycle(g, &spare);

        CHECK(strbuf_append_str(&large, large_head) >= 0);
        for (size_t i = 0; i < 2000; i++)
                CHECK(strbuf_printf(&large, "Environment=N%zu=%zu\n", i, i) >= 0);
        CHECK_INT_EQ(unit_file_parse_copy(large.data, large.len, "c.service", "c.service", false, &spare, &f), 0);
        CHECK(spare == first);   /* too small: kept, not used */
        CHECK_INT_EQ(f->n_entries, 2001);
        CHECK_STR_EQ(f->entries[2000].value, "N1999=1999");
        /* The larger allocation is the one kept. */
        unit_file_recycle(f, &spare);
        CHECK(spare != first);
        free(spare);
        strbuf_done(&large);
}

/* The first entries and sections live in the UnitFile's own allocation;
 * past that room they move to the heap, keeping all that came before, and
 * edits of either kind are kept and freed. */
TEST(storage_growth) {
        for (size_t n = 1; n <= 80; n += 7) {
                StrBuf text = {};
                UnitFile *f;
                char want[32];

                for (size_t i = 0; i < n; i++)
                        CHECK(strbuf_printf(&text, "[X-S%zu]\nK%zu=v%zu\nL=%zu\n", i, i, i, i) >= 0);
                f = parse_n(text.data, text.len, "t.service");
                CHECK_INT_EQ(f->n_sections, n);
                CHECK_INT_EQ(f->n_entries, 2 * n);
                for (size_t i = 0; i < n; i++) {
                        snprintf(want, sizeof(want), "X-S%zu", i);
                        CHECK_STR_EQ(f->sections[i].name, want);
                        snprintf(want, sizeof(want), "v%zu", i);
                        CHECK_STR_EQ(f->entries[2 * i].value, want);
                        CHECK_INT_EQ(f->entries[2 * i + 1].section, i);
                        CHECK_INT_EQ(f->entries[2 * i + 1].line_first, 3 * i + 3);
                }
                CHECK_STR_EQ(f->path, "test");
                CHECK_STR_EQ(f->unit_name, "t.service");
                CHECK(!unit_file_modified(f));
                CHECK(unit_entry_set_edit(f, 2 * n - 1, EDIT_COMMENT, "why") >= 0);
                CHECK(unit_entry_rename(f, 0, "K") >= 0);
                CHECK(unit_file_modified(f));
                CHECK(unit_entry_set_edit(f, 0, EDIT_KEEP, NULL) >= 0);
                CHECK(unit_entry_set_edit(f, 2 * n - 1, EDIT_KEEP, NULL) >= 0);
                CHECK(!unit_file_modified(f));
                unit_file_free(f);
                strbuf_done(&text);
        }
}

/* Each ASCII byte in a section name, at its start, middle and end, in
 * names around the sixteen bytes the check reads at a time (a name of
 * sixteen at most is one block, checked inline): refused are
 * the control bytes, quotes, the backslash and DEL. */
TEST(section_name_bytes) {
        static const size_t lens[] = { 1, 2, 3, 8, 14, 15, 16, 17, 31, 32, 33, 40 };
        char text[64];

        for (size_t k = 0; k < ELEMENTSOF(lens); k++)
                for (unsigned c = 1; c < 0x80; c++) {
                        size_t len = lens[k], ats[] = { 0, len / 2, len - 1 };

                        if (c == '\n' || c == '\r')
                                continue;
                        for (size_t a = 0; a < ELEMENTSOF(ats); a++) {
                                bool bad = c < 0x20 || c == '"' || c == '\'' || c == '\\' || c == 0x7f;
                                UnitFile *f;

                                text[0] = '[';
                                memset(text + 1, 'a', len);
                                text[1 + ats[a]] = (char) c;
                                memcpy(text + 1 + len, "]\nA=1\n", 7);
                                f = parse_n(text, len + 7, "t.service");
                                CHECK_INT_EQ(f->failed_line, bad ? 1 : 0);
                                CHECK_INT_EQ(f->n_sections, bad ? 0 : 1);
                                if (bad)
                                        CHECK_STR_EQ(f->diags.items[0].rule, "syntax.bad-section-name");
                                unit_file_free(f);
                        }
                }
}

TESTS_MAIN(T(section_name_bytes), T(storage_growth), T(line_terminators), T(nul_bytes), T(comments), T(continuations), T(bom),
           T(assignments), T(entries_outside_sections), T(sections), T(file_failures),
           T(line_length_limits), T(unitguard_limits), T(no_final_newline), T(writer_round_trip_and_edits), T(json_view),
           T(json_raw_literal), T(json_entry_records), T(parse_copy_recycles), T(section_names))
