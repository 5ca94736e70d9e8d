/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "basic/file-batch.h"
#include "basic/fileio.h"
#include "basic/json-writer.h"
#include "filter-fix.h"
#include "filter-internal.h"
#include "filter-predict.h"
#include "unit/cat-stream.h"
#include "validate/unit-name.h"

/* Output is written in pieces of about this size. Each flush costs a
 * write and two sigprocmask() calls, each page the buffer grows by its
 * first touch: the corpus once as a stream (373 kB) took 0.57 ms (10 %)
 * more per 64 KiB of threshold, and a 50 MB stream 1.6 ms (2 %) more at
 * 64 KiB than at 128 or 256 KiB, which were level (61 and 21 alternating
 * pairs). */
#define FLUSH_THRESHOLD 131072

void filter_init(Filter *f, int out_fd, int err_fd) {
        struct stat out_st, err_st;
        bool known = fstat(out_fd, &out_st) >= 0 && fstat(err_fd, &err_st) >= 0;

        *f = (Filter) { .out_fd = out_fd, .err_fd = err_fd, .show_notes = true };
        /* Written to one file ("2>&1", a terminal, /dev/null for both),
         * diagnostics go into the one buffer with the units, each right
         * before its unit and after the units before it, and it is written
         * in large pieces too: a write and two sigprocmask() calls per unit
         * with findings cost a 50 MB stream (6,400 such units) a third of
         * its time (99 ms against 68). To a terminal each unit is written as soon as it is
         * judged, for whoever watches. Where the two cannot be told apart,
         * each unit's diagnostics are written right before it. */
        f->merged = out_fd == err_fd ||
                    (known && out_st.st_dev == err_st.st_dev && out_st.st_ino == err_st.st_ino);
        f->flush_per_unit = !known || (f->merged && isatty(out_fd));
}

void filter_done(Filter *f) {
        strbuf_done(&f->out);
        strbuf_done(&f->err);
        strbuf_done(&f->units_json);
        diag_list_done(&f->findings);
        f->fix = filter_fix_free(f->fix);
        free(f->cwd);
        f->cwd = NULL;
        f->batch = file_batch_free(f->batch);
        /* Spares hold nothing but their own allocation. */
        free(f->spare_group);
        f->spare_group = NULL;
        free(f->spare_file);
        f->spare_file = NULL;
}

int filter_group_new(Filter *f, const char *name, UnitGroup **ret) {
        int r;

        r = unit_group_new_reusing(&f->spare_group, ret);
        if (r < 0)
                return r;
        (*ret)->name = (char *) name;
        (*ret)->name_borrowed = true;
        return 0;
}

void filter_group_recycle(Filter *f, UnitGroup *g) {
        unit_group_free_recycling(g, &f->spare_file, &f->spare_group);
}

static int flush_buf(Filter *f, StrBuf *b, int fd) {
        int r;

        if (b->len == 0)
                return 0;
        if (fd == f->out_fd && f->out_closed) {
                strbuf_reset(b);
                return 0;
        }
        r = loop_write(fd, b->data, b->len);
        strbuf_reset(b);
        if (r < 0 && r != -EPIPE)
                f->write_failed = true;
        if (r == -EPIPE && fd == f->out_fd) {
                /* "unitguard filter | head": stop writing, quietly. */
                f->out_closed = true;
                return 0;
        }
        return r;
}

/* The buffers hold whole units (and whole diagnostic lines) only, and
 * each is written with one write loop. A termination signal that arrives
 * meanwhile waits until it is done, so that no unit is ever cut in half;
 * then it ends the program as usual. */
static void hold_termination_signals(sigset_t *saved) {
        sigset_t s;

        sigemptyset(&s);
        sigaddset(&s, SIGTERM);
        sigaddset(&s, SIGINT);
        sigaddset(&s, SIGHUP);
        (void) sigprocmask(SIG_BLOCK, &s, saved);
}

int filter_flush(Filter *f) {
        sigset_t saved;
        int r;

        if (f->err.len == 0 && f->out.len == 0)
                return 0;
        hold_termination_signals(&saved);
        r = flush_buf(f, &f->err, f->err_fd);
        if (r >= 0)
                r = flush_buf(f, &f->out, f->out_fd);
        f->out_complete = f->out.len;
        (void) sigprocmask(SIG_SETMASK, &saved, NULL);
        return r;
}

