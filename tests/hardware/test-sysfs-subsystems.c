/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* hw_sysfs_load_subsystems() on this machine's /sys gives, for the
 * subsystems asked for, exactly the devices of the whole walk with those
 * subsystems, each read alike (the lean source of unitguard-generator).
 * Skipped (77) where /sys is not a sysfs mount. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/macro.h"
#include "hardware/hw-sysfs.h"
#include "tests.h"

static bool str_eq(const char *a, const char *b) {
        return (!a && !b) || (a && b && streq(a, b));
}

static bool in(char *const *l, size_t n, const char *s) {
        for (size_t i = 0; s && i < n; i++)
                if (streq(l[i], s))
                        return true;
        return false;
}

static void compare(const HwDeviceSet *full, const HwDeviceSet *lean, char *const *subs, size_t n_subs) {
        size_t n_expected = 0;

        for (size_t i = 0; i < full->n; i++) {
                const HwDevice *a = &full->devices[i], *b;

                if (!in(subs, n_subs, a->subsystem))
                        continue;
                n_expected++;
                b = hw_device_set_find_syspath(lean, a->syspath);
                if (!b) {
                        fprintf(stderr, "missing from the lean read: %s (%s)\n", a->syspath, a->subsystem);
                        tests_failed++;
                        continue;
                }
                CHECK(str_eq(a->modalias, b->modalias));
                CHECK(str_eq(a->subsystem, b->subsystem));
                CHECK(str_eq(a->driver, b->driver));
                CHECK(str_eq(a->devname, b->devname));
                CHECK_INT_EQ(a->n_props, b->n_props);
        }
        CHECK_INT_EQ(lean->n, n_expected);
}

TEST(lean_is_whole_walk) {
        _cleanup_(hw_device_set_done) HwDeviceSet full = {};
        _cleanup_(diag_list_done) DiagList d1 = {}, d2 = {};
        char *subs[64];
        size_t n_subs = 0;
        int r;

        CHECK_INT_EQ(hw_sysfs_load("/sys", &full, &d1), 0);
        /* Every subsystem of this machine, then each alone. */
        for (size_t i = 0; i < full.n && n_subs < ELEMENTSOF(subs); i++)
                if (full.devices[i].subsystem && !in(subs, n_subs, full.devices[i].subsystem))
                        subs[n_subs++] = full.devices[i].subsystem;
        CHECK(n_subs > 0);
        {
                _cleanup_(hw_device_set_done) HwDeviceSet lean = {};

                r = hw_sysfs_load_subsystems("/sys", subs, n_subs, &lean, &d2);
                CHECK_INT_EQ(r, 0);
                compare(&full, &lean, subs, n_subs);
        }
        for (size_t i = 0; i < n_subs; i++) {
                _cleanup_(hw_device_set_done) HwDeviceSet lean = {};

                CHECK_INT_EQ(hw_sysfs_load_subsystems("/sys", &subs[i], 1, &lean, &d2), 0);
                compare(&full, &lean, &subs[i], 1);
        }
}

TEST(absent_and_bad_names) {
        _cleanup_(hw_device_set_done) HwDeviceSet lean = {};
        _cleanup_(diag_list_done) DiagList d = {};
        char *absent[] = { (char *) "no-such-subsystem" }, *bad[] = { (char *) "../class" };

        CHECK_INT_EQ(hw_sysfs_load_subsystems("/sys", absent, 1, &lean, &d), 0);
        CHECK_INT_EQ(lean.n, 0);
        hw_device_set_done(&lean);
        CHECK_INT_EQ(hw_sysfs_load_subsystems("/sys", bad, 1, &lean, &d), -EINVAL);
        /* A fixture tree is not sysfs: the caller walks it whole. */
        CHECK_INT_EQ(hw_sysfs_load_subsystems("/tmp", absent, 1, &lean, &d), -EMEDIUMTYPE);
}

int main(int argc, char **argv) {
        struct {
                const char *name;
                void (*fn)(void);
        } cases[] = { T(lean_is_whole_walk), T(absent_and_bad_names) };
        _cleanup_(hw_device_set_done) HwDeviceSet probe = {};
        _cleanup_(diag_list_done) DiagList d = {};
        char *none[] = { (char *) "no-such-subsystem" };

        if (hw_sysfs_load_subsystems("/sys", none, 1, &probe, &d) == -EMEDIUMTYPE) {
                printf("/sys is not a sysfs mount: skipped\n");
                return 77;
        }
        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                int before = tests_failed;

                cases[i].fn();
                printf("%s %s\n", tests_failed == before ? "ok" : "FAIL", cases[i].name);
        }
        return tests_failed ? 1 : 0;
}
