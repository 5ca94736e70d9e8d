/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "basic/diag.h"

/* The devices present on a machine, as unitguard's hardware conditions see
 * them: from a sysfs tree (hw-sysfs.c) or a hardware profile file
 * (hw-profile.c). See HARDWARE in unitguard.policy(5). */

/* Caps on what is read: a sysfs tree or profile with more devices is an
 * error; sysfs attribute files are at most one page in the kernel. */
#define HW_DEVICES_MAX 65536u
#define HW_ATTR_FILE_MAX 4096u

typedef struct HwDevice {
        char *syspath;         /* sysfs: "/sys/devices/..." as seen on the machine;
                                * profile: DEVPATH= or "PROFILE:LINE" */
        char *modalias;        /* NULL when the device has none */
        char *subsystem, *driver;
        char *devname;         /* device node, "/dev/..."; NULL when none */
        char **devlinks;       /* further node names (profile DEVLINK=), "/dev/..." */
        size_t n_devlinks;
        bool has_devnum;
        unsigned major, minor;
        char **props;          /* "KEY=VALUE": uevent lines, profile properties */
        size_t n_props;
        /* Properties the hwdb gives the modalias (hw-context.c), filled on
         * first use: "KEY=VALUE". */
        bool hwdb_done;
        char **hwdb_props;
        size_t n_hwdb_props;
} HwDevice;

typedef struct HwDeviceSet {
        char *source;          /* "sysfs DIR" or "profile FILE", for reports */
        char *sysfs_dir;       /* the sysfs directory, when read from one */
        HwDevice *devices;
        size_t n, allocated;
} HwDeviceSet;

void hw_device_done(HwDevice *d);
void hw_device_set_done(HwDeviceSet *s);
/* Appends a zeroed device; *ret points into the set (valid until the next
 * add). -E2BIG beyond HW_DEVICES_MAX. */
int hw_device_set_add(HwDeviceSet *s, HwDevice **ret);
/* Adds "KEY=VALUE" to a device's own properties. */
int hw_device_add_prop(HwDevice *d, const char *key, const char *value);
/* The value of KEY among a device's own properties, or NULL. */
const char *hw_device_prop(const HwDevice *d, const char *key);

/* The device whose node (DEVNAME or a DEVLINK) is path, or NULL. For
 * /dev/char/MAJ:MIN and /dev/block/MAJ:MIN (udev's links by number) the
 * device with that number; a set read from sysfs resolves those through
 * the tree's dev/char and dev/block links. */
const HwDevice *hw_device_set_find_node(const HwDeviceSet *s, const char *path);
/* The device with that syspath ("/sys/devices/..."), or NULL. */
const HwDevice *hw_device_set_find_syspath(const HwDeviceSet *s, const char *syspath);

/* The device's kernel name (udev's KERNEL): the last component of its
 * sysfs path; for a profile device without DEVPATH=, of its node. */
const char *hw_device_sysname(const HwDevice *d);

/* A short name for reports: the node, else the syspath. */
const char *hw_device_label(const HwDevice *d);
