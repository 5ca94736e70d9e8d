/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>

#include "basic/diag.h"
#include "hw-device.h"
#include "hw-ties.h"
#include "hw-udev-rules.h"

struct Root;

/* What hardware conditions are evaluated against: the devices present,
 * their hwdb properties, and the udev rules of the root. Each part is read
 * only when asked for (the CLI and the generator ask only for what the
 * policy uses), and everything is read up front: evaluating a condition
 * reads no file. */

typedef struct HwOptions {
        const char *sysfs_dir;     /* NULL: "/sys" (unless profile is set) */
        const char *profile;       /* a hardware profile file instead of sysfs */
        const char *hwdb_bin;      /* a compiled hwdb.bin */
        const char *hwdb_dir;      /* a directory of .hwdb sources */
        const char *root;          /* where the default hwdb.bin is searched; NULL: "/" */
        /* Only the devices of these subsystems are needed (the policy's
         * conditions all name theirs): on a real sysfs only they are read
         * (hw_sysfs_load_subsystems()). */
        char *const *subsystems;
        size_t n_subsystems;
} HwOptions;

typedef struct HwContext {
        HwDeviceSet devices;
        bool have_devices;
        char *hwdb_source;         /* the hwdb that gave the properties, NULL when not opened */
        HwUdevRules udev;
        bool have_udev;
        DiagList diags;            /* warnings while reading (unreadable sysfs files, rules) */
} HwContext;

void hw_context_done(HwContext *c);

/* Reads the devices (profile, else sysfs). On failure one error record
 * (rule hardware.profile for a bad profile line, hardware.unreadable
 * otherwise) is added to errors and the errno returned. */
int hw_context_load_devices(HwContext *c, const HwOptions *o, DiagList *errors);

/* Opens the hwdb (hwdb_bin, else hwdb_dir sources, else the root's
 * hwdb.bin in systemd's search order) and looks up every device's
 * modalias in it once, keeping the properties (HwDevice.hwdb_props); the
 * database is closed again. Needs the devices. Errors as above (rule
 * hardware.hwdb). */
int hw_context_load_hwdb(HwContext *c, const HwOptions *o, DiagList *errors);

/* Reads the udev rules of the root (SYSTEMD_WANTS). */
int hw_context_load_udev(HwContext *c, const struct Root *root);

/* The present device a tie names, or NULL: the node (a dev-*.device unit,
 * an instance), the sysfs path (sys-*.device: /sys/devices/..., or
 * /sys/subsystem/S/devices/N, /sys/class/S/N, /sys/bus/S/devices/N), the
 * subsystem and name (systemd-backlight@), or the first device the udev
 * rule's match keys take. NULL also without devices. */
const HwDevice *hw_tie_device(const HwContext *c, const HwTie *t);

/* The value of a property of the device: its own properties (uevent,
 * profile) first, then the hwdb's. NULL when it has none of that name.
 * *i iterates values of the same key when it is set more than once
 * (start at 0). */
const char *hw_device_property(const HwDevice *d, const char *key, size_t *i);
