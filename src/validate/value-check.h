/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stdbool.h>
#include <stdint.h>

/* One pure parser per value kind, with systemd 252's semantics: given the
 * value as written (after specifier expansion) and the directive's
 * arguments from the values column of directives.tsv, say whether systemd
 * accepts it. None of them allocates a result; they only judge. */

typedef enum ValueResult {
        VALUE_OK,
        VALUE_BAD,        /* systemd warns and ignores the line */
        VALUE_BAD_PART,   /* some items are bad: systemd drops those, keeps the rest */
        VALUE_DEPRECATED, /* accepted, with a deprecation warning */
} ValueResult;

/* args: the values column as a nulstr (NULSTR_FOREACH; may be NULL). Returns a
 * ValueResult, or -ENOMEM. */
typedef int (*ValueCheckFn)(const char *value, const char *args, unsigned version);

/* The words of a list value, each judged by check (value-words.c). */
typedef bool (*ValueWordCheck)(const char *word, const char *args, unsigned version);
typedef enum ValueWordsFlags {
        VALUE_WORDS_UNQUOTE = 1 << 0,    /* quotes and C escapes as in Exec lines; else split at seps */
        VALUE_WORDS_ESCAPES_OK = 1 << 1, /* a word with an unknown escape is still checked, not bad */
        VALUE_WORDS_WHOLE_LINE = 1 << 2, /* one bad word drops the line, not only itself */
} ValueWordsFlags;
/* A syntax error drops the rest of the line (the words before it stay).
 * Returns a ValueResult or -ENOMEM. */
int value_each_word(const char *v, const char *seps, ValueWordsFlags flags, ValueWordCheck check,
                    const char *args, unsigned version);

/* Numbers (value-int.c). */
int value_parse_signed(const char *s, int64_t min, int64_t max, int64_t *ret);   /* base 0, like strtoll */
int value_parse_unsigned(const char *s, uint64_t max, uint64_t *ret);             /* no '-' */
int value_parse_permyriad(const char *s, bool unbounded, uint32_t *ret);          /* "N%", "N.M%", "N.MM%" */
int value_check_integer(const char *v, const char *args, unsigned version);
int value_check_mode(const char *v, const char *args, unsigned version);
int value_check_weight(const char *v, const char *args, unsigned version);
int value_check_tasks(const char *v, const char *args, unsigned version);
int value_check_quota(const char *v, const char *args, unsigned version);
int value_check_exit_status(const char *v, const char *args, unsigned version);
int value_check_signal(const char *v, const char *args, unsigned version);
int value_check_log_level(const char *v, const char *args, unsigned version);
int value_check_facility(const char *v, const char *args, unsigned version);
int value_check_ip_tos(const char *v, const char *args, unsigned version);
int value_signal_from_string(const char *s);

/* Time (value-time.c). */
int value_parse_time(const char *s, uint64_t default_unit, bool nsec, uint64_t *ret); /* usec or nsec */
int value_check_timespan(const char *v, const char *args, unsigned version);
int value_check_calendar(const char *v, const char *args, unsigned version);

/* Sizes and limits (value-size.c). */
int value_parse_size(const char *s, uint64_t *ret);  /* base 1024, B K M G T P E */
int value_check_size(const char *v, const char *args, unsigned version);
int value_check_memory(const char *v, const char *args, unsigned version);
int value_check_io_limit(const char *v, const char *args, unsigned version);
int value_check_io_weight(const char *v, const char *args, unsigned version);
int value_check_io_latency(const char *v, const char *args, unsigned version);
int value_check_limit(const char *v, const char *args, unsigned version);

/* Paths (value-path.c). */
int value_check_path_list(const char *v, const char *args, unsigned version);
int value_check_path_single(const char *v, const char *args, unsigned version);
int value_check_path_colon_list(const char *v, const char *args, unsigned version);
int value_check_tmpfs_list(const char *v, const char *args, unsigned version);
int value_check_bind_list(const char *v, const char *args, unsigned version);
int value_check_directory_list(const char *v, const char *args, unsigned version);
int value_check_condition(const char *v, const char *args, unsigned version);
int value_check_pid_file(const char *v, const char *args, unsigned version);

/* Item lists and names (value-list.c, value-name.c). */
int value_check_syscall_filter(const char *v, const char *args, unsigned version);
int value_check_errno(const char *v, const char *args, unsigned version);
int value_check_syscall_archs(const char *v, const char *args, unsigned version);
int value_check_address_families(const char *v, const char *args, unsigned version);
int value_check_cpu_set(const char *v, const char *args, unsigned version);
int value_check_device_allow(const char *v, const char *args, unsigned version);
int value_check_ip_prefixes(const char *v, const char *args, unsigned version);
int value_check_controllers(const char *v, const char *args, unsigned version);
int value_check_namespaces(const char *v, const char *args, unsigned version);
int value_check_environment(const char *v, const char *args, unsigned version);
int value_check_env_names(const char *v, const char *args, unsigned version);
int value_check_urls(const char *v, const char *args, unsigned version);
int value_check_personality(const char *v, const char *args, unsigned version);
int value_check_bus_name(const char *v, const char *args, unsigned version);
int value_check_base64(const char *v, const char *args, unsigned version);
int value_check_ifname(const char *v, const char *args, unsigned version);
int value_check_socket_address(const char *v, const char *args, unsigned version);
int value_check_netlink(const char *v, const char *args, unsigned version);
int value_check_fdname(const char *v, const char *args, unsigned version);

int value_check_log_namespace(const char *v, const char *args, unsigned version);
int value_check_root_hash(const char *v, const char *args, unsigned version);
int value_check_coredump_filter(const char *v, const char *args, unsigned version);
int value_check_credential(const char *v, const char *args, unsigned version);
int value_check_log_fields(const char *v, const char *args, unsigned version);
int value_check_socket_bind(const char *v, const char *args, unsigned version);
int value_check_bpf_program(const char *v, const char *args, unsigned version);
int value_check_image_list(const char *v, const char *args, unsigned version);
int value_check_pressure_limit(const char *v, const char *args, unsigned version);
int value_check_open_file(const char *v, const char *args, unsigned version);
int value_check_nft_set(const char *v, const char *args, unsigned version);
int value_check_cgroup_name(const char *v, const char *args, unsigned version);
int value_check_ip_protocol(const char *v, const char *args, unsigned version);

/* Helpers shared by the parsers. */
bool value_args_has(const char *args, const char *word);
const char *value_args_get(const char *args, const char *prefix); /* "max=" -> text after it */
bool value_in_list(const char *const *list, const char *word);
