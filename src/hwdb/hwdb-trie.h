/* SPDX-License-Identifier: LGPL-2.1-or-later */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "basic/macro.h"

/* The in-memory trie that text sources are loaded into and that the
 * compiler serializes. It mirrors systemd's: a radix trie over match
 * strings, where each node carries the bytes after its edge byte and the
 * properties of the match string ending there. Nodes, values and strings
 * live in flat arrays addressed by 32-bit indices to keep it compact. */

#define HWDB_TRIE_NONE UINT32_MAX

typedef struct HwdbTrieNode {
        uint32_t prefix_off;    /* into the prefix arena (the pool once laid out) */
        uint32_t prefix_len;    /* (the node's file offset once laid out) */
        uint32_t child;         /* first child; siblings are sorted by edge byte */
        uint32_t sibling;
        uint32_t value;         /* first value; sorted by key string */
        uint8_t edge;
} HwdbTrieNode;

typedef struct HwdbTrieValue {
        uint32_t key;           /* interned string ids */
        uint32_t value;
        uint32_t filename;
        uint32_t line;
        uint32_t next;
        uint16_t priority;
} HwdbTrieValue;

typedef struct HwdbTrie {
        HwdbTrieNode *nodes;
        size_t n_nodes, nodes_allocated;
        HwdbTrieValue *values;
        size_t n_values, values_allocated;
        char *prefixes;         /* node prefix bytes, not NUL-terminated */
        size_t prefixes_len, prefixes_allocated;

        /* Interned NUL-terminated strings (keys, values, file names). */
        char *strings;
        size_t strings_len, strings_allocated;
        uint32_t *string_offs;  /* id -> offset in strings */
        size_t n_strings, string_offs_allocated;
        uint32_t *hash;         /* open addressing over ids (id + 1, 0 = empty) */
        size_t hash_size;
} HwdbTrie;

int hwdb_trie_new(HwdbTrie **ret);
HwdbTrie *hwdb_trie_free(HwdbTrie *t);
static inline void hwdb_trie_freep(HwdbTrie **t) {
        hwdb_trie_free(*t);
}

int hwdb_trie_intern(HwdbTrie *t, const char *s, size_t len, uint32_t *ret_id);
static inline const char *hwdb_trie_string(const HwdbTrie *t, uint32_t id) {
        return t->strings + t->string_offs[id];
}

/* Attaches key=value (interned ids) to the match string. A key already set on
 * the same match string is replaced, with its origin: sources are loaded in
 * priority order, so the later one is the stronger one. */
int hwdb_trie_insert(HwdbTrie *t, const char *match, size_t match_len, uint32_t key,
                     uint32_t value, uint32_t filename, uint16_t priority, uint32_t line);
