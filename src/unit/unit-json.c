/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The JSON view of a parsed file (see man/unitguard-filter.1, "JSON"). */
#include <errno.h>
#include <string.h>

#include "basic/json-writer.h"
#include "unit-file.h"

static const char *section_state_to_string(SectionState s) {
        switch (s) {
        case SECTION_KNOWN:
                return "known";
        case SECTION_EXTENSION:
                return "extension";
        case SECTION_UNKNOWN:
                return "unknown";
        }
        return "unknown";
}

static const char *edit_to_string(EntryEdit e) {
        switch (e) {
        case EDIT_KEEP:
                return "keep";
        case EDIT_DROP:
                return "drop";
        case EDIT_COMMENT:
                return "comment";
        case EDIT_REPLACE:
                return "replace";
        }
        return "keep";
}

/* A name of our own tables (a unit type: lower-case ASCII letters) as a
 * literal: it needs no escaping. */
static char *json_put_name(char *o, const char *name, size_t n) {
        *o++ = '"';
        memcpy(o, name, n);
        o += n;
        *o++ = '"';
        return o;
}

/* Whether c ends a line's raw text: its terminator, or the NUL after it. */
static bool is_line_end(char c) {
        return (unsigned char) c <= '\r' && (1u << (unsigned char) c & (1u << '\n' | 1u << '\r' | 1u));
}

/* Entries without an edit text (all but edited ones) that are not huge:
 * the room for the whole record is reserved once and it is written
 * straight into the buffer. */
#define ENTRY_FAST_MAX ((size_t) 16384)

/* The members of an entry's record after "raw", written at o in the
 * record's reserved room, and the record's end. */
static _always_inline_ int entry_tail_to_json(const UnitEntry *e, char *o, StrBuf *out) {
        char *digits;

        o = JSON_PUT(o, ",\"lines\":[");
        digits = o;
        o = json_write_uint(o, e->line_first);
        *o++ = ',';
        /* Most entries are one line: its number twice. */
        if (e->line_last == e->line_first)
                o = json_copy_padded(o, digits, (size_t) (o - digits) - 1);
        else
                o = json_write_uint(o, e->line_last);
        o = JSON_PUT(o, "],\"edit\":\"");
        o = e->edit == EDIT_KEEP ? JSON_PUT(o, "keep") : stpcpy(o, edit_to_string(e->edit));
        o = JSON_PUT(o, "\"}");
        json_end(out, o);
        return 0;
}

/* The record of an entry whose line is "KEY=VALUE\n" exactly, of plain
 * text (as the parser's short way stores most): in the arena's copy of
 * the file the key starts where the line does and ends at the NUL that
 * took the '=', the value follows right after it. Every literal is the
 * text itself: the raw one is the arena's bytes from the key on, its '='
 * put back. Returns NULL for any other entry (nothing written). */
static _always_inline_ char *plain_entry_to_json(const UnitFile *f, const UnitEntry *e, bool comma, StrBuf *out,
                                                 int *ret) {
        size_t kl = e->key_len, vl = e->value_len, raw_len = kl + 1 + vl;
        char *o, *raw;

        if (e->raw_end - e->raw_start != raw_len + 1 || e->key != f->arena + e->raw_start ||
            e->value != e->key + kl + 1 || f->data[e->raw_end - 1] != '\n' || e->edit_text ||
            !json_is_plain_padded_but(e->key, raw_len, kl))
                return NULL;

        /* The room entry_to_json() reserves for the record. */
        o = json_begin(out, JSON_STRING_ROOM(kl) + JSON_STRING_ROOM(vl) + JSON_STRING_ROOM(raw_len) + 128);
        if (!o) {
                *ret = -ENOMEM;
                return out->data;
        }
        if (comma)
                *o++ = ',';
        o = JSON_PUT(o, "{\"key\":\"");
        o = json_copy_padded(o, e->key, kl);
        o = JSON_PUT(o, "\",\"value\":\"");
        o = json_copy_padded(o, e->value, vl);
        o = JSON_PUT(o, "\",\"raw\":\"");
        raw = o;
        o = json_copy_padded(o, e->key, raw_len);
        raw[kl] = '=';
        *o++ = '"';
        *ret = 0;
        return o;
}

