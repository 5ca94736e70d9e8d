/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Hardware profile files: devices written down one per line. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "basic/fileio.h"
#include "basic/utf8.h"
#include "hw-profile.h"

_printf_(4, 5)
static int fail(DiagList *errors, const char *source, unsigned line, const char *fmt, ...) {
        va_list ap;
        int r;

        va_start(ap, fmt);
        r = diag_addv(errors, DIAG_ERROR, EFFECT_NONE, "hardware.profile", source, line, NULL, NULL, fmt, ap);
        va_end(ap);
        return r < 0 ? r : -EINVAL;
}

static bool key_valid(const char *k, size_t n) {
        if (n == 0 || !(k[0] >= 'A' && k[0] <= 'Z'))
                return false;
        for (size_t i = 0; i < n; i++)
                if (!((k[i] >= 'A' && k[i] <= 'Z') || (k[i] >= '0' && k[i] <= '9') || k[i] == '_'))
                        return false;
        return true;
}

static bool parse_uint(const char *s, unsigned *ret) {
        char *end;
        unsigned long n;

        if (!(*s >= '0' && *s <= '9'))
                return false;
        errno = 0;
        n = strtoul(s, &end, 10);
        if (errno || *end || n > UINT_MAX)
                return false;
        *ret = (unsigned) n;
        return true;
}

static int set_once(char **slot, const char *value, const char *prefix) {
        if (*slot)
                return -EEXIST;
        if (asprintf(slot, "%s%s", prefix, value) < 0)
                return -ENOMEM;
        return 0;
}

static int add_devlink(HwDevice *d, const char *v) {
        char **l = reallocarray_safe(d->devlinks, d->n_devlinks + 1, sizeof(char *));

        if (!l)
                return -ENOMEM;
        d->devlinks = l;
        d->devlinks[d->n_devlinks] = strdup(v);
        if (!d->devlinks[d->n_devlinks])
                return -ENOMEM;
        d->n_devlinks++;
        return 0;
}

/* One KEY=VALUE word of a device line. */
static int apply_word(HwDevice *d, char *word, const char *source, unsigned line, bool *major_seen,
                      bool *minor_seen, DiagList *errors) {
        char *eq = strchr(word, '=');
        const char *k = word, *v;
        int r = 0;

        if (!eq)
                return fail(errors, source, line, "'%s' is not KEY=VALUE", word);
        *eq = '\0';
        v = eq + 1;
        if (!key_valid(k, strlen(k)))
                return fail(errors, source, line, "invalid key '%s' (upper-case letters, digits and '_')", k);
        if (!v[0])
                return fail(errors, source, line, "%s= has an empty value", k);
        if (streq(k, "SUBSYSTEM"))
                r = set_once(&d->subsystem, v, "");
        else if (streq(k, "DRIVER"))
                r = set_once(&d->driver, v, "");
        else if (streq(k, "DEVNAME")) {
                if (strstr(v, "..") || (v[0] == '/' && !startswith(v, "/dev/")))
                        return fail(errors, source, line, "DEVNAME=%s is not a node below /dev", v);
                r = set_once(&d->devname, v, v[0] == '/' ? "" : "/dev/");
        } else if (streq(k, "DEVPATH")) {
                if (v[0] != '/' || strstr(v, ".."))
                        return fail(errors, source, line, "DEVPATH=%s is not an absolute sysfs path", v);
                free(d->syspath);      /* replaces the PROFILE:LINE placeholder */
                d->syspath = NULL;
                r = set_once(&d->syspath, v, startswith(v, "/sys/") ? "" : "/sys");
        } else if (streq(k, "DEVLINK")) {
                if (!startswith(v, "/dev/") || strstr(v, ".."))
                        return fail(errors, source, line, "DEVLINK=%s is not a path below /dev", v);
                r = add_devlink(d, v);
        } else if (streq(k, "MAJOR") || streq(k, "MINOR")) {
                bool *seen = streq(k, "MAJOR") ? major_seen : minor_seen;

                if (*seen)
                        r = -EEXIST;
                else if (!parse_uint(v, streq(k, "MAJOR") ? &d->major : &d->minor))
                        return fail(errors, source, line, "%s=%s is not a number", k, v);
                *seen = true;
        } else if (hw_device_prop(d, k))
                r = -EEXIST;
        if (r == -EEXIST)
                return fail(errors, source, line, "%s= is given twice", k);
        if (r < 0)
                return r;
        return hw_device_add_prop(d, k, v);
}

