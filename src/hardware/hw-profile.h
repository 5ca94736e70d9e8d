/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>

#include "hw-device.h"

/* A hardware profile: the devices of a machine written down, for packaging
 * and CI runs that must not depend on the build host's /sys. One device
 * per line:
 *
 *     MODALIAS [KEY=VALUE]...
 *     - [KEY=VALUE]...                   (a device without a modalias)
 *
 * Words are separated by blanks; '#' starts a comment line. Known keys:
 * SUBSYSTEM, DRIVER, DEVNAME (the node, "/dev/" may be left out), DEVLINK
 * (a further node name, repeatable), DEVPATH (the sysfs path), MAJOR,
 * MINOR; any other KEY=VALUE is a property of the device, as udev would
 * have set it (ID_INPUT_TOUCHPAD=1). See unitguard.policy(5). */

#define HW_PROFILE_FILE_MAX (16u << 20)
#define HW_PROFILE_LINE_MAX 4096u

/* Parses a profile held in memory; source names it in errors. On a bad
 * line returns -EINVAL and adds one error (rule hardware.profile, at
 * SOURCE:LINE) to errors; -E2BIG over HW_DEVICES_MAX, likewise. */
int hw_profile_parse(const char *text, size_t size, const char *source, HwDeviceSet *ret, DiagList *errors);
/* Reads and parses a profile file. A file that cannot be read gives its
 * errno and an error at FILE (rule hardware.unreadable). */
int hw_profile_load(const char *path, HwDeviceSet *ret, DiagList *errors);
