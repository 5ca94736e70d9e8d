/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Devices from a sysfs tree, without following a single symlink. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "basic/alloc-util.h"
#include "basic/fileio.h"
#include "basic/utf8.h"
#include "hw-sysfs.h"

/* Bytes of directory entries read at once. */
#define HW_SYSFS_DENTS_SIZE 32768

typedef struct Walk {
        const char *dir;
        HwDeviceSet *set;
        DiagList *diags;
        size_t n_dirs;
        char *dents;           /* HW_SYSFS_DENTS_SIZE, for list_dir() */
        bool no_openat2;       /* the kernel has no openat2() */
} Walk;

static int warn(Walk *w, const char *rel, const char *name, const char *fmt, const char *what) {
        _cleanup_free_ char *path = NULL;

        if (asprintf(&path, "%s/%s/%s", w->dir, rel, name) < 0)
                return -ENOMEM;
        return diag_add(w->diags, DIAG_WARNING, EFFECT_NONE, "hardware.sysfs", path, 0, NULL, NULL, "%s%s", fmt,
                        what);
}

/* Reads an attribute file: 1 with its text (trailing newline removed), 0
 * when it does not exist, or a negative errno. A symlink is not followed. */
static int read_attr(int dfd, const char *name, char **ret) {
        _cleanup_free_ char *data = NULL;
        struct stat st = {};
        size_t size = 0;
        int fd, r;

        fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return errno == ENOENT ? 0 : -errno;
        /* A FIFO, socket or device node never stands for an attribute. */
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
                close(fd);
                return S_ISDIR(st.st_mode) ? -EISDIR : -EBADFD;
        }
        r = read_full_fd_sized(fd, st.st_size, HW_ATTR_FILE_MAX, &data, &size);
        close(fd);
        if (r < 0)
                return r;
        if (memchr(data, '\0', size) || !utf8_is_valid(data, size))
                return -EBADMSG;
        while (size > 0 && (data[size - 1] == '\n' || data[size - 1] == ' '))
                data[--size] = '\0';
        *ret = TAKE_PTR(data);
        return 1;
}

static const char *attr_error(int r) {
        return r == -EBADMSG ? "not text (a NUL byte or invalid UTF-8)"
               : r == -ELOOP ? "a symbolic link, not followed"
                             : read_error_to_string(r);
}

/* The last component of a link's target, e.g. the subsystem's name. */
static int link_basename(int dfd, const char *name, char **ret) {
        char target[PATH_MAX];
        const char *slash;
        ssize_t n;

        n = readlinkat(dfd, name, target, sizeof(target) - 1);
        if (n <= 0)
                return 0;
        target[n] = '\0';
        slash = strrchr(target, '/');
        *ret = strdup(slash ? slash + 1 : target);
        return *ret ? 1 : -ENOMEM;
}

static bool printable(const char *s) {
        for (; *s; s++)
                if ((unsigned char) *s < 0x20 || *s == 0x7f)
                        return false;
        return true;
}

