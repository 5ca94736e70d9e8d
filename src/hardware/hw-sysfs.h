/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include "basic/diag.h"
#include "hw-device.h"

/* Directories visited in one sysfs walk, and how deep it goes. */
#define HW_SYSFS_DIRS_MAX 1000000u
#define HW_SYSFS_DEPTH_MAX 64u

/* Reads the devices of a sysfs tree (dir: "/sys" or a fixture): every
 * directory below dir/devices that has a `uevent` or `modalias` file is a
 * device. From `uevent`: MAJOR, MINOR, DEVNAME, DRIVER, SUBSYSTEM (a
 * fixture may write it; the kernel's `subsystem` link is used otherwise),
 * MODALIAS and every other line as a property; the `modalias` file is
 * read when uevent has no MODALIAS= (the kernel writes the same text to
 * both). Symbolic links are never followed (sysfs is full of
 * them, and of loops), only read: `subsystem` and `driver` for their last
 * component, dev/char and dev/block for device numbers. A file that cannot
 * be read or is larger than HW_ATTR_FILE_MAX is a warning in diags and is
 * left out. Returns 0, -ENOENT/-ENOTDIR/-EACCES when dir/devices cannot be
 * opened, -E2BIG over a cap (HW_DEVICES_MAX, HW_SYSFS_DIRS_MAX), -ENOMEM. */
int hw_sysfs_load(const char *dir, HwDeviceSet *ret, DiagList *diags);

/* The devices of the named subsystems only, from a real sysfs: those the
 * class/S and bus/S/devices directories link to, read as hw_sysfs_load()
 * reads them (each once). The kernel links every device of a subsystem
 * there, so for conditions that name their subsystems this is the same
 * answer as the whole walk, at a fraction of its cost. Returns
 * -EMEDIUMTYPE when dir is not a sysfs mount (a fixture tree: walk it
 * whole), -EINVAL for a subsystem name with '/', else as hw_sysfs_load(). */
int hw_sysfs_load_subsystems(const char *dir, char *const *subsystems, size_t n_subsystems, HwDeviceSet *ret,
                             DiagList *diags);