static int entry_to_json_general(const UnitFile *f, const UnitEntry *e, bool comma, StrBuf *out);

/* One entry's record, after a ',' when it follows another one (written
 * in the record's reserved room, not appended on its own). */
static _always_inline_ int entry_to_json(const UnitFile *f, const UnitEntry *e, bool comma, StrBuf *out) {
        char *o;
        int r;

        o = plain_entry_to_json(f, e, comma, out, &r);
        if (o) {
                if (r < 0)
                        return r;
                return entry_tail_to_json(e, o, out);
        }
        return entry_to_json_general(f, e, comma, out);
}

/* The same for any entry. */
static int entry_to_json_general(const UnitFile *f, const UnitEntry *e, bool comma, StrBuf *out) {
        size_t raw_len = e->raw_end - e->raw_start;
        int r;

        /* The raw text without the final line terminator. */
        while (raw_len > 0 && is_line_end(f->data[e->raw_start + raw_len - 1]))
                raw_len--;

        if (!e->edit_text && raw_len <= ENTRY_FAST_MAX) {
                size_t kl = e->key_len, vl = e->value_len;
                const char *raw = f->data + e->raw_start;
                bool replaced = false;
                char *o;

                o = json_begin(out, JSON_STRING_ROOM(kl) + JSON_STRING_ROOM(vl) + JSON_STRING_ROOM(raw_len) +
                                                128);
                if (!o)
                        return -ENOMEM;
                if (comma)
                        *o++ = ',';
                if (e->key == f->arena + e->raw_start && e->value == e->key + kl + 1 && raw_len == kl + 1 + vl &&
                    json_is_plain_padded(e->key, kl) && json_is_plain_padded(e->value, vl)) {
                        /* The common line: "KEY=VALUE" exactly (the key
                         * where the line starts in the arena's copy of the
                         * file, the value right after the '=' after it),
                         * of plain text: every literal is the text itself,
                         * copied in blocks. */
                        o = JSON_PUT(o, "{\"key\":\"");
                        o = json_copy_padded(o, e->key, kl);
                        o = JSON_PUT(o, "\",\"value\":\"");
                        o = json_copy_padded(o, e->value, vl);
                        o = JSON_PUT(o, "\",\"raw\":\"");
                        o = json_copy_padded(o, e->key, kl);
                        *o++ = '=';
                        o = json_copy_padded(o, e->value, vl);
                        *o++ = '"';
                } else {
                        char *key_at, *key_end, *value_at, *value_end;

                        o = JSON_PUT(o, "{\"key\":");
                        key_at = o;
                        /* Key and value are in the arena, with room to read ahead. */
                        o = json_write_string_padded(o, e->key, kl, &replaced);
                        key_end = o;
                        o = JSON_PUT(o, ",\"value\":");
                        value_at = o;
                        o = json_write_string_padded(o, e->value, vl, &replaced);
                        value_end = o;
                        o = JSON_PUT(o, ",\"raw\":");
                        if (raw_len == kl + 1 + vl && raw[kl] == '=' && memcmp(raw, e->key, kl) == 0 &&
                            memcmp(raw + kl + 1, e->value, vl) == 0) {
                                /* Most lines are "KEY=VALUE" exactly: the raw text's
                                 * literal is the key's and the value's joined by '='
                                 * (escaping is byte by byte, and no UTF-8 sequence
                                 * spans a '=', valid or not): the key's without its
                                 * closing quote, '=', the value's without its opening one. */
                                memcpy(o, key_at, (size_t) (key_end - key_at) - 1);
                                o += key_end - key_at - 1;
                                *o++ = '=';
                                memcpy(o, value_at + 1, (size_t) (value_end - value_at) - 1);
                                o += value_end - value_at - 1;
                        } else
                                o = json_write_string(o, raw, raw_len, &replaced);
                }
                return entry_tail_to_json(e, o, out);
        }

        r = strbuf_append_str(out, comma ? ",{\"key\":" : "{\"key\":");
        if (r >= 0)
                r = json_append_cstring(out, e->key);
        if (r >= 0)
                r = strbuf_append_str(out, ",\"value\":");
        if (r >= 0)
                r = json_append_cstring(out, e->value);
        if (r >= 0)
                r = strbuf_append_str(out, ",\"raw\":");
        if (r >= 0)
                r = json_append_string(out, f->data + e->raw_start, raw_len);
        if (r >= 0)
                r = strbuf_append_str(out, ",\"lines\":[");
        if (r >= 0)
                r = strbuf_append_uint(out, e->line_first);
        if (r >= 0)
                r = strbuf_append_char(out, ',');
        if (r >= 0)
                r = strbuf_append_uint(out, e->line_last);
        if (r >= 0)
                r = strbuf_append_str(out, "],\"edit\":\"");
        if (r >= 0)
                r = strbuf_append_str(out, edit_to_string(e->edit));
        if (r >= 0)
                r = strbuf_append_char(out, '"');
        if (r >= 0 && e->edit_text) {
                r = strbuf_append_str(out, e->edit == EDIT_REPLACE ? ",\"new_value\":" : ",\"reason\":");
                if (r >= 0)
                        r = json_append_cstring(out, e->edit_text);
        }
        if (r >= 0)
                r = strbuf_append_char(out, '}');
        return r < 0 ? r : 0;
}