void filter_abort(Filter *f) {
        const char *nl = f->err.len > 0 ? memrchr(f->err.data, '\n', f->err.len) : NULL;

        f->err.len = nl ? (size_t) (nl - f->err.data) + 1 : 0;
        f->out.len = MIN(f->out.len, f->out_complete);
        (void) filter_flush(f);
}

/* Whether text output needs to name the unit of a finding: when the file is
 * not the unit's alone (a template, a dash-prefix or type-wide drop-in, an
 * alias's directory), unless the message starts with the name already. A
 * file of its own is named after the unit or is a drop-in in its NAME.d. */
static bool text_names_unit(const char *path, const char *unit, const char *message) {
        const char *base, *slash;
        size_t n = strlen(unit);

        if (strncmp(message, unit, n) == 0 && message[n] == ' ')
                return false;
        base = strrchr(path, '/');
        if (!base)
                return false;   /* <stdin> and the like: a place in a stream */
        if (streq(base + 1, unit))
                return false;
        for (slash = base; slash > path && slash[-1] != '/'; slash--)
                ;
        return !((size_t) (base - slash) == n + 2 && strncmp(slash, unit, n) == 0 && memcmp(slash + n, ".d", 2) == 0);
}

/* Where a diagnostic's text goes: `err`, or `out` when the two outputs
 * are one file. filter_emit() is the one writer of diagnostics, so that
 * none lands out of order with the units. */
static StrBuf *diag_buf(Filter *f) {
        return f->merged ? &f->out : &f->err;
}

int filter_emit(Filter *f, const Diag *d, const char *unit) {
        int r;

        if (d->severity == DIAG_NOTE && !f->show_notes)
                return 0;
        if ((unsigned) d->severity < ELEMENTSOF(f->n_diags))
                f->n_diags[d->severity]++;
        if (f->collect)
                return diag_list_copy(&f->findings, d, unit);
        if (f->quiet)
                return 0;
        r = diag_format_text_for(d, unit && d->file && d->message && text_names_unit(d->file, unit, d->message) ? unit : NULL,
                                 diag_buf(f));
        /* In `out`, a diagnostic line is whole as it stands: kept by
         * filter_abort(). */
        if (r >= 0 && f->merged)
                f->out_complete = f->out.len;
        return r;
}

int filter_report(Filter *f, DiagSeverity severity, const char *rule, const char *path, const char *unit,
                  const char *fmt, ...) {
        _cleanup_(diag_list_done) DiagList tmp = {};
        va_list ap;
        int r;

        if (severity == DIAG_NOTE && !f->show_notes)
                return 0;
        va_start(ap, fmt);
        r = diag_addv(&tmp, severity, EFFECT_NONE, rule, path, 0, NULL, NULL, fmt, ap);
        va_end(ap);
        return r < 0 ? r : filter_emit(f, &tmp.items[0], unit);
}

static int report_diags(Filter *f, const DiagList *l, const UnitGroup *g) {
        int r;

        for (size_t i = 0; i < l->n; i++) {
                size_t before = f->findings.n;

                r = filter_emit(f, &l->items[i], g->name);
                /* check --fix --format json: which fix answers the finding. */
                if (r >= 0 && f->fix && f->findings.n > before)
                        r = fix_note_finding(f, g, &l->items[i], before);
                if (r < 0)
                        return r;
        }
        return 0;
}

int input_error(Filter *f, const char *path, int error, const char *what) {
        f->n_input_errors++;
        if (error == 0)
                return filter_report(f, DIAG_ERROR, "input.unreadable", path, NULL, "%s", what);
        if (error == -EFBIG)
                return filter_report(f, DIAG_ERROR, "input.unreadable", path, NULL,
                                     "%s: larger than %zu MiB (unitguard's limit)", what, (size_t) UNIT_FILE_MAX >> 20);
        return filter_report(f, DIAG_ERROR, "input.unreadable", path, NULL, "%s: %s", what, read_error_to_string(error));
}

void filter_reject_failed_files(UnitGroup *g) {
        for (size_t i = 0; i < g->n_files; i++)
                if (g->files[i].file && (g->files[i].file->failed_line > 0 || g->files[i].file->limit_line > 0))
                        g->verdict = GROUP_REJECTED;
}

/* systemd loads no unit under a name it does not accept: at most 255
 * bytes, only [A-Za-z0-9:_.\\-] and an '@' instance part, a unit type as
 * suffix (unit_name_is_valid()). Drop-ins may also be type-wide
 * ("service.d"). */
