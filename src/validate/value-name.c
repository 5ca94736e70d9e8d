/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/macro.h"
#include "value-check.h"

/* Personality=: the architectures an x86-64 systemd 252 can switch to. */
int value_check_personality(const char *v, const char *const *args) {
        (void) args;
        return streq(v, "x86") || streq(v, "x86-64") ? VALUE_OK : VALUE_BAD;
}

/* BusName=: a well-known D-Bus name (two or more dot-separated elements
 * of [A-Za-z0-9_-], none starting with a digit) or a unique ":N.M" name. */
int value_check_bus_name(const char *v, const char *const *args) {
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
int value_check_base64(const char *v, const char *const *args) {
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

static bool ifname_ok(const char *s) {
        size_t n = strlen(s);

        if (n == 0 || n >= 16 || streq(s, ".") || streq(s, ".."))
                return false;
        for (; *s; s++)
                if ((unsigned char) *s <= ' ' || *s == '/' || *s == ':' || *s == '%' || (unsigned char) *s >= 0x7f)
                        return false;
        return true;
}

/* Whether every blank-separated word of p (at most 63 bytes each) passes ok. */
static int each_word_ok(const char *p, bool (*ok)(const char *word, const void *userdata), const void *userdata) {
        for (;;) {
                char w[64];
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

static bool word_is_ifname(const char *w, const void *userdata) {
        (void) userdata;
        return ifname_ok(w);
}

static bool word_in_list(const char *w, const void *userdata) {
        return value_in_list(userdata, w);
}

/* BindToDevice= (one name), RestrictNetworkInterfaces= ("list": "[~]NAME ..."). */
int value_check_ifname(const char *v, const char *const *args) {
        if (!value_args_has(args, "list"))
                return ifname_ok(v) ? VALUE_OK : VALUE_BAD;
        return each_word_ok(v + (v[0] == '~'), word_is_ifname, NULL);
}

static bool port_ok(const char *s) {
        return isdigit((unsigned char) s[0]) &&
               value_check_integer(s, (const char *const[]) { "unsigned", "min=1", "max=65535", NULL }) == VALUE_OK;
}

/* ListenStream=, ListenDatagram= ("inet"), ListenSequentialPacket=: an
 * AF_UNIX path or @abstract name, or (inet) a port, ADDR:PORT, [ADDR]:PORT
 * or vsock:CID:PORT. */
int value_check_socket_address(const char *v, const char *const *args) {
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
int value_check_netlink(const char *v, const char *const *args) {
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
        if (*g && value_check_integer(g, (const char *const[]) { "unsigned", NULL }) != VALUE_OK)
                return VALUE_BAD;
        return VALUE_OK;
}

/* FileDescriptorName=: printable ASCII without ':', at most 255 bytes. */
int value_check_fdname(const char *v, const char *const *args) {
        (void) args;
        if (strlen(v) > 255)
                return VALUE_BAD;
        for (; *v; v++)
                if (*v < ' ' || *v > '~' || *v == ':')
                        return VALUE_BAD;
        return VALUE_OK;
}

/* LogNamespace=: letters, digits, '_', '-', '.'. */
int value_check_log_namespace(const char *v, const char *const *args) {
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
int value_check_root_hash(const char *v, const char *const *args) {
        const char *b;

        if (v[0] == '/')
                return VALUE_OK;
        if (value_args_has(args, "signature"))
                /* "base64:" alone decodes to nothing, which passes. */
                return (b = startswith(v, "base64:")) && value_check_base64(b, NULL) == VALUE_OK ? VALUE_OK
                                                                                           : VALUE_BAD;
        return hex_ok(v, 16) ? VALUE_OK : VALUE_BAD;
}

/* CoredumpFilter=: a number, or names of mapping kinds. */
int value_check_coredump_filter(const char *v, const char *const *args) {
        static const char *const names[] = { "private-anonymous", "shared-anonymous", "private-file-backed",
                                             "shared-file-backed", "elf-headers", "private-huge", "shared-huge",
                                             "private-dax", "shared-dax", "all", "default", NULL };
        (void) args;
        if (value_check_integer(v, (const char *const[]) { "uint64", NULL }) == VALUE_OK) /* also 0x... */
                return VALUE_OK;
        return each_word_ok(v, word_in_list, names);
}

static bool credential_name_ok(const char *s, size_t n) {
        if (n == 0 || n > 255 || (n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
                return false;
        return memchr(s, '/', n) == NULL;
}

/* SetCredential= ("set": "ID:DATA", DATA not empty), LoadCredential=
 * ("ID[:PATH]"). */
int value_check_credential(const char *v, const char *const *args) {
        const char *colon = strchr(v, ':');

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
int value_check_log_fields(const char *v, const char *const *args) {
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

/* SocketBindAllow=/Deny=: [ipv4:|ipv6:][tcp:|udp:](any|PORT|PORT-PORT). */
int value_check_socket_bind(const char *v, const char *const *args) {
        const char *p = v, *dash;
        char a[16];

        (void) args;
        p = startswith(p, "ipv4:") ?: startswith(p, "ipv6:") ?: p;
        p = startswith(p, "tcp:") ?: startswith(p, "udp:") ?: p;
        if (streq(p, "any"))
                return VALUE_OK;
        dash = strchr(p, '-');
        if (!dash)
                return port_ok(p) ? VALUE_OK : VALUE_BAD;
        if ((size_t) (dash - p) >= sizeof a)
                return VALUE_BAD;
        memcpy(a, p, (size_t) (dash - p));
        a[dash - p] = 0;
        return port_ok(a) && port_ok(dash + 1) && strtoul(a, NULL, 10) <= strtoul(dash + 1, NULL, 10) ? VALUE_OK
                                                                                                    : VALUE_BAD;
}

/* BPFProgram=: "TYPE:PATH", PATH absolute. */
int value_check_bpf_program(const char *v, const char *const *args) {
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
