/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The hardware context: devices, their hwdb properties, udev rules. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "hw-context.h"
#include "hw-profile.h"
#include "hw-sysfs.h"
#include "hwdb/hwdb-db.h"
#include "hwdb/hwdb-guard.h"
#include "hwdb/hwdb-lookup.h"
#include "lookup/root.h"

void hw_context_done(HwContext *c) {
        hw_device_set_done(&c->devices);
        free(c->hwdb_source);
        hw_udev_rules_done(&c->udev);
        diag_list_done(&c->diags);
        *c = (HwContext) {};
}

int hw_context_load_devices(HwContext *c, const HwOptions *o, DiagList *errors) {
        const char *dir = o->sysfs_dir ? o->sysfs_dir : "/sys";
        int r;

        if (c->have_devices)
                return 0;
        if (o->profile) {
                r = hw_profile_load(o->profile, &c->devices, errors);
                if (r == -ENOMEM)
                        return r;
        } else {
                r = o->n_subsystems > 0 ? hw_sysfs_load_subsystems(dir, o->subsystems, o->n_subsystems, &c->devices,
                                                                   &c->diags)
                                        : -EMEDIUMTYPE;
                if (r == -EMEDIUMTYPE || r == -EINVAL)
                        r = hw_sysfs_load(dir, &c->devices, &c->diags);
                if (r < 0 && r != -ENOMEM &&
                    diag_add(errors, DIAG_ERROR, EFFECT_NONE, "hardware.unreadable", dir, 0, NULL, NULL,
                             "cannot read devices: %s",
                             r == -E2BIG ? "more devices or directories than unitguard reads"
                             : r == -ENOENT ? "no devices/ directory"
                                            : strerror(-r)) < 0)
                        return -ENOMEM;
        }
        if (r < 0)
                return r;
        c->have_devices = true;
        return 0;
}

typedef struct Fill {
        HwdbBin *db;
        HwdbLookup *l;
        HwDevice *d;
} Fill;

/* Guarded: may be abandoned at any read of the mapping, so every string
 * it copies is stored in the device right away. */
static int fill_one(void *userdata) {
        Fill *f = userdata;
        HwDevice *d = f->d;
        int n;

        n = hwdb_lookup(f->l, f->db, d->modalias);
        if (n <= 0)
                return n;
        d->hwdb_props = new0(char *, (size_t) n);
        if (!d->hwdb_props)
                return -ENOMEM;
        for (int i = 0; i < n; i++) {
                if (asprintf(&d->hwdb_props[i], "%s=%s", f->l->props[i].key, f->l->props[i].value) < 0)
                        return -ENOMEM;
                d->n_hwdb_props++;
        }
        return 0;
}

int hw_context_load_hwdb(HwContext *c, const HwOptions *o, DiagList *errors) {
        _cleanup_(hwdb_bin_freep) HwdbBin *db = NULL;
        _cleanup_free_ char *path = NULL;
        _cleanup_(diag_list_done) DiagList diags = {};
        HwdbLookup l = {};
        HwdbGuard guard = {};
        const char *reason = NULL;
        int r;

        if (c->hwdb_source)
                return 0;
        if (o->hwdb_bin) {
                r = hwdb_bin_open(o->hwdb_bin, &db, &reason);
                path = strdup(o->hwdb_bin);
        } else if (o->hwdb_dir) {
                const char *dirs[] = { o->hwdb_dir, NULL };
                size_t n_files = 0, n_unreadable = 0;

                r = hwdb_open_sources(NULL, dirs, &diags, &db, &n_files, &n_unreadable);
                if (r >= 0 && (n_unreadable > 0 || diag_list_count(&diags, DIAG_ERROR) > 0))
                        r = -EBADMSG;
                if (r >= 0 && n_files == 0)
                        r = -ENOENT;
                path = strdup(o->hwdb_dir);
                reason = r == -ENOENT ? "no .hwdb files" : r == -EBADMSG ? "the sources have errors" : NULL;
                if (r == -EBADMSG && diags.n > 0 && diags.items[0].file) {
                        /* The first error names the file and line. */
                        return diag_list_copy(errors, &diags.items[0], NULL) < 0 ? -ENOMEM : r;
                }
        } else {
                r = hwdb_open_default_bin(o->root, &db, &path, &reason);
                if (r == -ENOENT && !path)
                        reason = "no hwdb.bin in systemd's search path";
        }
        if (r == -ENOMEM || (r >= 0 && !path))
                return -ENOMEM;
        if (r < 0) {
                if (diag_add(errors, DIAG_ERROR, EFFECT_NONE, "hardware.hwdb", path ? path : o->root ? o->root : "/", 0,
                             NULL, NULL, "cannot open the hwdb: %s", reason ? reason : strerror(-r)) < 0)
                        return -ENOMEM;
                return r;
        }

        r = hwdb_guard_install(&guard);
        for (size_t i = 0; r >= 0 && i < c->devices.n; i++) {
                HwDevice *d = &c->devices.devices[i];
                Fill f = { .db = db, .l = &l, .d = d };

                if (!d->modalias || d->hwdb_done)
                        continue;
                r = hwdb_guard_run(fill_one, &f);
                d->hwdb_done = true;
        }
        hwdb_guard_uninstall(&guard);
        hwdb_lookup_done(&l);
        if (r < 0) {
                if (r != -ENOMEM &&
                    diag_add(errors, DIAG_ERROR, EFFECT_NONE, "hardware.hwdb", path, 0, NULL, NULL,
                             "cannot look up devices in the hwdb: %s",
                             r == -ESTALE ? "the file changed while in use" : strerror(-r)) < 0)
                        return -ENOMEM;
                return r;
        }
        c->hwdb_source = TAKE_PTR(path);
        return 0;
}