static int check_unit_name(UnitGroup *g) {
        size_t len;

        if (g->name && !g->name_classified) {
                g->name_kind = g->name_len > 0 ? unit_name_classify_type_n(g->name, g->name_len, &g->name_type)
                                               : unit_name_classify_type(g->name, &g->name_type);
                g->name_classified = true;
        }
        if (!g->name || (g->name_kind > 0 && (g->name_kind & UNIT_NAME_ANY)) ||
            (!g->has_fragment && unit_type_from_string(g->name) >= 0))
                return 0;

        g->verdict = GROUP_REJECTED;
        len = strlen(g->name);
        if (len >= UNIT_NAME_MAX)
                return diag_add(&g->diags, DIAG_ERROR, EFFECT_FILE_FAILED, "unit.invalid-name",
                                unit_group_display_path(g), 0, NULL, NULL,
                                "Unit name is %zu bytes long; systemd allows at most %d and does not load this unit",
                                len, UNIT_NAME_MAX - 1);
        return diag_add(&g->diags, DIAG_ERROR, EFFECT_FILE_FAILED, "unit.invalid-name", unit_group_display_path(g),
                        0, NULL, NULL,
                        "'%s' is not a valid unit name (letters, digits and ':-_.\\', an optional '@' instance, a unit type suffix); systemd does not load this unit",
                        g->name);
}

static int note_masked(UnitGroup *g) {
        /* systemd's null_or_empty(): an empty unit file masks the unit. */
        if (g->has_fragment && g->n_files > 0 && g->files[0].file && g->files[0].file->size == 0)
                return diag_add(&g->diags, DIAG_NOTE, EFFECT_NONE, "unit.empty-is-masked",
                                g->files[0].file->path, 0, NULL, NULL,
                                "Empty unit file: systemd treats the unit as masked");
        return 0;
}

static int prediction_to_json(const UnitPrediction *p, StrBuf *out) {
        size_t n_state = strlen(p->load_state), n_user = p->user ? strlen(p->user) : 0;
        bool replaced = false;
        char *o;

        /* Reserved once and written straight into the buffer: printf's
         * parsing of a format, or an append per piece, would cost more
         * than the rest of the record. */
        o = json_begin(out, JSON_STRING_ROOM(n_state) + JSON_STRING_ROOM(n_user) + 160);
        if (!o)
                return -ENOMEM;
        o = JSON_PUT(o, ",\"systemd\":{\"version\":");
        o = json_write_uint(o, p->version);
        o = JSON_PUT(o, ",\"load_state\":");
        o = json_write_string(o, p->load_state, n_state, &replaced);
        o = JSON_PUT(o, ",\"user\":");
        o = p->user ? json_write_string(o, p->user, n_user, &replaced) : JSON_PUT(o, "null");
        o = p->dynamic_user ? JSON_PUT(o, ",\"dynamic_user\":true") : JSON_PUT(o, ",\"dynamic_user\":false");
        o = p->starts_processes ? JSON_PUT(o, ",\"starts_processes\":true") : JSON_PUT(o, ",\"starts_processes\":false");
        o = p->runs_as_root ? JSON_PUT(o, ",\"runs_as_root\":true}") : JSON_PUT(o, ",\"runs_as_root\":false}");
        json_end(out, o);
        return 0;
}

/* check --format json: the unit as a record (its files, verdict, prediction). */
static int unit_record_json(Filter *f, const UnitGroup *g) {
        StrBuf *b = &f->units_json;
        bool first = true;
        int r;

        r = b->len > 0 ? strbuf_append_char(b, ',') : 0;
        if (r >= 0)
                r = strbuf_append_str(b, "{\"id\":");
        if (r >= 0)
                r = g->name ? json_append_cstring(b, g->name) : strbuf_append_str(b, "null");
        if (r >= 0)
                r = strbuf_append_str(b, ",\"files\":[");
        for (size_t i = 0; r >= 0 && i < g->n_files; i++) {
                if (!g->files[i].file)
                        continue;
                if (!first)
                        r = strbuf_append_char(b, ',');
                first = false;
                if (r >= 0)
                        r = json_append_cstring(b, g->files[i].file->path);
        }
        if (r >= 0)
                r = strbuf_printf(b, "],\"has_unit_file\":%s,\"verdict\":\"%s\",\"complete\":%s",
                                  g->has_fragment ? "true" : "false", group_verdict_to_string(g->verdict),
                                  g->unreadable ? "false" : "true");
        if (r >= 0)
                r = g->systemd.known ? prediction_to_json(&g->systemd, b)
                                     : strbuf_append_str(b, ",\"systemd\":null");
        if (r >= 0 && g->extra_json)
                r = strbuf_append_str(b, g->extra_json);
        if (r >= 0)
                r = strbuf_append_char(b, '}');
        return r < 0 ? r : 0;
}

