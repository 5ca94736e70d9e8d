/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "basic/macro.h"
#include "parse-util.h"
#include "value-check.h"
#include "value-tables.h"

/* Compares word w with a table entry "NAME" or "NAME^N" by NAME. */
static int versioned_cmp(const char *entry, const char *w) {
        size_t n = strcspn(entry, "^");
        int c = strncmp(entry, w, n);

        return c != 0 ? c : w[n] == 0 ? 0 : -1;
}

/* Whether w is an entry of list (sorted by name when n is given, else
 * NULL-terminated) known to version ("NAME^N": since N). */
static bool versioned_has(const char *const *list, size_t n, const char *w, unsigned version) {
        const char *e = NULL;

        if (n > 0) {
                size_t lo = 0, hi = n;

                while (lo < hi && !e) {
                        size_t mid = (lo + hi) / 2;
                        int c = versioned_cmp(list[mid], w);
                        if (c == 0)
                                e = list[mid];
                        else if (c < 0)
                                lo = mid + 1;
                        else
                                hi = mid;
                }
        } else
                for (; *list && !e; list++)
                        if (versioned_cmp(*list, w) == 0)
                                e = *list;
        if (!e)
                return false;
        e = strchr(e, '^');
        return !e || strtoul(e + 1, NULL, 10) <= version;
}

static bool errno_name_ok(const char *s) {
        /* Aliases glibc does not name. */
        static const char *const aliases[] = { "EWOULDBLOCK", "EDEADLOCK", "ENOTSUP", NULL };

        for (const char *const *a = aliases; *a; a++)
                if (strcasecmp(*a, s) == 0)
                        return true;
        for (int e = 1; e < 4096; e++) {
                const char *n = strerrorname_np(e);
                if (n && strcasecmp(n, s) == 0)
                        return true;
        }
        return false;
}

/* An errno for seccomp: a name, or a number 1..4095. */
static bool errno_ok(const char *s, unsigned version) {
        return errno_name_ok(s) ||
               value_check_integer(s, "int\0min=1\0max=4095\0", version) == VALUE_OK;
}

static bool syscall_word_ok(const char *w, const char *args, unsigned version) {
        const char *colon = strchr(w, ':');
        char name[128];

        if (w[0] == '@')
                return versioned_has(value_syscall_groups, 0, w, version);
        if (colon) {
                /* "name:errno" only in a deny list ("~..."). */
                if (!value_args_has(args, "deny") || value_args_has(args, "log") || !errno_ok(colon + 1, version))
                        return false;
                if ((size_t) (colon - w) >= sizeof name)
                        return false;
                memcpy(name, w, (size_t) (colon - w));
                name[colon - w] = 0;
                w = name;
        }
        return versioned_has(value_syscall_names, value_syscall_names_size, w, version);
}

/* SystemCallFilter=, SystemCallLog=: "[~]NAME|@GROUP ..." item by item. */
int value_check_syscall_filter(const char *v, const char *args, unsigned version) {
        bool deny = v[0] == '~';
        bool log = value_args_has(args, "log");
        const char *a = deny ? (log ? "deny\0log\0" : "deny\0") : (log ? "allow\0log\0" : "allow\0");

        return value_each_word(v + deny, " \t\n", VALUE_WORDS_UNQUOTE, syscall_word_ok, a, version);
}

/* SystemCallErrorNumber=: an errno name or number, or "kill". */
int value_check_errno(const char *v, const char *args, unsigned version) {
        if (value_args_has(args, v))
                return VALUE_OK;
        return errno_ok(v, version) ? VALUE_OK : VALUE_BAD;
}

static bool arch_ok(const char *w, const char *args, unsigned version) {
        static const char *const archs[] = { "native", "x86", "x86-64", "x32", "arm", "arm64", "ia64", "loongarch64",
                                             "mips", "mips-le", "mips64", "mips64-le", "mips64-n32",
                                             "mips64-le-n32", "parisc", "parisc64", "ppc", "ppc64", "ppc64-le",
                                             "riscv64", "s390", "s390x", NULL };
        (void) args;
        return value_in_list(archs, w);
}

