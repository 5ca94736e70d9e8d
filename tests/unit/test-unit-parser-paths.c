/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The parser's short ways (lines of the common kinds taken without the
 * general steps) against the general path alone: this program holds a
 * second copy of the parser, compiled with UNIT_PARSER_GENERAL_ONLY, and
 * both parse the same inputs, made of pieces that matter to either path
 * (terminators of every kind, blanks, tabs, comments, section headers,
 * continuations, BOMs, non-ASCII, lines around the 64-byte blocks), from
 * bytes the parser owns and from bytes it copies, into a fresh or a
 * recycled allocation. The models and the diagnostics must be the same. */
#define UNIT_PARSER_GENERAL_ONLY 1
#define unit_file_parse general_unit_file_parse
#define unit_file_parse_copy general_unit_file_parse_copy
#define unit_file_parse_copy_n general_unit_file_parse_copy_n
#include "../../src/unit/unit-parser.c"
#undef unit_file_parse
#undef unit_file_parse_copy
#undef unit_file_parse_copy_n

#include "tests.h"

int unit_file_parse(char *data, size_t size, const char *path, const char *unit_name, bool is_dropin,
                    UnitFile **ret);
int unit_file_parse_copy(const char *data, size_t size, const char *path, const char *unit_name,
                         bool is_dropin, UnitFile **spare, UnitFile **ret);

/* Everything the parser decides, as text. */
static char *dump(const UnitFile *f) {
        StrBuf b = {};

        CHECK(strbuf_printf(&b, "type=%d dropin=%d lines=%u failed=%u limit=%u bom=%d size=%zu\n", f->type,
                            f->is_dropin, f->n_lines, f->failed_line, f->limit_line, f->has_bom, f->size) >= 0);
        CHECK(f->data[f->size] == '\0');
        for (size_t i = 0; i < f->n_sections; i++) {
                const UnitSection *s = &f->sections[i];

                CHECK(strbuf_printf(&b, "S[%s] line=%u end=%zu state=%d\n", s->name, s->line, s->raw_end,
                                    s->state) >= 0);
        }
        for (size_t i = 0; i < f->n_entries; i++) {
                const UnitEntry *e = &f->entries[i];

                CHECK(e->key_len == strlen(e->key));
                CHECK(e->value_len == strlen(e->value));
                CHECK(e->edit == EDIT_KEEP && !e->edit_text && !e->edit_key);
                CHECK(strbuf_printf(&b, "E%d '%s'='%s' raw=%zu-%zu lines=%u-%u\n", e->section, e->key, e->value,
                                    e->raw_start, e->raw_end, e->line_first, e->line_last) >= 0);
        }
        for (size_t i = 0; i < f->diags.n; i++) {
                const Diag *d = &f->diags.items[i];

                CHECK(strbuf_printf(&b, "D %s %d %d %s:%u [%s] %s\n", d->rule, d->severity, d->effect, d->file,
                                    d->line, d->section ? d->section : "-", d->message) >= 0);
        }
        return strbuf_steal(&b);
}

static void compare(const char *text, size_t n, const char *name, UnitFile **spare) {
        UnitFile *a = NULL, *b = NULL, *c = NULL;
        char *da, *db, *dc, *owned;

        owned = malloc(n + 1);
        CHECK(owned);
        memcpy(owned, text, n);
        owned[n] = '\0';
        CHECK_INT_EQ(general_unit_file_parse_copy(text, n, "t", name, false, NULL, &a), 0);
        CHECK_INT_EQ(unit_file_parse_copy(text, n, "t", name, false, spare, &b), 0);
        CHECK_INT_EQ(unit_file_parse(owned, n, "t", name, false, &c), 0);
        da = dump(a);
        db = dump(b);
        dc = dump(c);
        CHECK_STR_EQ(db, da);
        CHECK_STR_EQ(dc, da);
        if (tests_failed) {
                fprintf(stderr, "input (%zu bytes):", n);
                for (size_t i = 0; i < n; i++)
                        fprintf(stderr, (unsigned char) text[i] >= 0x20 && text[i] < 0x7f ? "%c" : "\\x%02x",
                                (unsigned char) text[i]);
                fprintf(stderr, "\n");
        }
        free(da);
        free(db);
        free(dc);
        unit_file_free(a);
        if (spare)
                unit_file_recycle(b, spare);
        else
                unit_file_free(b);
        unit_file_free(c);
}