static int parse_line(HwDeviceSet *set, char *s, const char *source, unsigned line, DiagList *errors) {
        bool major_seen = false, minor_seen = false, first = true;
        HwDevice *d = NULL;
        int r;

        for (char *w = s; *w;) {
                char *end;

                w += strspn(w, " \t");
                if (!*w)
                        break;
                if (first && *w == '#')
                        return 0;
                end = w + strcspn(w, " \t");
                if (*end)
                        *end++ = '\0';
                if (first) {
                        first = false;
                        if (strchr(w, '=') && !strchr(w, ':'))
                                return fail(errors, source, line,
                                            "a line starts with the device's modalias (or '-' for none), not '%s'", w);
                        if (!streq(w, "-") && !strchr(w, ':'))
                                return fail(errors, source, line, "'%s' is not a modalias (BUS:...)", w);
                        r = hw_device_set_add(set, &d);
                        if (r == -E2BIG)
                                return fail(errors, source, line, "more than %u devices", HW_DEVICES_MAX) == -ENOMEM
                                               ? -ENOMEM
                                               : -E2BIG;
                        if (r < 0)
                                return r;
                        if (!streq(w, "-") && !(d->modalias = strdup(w)))
                                return -ENOMEM;
                        if (asprintf(&d->syspath, "%s:%u", source, line) < 0)
                                return -ENOMEM;
                } else {
                        r = apply_word(d, w, source, line, &major_seen, &minor_seen, errors);
                        if (r < 0)
                                return r;
                }
                w = end;
        }
        if (d && major_seen != minor_seen)
                return fail(errors, source, line, "MAJOR= and MINOR= go together");
        if (d)
                d->has_devnum = major_seen;
        return 0;
}

int hw_profile_parse(const char *text, size_t size, const char *source, HwDeviceSet *ret, DiagList *errors) {
        _cleanup_(hw_device_set_done) HwDeviceSet set = {};
        _cleanup_free_ char *buf = NULL;
        const char *p = text, *end = text + size;
        int r;

        buf = malloc(HW_PROFILE_LINE_MAX + 1);
        if (!buf)
                return -ENOMEM;
        for (unsigned line = 1; p < end; line++) {
                const char *nl = memchr(p, '\n', (size_t) (end - p));
                size_t n = (size_t) ((nl ? nl : end) - p);

                if (n > 0 && p[n - 1] == '\r')
                        n--;
                if (memchr(p, '\0', n))
                        return fail(errors, source, line, "a NUL byte");
                if (!utf8_is_valid(p, n))
                        return fail(errors, source, line, "invalid UTF-8");
                if (n > HW_PROFILE_LINE_MAX)
                        return fail(errors, source, line, "line longer than %u bytes", HW_PROFILE_LINE_MAX);
                for (size_t i = 0; i < n; i++)
                        if ((unsigned char) p[i] < 0x20 && p[i] != '\t')
                                return fail(errors, source, line, "a control character (0x%02x)", (unsigned char) p[i]);
                memcpy(buf, p, n);
                buf[n] = '\0';
                r = parse_line(&set, buf, source, line, errors);
                if (r < 0)
                        return r;
                p = nl ? nl + 1 : end;
        }
        if (asprintf(&set.source, "profile %s", source) < 0)
                return -ENOMEM;
        *ret = set;
        set = (HwDeviceSet) {};
        return 0;
}

int hw_profile_load(const char *path, HwDeviceSet *ret, DiagList *errors) {
        _cleanup_free_ char *text = NULL;
        size_t size = 0;
        int r;

        r = read_full_file(path, HW_PROFILE_FILE_MAX, &text, &size);
        if (r < 0) {
                if (r != -ENOMEM &&
                    diag_add(errors, DIAG_ERROR, EFFECT_NONE, "hardware.unreadable", path, 0, NULL, NULL,
                             "cannot read hardware profile: %s",
                             r == -EFBIG ? "larger than 16 MiB" : read_error_to_string(r)) < 0)
                        return -ENOMEM;
                return r;
        }
        return hw_profile_parse(text, size, path, ret, errors);
}