static int parse_uevent(HwDevice *d, char *text) {
        int r;

        for (char *line = text, *next; line && *line; line = next) {
                char *eq;

                next = strchr(line, '\n');
                if (next)
                        *next++ = '\0';
                eq = strchr(line, '=');
                if (!eq || eq == line || !printable(line))
                        continue;
                *eq = '\0';
                const char *k = line, *v = eq + 1;
                char **slot = NULL;

                if (streq(k, "MAJOR") || streq(k, "MINOR")) {
                        char *end;
                        unsigned long n = strtoul(v, &end, 10);

                        if (*v >= '0' && *v <= '9' && !*end && n <= UINT_MAX) {
                                *(streq(k, "MAJOR") ? &d->major : &d->minor) = (unsigned) n;
                                d->has_devnum = true;
                        }
                } else if (streq(k, "DEVNAME") && v[0] && !strstr(v, ".."))
                        slot = &d->devname;
                else if (streq(k, "DRIVER") && v[0])
                        slot = &d->driver;
                else if (streq(k, "SUBSYSTEM") && v[0])
                        slot = &d->subsystem;
                else if (streq(k, "MODALIAS") && v[0])
                        slot = &d->modalias;
                if (slot && !*slot) {
                        if (slot == &d->devname)
                                r = asprintf(slot, "%s%s", v[0] == '/' ? "" : "/dev/", v) < 0 ? -ENOMEM : 0;
                        else
                                r = (*slot = strdup(v)) ? 0 : -ENOMEM;
                        if (r < 0)
                                return r;
                }
                r = hw_device_add_prop(d, k, v);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* One device directory: its attributes. */
/* What a directory's listing showed: which of the files and links a device
 * has are there (d_type DT_UNKNOWN: maybe, so they are tried). */
typedef struct DirHas {
        bool uevent, modalias, subsystem, driver;
} DirHas;

static int read_device(Walk *w, int dfd, const char *rel, const DirHas *has) {
        _cleanup_free_ char *uevent = NULL, *modalias = NULL;
        HwDevice *d;
        int ru = 0, rm = 0, r;

        if (has->uevent)
                ru = read_attr(dfd, "uevent", &uevent);
        /* The kernel writes the same text to MODALIAS= in uevent: the
         * modalias file is read only when uevent does not have it. */
        if (has->modalias && !(ru > 0 && (startswith(uevent, "MODALIAS=") || strstr(uevent, "\nMODALIAS="))))
                rm = read_attr(dfd, "modalias", &modalias);
        if (ru == 0 && rm == 0)
                return 0;      /* not a device: power/, subdirectories of attributes */
        /* (With MODALIAS= in uevent, rm is 0 and the uevent line gives it.) */
        if (ru < 0 && ru != -ENOMEM) {
                r = warn(w, rel, "uevent", "cannot read: ", attr_error(ru));
                if (r < 0)
                        return r;
        }
        if (rm < 0 && rm != -ENOMEM) {
                r = warn(w, rel, "modalias", "cannot read: ", attr_error(rm));
                if (r < 0)
                        return r;
        }
        if (ru == -ENOMEM || rm == -ENOMEM)
                return -ENOMEM;
        if (rm > 0 && !printable(modalias)) {
                r = warn(w, rel, "modalias", "control characters, ", "ignored");
                if (r < 0)
                        return r;
                free(modalias);
                modalias = NULL;
        }
        r = hw_device_set_add(w->set, &d);
        if (r < 0)
                return r;
        if (asprintf(&d->syspath, "/sys/%s", rel) < 0)
                return -ENOMEM;
        if (ru > 0) {
                r = parse_uevent(d, uevent);
                if (r < 0)
                        return r;
        }
        if (modalias && modalias[0]) {
                free(d->modalias);
                d->modalias = TAKE_PTR(modalias);
        }
        if (!d->subsystem && has->subsystem) {
                r = link_basename(dfd, "subsystem", &d->subsystem);
                if (r < 0)
                        return r;
        }
        if (!d->driver && has->driver) {
                r = link_basename(dfd, "driver", &d->driver);
                if (r < 0)
                        return r;
        }
        return 0;
}

typedef struct SubDirs {
        char **names;
        bool *unknown;         /* d_type DT_UNKNOWN: to be checked */
        size_t n, allocated, allocated_unknown;
} SubDirs;

static void subdirs_done(SubDirs *s) {
        for (size_t i = 0; i < s->n; i++)
                free(s->names[i]);
        free(s->names);
        free(s->unknown);
        *s = (SubDirs) {};
}

/* One pass over the listing: the subdirectories to walk, and which device
 * files are there, so that nothing absent is opened or stat'ed (in /sys
 * most directories are not devices, and d_type is always known). The
 * listing is read with getdents64() into the walk's buffer: a DIR stream
 * costs two more system calls per directory (fcntl, fstat), and on a
 * virtual machine system calls are most of a walk's cost. */
static int list_dir_full(Walk *w, int dfd, bool want_subdirs, bool any_type, DirHas *has, SubDirs *subs) {
        for (;;) {
                ssize_t n = getdents64(dfd, w->dents, HW_SYSFS_DENTS_SIZE);

                if (n <= 0)
                        /* A listing cut short by an error leaves out what
                         * was not seen, as a directory that cannot be
                         * opened does. */
                        return 0;
                for (ssize_t off = 0; off < n;) {
                        const struct dirent64 *de = (const struct dirent64 *) (w->dents + off);
                        const char *name = de->d_name;
                        bool unknown = de->d_type == DT_UNKNOWN;
                        int r;

                        off += de->d_reclen;
                        /* Whatever their type: reading them says what is wrong. */
                        if (streq(name, "uevent"))
                                has->uevent = true;
                        else if (streq(name, "modalias"))
                                has->modalias = true;
                        else if (streq(name, "subsystem"))
                                has->subsystem = true;
                        else if (streq(name, "driver"))
                                has->driver = true;
                        if (!want_subdirs || (de->d_type != DT_DIR && !unknown && !any_type) ||
                            streq(name, ".") || streq(name, ".."))
                                continue;
                        r = GREEDY_REALLOC(subs->names, subs->allocated, subs->n + 1);
                        if (r >= 0)
                                r = GREEDY_REALLOC(subs->unknown, subs->allocated_unknown, subs->n + 1);
                        if (r < 0)
                                return r;
                        subs->names[subs->n] = strdup(name);
                        if (!subs->names[subs->n])
                                return -ENOMEM;
                        subs->unknown[subs->n++] = unknown;
                }
        }
}

static int list_dir(Walk *w, int dfd, bool want_subdirs, DirHas *has, SubDirs *subs) {
        return list_dir_full(w, dfd, want_subdirs, false, has, subs);
}

/* Every entry of a directory but . and .. (links included). */
static int list_entries(Walk *w, int dfd, DirHas *has, SubDirs *subs) {
        return list_dir_full(w, dfd, true, true, has, subs);
}

/* Takes dfd. */
static int walk_dir(Walk *w, int dfd, const char *rel, unsigned depth) {
        _cleanup_(subdirs_done) SubDirs subs = {};
        DirHas has = {};
        int r;

        if (++w->n_dirs > HW_SYSFS_DIRS_MAX) {
                close(dfd);
                return -E2BIG;
        }
        r = list_dir(w, dfd, depth < HW_SYSFS_DEPTH_MAX, &has, &subs);
        if (r >= 0)
                r = read_device(w, dfd, rel, &has);
        for (size_t i = 0; r >= 0 && i < subs.n; i++) {
                _cleanup_free_ char *sub = NULL;
                struct stat st;
                int cfd;

                /* Known to be a directory: O_NOFOLLOW|O_DIRECTORY keeps it
                 * one. Unknown: no symbolic link is followed either. */
                if (subs.unknown[i] &&
                    (fstatat(dfd, subs.names[i], &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISDIR(st.st_mode)))
                        continue;
                cfd = openat(dfd, subs.names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (cfd < 0)
                        continue;      /* gone, or not readable: nothing below it is seen */
                if (asprintf(&sub, "%s/%s", rel, subs.names[i]) < 0) {
                        close(cfd);
                        r = -ENOMEM;
                        break;
                }
                r = walk_dir(w, cfd, sub, depth + 1);
        }
        close(dfd);
        return r;
}

/* Names the set after the tree it was read from and moves it to *ret. */
static int hand_over(HwDeviceSet *set, const char *dir, const char *what, HwDeviceSet *ret) {
        if (asprintf(&set->source, "sysfs %s%s", dir, what) < 0)
                return -ENOMEM;
        set->sysfs_dir = strdup(dir);
        if (!set->sysfs_dir)
                return -ENOMEM;
        *ret = *set;
        *set = (HwDeviceSet) {};
        return 0;
}

int hw_sysfs_load(const char *dir, HwDeviceSet *ret, DiagList *diags) {
        _cleanup_(hw_device_set_done) HwDeviceSet set = {};
        _cleanup_free_ char *dents = malloc(HW_SYSFS_DENTS_SIZE);
        Walk w = { .dir = dir, .set = &set, .diags = diags, .dents = dents };
        int top, dfd, r;

        if (!dents)
                return -ENOMEM;
        top = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (top < 0)
                return -errno;
        dfd = openat(top, "devices", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        r = dfd < 0 ? -errno : 0;
        close(top);
        if (r < 0)
                return r;
        r = walk_dir(&w, dfd, "devices", 0);
        if (r < 0)
                return r;
        return hand_over(&set, dir, "", ret);
}

/* Opens the directory path (no "." or ".." components) below top, following
 * no symbolic link: with openat2() where the kernel has it (5.6), else one
 * component at a time. */
static int open_beneath(Walk *w, int top, const char *path) {
        _cleanup_free_ char *copy = NULL;
        int fd = top;

        if (!w->no_openat2) {
                struct open_how how = {
                        .flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC,
                        .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
                };
                long r = syscall(SYS_openat2, top, path, &how, sizeof(how));

                if (r >= 0)
                        return (int) r;
                if (errno != ENOSYS)
                        return -errno;
                w->no_openat2 = true;  /* an older kernel, or valgrind */
        }
        copy = strdup(path);
        if (!copy)
                return -ENOMEM;
        for (char *c = copy, *next; c; c = next) {
                int nfd;

                next = strchr(c, '/');
                if (next)
                        *next++ = '\0';
                if (!*c)
                        continue;
                nfd = openat(fd, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (nfd < 0)
                        nfd = -errno;
                if (fd != top)
                        close(fd);
                if (nfd < 0)
                        return nfd;
                fd = nfd;
        }
        return fd == top ? -EINVAL : fd;
}

/* "class/S" + "../../devices/X/Y" -> "devices/X/Y"; NULL when the target
 * leaves the tree or does not lead below devices/. */
static char *resolve_link(const char *base, const char *target) {
        _cleanup_free_ char *joined = NULL;
        char *out, *o;

        if (target[0] == '/' || asprintf(&joined, "%s/%s", base, target) < 0)
                return NULL;
        out = o = malloc(strlen(joined) + 1);
        if (!out)
                return NULL;
        for (char *c = joined, *next; c; c = next) {
                next = strchr(c, '/');
                if (next)
                        *next++ = '\0';
                if (!*c || streq(c, "."))
                        continue;
                if (streq(c, "..")) {
                        char *slash;

                        if (o == out) {
                                free(out);
                                return NULL;
                        }
                        *o = '\0';
                        slash = strrchr(out, '/');
                        o = slash ? slash : out;
                        continue;
                }
                if (o != out)
                        *o++ = '/';
                o = stpcpy(o, c);
        }
        *o = '\0';
        if (!startswith(out, "devices/")) {
                free(out);
                return NULL;
        }
        return out;
}

/* The devices a class/S or bus/S/devices directory links to. */
static int load_linked(Walk *w, int top, const char *base) {
        _cleanup_(subdirs_done) SubDirs links = {};
        DirHas ignored = {};
        int dfd, r;

        dfd = open_beneath(w, top, base);
        if (dfd < 0)
                return dfd == -ENOENT || dfd == -ENOTDIR ? 0 : dfd;
        /* Entries of every type: the device links are symbolic links. */
        r = list_entries(w, dfd, &ignored, &links);
        for (size_t i = 0; r >= 0 && i < links.n; i++) {
                _cleanup_free_ char *rel = NULL, *syspath = NULL;
                DirHas has = {};
                SubDirs none = {};
                char target[PATH_MAX];
                ssize_t n;
                int cfd;

                n = readlinkat(dfd, links.names[i], target, sizeof(target) - 1);
                if (n <= 0)
                        continue;
                target[n] = '\0';
                rel = resolve_link(base, target);
                if (!rel)
                        continue;
                if (asprintf(&syspath, "/sys/%s", rel) < 0) {
                        r = -ENOMEM;
                        break;
                }
                if (hw_device_set_find_syspath(w->set, syspath))
                        continue;      /* in both class/ and bus/ */
                cfd = open_beneath(w, top, rel);
                if (cfd < 0)
                        continue;
                r = list_dir(w, cfd, false, &has, &none);
                if (r >= 0)
                        r = read_device(w, cfd, rel, &has);
                close(cfd);
        }
        close(dfd);
        return r;
}

int hw_sysfs_load_subsystems(const char *dir, char *const *subsystems, size_t n_subsystems, HwDeviceSet *ret,
                             DiagList *diags) {
        _cleanup_(hw_device_set_done) HwDeviceSet set = {};
        _cleanup_free_ char *dents = malloc(HW_SYSFS_DENTS_SIZE);
        Walk w = { .dir = dir, .set = &set, .diags = diags, .dents = dents };
        struct statfs sfs;
        int top, r = 0;

        if (!dents)
                return -ENOMEM;
        top = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (top < 0)
                return -errno;
        if (fstatfs(top, &sfs) < 0 || sfs.f_type != SYSFS_MAGIC) {
                close(top);
                return -EMEDIUMTYPE;
        }
        for (size_t i = 0; r >= 0 && i < n_subsystems; i++) {
                _cleanup_free_ char *class = NULL, *bus = NULL;

                if (!subsystems[i][0] || strchr(subsystems[i], '/') || streq(subsystems[i], ".") ||
                    streq(subsystems[i], "..")) {
                        r = -EINVAL;
                        break;
                }
                if (asprintf(&class, "class/%s", subsystems[i]) < 0 ||
                    asprintf(&bus, "bus/%s/devices", subsystems[i]) < 0) {
                        r = -ENOMEM;
                        break;
                }
                r = load_linked(&w, top, class);
                if (r >= 0)
                        r = load_linked(&w, top, bus);
        }
        close(top);
        if (r < 0)
                return r;
        return hand_over(&set, dir, " (subsystems the policy names)", ret);
}
