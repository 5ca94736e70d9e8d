/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "basic/macro.h"
#include "behaviour.h"
#include "exec-line.h"
#include "value-check.h"

/* Personality=: the architectures an x86-64 systemd 252 can switch to. */
int value_check_personality(const char *v, const char *args, unsigned version) {
        (void) args;
        return streq(v, "x86") || streq(v, "x86-64") ? VALUE_OK : VALUE_BAD;
}

/* BusName=: a well-known D-Bus name (two or more dot-separated elements
 * of [A-Za-z0-9_-], none starting with a digit) or a unique ":N.M" name. */
int value_check_bus_name(const char *v, const char *args, unsigned version) {
        bool unique = v[0] == ':', dot = false, start = true;
        const char *p = v + unique;

        (void) args;
        if (strlen(v) > 255 || !*p)
                return VALUE_BAD;
        for (; *p; p++) {
                if (*p == '.') {
                        if (start)
                                return VALUE_BAD;
                        dot = true;
                        start = true;
                        continue;
                }
                if (!(isalnum((unsigned char) *p) || *p == '_' || *p == '-'))
                        return VALUE_BAD;
                if (start && isdigit((unsigned char) *p) && !unique)
                        return VALUE_BAD;
                start = false;
        }
        return dot && !start ? VALUE_OK : VALUE_BAD;
}

/* StandardInputData=: base64, blanks ignored, padded to whole quads. */
int value_check_base64(const char *v, const char *args, unsigned version) {
        size_t n = 0, pad = 0;

        (void) args;
        for (const char *p = v; *p; p++) {
                if (isspace((unsigned char) *p))
                        continue;
                if (*p == '=') {
                        pad++;
                        n++;
                        continue;
                }
                if (pad || !(isalnum((unsigned char) *p) || *p == '+' || *p == '/'))
                        return VALUE_BAD;
                n++;
        }
        return n % 4 == 0 && pad <= 2 ? VALUE_OK : VALUE_BAD;
}

/* A number systemd would take for an interface index: '+', then decimal,
 * or 0x/0o/0b with hex, octal or binary digits, 1..INT_MAX. */
static bool ifindex_like(const char *s) {
        int base = 10;
        char *e;
        long long l;

        if (*s == '+')
                s++;
        if (s[0] == '0' && strchr("xXoObB", s[1]) && s[1]) {
                base = strchr("xX", s[1]) ? 16 : strchr("oO", s[1]) ? 8 : 2;
                s += 2;
        } else if (s[0] == '0')
                base = 8;
        if (!isalnum((unsigned char) *s))
                return false;
        errno = 0;
        l = strtoll(s, &e, base);
        return errno == 0 && !*e && l > 0 && l <= INT_MAX;
}

/* An interface name: 1..15 bytes (alternative names: up to 127) of
 * printable ASCII without '/', ':' and '%', not "." or "..", not "all",
 * not all digits and not a number that reads as an interface index. */
static bool ifname_ok(const char *s, bool alternative) {
        size_t n = strlen(s);

        if (n == 0 || n >= (alternative ? 128u : 16u) || streq(s, ".") || streq(s, "..") || streq(s, "all"))
                return false;
        if (strspn(s, "0123456789") == n || ifindex_like(s))
                return false;
        for (; *s; s++)
                if ((unsigned char) *s <= ' ' || *s == '/' || *s == ':' || *s == '%' || (unsigned char) *s >= 0x7f)
                        return false;
        return true;
}

/* Whether every blank-separated word of p (at most 255 bytes each) passes ok. */
static int each_word_ok(const char *p, bool (*ok)(const char *word, const void *userdata), const void *userdata) {
        for (;;) {
                char w[256];
                size_t n;

                p += strspn(p, " \t\n");
                if (!*p)
                        return VALUE_OK;
                n = strcspn(p, " \t\n");
                if (n >= sizeof w)
                        return VALUE_BAD;
                memcpy(w, p, n);
                w[n] = 0;
                if (!ok(w, userdata))
                        return VALUE_BAD;
                p += n;
        }
}

static bool word_in_list(const char *w, const void *userdata) {
        return value_in_list(userdata, w);
}

