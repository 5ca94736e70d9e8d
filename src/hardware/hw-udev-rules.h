/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "basic/diag.h"
#include "hw-device.h"

struct Root;

/* Units that udev rules pull in for a device: ENV{SYSTEMD_WANTS}= and +=
 * assignments (the system manager's) and ENV{SYSTEMD_USER_WANTS} (the user
 * managers') in the rules files of a root, with the match keys of the same
 * rule as the device they are for. A rule between a GOTO and its LABEL also
 * carries the negated match of the GOTO rule (when that is one match key;
 * with more it cannot be decided; an unconditional GOTO skips the rule). */

/* The rules directories of systemd 252's udev, in precedence order (a file
 * name found earlier hides the same name later). Debian 12's udevadm reads
 * the first four; lib/udev/rules.d is where Debian packages install theirs
 * (the same directory as usr/lib on a merged-/usr system, a separate one in
 * a package tree). */
extern const char *const hw_udev_rules_dirs[];

#define HW_UDEV_RULES_FILES_MAX 4096u
#define HW_UDEV_RULES_FILE_MAX (4u << 20)
#define HW_UDEV_WANTS_MAX 65536u
#define HW_UDEV_MATCHES_MAX 32u

typedef enum HwUdevMatchKey {
        UDEV_MATCH_SUBSYSTEM,
        UDEV_MATCH_KERNEL,     /* the device's name: last component of its sysfs path */
        UDEV_MATCH_DRIVER,
        UDEV_MATCH_MODALIAS,   /* ATTR{modalias} or ENV{MODALIAS} */
        UDEV_MATCH_ENV,        /* ENV{NAME}: a property of the device */
        UDEV_MATCH_ACTION,     /* ACTION: a present device was added */
} HwUdevMatchKey;

typedef struct HwUdevMatch {
        HwUdevMatchKey key;
        char *name;            /* ENV{NAME} */
        char *value;           /* udev pattern: globs, '|' between alternatives */
        bool negate;           /* != */
} HwUdevMatch;

typedef struct HwUdevWants {
        char *unit;            /* as written (may hold $name, %k, ...) */
        char *glob;            /* every substitution replaced by '*' */
        char *match;           /* the rule's match keys as written, for reports */
        HwUdevMatch *matches;  /* the match keys, when all are simple */
        size_t n_matches;
        bool simple;           /* every match key is understood: presence can be decided */
        bool user;             /* SYSTEMD_USER_WANTS: for the user manager */
        char *file;            /* path inside the root */
        unsigned line;         /* the rule's first line */
} HwUdevWants;

typedef struct HwUdevRules {
        HwUdevWants *wants;
        size_t n, allocated;
        size_t n_files;
} HwUdevRules;

void hw_udev_rules_done(HwUdevRules *r);

/* Reads the rules files of the root. A file that cannot be read, or is
 * larger than HW_UDEV_RULES_FILE_MAX, is a warning in diags. Returns 0,
 * -E2BIG over a cap, -ENOMEM. */
int hw_udev_rules_load(const struct Root *root, HwUdevRules *ret, DiagList *diags);
/* Parses one rules file held in memory (file names it). */
int hw_udev_rules_parse(HwUdevRules *rules, const char *file, const char *text, size_t size);

/* 1 when every match key of w holds for the device, 0 when not, -EDOM
 * when w's match is not simple enough to decide. */
int hw_udev_wants_matches(const HwUdevWants *w, const HwDevice *d);
