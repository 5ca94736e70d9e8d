/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "alloc-util.h"
#include "diag.h"
#include "json-writer.h"

static void diag_done(Diag *d) {
        /* The other texts are in the message's allocation (diag_addv()). */
        free(d->message);
        free(d->unit);
}

static int strdup_opt(const char *s, char **ret) {
        if (!s) {
                *ret = NULL;
                return 0;
        }
        *ret = strdup(s);
        return *ret ? 0 : -ENOMEM;
}

int diag_add(DiagList *l, DiagSeverity severity, SystemdEffect effect, const char *rule,
             const char *file, unsigned line, const char *section, const char *key,
             const char *fmt, ...) {
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = diag_addv(l, severity, effect, rule, file, line, section, key, fmt, ap);
        va_end(ap);
        return r;
}

/* A copy of s (n bytes with its NUL) at *p, for a field: NULL for none. */
static char *put_text(char **p, const char *s, size_t n) {
        char *t = *p;

        if (!s)
                return NULL;
        memcpy(t, s, n);
        *p = t + n;
        return t;
}

int diag_addv(DiagList *l, DiagSeverity severity, SystemdEffect effect, const char *rule,
              const char *file, unsigned line, const char *section, const char *key,
              const char *fmt, va_list ap) {
        _cleanup_free_ char *formatted = NULL;
        size_t n_message, n_rule, n_file, n_section, n_key;
        const char *message;
        char *p;
        Diag d;
        int r;

        r = GREEDY_REALLOC(l->items, l->allocated, l->n + 1);
        if (r < 0)
                return r;

        /* Many messages are fixed text or one string ("%s"): no printf. */
        if (!strchr(fmt, '%'))
                message = fmt;
        else if (streq(fmt, "%s")) {
                message = va_arg(ap, const char *);
                if (!message)
                        message = "(null)"; /* as glibc prints it */
        } else if (vasprintf(&formatted, fmt, ap) < 0)
                return -ENOMEM;
        else
                message = formatted;

        /* All texts in one allocation, the message's: a stream's notes
         * number in the thousands, and each had five of them. */
        n_message = strlen(message) + 1;
        n_rule = rule ? strlen(rule) + 1 : 0;
        n_file = file ? strlen(file) + 1 : 0;
        n_section = section ? strlen(section) + 1 : 0;
        n_key = key ? strlen(key) + 1 : 0;
        p = malloc(n_message + n_rule + n_file + n_section + n_key);
        if (!p)
                return -ENOMEM;
        /* (One statement each: the message first, at the start.) */
        d = (Diag) { .severity = severity, .effect = effect, .line = line };
        d.message = put_text(&p, message, n_message);
        d.rule = put_text(&p, rule, n_rule);
        d.file = put_text(&p, file, n_file);
        d.section = put_text(&p, section, n_section);
        d.key = put_text(&p, key, n_key);
        l->items[l->n++] = d;
        return 0;
}

int diag_list_copy(DiagList *l, const Diag *d, const char *unit) {
        int r;

        r = diag_add(l, d->severity, d->effect, d->rule, d->file, d->line, d->section, d->key, "%s", d->message);
        if (r < 0)
                return r;
        r = strdup_opt(unit ? unit : d->unit, &l->items[l->n - 1].unit);
        return r;
}

void diag_list_done(DiagList *l) {
        for (size_t i = 0; i < l->n; i++)
                diag_done(&l->items[i]);
        free(l->items);
        *l = (DiagList) {};
}

size_t diag_list_count(const DiagList *l, DiagSeverity severity) {
        size_t c = 0;

        for (size_t i = 0; i < l->n; i++)
                if (l->items[i].severity == severity)
                        c++;
        return c;
}

const char *diag_severity_to_string(DiagSeverity s) {
        switch (s) {
        case DIAG_NOTE:
                return "note";
        case DIAG_WARNING:
                return "warning";
        case DIAG_ERROR:
                return "error";
        }
        return "unknown";
}

const char *systemd_effect_to_string(SystemdEffect e) {
        switch (e) {
        case EFFECT_NONE:
                return "none";
        case EFFECT_LINE_IGNORED:
                return "line-ignored";
        case EFFECT_UNIT_FATAL:
                return "unit-fatal";
        case EFFECT_FILE_FAILED:
                return "file-failed";
        }
        return "unknown";
}

static bool is_control(unsigned char c) {
        return c < 0x20 || c == 0x7f;
}

/* How many bytes from s on (n in all) are not control characters. With
 * SSE2 sixteen at a time: a byte is at most 0x1f when subtracting 0x1f
 * with saturation leaves zero. */