/* BindToDevice= (one name), RestrictNetworkInterfaces= ("list": "[~]NAME ...",
 * words unquoted; alternative names since 256). */
int value_check_ifname(const char *v, const char *args, unsigned version) {
        bool alternative = sd_behaves(SD_IFNAME_ALTERNATIVE, version);
        const char *p;

        if (!value_args_has(args, "list"))
                return ifname_ok(v, false) ? VALUE_OK : VALUE_BAD;
        p = v + (v[0] == '~');
        for (;;) {
                _cleanup_free_ char *w = NULL;
                /* An unknown escape stays as written: '\\' is a valid byte. */
                int r = exec_extract_word(&p, &w, NULL);

                if (r == -ENOMEM)
                        return r;
                if (r < 0 || (r > 0 && !ifname_ok(w, alternative)))
                        return VALUE_BAD;
                if (r == 0)
                        return VALUE_OK;
        }
}

static bool port_ok(const char *s) {
        uint64_t u;

        return isdigit((unsigned char) s[0]) && value_parse_unsigned(s, 65535, &u) == 0 && u > 0;
}

/* ListenStream=, ListenDatagram= ("inet"), ListenSequentialPacket=: an
 * AF_UNIX path or @abstract name, or (inet) a port, ADDR:PORT, [ADDR]:PORT
 * or vsock:CID:PORT. */
int value_check_socket_address(const char *v, const char *args, unsigned version) {
        unsigned char buf[16];
        char addr[64];
        const char *colon;

        if (v[0] == '/')
                return strlen(v) < 108 ? VALUE_OK : VALUE_BAD;
        if (v[0] == '@')
                return v[1] && strlen(v) < 108 ? VALUE_OK : VALUE_BAD;
        if (!value_args_has(args, "inet"))
                return VALUE_BAD;
        if (startswith(v, "vsock:")) {
                const char *cid = v + 6;
                colon = strchr(cid, ':');
                if (!colon || colon == cid || strspn(cid, "0123456789") != (size_t) (colon - cid))
                        return VALUE_BAD;
                return port_ok(colon + 1) ? VALUE_OK : VALUE_BAD;
        }
        if (v[0] == '[') {
                const char *end = strchr(v, ']');
                if (!end || end[1] != ':' || (size_t) (end - v - 1) >= sizeof addr)
                        return VALUE_BAD;
                memcpy(addr, v + 1, (size_t) (end - v - 1));
                addr[end - v - 1] = 0;
                return inet_pton(AF_INET6, addr, buf) == 1 && port_ok(end + 2) ? VALUE_OK : VALUE_BAD;
        }
        colon = strrchr(v, ':');
        if (!colon)
                return port_ok(v) ? VALUE_OK : VALUE_BAD;
        if ((size_t) (colon - v) >= sizeof addr)
                return VALUE_BAD;
        memcpy(addr, v, (size_t) (colon - v));
        addr[colon - v] = 0;
        return inet_pton(AF_INET, addr, buf) == 1 && port_ok(colon + 1) ? VALUE_OK : VALUE_BAD;
}

/* ListenNetlink=: "FAMILY [GROUP]". */
int value_check_netlink(const char *v, const char *args, unsigned version) {
        static const char *const families[] = { "route", "firewall", "inet-diag", "nflog", "xfrm", "selinux",
                                                "iscsi", "audit", "fib-lookup", "connector", "netfilter",
                                                "ip6-fw", "dnrtmsg", "kobject-uevent", "generic",
                                                "scsitransport", "ecryptfs", "rdma", NULL };
        char fam[32];
        size_t n = strcspn(v, " \t");
        const char *g = v + n + strspn(v + n, " \t");

        (void) args;
        if (n >= sizeof fam)
                return VALUE_BAD;
        memcpy(fam, v, n);
        fam[n] = 0;
        if (!value_in_list(families, fam))
                return VALUE_BAD;
        if (*g && value_check_integer(g, "unsigned\0", version) != VALUE_OK)
                return VALUE_BAD;
        return VALUE_OK;
}

/* FileDescriptorName=: printable ASCII without ':', at most 255 bytes. */
int value_check_fdname(const char *v, const char *args, unsigned version) {
        (void) args;
        if (strlen(v) > 255)
                return VALUE_BAD;
        for (; *v; v++)
                if (*v < ' ' || *v > '~' || *v == ':')
                        return VALUE_BAD;
        return VALUE_OK;
}

