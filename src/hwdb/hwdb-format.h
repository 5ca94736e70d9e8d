/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

/* The on-disk layout of systemd's compiled hardware database (hwdb.bin).
 * Everything is little-endian and packed; offsets are absolute positions in
 * the file. Readers use the size fields of the header as strides so records
 * grown by future writers still parse. */

#include <endian.h>
#include <stdint.h>
#include <string.h>

#define HWDB_SIGNATURE "KSLPHHRH"
#define HWDB_SIGNATURE_LEN 8

/* What this writer produces (and the minimum a reader accepts). */
#define HWDB_HEADER_SIZE 80
#define HWDB_NODE_SIZE 24
#define HWDB_CHILD_SIZE 16
#define HWDB_VALUE_SIZE 32      /* key, value, filename, line, priority */
#define HWDB_VALUE_SIZE_OLD 16  /* key, value only (udevadm hwdb --update) */
#define HWDB_TOOL_VERSION 252

/* Header field offsets. */
enum {
        HWDB_HDR_SIGNATURE = 0,
        HWDB_HDR_TOOL_VERSION = 8,
        HWDB_HDR_FILE_SIZE = 16,
        HWDB_HDR_HEADER_SIZE = 24,
        HWDB_HDR_NODE_SIZE = 32,
        HWDB_HDR_CHILD_SIZE = 40,
        HWDB_HDR_VALUE_SIZE = 48,
        HWDB_HDR_ROOT_OFF = 56,
        HWDB_HDR_NODES_LEN = 64,
        HWDB_HDR_STRINGS_LEN = 72,
};

/* Node: u64 prefix_off, u8 children_count, 7 bytes padding, u64 values_count.
 * Child entry: u8 edge byte, 7 bytes padding, u64 child_off.
 * Value entry: u64 key_off, u64 value_off, [u64 filename_off, u32 line,
 * u16 file_priority, u16 padding]. */
enum {
        HWDB_NODE_PREFIX = 0,
        HWDB_NODE_CHILDREN = 8,
        HWDB_NODE_VALUES = 16,
        HWDB_CHILD_C = 0,
        HWDB_CHILD_OFF = 8,
        HWDB_VALUE_KEY = 0,
        HWDB_VALUE_VALUE = 8,
        HWDB_VALUE_FILENAME = 16,
        HWDB_VALUE_LINE = 24,
        HWDB_VALUE_PRIORITY = 28,
};

static inline uint64_t hwdb_get64(const uint8_t *p) {
        uint64_t v;

        memcpy(&v, p, sizeof(v));
        return le64toh(v);
}

static inline uint32_t hwdb_get32(const uint8_t *p) {
        uint32_t v;

        memcpy(&v, p, sizeof(v));
        return le32toh(v);
}

static inline uint16_t hwdb_get16(const uint8_t *p) {
        uint16_t v;

        memcpy(&v, p, sizeof(v));
        return le16toh(v);
}

static inline void hwdb_put64(uint8_t *p, uint64_t v) {
        v = htole64(v);
        memcpy(p, &v, sizeof(v));
}

static inline void hwdb_put32(uint8_t *p, uint32_t v) {
        v = htole32(v);
        memcpy(p, &v, sizeof(v));
}

static inline void hwdb_put16(uint8_t *p, uint16_t v) {
        v = htole16(v);
        memcpy(p, &v, sizeof(v));
}