/* A file record's verdict and the opening of its unit_diagnostics, in
 * one append. */
static int verdict_to_json(GroupVerdict v, StrBuf *out) {
        const char *name = group_verdict_to_string(v);
        size_t n = strlen(name);
        char *o;

        o = json_begin(out, n + 48);
        if (!o)
                return -ENOMEM;
        o = JSON_PUT(o, ",\"verdict\":\"");
        memcpy(o, name, n);
        o = JSON_PUT(o + n, "\",\"unit_diagnostics\":[");
        json_end(out, o);
        return 0;
}

static int write_json(Filter *f, const UnitGroup *g) {
        StrBuf *out = &f->out;
        bool first = true;
        int r = 0;

        /* Each file's record is written straight into the output: its own
         * members, then the unit's. */
        for (size_t i = 0; r >= 0 && i < g->n_files; i++) {
                const UnitFile *uf = g->files[i].file;

                if (!uf)
                        continue;
                r = unit_file_to_json_open(uf, out);
                if (r >= 0)
                        r = verdict_to_json(g->verdict, out);
                /* Findings about the unit as a whole go with its first file. */
                for (size_t k = 0; r >= 0 && first && k < g->diags.n; k++) {
                        if (k > 0)
                                r = strbuf_append_char(out, ',');
                        if (r >= 0)
                                r = diag_to_json(&g->diags.items[k], out);
                }
                if (r >= 0)
                        r = strbuf_append_char(out, ']');
                if (r >= 0 && first && g->systemd.known)
                        r = prediction_to_json(&g->systemd, out);
                if (r >= 0)
                        r = strbuf_append(out, "}\n", 2);
                first = false;
        }
        return r;
}

static int write_units(Filter *f, const UnitGroup *g) {
        int r = 0;

        for (size_t i = 0; r >= 0 && i < g->n_files; i++) {
                const char *framing = g->files[i].framing ? g->files[i].framing : "";

                /* Rejected units vanish with all their files; notes stay. */
                if (g->verdict == GROUP_REJECTED && g->files[i].file)
                        continue;
                /* The first thing written needs no separating blank line. */
                if (!f->wrote_any && framing[0] == '\n')
                        framing++;
                r = strbuf_append_str(&f->out, framing);
                if (r >= 0 && g->files[i].file)
                        r = unit_file_write(g->files[i].file, &f->out);
                /* In the systemctl cat format every file ends with a newline,
                 * or the next header would not be recognised. */
                if (r >= 0 && framing[0] && g->files[i].file && f->out.len > 0 &&
                    f->out.data[f->out.len - 1] != '\n')
                        r = strbuf_append_char(&f->out, '\n');
                if (framing[0] || g->files[i].file)
                        f->wrote_any = true;
        }
        return r;
}

