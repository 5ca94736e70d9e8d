/* SPDX-License-Identifier: LGPL-2.1-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "basic/alloc-util.h"
#include "hwdb-trie.h"

/* Indices are 32-bit; stay clear of the NONE marker. */
#define HWDB_TRIE_MAX (UINT32_MAX - 1)

int hwdb_trie_new(HwdbTrie **ret) {
        _cleanup_(hwdb_trie_freep) HwdbTrie *t = NULL;
        int r;

        t = new0(HwdbTrie, 1);
        if (!t)
                return -ENOMEM;
        r = GREEDY_REALLOC(t->nodes, t->nodes_allocated, 1024);
        if (r < 0)
                return r;
        t->nodes[0] = (HwdbTrieNode) {
                .child = HWDB_TRIE_NONE,
                .sibling = HWDB_TRIE_NONE,
                .value = HWDB_TRIE_NONE,
        };
        t->n_nodes = 1;
        *ret = TAKE_PTR(t);
        return 0;
}

HwdbTrie *hwdb_trie_free(HwdbTrie *t) {
        if (!t)
                return NULL;
        free(t->nodes);
        free(t->values);
        free(t->prefixes);
        free(t->strings);
        free(t->string_offs);
        free(t->hash);
        free(t);
        return NULL;
}

static uint32_t hash_bytes(const char *s, size_t len) {
        uint32_t h = 2166136261u;

        for (size_t i = 0; i < len; i++)
                h = (h ^ (uint8_t) s[i]) * 16777619u;
        return h;
}

static int hash_grow(HwdbTrie *t) {
        size_t size = t->hash_size ? t->hash_size * 2 : 4096, mask = size - 1;
        uint32_t *h;

        h = new0(uint32_t, size);
        if (!h)
                return -ENOMEM;
        for (size_t id = 0; id < t->n_strings; id++) {
                const char *s = hwdb_trie_string(t, (uint32_t) id);
                size_t i = hash_bytes(s, strlen(s)) & mask;

                while (h[i] != 0)
                        i = (i + 1) & mask;
                h[i] = (uint32_t) id + 1;
        }
        free(t->hash);
        t->hash = h;
        t->hash_size = size;
        return 0;
}

int hwdb_trie_intern(HwdbTrie *t, const char *s, size_t len, uint32_t *ret_id) {
        size_t mask, i;
        int r;

        if ((t->n_strings + 1) * 2 > t->hash_size) {
                r = hash_grow(t);
                if (r < 0)
                        return r;
        }

        mask = t->hash_size - 1;
        for (i = hash_bytes(s, len) & mask; t->hash[i] != 0; i = (i + 1) & mask) {
                uint32_t id = t->hash[i] - 1;
                const char *o = hwdb_trie_string(t, id);

                if (strncmp(o, s, len) == 0 && o[len] == '\0') {
                        *ret_id = id;
                        return 0;
                }
        }

        if (t->n_strings >= HWDB_TRIE_MAX || t->strings_len + len + 1 > UINT32_MAX)
                return -E2BIG;
        r = GREEDY_REALLOC(t->strings, t->strings_allocated, t->strings_len + len + 1);
        if (r < 0)
                return r;
        r = GREEDY_REALLOC(t->string_offs, t->string_offs_allocated, t->n_strings + 1);
        if (r < 0)
                return r;

        memcpy(t->strings + t->strings_len, s, len);
        t->strings[t->strings_len + len] = '\0';
        t->string_offs[t->n_strings] = (uint32_t) t->strings_len;
        t->strings_len += len + 1;
        t->hash[i] = (uint32_t) t->n_strings + 1;
        *ret_id = (uint32_t) t->n_strings++;
        return 0;
}

static int node_new(HwdbTrie *t, uint32_t *ret) {
        int r;

        if (t->n_nodes >= HWDB_TRIE_MAX / 2)
                return -E2BIG;
        r = GREEDY_REALLOC(t->nodes, t->nodes_allocated, t->n_nodes + 1);
        if (r < 0)
                return r;
        t->nodes[t->n_nodes] = (HwdbTrieNode) {
                .child = HWDB_TRIE_NONE,
                .sibling = HWDB_TRIE_NONE,
                .value = HWDB_TRIE_NONE,
        };
        *ret = (uint32_t) t->n_nodes++;
        return 0;
}

/* Links child below parent, keeping the siblings sorted by edge byte. */
static void link_child(HwdbTrie *t, uint32_t parent, uint32_t child) {
        uint32_t *slot = &t->nodes[parent].child;
        uint8_t c = t->nodes[child].edge;

        while (*slot != HWDB_TRIE_NONE && t->nodes[*slot].edge < c)
                slot = &t->nodes[*slot].sibling;
        t->nodes[child].sibling = *slot;
        *slot = child;
}

