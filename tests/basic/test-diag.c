/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Diagnostics keep copies of what they were given: every field as passed
 * (NULL stays NULL), whatever happens to the caller's strings after, and
 * copies of copies; their text and JSON forms show them. */
#include <stdio.h>
#include <string.h>

#include "basic/diag.h"
#include "tests.h"

TEST(fields_are_copies) {
        _cleanup_(diag_list_done) DiagList l = {};
        char rule[] = "mirror", file[] = "/etc/systemd/system/a.service", section[] = "Service", key[] = "User";
        char word[] = "root";
        /* (Hidden from the compiler, which warns about a constant one.) */
        const char *volatile none = NULL;

        CHECK_INT_EQ(diag_add(&l, DIAG_WARNING, EFFECT_LINE_IGNORED, rule, file, 7, section, key, "bad %s (%d)",
                              word, 3), 0);
        CHECK_INT_EQ(diag_add(&l, DIAG_NOTE, EFFECT_NONE, NULL, NULL, 0, NULL, NULL, "fixed text"), 0);
        CHECK_INT_EQ(diag_add(&l, DIAG_ERROR, EFFECT_UNIT_FATAL, rule, NULL, 0, NULL, key, "%s", none), 0);
        CHECK_INT_EQ(diag_add(&l, DIAG_NOTE, EFFECT_NONE, "", "", 1, "", "", "%s", word), 0);
        /* The caller's buffers change: the records do not. */
        memset(rule, 'x', strlen(rule));
        memset(file, 'x', strlen(file));
        memset(section, 'x', strlen(section));
        memset(key, 'x', strlen(key));
        memset(word, 'x', strlen(word));

        CHECK_INT_EQ(l.n, 4);
        if (l.n != 4)
                return;
        CHECK_STR_EQ(l.items[0].message, "bad root (3)");
        CHECK_STR_EQ(l.items[0].rule, "mirror");
        CHECK_STR_EQ(l.items[0].file, "/etc/systemd/system/a.service");
        CHECK_STR_EQ(l.items[0].section, "Service");
        CHECK_STR_EQ(l.items[0].key, "User");
        CHECK_INT_EQ(l.items[0].line, 7);
        CHECK_INT_EQ(l.items[0].severity, DIAG_WARNING);
        CHECK_INT_EQ(l.items[0].effect, EFFECT_LINE_IGNORED);
        CHECK(!l.items[0].unit);

        CHECK_STR_EQ(l.items[1].message, "fixed text");
        CHECK(!l.items[1].rule && !l.items[1].file && !l.items[1].section && !l.items[1].key);

        CHECK_STR_EQ(l.items[2].message, "(null)");
        CHECK_STR_EQ(l.items[2].rule, "mirror");
        CHECK(!l.items[2].file && !l.items[2].section);
        CHECK_STR_EQ(l.items[2].key, "User");

        /* Empty texts are texts, not NULL. */
        CHECK_STR_EQ(l.items[3].message, "root");
        CHECK(l.items[3].rule && l.items[3].file && l.items[3].section && l.items[3].key);
        CHECK_STR_EQ(l.items[3].file, "");
        CHECK_STR_EQ(l.items[3].key, "");
}

TEST(copies_and_forms) {
        _cleanup_(diag_list_done) DiagList l = {}, copies = {};
        _cleanup_(strbuf_done) StrBuf text = {}, json = {};

        CHECK_INT_EQ(diag_add(&l, DIAG_WARNING, EFFECT_NONE, "default:nobody", "/a.service", 3, "Service", "User",
                              "Special %s '%s' configured", "user", "nobody"), 0);
        CHECK_INT_EQ(diag_add(&l, DIAG_NOTE, EFFECT_NONE, NULL, "/b.service", 0, NULL, NULL, "whole file"), 0);
        for (size_t i = 0; i < l.n; i++)
                CHECK_INT_EQ(diag_list_copy(&copies, &l.items[i], i == 0 ? "a@1.service" : NULL), 0);
        /* The originals go first: the copies own their texts. */
        diag_list_done(&l);

        CHECK_INT_EQ(copies.n, 2);
        if (copies.n != 2)
                return;
        CHECK_STR_EQ(copies.items[0].unit, "a@1.service");
        CHECK(!copies.items[1].unit);
        CHECK_INT_EQ(diag_format_text_for(&copies.items[0], copies.items[0].unit, &text), 0);
        CHECK_INT_EQ(diag_format_text(&copies.items[1], &text), 0);
        CHECK_STR_EQ(text.data,
                     "/a.service:3: warning: a@1.service: Special user 'nobody' configured [Service.User] (default:nobody)\n"
                     "/b.service: note: whole file\n");
        CHECK_INT_EQ(diag_to_json(&copies.items[1], &json), 0);
        CHECK_STR_EQ(json.data,
                     "{\"rule\":null,\"severity\":\"note\",\"systemd\":\"none\",\"file\":\"/b.service\",\"line\":0,"
                     "\"section\":null,\"key\":null,\"message\":\"whole file\"}");
}

/* The text form shows control characters as \\xNN, wherever they are:
 * texts of every length up to 40 with one (or none) at every position,
 * against the plain byte-by-byte rendering. */
TEST(control_characters) {
        static const unsigned char controls[] = { 0x01, 0x1f, 0x7f, '\t', '\n' };
        char text[41], want[256];

        for (size_t n = 1; n < sizeof text; n++)
                for (size_t at = 0; at <= n; at++)
                        for (size_t k = 0; k < ELEMENTSOF(controls); k++) {
                                _cleanup_(diag_list_done) DiagList l = {};
                                _cleanup_(strbuf_done) StrBuf out = {};
                                size_t w;

                                for (size_t i = 0; i < n; i++)
                                        text[i] = (char) (' ' + (i * 7 + n) % 95); /* printable ASCII */
                                if (at < n)
                                        text[at] = (char) controls[k];
                                text[n] = '\0';
                                w = (size_t) snprintf(want, sizeof want, "f: note: ");
                                for (size_t i = 0; i < n; i++) {
                                        unsigned char c = (unsigned char) text[i];

                                        w += (size_t) (c < 0x20 || c == 0x7f ? snprintf(want + w, sizeof want - w, "\\x%02x", c)
                                                                             : snprintf(want + w, sizeof want - w, "%c", c));
                                }
                                snprintf(want + w, sizeof want - w, "\n");
                                CHECK_INT_EQ(diag_add(&l, DIAG_NOTE, EFFECT_NONE, NULL, "f", 0, NULL, NULL, "%s", text), 0);
                                CHECK_INT_EQ(diag_format_text(&l.items[0], &out), 0);
                                CHECK_STR_EQ(out.data, want);
                        }
}

TESTS_MAIN(T(fields_are_copies), T(copies_and_forms), T(control_characters))