int finish_group(Filter *f, UnitGroup *g) {
        bool has_units = false;
        int r;

        for (size_t i = 0; i < g->n_files; i++)
                if (g->files[i].file)
                        has_units = true;

        if (has_units) {
                r = check_unit_name(g);
                if (r < 0)
                        return r;
                r = note_masked(g);
                if (r < 0)
                        return r;
                /* A file that could not be read rejects its unit already. */
                if (!f->judge)
                        filter_reject_failed_files(g);
                else if (g->verdict != GROUP_REJECTED) {
                        r = f->judge(f->judge_userdata, g);
                        if (r < 0)
                                return r;
                }
                f->n_units++;
                if (g->verdict == GROUP_REJECTED)
                        f->n_rejected++;
                else if (g->verdict == GROUP_CHANGED)
                        f->n_changed++;
                /* (Calls only with something to do: a tree's units
                 * mostly have no findings, and check has no --fix.) */
                r = f->fix ? fix_record_group(f, g) : 0;
                if (r < 0)
                        return r;
        }

        for (size_t i = 0; i < g->n_files; i++)
                if (g->files[i].file && g->files[i].file->diags.n > 0) {
                        r = report_diags(f, &g->files[i].file->diags, g);
                        if (r < 0)
                                return r;
                }
        r = g->diags.n > 0 ? report_diags(f, &g->diags, g) : 0;
        if (r < 0)
                return r;
        if (has_units && g->verdict == GROUP_REJECTED) {
                if (g->unreadable)
                        r = filter_report(f, DIAG_ERROR, "unit.incomplete", unit_group_display_path(g), g->name,
                                          "unit not written: a file of it could not be read");
                else
                        r = filter_report(f, DIAG_ERROR, "unit.rejected", unit_group_display_path(g), g->name,
                                          f->format == OUTPUT_NONE ? "unit rejected" : "unit rejected, not written");
                if (r < 0)
                        return r;
        }

        if ((has_units || g->unreadable) && f->on_unit) {
                r = f->on_unit(f->on_unit_userdata, g);
                if (r < 0)
                        return r;
        }
        if (has_units && f->collect) {
                r = unit_record_json(f, g);
                if (r < 0)
                        return r;
        }
        if (f->format == OUTPUT_JSON)
                r = write_json(f, g);
        else if (f->format == OUTPUT_UNIT)
                r = write_units(f, g);
        if (r < 0)
                return r;
        f->out_complete = f->out.len;

        /* Diagnostics go out before the unit they concern: in `out` before
         * it (merged), or written first by filter_flush(). */
        if (f->err.len + f->out.len >= FLUSH_THRESHOLD || (f->flush_per_unit && (f->merged || f->err.len > 0)))
                return filter_flush(f);
        return 0;
}

char *path_basename_dup(const char *path) {
        const char *s = strrchr(path, '/');

        return strdup(s ? s + 1 : path);
}

/* Past the cap, drop-ins are counted and the unit rejected, but not kept. */
static bool over_dropin_cap(const UnitGroup *g) {
        /* The unit file counts only when it is there: one that could not
         * be read left no entry (and n_files - 1 would wrap around). */
        bool fragment = g->n_files > 0 && g->files[0].file && !g->files[0].file->is_dropin;

        return g->n_files - (fragment ? 1 : 0) >= UNIT_DROPINS_MAX;
}

static int count_dropin_over_cap(UnitGroup *g, const char *path) {
        g->verdict = GROUP_REJECTED;
        if (g->dropins_over++ == 0)
                return diag_add(&g->diags, DIAG_ERROR, EFFECT_NONE, "limit.dropins", path, 0, NULL, NULL,
                                "More than %zu drop-ins for one unit (unitguard's limit); the unit is rejected",
                                UNIT_DROPINS_MAX);
        return 0;
}

/* Parses one file into a group. Takes ownership of data. */
int add_file(UnitGroup *g, char *data, size_t size, const char *path, bool dropin,
                    char *framing) {
        UnitFile *uf = NULL;
        int r;

        if (dropin && over_dropin_cap(g)) {
                free(data);
                free(framing);
                return count_dropin_over_cap(g, path);
        }

        r = unit_file_parse(data, size, path, g->name, dropin, &uf);
        if (r < 0) {
                free(framing);
                return r;
        }
        return unit_group_add(g, uf, framing);
}

/* The same for a file whose bytes stay the caller's (a stream's, in the
 * reader's buffer): they are copied, into *spare's allocation when it is
 * large enough. path_len, and the length and type of the group's name,
 * as unit_file_parse_copy_n() takes them. */
static int add_file_copy_n(UnitGroup *g, const char *data, size_t size, const char *path, size_t path_len,
                           size_t name_len, UnitType type, bool dropin, char *framing, UnitFile **spare) {
        UnitFile *uf = NULL;
        int r;

        if (dropin && over_dropin_cap(g)) {
                /* path may live in framing's allocation (a stream's header). */
                r = count_dropin_over_cap(g, path);
                free(framing);
                return r;
        }

        r = unit_file_parse_copy_n(data, size, path, path_len, g->name, name_len, type, dropin, spare, &uf);
        if (r < 0) {
                free(framing);
                return r;
        }
        return unit_group_add(g, uf, framing);
}

/* The length and type of g's name, as add_file_copy_n() takes them: from
 * what the group knows of its name already, else measured. */