/* The entries of one section, from *next on: the parser appends entries
 * in file order, under the section last opened, so their section numbers
 * never decrease and each section's entries are one run. *next is left
 * after the run. The caller writes the array's brackets, each joined to
 * the literal next to it. */
static int entries_to_json(const UnitFile *f, int section, size_t *next, StrBuf *out) {
        size_t i = *next, start;
        int r = 0;

        while (i < f->n_entries && f->entries[i].section < section)
                i++;
        for (start = i; r >= 0 && i < f->n_entries && f->entries[i].section == section; i++)
                r = entry_to_json(f, &f->entries[i], i > start, out);
        *next = i;
        return r;
}

/* A section's members before its entries, and the entries' '[' (after a
 * ',' when it follows another section). */
static int section_head_to_json(const UnitSection *sec, bool comma, StrBuf *out) {
        const char *state = section_state_to_string(sec->state);
        size_t n = strlen(sec->name), n_state = strlen(state);
        bool replaced = false;
        char *o;

        o = json_begin(out, JSON_STRING_ROOM(n) + 96);
        if (!o)
                return -ENOMEM;
        if (comma)
                *o++ = ',';
        o = JSON_PUT(o, "{\"name\":");
        /* The name is in the arena, which has room to read ahead. */
        o = json_write_string_padded(o, sec->name, n, &replaced);
        o = JSON_PUT(o, ",\"line\":");
        o = json_write_uint(o, sec->line);
        o = JSON_PUT(o, ",\"state\":\"");
        memcpy(o, state, n_state);
        o += n_state;
        o = JSON_PUT(o, "\",\"entries\":[");
        json_end(out, o);
        return 0;
}

