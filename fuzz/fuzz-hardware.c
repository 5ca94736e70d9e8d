/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The hardware inputs on arbitrary bytes; the first byte picks the parser.
 *   0: a hardware profile. Accepted: every device has a sysfs path, a
 *      modalias (if any) with a ':' and no blank, nodes below /dev, and
 *      lookups by node find a device that has it. Refused: exactly one
 *      error, at a line of the input, that renders as one line.
 *   1: a udev rules file. Parsing fails only for a cap; every unit pulled
 *      in names its line within the input, and its glob is its name when
 *      that has no udev substitution; matching it against a few devices gives 0, 1, or
 *      -EDOM exactly when the rule's match is not simple.
 *   2: a unit name. A device unit for a path gives a path below /dev or
 *      /sys. */
#include <errno.h>

#include "basic/strbuf.h"
#include "fuzz.h"
#include "hardware/hw-profile.h"
#include "hardware/hw-ties.h"
#include "hardware/hw-udev-rules.h"

static unsigned count_lines(const char *s, size_t n) {
        unsigned lines = 1;

        for (size_t i = 0; i < n; i++)
                lines += s[i] == '\n';
        return lines;
}

static void profile(const char *text, size_t size) {
        HwDeviceSet set = {};
        DiagList errors = {};
        int r = hw_profile_parse(text, size, "fuzz", &set, &errors);

        if (r == -ENOMEM)
                abort();
        if (r < 0) {
                StrBuf t = {};

                fuzz_assert(errors.n == 1 && errors.items[0].line >= 1 &&
                            errors.items[0].line <= count_lines(text, size));
                fuzz_assert(diag_format_text(&errors.items[0], &t) >= 0);
                fuzz_assert(memchr(t.data, '\n', t.len) == t.data + t.len - 1);
                strbuf_done(&t);
        } else {
                fuzz_assert(errors.n == 0);
                for (size_t i = 0; i < set.n; i++) {
                        const HwDevice *d = &set.devices[i];

                        fuzz_assert(d->syspath && d->syspath[0]);
                        fuzz_assert(!d->modalias || (strchr(d->modalias, ':') && !strpbrk(d->modalias, " \t\n")));
                        if (d->devname) {
                                fuzz_assert(strncmp(d->devname, "/dev/", 5) == 0);
                                fuzz_assert(hw_device_set_find_node(&set, d->devname) != NULL);
                        }
                        for (size_t k = 0; k < d->n_devlinks; k++)
                                fuzz_assert(strncmp(d->devlinks[k], "/dev/", 5) == 0);
                }
        }
        diag_list_done(&errors);
        hw_device_set_done(&set);
}

static void rules(const char *text, size_t size) {
        static const char sample[] = "pci:v000010DEd00002204 SUBSYSTEM=pci DRIVER=nvidia\n"
                                     "- SUBSYSTEM=tty DEVNAME=ttyS0 ID_X=1\n"
                                     "usb:v8087p0026 SUBSYSTEM=usb DEVPATH=/devices/usb1/1-1\n";
        HwUdevRules r = {};
        HwDeviceSet set = {};
        DiagList errors = {};
        unsigned lines = count_lines(text, size);
        int q;

        fuzz_assert(hw_profile_parse(sample, sizeof(sample) - 1, "sample", &set, &errors) == 0);
        q = hw_udev_rules_parse(&r, "fuzz.rules", text, size);
        if (q == -ENOMEM)
                abort();
        fuzz_assert(q == 0 || q == -E2BIG);
        for (size_t i = 0; i < r.n; i++) {
                const HwUdevWants *w = &r.wants[i];

                fuzz_assert(w->line >= 1 && w->line <= lines);
                fuzz_assert(w->unit[0]);
                /* Without substitutions the glob is the name itself. */
                if (!strpbrk(w->unit, "$%"))
                        fuzz_assert(strcmp(w->glob, w->unit) == 0);
                for (size_t k = 0; k < set.n; k++) {
                        int m = hw_udev_wants_matches(w, &set.devices[k]);

                        fuzz_assert(w->simple ? (m == 0 || m == 1) : m == -EDOM);
                }
        }
        hw_udev_rules_done(&r);
        hw_device_set_done(&set);
        diag_list_done(&errors);
}

static void unit_name(const char *text, size_t size) {
        char *name = fuzz_xmalloc(size + 1), *path = NULL;
        int r;

        memcpy(name, text, size);
        name[size] = '\0';
        r = hw_device_unit_to_path(name, &path);
        if (r == -ENOMEM)
                abort();
        fuzz_assert(r == 0 || r == 1);
        fuzz_assert((r == 1) == (path != NULL));
        if (path)
                fuzz_assert(strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/sys/", 5) == 0);
        free(path);
        free(name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        char *text;

        if (size < 1)
                return 0;
        text = fuzz_copy(data + 1, size - 1, 0);
        switch (data[0] % 3) {
        case 0:
                profile(text, size - 1);
                break;
        case 1:
                rules(text, size - 1);
                break;
        default:
                unit_name(text, size - 1);
        }
        free(text);
        return 0;
}