static void group_name_measure(const UnitGroup *g, size_t *ret_len, UnitType *ret_type) {
        if (!g->name) {
                *ret_len = 0;
                *ret_type = _UNIT_TYPE_INVALID;
                return;
        }
        *ret_len = g->name_len > 0 ? g->name_len : strlen(g->name);
        /* A valid name's type is its suffix's (unit_type_from_name()). */
        *ret_type = g->name_classified && g->name_kind >= 0 ? g->name_type : unit_type_from_name(g->name);
}

static int add_file_copy(UnitGroup *g, const char *data, size_t size, const char *path, size_t path_len,
                         bool dropin, char *framing, UnitFile **spare) {
        size_t name_len;
        UnitType type;

        group_name_measure(g, &name_len, &type);
        return add_file_copy_n(g, data, size, path, path_len, name_len, type, dropin, framing, spare);
}

/* Up to this size a file of the caller's own is copied into the recycled
 * model allocation too: a copy of a few KiB costs less than a new
 * allocation of the model and its release. A larger one is handed over
 * as it is. */
#define COPY_OWN_MAX ((size_t) 16384)

int add_file_read(Filter *f, UnitGroup *g, char *data, size_t size, bool borrowed, const char *path,
                  size_t path_len, bool dropin, char *framing) {
        int r;

        if (!borrowed && size > COPY_OWN_MAX)
                return add_file(g, data, size, path, dropin, framing);
        r = add_file_copy(g, data, size, path, path_len, dropin, framing, &f->spare_file);
        if (!borrowed)
                free(data);
        return r;
}

/* ---- streams ---------------------------------------------------------- */

