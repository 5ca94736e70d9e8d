/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Device ties of a unit, from its files, its name, udev rules and the policy. */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "hw-ties.h"
#include "validate/specifier.h"
#include "validate/unit-name.h"

static const char *const tie_kinds[_HW_TIE_KIND_MAX] = {
        [HW_TIE_DEPENDENCY] = "dependency",
        [HW_TIE_INSTANCE] = "instance",
        [HW_TIE_UDEV] = "udev-rule",
        [HW_TIE_CONDITION] = "condition",
        [HW_TIE_POLICY] = "policy",
};

const char *hw_tie_kind_to_string(HwTieKind k) {
        return k >= 0 && k < _HW_TIE_KIND_MAX ? tie_kinds[k] : NULL;
}

static void tie_done(HwTie *t) {
        free(t->via);
        free(t->node);
        free(t->subsystem);
        free(t->sysname);
        free(t->file);
}

void hw_tie_list_done(HwTieList *l) {
        for (size_t i = 0; i < l->n; i++)
                tie_done(&l->items[i]);
        free(l->items);
        *l = (HwTieList) {};
}

/* Takes ownership of via and node (also on failure). */
static int add_tie(HwTieList *l, HwTieKind kind, char *via, char *node, bool bound, const char *file,
                   unsigned line, HwTie **ret) {
        HwTie *t;
        int r;

        if (l->n >= HW_TIES_MAX) {
                free(via);
                free(node);
                return 0;
        }
        r = GREEDY_REALLOC(l->items, l->allocated, l->n + 1);
        if (r < 0) {
                free(via);
                free(node);
                return r;
        }
        t = &l->items[l->n++];
        *t = (HwTie) { .kind = kind, .via = via, .node = node, .bound = bound, .line = line };
        if (!via)
                return -ENOMEM;
        if (file && !(t->file = strdup(file)))
                return -ENOMEM;
        if (ret)
                *ret = t;
        return 0;
}

int hw_device_unit_to_path(const char *unit, char **ret) {
        _cleanup_free_ char *prefix = NULL, *path = NULL;
        size_t n;
        int r;

        *ret = NULL;
        if (!endswith(unit, ".device") || !unit_name_is_valid(unit, UNIT_NAME_PLAIN))
                return 0;
        n = strlen(unit) - strlen(".device");
        prefix = strndup(unit, n);
        if (!prefix)
                return -ENOMEM;
        r = unit_name_path_unescape(prefix, &path);
        if (r == -ENOMEM)
                return r;
        if (r < 0 || !(startswith(path, "/dev/") || startswith(path, "/sys/")))
                return 0;
        *ret = TAKE_PTR(path);
        return 1;
}

static bool is_dependency_key(const char *k) {
        static const char *const keys[] = { "BindsTo", "Requires", "Wants", "Requisite", "PartOf", "After", NULL };

        for (size_t i = 0; keys[i]; i++)
                if (streq(keys[i], k))
                        return true;
        return false;
}

/* Condition and Assert keys whose argument is a path. */
static bool is_path_condition(const char *k) {
        static const char *const keys[] = { "PathExists", "PathExistsGlob", "PathIsSymbolicLink", "PathIsDirectory",
                                            "PathIsReadWrite", "PathIsMountPoint", "PathIsEncrypted",
                                            "DirectoryNotEmpty", "FileNotEmpty", "FileIsExecutable", NULL };
        const char *rest = startswith(k, "Condition");

        if (!rest)
                rest = startswith(k, "Assert");
        for (size_t i = 0; rest && keys[i]; i++)
                if (streq(keys[i], rest))
                        return true;
        return false;
}

static bool is_hardware_condition(const char *k) {
        const char *rest = startswith(k, "Condition");

        if (!rest)
                rest = startswith(k, "Assert");
        return rest && (streq(rest, "Virtualization") || streq(rest, "Firmware") || streq(rest, "CPUFeature"));
}