int value_check_syscall_archs(const char *v, const char *args, unsigned version) {
        return value_each_word(v, " \t\n", VALUE_WORDS_UNQUOTE | VALUE_WORDS_WHOLE_LINE, arch_ok, args, version);
}

static bool family_ok(const char *w, const char *args, unsigned version) {
        static const char *const families[] = {
                "AF_LOCAL", "AF_UNIX", "AF_FILE", "AF_INET", "AF_AX25", "AF_IPX", "AF_APPLETALK", "AF_NETROM",
                "AF_BRIDGE", "AF_ATMPVC", "AF_X25", "AF_INET6", "AF_ROSE", "AF_DECnet", "AF_NETBEUI",
                "AF_SECURITY", "AF_KEY", "AF_NETLINK", "AF_ROUTE", "AF_PACKET", "AF_ASH", "AF_ECONET",
                "AF_ATMSVC", "AF_RDS", "AF_SNA", "AF_IRDA", "AF_PPPOX", "AF_WANPIPE", "AF_LLC", "AF_IB",
                "AF_MPLS", "AF_CAN", "AF_TIPC", "AF_BLUETOOTH", "AF_IUCV", "AF_RXRPC", "AF_ISDN", "AF_PHONET",
                "AF_IEEE802154", "AF_CAIF", "AF_ALG", "AF_NFC", "AF_VSOCK", "AF_KCM", "AF_QIPCRTR", "AF_SMC",
                "AF_XDP", "AF_MCTP", NULL };
        (void) args;
        return value_in_list(families, w);
}

/* RestrictAddressFamilies=: "none", or "[~]AF_... ...". */
int value_check_address_families(const char *v, const char *args, unsigned version) {
        if (streq(v, "none"))
                return VALUE_OK;
        return value_each_word(v + (v[0] == '~'), " \t\n", VALUE_WORDS_UNQUOTE, family_ok, args, version);
}

static bool cpu_item_ok(const char *w, const char *args, unsigned version) {
        unsigned long a, b;
        char *e;

        if (value_args_has(args, "all") && streq(w, "all"))
                return true;
        if (!isdigit((unsigned char) *w))
                return false;
        a = strtoul(w, &e, 10);
        b = a;
        if (*e == '-') {
                const char *q = e + 1;
                if (!isdigit((unsigned char) *q))
                        return false;
                b = strtoul(q, &e, 10);
        }
        return !*e && a <= b && b < 8192;
}

/* CPUAffinity=, AllowedCPUs=, NUMAMask=: numbers and ranges split at
 * blanks and commas; one bad item spoils the whole value. */
int value_check_cpu_set(const char *v, const char *args, unsigned version) {
        return value_each_word(v, " \t\n,", VALUE_WORDS_WHOLE_LINE, cpu_item_ok, args, version);
}

/* DeviceAllow=: "NODE [rwm]"; NODE a /dev/ path, char-CLASS or block-CLASS. */
int value_check_device_allow(const char *v, const char *args, unsigned version) {
        size_t n = strcspn(v, " \t");
        const char *perm = v + n + strspn(v + n, " \t");

        (void) args;
        if (!(startswith(v, "/dev/") || startswith(v, "/run/systemd/inaccessible/") || startswith(v, "char-") ||
              startswith(v, "block-")))
                return VALUE_BAD;
        if (strspn(perm, "rwm") != strlen(perm))
                return VALUE_BAD;
        return VALUE_OK;
}

static bool ip_prefix_ok(const char *w, const char *args, unsigned version) {
        static const char *const words[] = { "any", "localhost", "link-local", "multicast", NULL };
        char addr[INET6_ADDRSTRLEN + 8];
        unsigned char buf[16];
        const char *slash = strchr(w, '/');
        size_t n = slash ? (size_t) (slash - w) : strlen(w);
        int family;
        int64_t len;

        (void) args;
        if (value_in_list(words, w))
                return true;
        if (n >= sizeof addr)
                return false;
        memcpy(addr, w, n);
        addr[n] = 0;
        if (inet_pton(AF_INET, addr, buf) == 1)
                family = AF_INET;
        else if (inet_pton(AF_INET6, addr, buf) == 1)
                family = AF_INET6;
        else
                return false;
        if (!slash)
                return true;
        return value_parse_signed(slash + 1, 0, family == AF_INET ? 32 : 128, &len) == 0 &&
               isdigit((unsigned char) slash[1]);
}