int hw_context_load_udev(HwContext *c, const Root *root) {
        int r;

        if (c->have_udev)
                return 0;
        r = hw_udev_rules_load(root, &c->udev, &c->diags);
        if (r < 0)
                return r;
        c->have_udev = true;
        return 0;
}

static const HwDevice *find_subsys_name(const HwDeviceSet *s, const char *subsystem, size_t sl, const char *name) {
        for (size_t i = 0; i < s->n; i++) {
                const HwDevice *d = &s->devices[i];

                if (d->subsystem && strlen(d->subsystem) == sl && strncmp(d->subsystem, subsystem, sl) == 0 &&
                    streq(hw_device_sysname(d), name))
                        return d;
        }
        return NULL;
}

/* /sys/class/S/N, /sys/subsystem/S/devices/N, /sys/bus/S/devices/N */
static const HwDevice *find_sys_alias(const HwDeviceSet *s, const char *path) {
        const char *p, *slash;

        if ((p = startswith(path, "/sys/class/"))) {
                slash = strchr(p, '/');
                if (!slash && *p) {
                        /* The class directory: some device of it is present. */
                        for (size_t i = 0; i < s->n; i++)
                                if (streq_ptr(s->devices[i].subsystem, p))
                                        return &s->devices[i];
                        return NULL;
                }
                if (!slash || strchr(slash + 1, '/'))
                        return NULL;
                return find_subsys_name(s, p, (size_t) (slash - p), slash + 1);
        }
        if (!(p = startswith(path, "/sys/subsystem/")) && !(p = startswith(path, "/sys/bus/")))
                return NULL;
        slash = strchr(p, '/');
        if (!slash || !startswith(slash, "/devices/") || strchr(slash + strlen("/devices/"), '/'))
                return NULL;
        return find_subsys_name(s, p, (size_t) (slash - p), slash + strlen("/devices/"));
}

const HwDevice *hw_tie_device(const HwContext *c, const HwTie *t) {
        const HwDeviceSet *s = &c->devices;
        const HwDevice *d;

        if (!c->have_devices)
                return NULL;
        if (t->node && startswith(t->node, "/dev/"))
                return hw_device_set_find_node(s, t->node);
        if (t->node && startswith(t->node, "/sys/")) {
                d = hw_device_set_find_syspath(s, t->node);
                return d ? d : find_sys_alias(s, t->node);
        }
        if (t->subsystem && t->sysname)
                return find_subsys_name(s, t->subsystem, strlen(t->subsystem), t->sysname);
        if (t->udev)
                for (size_t i = 0; i < s->n; i++)
                        if (hw_udev_wants_matches(t->udev, &s->devices[i]) > 0)
                                return &s->devices[i];
        return NULL;
}

static const char *find_in(char *const *l, size_t n, const char *key, size_t *i) {
        size_t kl = strlen(key);

        for (; *i < n; (*i)++)
                if (strncmp(l[*i], key, kl) == 0 && l[*i][kl] == '=')
                        return l[(*i)++] + kl + 1;
        return NULL;
}

const char *hw_device_property(const HwDevice *d, const char *key, size_t *i) {
        const char *v;
        size_t j;

        if (*i < d->n_props) {
                v = find_in(d->props, d->n_props, key, i);
                if (v)
                        return v;
        }
        j = *i - d->n_props;
        v = find_in(d->hwdb_props, d->n_hwdb_props, key, &j);
        *i = d->n_props + j;
        return v;
}