static int dependency_ties(HwTieList *l, const UnitGroup *g, const UnitFile *f, const UnitEntry *e, const char *key,
                           const char *value, unsigned version) {
        _cleanup_free_ char *copy = strdup(value);
        int r;

        /* An empty dependency assignment resets nothing: systemd ignores it. */
        if (!copy)
                return -ENOMEM;
        for (char *w = copy, *end; *w; w = end) {
                _cleanup_free_ char *expanded = NULL, *path = NULL, *via = NULL;
                SpecifierInfo info = {};

                w += strspn(w, " \t");
                if (!*w)
                        break;
                end = w + strcspn(w, " \t");
                if (*end)
                        *end++ = '\0';
                if (!endswith(w, ".device"))
                        continue;
                r = specifier_expand(w, SPECIFIER_UNIT_NAME, g->name, version, &expanded, &info);
                if (r == -ENOMEM)
                        return r;
                if (r < 0 || info.deferred || info.machine) {
                        /* A template's dependency: a device per instance. */
                        if (!startswith(w, "dev-") && !startswith(w, "sys-") && !startswith(w, "%"))
                                continue;
                        if (asprintf(&via, "%s=%s", key, w) < 0)
                                return -ENOMEM;
                        r = add_tie(l, HW_TIE_DEPENDENCY, TAKE_PTR(via), NULL, true, f->path, e->line_last, NULL);
                        if (r < 0)
                                return r;
                        continue;
                }
                r = hw_device_unit_to_path(expanded, &path);
                if (r <= 0) {
                        if (r < 0)
                                return r;
                        continue;
                }
                if (asprintf(&via, "%s=%s", key, expanded) < 0)
                        return -ENOMEM;
                r = add_tie(l, HW_TIE_DEPENDENCY, TAKE_PTR(via), TAKE_PTR(path), true, f->path, e->line_last, NULL);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int condition_tie(HwTieList *l, const UnitFile *f, const UnitEntry *e, const char *key, const char *value) {
        const char *p = value;
        bool negated = false;
        char *via = NULL, *node = NULL;

        p += strspn(p, " \t");
        while (*p == '|' || *p == '!') {
                if (*p == '!')
                        negated = true;
                p++;
        }
        if (is_path_condition(key)) {
                if (!startswith(p, "/dev/") && !startswith(p, "/sys/") && !streq(p, "/dev") && !streq(p, "/sys"))
                        return 0;
                node = strdup(p);
                if (!node)
                        return -ENOMEM;
        } else if (!is_hardware_condition(key) || !value[0])
                return 0;
        if (asprintf(&via, "%s=%s", key, value) < 0) {
                free(node);
                return -ENOMEM;
        }
        /* A path condition names a device the unit needs, unless negated;
         * PathExistsGlob names a pattern, not one device. */
        return add_tie(l, HW_TIE_CONDITION, via, node, node && !negated && !strstr(key, "Glob"), f->path,
                       e->line_last, NULL);
}

typedef enum InstanceKind {
        INSTANCE_DEV_NAME,     /* the instance names a node below /dev: tty1, ttyS0 */
        INSTANCE_PATH,         /* the instance is an escaped path: dev-sda1 */
        INSTANCE_SUBSYS_NAME,  /* SUBSYSTEM:NAME (systemd-backlight@backlight:intel_backlight) */
        INSTANCE_NET,          /* a network interface */
        INSTANCE_BLOCK_DEVNUM, /* MAJ:MIN of a block device */
} InstanceKind;

/* Templates whose instance is a device. Other templates count when their
 * instance unescapes to a path below /dev or /sys. */
static const struct {
        const char *prefix;
        InstanceKind kind;
} device_templates[] = {
        { "getty", INSTANCE_DEV_NAME },
        { "serial-getty", INSTANCE_DEV_NAME },
        { "autovt", INSTANCE_DEV_NAME },
        { "systemd-backlight", INSTANCE_SUBSYS_NAME },
        { "systemd-fsck", INSTANCE_PATH },
        { "systemd-makefs", INSTANCE_PATH },
        { "systemd-mkswap", INSTANCE_PATH },
        { "systemd-hibernate-resume", INSTANCE_PATH },
        { "lvm2-pvscan", INSTANCE_BLOCK_DEVNUM },
        { "ifup", INSTANCE_NET },
        { "wpa_supplicant", INSTANCE_NET },
        { "wpa_supplicant-wired", INSTANCE_NET },
        { "wpa_supplicant-nl80211", INSTANCE_NET },
};

static int instance_tie(HwTieList *l, const UnitGroup *g) {
        _cleanup_free_ char *prefix = NULL, *instance = NULL, *text = NULL, *node = NULL, *via = NULL;
        const char *file = g->n_files > 0 && g->files[0].file ? g->files[0].file->path : NULL;
        int kind = -1, r;
        HwTie *t = NULL;

        if (!g->name || unit_name_classify(g->name) != UNIT_NAME_INSTANCE)
                return 0;
        r = unit_name_to_prefix(g->name, &prefix);
        if (r >= 0)
                r = unit_name_to_instance(g->name, &instance);
        if (r < 0)
                return r == -ENOMEM ? r : 0;
        for (size_t i = 0; i < ELEMENTSOF(device_templates); i++)
                if (streq(device_templates[i].prefix, prefix))
                        kind = (int) device_templates[i].kind;
        if (kind < 0) {
                r = unit_name_path_unescape(instance, &node);
                if (r == -ENOMEM)
                        return r;
                if (r < 0 || !(startswith(node, "/dev/") || startswith(node, "/sys/")))
                        return 0;
                kind = INSTANCE_PATH;
        } else if (kind == INSTANCE_PATH) {
                r = unit_name_path_unescape(instance, &node);
                if (r == -ENOMEM)
                        return r;
                if (r < 0)
                        return 0;
        } else {
                r = unit_name_unescape(instance, &text);
                if (r == -ENOMEM)
                        return r;
                if (r < 0 || !text[0] || strchr(text, '/') || strstr(text, ".."))
                        return 0;
                if (kind == INSTANCE_DEV_NAME)
                        r = asprintf(&node, "/dev/%s", text);
                else if (kind == INSTANCE_BLOCK_DEVNUM)
                        r = asprintf(&node, "/dev/block/%s", text);
                else if (kind == INSTANCE_NET)
                        r = asprintf(&node, "/sys/subsystem/net/devices/%s", text);
                else
                        r = 0;
                if (r < 0)
                        return -ENOMEM;
        }
        /* Already named by a dependency (serial-getty@ has BindsTo=dev-%i.device). */
        for (size_t i = 0; node && i < l->n; i++)
                if (l->items[i].node && streq(l->items[i].node, node))
                        return 0;
        if (asprintf(&via, "instance of %s@%s", prefix, strrchr(g->name, '.')) < 0)
                return -ENOMEM;
        r = add_tie(l, HW_TIE_INSTANCE, TAKE_PTR(via), TAKE_PTR(node), true, file, 0, &t);
        if (r < 0 || !t || kind != INSTANCE_SUBSYS_NAME)
                return r;
        {
                char *colon = strchr(text, ':');

                if (!colon || colon == text || !colon[1])
                        return 0;
                t->subsystem = strndup(text, (size_t) (colon - text));
                t->sysname = strdup(colon + 1);
                return t->subsystem && t->sysname ? 0 : -ENOMEM;
        }
}

static bool entry_live(const UnitEntry *e) {
        return e->edit != EDIT_DROP && e->edit != EDIT_COMMENT;
}

int hw_unit_ties(const UnitGroup *g, const HwUdevRules *rules, char *const *globs, size_t n_globs,
                 unsigned version, bool user_scope, HwTieList *ret) {
        _cleanup_(hw_tie_list_done) HwTieList l = {};
        int r;

        for (size_t fi = 0; fi < g->n_files; fi++) {
                const UnitFile *f = g->files[fi].file;

                for (size_t i = 0; f && i < f->n_entries; i++) {
                        const UnitEntry *e = &f->entries[i];
                        const char *s = unit_entry_section(f, e);
                        const char *key = e->edit == EDIT_REPLACE && e->edit_key ? e->edit_key : e->key;
                        const char *value = e->edit == EDIT_REPLACE && e->edit_text ? e->edit_text : e->value;

                        if (!s || !streq(s, "Unit") || !entry_live(e) ||
                            f->sections[e->section].state != SECTION_KNOWN)
                                continue;
                        if (is_dependency_key(key))
                                r = dependency_ties(&l, g, f, e, key, value, version);
                        else if (startswith(key, "Condition") || startswith(key, "Assert"))
                                r = condition_tie(&l, f, e, key, value);
                        else
                                r = 0;
                        if (r < 0)
                                return r;
                }
        }
        r = instance_tie(&l, g);
        if (r < 0)
                return r;
        /* udev pulls in instances (and plain units), never a template. */
        for (size_t i = 0; rules && g->name && !unit_name_is_template(g->name) && i < rules->n; i++) {
                const HwUdevWants *w = &rules->wants[i];
                HwTie *t = NULL;
                char *via = NULL;

                if (w->user != user_scope || fnmatch(w->glob, g->name, 0) != 0)
                        continue;
                if (asprintf(&via, "ENV{SYSTEMD_%sWANTS}+=\"%s\" at %s:%u", w->user ? "USER_" : "", w->unit,
                             w->file, w->line) < 0)
                        return -ENOMEM;
                r = add_tie(&l, HW_TIE_UDEV, via, NULL, false, w->file, w->line, &t);
                if (r < 0)
                        return r;
                if (t)
                        t->udev = w;
        }
        for (size_t i = 0; g->name && i < n_globs; i++) {
                char *via = NULL;

                if (fnmatch(globs[i], g->name, 0) != 0)
                        continue;
                if (asprintf(&via, "device-units: %s", globs[i]) < 0)
                        return -ENOMEM;
                r = add_tie(&l, HW_TIE_POLICY, via, NULL, false, NULL, 0, NULL);
                if (r < 0)
                        return r;
                break;
        }
        *ret = l;
        l = (HwTieList) {};
        return 0;
}