static void compare_str(const char *text) {
        compare(text, strlen(text), "t.service", NULL);
}

TEST(known_cases) {
        compare_str("");
        compare_str("\n");
        compare_str("[Unit]\nA=1\n");
        compare_str("[Unit]\nA=1");
        compare_str("A=1\n[Unit]\nB=2\n");
        compare_str("[Unit]\nA =1\nB= 2\n C=3\nD=4 \nE=\nF= \n=x\nG\n[Nope]\nH=1\n[X-Y]\nI=1\n");
        compare_str("[Unit]\nA=1\\\nB=2\n#c\\\nC=3\\\n\nD=4\n");
        compare_str("[Unit]\r\nA=1\r\nB=2\n\rC=3\rD=4\0E=5\n\0F=6\n");
        compare_str("\xef\xbb\xbf[Unit]\nA=\xc3\xa9\n\xef\xbb\xbf" "B=1\nC=\xff\n");
        compare_str("[Unit]\nA=1\tx\n\tB=1\nC\t=1\nD=\t1\n[Unit\n[U\"]\n");
        compare_str("[Service]\nExecStart=/bin/true\n[Unit\n");
        compare_str("[Service]\n[]\nA=1\n[\n");
}

/* Random files from pieces, the same ones through both paths, in fresh
 * and recycled allocations, with and without a unit name. */
TEST(random_files) {
        static const char *const pieces[] = {
                "\n", "\n", "\r\n", "\r", "\n\r", "\0", "[Unit]\n", "[Service]\n", "[X-Foo]\n", "[Bogus]\n",
                "[Unit]", "[Un\"it]\n", "[Unit] \n", " [Unit]\n", "[\xc3\xa9]\n", "A=1\n", "Key=value\n",
                "Key = value\n", "Key= value\n", "Key=value \n", " Key=value\n", "Key\t=v\n", "K=\tv\n",
                "K=a\tb\n", "Key=\n", "=v\n", "novalue\n", "K=v\\\n", "K=v\\\\\n", "  cont\\\n", "# comment\n",
                "#x\\\n", "; c\n", "\t# tab comment\n", "\xef\xbb\xbf", "K=\xc3\xa9\n", "K=\xc3\n", "K=\x7f\n",
                "K=v\x0b\n", "K=v\x0c\n", "X=0123456789abcdef0123456789abcdef0123456789abcdef0123456789a\n",
                "Y=0123456789abcdef0123456789abcdef0123456789abcdef0123456789ab\n",
                "Z=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789\n",
                "LongKey0123456789abcdef0123456789=v\n", "K=v=w\n", "K==\n", "[", "]", "=", "\\", " ", "K",
        };
        static const char *const names[] = { "t.service", "t.socket", NULL, "x.mount" };
        UnitFile *spare = NULL;
        unsigned seed = 1234;
        StrBuf data = {};

        int rounds = test_rounds(20000, 4000);

        for (int round = 0; round < rounds && !tests_failed; round++) {
                size_t n;

                strbuf_reset(&data);
                seed = seed * 1103515245u + 12345u;
                n = (seed >> 16) % 48;
                for (size_t i = 0; i < n; i++) {
                        const char *p;

                        seed = seed * 1103515245u + 12345u;
                        p = pieces[(seed >> 16) % ELEMENTSOF(pieces)];
                        CHECK(strbuf_append(&data, p, p[0] ? strlen(p) : 1) >= 0);
                }
                seed = seed * 1103515245u + 12345u;
                compare(data.data ? data.data : "", data.len, names[(seed >> 16) % ELEMENTSOF(names)],
                        round % 2 ? &spare : NULL);
        }
        free(spare);
        strbuf_done(&data);
}

/* Every cut of a file of common lines: the last line (with or without its
 * terminator) at each offset of the last 64-byte block. */
TEST(cuts) {
        static const char text[] =
                "[Unit]\nDescription=Some service\nAfter=network.target\n\n[Service]\nType=simple\n"
                "ExecStart=/usr/bin/thing --flag=1 --other\nUser=nobody\n# comment\nRestart=on-failure\n"
                "[Install]\nWantedBy=multi-user.target\n";

        for (size_t n = 0; n <= sizeof(text) - 1; n++)
                compare(text, n, "t.service", NULL);
}

TESTS_MAIN(T(known_cases), T(cuts), T(random_files))