static size_t printable_run(const char *s, size_t n) {
        size_t i = 0;
#if defined(__SSE2__)
        const __m128i x1f = _mm_set1_epi8(0x1f), del = _mm_set1_epi8(0x7f), zero = _mm_setzero_si128();

        for (; n - i >= 16; i += 16) {
                __m128i v = _mm_loadu_si128((const __m128i *) (const void *) (s + i));
                unsigned m = (unsigned) _mm_movemask_epi8(
                        _mm_or_si128(_mm_cmpeq_epi8(_mm_subs_epu8(v, x1f), zero), _mm_cmpeq_epi8(v, del)));

                if (m != 0)
                        return i + (unsigned) __builtin_ctz(m);
        }
        /* The rest as the last sixteen bytes, when there are that many:
         * those before i are printable (their bits are clear), the first
         * bit set is the first control character from i on. */
        if (i < n && n >= 16) {
                __m128i v = _mm_loadu_si128((const __m128i *) (const void *) (s + n - 16));
                unsigned m = (unsigned) _mm_movemask_epi8(
                        _mm_or_si128(_mm_cmpeq_epi8(_mm_subs_epu8(v, x1f), zero), _mm_cmpeq_epi8(v, del)));

                return m != 0 ? n - 16 + (unsigned) __builtin_ctz(m) : n;
        }
#endif
        while (i < n && !is_control((unsigned char) s[i]))
                i++;
        return i;
}

/* The text with control characters shown as \xNN: a run of printable
 * bytes is copied at once. */
static int append_printable(StrBuf *out, const char *s) {
        size_t n = strlen(s), i = 0;
        int r = 0;

        while (i < n && r >= 0) {
                size_t run = printable_run(s + i, n - i);

                if (run > 0) {
                        r = strbuf_append(out, s + i, run);
                        i += run;
                } else
                        r = strbuf_printf(out, "\\x%02x", (unsigned char) s[i++]);
        }
        return r;
}

int diag_format_text(const Diag *d, StrBuf *out) {
        return diag_format_text_for(d, NULL, out);
}

int diag_format_text_for(const Diag *d, const char *unit, StrBuf *out) {
        int r;

        r = append_printable(out, d->file ? d->file : "<unknown>");
        if (r >= 0 && d->line > 0)
                r = strbuf_append_char(out, ':');
        if (r >= 0 && d->line > 0)
                r = strbuf_append_uint(out, d->line);
        if (r >= 0)
                r = strbuf_append_str(out, ": ");
        if (r >= 0)
                r = strbuf_append_str(out, diag_severity_to_string(d->severity));
        if (r >= 0)
                r = strbuf_append_str(out, ": ");
        if (r >= 0 && unit)
                r = append_printable(out, unit);
        if (r >= 0 && unit)
                r = strbuf_append_str(out, ": ");
        if (r >= 0)
                r = append_printable(out, d->message);
        if (r >= 0 && (d->section || d->key)) {
                r = strbuf_append_str(out, " [");
                if (r >= 0 && d->section)
                        r = append_printable(out, d->section);
                if (r >= 0 && d->section && d->key)
                        r = strbuf_append_char(out, '.');
                if (r >= 0 && d->key)
                        r = append_printable(out, d->key);
                if (r >= 0)
                        r = strbuf_append_char(out, ']');
        }
        if (r >= 0 && d->rule)
                r = strbuf_append_str(out, " (");
        if (r >= 0 && d->rule)
                r = strbuf_append_str(out, d->rule);
        if (r >= 0 && d->rule)
                r = strbuf_append_char(out, ')');
        if (r >= 0)
                r = strbuf_append_char(out, '\n');
        return r;
}

/* A member's value: the string, or null. */
static char *put_value(char *o, const char *value, size_t n, bool *replaced) {
        if (!value)
                return JSON_PUT(o, "null");
        return json_write_string(o, value, n, replaced);
}

/* The room for the whole object is reserved once and it is written
 * straight into the buffer. */
int diag_to_json(const Diag *d, StrBuf *out) {
        const char *severity = diag_severity_to_string(d->severity), *effect = systemd_effect_to_string(d->effect);
        size_t n_rule = d->rule ? strlen(d->rule) : 0, n_file = d->file ? strlen(d->file) : 0,
               n_section = d->section ? strlen(d->section) : 0, n_key = d->key ? strlen(d->key) : 0,
               n_message = d->message ? strlen(d->message) : 0, n_severity = strlen(severity),
               n_effect = strlen(effect), room;
        bool replaced = false;
        char *o;

        room = JSON_STRING_ROOM(n_rule) + JSON_STRING_ROOM(n_file) + JSON_STRING_ROOM(n_section) +
               JSON_STRING_ROOM(n_key) + JSON_STRING_ROOM(n_message) + JSON_STRING_ROOM(n_severity) +
               JSON_STRING_ROOM(n_effect) + 128;
        o = json_begin(out, room);
        if (!o)
                return -ENOMEM;
        o = JSON_PUT(o, "{\"rule\":");
        o = put_value(o, d->rule, n_rule, &replaced);
        o = JSON_PUT(o, ",\"severity\":");
        o = json_write_string(o, severity, n_severity, &replaced);
        o = JSON_PUT(o, ",\"systemd\":");
        o = json_write_string(o, effect, n_effect, &replaced);
        o = JSON_PUT(o, ",\"file\":");
        o = put_value(o, d->file, n_file, &replaced);
        o = JSON_PUT(o, ",\"line\":");
        o = json_write_uint(o, d->line);
        o = JSON_PUT(o, ",\"section\":");
        o = put_value(o, d->section, n_section, &replaced);
        o = JSON_PUT(o, ",\"key\":");
        o = put_value(o, d->key, n_key, &replaced);
        o = JSON_PUT(o, ",\"message\":");
        o = put_value(o, d->message, n_message, &replaced);
        *o++ = '}';
        json_end(out, o);
        return 0;
}
