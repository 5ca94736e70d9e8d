/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <stddef.h>

#include "basic/macro.h"
#include "value-check.h"
#include "value-kind.h"

/* Which parser judges which kind of value: the judge dispatches by the
 * kind column of directives.tsv through this table. */
static const ValueCheckFn checkers[_DIRECTIVE_KIND_MAX] = {
        [DIRECTIVE_WEIGHT] = value_check_weight,
        [DIRECTIVE_TASKS] = value_check_tasks,
        [DIRECTIVE_QUOTA] = value_check_quota,
        [DIRECTIVE_EXIT_STATUS] = value_check_exit_status,
        [DIRECTIVE_LOG_LEVEL] = value_check_log_level,
        [DIRECTIVE_FACILITY] = value_check_facility,
        [DIRECTIVE_IP_TOS] = value_check_ip_tos,
        [DIRECTIVE_CALENDAR] = value_check_calendar,
        [DIRECTIVE_MEMORY] = value_check_memory,
        [DIRECTIVE_IO_LIMIT] = value_check_io_limit,
        [DIRECTIVE_IO_WEIGHT] = value_check_io_weight,
        [DIRECTIVE_IO_LATENCY] = value_check_io_latency,
        [DIRECTIVE_PATH_SINGLE] = value_check_path_single,
        [DIRECTIVE_PID_FILE] = value_check_pid_file,
        [DIRECTIVE_PATH_COLON_LIST] = value_check_path_colon_list,
        [DIRECTIVE_TMPFS_LIST] = value_check_tmpfs_list,
        [DIRECTIVE_BIND_LIST] = value_check_bind_list,
        [DIRECTIVE_DIRECTORY_LIST] = value_check_directory_list,
        [DIRECTIVE_SYSCALL_FILTER] = value_check_syscall_filter,
        [DIRECTIVE_ERRNO] = value_check_errno,
        [DIRECTIVE_SYSCALL_ARCHS] = value_check_syscall_archs,
        [DIRECTIVE_ADDRESS_FAMILIES] = value_check_address_families,
        [DIRECTIVE_CPU_SET] = value_check_cpu_set,
        [DIRECTIVE_DEVICE_ALLOW] = value_check_device_allow,
        [DIRECTIVE_IP_PREFIXES] = value_check_ip_prefixes,
        [DIRECTIVE_CONTROLLERS] = value_check_controllers,
        [DIRECTIVE_NAMESPACES] = value_check_namespaces,
        [DIRECTIVE_ENV_NAMES] = value_check_env_names,
        [DIRECTIVE_URLS] = value_check_urls,
        [DIRECTIVE_PERSONALITY] = value_check_personality,
        [DIRECTIVE_BUS_NAME] = value_check_bus_name,
        [DIRECTIVE_BASE64] = value_check_base64,
        [DIRECTIVE_IFNAME] = value_check_ifname,
        [DIRECTIVE_SOCKET_ADDRESS] = value_check_socket_address,
        [DIRECTIVE_NETLINK] = value_check_netlink,
        [DIRECTIVE_FDNAME] = value_check_fdname,
        [DIRECTIVE_INTEGER] = value_check_integer,
        [DIRECTIVE_MODE] = value_check_mode,
        [DIRECTIVE_TIMESPAN] = value_check_timespan,
        [DIRECTIVE_LIMIT] = value_check_limit,
        [DIRECTIVE_SIGNAL] = value_check_signal,
        [DIRECTIVE_SIZE] = value_check_size,
        [DIRECTIVE_CONDITION] = value_check_condition,
        [DIRECTIVE_ENVIRONMENT] = value_check_environment,
        [DIRECTIVE_PATH_LIST] = value_check_path_list,
        [DIRECTIVE_LOG_NAMESPACE] = value_check_log_namespace,
        [DIRECTIVE_ROOT_HASH] = value_check_root_hash,
        [DIRECTIVE_COREDUMP_FILTER] = value_check_coredump_filter,
        [DIRECTIVE_CREDENTIAL] = value_check_credential,
        [DIRECTIVE_LOG_FIELDS] = value_check_log_fields,
        [DIRECTIVE_SOCKET_BIND] = value_check_socket_bind,
        [DIRECTIVE_BPF_PROGRAM] = value_check_bpf_program,
        [DIRECTIVE_IMAGE_LIST] = value_check_image_list,
        [DIRECTIVE_PRESSURE_LIMIT] = value_check_pressure_limit,
        [DIRECTIVE_OPEN_FILE] = value_check_open_file,
        [DIRECTIVE_NFT_SET] = value_check_nft_set,
        [DIRECTIVE_CGROUP_NAME] = value_check_cgroup_name,
        [DIRECTIVE_IP_PROTOCOL] = value_check_ip_protocol,
};

ValueCheckFn value_checker(DirectiveKind kind) {
        if ((int) kind < 0 || kind >= _DIRECTIVE_KIND_MAX)
                return NULL;
        return checkers[kind];
}