/* LogNamespace=: letters, digits, '_', '-', '.'. */
int value_check_log_namespace(const char *v, const char *args, unsigned version) {
        (void) args;
        if (!*v || strlen(v) > 255 || streq(v, ".") || streq(v, ".."))
                return VALUE_BAD;
        for (; *v; v++)
                if (!isalnum((unsigned char) *v) && !strchr("_-.", *v))
                        return VALUE_BAD;
        return VALUE_OK;
}

static bool hex_ok(const char *s, size_t min_bytes) {
        size_t n = strlen(s);

        if (n % 2 || n / 2 < min_bytes)
                return false;
        return strspn(s, "0123456789abcdefABCDEF") == n;
}

/* RootHash=: an absolute path, or at least 16 bytes of hex.
 * RootHashSignature= ("signature"): an absolute path or "base64:DATA". */
int value_check_root_hash(const char *v, const char *args, unsigned version) {
        const char *b;

        if (v[0] == '/')
                return VALUE_OK;
        if (value_args_has(args, "signature"))
                /* "base64:" alone decodes to nothing, which passes. */
                return (b = startswith(v, "base64:")) && value_check_base64(b, NULL, version) == VALUE_OK ? VALUE_OK
                                                                                           : VALUE_BAD;
        return hex_ok(v, 16) ? VALUE_OK : VALUE_BAD;
}

/* CoredumpFilter=: a number, or names of mapping kinds. */
int value_check_coredump_filter(const char *v, const char *args, unsigned version) {
        static const char *const names[] = { "private-anonymous", "shared-anonymous", "private-file-backed",
                                             "shared-file-backed", "elf-headers", "private-huge", "shared-huge",
                                             "private-dax", "shared-dax", "all", "default", NULL };
        (void) args;
        if (value_check_integer(v, "uint64\0", version) == VALUE_OK) /* also 0x... */
                return VALUE_OK;
        return each_word_ok(v, word_in_list, names);
}

