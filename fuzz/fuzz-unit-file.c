/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The unit parser and writer on arbitrary bytes.
 * Properties: an unmodified file is written back byte for byte; the JSON
 * view is well-formed, valid UTF-8 and free of raw control characters;
 * after edits the output still parses, and its JSON view holds too. */
#include "fuzz.h"
#include "unit/unit-file.h"

/* Which unit the bytes claim to be: picked by the input size, so that a
 * seed keeps its bytes and the mutator still reaches every unit type. */
static const struct {
        const char *name;
        bool dropin;
} kinds[] = {
        { NULL, false },
        { "fuzz.service", false },
        { "fuzz.socket", false },
        { "fuzz.timer", false },
        { "fuzz.mount", false },
        { "fuzz.path", false },
        { "fuzz@.service", false },
        { "fuzz.service", true },
        { "fuzz.slice", false },
        { "fuzz.target", true },
        { "-.mount", false },
        { "fuzz.automount", false },
        { "fuzz.swap", false },
};

static void check_json(const UnitFile *f) {
        StrBuf json = {};

        fuzz_assert(unit_file_to_json(f, ",\"extra\":true", &json) >= 0);
        fuzz_assert(json.data);
        fuzz_assert(fuzz_json_ok(json.data, json.len));
        strbuf_done(&json);

        for (size_t i = 0; i < f->diags.n; i++) {
                StrBuf t = {};

                fuzz_assert(diag_to_json(&f->diags.items[i], &t) >= 0);
                fuzz_assert(fuzz_json_ok(t.data, t.len));
                strbuf_reset(&t);
                fuzz_assert(diag_format_text(&f->diags.items[i], &t) >= 0);
                /* One record is one line. */
                fuzz_assert(t.len > 0 && t.data[t.len - 1] == '\n');
                fuzz_assert(memchr(t.data, '\n', t.len) == t.data + t.len - 1);
                strbuf_done(&t);
        }
}

/* Applies edits chosen by the input bytes: every edit kind, on entries
 * spread over the file, plus added entries. */
static void edit(UnitFile *f, const uint8_t *data, size_t size) {
        for (size_t i = 0; i < f->n_entries; i++) {
                uint8_t c = data[(i * 7919) % size];

                switch (c % 6) {
                case 0:
                        fuzz_assert(unit_entry_set_edit(f, i, EDIT_DROP, NULL) == 0);
                        break;
                case 1:
                        fuzz_assert(unit_entry_set_edit(f, i, EDIT_COMMENT,
                                                        c & 8 ? "reason\nwith\rbreaks" : NULL) == 0);
                        break;
                case 2:
                        fuzz_assert(unit_entry_set_edit(f, i, EDIT_REPLACE, "new value") == 0);
                        break;
                case 3:
                        fuzz_assert(unit_entry_rename(f, i, "Renamed") == 0);
                        break;
                default:
                        break;
                }
        }
        fuzz_assert(unit_file_add_entry(f, "Service", "User", "fuzz") >= 0);
        if (f->n_sections > 0)
                fuzz_assert(unit_file_add_entry(f, f->sections[0].name, "X-Added", "1") >= 0);
        fuzz_assert(unit_file_add_entry(f, "X-Fuzz", "Key", "v") >= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        UnitFile *f = NULL, *g = NULL;
        StrBuf out = {};
        size_t k = size % (sizeof(kinds) / sizeof(kinds[0]));
        char *buf;
        int r;

        /* systemd refuses longer files before parsing; so does unitguard. */
        if (size > UNIT_FILE_MAX)
                return 0;

        buf = fuzz_copy(data, size, 1);
        r = unit_file_parse(buf, size, "fuzz-input", kinds[k].name, kinds[k].dropin, &f);
        fuzz_assert(r >= 0);
        fuzz_assert(!unit_file_modified(f));

        /* Unmodified: the exact bytes. */
        fuzz_assert(unit_file_write(f, &out) >= 0);
        fuzz_assert(out.len == size);
        fuzz_assert(size == 0 || memcmp(out.data, data, size) == 0);
        strbuf_reset(&out);

        check_json(f);

        /* Entries cover disjoint, ordered byte ranges of the file. */
        for (size_t i = 0; i < f->n_entries; i++) {
                const UnitEntry *e = &f->entries[i];

                fuzz_assert(e->raw_start <= e->raw_end && e->raw_end <= size);
                fuzz_assert(i == 0 || f->entries[i - 1].raw_end <= e->raw_start);
                fuzz_assert(e->section < (int) f->n_sections);
                fuzz_assert(e->line_first <= e->line_last);
        }

        if (size > 0) {
                edit(f, data, size);
                fuzz_assert(unit_file_modified(f));
                fuzz_assert(unit_file_write(f, &out) >= 0);
                check_json(f);

                size_t len = out.len;

                r = unit_file_parse(strbuf_steal(&out), len, "fuzz-output", kinds[k].name,
                                    kinds[k].dropin, &g);
                fuzz_assert(r >= 0);
                check_json(g);
        }

        strbuf_done(&out);
        unit_file_free(g);
        unit_file_free(f);
        return 0;
}