/* The reader's warnings about a file's framing go with its unit. */
static int take_framing_diags(UnitGroup *g, const CatFile *cf) {
        for (size_t i = 0; i < cf->diags.n; i++) {
                const Diag *d = &cf->diags.items[i];
                int r;

                r = diag_add(&g->diags, d->severity, d->effect, d->rule, d->file, d->line, d->section, d->key, "%s",
                             d->message);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* systemctl cat follows a note line ("# Unit x.service is masked.") with
 * nothing but the blank line before the next header. Blank lines are kept
 * as framing; any other text there belongs to no file: it is neither
 * judged nor written, and a warning names where it starts. */
static int keep_note_text(UnitGroup *g, CatFile *cf, const char *source) {
        size_t blank = 0;

        while (blank < cf->size && cf->data[blank] == '\n')
                blank++;
        if (blank == cf->size) {
                char *text = cf->borrowed ? strndup(cf->data, cf->size) : TAKE_PTR(cf->data);

                return text ? unit_group_add(g, NULL, text) : -ENOMEM;
        }
        return diag_add(&g->diags, DIAG_WARNING, EFFECT_NONE, "cat.stray-text", source,
                        cf->header_line + 1 + (unsigned) blank, NULL, NULL,
                        "%zu bytes after the note line '# Unit ...' belong to no file of the stream (a header '# /path' must follow a blank line): not judged, not written",
                        cf->size - blank);
}

/* A file of the stream could not be read (over the size cap, or a read
 * error), and the stream ends there. The unit that file belongs to must
 * not leave without it: when it is a drop-in of the pending unit, that
 * unit is rejected. A pending unit it does not belong to is complete and
 * goes out. Consumes g. */
static int stream_read_error(Filter *f, const CatReader *reader, UnitGroup *g, int error) {
        _cleanup_(unit_group_freep) UnitGroup *pending = g;
        _cleanup_free_ char *what = NULL, *dropin_of = NULL;
        const char *path = reader->failed_path;
        bool belongs = false;
        int r;

        if (path && pending && pending->name && pending->has_fragment) {
                r = cat_dropin_unit_name(path, &dropin_of);
                if (r < 0)
                        return r;
                belongs = r > 0;
        }
        if (pending && !belongs) {
                r = finish_group(f, pending);
                if (r < 0)
                        return r;
                pending = unit_group_free(pending);
        }

        if (path && asprintf(&what, "cannot read from %s", reader->source) < 0)
                return -ENOMEM;
        r = input_error(f, path ? path : reader->source, error, what ? what : "cannot read");
        if (r < 0 || !pending)
                return r;
        pending->verdict = GROUP_REJECTED;
        return finish_group(f, pending);
}

/* The framings of g's files came from the reader (those of notes, and
 * the text after them, stay with g): given back before g goes. */
static void recycle_framings(CatReader *reader, UnitGroup *g) {
        for (size_t i = 0; i < g->n_files; i++)
                if (g->files[i].file && g->files[i].framing)
                        cat_reader_recycle_framing(reader, TAKE_PTR(g->files[i].framing));
}

int filter_stream(Filter *f, int fd, const char *source) {
        _cleanup_(unit_group_freep) UnitGroup *g = NULL;
        /* One unit's allocation kept for the next: a stream is parsed
         * file after file. */
        _cleanup_free_ UnitFile *spare = NULL;
        _cleanup_free_ UnitGroup *spare_group = NULL;
        CatReader reader;
        CatFile cf = {};
        /* The length and unit type of g's name, when it has one. */
        size_t name_len = 0;
        UnitType type = _UNIT_TYPE_INVALID;
        int r;

        cat_reader_init(&reader, fd, source, UNIT_FILE_MAX);
        for (;;) {
                _cleanup_free_ char *dropin_of = NULL;
                bool is_dropin;

                r = cat_reader_next(&reader, &cf);
                if (r == -ENOMEM)
                        break;
                if (r < 0) {
                        r = stream_read_error(f, &reader, TAKE_PTR(g), r);
                        break;
                }
                if (r == 0)
                        break;

                if (reader.bare) {
                        r = unit_group_new(f->stdin_name, &g);
                        if (r >= 0) {
                                g->has_fragment = true;
                                const char *path = f->stdin_name ? f->stdin_name : source;

                                r = add_file_copy(g, cf.data, cf.size, path, strlen(path), false,
                                                  TAKE_PTR(cf.framing), NULL);
                        }
                        cat_file_done(&cf);
                        break;
                }

                if (cf.is_note) {
                        if (g) {
                                r = finish_group(f, g);
                                recycle_framings(&reader, g);
                                g = unit_group_free_recycling(g, &spare, &spare_group);
                                if (r < 0)
                                        break;
                        }
                        r = unit_group_new_reusing(&spare_group, &g);
                        if (r >= 0)
                                r = take_framing_diags(g, &cf);
                        if (r >= 0)
                                r = unit_group_add(g, NULL, TAKE_PTR(cf.framing));
                        if (r >= 0)
                                r = keep_note_text(g, &cf, source);
                        cat_file_done(&cf);
                        if (r < 0)
                                break;
                        continue;
                }

                /* Only a path that ends in ".conf" names a drop-in. */
                r = cf.conf ? cat_dropin_unit_name(cf.path, &dropin_of) : 0;
                if (r < 0)
                        break;
                is_dropin = r > 0;
                if (r > 0 && g && g->name && g->has_fragment) {
                        if (!dropin_dir_applies_to(dropin_of, g->name)) {
                                r = diag_add(&g->diags, DIAG_WARNING, EFFECT_NONE, "cat.ambiguous-header",
                                             source, cf.header_line, NULL, NULL,
                                             "Header '# %s' after a blank line names a drop-in that does not belong to %s; read as a drop-in header (it could also be a comment in the previous file)",
                                             cf.path, g->name);
                                if (r < 0)
                                        break;
                        }
                } else {
                        if (g) {
                                r = finish_group(f, g);
                                recycle_framings(&reader, g);
                                g = unit_group_free_recycling(g, &spare, &spare_group);
                                if (r < 0)
                                        break;
                        }
                        r = unit_group_new_reusing(&spare_group, &g);
                        if (r < 0)
                                break;
                        if (is_dropin) {
                                g->name = TAKE_PTR(dropin_of);
                                name_len = strlen(g->name);
                                type = unit_type_from_name(g->name);
                        } else {
                                /* The unit file's name, borrowed from its
                                 * path, which lives in the framing that goes
                                 * to the group with the file; its type is
                                 * that of the path's suffix. */
                                g->name = cf.name;
                                g->name_borrowed = true;
                                name_len = cf.path_len - (size_t) (cf.name - cf.path);
                                type = cf.type;
                        }
                        g->has_fragment = !is_dropin;
                }
                r = take_framing_diags(g, &cf);
                if (r >= 0)
                        r = add_file_copy_n(g, cf.data, cf.size, cf.path, cf.path_len, name_len, type, is_dropin,
                                            TAKE_PTR(cf.framing), &spare);
                cat_file_done(&cf);
                if (r < 0)
                        break;
        }
        cat_file_done(&cf);

        if (r >= 0 && g)
                r = finish_group(f, g);
        cat_reader_done(&reader);
        if (r < 0)
                return r;
        return filter_flush(f);
}