static uint32_t find_child(const HwdbTrie *t, uint32_t parent, uint8_t c) {
        uint32_t i;

        for (i = t->nodes[parent].child; i != HWDB_TRIE_NONE; i = t->nodes[i].sibling)
                if (t->nodes[i].edge >= c)
                        return t->nodes[i].edge == c ? i : HWDB_TRIE_NONE;
        return HWDB_TRIE_NONE;
}

static int add_value(HwdbTrie *t, uint32_t node, uint32_t key, uint32_t value, uint32_t filename,
                     uint16_t priority, uint32_t line) {
        const char *k = hwdb_trie_string(t, key);
        uint32_t prev = HWDB_TRIE_NONE, cur;
        int r;

        /* The list is sorted by key string; find the key or its place. */
        for (cur = t->nodes[node].value; cur != HWDB_TRIE_NONE; prev = cur, cur = t->values[cur].next) {
                HwdbTrieValue *v = &t->values[cur];

                if (v->key == key) {
                        v->value = value;
                        v->filename = filename;
                        v->priority = priority;
                        v->line = line;
                        return 0;
                }
                if (strcmp(hwdb_trie_string(t, v->key), k) > 0)
                        break;
        }

        if (t->n_values >= HWDB_TRIE_MAX)
                return -E2BIG;
        r = GREEDY_REALLOC(t->values, t->values_allocated, t->n_values + 1);
        if (r < 0)
                return r;

        t->values[t->n_values] = (HwdbTrieValue) {
                .key = key,
                .value = value,
                .filename = filename,
                .line = line,
                .priority = priority,
                .next = cur,
        };
        if (prev == HWDB_TRIE_NONE)
                t->nodes[node].value = (uint32_t) t->n_values;
        else
                t->values[prev].next = (uint32_t) t->n_values;
        t->n_values++;
        return 0;
}

static int add_prefix(HwdbTrie *t, const char *s, size_t len, uint32_t *ret_off) {
        int r;

        if (t->prefixes_len + len > UINT32_MAX)
                return -E2BIG;
        r = GREEDY_REALLOC(t->prefixes, t->prefixes_allocated, t->prefixes_len + len + 1);
        if (r < 0)
                return r;
        memcpy(t->prefixes + t->prefixes_len, s, len);
        *ret_off = (uint32_t) t->prefixes_len;
        t->prefixes_len += len;
        return 0;
}

int hwdb_trie_insert(HwdbTrie *t, const char *match, size_t match_len, uint32_t key,
                     uint32_t value, uint32_t filename, uint16_t priority, uint32_t line) {
        uint32_t node = 0;
        size_t i = 0;
        int r;

        for (;;) {
                HwdbTrieNode *n = &t->nodes[node];
                uint32_t child;
                size_t p;

                for (p = 0; p < n->prefix_len; p++) {
                        uint8_t c = (uint8_t) t->prefixes[n->prefix_off + p];

                        if (i + p < match_len && (uint8_t) match[i + p] == c)
                                continue;

                        /* Split: a new node takes over everything after
                         * byte p; this node keeps only the common part. */
                        r = node_new(t, &child);
                        if (r < 0)
                                return r;
                        n = &t->nodes[node];
                        t->nodes[child].edge = c;
                        t->nodes[child].prefix_off = n->prefix_off + (uint32_t) p + 1;
                        t->nodes[child].prefix_len = n->prefix_len - (uint32_t) p - 1;
                        t->nodes[child].child = n->child;
                        t->nodes[child].value = n->value;
                        n->prefix_len = (uint32_t) p;
                        n->child = child;
                        n->value = HWDB_TRIE_NONE;
                        break;
                }
                i += n->prefix_len;

                if (i == match_len)
                        return add_value(t, node, key, value, filename, priority, line);

                child = find_child(t, node, (uint8_t) match[i]);
                if (child == HWDB_TRIE_NONE) {
                        r = node_new(t, &child);
                        if (r < 0)
                                return r;
                        t->nodes[child].edge = (uint8_t) match[i];
                        r = add_prefix(t, match + i + 1, match_len - i - 1,
                                       &t->nodes[child].prefix_off);
                        if (r < 0)
                                return r;
                        t->nodes[child].prefix_len = (uint32_t) (match_len - i - 1);
                        link_child(t, node, child);
                        return add_value(t, child, key, value, filename, priority, line);
                }
                node = child;
                i++;
        }
}