int unit_file_to_json_open(const UnitFile *f, StrBuf *out) {
        const char *type = unit_type_to_string(f->type);
        size_t n_path = strlen(f->path), n_unit = f->unit_name ? strlen(f->unit_name) : 0,
               n_type = type ? strlen(type) : 0;
        bool replaced = false;
        size_t next = 0;
        char *o;
        int r;

        /* The members before the entries: their room reserved once, and
         * written straight into the buffer. */
        o = json_begin(out, JSON_STRING_ROOM(n_path) + JSON_STRING_ROOM(n_unit) + JSON_STRING_ROOM(n_type) + 256);
        if (!o)
                return -ENOMEM;
        /* Path and unit name are in the arena, which has room to read
         * ahead. */
        o = JSON_PUT(o, "{\"path\":");
        o = json_write_string_padded(o, f->path, n_path, &replaced);
        o = JSON_PUT(o, ",\"unit\":");
        o = f->unit_name ? json_write_string_padded(o, f->unit_name, n_unit, &replaced) : JSON_PUT(o, "null");
        o = JSON_PUT(o, ",\"type\":");
        o = type ? json_put_name(o, type, n_type) : JSON_PUT(o, "null");
        o = f->is_dropin ? JSON_PUT(o, ",\"dropin\":true,\"size\":") : JSON_PUT(o, ",\"dropin\":false,\"size\":");
        o = json_write_uint(o, f->size);
        o = JSON_PUT(o, ",\"lines\":");
        o = json_write_uint(o, f->n_lines);
        o = f->has_bom ? JSON_PUT(o, ",\"bom\":true") : JSON_PUT(o, ",\"bom\":false");
        if (f->limit_line > 0) {
                o = JSON_PUT(o, ",\"limit_line\":");
                o = json_write_uint(o, f->limit_line);
        }
        if (f->failed_line > 0) {
                o = JSON_PUT(o, ",\"failed_line\":");
                o = json_write_uint(o, f->failed_line);
        } else
                o = JSON_PUT(o, ",\"failed_line\":null");
        json_end(out, o);

        r = strbuf_append_str(out, ",\"outside\":[");
        if (r >= 0)
                r = entries_to_json(f, -1, &next, out);
        if (r >= 0)
                r = strbuf_append_str(out, "],\"sections\":[");
        for (size_t i = 0; r >= 0 && i < f->n_sections; i++) {
                r = section_head_to_json(&f->sections[i], i > 0, out);
                if (r >= 0)
                        r = entries_to_json(f, (int) i, &next, out);
                if (r >= 0)
                        r = strbuf_append(out, "]}", 2);
        }
        /* Most files have no added lines and no findings: both arrays
         * empty, one literal. */
        if (r >= 0 && f->n_inserts == 0 && f->diags.n == 0)
                return strbuf_append_str(out, "],\"added\":[],\"diagnostics\":[]");
        if (r >= 0)
                r = strbuf_append_str(out, "],\"added\":[");
        for (size_t i = 0; r >= 0 && i < f->n_inserts; i++) {
                const UnitInsert *ins = &f->inserts[i];

                r = strbuf_append_str(out, i > 0 ? ",{\"section\":" : "{\"section\":");
                if (r >= 0)
                        r = json_append_cstring(out, ins->section);
                if (r >= 0)
                        r = strbuf_append_str(out, ",\"key\":");
                if (r >= 0)
                        r = json_append_cstring(out, ins->key);
                if (r >= 0)
                        r = strbuf_append_str(out, ",\"text\":");
                if (r >= 0)
                        r = json_append_cstring(out, ins->text);
                if (r >= 0)
                        r = strbuf_append_char(out, '}');
        }
        if (r >= 0)
                r = strbuf_append_str(out, "],\"diagnostics\":[");
        for (size_t i = 0; r >= 0 && i < f->diags.n; i++) {
                if (i > 0)
                        r = strbuf_append_char(out, ',');
                if (r >= 0)
                        r = diag_to_json(&f->diags.items[i], out);
        }
        if (r >= 0)
                r = strbuf_append_char(out, ']');
        return r < 0 ? r : 0;
}

int unit_file_to_json(const UnitFile *f, const char *extra_fields, StrBuf *out) {
        int r;

        r = unit_file_to_json_open(f, out);
        if (r >= 0 && extra_fields)
                r = strbuf_append_str(out, extra_fields);
        if (r >= 0)
                r = strbuf_append_char(out, '}');
        return r < 0 ? r : 0;
}
