/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The set of devices present, and lookups in it. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "basic/alloc-util.h"
#include "hw-device.h"

static void strv_free_n(char **l, size_t n) {
        for (size_t i = 0; i < n; i++)
                free(l[i]);
        free(l);
}

void hw_device_done(HwDevice *d) {
        free(d->syspath);
        free(d->modalias);
        free(d->subsystem);
        free(d->driver);
        free(d->devname);
        strv_free_n(d->devlinks, d->n_devlinks);
        strv_free_n(d->props, d->n_props);
        strv_free_n(d->hwdb_props, d->n_hwdb_props);
        *d = (HwDevice) {};
}

void hw_device_set_done(HwDeviceSet *s) {
        for (size_t i = 0; i < s->n; i++)
                hw_device_done(&s->devices[i]);
        free(s->devices);
        free(s->source);
        free(s->sysfs_dir);
        *s = (HwDeviceSet) {};
}

int hw_device_set_add(HwDeviceSet *s, HwDevice **ret) {
        int r;

        if (s->n >= HW_DEVICES_MAX)
                return -E2BIG;
        r = GREEDY_REALLOC(s->devices, s->allocated, s->n + 1);
        if (r < 0)
                return r;
        s->devices[s->n] = (HwDevice) {};
        *ret = &s->devices[s->n++];
        return 0;
}

int hw_device_add_prop(HwDevice *d, const char *key, const char *value) {
        char **l, *p = NULL;

        if (asprintf(&p, "%s=%s", key, value) < 0)
                return -ENOMEM;
        l = reallocarray_safe(d->props, d->n_props + 1, sizeof(char *));
        if (!l) {
                free(p);
                return -ENOMEM;
        }
        d->props = l;
        d->props[d->n_props++] = p;
        return 0;
}

const char *hw_device_prop(const HwDevice *d, const char *key) {
        size_t kl = strlen(key);

        for (size_t i = 0; i < d->n_props; i++)
                if (strncmp(d->props[i], key, kl) == 0 && d->props[i][kl] == '=')
                        return d->props[i] + kl + 1;
        return NULL;
}

const HwDevice *hw_device_set_find_syspath(const HwDeviceSet *s, const char *syspath) {
        for (size_t i = 0; i < s->n; i++)
                if (streq(s->devices[i].syspath, syspath))
                        return &s->devices[i];
        return NULL;
}

/* "/dev/char/4:64" -> block false, 4, 64. */
static bool parse_devnum_link(const char *path, bool *ret_block, unsigned *ret_major, unsigned *ret_minor) {
        const char *p;
        unsigned ma, mi;
        int n = 0;

        if ((p = startswith(path, "/dev/char/")))
                *ret_block = false;
        else if ((p = startswith(path, "/dev/block/")))
                *ret_block = true;
        else
                return false;
        if (sscanf(p, "%u:%u%n", &ma, &mi, &n) != 2 || p[n] || p[0] < '0' || p[0] > '9')
                return false;
        *ret_major = ma;
        *ret_minor = mi;
        return true;
}

/* Lexically resolves a sysfs link target relative to the directory that
 * holds the link ("dev/char"), giving "/sys/devices/..." or NULL when it
 * leaves the tree or does not lead into devices/. */
static char *resolve_devnum_link(const char *dir_rel, const char *target) {
        char buf[PATH_MAX];
        size_t len;

        if (target[0] == '/' || strlen(dir_rel) + strlen(target) + 2 > sizeof(buf))
                return NULL;
        len = (size_t) snprintf(buf, sizeof(buf), "%s", dir_rel);
        for (const char *t = target; *t;) {
                const char *slash = strchr(t, '/');
                size_t n = slash ? (size_t) (slash - t) : strlen(t);

                if (n == 0 || (n == 1 && t[0] == '.'))
                        ;
                else if (n == 2 && t[0] == '.' && t[1] == '.') {
                        char *last = len > 0 ? memrchr(buf, '/', len) : NULL;

                        if (len == 0)
                                return NULL;   /* above the sysfs directory */
                        len = last ? (size_t) (last - buf) : 0;
                        buf[len] = '\0';
                } else {
                        if (len > 0)
                                buf[len++] = '/';
                        memcpy(buf + len, t, n);
                        len += n;
                        buf[len] = '\0';
                }
                t += n;
                if (*t == '/')
                        t++;
        }
        if (!startswith(buf, "devices/"))
                return NULL;
        {
                char *s = NULL;

                if (asprintf(&s, "/sys/%s", buf) < 0)
                        return NULL;
                return s;
        }
}

static const HwDevice *find_devnum(const HwDeviceSet *s, bool block, unsigned ma, unsigned mi) {
        /* The tree's own index first: dev/char/MAJ:MIN is a link into devices/. */
        if (s->sysfs_dir) {
                char link[64], target[PATH_MAX];
                _cleanup_free_ char *syspath = NULL;
                int dfd = open(s->sysfs_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                ssize_t n = -1;

                if (dfd >= 0) {
                        snprintf(link, sizeof(link), "dev/%s/%u:%u", block ? "block" : "char", ma, mi);
                        n = readlinkat(dfd, link, target, sizeof(target) - 1);
                        close(dfd);
                }
                if (n > 0) {
                        target[n] = '\0';
                        syspath = resolve_devnum_link(block ? "dev/block" : "dev/char", target);
                        if (syspath)
                                return hw_device_set_find_syspath(s, syspath);
                        return NULL;
                }
        }
        for (size_t i = 0; i < s->n; i++) {
                const HwDevice *d = &s->devices[i];

                if (d->has_devnum && d->major == ma && d->minor == mi &&
                    streq_ptr(d->subsystem, "block") == block)
                        return d;
        }
        return NULL;
}

const HwDevice *hw_device_set_find_node(const HwDeviceSet *s, const char *path) {
        unsigned ma, mi;
        bool block;

        if (parse_devnum_link(path, &block, &ma, &mi))
                return find_devnum(s, block, ma, mi);
        for (size_t i = 0; i < s->n; i++) {
                const HwDevice *d = &s->devices[i];

                if (d->devname && streq(d->devname, path))
                        return d;
                for (size_t k = 0; k < d->n_devlinks; k++)
                        if (streq(d->devlinks[k], path))
                                return d;
        }
        return NULL;
}

const char *hw_device_sysname(const HwDevice *d) {
        const char *s = startswith(d->syspath, "/sys/") || !d->devname ? d->syspath : d->devname;
        const char *slash = strrchr(s, '/');

        return slash ? slash + 1 : s;
}

const char *hw_device_label(const HwDevice *d) {
        return d->devname ? d->devname : d->syspath;
}