static bool credential_name_ok(const char *s, size_t n) {
        if (n == 0 || n > 255 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
                return false;
        return memchr(s, '/', n) == NULL;
}

/* ImportCredential=: a name, or a glob with one '*' at its end (alone
 * too), then optionally ":NAME" to rename it (empty: no renaming). */
static bool credential_import_ok(const char *v) {
        size_t n = strcspn(v, ":"), g = strcspn(v, "*?[");

        if (n == 0)
                return false;
        if (g < n) {
                /* The only glob character is the trailing '*'. */
                if (g != n - 1 || v[g] != '*' || (g > 0 && !credential_name_ok(v, g)))
                        return false;
        } else if (!credential_name_ok(v, n))
                return false;
        return !v[n] || !v[n + 1] || credential_name_ok(v + n + 1, strlen(v + n + 1));
}

/* SetCredential= ("set": "ID:DATA", DATA not empty), LoadCredential=
 * ("ID[:PATH]"), ImportCredential= ("import"). */
int value_check_credential(const char *v, const char *args, unsigned version) {
        const char *colon = strchr(v, ':');

        if (value_args_has(args, "import"))
                return credential_import_ok(v) ? VALUE_OK : VALUE_BAD;

        if (value_args_has(args, "set"))
                return colon && colon[1] && credential_name_ok(v, (size_t) (colon - v)) ? VALUE_OK : VALUE_BAD;
        return credential_name_ok(v, colon ? (size_t) (colon - v) : strlen(v)) ? VALUE_OK : VALUE_BAD;
}

static bool log_field_ok(const char *v, size_t n) {
        const char *eq = memchr(v, '=', n);

        if (!eq || eq == v || v[0] == '_' || isdigit((unsigned char) v[0]) || eq - v > 64)
                return false;
        for (const char *p = v; p < eq; p++)
                if (!(isupper((unsigned char) *p) || isdigit((unsigned char) *p) || *p == '_'))
                        return false;
        return true;
}

/* LogExtraFields=: words "FIELD=VALUE", FIELD of [A-Z0-9_], not starting
 * with '_' or a digit; a bad word is dropped on its own. */
int value_check_log_fields(const char *v, const char *args, unsigned version) {
        bool good = false, bad = false;

        (void) args;
        for (const char *p = v;;) {
                size_t n;

                p += strspn(p, " \t\n");
                if (!*p)
                        break;
                n = strcspn(p, " \t\n");
                if (log_field_ok(p, n))
                        good = true;
                else
                        bad = true;
                p += n;
        }
        return !bad ? VALUE_OK : good ? VALUE_BAD_PART : VALUE_BAD;
}

/* A port of SocketBindAllow=/Deny=: blanks, '+' and a base prefix allowed,
 * 1..65535 (0 too since 256). */
static bool bind_port_ok(const char *s, uint64_t *ret, unsigned version) {
        return value_parse_unsigned(s, 65535, ret) == 0 && (*ret > 0 || sd_behaves(SD_SOCKET_BIND_PORT_ZERO, version));
}

/* SocketBindAllow=/Deny=: [ipv4:|ipv6:][tcp:|udp:](any|PORT|PORT-PORT);
 * the protocol in any case; a family or protocol with nothing after it
 * (no ':') means every port. */
int value_check_socket_bind(const char *v, const char *args, unsigned version) {
        const char *p = v, *dash;
        uint64_t lo, hi;
        char a[32];

        p = startswith(p, "ipv4") ?: startswith(p, "ipv6") ?: p;
        if (p != v) {
                if (!*p)
                        return VALUE_OK;
                if (*p++ != ':')
                        return VALUE_BAD;
        }
        if (strncasecmp(p, "tcp", 3) == 0 || strncasecmp(p, "udp", 3) == 0) {
                p += 3;
                if (!*p)
                        return VALUE_OK;
                if (*p++ != ':')
                        return VALUE_BAD;
        }
        if (streq(p, "any"))
                return VALUE_OK;
        dash = strchr(p, '-');
        if (!dash)
                return bind_port_ok(p, &lo, version) ? VALUE_OK : VALUE_BAD;
        if ((size_t) (dash - p) >= sizeof a)
                return VALUE_BAD;
        memcpy(a, p, (size_t) (dash - p));
        a[dash - p] = 0;
        return bind_port_ok(a, &lo, version) && bind_port_ok(dash + 1, &hi, version) && lo <= hi ? VALUE_OK
                                                                                                 : VALUE_BAD;
}

/* BPFProgram=: "TYPE:PATH", PATH absolute. */
int value_check_bpf_program(const char *v, const char *args, unsigned version) {
        static const char *const types[] = { "ingress", "egress", "sock_create", "sock_ops", "device", "bind4",
                                             "bind6", "connect4", "connect6", "post_bind4", "post_bind6",
                                             "sendmsg4", "sendmsg6", "sysctl", "recvmsg4", "recvmsg6",
                                             "getsockopt", "setsockopt", NULL };
        const char *colon = strchr(v, ':');
        char t[32];

        (void) args;
        if (!colon || (size_t) (colon - v) >= sizeof t)
                return VALUE_BAD;
        memcpy(t, v, (size_t) (colon - v));
        t[colon - v] = 0;
        return value_in_list(types, t) && colon[1] == '/' ? VALUE_OK : VALUE_BAD;
}

/* OpenFile= (253): "PATH[:FDNAME[:OPTIONS]]", PATH absolute, FDNAME empty
 * or a valid name, OPTIONS ','-separated: at most one of read-only, append,
 * truncate, and graceful. */
int value_check_open_file(const char *v, const char *args, unsigned version) {
        const char *name = strchr(v, ':'), *opts = name ? strchr(name + 1, ':') : NULL;
        unsigned modes = 0;

        if (v[0] != '/' || (opts && strchr(opts + 1, ':')))
                return VALUE_BAD;
        if (name) {
                _cleanup_free_ char *n = strndup(name + 1, opts ? (size_t) (opts - name - 1) : strlen(name + 1));
                if (!n)
                        return -ENOMEM;
                if (*n && value_check_fdname(n, NULL, version) != VALUE_OK)
                        return VALUE_BAD;
        }
        for (const char *o = opts ? opts + 1 : ""; *o;) {
                size_t n = strcspn(o, ",");

                if (n == 9 && strncmp(o, "read-only", n) == 0)
                        modes++;
                else if ((n == 6 && strncmp(o, "append", n) == 0) || (n == 8 && strncmp(o, "truncate", n) == 0))
                        modes++;
                else if (!(n == 8 && strncmp(o, "graceful", n) == 0))
                        return VALUE_BAD;
                o += n + (o[n] == ',');
        }
        return modes <= 1 ? VALUE_OK : VALUE_BAD;
}

/* An nftables name: a letter, then letters, digits, '_', '/', '\\' or '.';
 * at most 31 bytes. */
static bool nft_identifier_ok(const char *s, size_t n) {
        if (n == 0 || n > 31 || !isalpha((unsigned char) s[0]))
                return false;
        for (size_t i = 1; i < n; i++)
                if (!isalnum((unsigned char) s[i]) && !strchr("_/\\.", s[i]))
                        return false;
        return true;
}

static bool nft_set_ok(const char *w, const void *userdata) {
        static const char *const sources[] = { "cgroup", "user", "group", NULL };
        static const char *const families[] = { "inet", "ip", "ip6", "arp", "bridge", "netdev", NULL };
        const char *part[4];
        size_t len[4];

        (void) userdata;
        for (size_t i = 0; i < 4; i++) {
                part[i] = w;
                len[i] = strcspn(w, ":");
                if ((i < 3) != (w[len[i]] == ':'))
                        return false;
                w += len[i] + (i < 3);
        }
        for (const char *const *s = sources; *s; s++)
                if (strlen(*s) == len[0] && strncmp(*s, part[0], len[0]) == 0)
                        for (const char *const *f = families; *f; f++)
                                if (strlen(*f) == len[1] && strncmp(*f, part[1], len[1]) == 0)
                                        return nft_identifier_ok(part[2], len[2]) &&
                                               nft_identifier_ok(part[3], len[3]);
        return false;
}

/* NFTSet= (255): words "SOURCE:FAMILY:TABLE:SET". */
int value_check_nft_set(const char *v, const char *args, unsigned version) {
        return each_word_ok(v, nft_set_ok, NULL);
}

/* DelegateSubgroup= (254): a cgroup name that needs no escaping: a file
 * name, not starting with '_' or "cgroup.", not a legacy control file, not
 * "CONTROLLER.anything". */
int value_check_cgroup_name(const char *v, const char *args, unsigned version) {
        static const char *const reserved[] = { "notify_on_release", "release_agent", "tasks", NULL };
        static const char *const controllers[] = { "cgroup", "cpu", "cpuacct", "cpuset", "io", "blkio", "memory",
                                                   "devices", "pids", "bpf-firewall", "bpf-devices",
                                                   "bpf-foreign", "bpf-socket-bind",
                                                   "bpf-restrict-network-interfaces", NULL };
        const char *dot = strchr(v, '.');
        size_t n = strlen(v);

        if (n == 0 || n > 255 || strchr(v, '/') || streq(v, ".") || streq(v, "..") || v[0] == '_' ||
            value_in_list(reserved, v))
                return VALUE_BAD;
        if (dot)
                for (const char *const *c = controllers; *c; c++)
                        if (strlen(*c) == (size_t) (dot - v) && strncmp(*c, v, (size_t) (dot - v)) == 0)
                                return VALUE_BAD;
        return VALUE_OK;
}

/* SocketProtocol=: udplite, sctp or (since 257) mptcp, in any case, or
 * their protocol numbers (base prefixes allowed). */
int value_check_ip_protocol(const char *v, const char *args, unsigned version) {
        static const struct {
                const char *name;
                uint64_t number;
                unsigned since;
        } protocols[] = { { "udplite", 136, 0 }, { "sctp", 132, 0 }, { "mptcp", 262, 257 } };
        uint64_t u;
        bool number = value_parse_unsigned(v, UINT64_MAX, &u) == 0;

        for (size_t i = 0; i < ELEMENTSOF(protocols); i++)
                if (version >= protocols[i].since &&
                    (number ? u == protocols[i].number : strcasecmp(v, protocols[i].name) == 0))
                        return VALUE_OK;
        return VALUE_BAD;
}