/* IPAddressAllow=, IPAddressDeny=: the first bad prefix ends the list. */
int value_check_ip_prefixes(const char *v, const char *args, unsigned version) {
        return value_each_word(v, " \t\n", VALUE_WORDS_UNQUOTE, ip_prefix_ok, args, version);
}

static bool controller_ok(const char *w, const char *args, unsigned version) {
        static const char *const controllers[] = { "cpu", "cpuacct", "cpuset", "io", "blkio", "memory", "devices",
                                                   "pids", "bpf-firewall", "bpf-devices", "bpf-foreign",
                                                   "bpf-socket-bind", "bpf-restrict-network-interfaces", NULL };
        (void) args;
        return value_in_list(controllers, w);
}

/* DisableControllers= ("any": bad only when no word names a controller);
 * Delegate= (a boolean, or every word a controller). */
int value_check_controllers(const char *v, const char *args, unsigned version) {
        int r;

        if (value_args_has(args, "bool") && parse_boolean(v) >= 0)
                return VALUE_OK;
        r = value_each_word(v, " \t\n", VALUE_WORDS_UNQUOTE | (value_args_has(args, "any") ? 0 : VALUE_WORDS_WHOLE_LINE),
                            controller_ok, args, version);
        return r == VALUE_BAD_PART ? VALUE_OK : r;
}

static bool namespace_ok(const char *w, const char *args, unsigned version) {
        static const char *const names[] = { "cgroup", "ipc", "net", "mnt", "pid", "user", "uts", NULL };
        (void) args;
        return value_in_list(names, w);
}

/* RestrictNamespaces=: a boolean or "[~]NAME ...". */
int value_check_namespaces(const char *v, const char *args, unsigned version) {
        if (parse_boolean(v) >= 0)
                return VALUE_OK;
        return value_each_word(v + (v[0] == '~'), " \t\n", VALUE_WORDS_UNQUOTE | VALUE_WORDS_WHOLE_LINE, namespace_ok,
                               args, version);
}

static bool env_name_ok(const char *s, size_t n) {
        if (n == 0 || isdigit((unsigned char) s[0]))
                return false;
        for (size_t i = 0; i < n; i++)
                if (!(isalnum((unsigned char) s[i]) || s[i] == '_'))
                        return false;
        return true;
}

static bool env_assignment_ok(const char *w, const char *args, unsigned version) {
        const char *eq = strchr(w, '=');
        (void) args;
        return eq && env_name_ok(w, (size_t) (eq - w));
}

/* Environment=: quoted words "NAME=VALUE", each on its own. */
int value_check_environment(const char *v, const char *args, unsigned version) {
        return value_each_word(v, NULL, VALUE_WORDS_UNQUOTE, env_assignment_ok, args, version);
}

static bool env_name_word_ok(const char *w, const char *args, unsigned version) {
        if (value_args_has(args, "assign") && strchr(w, '='))
                return env_assignment_ok(w, args, version) || env_name_ok(w, (size_t) (strchr(w, '=') - w));
        return env_name_ok(w, strlen(w));
}

/* PassEnvironment= (names), UnsetEnvironment= ("assign": names or
 * assignments). */
int value_check_env_names(const char *v, const char *args, unsigned version) {
        return value_each_word(v, NULL, VALUE_WORDS_UNQUOTE, env_name_word_ok, args, version);
}

static bool url_ok(const char *w, const char *args, unsigned version) {
        static const char *const schemes[] = { "http://", "https://", "file:/", "info:", "man:" };

        (void) args;
        for (size_t i = 0; i < ELEMENTSOF(schemes); i++) {
                const char *r;

                if (w[0] != schemes[i][0]) /* most schemes, without a call */
                        continue;
                r = startswith(w, schemes[i]);
                if (r)
                        return *r != 0 || streq(schemes[i], "file:/");
        }
        return false;
}

/* Documentation=: URLs, each on its own. */
int value_check_urls(const char *v, const char *args, unsigned version) {
        return value_each_word(v, NULL, VALUE_WORDS_UNQUOTE, url_ok, args, version);
}
